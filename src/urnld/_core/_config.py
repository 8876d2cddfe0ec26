"""The validation policy (strict reading, profiles, severity overrides) and the project file.

A catalog repository configures urnld once, in ``urnld.toml`` or in the ``[tool.urnld]`` table
of ``pyproject.toml``, found by walking up from the working directory (in each directory
``urnld.toml`` first; a ``pyproject.toml`` without ``[tool.urnld]`` is passed over)::

    # pyproject.toml                        # urnld.toml: the same keys, at the top level
    [tool.urnld]
    strict = false
    profiles = ["nbn-de"]
    [tool.urnld.severity]
    nid-experimental = "warning"            # urn:x-ogc:… in OGC capabilities
    not-canonical = "ignore"

Command-line options add to it: ``--strict`` turns strict on, ``--profile`` adds a profile,
``--severity CODE=LEVEL`` overrides the file's level for that code. Unknown keys, codes, levels
and profiles are errors that name the file (:class:`ConfigError`), never silently ignored.

>>> import pathlib, tempfile
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> _ = (d / "urnld.toml").write_text('[severity]\\nnid-experimental = "warning"\\n')
>>> policy = find_policy(d / "sub" / "dir")
>>> policy.source == d / "urnld.toml", policy.severity.to_dict()
(True, {'nid-experimental': 'warning'})
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
from collections.abc import Collection, Iterable, Iterator
from pathlib import Path
from typing import Any

from ..errors import URNError
from ._severity import NO_OVERRIDES, SeverityConfigError, SeverityMap

__all__ = [
    "ConfigError",
    "Policy",
    "active_policy",
    "find_policy",
    "find_project_file",
    "load_policy",
    "policy_scope",
]

_KEYS = frozenset({"strict", "profiles", "severity"})


class ConfigError(URNError):
    """The project file (or a policy option) is not valid; the message names the file."""


@dataclasses.dataclass(frozen=True)
class Policy:
    """How strictly URNs are judged: the arguments of :func:`urnld.check`, as one value.

    Attributes:
        strict: the strict reading (``check(..., strict=True)``).
        profiles: opt-in profiles (``"nbn-de"``, ``"iso-current"``).
        severity: per-code level overrides.
        source: the project file it came from (None: defaults or arguments only).

    >>> policy = Policy().merged(strict=True, profiles=["nbn-de"], severity=["pct-nul=error"])
    >>> policy.check_kwargs()  # doctest: +NORMALIZE_WHITESPACE
    {'strict': True, 'profiles': frozenset({'nbn-de'}),
     'severity': SeverityMap({'pct-nul': 'error'})}
    """

    strict: bool = False
    profiles: frozenset[str] = frozenset()
    severity: SeverityMap = NO_OVERRIDES
    source: Path | None = None

    def merged(
        self,
        *,
        strict: bool = False,
        profiles: Iterable[str] = (),
        severity: Iterable[str] | SeverityMap = (),
    ) -> Policy:
        """This policy with command-line choices over it (``CODE=LEVEL`` strings or a map)."""
        extra = severity if isinstance(severity, SeverityMap) else SeverityMap.parse(severity)
        return dataclasses.replace(
            self,
            strict=self.strict or strict,
            profiles=self.profiles | frozenset(profiles),
            severity=self.severity.merged(extra),
        )

    def check_kwargs(self) -> dict[str, Any]:
        """The keyword arguments of :func:`urnld.check` / :func:`urnld.validate`."""
        return {"strict": self.strict, "profiles": self.profiles, "severity": self.severity}

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, for reports.

        >>> Policy().to_dict()
        {'strict': False, 'profiles': [], 'severity': {}, 'source': None}
        """
        return {
            "strict": self.strict,
            "profiles": sorted(self.profiles),
            "severity": self.severity.to_dict(),
            "source": None if self.source is None else str(self.source),
        }


#: The largest project file read (a pyproject.toml is a few KiB).
MAX_PROJECT_FILE_BYTES = 16 << 20


