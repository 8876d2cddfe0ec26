"""``urnld jsonld …`` and ``urnld xmlns …``: outputs, exit codes, one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from urnld.cli import main

# rdflib's own JSON-LD parser and Dataset API emit DeprecationWarnings (ConjunctiveGraph,
# default_context) that are not ours to fix.
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning:rdflib")

ROOT = Path(__file__).resolve().parents[2]
CATALOG = ROOT / "examples" / "jsonld" / "catalog"
VC = ROOT / "examples" / "jsonld" / "vc-credential.jsonld"
SAML = ROOT / "examples" / "xml" / "saml-assertion.xml"
XLIFF = ROOT / "examples" / "xml" / "xliff-2.0.xlf"


def run(capsys, *argv):
    code = main(list(map(str, argv)))
    out, err = capsys.readouterr()
    return code, out, err


def test_expand_with_catalog(capsys):
    code, out, err = run(capsys, "jsonld", "expand", VC, "--catalog", CATALOG)
    assert (code, err) == (0, "")
    ids = {node["@id"] for node in json.loads(out)}
    assert ids == {"urn:uuid:3f2504e0-4f89-11d3-9a0c-0305e82c3301"}


def test_compact_with_a_urn_context_and_output_file(capsys, tmp_path):
    out_file = tmp_path / "out.jsonld"
    code, out, err = run(capsys, "jsonld", "compact", VC, "--catalog", CATALOG,
                         "--context", "URN:EXAMPLE:vc:context:v1", "-o", out_file)
    assert (code, out, err) == (0, "", "")
    data = json.loads(out_file.read_text(encoding="utf-8"))
    assert data["issuer"] == "uuid:6ba7b810-9dad-11d1-80b4-00c04fd430c8"


def test_flatten_with_a_context_file(capsys, tmp_path):
    doc = tmp_path / "doc.jsonld"
    doc.write_text(json.dumps([{"@id": "URN:EXAMPLE:a", "https://schema.org/name": "A"},
                               {"@id": "urn:example:a", "https://schema.org/age": 1}]))
    ctx = tmp_path / "ctx.jsonld"
    ctx.write_text(json.dumps({"@context": {"ex": "urn:example:", "@vocab": "https://schema.org/"}}))
    code, out, _ = run(capsys, "jsonld", "flatten", doc, "--context", ctx)
    assert code == 0
    assert json.loads(out)["@graph"] == [{"@id": "ex:a", "age": 1, "name": "A"}]


def test_context_from_xml(capsys):
    code, out, _ = run(capsys, "jsonld", "context", XLIFF)
    assert code == 0
    assert json.loads(out) == json.loads((ROOT / "examples/xml/xliff-2.0.context.jsonld").read_text())


def test_context_from_turtle(capsys, tmp_path):
    ttl = tmp_path / "a.ttl"
    ttl.write_text("@prefix yang: <urn:ietf:params:xml:ns:yang:ietf-interfaces> .\n"
                   "yang:a yang:b yang:c .\n")
    code, out, _ = run(capsys, "jsonld", "context", ttl)
    assert code == 0
    assert json.loads(out)["@context"]["yang"] == {
        "@id": "urn:ietf:params:xml:ns:yang:ietf-interfaces", "@prefix": True}


def test_hazards_stop_with_one_line_or_warn(capsys, tmp_path):
    doc = tmp_path / "base.jsonld"
    doc.write_text(json.dumps({"@context": {"@base": "urn:example:a:b"}, "@id": "c",
                               "https://schema.org/p": "x"}))
    code, out, err = run(capsys, "jsonld", "expand", doc)
    assert (code, out) == (2, "")
    assert err.startswith("urnld jsonld: error: JSON-LD /@id: relative reference <c> against the "
                          "URN base <urn:example:a:b>: ")
    assert err.endswith(" [urn-base]\n") and err.count("\n") == 1
    code, out, err = run(capsys, "jsonld", "expand", doc, "--hazards", "warn")
    assert code == 0 and json.loads(out)[0]["@id"] == "urn:c"
    assert err.startswith("urnld jsonld: warning: JSON-LD /@id: relative reference <c>")


@pytest.mark.parametrize(("argv", "message"), [
    (["jsonld", "compact", VC, "--catalog", CATALOG], "compact needs --context CTX"),
    (["jsonld", "expand", VC], "'urn:example:vc:context:v1' is not in the catalog (none given), "
                               "and nothing is fetched from the network without a fallback "
                               "loader"),
    (["jsonld", "expand", SAML], f"{SAML}: not JSON: Expecting value (line 1, column 1)"),
    (["jsonld", "expand", "/nonexistent.jsonld"], "/nonexistent.jsonld: No such file or directory"),
    (["xmlns", VC], f"{VC}:1:1: not well-formed XML: not well-formed (invalid token)"),
])
def test_user_errors_are_one_line_exit_2(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    command = argv[0]
    assert (code, out, err) == (2, "", f"urnld {command}: error: {message}\n")


def test_xmlns_human_output(capsys):
    code, out, _ = run(capsys, "xmlns", SAML)
    assert code == 1
    assert out.splitlines()[0] == (f"{SAML}: 3 URN namespaces, 0 invalid, 1 spelled more than "
                                   "one way, 10 problem concatenations")
    assert ("  same namespace, different spellings (XML sees 2 namespaces): "
            "'URN:OASIS:names:tc:SAML:2.0:assertion', 'urn:oasis:names:tc:SAML:2.0:assertion'"
            ) in out.splitlines()


def test_xmlns_json_across_files(capsys, tmp_path):
    other = tmp_path / "other.xml"
    other.write_text('<r xmlns="URN:EXAMPLE:ns:"/>')
    mine = tmp_path / "mine.xml"
    mine.write_text('<r xmlns="urn:example:ns:"/>')
    code, out, _ = run(capsys, "xmlns", "--json", mine, other)
    data = json.loads(out)
    assert code == 1
    assert [f["ok"] for f in data["files"]] == [True, True]
    assert data["equivalent_spellings_across_files"] == [["URN:EXAMPLE:ns:", "urn:example:ns:"]]
    code, out, _ = run(capsys, "xmlns", mine)
    assert code == 0


def test_cli_modules_import_nothing_heavy():
    probe = ("import sys, urnld.cli._jsonld, urnld.cli._xmlns; "
             "print(sorted(m for m in ('pyld', 'rdflib', 'urnld.jsonld') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_vc_demo_example_runs():
    out = subprocess.run([sys.executable, str(ROOT / "examples" / "jsonld" / "vc_demo.py")],
                         capture_output=True, text=True, check=True)
    assert "plain pyld: Dereferencing a URL did not result in a valid JSON-LD object." in out.stdout
    assert ("flattened nodes: ['uuid:3f2504e0-4f89-11d3-9a0c-0305e82c3301', "
            "'uuid:9c5b94b1-35ad-49bb-b118-8e8fc24abf80']") in out.stdout
