"""``tabletape demo``: record an example game into the ledger, then show it.

The game is marked a demo game (:attr:`GameStarted.demo`): it stays out of ``stats``, ``sql``'s
tables, the exports and the site unless asked for (``--include-simulated``, as for simulated
games), while ``log``, ``replay`` and ``verify`` show it as any other game.

The example is the demo game of :data:`DEMO_KIND` (or of the game asked for): the ``demo`` its
manifest names (the shipped games: ``rules/<game>/demo.py``) has ``DEMO_PLAYERS`` and
``demo_actions()``, the lines a person would type at the table.
"""

from __future__ import annotations

import tempfile
from typing import Any

import msgspec
from rich.console import Console
from rich.progress import Progress

from tabletape import ledger as ledger_pkg
from tabletape.ledger import Event, GameStarted, Ledger, Record
from tabletape.ledger.events import DrawnDraft
from tabletape.ledger.identity import uuid7
from tabletape.replay import render
from tabletape.replay.dice_secret import committed
from tabletape.replay.fold import Folded, decode_event
from tabletape.replay.parts import game_part
from tabletape.replay.recording import append_all, create_game, open_game, prepare
from tabletape.rules.fair_dice import new_secret
from tabletape.rules.kernel import Rules, UnknownGame
from tabletape.rules.registry import find_game, manifests

DEMO_KIND = "risk-strike"
DEMO_SEED = 2023


def run_demo(ledger: Ledger, console: Console, kind: str = DEMO_KIND, *,
             marked: bool = True) -> str:
    """Record the demo game of ``kind`` action by action (each checked); return its game id.

    The game is marked a demo game (left out of stats, SQL's tables and exports unless asked
    for); ``marked`` False records it as an ordinary game (a fixture that needs one played).

    The actions are recorded in a scratch ledger first, then the whole log is created in
    ``ledger`` in one write: a demo that fails half-way (a full disk) leaves no game behind.
    """
    rules = find_game(kind)
    module = game_part(rules.name, "demo")
    if module is None:
        with_demo = sorted(name for name, manifest in manifests().items() if manifest.demo)
        raise UnknownGame(f"{rules.title} ships no demo; games with one: {', '.join(with_demo)}")
    players = tuple(module.DEMO_PLAYERS)
    secret = new_secret()
    started = committed(GameStarted(
        kind=rules.name, rules_version=rules.rules_version,
        tabletape_version=ledger_pkg.__version__, players=players,
        options=rules.options({}, players), seed=DEMO_SEED, uid=uuid7(),
        demo=True if marked else msgspec.UNSET), secret)
    lines = list(module.demo_actions())
    with tempfile.TemporaryDirectory(prefix="tabletape-demo-") as scratch:
        recorded = record_demo(Ledger(scratch), started, secret, lines, console, rules.title)
    steps = [stored_draft(rules, record) for record in recorded.records[1:]]
    game = create_game(ledger, started, secret, prefix=rules.short, at=recorded.records[0].at,
                       then=steps, then_at=[record.at for record in recorded.records[1:]])
    folded = open_game(ledger, game)
    console.print(render.log_table(folded, last=25))
    console.print(render.status_view(folded))
    console.print(demo_said(game, len(lines), ledger, rules.name), highlight=False)
    return game


def demo_said(game: str, actions: int, ledger: Ledger, kind: str) -> str:
    """What the demo says after the game: where it went, that it is kept out of the counts, how
    to look at it, count it, remove it, and record a game of one's own (a command a line, so
    none is cut in two)."""
    return (
        f"Recorded {actions} actions as demo game [bold cyan]{game}[/] in {ledger.root}.\n"
        "A demo game stays out of stats, sql, the exports and the site;\n"
        "--include-simulated brings it in.\n"
        f"  look at it:    [bold]tabletape log {game}[/] · [bold]tabletape replay {game}[/]\n"
        f"  check it:      [bold]tabletape verify {game}[/]\n"
        "  count it:      [bold]tabletape stats --include-simulated[/]\n"
        f"  remove it:     [bold]tabletape delete {game} --yes[/]\n"
        f"  your own game: [bold]tabletape new {kind} --player ann --player bob[/]"
    )


def stored_draft(rules: Rules[Any], record: Record) -> tuple[str, Event]:
    """A stored event as a draft to store again, its mark of tabletape's dice kept."""
    event = decode_event(rules, record)
    if record.drawn is None:
        return record.actor, event
    return DrawnDraft(record.actor, event, record.drawn)


def record_demo(scratch: Ledger, started: GameStarted, secret: bytes | None, lines: list[str],
                console: Console, title: str) -> Folded:
    """Record the demo's ``lines`` one by one (each checked) into ``scratch``; the game after."""
    folded = open_game(scratch, create_game(scratch, started, secret, game_id="demo"))
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task(f"Recording a {title} game", total=len(lines))
        for line in lines:
            folded, _ = append_all(scratch, folded, [prepare(folded, line)])
            progress.advance(task)
    scratch.close()
    return folded
