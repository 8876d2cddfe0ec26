"""Generate a deterministic multi-file catalog dump full of URN spelling variants.

Books (urn:isbn, ISBN-10 and -13 with and without hyphens, ``x``/``X``), serials (urn:issn),
theses (urn:nbn), datasets (urn:uuid in both cases), items with ``%2c``/``%2C`` escapes and
r/q/f-components (urn:example), spelled with random ``URN``/``urn`` and NID case; plus URNs in
plain and ``xsd:anyURI`` literals, non-URN IRIs, language-tagged literals with escapes, invalid
URNs (bad check digits), and blank nodes whose labels repeat in every file (they must stay
per-file). Every ``--quads-every``-th file is N-Quads (graph names are URNs too), every
``--gz-every``-th is gzip-compressed.

The same arguments always give the same bytes (file ``i`` draws from its own seeded generator).

    python bench/gen_dump.py OUTDIR --triples 2000000 --files 8
"""

from __future__ import annotations

import argparse
import gzip
import random
import sys
import uuid
from collections.abc import Sequence
from pathlib import Path

DCT = "http://purl.org/dc/terms/"
FOAF = "http://xmlns.com/foaf/0.1/"
XSD_ANYURI = "http://www.w3.org/2001/XMLSchema#anyURI"
RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
BIBO = "http://purl.org/ontology/bibo/"

# Entities per kind, shared by all files: a catalog mentions the same URNs over and over, in
# different spellings, which is the case the tool exists for.
POOL = 20_000


def _urn_prefix(rng: random.Random, nid: str) -> str:
    scheme = rng.choice(("urn", "urn", "urn", "URN", "Urn"))
    nid = rng.choice((nid, nid, nid.upper(), nid.capitalize()))
    return f"{scheme}:{nid}:"


def _isbn10(rng: random.Random) -> str:
    digits = [rng.randrange(10) for _ in range(9)]
    check = (11 - sum((10 - i) * d for i, d in enumerate(digits)) % 11) % 11
    return "".join(map(str, digits)) + ("X" if check == 10 else str(check))


def _isbn13(rng: random.Random) -> str:
    digits = [9, 7, rng.choice((8, 9))] + [rng.randrange(10) for _ in range(9)]
    check = (10 - sum((3 if i % 2 else 1) * d for i, d in enumerate(digits)) % 10) % 10
    return "".join(map(str, digits)) + str(check)


def _issn(rng: random.Random) -> str:
    digits = [rng.randrange(10) for _ in range(7)]
    check = (11 - sum((8 - i) * d for i, d in enumerate(digits)) % 11) % 11
    return "".join(map(str, digits)) + ("X" if check == 10 else str(check))


