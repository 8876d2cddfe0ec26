"""Build of the optional compiled accelerator (``urnld._core._speedups``); metadata is in pyproject.

The accelerator is built where a C compiler and the Python headers are present. Where the build
fails (no compiler, no headers) or ``URNLD_PURE_PYTHON=1`` is set at build time, the install
goes on without it and urnld runs its pure-Python code, with the same results.

Where libserd is found (``pkg-config serd-0``: Debian's ``libserd-dev``, Fedora's ``serd-devel``,
Homebrew's and conda-forge's ``serd``), the accelerator links it and reads Turtle, TriG,
N-Triples and N-Quads with it (``urnld --version`` says so); without it, or with
``URNLD_SERD=0`` at build time, the accelerator is built without that reader (a build with
libserd that fails is tried again without it) and those syntaxes go through pyoxigraph.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
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
        serd = _serd_flags()
        if serd is not None:
            plain = (list(ext.define_macros), list(ext.include_dirs), list(ext.libraries),
                     list(ext.library_dirs), list(ext.extra_compile_args),
                     list(ext.extra_link_args))
            macros, include_dirs, libraries, library_dirs, cflags, ldflags = serd
            ext.define_macros += macros
            ext.include_dirs += include_dirs
            ext.libraries += libraries
            ext.library_dirs += library_dirs
            ext.extra_compile_args += cflags
            ext.extra_link_args += ldflags
            try:
                super().build_extension(ext)
                return
            except Exception as e:  # libserd's headers or library unusable: build without
                print(f"urnld: the accelerator did not build with libserd ({e}); building it "
                      "without the serd reader", file=sys.stderr)
                (ext.define_macros, ext.include_dirs, ext.libraries, ext.library_dirs,
                 ext.extra_compile_args, ext.extra_link_args) = plain
        try:
            super().build_extension(ext)
        except Exception as e:  # compiler present but the build failed (headers, flags)
            self._skip(e)

    @staticmethod
    def _skip(e: BaseException) -> None:
        print(f"urnld: the optional C accelerator was not built ({e}); "
              "using the pure-Python code", file=sys.stderr)


def _serd_flags() -> tuple[list[tuple[str, str | None]], list[str], list[str], list[str],
                            list[str], list[str]] | None:
    """What building with libserd takes (pkg-config serd-0), or None: not found, or
    ``URNLD_SERD=0``."""
    if os.environ.get("URNLD_SERD", "") in ("0", "no", "false") or not shutil.which("pkg-config"):
        return None
    try:
        flags = subprocess.run(["pkg-config", "--cflags", "--libs", "serd-0"], check=True,
                               capture_output=True, text=True, timeout=30).stdout.split()
        version = subprocess.run(["pkg-config", "--modversion", "serd-0"], check=True,
                                 capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    if not all(c.isdigit() or c == "." for c in version):
        version = ""
    macros: list[tuple[str, str | None]] = [("URNLD_HAVE_SERD", "1"),
                                            ("URNLD_SERD_VERSION", f'"{version}"')]
    include_dirs = [f[2:] for f in flags if f.startswith("-I")]
    libraries = [f[2:] for f in flags if f.startswith("-l")]
    library_dirs = [f[2:] for f in flags if f.startswith("-L")]
    cflags = [f for f in flags if not f.startswith(("-I", "-l", "-L")) and not f.startswith("-Wl")]
    ldflags = [f for f in flags if f.startswith("-Wl")]
    return macros, include_dirs, libraries, library_dirs, cflags, ldflags


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
