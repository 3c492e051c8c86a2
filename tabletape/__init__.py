"""tabletape's command line: composes the command groups of :mod:`tabletape.commands`.

Run it as ``tabletape`` (console script) or ``python -m tabletape``. Each module of
``tabletape/commands/`` keeps its group's commands on a ``typer.Typer`` of its own; this module
lays them side by side on one app. The ``tabletape`` package is the command line only: the
layers below it (``ledger`` -> ``rules`` -> ``replay`` -> ``queries``) never import it
(``.ci/layers`` checks). The
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
    "tabletape.commands.recording",
    "tabletape.commands.replaying",
    "tabletape.commands.querying",
    "tabletape.commands.plotting",
    "tabletape.commands.spark",
    "tabletape.commands.fairplay",
    "tabletape.commands.schema",
    "tabletape.commands.archive",
)
"""Modules whose ``app`` contributes commands, in the order ``--help`` lists them."""

COMMAND_HOMES = {
    **dict.fromkeys(("games", "new", "record", "undo", "redo", "status", "log", "actions", "list",
                     "verify", "repair", "demo", "play", "simulate", "reveal"),
                   "tabletape.commands.recording"),
    **dict.fromkeys(("replay", "fork", "diff", "note", "audit"), "tabletape.commands.replaying"),
    **dict.fromkeys(("sql", "sync", "stats", "export", "import"), "tabletape.commands.querying"),
    "plot": "tabletape.commands.plotting",
    "spark": "tabletape.commands.spark",
    **dict.fromkeys(("head", "sign", "key"), "tabletape.commands.fairplay"),
    "schema": "tabletape.commands.schema",
    **dict.fromkeys(("archive", "delete"), "tabletape.commands.archive"),
}
"""The module holding each command, so that running one imports that module only (a test checks
the table against the apps; a name missing here only costs the other modules' imports)."""


def modules_for(args: list[str]) -> tuple[str, ...]:
    """The modules to compose for ``args``: the invoked command's own, else all (``--help``, no
    command, a mistyped one, shell completion).

    >>> modules_for(["status", "rs-k7pq"])
    ('tabletape.commands.recording',)
    >>> modules_for(["--help"]) == COMMAND_MODULES
    True
    """
    home = COMMAND_HOMES.get(args[0]) if args else None
    return (home,) if home is not None else COMMAND_MODULES


def build_app(modules: tuple[str, ...] = COMMAND_MODULES) -> typer.Typer:
    """A new app holding the commands of ``modules`` (by default every package's; the packages'
    own apps stay as they are)."""
    import typer

    app = typer.Typer(
        help="Record tabletop games as event logs; replay, audit and query them.",
        no_args_is_help=True,
        add_completion=True,
        rich_markup_mode="rich",
    )

    def top_options(
        show_version: bool = typer.Option(
            False, "--version", help="Print tabletape's version and exit.",
            callback=_show_version, is_eager=True),
    ) -> None:
        pass

    app.callback()(top_options)
    for name in modules:
        module_app = importlib.import_module(name).app
        app.registered_commands.extend(module_app.registered_commands)
        app.registered_groups.extend(module_app.registered_groups)  # `spark build-catalog`
    from tabletape import help

    help.present(app)  # grouped, each with an example
    return app


def app_for(args: list[str]) -> typer.Typer:
    """The app that runs ``args``: only the invoked command's module when it holds the command
    (so ``tabletape new`` imports no catalog), else every module."""
    app = build_app(modules_for(args))
    from tabletape.quick import command_names

    groups = {info.name for info in app.registered_groups}
    return app if not args or args[0] in {*command_names(app), *groups} else build_app()


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
    """Entry point of the ``tabletape`` command: the commands typed during a game take a fast
    path (:func:`quick_start`); any other imports only the module holding it. Output to a pipe
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
    """The command: a fast path, else the app holding it."""
    import warnings

    from tabletape.rules.manifest import one_line_warnings

    warnings.showwarning = one_line_warnings(warnings.showwarning)  # a broken game: one line
    from tabletape.exits import ask_json, wants_json

    ask_json(wants_json(sys.argv[1:]))  # every path below (the fast ones too) answers errors alike
    try:
        status = quick_start(sys.argv[1:])
        if status is not None:
            sys.exit(status)
        from tabletape.cli import run_app

        run_app(app_for(sys.argv[1:]), sys.argv[1:])
    except OSError as error:  # a command that does not word its own: still one line, no traceback
        if isinstance(error, BrokenPipeError):
            raise  # main ends it quietly
        from tabletape.exits import error_kind, failure, json_asked, json_error, printable

        message, code = failure(error)
        sys.stderr.write(json_error(message, code, error_kind(error, code)) if json_asked()
                         else f"error: {printable(message)}\n")
        sys.exit(code)


def quick_start(args: list[str]) -> int | None:
    """Run a command a table types during a game without building the app (its start-up is
    most of its time); None when the command or its arguments need the full app."""
    from tabletape import quick

    command, rest = (args[0], args[1:]) if args else ("", [])
    if command == "record":
        return quick.record_main(rest)
    if command in quick.QUICK_COMMANDS:
        return quick.invoke(COMMAND_HOMES[command], command, rest)
    return None


if __name__ == "__main__":
    main()
