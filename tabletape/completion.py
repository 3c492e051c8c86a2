"""Shell completion (``tabletape --install-completion``): what Tab offers on the command line.

Game ids come from the ledger, game kinds from the registry, report names from the reports, and
``record GAME``'s words (actions, ``field=``, values) from the game as it stands, the way the
``play`` prompt completes them. The completers are given to the commands' parameters by name when
the app answers a completion request (:func:`answer`), so no command declares them and no other
invocation pays for them. A completer never fails: whatever goes wrong, it offers nothing.
"""

from __future__ import annotations

import functools
import io
import os
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any

import typer
import typer.main

if typing.TYPE_CHECKING:
    from tabletape.ledger import Ledger

Completer = Callable[[typer.Context, str], list[str]]


def requested(environ: typing.Mapping[str, str] | None = None) -> bool:
    """Whether this process answers a shell's completion request (``_TABLETAPE_COMPLETE`` set).

    >>> requested({"_TABLETAPE_COMPLETE": "complete_bash"}), requested({"HOME": "/root"})
    (True, False)
    """
    names = os.environ if environ is None else environ
    return any(name.startswith("_") and name.endswith("_COMPLETE") for name in names)


def never_failing(completer: Completer) -> Completer:
    """``completer``, offering nothing instead of failing (a shell shows no traceback well)."""

    @functools.wraps(completer)
    def safe(ctx: typer.Context, incomplete: str) -> list[str]:
        try:
            return completer(ctx, incomplete)
        except Exception:  # completion must never break the shell
            return []

    return safe


def ledger_of(ctx: typer.Context) -> Ledger:
    """The ledger the command line names (``--ledger``, ``TABLETAPE_LEDGER``, the default)."""
    from tabletape.ledger import Ledger

    path = ctx.params.get("ledger")
    return Ledger(Path(path) if path else None)


@never_failing
def game_ids(ctx: typer.Context, incomplete: str) -> list[str]:
    """The ledger's game ids beginning with what was typed (the newest first)."""
    return [game for game in reversed(ledger_of(ctx).game_ids()) if game.startswith(incomplete)]


@never_failing
def game_kinds(ctx: typer.Context, incomplete: str) -> list[str]:
    """The game kinds tabletape knows (``tabletape games``)."""
    from tabletape.rules.registry import registered

    return [rules.name for rules in registered() if rules.name.startswith(incomplete)]


@never_failing
def report_names(ctx: typer.Context, incomplete: str) -> list[str]:
    """The reports ``tabletape stats`` runs."""
    from tabletape.queries.reports import all_reports

    return [name for name in all_reports() if name.startswith(incomplete)]


@never_failing
def schema_names(ctx: typer.Context, incomplete: str) -> list[str]:
    """What ``tabletape schema`` describes: outputs, game kinds, ``log-line``."""
    from tabletape.queries.json_schemas import short_names

    return [name for name in short_names() if name.startswith(incomplete)]


@never_failing
def record_words(ctx: typer.Context, incomplete: str) -> list[str]:
    """``record GAME``'s next word: an action legal now, then its ``field=`` and their values.

    A shell that splits words at ``=`` (bash) gets the value alone, as it replaces only that.
    """
    from rich.console import Console

    from tabletape.prompt import Prompt

    typed = list(ctx.params.get("action") or [])
    split_at_equals = bool(typed) and typed[-1] == "="
    if split_at_equals:  # bash: "from=as" arrives as "from", "=", "as"
        incomplete = f"{typed[-2]}={incomplete}"
        typed = typed[:-2]
    prompt = Prompt(ledger_of(ctx), ctx.params["game"], Console(file=io.StringIO()))
    offered = [word.rstrip() for word in prompt.candidates(" ".join([*typed, incomplete]),
                                                           incomplete)]
    if not typed:
        legal = {spec.type for spec in prompt.legal()}
        offered = [word for word in offered if word in legal]
    if split_at_equals:
        offered = [word.partition("=")[2] for word in offered]
    return offered


COMPLETERS: dict[str, Completer] = {
    "game": game_ids,
    "kind": game_kinds,
    "game_kind": game_kinds,
    "report_name": report_names,
    "schema_name": schema_names,
    "action": record_words,
}
"""What completes a command parameter, by the parameter's name in the command's function."""


def attach(command: Any) -> None:
    """Give each parameter of the composed click ``command``'s subcommands named in
    :data:`COMPLETERS` its completer (unless it declares one)."""
    for subcommand in getattr(command, "commands", {}).values():
        for parameter in subcommand.params:
            completer = COMPLETERS.get(parameter.name or "")
            if completer is not None and parameter._custom_shell_complete is None:
                parameter._custom_shell_complete = shell_completer(completer)


def shell_completer(completer: Completer) -> Callable[[Any, Any, str], list[str]]:
    """``completer`` as click calls a parameter's completion: ``(ctx, param, incomplete)``."""
    return lambda ctx, param, incomplete: completer(ctx, incomplete)


def answer(app: typer.Typer, args: list[str]) -> None:
    """Answer the shell's completion request for ``app`` (typer reads the request from the
    environment, prints the candidates and exits)."""
    command = typer.main.get_command(app)
    attach(command)
    command(args=args)
