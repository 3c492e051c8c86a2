"""tabletape's command line: composes the commands each package contributes.

Run it as ``tabletape`` (console script) or ``python -m tabletape``. Each package keeps its
commands on a ``typer.Typer`` of its own; this module lays them side by side on one app.
"""

from __future__ import annotations

import importlib

import typer

COMMAND_MODULES = ("replay.cli",)
"""Modules whose ``app`` contributes commands, in the order ``--help`` lists them."""


def build_app() -> typer.Typer:
    """One app holding every package's commands."""
    modules = [importlib.import_module(name) for name in COMMAND_MODULES]
    app: typer.Typer = modules[0].app
    for module in modules[1:]:
        app.registered_commands.extend(module.app.registered_commands)
    return app


def main() -> None:
    """Entry point of the ``tabletape`` command."""
    build_app()()


if __name__ == "__main__":
    main()
