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
#: Besides them a run reads: the files a ``--catalog`` directory's catalog.json maps, the
#: project file found upward when no ``--config``/``--no-config`` is given, and the file
#: standard input is redirected from when ``-`` is an input (see :func:`read_paths`).
INPUT_OPTIONS = ("inputs", "files", "data", "file", "shapes", "context", "frame", "config",
                 "resolvers", "catalog", "gs1_prefix_lengths")

#: What standard input is called in messages.
STDIN = "standard input"
#: ``dest`` of every option that names a file a command writes. A new one lists itself here.
OUTPUT_OPTIONS = ("output", "html", "report", "undo", "findings", "sarif")


def _key(path: str) -> tuple[object, ...] | None:
    """What identifies the file *path* names; None for stdio and special files.

    :data:`STDIN` is the file standard input is redirected from (``urnld check - -o in.nt <
    in.nt``), compared by device and inode like any other."""
    if path == "-":
        return None
    try:
        st = os.fstat(0) if path == STDIN else os.stat(path)
    except OSError:
        if path == STDIN:
            return None
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
            if key[0] == "inode" and path != STDIN:  # also by name, for outputs not there yet
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
                what = (STDIN + " (its file)" if seen_in[k] == STDIN
                        else f"the input file {seen_in[k]!r}")
                raise URNError(f"output {path!r} is {what}; inputs are never modified")
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
        check_paths(read_paths(args), outputs)


def read_paths(args: argparse.Namespace) -> list[str]:
    """Every file a parsed command line reads: the :data:`INPUT_OPTIONS`, the files of a
    ``--catalog`` directory, the project file read implicitly, and :data:`STDIN` when ``-``
    is an input. What the run guard compares outputs with; ``validate`` and any new command
    get it through :func:`check_args`.

    >>> import os, tempfile
    >>> d = tempfile.mkdtemp()
    >>> with open(os.path.join(d, "catalog.json"), "w") as f:
    ...     _ = f.write('{"urn:example:ctx": "ctx.jsonld"}')
    >>> sorted(os.path.basename(p) for p in read_paths(
    ...     argparse.Namespace(files=["-"], catalog=d, no_config=True)))
    ['-', 'catalog.json', 'ctx.jsonld', 'standard input', 'tmp...']
    """
    paths = _paths(args, INPUT_OPTIONS)
    if "-" in paths:
        paths.append(STDIN)
    catalog = getattr(args, "catalog", None)
    if isinstance(catalog, str) and catalog:
        paths.extend(_catalog_files(catalog))
    if getattr(args, "no_config", None) is False and getattr(args, "config", None) is None:
        from .._core import find_project_file

        project = find_project_file()
        if project is not None:
            paths.append(str(project))
    return paths


def _catalog_files(catalog: str) -> list[str]:
    """The catalog file of a ``--catalog`` directory and the files it maps (those it names
    that exist; a catalog that cannot be read is the command's error to report)."""
    import json

    from .._kernel import read_regular

    path = os.path.join(catalog, "catalog.json") if os.path.isdir(catalog) else catalog
    root = os.path.dirname(path)
    out = [path]
    try:
        data = json.loads(read_regular(path, "catalog", max_bytes=_CATALOG_BYTES))
    except (URNError, ValueError, OSError, RecursionError):
        return out
    if isinstance(data, dict):
        out.extend(os.path.join(root, v) for v in data.values() if isinstance(v, str) and v)
    return out


# The catalog.json the guard reads to list a catalog's files (the loader has its own limit).
_CATALOG_BYTES = 64 << 20
