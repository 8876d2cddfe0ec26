"""Every command that reads RDF reads it through urnld.read: same findings, offline, one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from urnld.cli import main

ROOT = Path(__file__).resolve().parents[2]
VC = ROOT / "examples" / "jsonld" / "vc-credential.jsonld"
CATALOG = ROOT / "examples" / "jsonld" / "catalog"
COMMANDS = ["check", "canonicalize", "validate"]

HAZARD_DOCS = {
    "doc.ttl": "@base <urn:example:a:b> .\n<c> <http://example.org/p> \"v\" .\n",
    "doc.trig": "BASE <urn:example:a:b>\n<c> <http://example.org/p> \"v\" .\n",
    "doc.n3": "@base <urn:example:a:b> .\n<c> <http://example.org/p> \"v\" .\n",
    "doc.rdf": ('<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
                'xml:base="urn:example:a:b">\n<rdf:Description rdf:about="c">'
                '<p xmlns="http://example.org/">v</p></rdf:Description></rdf:RDF>'),
    "doc.jsonld": ('{"@context": {"@base": "urn:example:a:b"}, "@id": "c", '
                   '"http://example.org/p": "v"}'),
}


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("command", COMMANDS)
def test_the_bundled_credential_reads_with_its_catalog(capsys, command, tmp_path):
    extra = ["-o", tmp_path / "out.jsonld"] if command == "canonicalize" else []
    code, out, err = run(capsys, command, VC, "--catalog", CATALOG, *extra)
    assert code == 0
    # canonicalize ends with its one summary line; nothing else is said on stderr
    assert err == "" or (command == "canonicalize" and err.count("\n") == 1
                         and err.startswith("urnld canonicalize: 8 statements in"))
    if command == "check":
        assert out.startswith("OK: 0 invalid URNs (0 occurrences); 5 valid URN spellings not in ")
    if command == "canonicalize":
        ids = {n["@id"] for n in json.loads((tmp_path / "out.jsonld").read_text())}
        assert "urn:uuid:9c5b94b1-35ad-49bb-b118-8e8fc24abf80" in ids


@pytest.mark.parametrize("command", COMMANDS)
def test_without_the_catalog_nothing_is_fetched(capsys, command):
    code, out, err = run(capsys, command, VC)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1
    assert "'URN:Example:vc:context:v1' is not in the catalog (none given)" in err


@pytest.mark.parametrize("command", [*COMMANDS, "jsonld context"])
def test_remote_and_file_contexts_are_never_loaded(capsys, command, tmp_path):
    secret = tmp_path / "secret.jsonld"
    secret.write_text('{"@context": {"@vocab": "http://leak.example/"}}')
    for ctx in ("https://schema.org/", secret.as_uri()):
        doc = tmp_path / "doc.jsonld"
        doc.write_text(json.dumps({"@context": ctx, "@id": "urn:example:a", "name": "x"}))
        code, out, err = run(capsys, *command.split(), doc)
        assert code == 2 and "leak" not in out + err
        assert "is not in the catalog" in err


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("name", sorted(HAZARD_DOCS))
def test_a_relative_reference_against_a_urn_base_is_one_finding(capsys, tmp_path, command, name):
    doc = tmp_path / name
    doc.write_text(HAZARD_DOCS[name])
    code, out, err = run(capsys, command, doc)
    assert (code, out) == (2, "")
    (line,) = err.splitlines()
    assert line.startswith(f"urnld {command}: error: {doc}")
    assert "relative reference <c> against the URN base <urn:example:a:b>" in line
    assert line.endswith("[urn-base]")


def test_hazards_warn_goes_on(capsys, tmp_path):
    doc = tmp_path / "doc.ttl"
    doc.write_text(HAZARD_DOCS["doc.ttl"])
    code, out, err = run(capsys, "canonicalize", doc, "--hazards", "warn", "--format", "nt")
    assert code == 0
    assert out == '<urn:c> <http://example.org/p> "v" .\n'
    assert err.startswith(f"urnld canonicalize: warning: {doc}:2:1: relative reference <c>")


def test_entity_declarations_are_refused_by_every_command(capsys, tmp_path):
    bomb = tmp_path / "bomb.rdf"
    bomb.write_text('<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaa">]>'
                    '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/>')
    for command in COMMANDS:
        code, _, err = run(capsys, command, bomb)
        assert code == 2 and "entity declarations are refused in RDF/XML" in err


def test_input_format_overrides_the_extension(capsys, tmp_path):
    doc = tmp_path / "data.txt"
    doc.write_text('@prefix ex: <http://example.org/> . <urn:ISBN:0-395-36341-1> ex:p "v" .')
    code, out, _ = run(capsys, "check", doc, "--input-format", "ttl")
    assert code == 0 and out.startswith("OK: 0 invalid URNs")
    code, _, err = run(capsys, "validate", doc, "--input-format", "yaml")
    assert code == 2 and "unknown RDF syntax 'yaml'" in err
