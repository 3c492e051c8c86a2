"""What people read: games, logs and legal actions rendered with rich; the ``--json`` shapes.

A game's manifest may name a ``view(rules, state)`` returning a rich renderable (the shipped
games keep theirs in ``replay/games/<game>.py``, see :mod:`tabletape.replay.games`); games
without one get a table of their per-player figures.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec
from rich import box
from rich.console import Group, RenderableType
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from tabletape.ledger import Record, event_type
from tabletape.replay.fold import Folded, action_text, decode_event, redos
from tabletape.rules.actions import usage
from tabletape.rules.kernel import ActionSpec, Result, Rules, TurnInfo, game_part


def game_view(rules: Rules[Any], state: Any) -> RenderableType:
    """The game's own view of ``state``, or a table of its figures."""
    view = game_part(rules.name, "view")
    if view is None:
        return figures_table(rules.figures(state))
    return view(rules, state)


def figures_table(figures: Sequence[dict[str, Any]]) -> Table:
    """One row per player, one column per figure."""
    table = Table(box=box.SIMPLE_HEAD)
    columns = list(dict.fromkeys(key for row in figures for key in row))
    for column in columns:
        table.add_column(column)
    for row in figures:
        table.add_row(*(Text(format_value(row.get(column, ""))) for column in columns))
    return table


def format_value(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k} {v}" for k, v in value.items() if v) or "-"
    if isinstance(value, list | tuple):
        return ", ".join(map(str, value)) or "-"
    return str(value)


def recorded_line(seq: int, actor: str, event: Any) -> Text:
    """``12 Olga: roll attacker=6,3,2 defender=5,5``: what was just stored (no markup read)."""
    text = Text(f"{seq} ", style="dim")
    text.append(f"{actor}: {action_text(event)}")
    return text


def undone_line(record: Record, event: Any) -> Text:
    """``Undid 12: Olga: roll …``: what an undo retracted."""
    return Text(f"Undid {record.seq}: {record.actor}: {action_text(event)}")


def redone_line(stored: Record, undone: Record, event: Any) -> Text:
    """``Redid 12 as 15: Olga: roll …``: what a redo recorded again."""
    return Text(f"Redid {undone.seq} as {stored.seq}: {stored.actor}: {action_text(event)}")


def headline(folded: Folded) -> Text:
    """``Risk Strike · rs-k7pq · turn 4, round 2 · attack · Olga to act``."""
    rules, state = folded.rules, folded.state
    return situation_line(rules, folded.game, state, rules.turn(state))


def situation_line(rules: Rules[Any], game: str, state: Any, info: TurnInfo,
                   where: str = "") -> Text:
    """The game's title and id, ``where`` (e.g. ``seq 5 of 12``), then how it ended or whose
    turn it is: the one line status, the prompt and the replay stepper all show."""
    text = Text()
    text.append(rules.title, style="bold")
    text.append(f" · {game}", style="cyan")
    if where:
        text.append(f" · {where}")
    result = rules.result(state)
    if result is not None:
        text.append(f" · finished: {won_words(result)}", style="bold green")
        if result.reason:
            text.append(f" · {result.reason}")
        return text
    stage = f"turn {info.turn}, round {info.round}" if info.turn else "setup"
    text.append(f" · {stage} · {info.detail or info.phase}")
    if info.active:
        text.append(f" · {', '.join(info.active)} to act", style="bold yellow")
    return text


def status_view(folded: Folded) -> Panel:
    """The whole status screen of a game."""
    players = ", ".join(folded.started.players)
    subtitle = Text(f"{players} · {plural(folded.head_seq, 'event')}")
    return Panel(
        Group(headline(folded), Text(), game_view(folded.rules, folded.state)),
        title=Text(folded.game, style="bold"),
        subtitle=subtitle,
        border_style="blue",
    )


def status_json(folded: Folded) -> dict[str, Any]:
    """The documented ``status --json`` shape (games add their own keys after these)."""
    rules, state = folded.rules, folded.state
    info = rules.turn(state)
    result = rules.result(state)
    shape: dict[str, Any] = {
        "game": folded.game,
        "kind": rules.name,
        "turn": info.turn,
        "round": info.round,
        "phase": info.phase,
        "active": list(info.active),
        "finished": result is not None,
        "winners": list(result.winners) if result else [],
        "players": rules.figures(state),
        "team": result.team if result else None,
        "reason": result.reason if result else "",
        "seq": folded.head_seq,
    }
    for key, value in rules.extra(state).items():
        shape.setdefault(key, value)
    return msgspec.to_builtins(shape)


