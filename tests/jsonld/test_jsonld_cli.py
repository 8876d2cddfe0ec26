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
    assert code == 1  # two spellings of one namespace
    # SAML is not RDF/XML: no concatenation hazards
    assert out.splitlines()[0] == (f"{SAML}: 3 URN namespaces, 0 invalid, 1 spelled more than "
                                   "one way")
    code, out, _ = run(capsys, "xmlns", "--rdfxml", SAML)
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


UBL = ('<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" '
       'xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">'
       '<cbc:ID>1</cbc:ID></Invoice>')  # OASIS UBL 2.1 invoice namespaces


def test_xmlns_non_rdf_xml_passes_the_gate(capsys, tmp_path):
    invoice = tmp_path / "invoice.xml"
    invoice.write_text(UBL)
    code, out, _ = run(capsys, "xmlns", invoice)
    assert code == 0, out
    # a UN/CEFACT CII invoice: two-letter NID 'un' is a warning, not an invalid namespace
    cii = tmp_path / "cii.xml"
    cii.write_text('<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:'
                   'CrossIndustryInvoice:100"/>')
    code, out, _ = run(capsys, "xmlns", cii)
    assert code == 0 and "0 invalid" in out


def test_xmlns_unreadable_file_does_not_lose_the_others(capsys, tmp_path):
    good = tmp_path / "good.xml"
    good.write_text(UBL)
    broken = tmp_path / "broken.xml"
    broken.write_text("<r><unclosed></r>")
    code, out, _ = run(capsys, "xmlns", "--json", good, broken, tmp_path / "missing.xml")
    data = json.loads(out)
    assert code == 1
    assert [f["source"] for f in data["files"]] == [str(good)]
    assert [u["source"] for u in data["unreadable"]] == [str(broken), str(tmp_path / "missing.xml")]
    assert "not well-formed" in data["unreadable"][0]["error"]
    code, out, err = run(capsys, "xmlns", good, broken)
    assert code == 1 and out.startswith(f"{good}: ") and "not well-formed XML" in err
    # nothing readable at all: 2
    code, out, _ = run(capsys, "xmlns", "--json", broken)
    assert code == 2 and json.loads(out)["files"] == []


def test_xmlns_reports_xml_base_urn(capsys, tmp_path):
    doc = tmp_path / "base.xml"
    doc.write_text('<r xmlns="urn:example:ns:" xml:base="urn:example:base:"/>')
    code, out, _ = run(capsys, "xmlns", doc)
    assert code == 1
    assert "1 xml:base URN" in out.splitlines()[0] and "RFC 8141 §4.1" in out


def test_invalid_urn_ids_are_findings_and_the_output_is_written(capsys, tmp_path):
    doc = tmp_path / "d.jsonld"
    doc.write_text(json.dumps({"@id": "urn:x-foo:bar", "https://schema.org/p": "x"}))
    code, out, err = run(capsys, "jsonld", "expand", doc)
    assert code == 1
    assert json.loads(out) == [{"@id": "urn:x-foo:bar", "https://schema.org/p": [{"@value": "x"}]}]
    assert err == (f"urnld jsonld: finding: {doc}: 'urn:x-foo:bar' is not a valid URN: 'X-' "
                   "experimental NIDs such as 'x-foo' were removed by RFC 8141 (App. C); this "
                   "is not a valid URN [invalid-urn]\n")


def test_no_base_is_invented(capsys, tmp_path):
    # pyld 3.3 resolves against "http://example.org/base/" when no base is given; JSON-LD 1.1
    # keeps the reference relative. --base gives one.
    doc = tmp_path / "d.jsonld"
    doc.write_text(json.dumps({"@id": "part-1", "https://schema.org/p": "x"}))
    code, out, err = run(capsys, "jsonld", "expand", doc)
    assert (code, err, json.loads(out)[0]["@id"]) == (0, "", "part-1")
    code, out, err = run(capsys, "jsonld", "expand", doc, "--base", "https://e.org/things/")
    assert (code, err, json.loads(out)[0]["@id"]) == (0, "", "https://e.org/things/part-1")


def test_property_based_index_maps_are_kept(capsys, tmp_path):
    # A W3C Thing Description's affordances: "properties" is an index map on "name".
    doc = tmp_path / "td.jsonld"
    doc.write_text(json.dumps({
        "@context": {"@vocab": "https://www.w3.org/2019/wot/td#",
                     "properties": {"@id": "hasPropertyAffordance", "@container": "@index",
                                    "@index": "name"}},
        "@id": "urn:uuid:0804d572-cce8-422a-bb7c-4412fcd56f06",
        "properties": {"status": {"title": "Status"}}}))
    code, out, err = run(capsys, "jsonld", "expand", doc)
    assert (code, err) == (0, "")
    (affordance,) = json.loads(out)[0]["https://www.w3.org/2019/wot/td#hasPropertyAffordance"]
    assert affordance["https://www.w3.org/2019/wot/td#name"] == [{"@value": "status"}]


def test_frame_output_carries_a_canonical_context(capsys, tmp_path):
    doc = tmp_path / "d.jsonld"
    doc.write_text(json.dumps([{"@id": "URN:ISBN:0-395-36341-1",
                                "@type": "https://schema.org/Book"}]))
    frame = tmp_path / "f.jsonld"
    frame.write_text(json.dumps({"@context": {"@vocab": "https://schema.org/",
                                              "isbn": "URN:ISBN:"}, "@type": "Book"}))
    code, out, err = run(capsys, "jsonld", "frame", doc, "--frame", frame)
    framed = json.loads(out)
    assert (code, err) == (0, "")
    assert (framed["@context"]["isbn"], framed["@id"]) == ("urn:isbn:", "isbn:0395363411")
