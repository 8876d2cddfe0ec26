"""The ``urnld`` command: a dispatcher over subcommand modules.

Each subcommand lives in ``urnld.cli._<name>`` and defines ``HELP``, ``configure(parser)`` and
``run(args) -> int``. Modules are imported only for the subcommand being run, so ``urnld parse``
never pays for rdflib. User errors (:class:`~urnld.URNError`, ``OSError``) and failures of the
environment (:class:`~urnld.errors.URNLDEnvironmentError`) print one line and exit 2; so does
anything unexpected (set ``URNLD_DEBUG=1`` to see the traceback).

>>> main(["parse", "urn:ietf:rfc:2141"])  # doctest: +ELLIPSIS
urn:ietf:rfc:2141
...
0
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import signal
import sys
from collections.abc import Iterator, Sequence
from types import ModuleType
from typing import Any

from .. import __version__
from ..errors import URNError, URNLDEnvironmentError

__all__ = ["COMMANDS", "main"]

#: subcommand -> (module, one-line help). Help text is here so ``urnld --help`` imports nothing.
COMMANDS: dict[str, tuple[str, str]] = {
    "parse": ("_parse", "parse and check URNs, show their parts and canonical form"),
    "namespaces": ("_namespaces", "list the IANA URN namespaces and which have urnld rules"),
    "check": ("_check", "scan RDF files for invalid, non-canonical and duplicate URNs"),
    "canonicalize": ("_canonicalize", "merge URN-equivalent nodes in RDF files"),
    "jsonld": ("_jsonld", "JSON-LD expand/compact/flatten/frame/context with URN-aware contexts"),
    "xmlns": ("_xmlns", "audit URN namespace names in XML documents"),
    "validate": ("_validate", "validate URN identifiers in RDF data with SHACL shapes"),
    "fix-base": ("_fix_base", "write out references made under a URN base used as a prefix"),
    "resolve": ("_resolve", "print resolver locators (URLs) for URNs; nothing is fetched"),
    "completion": ("_completion", "print a shell completion script (bash, zsh or fish)"),
    "query": ("_query", "run a SPARQL query on an endpoint, its URNs in canonical form"),
    "undo": ("_undo", "revert an in-place canonicalization from its undo file"),
}


class _Parser(argparse.ArgumentParser):
    """argparse, but usage errors exit 2 with one line (argparse prints usage + message)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message}\n")


def _load(name: str) -> ModuleType:
    return importlib.import_module(f"urnld.cli.{COMMANDS[name][0]}")


class _Version(argparse.Action):
    """``--version``: urnld's version and which reader each syntax goes through (libserd is
    linked at install where found), worked out only when asked."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        from ..stream import readers

        names = "; ".join(f"{syntax}: {name}" for syntax, name in readers().items())
        sys.stdout.write(f"urnld {__version__}\nreaders: {names}\n")
        parser.exit()


def _build(command: str | None) -> argparse.ArgumentParser:
    parser = _Parser(
        prog="urnld", description="URNs (RFC 8141) for linked data.",
        epilog="exit status: 0 success, 1 the data has problems (each command's --help says "
        "which), 2 bad input or usage; 141 output cut off by a closed pipe. "
        "Run 'urnld COMMAND --help' for a command's options.",
    )
    parser.add_argument("--version", action=_Version, nargs=0,
                        help="show the version and the reader of each syntax, then exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    # With a command named, only its parser is built: each costs ~0.5 ms (argparse looks up
    # translations per option), paid by every run of every command.
    names = COMMANDS if command is None else (command,)
    for name in names:
        help_text = COMMANDS[name][1]
        sp = sub.add_parser(name, help=help_text, description=help_text)
        if name == command:
            module = _load(name)
            module.configure(sp)
            # Each command states its exit codes (tests/cli/test_options.py checks all do).
            sp.epilog = getattr(module, "EXIT_CODES", None)
    return parser


#: Exit status when the reader of our standard output went away while we were still writing
#: data to it (``urnld canonicalize big.nt | head``): the output is incomplete, so the shell's
#: convention for a process ended by SIGPIPE, 128 + 13, not success.
EXIT_CLOSED_PIPE = 141


class _PipeSafeText:
    """stdout for reports: once the reader has gone, further text is dropped, not fatal.

    ``urnld check big.ttl | head -1`` must still exit 1 when there are errors (``set -o
    pipefail`` relies on it): the verdict is already known, only its printout was cut short. So
    a ``BrokenPipeError`` while printing text switches the stream to /dev/null and the command
    finishes with its real status. Binary data written through ``.buffer`` is not protected: a
    closed pipe there ends the command with :data:`EXIT_CLOSED_PIPE`.
    """

    def __init__(self, stream: Any) -> None:
        self._stream = stream
        # A command that writes bytes to the stream's buffer itself (``urnld parse -``) finds
        # the stream here, and calls reader_gone() on a BrokenPipeError from it.
        self.wrapped = stream
        self.closed_pipe = False

    def reader_gone(self) -> None:
        """The reader has gone: what is written from now on is dropped."""
        self.closed_pipe = True
        # Silence the interpreter's own flush at exit as well.
        with contextlib.suppress(OSError, ValueError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, self._stream.fileno())
            os.close(devnull)

    def write(self, text: str) -> int:
        if self.closed_pipe:
            return len(text)
        try:
            return int(self._stream.write(text))
        except BrokenPipeError:
            self.reader_gone()
            return len(text)

    def flush(self) -> None:
        if self.closed_pipe:
            return
        try:
            self._stream.flush()
        except BrokenPipeError:
            self.reader_gone()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``urnld`` with *argv* (default: ``sys.argv[1:]``); return the exit code."""
    real_stdout = sys.stdout
    safe = _PipeSafeText(real_stdout)
    sys.stdout = safe
    try:
        code = _main(argv)
        safe.flush()
        return code
    finally:
        sys.stdout = real_stdout