def _table(path: Path) -> dict[str, Any] | None:
    """The urnld table of *path*, None when a pyproject.toml has none."""
    import tomllib  # only when a project file is read: `import urnld` stays lean

    from ._regular import read_regular

    try:
        # Bounded, and a regular file only: a FIFO named as --config would block the run.
        raw = read_regular(path, "project file", max_bytes=MAX_PROJECT_FILE_BYTES)
    except URNError as e:
        raise ConfigError(str(e)) from None
    if path.name == "pyproject.toml" and b"urnld" not in raw and b"\\u" not in raw.lower():
        # Most projects' pyproject.toml has no [tool.urnld] (a key can only spell the name
        # literally or through a \u escape): every command walks past one, so skip the parse.
        return None
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: not valid TOML: {e}") from None
    except UnicodeDecodeError as e:
        raise ConfigError(f"{path}: not valid TOML: {e}") from None
    if path.name == "pyproject.toml":
        tool = data.get("tool")
        table = tool.get("urnld") if isinstance(tool, dict) else None
        if table is None:
            return None
        if not isinstance(table, dict):
            raise ConfigError(f"{path}: [tool.urnld] must be a table")
        return table
    return data


def load_policy(path: str | Path, known_profiles: Collection[str] | None = None) -> Policy:
    """Read the policy of one project file (``urnld.toml`` or ``pyproject.toml``).

    *known_profiles*, when given, is the set of profile names to accept. A ``pyproject.toml``
    without ``[tool.urnld]`` gives the default policy (with ``source`` None).
    """
    path = Path(path)
    table = _table(path)
    if table is None:
        return Policy()
    where = f"{path}" + (" [tool.urnld]" if path.name == "pyproject.toml" else "")
    unknown = sorted(set(table) - _KEYS)
    if unknown:
        raise ConfigError(f"{where}: unknown key(s) {', '.join(map(repr, unknown))}; known: "
                          f"{', '.join(sorted(_KEYS))}")
    strict = table.get("strict", False)
    if not isinstance(strict, bool):
        raise ConfigError(f"{where}: 'strict' must be true or false, not {strict!r}")
    profiles = table.get("profiles", [])
    if not isinstance(profiles, list) or not all(isinstance(p, str) for p in profiles):
        raise ConfigError(f"{where}: 'profiles' must be a list of names, not {profiles!r}")
    if known_profiles is not None:
        bad = sorted(set(profiles) - set(known_profiles))
        if bad:
            raise ConfigError(f"{where}: unknown profile(s) {', '.join(map(repr, bad))}; "
                              f"known: {', '.join(sorted(known_profiles))}")
    severity = table.get("severity", {})
    if not isinstance(severity, dict):
        raise ConfigError(f"{where}: 'severity' must be a table of code = level")
    try:
        overrides = SeverityMap(severity)
    except SeverityConfigError as e:
        raise ConfigError(f"{where}: {e}") from None
    return Policy(strict, frozenset(profiles), overrides, path)


def find_project_file(start: str | Path | None = None) -> Path | None:
    """The nearest ``urnld.toml`` or ``pyproject.toml`` with ``[tool.urnld]``, walking up.

    >>> find_project_file("/") is None or find_project_file("/").name in (
    ...     "urnld.toml", "pyproject.toml")
    True
    """
    here = Path.cwd() if start is None else Path(start)
    here = here.absolute()
    for directory in (here, *here.parents):
        candidate = directory / "urnld.toml"
        if _is_file(candidate):
            return candidate
        candidate = directory / "pyproject.toml"
        if _is_file(candidate) and _table(candidate) is not None:
            return candidate
    return None


def _is_file(path: Path) -> bool:
    """Whether *path* is a file; False where a directory on the way cannot be searched by
    this user (the walk goes on upward: a command run from such a place still works)."""
    try:
        return path.is_file()
    except OSError:
        return False


def find_policy(
    start: str | Path | None = None, known_profiles: Collection[str] | None = None
) -> Policy:
    """The policy of the nearest project file above *start* (default: the working directory).

    The default policy (``source`` None) when there is none.
    """
    path = find_project_file(start)
    return Policy() if path is None else load_policy(path, known_profiles)


_DEFAULT = Policy()
_ACTIVE: contextvars.ContextVar[Policy] = contextvars.ContextVar("urnld_policy", default=_DEFAULT)


def active_policy() -> Policy:
    """The policy in force for code that cannot take it as an argument (SPARQL functions,
    SHACL components): the default unless inside :func:`policy_scope`.

    >>> active_policy() == Policy()
    True
    """
    return _ACTIVE.get()


@contextlib.contextmanager
def policy_scope(policy: Policy) -> Iterator[Policy]:
    """Make *policy* the :func:`active_policy` inside the ``with`` block (this thread/task).

    >>> from urnld._core._config import Policy, active_policy
    >>> with policy_scope(Policy(strict=True)):
    ...     active_policy().strict
    True
    >>> active_policy().strict
    False
    """
    token = _ACTIVE.set(policy)
    try:
        yield policy
    finally:
        _ACTIVE.reset(token)
