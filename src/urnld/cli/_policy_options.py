"""The policy options of the URN-judging commands: ``--strict``, ``--profile``, ``--severity``.

``check``, ``canonicalize`` and ``validate`` share them, and the project file (``urnld.toml``
or ``[tool.urnld]`` in ``pyproject.toml``, found upward from the working directory) under
them: the file is read first, the options add to it. The command says on stderr which file it
used, so a surprising verdict can be traced to its configuration.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .._core import LEVELS, ConfigError, Policy, SeverityConfigError, find_project_file, load_policy

__all__ = ["add_policy_options", "policy_from_args", "require_default_policy"]


def add_policy_options(parser: argparse.ArgumentParser) -> None:
    """Add ``--strict``, ``--profile``, ``--severity`` and ``--config``/``--no-config``."""
    group = parser.add_argument_group(
        "validation policy",
        "also read from urnld.toml or [tool.urnld] in pyproject.toml, the nearest one above "
        "the working directory; these options add to it",
    )
    group.add_argument(
        "--strict", action="store_true",
        help="the strict reading: reserved and malformed informal NIDs are errors, namespaces "
        "apply their strict checks (e.g. RFC 5134's numeric SGTIN serials)",
    )
    group.add_argument(
        "--profile", action="append", default=[], metavar="NAME",
        help="enable an opt-in namespace profile (nbn-de, iso-current); repeatable",
    )
    group.add_argument(
        "--severity", action="append", default=[], metavar="CODE=LEVEL",
        help=f"report finding CODE at LEVEL ({', '.join(LEVELS)}; ignore drops it), e.g. "
        "nid-experimental=warning; repeatable, later wins",
    )
    source = group.add_mutually_exclusive_group()
    source.add_argument("--config", metavar="FILE", help="read the policy from FILE instead")
    source.add_argument("--no-config", action="store_true", help="read no project file")


def policy_from_args(args: argparse.Namespace, prog: str) -> Policy:
    """The policy: project file, then the options; says on stderr which file it used.

    Raises :class:`~urnld.ConfigError` (a one-line CLI error) for an unknown profile, code or
    level, naming where it came from.
    """
    from ..namespaces import known_profiles

    if args.no_config:
        path = None
    elif args.config is not None:
        path = Path(args.config)
        if not path.is_file():
            raise ConfigError(f"--config {args.config}: no such file")
    else:
        path = find_project_file()
    # Profiles come from every rule, plugins included: looked up only when a profile is named
    # (here or in a project file), so an ordinary run loads no rule it does not meet.
    profiles = known_profiles() if path is not None or args.profile else {}
    policy = Policy() if path is None else load_policy(path, profiles)
    if policy.source is not None:
        table = " [tool.urnld]" if policy.source.name == "pyproject.toml" else ""
        print(f"{prog}: using policy from {policy.source}{table}", file=sys.stderr)
    bad = sorted(set(args.profile) - set(profiles))
    if bad:
        raise ConfigError(f"unknown profile(s) {', '.join(map(repr, bad))}; known: "
                          f"{', '.join(sorted(profiles))}")
    try:
        return policy.merged(strict=args.strict, profiles=args.profile, severity=args.severity)
    except SeverityConfigError as e:
        raise ConfigError(f"--severity: {e}") from None


def require_default_policy(policy: Policy, where: str) -> None:
    """Refuse a non-default policy where it cannot be applied (rather than ignore it)."""
    if policy.check_kwargs() != Policy().check_kwargs():
        origin = f" (from {policy.source})" if policy.source is not None else ""
        raise ConfigError(
            f"{where} judges URNs by the default policy; --strict, --profile and --severity"
            f"{origin} need local files and the local engine"
        )