def actions_table(rules: Rules[Any], specs: Sequence[ActionSpec]) -> Table:
    """The legal actions now: who may record each, and its syntax."""
    table = Table(box=box.SIMPLE_HEAD, title="What may be recorded now", title_justify="left")
    table.add_column("action", style="bold cyan")
    table.add_column("who")
    table.add_column("syntax")
    for spec in specs:
        syntax = escape(usage(spec.type, spec.fields))
        table.add_row(spec.type, Text(", ".join(spec.actors)), syntax)
    if not specs:
        table.add_row("-", "-", "the game is over")
    return table


def log_rows(folded: Folded) -> list[dict[str, Any]]:
    """The ``log --json`` shape: every record, its decoded payload, whether it is retracted."""
    rows = []
    repeats = redos(folded).repeats
    for record in folded.records:
        rows.append({
            "seq": record.seq,
            "at": record.at,
            "actor": record.actor,
            "type": record.type,
            "payload": msgspec.json.decode(record.payload),
            "retracted": record.seq in folded.retracted,
            "redo_of": repeats.get(record.seq),
            "prev": record.prev,
            "hash": record.hash,
            "verified": True,
        })
    return rows


def unverified_rows(records: Sequence[Record]) -> list[dict[str, Any]]:
    """``log --json`` rows of records after a bad line: as stored, ``verified`` false."""
    return [{"seq": r.seq, "at": r.at, "actor": r.actor, "type": r.type,
             "payload": msgspec.json.decode(r.payload), "retracted": None, "redo_of": None,
             "prev": r.prev,
             "hash": r.hash, "verified": False} for r in records]


def log_table(folded: Folded | None, *, last: int | None = None, game: str = "",
              unverified: Sequence[Record] = (), problem: str = "") -> Table:
    """The log as people read it: seq, time, who, what; retracted lines struck through.

    For a damaged log, ``folded`` holds the events that verified (None when the first line is
    bad) and ``unverified`` the lines from the first bad one on, shown as stored: the first
    marked BAD with ``problem``, the others as not verified.
    """
    name = folded.game if folded is not None else game
    table = Table(box=box.SIMPLE_HEAD, title=Text(f"Log of {name}"), title_justify="left")
    table.add_column("seq", justify="right", style="dim")
    table.add_column("time (UTC)", style="dim")
    table.add_column("who")
    table.add_column("action")
    repeats = redos(folded).repeats if folded is not None else {}
    rows = ([(record, log_cell(folded, record, repeats)[0]) for record in folded.records]
            if folded is not None else [])
    rows += [(record, unverified_cell(record, problem if index == 0 else ""))
             for index, record in enumerate(unverified)]
    for record, cell in rows if last is None else rows[-last:]:
        table.add_row(str(record.seq), record.at[11:19], Text(record.actor), cell)
    return table


def unverified_cell(record: Record, problem: str) -> Text:
    """A stored line that did not verify, as stored; the first bad one says why."""
    text = Text(f"{record.type} {bytes(record.payload).decode()}", style="dim")
    if problem:
        text.append(f"  BAD: {problem}", style="bold red")
    else:
        text.append("  (not verified: after a bad line)", style="italic")
    return text


def log_cell(folded: Folded, record: Record, repeats: Mapping[int, int] | None = None
             ) -> tuple[Text]:
    """A record's action cell; ``repeats`` maps each redo's seq to the seq it records again."""
    event = decode_event(folded.rules, record, folded.game, folded.started.rules_version)
    if record.type == "game-started":
        text = Text(f"start {folded.rules.title}: {', '.join(folded.started.players)}")
    else:
        text = Text(action_text(event))
    if record.seq in folded.retracted:
        text.stylize("strike dim")
        text.append(f"  (undone at {folded.retracted[record.seq].seq})", style="italic dim")
    elif event_type(event) == "undo":
        text.stylize("magenta")
    if repeats and record.seq in repeats:
        text.append(f"  (redo of {repeats[record.seq]})", style="italic magenta")
    return (text,)


def plural(count: int, word: str) -> str:
    """``1 event``, ``2 events``: a count and its noun, as people write them.

    >>> plural(1, "event"), plural(30, "event")
    ('1 event', '30 events')
    """
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def won_words(result: Result) -> str:
    """Who won, in table words: the players (and their team), or a side with no player in it.

    >>> won_words(Result(winners=("Olga",)))
    'Olga won'
    >>> won_words(Result(winners=("Olga", "Patrick"), team="heroes"))
    'Olga and Patrick won (heroes)'
    >>> won_words(Result(winners=(), team="villain"))
    'the villain won'
    >>> won_words(Result(winners=()))
    'nobody won'
    """
    if result.winners:
        team = f" ({result.team})" if result.team else ""
        return f"{' and '.join(result.winners)} won{team}"
    return f"the {result.team} won" if result.team else "nobody won"
