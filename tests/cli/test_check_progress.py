"""``check --progress`` as ``canonicalize --progress``: forced on or off, default the terminal."""

from __future__ import annotations

from pathlib import Path

import pytest

from urnld.cli import main


@pytest.mark.parametrize(("flag", "drawn"), [("--progress", True), ("--no-progress", False),
                                             (None, False)])  # stderr is no terminal here
def test_check_progress_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                             flag: str | None, drawn: bool) -> None:
    import urnld.cli._common as common

    made: list[str] = []

    class Spy(common.ProgressLine):  # type: ignore[misc]
        def __init__(self, label: str, *args: object, **kwargs: object) -> None:
            made.append(label)
            super().__init__(label, *args, **kwargs)

    monkeypatch.setattr(common, "ProgressLine", Spy)
    data = tmp_path / "a.nt"
    data.write_text("<URN:ISBN:0-395-36341-1> <http://e/p> <urn:example:a> .\n")
    argv = ["check", str(data), "--no-config"] + ([flag] if flag else [])
    assert main(argv) == 0
    assert bool(made) is drawn
