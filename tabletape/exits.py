"""How a command ends on an error: the one mapping from an error to its line and exit status.

Shared by the full command line (:mod:`tabletape.cli`) and the fast ``record`` path
(:mod:`tabletape.quick`), so both end alike. Light on purpose: no typer, and rich only when
there is an error to print.

>>> from tabletape.ledger import UnknownGameId, VersionConflict
>>> failure(UnknownGameId("no game 'rs-x'"))
Failure(message="no game 'rs-x'", exit_code=2)
>>> failure(VersionConflict("rs-x", 3, 4)).exit_code
1

Under ``--json`` the same error is one JSON object on standard error (:func:`json_error`):

>>> print(json_error("no game 'rs-x'", 2, "UnknownGameId"), end="")
{"error": "no game 'rs-x'", "exit_code": 2, "kind": "UnknownGameId"}
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from tabletape.ledger.errors import ILLEGAL_EXIT, USAGE_EXIT, TabletapeError
from tabletape.ledger.store import os_failure
from tabletape.ledger.text import printable

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["ILLEGAL_EXIT", "PEOPLE_ERRORS", "USAGE_EXIT", "Failure", "ask_json", "error_kind",
           "error_markup", "failure", "json_asked", "json_error", "json_warning", "printable",
           "report_error", "wants_json"]

PEOPLE_ERRORS = (TabletapeError, OSError)
"""What a person can cause: tabletape's own errors, and what the operating system refuses
(read-only, permissions, disk full, size limit, a file in the way)."""


class Failure(NamedTuple):
    """The line a command prints for an error, and the status it exits with."""

    message: str
    exit_code: int


def failure(error: TabletapeError | OSError) -> Failure:
    """The line and exit status for ``error``: its class declares the status; an OSError is
    one line of :func:`tabletape.ledger.os_failure`, exit 1."""
    if isinstance(error, TabletapeError):
        return Failure(error.for_people(), error.exit_code)
    return Failure(os_failure(error), ILLEGAL_EXIT)


def error_markup(message: str) -> str:
    r"""The rich markup of an error line: ``error:`` in bold red, then ``message`` shown as typed.

    >>> error_markup("no game '[x]\x07'")
    "[bold red]error:[/] no game '\\[x]\\x07'"
    """
    from rich.markup import escape

    return f"[bold red]error:[/] {escape(printable(message))}"


class _JsonAsked:
    """Whether the command running asked for ``--json`` (so its errors are JSON too)."""

    on = False


def ask_json(on: bool = True) -> None:
    """Say that ``--json`` was asked (or no longer is): errors from now on are JSON on stderr.

    Set by ``main`` from the command line (:func:`wants_json`) before any path runs, the fast
    ones included; a command typer parsed also answers JSON when its own parameters ask for it
    (:func:`tabletape.cli.answering_json`)."""
    _JsonAsked.on = on


def json_asked() -> bool:
    """Whether errors are to be JSON on standard error (``--json`` was asked)."""
    return _JsonAsked.on


def wants_json(args: Sequence[str]) -> bool:
    """Whether a command line asks for JSON: ``--json`` before any ``--``.

    >>> wants_json(["status", "rs-k7pq", "--json"]), wants_json(["note", "g", "--", "--json"])
    (True, False)
    """
    words = list(args)
    return "--json" in words[:words.index("--") if "--" in words else len(words)]


def error_kind(error: BaseException | None, exit_code: int) -> str:
    """The ``kind`` of a JSON error: the error's class name, else what its exit status means.

    >>> error_kind(PermissionError(13, "Permission denied"), 1)
    'PermissionError'
    >>> error_kind(None, 2), error_kind(None, 1)
    ('UsageError', 'Refused')
    """
    if error is not None:
        return type(error).__name__
    return "UsageError" if exit_code == USAGE_EXIT else "Refused"


def json_error(message: str, exit_code: int, kind: str, hint: str = "",
               **details: object) -> str:
    """The one JSON shape of an error under ``--json`` (a line for standard error):
    ``{"error": message, "exit_code": n, "kind": class name}``, plus ``"hint"`` when there is one
    and any ``details`` (e.g. the ``line`` of a batch). The message is the line people read,
    control characters and all left to JSON's escaping."""
    shape: dict[str, object] = {"error": message, "exit_code": exit_code, "kind": kind}
    if hint:
        shape["hint"] = hint
    return json.dumps({**shape, **details}, ensure_ascii=False) + "\n"


def report_error(message: str, exit_code: int, kind: str, *, hint: str = "",
                 as_json: bool | None = None, console: Console | None = None,
                 **details: object) -> int:
    """Say an error the way every command does, and return its exit status: under ``--json``
    (``as_json``, by default :func:`json_asked`) one :func:`json_error` line on standard error,
    else the :func:`error_markup` line (and the hint) on ``console`` (default: standard error),
    wrapped to a terminal's width only (a path in a log or a pipe stays whole on its line)."""
    if json_asked() if as_json is None else as_json:
        sys.stderr.write(json_error(message, exit_code, kind, hint, **details))
        return exit_code
    if console is None:
        from rich.console import Console

        console = Console(stderr=True)
    unwrapped = not console.is_terminal
    console.print(error_markup(message), highlight=False, soft_wrap=unwrapped)
    if hint:
        console.print(hint, highlight=False, soft_wrap=unwrapped)
    return exit_code


def json_warning(message: str, **details: object) -> str:
    """A warning under ``--json`` (a line for standard error): ``{"warning": message, ...}``.

    >>> print(json_warning("1 game is left out", left_out={"rs-x": "torn"}), end="")
    {"warning": "1 game is left out", "left_out": {"rs-x": "torn"}}
    """
    return json.dumps({"warning": message, **details}, ensure_ascii=False) + "\n"
