"""``tabletape demo``: record an example game into the ledger, then show it.

The example is the demo game of :data:`DEMO_KIND` (or of the game asked for): the ``demo`` its
manifest names (the shipped games: ``rules/<game>/demo.py``) has ``DEMO_PLAYERS`` and
``demo_actions()``, the lines a person would type at the table.
"""

from __future__ import annotations

import tempfile

from rich.console import Console
from rich.progress import Progress

from tabletape import ledger as ledger_pkg
from tabletape.ledger import GameStarted, Ledger
from tabletape.ledger.identity import uuid7
from tabletape.replay import render
from tabletape.replay.fold import Folded, append_checked, decode_event, open_game, prepare
from tabletape.rules.kernel import UnknownGame, find_game, game_part, manifests

DEMO_KIND = "risk-strike"
DEMO_SEED = 2023


def run_demo(ledger: Ledger, console: Console, kind: str = DEMO_KIND) -> str:
    """Record the demo game of ``kind`` action by action (each checked); return its game id.

    The actions are recorded in a scratch ledger first, then the whole log is created in
    ``ledger`` in one write: a demo that fails half-way (a full disk) leaves no game behind.
    """
    rules = find_game(kind)
    module = game_part(rules.name, "demo")
    if module is None:
        with_demo = sorted(name for name, manifest in manifests().items() if manifest.demo)
        raise UnknownGame(f"{rules.title} ships no demo; games with one: {', '.join(with_demo)}")
    players = tuple(module.DEMO_PLAYERS)
    started = GameStarted(kind=rules.name, rules_version=rules.rules_version,
                          tabletape_version=ledger_pkg.__version__, players=players,
                          options=rules.options({}, players), seed=DEMO_SEED, uid=uuid7())
    lines = list(module.demo_actions())
    with tempfile.TemporaryDirectory(prefix="tabletape-demo-") as scratch:
        recorded = record_demo(Ledger(scratch), started, lines, console, rules.title)
    steps = [(record.actor, decode_event(rules, record)) for record in recorded.records[1:]]
    game = ledger.create(started, prefix=rules.short, at=recorded.records[0].at,
                         then=steps, then_at=[record.at for record in recorded.records[1:]])
    folded = open_game(ledger, game)
    console.print(render.log_table(folded, last=25))
    console.print(render.status_view(folded))
    console.print(
        f"Recorded {len(lines)} actions as game [bold cyan]{game}[/] in {ledger.root}.\n"
        f"Next: [bold]tabletape log {game}[/] · [bold]tabletape verify {game}[/] · "
        f"[bold]tabletape new {rules.name} --player ann --player bob[/] to record your own."
    )
    return game


def record_demo(scratch: Ledger, started: GameStarted, lines: list[str], console: Console,
                title: str) -> Folded:
    """Record the demo's ``lines`` one by one (each checked) into ``scratch``; the game after."""
    folded = open_game(scratch, scratch.create(started, game_id="demo"))
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task(f"Recording a {title} game", total=len(lines))
        for line in lines:
            actor, event = prepare(folded, line)
            folded, _ = append_checked(scratch, folded, actor, event)
            progress.advance(task)
    scratch.close()
    return folded
