"""Outputs never clobber inputs: every output path is checked before anything is written.

Two paths name the same file when they reach the same inode (through symlinks, hard links,
``./`` and ``..`` spellings); a path that does not exist yet is compared by its resolved form.
``-`` (stdin/stdout) and outputs that are not regular files (``/dev/null``, a FIFO) are never a
collision: writing to them does not replace anything.

The dispatcher runs :func:`check_args` on every command before the command starts: it gathers
the files named by the options in :data:`INPUT_OPTIONS` and :data:`OUTPUT_OPTIONS` and hands them
to :func:`check_paths`, the one check. A new output option is covered by adding its ``dest`` to
:data:`OUTPUT_OPTIONS`; a command whose ``-o`` stands for several files (a directory) says which
with a module function ``output_paths(args)``.

>>> import os, tempfile
>>> d = tempfile.mkdtemp()
>>> data = os.path.join(d, "in.nt")
>>> open(data, "w").close()
>>> check_paths([data], [os.path.join(d, "out.nt"), os.path.join(d, "r.json")])
>>> try:
...     check_paths([data], [os.path.join(d, ".", "in.nt")])
... except URNError as e:
...     print(str(e).replace(d, "D"))
output 'D/./in.nt' is the input file 'D/in.nt'; inputs are never modified
"""

from __future__ import annotations

import argparse
import os
import stat
from collections.abc import Callable, Iterable

from ..errors import URNError

__all__ = ["INPUT_OPTIONS", "OUTPUT_OPTIONS", "check_args", "check_paths"]

#: ``dest`` of every option that names a file a command reads (one path or a list of paths).
INPUT_OPTIONS = ("inputs", "files", "data", "file", "shapes", "context", "frame", "config",
                 "resolvers")
#: ``dest`` of every option that names a file a command writes. A new one lists itself here.
OUTPUT_OPTIONS = ("output", "html", "report", "undo", "findings", "sarif")


def _key(path: str) -> tuple[object, ...] | None:
    """What identifies the file *path* names; None for stdio and special files."""
    if path == "-":
        return None
    try:
        st = os.stat(path)
    except OSError:
        return ("path", os.path.realpath(path))
    if not stat.S_ISREG(st.st_mode) and not stat.S_ISDIR(st.st_mode):
        return None
    return ("inode", st.st_dev, st.st_ino)


def check_paths(inputs: Iterable[str], outputs: Iterable[str]) -> None:
    """Raise :class:`URNError` when an output is an input or another output."""
    seen_in: dict[tuple[object, ...], str] = {}
    for path in inputs:
        key = _key(path)
        if key is not None:
            seen_in.setdefault(key, path)
            if key[0] == "inode":  # also known by name, for outputs that do not exist yet
                seen_in.setdefault(("path", os.path.realpath(path)), path)
    seen_out: dict[tuple[object, ...], str] = {}
    for path in outputs:
        key = _key(path)
        if key is None:
            continue
        keys = [key]
        if key[0] == "inode":
            keys.append(("path", os.path.realpath(path)))
        for k in keys:
            if k in seen_in:
                raise URNError(
                    f"output {path!r} is the input file {seen_in[k]!r}; inputs are never modified"
                )
            if k in seen_out:
                raise URNError(f"outputs {seen_out[k]!r} and {path!r} are the same file")
        for k in keys:
            seen_out[k] = path


def _paths(args: argparse.Namespace, names: Iterable[str]) -> list[str]:
    out: list[str] = []
    for name in names:
        value = getattr(args, name, None)
        if isinstance(value, str) and value:
            out.append(value)
        elif isinstance(value, list | tuple):
            out.extend(v for v in value if isinstance(v, str) and v)
    return out


def check_args(
    args: argparse.Namespace,
    output_paths: Callable[[argparse.Namespace], list[str]] | None = None,
) -> None:
    """:func:`check_paths` on every input and output option of a parsed command line.

    *output_paths(args)*, when given, lists the files ``-o`` stands for (a directory of
    outputs); otherwise ``-o`` is one file.

    >>> import os, tempfile
    >>> d = tempfile.mkdtemp()
    >>> open(os.path.join(d, "in.nt"), "w").close()
    >>> args = argparse.Namespace(files=[os.path.join(d, "in.nt")], output=None,
    ...                           html=os.path.join(d, "in.nt"))
    >>> try:
    ...     check_args(args)
    ... except URNError as e:
    ...     print(str(e).replace(d, "D"))
    output 'D/in.nt' is the input file 'D/in.nt'; inputs are never modified
    """
    outputs: list[str] = []
    for name in OUTPUT_OPTIONS:
        if name == "output" and output_paths is not None:
            outputs.extend(output_paths(args))
        else:
            outputs.extend(_paths(args, (name,)))
    if outputs:
        check_paths(_paths(args, INPUT_OPTIONS), outputs)
