"""Generate a deterministic URN-dense N-Triples dump (merged catalogs and link sets).

Unlike the catalog dump of bench/canonicalize.py (mostly literals, each URN spelling repeated
many times), every statement here carries one or two URN IRIs and most spellings occur about
twice: records of three statements about one entity (its type, a link to another entity, a
``sameAs`` to another spelling of itself or a title), where each mention of an entity draws a
fresh spelling. Spellings vary the scheme and NID case (``urn``/``URN``/``Urn``, ``isbn``/
``ISBN``/``Isbn``), hyphens in ISBNs, the case of UUIDs and the case of ``%XX`` hex digits (many
NSSs carry escapes such as ``%c3%a9``, ``%2F``). About a fifth of the entities are invalid under
their namespace's rules (ISBN/ISSN check digits, malformed UUIDs, OIDs with leading zeros), and
about 2% use ``X-`` NIDs that RFC 8141 rules out. NIDs: isbn, issn, uuid, nbn (namespace rules
in urnld) and example, oid, epc, ogc, oasis, publicid, and an unregistered ``lcat`` (no rules).

    python bench/gen_dense.py out.nt --triples 300000

The same arguments always give the same bytes.
"""

from __future__ import annotations

import argparse
import random
import uuid
from pathlib import Path

RDF_TYPE = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>"
REFS = "<http://purl.org/dc/terms/references>"
SAME = "<http://www.w3.org/2002/07/owl#sameAs>"
TITLE = "<http://purl.org/dc/terms/title>"
TYPES = ("<http://schema.org/Book>", "<http://schema.org/Dataset>",
         "<http://schema.org/CreativeWork>", "<http://schema.org/Periodical>")
_ESCAPES = ("%c3%a9", "%C3%A9", "%2f", "%2F", "%20", "%3a", "%e2%80%93", "%E2%80%93", "%2c",
            "%27", "%5b", "%5D")
_WORDS = ("alpha", "Beta", "catalog", "Delta", "item", "Record", "vol", "map", "Sheet", "box")


def _isbn(rng: random.Random, bad: bool) -> str:
    if rng.random() < 0.5:
        d = [rng.randrange(10) for _ in range(9)]
        c = (11 - sum((10 - i) * x for i, x in enumerate(d)) % 11) % 11
        if bad:
            c = (c + 1 + rng.randrange(9)) % 11
        return "".join(map(str, d)) + ("X" if c == 10 else str(c))
    d = [9, 7, rng.choice((8, 9))] + [rng.randrange(10) for _ in range(9)]
    c = (10 - sum((3 if i % 2 else 1) * x for i, x in enumerate(d)) % 10) % 10
    if bad:
        c = (c + 1 + rng.randrange(9)) % 10
    return "".join(map(str, d)) + str(c)


def _issn(rng: random.Random, bad: bool) -> str:
    d = [rng.randrange(10) for _ in range(7)]
    c = (11 - sum((8 - i) * x for i, x in enumerate(d)) % 11) % 11
    if bad:
        c = (c + 1 + rng.randrange(9)) % 11
    s = "".join(map(str, d)) + ("X" if c == 10 else str(c))
    return s[:4] + "-" + s[4:]


def _escaped(rng: random.Random, n: int) -> str:
    """A path-like NSS with *n* %-escapes, hex in either case."""
    parts = []
    for _ in range(n):
        parts.append(rng.choice(_WORDS) + str(rng.randrange(10_000)))
        parts.append(rng.choice(_ESCAPES))
    parts.append(str(rng.randrange(10**6)))
    return "".join(parts)


