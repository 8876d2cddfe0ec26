"""A verifiable-credential-style document with urn:uuid: ids in mixed case, whose context is
named by a URN and served from a local catalog (examples/jsonld/catalog/).

Run:  python examples/jsonld/vc_demo.py

Shows: plain pyld cannot even load the context offline; urnld loads it from the catalog by any
spelling, canonicalizes the ids (RFC 8141 + the uuid namespace rule: hex is case-insensitive),
merges the two spellings of the subject into one node, and compacts every id with "uuid:".
"""

import json
from pathlib import Path

from pyld import jsonld as pyld

from urnld import jsonld

HERE = Path(__file__).resolve().parent
doc = json.loads((HERE / "vc-credential.jsonld").read_text(encoding="utf-8"))
loader = jsonld.URNDocumentLoader(HERE / "catalog")


def offline(url, options):
    raise RuntimeError(f"no network in this demo: {url}")


try:
    pyld.expand(doc, {"documentLoader": offline})
except pyld.JsonLdError as e:
    print("plain pyld:", e.args[0], "\n")

print("node ids after flattening:", sorted({n["@id"] for n in jsonld.flatten(doc, loader=loader)}))
compacted = jsonld.compact(doc, "urn:example:vc:context:v1", loader=loader)
print("compacted:")
print(json.dumps(compacted, indent=2))
flat = jsonld.flatten(doc, "urn:example:vc:context:v1", loader=loader)
print("flattened nodes:", [n["id"] for n in flat["@graph"]])
ds = jsonld.to_rdf(doc, loader=loader)
print("triples:", len(ds), "- subjects:", sorted({str(s) for s, _, _, _ in ds.quads()}))