def _main(argv: Sequence[str] | None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    # Bad input is echoed back: undecodable bytes arrive as lone surrogates, which a strict
    # UTF-8 stream cannot print. Escape them instead of dying on a UnicodeEncodeError.
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            # A detached or closed stream is left as it is.
            with contextlib.suppress(ValueError, OSError):
                reconfigure(errors="backslashreplace")
    command = next((a for a in args_list if not a.startswith("-")), None)
    if command not in COMMANDS:
        command = None
    prog = f"urnld {command}" if command else "urnld"
    with _stop_signals_interrupt(), _library_messages(prog, command) as library_log:
        code = _run(args_list, command, prog)
        if code == 2:
            # The one error line says why; what a library logged on the way is noise then.
            library_log.clear()
        return code


def _run(args_list: list[str], command: str | None, prog: str) -> int:
    try:
        parser = _build(command)
        args = parser.parse_args(args_list)
        args.argv = args_list  # for reports that say which command made them
        if args.command is None:
            # No command: the one answer is the help listing them (on stderr, exit 2 as for
            # any usage error), not a usage line followed by an error about it.
            parser.print_help(sys.stderr)
            return 2
        module = _load(args.command)
        from .._kernel import output_transaction
        from ._paths import check_args

        # Before the command writes anything: no output may be an input or another output.
        check_args(args, getattr(module, "output_paths", None))
        # Every output of the run is renamed into place together, and only when the run did
        # its job (exit 0 or 1): a run that exits 2, is stopped or fails on its last output
        # replaces none (docs/security.md).
        with output_transaction() as outputs:
            code: int = module.run(args)
            if code in (0, 1):
                outputs.commit()
        return code
    except _Stopped as e:
        # The same path as Ctrl-C (temporary output removed, workers stopped), the POSIX code.
        print(f"{prog}: stopped by {signal.Signals(e.signum).name}", file=sys.stderr)
        return 128 + e.signum
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # Data (not a report) was cut off: `urnld canonicalize … | head`. Silence the flush at
        # exit and say so by the exit status, as a process killed by SIGPIPE would.
        with contextlib.suppress(OSError, ValueError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.__stdout__.fileno() if sys.__stdout__ else 1)
        return EXIT_CLOSED_PIPE
    except (URNError, URNLDEnvironmentError, OSError) as e:
        print(f"{prog}: error: {_one_line(e)}", file=sys.stderr)
        return 2
    except Exception as e:  # the CLI promise: one line, no traceback
        if os.environ.get("URNLD_DEBUG"):
            raise
        print(
            f"{prog}: error: {type(e).__name__}: {_one_line(e)} (set URNLD_DEBUG=1 for details)",
            file=sys.stderr,
        )
        return 2


class _Stopped(KeyboardInterrupt):
    """SIGTERM or SIGHUP arrived: unwind like Ctrl-C."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _raise_stopped(signum: int, _frame: object) -> None:
    raise _Stopped(signum)


@contextlib.contextmanager
def _stop_signals_interrupt() -> Iterator[None]:
    """While the command runs, SIGTERM and SIGHUP (a supervisor, a closed terminal) take the
    Ctrl-C path: every ``finally`` runs, so temporary files go and worker processes stop."""
    signals = [s for s in (getattr(signal, "SIGTERM", None), getattr(signal, "SIGHUP", None))
               if s is not None]
    previous = {}
    try:
        for sig in signals:
            previous[sig] = signal.signal(sig, _raise_stopped)
    except ValueError:  # not the main thread: signals are not ours to handle
        pass
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


#: Commands that never load rdflib, pyshacl or pyld: no need to listen to their logs.
_NO_LIBRARIES = frozenset({"parse", "namespaces", "resolve", "completion"})
_LIBRARY_LOGGERS = ("rdflib", "pyshacl", "pyld", "owlrl")


@contextlib.contextmanager
def _library_messages(prog: str, command: str | None) -> Iterator[list[Any]]:
    """The libraries' own log warnings (rdflib's "does not look like a valid URI", one line per
    term, without saying who speaks) become one ``PROG: warning:`` line at the end.

    Yields the list of log records kept: the caller clears it to print nothing."""
    records: list[Any] = []
    if command is None or command in _NO_LIBRARIES:
        yield records
        return
    import logging

    class _Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    keep = _Keep(logging.WARNING)
    loggers = [logging.getLogger(name) for name in _LIBRARY_LOGGERS]
    propagate = [lg.propagate for lg in loggers]
    for lg in loggers:
        lg.addHandler(keep)
        lg.propagate = False
    try:
        yield records
    finally:
        for lg, before in zip(loggers, propagate, strict=True):
            lg.removeHandler(keep)
            lg.propagate = before
        if records:
            library = records[0].name.partition(".")[0]
            try:
                first = records[0].getMessage()
            except Exception:  # a library's malformed log call: its format string, then
                first = str(records[0].msg)
            first = " ".join(first.split()) or "(empty message)"
            more = f" ({len(records) - 1:,} more log warnings)" if len(records) > 1 else ""
            print(f"{prog}: warning: {library} said: {first}{more}", file=sys.stderr)


def _one_line(e: BaseException) -> str:
    if isinstance(e, OSError) and e.filename is not None and e.strerror:
        return f"{e.filename}: {e.strerror}"
    text = str(e).strip() or type(e).__name__
    return text.splitlines()[0]