def entity(rng: random.Random) -> tuple[str, str]:
    """(NID, NSS) of one entity, in its plain spelling."""
    bad = rng.random() < 0.2
    k = rng.random()
    if bad and k < 0.1:  # RFC 8141 rules out X- NIDs: left as written, reported invalid
        return "X-local", _escaped(rng, 1)
    if k < 0.25:
        return "isbn", _isbn(rng, bad)
    if k < 0.35:
        return "issn", _issn(rng, bad)
    if k < 0.47:
        u = str(uuid.UUID(int=rng.getrandbits(128), version=4))
        return "uuid", u[:-1] if bad else u
    if k < 0.55:
        return "nbn", rng.choice(("de:gbv:089-", "se:uu:diva-", "fi-fe", "ch:bel-")) + str(
            rng.randrange(10**8))
    if k < 0.63:
        arcs = [str(rng.randrange(1, 3))] + [str(rng.randrange(1, 40000)) for _ in range(5)]
        if bad:
            arcs[2] = "0" + arcs[2]
        return "oid", ".".join(arcs)
    if k < 0.70:
        return "epc", f"id:sgtin:{rng.randrange(10**7):07d}.{rng.randrange(10**6):06d}." + str(
            rng.randrange(10**9))
    if k < 0.76:
        return "ogc", f"def:crs:EPSG::{rng.randrange(2000, 33000)}:" + _escaped(rng, 1)
    if k < 0.82:
        return "oasis", "names:tc:" + _escaped(rng, 2)
    if k < 0.88:
        return "publicid", "-:" + _escaped(rng, 2)
    if k < 0.94:
        return "example", _escaped(rng, 3)
    return "lcat", _escaped(rng, 2)


def _flip_hex(rng: random.Random, nss: str) -> str:
    out = []
    i = 0
    while i < len(nss):
        if nss[i] == "%":
            h = nss[i + 1 : i + 3]
            out.append("%" + (h.lower() if rng.random() < 0.5 else h.upper()))
            i += 3
        else:
            out.append(nss[i])
            i += 1
    return "".join(out)


def spell(rng: random.Random, ent: tuple[str, str]) -> str:
    """A fresh spelling of *ent*: scheme and NID case, escapes' hex case, ISBN hyphens,
    UUID case."""
    nid, nss = ent
    scheme = rng.choice(("urn", "urn", "URN", "Urn"))
    nid = rng.choice((nid, nid, nid.upper(), nid.capitalize()))
    low = nid.lower()
    if low == "isbn" and rng.random() < 0.5:
        cut = [1, 4, 9] if len(nss) == 10 else [3, 4, 7, 12]
        nss = "-".join(nss[a:b] for a, b in zip([0, *cut], [*cut, len(nss)], strict=True))
    elif low == "uuid" and rng.random() < 0.5:
        nss = nss.upper()
    if "%" in nss:
        nss = _flip_hex(rng, nss)
    return f"{scheme}:{nid}:{nss}"


def generate(path: Path, triples: int, seed: int = 16) -> None:
    """Write ``triples`` statements (rounded down to a multiple of 3)."""
    rng = random.Random(seed)
    records = max(1, triples // 3)
    # Links point at entities met shortly before (a link set is grouped by source), so a
    # bounded cache sees the target again: keep a window of recent entities.
    window: list[tuple[str, str]] = []
    with open(path, "w", encoding="utf-8") as f:
        w = f.write
        for r in range(records):
            ent = entity(rng)
            window.append(ent)
            if len(window) > 5000:
                window.pop(0)
            s = spell(rng, ent)
            w(f"<{s}> {RDF_TYPE} {rng.choice(TYPES)} .\n")
            w(f"<{s}> {REFS} <{spell(rng, rng.choice(window))}> .\n")
            if r % 2:
                w(f"<{s}> {SAME} <{spell(rng, ent)}> .\n")
            else:
                w(f'<{s}> {TITLE} "Record {r} \\u00e9"@en .\n')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--triples", type=int, default=300_000)
    parser.add_argument("--seed", type=int, default=16)
    args = parser.parse_args()
    generate(args.out, args.triples, args.seed)


if __name__ == "__main__":
    main()
