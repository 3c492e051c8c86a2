"""``tabletape demo``: record an example game into the ledger, then show it.

The example is the demo game of :data:`DEMO_KIND`: its rules package ships a ``demo`` module
with ``DEMO_PLAYERS`` and ``demo_actions()``, the lines a person would type at the table.
"""

from __future__ import annotations

import importlib

from rich.console import Console
from rich.progress import Progress

import ledger as ledger_pkg
from ledger import GameStarted, Ledger
from replay import render
from replay.fold import append_checked, open_game, prepare
from rules.kernel import find_game

DEMO_KIND = "risk-strike"
DEMO_SEED = 2023


def run_demo(ledger: Ledger, console: Console, kind: str = DEMO_KIND) -> str:
    """Record the demo game of ``kind`` action by action (each checked); return its game id."""
    rules = find_game(kind)
    module = importlib.import_module(f"rules.{rules.name.replace('-', '_')}.demo")
    players = tuple(module.DEMO_PLAYERS)
    started = GameStarted(kind=rules.name, rules_version=rules.rules_version,
                          tabletape_version=ledger_pkg.__version__, players=players,
                          options=rules.options({}, players), seed=DEMO_SEED)
    game = ledger.create(started, prefix=rules.short)
    folded = open_game(ledger, game)
    lines = list(module.demo_actions())
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task(f"Recording a {rules.title} game", total=len(lines))
        for line in lines:
            actor, event = prepare(folded, line)
            folded, _ = append_checked(ledger, folded, actor, event)
            progress.advance(task)
    console.print(render.log_table(folded, last=25))
    console.print(render.status_view(folded))
    console.print(
        f"Recorded {len(lines)} actions as game [bold cyan]{game}[/] in {ledger.root}.\n"
        f"Next: [bold]tabletape log {game}[/] · [bold]tabletape verify {game}[/] · "
        f"[bold]tabletape new {rules.name} --player ann --player bob[/] to record your own."
    )
    return game
