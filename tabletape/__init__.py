"""tabletape's command line: composes the commands each package contributes.

Run it as ``tabletape`` (console script) or ``python -m tabletape``. Each package keeps its
commands on a ``typer.Typer`` of its own; this module lays them side by side on one app. The
plumbing those commands share (options, consoles, error handling) is :mod:`tabletape.cli`; how an
error ends a command (its line, its exit status) is :mod:`tabletape.exits`, which the fast
``record`` path uses too.

The repository's folders ``ledger/``, ``rules/``, ``replay/`` and ``queries/`` install as
``tabletape.ledger``, ``tabletape.rules``, ``tabletape.replay`` and ``tabletape.queries``
(a notebook writes ``from tabletape import queries``).
"""

from __future__ import annotations

import importlib
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import typer

COMMAND_MODULES = (
    "tabletape.replay.cli",
    "tabletape.replay.commands",
    "tabletape.queries.commands",
)
"""Modules whose ``app`` contributes commands, in the order ``--help`` lists them."""


def build_app() -> typer.Typer:
    """A new app holding every package's commands (the packages' own apps stay as they are)."""
    import typer

    app = typer.Typer(
        help="Record tabletop games as event logs; replay, audit and query them.",
        no_args_is_help=True,
        add_completion=False,
        rich_markup_mode="rich",
    )

    def top_options(
        show_version: bool = typer.Option(
            False, "--version", help="Print tabletape's version and exit.",
            callback=_show_version, is_eager=True),
    ) -> None:
        pass

    app.callback()(top_options)
    for name in COMMAND_MODULES:
        app.registered_commands.extend(importlib.import_module(name).app.registered_commands)
    return app


def version() -> str:
    """tabletape's version: ``tabletape.ledger.__version__`` (pyproject.toml reads it too)."""
    from tabletape.ledger import __version__

    return __version__


def _show_version(value: bool) -> None:
    if value:
        import typer

        print(f"tabletape {version()}")
        raise typer.Exit()


def main() -> None:
    """Entry point of the ``tabletape`` command (``record`` takes a fast path). Output to a pipe
    closed early (``tabletape log GAME | head -1``) ends the command quietly, as Unix tools do;
    Ctrl-C ends it without a traceback."""
    try:
        run()
    except BrokenPipeError:
        closed_pipe()
    except KeyboardInterrupt:  # Ctrl-C where typer does not catch it (the fast path)
        sys.stderr.write("\n")
        sys.exit(130)


def closed_pipe() -> None:
    """Exit 1, silently: the reader of standard output has gone (nothing more to write to it,
    and nothing to flush at exit)."""
    import os

    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    sys.exit(1)


def run() -> None:
    """The command: the fast ``record`` path, else the whole app."""
    import warnings

    from tabletape.rules.manifest import one_line_warnings

    warnings.showwarning = one_line_warnings(warnings.showwarning)  # a broken game: one line
    if sys.argv[1:2] == ["record"]:
        from tabletape.replay.quick import record_main

        status = record_main(sys.argv[2:])
        if status is not None:
            sys.exit(status)
    try:
        build_app()()
    except OSError as error:  # a command that does not word its own: still one line, no traceback
        from tabletape.exits import failure, printable

        message, code = failure(error)
        sys.stderr.write(f"error: {printable(message)}\n")
        sys.exit(code)


if __name__ == "__main__":
    main()
