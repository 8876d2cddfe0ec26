"""Build of the optional compiled accelerator (``urnld._core._speedups``); metadata is in pyproject.

The accelerator is built where a C compiler and the Python headers are present. Where the build
fails (no compiler, no headers) or ``URNLD_PURE_PYTHON=1`` is set at build time, the install
goes on without it and urnld runs its pure-Python code, with the same results.
"""

from __future__ import annotations

import glob
import os
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


def _pure() -> bool:
    return os.environ.get("URNLD_PURE_PYTHON", "") not in ("", "0")


class OptionalBuildExt(build_ext):
    """build_ext that skips the accelerator, with one line on stderr, when it cannot build."""

    def run(self) -> None:
        if _pure():
            return
        try:
            super().run()
        except Exception as e:  # no compiler at all: distutils raises several kinds
            self._skip(e)

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as e:  # compiler present but the build failed (headers, flags)
            self._skip(e)

    @staticmethod
    def _skip(e: BaseException) -> None:
        print(f"urnld: the optional C accelerator was not built ({e}); "
              "using the pure-Python code", file=sys.stderr)


# One translation unit: _speedups.c includes its parts (one header per Python module it
# mirrors, and the generated data of scripts/gen_speedups.py). They are the extension's build
# dependencies (a changed header rebuilds it), and MANIFEST.in puts them in the sdist.
_HEADERS = sorted(glob.glob("src/urnld/_core/_speedups/*.h"))

setup(
    ext_modules=[
        Extension(
            "urnld._core._speedups",
            ["src/urnld/_core/_speedups.c"],
            depends=_HEADERS,
            optional=True,
        ),
    ],
    cmdclass={"build_ext": OptionalBuildExt},
)
