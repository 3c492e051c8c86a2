"""The command-line plumbing every package's commands share: consoles, options, exit statuses,
error handling, JSON output.

:mod:`tabletape.replay.cli`, :mod:`tabletape.replay.commands` and
:mod:`tabletape.queries.commands` build their commands from these; :mod:`tabletape` composes the
commands into one app. Nothing below the command line (ledger, rules, the fold, the catalog)
imports this module.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console

from tabletape.exits import ILLEGAL_EXIT, PEOPLE_ERRORS, USAGE_EXIT, error_markup, failure
from tabletape.ledger import Ledger

__all__ = ["ILLEGAL_EXIT", "USAGE_EXIT", "GameArgument", "JsonOption", "LedgerOption", "err",
           "fail", "open_ledger", "out", "people_errors", "print_json"]

out = Console()
"""Where commands print what was asked for."""
err = Console(stderr=True)
"""Where commands print errors, warnings and progress."""

LedgerOption = Annotated[
    Path | None,
    typer.Option("--ledger", envvar="TABLETAPE_LEDGER", show_envvar=True,
                 help="Ledger folder (default: your user data folder)."),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Machine-readable output (see README).")]
GameArgument = Annotated[str, typer.Argument(help="Game id, e.g. rs-k7pq.", show_default=False)]


def fail(message: str, code: int, hint: str = "") -> NoReturn:
    """Print one error line (control characters escaped) and exit with ``code``."""
    err.print(error_markup(message), highlight=False)
    if hint:
        err.print(hint, highlight=False)
    raise typer.Exit(code)


@contextmanager
def people_errors() -> Iterator[None]:
    """Turn every error a person can cause into one line and its exit status, no traceback."""
    try:
        yield
    except PEOPLE_ERRORS as error:
        fail(*failure(error))


def open_ledger(path: Path | None) -> Ledger:
    """The ledger at ``path`` (``--ledger``), or the default one."""
    return Ledger(path)


def print_json(data: Any) -> None:
    """``data`` as indented JSON on standard output (non-ASCII kept as it is)."""
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
