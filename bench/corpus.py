"""A deterministic corpus of varied URNs for the parse benchmark (bench/parse.py).

Same seed, same list, on any machine (``random.Random(seed)`` only; no urnld import, so the
corpus cannot be shaped by the code it measures). The mix imitates catalog data with its
messiness:

* ~40 registered NIDs plus random ones, spelled ``urn:``/``URN:``/``Urn:`` and with NID case
  variants;
* realistic NSS shapes per NID: ISBN-10/13 with and without hyphens, UUIDs in both cases, IETF
  RFC numbers, OIDs, DOIs, ISSNs, NBNs, XML namespace paths, and generic strings with ``/``,
  ``:``, sub-delimiters and ``%XX`` escapes (upper and lower case, UTF-8 sequences);
* ~8% with r-, q- or f-components;
* ~6% invalid: space, bare ``?``, broken ``%``, empty NSS, one-character NID, trailing ``-`` in
  the NID, non-ASCII, ``X-`` NIDs (syntax-valid, policy-invalid).

Run ``python bench/corpus.py --n 10 --seed 8141`` to see a sample.
"""

from __future__ import annotations

import argparse
import random
import string
import uuid

NIDS = [
    "isbn", "uuid", "ietf", "oid", "doi", "issn", "nbn", "example", "iso", "oasis", "ogc",
    "mpeg", "epc", "lex", "publicid", "xmpp", "isan", "isni", "lei", "uci", "nzl", "ieee",
    "iptc", "itu", "etsi", "3gpp", "nena", "dvb", "smpte", "swift", "tva", "web3d", "wmo",
    "schac", "mace", "newsml", "oma", "gsma", "s1000d", "urn-7",
]
_ALNUM = string.ascii_letters + string.digits
_PCHAR = _ALNUM + "-._~!$&'()*+,;=:@"


def _isbn10(rng: random.Random) -> str:
    digits = [rng.randrange(10) for _ in range(9)]
    check = (11 - sum((10 - i) * d for i, d in enumerate(digits)) % 11) % 11
    body = "".join(map(str, digits)) + ("X" if check == 10 else str(check))
    if rng.random() < 0.5:
        return f"{body[0]}-{body[1:4]}-{body[4:9]}-{body[9]}"
    return body if rng.random() < 0.8 else body.lower()


def _isbn13(rng: random.Random) -> str:
    digits = [9, 7, rng.choice([8, 9])] + [rng.randrange(10) for _ in range(9)]
    check = (10 - sum((3 if i % 2 else 1) * d for i, d in enumerate(digits)) % 10) % 10
    body = "".join(map(str, digits)) + str(check)
    if rng.random() < 0.5:
        return f"{body[:3]}-{body[3]}-{body[4:7]}-{body[7:12]}-{body[12]}"
    return body


def _uuid(rng: random.Random) -> str:
    text = str(uuid.UUID(int=rng.getrandbits(128), version=4))
    return text.upper() if rng.random() < 0.3 else text


def _escape(rng: random.Random) -> str:
    choice = rng.random()
    if choice < 0.4:  # a reserved or excluded ASCII character
        text = "%" + rng.choice(["2C", "2F", "3A", "20", "23", "3F", "25", "22"])
    elif choice < 0.8:  # a non-ASCII character as UTF-8
        ch = rng.choice("éüßøåçñ中文日本語аб€✓")
        text = "".join(f"%{b:02X}" for b in ch.encode("utf-8"))
    else:
        text = "%" + rng.choice(["41", "7E", "2D", "00", "C3"])  # lint material
    return text.lower() if rng.random() < 0.25 else text


def _generic(rng: random.Random) -> str:
    out = [rng.choice(_ALNUM)]
    for _ in range(rng.randrange(3, 40)):
        r = rng.random()
        if r < 0.08:
            out.append(_escape(rng))
        elif r < 0.14:
            out.append(rng.choice("/:"))
        else:
            out.append(rng.choice(_PCHAR) if r < 0.25 else rng.choice(_ALNUM))
    return "".join(out)


def _nss(rng: random.Random, nid: str) -> str:
    if nid == "isbn":
        return _isbn10(rng) if rng.random() < 0.5 else _isbn13(rng)
    if nid == "uuid":
        return _uuid(rng)
    if nid == "ietf":
        return rng.choice([
            f"rfc:{rng.randrange(1, 9800)}",
            f"params:xml:ns:yang:ietf-{rng.choice(['interfaces', 'ip', 'routing'])}",
            f"bcp:{rng.randrange(1, 240)}",
        ])
    if nid == "oid":
        return ".".join(str(rng.randrange(0, 3 if i == 0 else 50000)) for i in range(rng.randrange(2, 9)))
    if nid == "doi":
        return f"10.{rng.randrange(1000, 99999)}:{_generic(rng)}"
    if nid == "issn":
        return f"{rng.randrange(1000, 9999)}-{rng.randrange(100, 999)}{rng.choice('0123456789X')}"
    if nid == "nbn":
        cc = rng.choice(["de", "fi", "se", "nl", "it", "ch"])
        return f"{cc}:{rng.choice(['101', 'fi-fe', 'kb', 'gbv'])}:{rng.randrange(10**6, 10**9)}"
    return _generic(rng)


def _components(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.03:
        return "?+" + _generic(rng)
    if r < 0.06:
        return "?=" + rng.choice(["lang=en", "format=pdf", "v=" + str(rng.randrange(9))])
    if r < 0.09:
        return "#" + rng.choice(["", "p" + str(rng.randrange(300)), _generic(rng)])
    return ""


def _invalid(rng: random.Random, valid: str) -> str:
    kind = rng.randrange(8)
    cut = rng.randrange(4, len(valid))
    if kind == 0:
        return valid[:cut] + " " + valid[cut:]
    if kind == 1:
        return valid + "?x=y"
    if kind == 2:
        return valid + rng.choice(["%", "%2", "%zz"])
    if kind == 3:
        return "urn:" + valid.split(":")[1] + ":"
    if kind == 4:
        return "urn:" + rng.choice(string.ascii_lowercase) + ":" + _generic(rng)
    if kind == 5:
        return "urn:" + rng.choice(NIDS) + "-:" + _generic(rng)
    if kind == 6:
        return valid + rng.choice("éü中")
    return "urn:x-" + rng.choice(NIDS) + ":" + _generic(rng)  # syntax-valid, policy-invalid


def build(n: int = 120_000, seed: int = 8141) -> list[str]:
    """*n* URN strings, a pure function of (n, seed).

    >>> build(3, seed=1) == build(3, seed=1)
    True
    """
    rng = random.Random(seed)
    random_nids = [
        rng.choice(_ALNUM) + "".join(rng.choice(_ALNUM + "-") for _ in range(rng.randrange(1, 12)))
        + rng.choice(_ALNUM)
        for _ in range(300)
    ]
    out = []
    for _ in range(n):
        nid = rng.choice(NIDS) if rng.random() < 0.8 else rng.choice(random_nids)
        r = rng.random()
        if r < 0.1:
            nid = nid.upper()
        elif r < 0.15:
            nid = nid.capitalize()
        scheme = "urn" if rng.random() < 0.85 else rng.choice(["URN", "Urn"])
        text = f"{scheme}:{nid}:{_nss(rng, nid.lower())}{_components(rng)}"
        if rng.random() < 0.06:
            text = _invalid(rng, text)
        out.append(text)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=20)
    parser.add_argument("--seed", type=int, default=8141)
    args = parser.parse_args()
    for text in build(args.n, args.seed):
        print(text)


if __name__ == "__main__":
    main()
