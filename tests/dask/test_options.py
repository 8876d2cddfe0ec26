"""The Dask entry points take the one options value as the library's file jobs do: what they
run is given whole, and what they do not run is refused before any cluster starts."""

from __future__ import annotations

from pathlib import Path

import pytest

import urnld.dask
from urnld import Policy
from urnld.errors import URNError
from urnld.stream import CanonOptions

LINES = b"<URN:ISBN:0-395-36341-1> <http://e/p> \"URN:ISBN:0-395-36341-1\" .\n"


def _input(tmp_path: Path) -> Path:
    src = tmp_path / "a.nt"
    src.write_bytes(LINES)
    return src


@pytest.mark.parametrize("options", [CanonOptions(link=True),
                                     CanonOptions(policy=Policy(strict=True)),
                                     CanonOptions(link_locators=True)])
def test_check_files_refuses_what_it_does_not_run(tmp_path: Path,
                                                  options: CanonOptions) -> None:
    # no scheduler at this address: the refusal comes before any connection
    with pytest.raises(URNError, match="default options only"):
        urnld.dask.check_files([_input(tmp_path)], scheduler="tcp://127.0.0.1:9",
                               options=options)


def test_digest_files_refuses_what_it_does_not_run(tmp_path: Path) -> None:
    with pytest.raises(URNError, match="ignore_components and literals only"):
        urnld.dask.digest_files([_input(tmp_path)], scheduler="tcp://127.0.0.1:9",
                                options=CanonOptions(link=True))
    with pytest.raises(TypeError, match="not both"):
        urnld.dask.digest_files([_input(tmp_path)], scheduler="tcp://127.0.0.1:9",
                                options=CanonOptions(), literals=True)


@pytest.mark.slow
def test_options_give_what_the_keywords_give(tmp_path: Path, dask_scheduler: str) -> None:
    src = _input(tmp_path)
    by_keywords = urnld.dask.digest_files([src], scheduler=dask_scheduler, literals=True)
    by_options = urnld.dask.digest_files([src], scheduler=dask_scheduler,
                                         options=CanonOptions(literals=True))
    plain = urnld.dask.digest_files([src], scheduler=dask_scheduler)
    assert by_options == by_keywords != plain  # literals=True rewrote the literal too
    default = urnld.dask.check_files([src], scheduler=dask_scheduler, options=CanonOptions())
    assert default == urnld.dask.check_files([src], scheduler=dask_scheduler)
