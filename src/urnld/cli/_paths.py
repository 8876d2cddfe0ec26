"""Outputs never clobber inputs: every output path is checked before anything is written.

Two paths name the same file when they reach the same inode (through symlinks, hard links,
``./`` and ``..`` spellings); a path that does not exist yet is compared by its resolved form.
``-`` (stdin/stdout) and outputs that are not regular files (``/dev/null``, a FIFO) are never a
collision: writing to them does not replace anything.

>>> import os, tempfile
>>> d = tempfile.mkdtemp()
>>> data = os.path.join(d, "in.nt")
>>> open(data, "w").close()
>>> check_paths([data], [os.path.join(d, "out.nt"), os.path.join(d, "r.json")])
>>> try:
...     check_paths([data], [os.path.join(d, ".", "in.nt")])
... except URNError as e:
...     print(str(e).replace(d, "D"))
output 'D/./in.nt' is the input 'D/in.nt'; inputs are never modified
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable

from ..errors import URNError

__all__ = ["check_paths"]


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
                    f"output {path!r} is the input {seen_in[k]!r}; inputs are never modified"
                )
            if k in seen_out:
                raise URNError(f"outputs {seen_out[k]!r} and {path!r} are the same file")
        for k in keys:
            seen_out[k] = path