class Pool:
    """The shared entities, each a function of the seed only."""

    def __init__(self, seed: int) -> None:
        rng = random.Random(f"pool:{seed}")
        self.isbn = [_isbn10(rng) if rng.random() < 0.5 else _isbn13(rng) for _ in range(POOL)]
        self.issn = [_issn(rng) for _ in range(POOL // 20)]
        self.uuid = [str(uuid.UUID(int=rng.getrandbits(128), version=4)) for _ in range(POOL)]
        self.nbn = [
            rng.choice(("de:gbv:089-", "se:uu:diva-", "fi-fe", "ch:bel-")) + str(rng.randrange(10**7))
            for _ in range(POOL)
        ]


def isbn_variant(rng: random.Random, isbn: str) -> str:
    nss = isbn
    if rng.random() < 0.5:  # hyphenate somewhere plausible
        cut = [1, 4, 9] if len(isbn) == 10 else [3, 4, 7, 12]
        nss = "-".join(isbn[a:b] for a, b in zip([0, *cut], [*cut, len(isbn)], strict=True))
    if nss.endswith("X") and rng.random() < 0.5:
        nss = nss[:-1] + "x"
    return _urn_prefix(rng, "isbn") + nss


def issn_variant(rng: random.Random, issn: str) -> str:
    nss = issn[:4] + "-" + issn[4:] if rng.random() < 0.6 else issn
    if nss.endswith("X") and rng.random() < 0.5:
        nss = nss[:-1] + "x"
    return _urn_prefix(rng, "issn") + nss


def uuid_variant(rng: random.Random, u: str) -> str:
    return _urn_prefix(rng, "uuid") + (u.upper() if rng.random() < 0.3 else u)


def nbn_variant(rng: random.Random, nbn: str) -> str:
    prefix, _, rest = nbn.partition("-")
    if rng.random() < 0.3:
        prefix = prefix.upper()
    return _urn_prefix(rng, "nbn") + prefix + "-" + rest


def example_variant(rng: random.Random, n: int) -> str:
    comma = rng.choice(("%2c", "%2C", "%2C"))
    tail = rng.choice(("", "", "", "?+res", "?=q%3dx", "#sec1", "?+res?=q#frag"))
    return _urn_prefix(rng, "example") + f"item{comma}{n}" + tail


def _lit(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def file_lines(pool: Pool, seed: int, index: int, count: int, quads: bool) -> list[str]:
    """The ``count`` statement lines of file ``index`` (without newlines)."""
    rng = random.Random(f"file:{seed}:{index}")
    graph = ""
    out: list[str] = []
    while len(out) < count:
        if quads and rng.random() < 0.05:
            graph = " <" + uuid_variant(rng, rng.choice(pool.uuid)) + ">" if rng.random() < 0.7 else (
                f" <http://example.org/graph/{rng.randrange(50)}>"
            )
        g = graph if quads else ""
        k = rng.randrange(POOL)
        kind = rng.random()
        if kind < 0.45:
            s = "<" + isbn_variant(rng, pool.isbn[k]) + ">"
            out.append(f"{s} <{RDF_TYPE}> <{BIBO}Book>{g} .")
            out.append(f"{s} <{DCT}title> " + _lit(f'Book "{k}"\nvol. é') + f"@en{g} .")
            out.append(f"{s} <{DCT}isPartOf> <" + issn_variant(rng, rng.choice(pool.issn)) + f">{g} .")
            out.append(f"{s} <{DCT}identifier> " + _lit(isbn_variant(rng, pool.isbn[k])) + f"{g} .")
            # Blank nodes labelled _:a<k> in every file: equal labels in two files are two nodes.
            out.append(f"{s} <{DCT}creator> _:a{k % 500}{g} .")
            out.append(f"_:a{k % 500} <{FOAF}name> " + _lit(f"Author {k % 500}") + f"{g} .")
        elif kind < 0.65:
            s = "<" + uuid_variant(rng, pool.uuid[k]) + ">"
            out.append(f"{s} <{RDF_TYPE}> <http://www.w3.org/ns/dcat#Dataset>{g} .")
            out.append(
                f"{s} <http://www.w3.org/2002/07/owl#sameAs> "
                + _lit(uuid_variant(rng, pool.uuid[k]))
                + f"^^<{XSD_ANYURI}>{g} ."
            )
            out.append(f"{s} <{DCT}relation> <http://example.org/data/{k}>{g} .")
        elif kind < 0.85:
            s = "<" + nbn_variant(rng, pool.nbn[k]) + ">"
            out.append(f"{s} <{RDF_TYPE}> <{BIBO}Thesis>{g} .")
            out.append(f"{s} <{DCT}references> <" + isbn_variant(rng, pool.isbn[(k * 7) % POOL]) + f">{g} .")
            out.append(f"{s} <{DCT}date> \"{1990 + k % 35}\"^^<http://www.w3.org/2001/XMLSchema#gYear>{g} .")
        elif kind < 0.98:
            s = "<" + example_variant(rng, k) + ">"
            out.append(f"{s} <{DCT}hasPart> <" + example_variant(rng, (k + 1) % POOL) + f">{g} .")
            out.append(f"{s} <{DCT}description> " + _lit(example_variant(rng, k)) + f"{g} .")
        else:
            # Invalid URNs: a wrong ISBN check digit, an NSS that is no ISBN at all (both still
            # URN syntax), and a one-letter NID (not URN syntax: left as it is, reported).
            bad = pool.isbn[k][:-1] + ("0" if pool.isbn[k][-1] != "0" else "1")
            out.append(f"<urn:isbn:{bad}> <{DCT}title> " + _lit("bad check digit") + f"{g} .")
            out.append(f"<urn:isbn:not-an-isbn-{k}> <{DCT}title> " + _lit("bad nss") + f"{g} .")
            out.append(f"<urn:a:{k}> <{DCT}title> " + _lit("one-letter NID") + f"{g} .")
    return out[:count]


def generate(
    outdir: str | Path,
    *,
    triples: int,
    files: int,
    seed: int = 0,
    quads_every: int = 3,
    gz_every: int = 0,
) -> list[Path]:
    """Write the dump into ``outdir`` (created) and return the file paths in order."""
    out = Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    pool = Pool(seed)
    paths: list[Path] = []
    for i in range(files):
        count = triples // files + (1 if i < triples % files else 0)
        quads = quads_every > 0 and i % quads_every == quads_every - 1
        gz = gz_every > 0 and i % gz_every == gz_every - 1
        name = f"part-{i:05d}.{'nq' if quads else 'nt'}{'.gz' if gz else ''}"
        data = ("\n".join(file_lines(pool, seed, i, count, quads)) + "\n").encode()
        path = out / name
        if gz:
            # mtime=0: identical bytes on every run.
            with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as f:
                f.write(data)
        else:
            path.write_bytes(data)
        paths.append(path)
    return paths


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("outdir")
    ap.add_argument("--triples", type=int, default=100_000, help="total statements (default 100000)")
    ap.add_argument("--files", type=int, default=4)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--quads-every", type=int, default=3, help="every Nth file is N-Quads (0: none)")
    ap.add_argument("--gz-every", type=int, default=0, help="every Nth file is gzipped (0: none)")
    a = ap.parse_args(argv)
    paths = generate(
        a.outdir, triples=a.triples, files=a.files, seed=a.seed,
        quads_every=a.quads_every, gz_every=a.gz_every,
    )
    total = sum(p.stat().st_size for p in paths)
    print(f"wrote {len(paths)} files, {a.triples} statements, {total / 1e6:.1f} MB to {a.outdir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
