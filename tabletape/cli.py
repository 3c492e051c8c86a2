"""The command-line plumbing every package's commands share: consoles, options, exit statuses,
error handling, JSON output.

:mod:`tabletape.commands.recording`, :mod:`tabletape.commands.replaying` and
:mod:`tabletape.commands.querying` build their commands from these; :mod:`tabletape` composes the
commands into one app. Nothing below the command line (ledger, rules, the fold, the catalog)
imports this module.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console

from tabletape.exits import (
    ILLEGAL_EXIT,
    PEOPLE_ERRORS,
    USAGE_EXIT,
    error_kind,
    failure,
    json_asked,
    json_error,
    json_warning,
    report_error,
    wants_json,
)
from tabletape.ledger import Ledger
from tabletape.ledger.text import shown, warn_with

__all__ = ["ILLEGAL_EXIT", "USAGE_EXIT", "GameArgument", "JsonOption", "LedgerOption",
           "answering_json", "err", "fail", "is_stdio", "open_ledger", "out", "people_errors",
           "print_json", "run_app", "shown", "warn"]

out = Console()
"""Where commands print what was asked for."""
err = Console(stderr=True)
"""Where commands print errors, warnings and progress."""

LedgerOption = Annotated[
    Path | None,
    typer.Option("--ledger", envvar="TABLETAPE_LEDGER", show_envvar=True,
                 help="Ledger folder (default: your user data folder)."),
]


def answering_json() -> bool:
    """Whether the command running answers in JSON, its errors and warnings too: ``--json`` on
    the command line (``main`` says so before any path runs, the fast ones included), or among
    the parameters typer parsed for it (``--json``, ``--format json|jsonl``)."""
    if json_asked():
        return True
    context = current_context()
    return context is not None and asks_json(context.params)


def current_context() -> Any:
    """The click context of the command typer is running, or None (no command runs, or this
    typer no longer has one where we look: then ``main``'s own reading of ``--json`` stands).

    typer 0.26 and later parse with their own copy of click, which names no public way to it;
    older ones parse with click itself, a dependency of theirs then."""
    try:
        from typer._click.globals import get_current_context
    except ImportError:
        try:
            from click import get_current_context  # type: ignore[import-not-found, no-redef]
        except ImportError:
            return None
    return get_current_context(silent=True)


def asks_json(params: dict[str, Any]) -> bool:
    """Whether a command's parsed parameters ask for JSON.

    >>> asks_json({"as_json": True}), asks_json({"output_format": "jsonl"})
    (True, True)
    >>> asks_json({"as_json": False, "output_format": "csv"})
    False
    """
    return params.get("as_json") is True or str(params.get("output_format")) in ("json", "jsonl")


def is_stdio(path: Path | str | None) -> bool:
    """Whether a file argument is ``-``: standard input or output.

    >>> is_stdio(Path("-")), is_stdio("out.csv"), is_stdio(None)
    (True, False, False)
    """
    return path is not None and str(path) == "-"


JsonOption = Annotated[bool, typer.Option(
    "--json",
    help="Machine-readable output on stdout, errors as JSON on stderr (docs/reference/json.md).")]
GameArgument = Annotated[str, typer.Argument(help="Game id, e.g. rs-k7pq.", show_default=False)]


def fail(message: str, code: int, hint: str = "", kind: str = "") -> NoReturn:
    """Print one error line (control characters escaped) and exit with ``code``; under
    ``--json``, the error as JSON on standard error (``kind``: the error's class name)."""
    raise typer.Exit(report_error(message, code, kind or error_kind(None, code), hint=hint,
                                  as_json=answering_json(), console=err))


def warn(message: str, **details: object) -> None:
    """A warning on standard error: ``warning: message`` for people, one
    :func:`tabletape.exits.json_warning` line when the command answers JSON."""
    if answering_json():
        sys.stderr.write(json_warning(message, **details))
    else:
        from rich.markup import escape

        err.print(f"[yellow]warning:[/] {escape(message)}", highlight=False)


warn_with(warn)  # warnings from below the command line (the ledger's keys) look the same


@contextmanager
def people_errors() -> Iterator[None]:
    """Turn every error a person can cause into one line and its exit status, no traceback."""
    try:
        yield
    except BrokenPipeError:  # the reader went away (`| head`): no error of theirs, ends quietly
        raise
    except PEOPLE_ERRORS as error:
        message, code = failure(error)
        fail(message, code, kind=error_kind(error, code))


def command_line(*words: str) -> str:
    """A command people may paste, as rich markup: each word shell-quoted (a game id such as
    ``x$(id)`` runs nothing), control characters escaped.

    >>> command_line("tabletape", "verify", "x$(id)")
    "tabletape verify 'x$(id)'"
    """
    import shlex

    return shown(" ".join(shlex.quote(word) for word in words))


def open_ledger(path: Path | None) -> Ledger:
    """The ledger at ``path`` (``--ledger``), or the default one."""
    return Ledger(path)


def print_json(data: Any) -> None:
    """``data`` as indented JSON on standard output (non-ASCII kept as it is)."""
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")


def run_app(app: typer.Typer, args: Sequence[str]) -> NoReturn:
    """Run ``app`` on ``args`` and exit; under ``--json`` even an error typer finds in the
    command line itself (a missing argument, an unknown option) is JSON on standard error."""
    from tabletape import completion

    if completion.requested():
        completion.answer(app, list(args))
    if not wants_json(args):
        app(args=list(args))
        sys.exit(0)
    from tabletape.quick import click_exception  # typer's click, old (click) or new (its copy)

    try:
        status = app(args=list(args), standalone_mode=False)
    except typer.Abort:
        sys.stderr.write(json_error("aborted", ILLEGAL_EXIT, "Abort"))
        sys.exit(ILLEGAL_EXIT)
    except Exception as error:
        if not click_exception(error):
            raise
        code = int(error.exit_code)  # type: ignore[attr-defined]
        sys.stderr.write(json_error(error.format_message(),  # type: ignore[attr-defined]
                                    code, type(error).__name__))
        sys.exit(code)
    sys.exit(status if isinstance(status, int) else 0)
