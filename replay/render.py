"""What people read: games, logs and legal actions rendered with rich; the ``--json`` shapes.

A game's manifest may name a ``view(rules, state)`` returning a rich renderable (the shipped
games keep theirs in ``replay/games/<game>.py``, see :mod:`tabletape.replay.games`); games
without one get a table of their per-player figures.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

import msgspec
from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.markup import escape
from rich.panel import Panel
from rich.segment import Segment
from rich.table import Column, Table
from rich.text import Text

from tabletape.ledger import Record, event_type
from tabletape.ledger.events import Drawn, Event, SecretRevealed, Signed
from tabletape.ledger.fingerprints import fingerprint
from tabletape.ledger.signatures import key_fingerprint
from tabletape.ledger.text import plural, printable
from tabletape.replay.fold import Folded, action_text, decode_event, format_field
from tabletape.replay.parts import game_part
from tabletape.replay.undo import redos
from tabletape.rules.actions import quoted, usage
from tabletape.rules.kernel import ActionSpec, Rules, TurnInfo, won_words

Row = TypeVar("Row")

NO_PAGER_ENV = "TABLETAPE_NO_PAGER"
"""Set (to anything but empty) to never page long output, as ``--no-pager`` does."""


@contextmanager
def paged(console: Console, *, pager: bool = True) -> Iterator[None]:
    """Send what ``console`` prints inside the block through a pager (``$PAGER``, else ``less``)
    when it writes to a terminal and paging is not turned off (``pager`` false, or
    ``TABLETAPE_NO_PAGER`` set); pipes, files and ``--json`` are never paged. ``less`` gets
    ``-FRX`` unless ``$LESS`` says otherwise: colours kept, and a screenful is just printed.
    """
    if not (pager and console.is_terminal and not os.environ.get(NO_PAGER_ENV)):
        yield
        return
    os.environ.setdefault("LESS", "-FRX")
    with console.pager(styles=True):
        yield


def game_view(rules: Rules[Any], state: Any) -> RenderableType:
    """The game's own view of ``state``, or a table of its figures."""
    view = game_part(rules.name, "view")
    if view is None:
        return figures_table(rules.figures(state))
    return view(rules, state)


def game_panel(rules: Rules[Any], state: Any, parts: Sequence[RenderableType]) -> Panel:
    """A game's view in a panel titled with the game (and how it ended): the turn and who is to
    act are in the headline above it, not repeated in a cryptic ``turn 0, round 0`` title."""
    parts = [KeptWords(part) if isinstance(part, Table) else part for part in parts]
    result = rules.result(state)
    title = rules.title
    if result is not None:
        title += f" · {won_words(result)}" + (f" · {result.reason}" if result.reason else "")
    return Panel(Group(*parts), title=escape(title), title_align="left")


LONGEST_KEPT_WORD = 24
"""Words up to this long are never cut in a game's tables (longer ones may be folded)."""


class KeptWords:
    """A table whose columns are at least as wide as their longest word (header and cells), so a
    narrow terminal wraps cells at spaces instead of cutting a name to ``decepti…``.

    Drawn once: an earlier version drew the table a second time to see whether it overflowed and
    then let rich shrink it, but rich crops every drawn line to the width, so that check never
    fired (the same output, at twice the cost; a table wider than the terminal loses its right
    edge, as before)."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        columns = self.table.columns
        for column in columns:
            column.min_width = max(column.min_width or 0, longest_word(column))
        yield self.table


def longest_word(column: Column) -> int:
    """The longest word in a column's header and text cells (at most LONGEST_KEPT_WORD)."""
    texts = [column.header, *column.cells]
    words = [word for cell in texts if isinstance(cell, str | Text)
             for word in (cell.plain if isinstance(cell, Text) else cell).split()]
    return min(max(map(len, words), default=0), LONGEST_KEPT_WORD)


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


def recorded_line(seq: int, actor: str, event: Any, drawn: Drawn | None = None) -> Text:
    """``12 Olga: roll attacker=6,3,2 defender=5,5 · tabletape drew: defender``: what was just
    stored (no markup read), every field shown, those left at their default too
    (:func:`echo_text`), and the fields tabletape filled (``drawn``, its mark)."""
    text = Text(f"{seq} ", style="dim")
    text.append(f"{actor}: {echo_text(event)}")
    if drawn is not None and drawn.filled:
        text.append(f" · tabletape drew: {', '.join(drawn.filled)}", style="dim")
    return text


def drawn_json(drawn: Drawn | None) -> dict[str, Any] | None:
    """tabletape's mark as ``--json`` gives it (``{"roll", "filled"}``), or None when the table
    entered the event's chance (or it has none)."""
    return None if drawn is None else {"roll": drawn.roll, "filled": list(drawn.filled)}


def echo_text(event: Any) -> str:
    """The action as stored, in the action syntax, with every field that holds a value: a field
    left out (or filled in by tabletape) shows what it became. Empty values and false flags are
    left out when they are the field's default (``die=0`` on a card that takes no die); a
    default that means something (``troops=1``, ``form=robot``) is shown.

    >>> from tabletape.rules.risk_deep_space.events import Mined
    >>> echo_text(Mined(planet="kepler", resource="gem"))
    'mine planet=kepler resource=gem'
    """
    parts = [event_type(event)]
    for field in msgspec.structs.fields(event):
        value = getattr(event, field.name)
        if value is None or value in ("", (), []) or (value == field.default and not value):
            continue
        parts.append(f"{field.encode_name}={quoted(format_field(value))}")
    return " ".join(parts)


def after_record(folded: Folded, records: Sequence[Record]) -> Group:
    """What ``record`` (and the ``play`` prompt, and a batch) print once a line is stored: each
    event as stored (:func:`recorded_line`) and what it did in table words (the game's narrator:
    who lost what, who goes first, what a card did, the end of the game), then the game's
    situation now."""
    lines: list[RenderableType] = []
    for record, event, told in told_steps(folded, records):
        lines.append(recorded_line(record.seq, record.actor, event, record.drawn))
        if told:
            lines.append(Indented(Text(told, style="italic")))
    revealed = folded.revealed
    if revealed is not None and records and revealed.seq == records[-1].seq + 1:
        lines.append(Text(f"The game's dice secret is now in the log (event {revealed.seq}): "
                          f"`tabletape audit {folded.game}` re-derives every roll tabletape made.",
                          style="italic"))
    lines.append(headline(folded))
    return Group(*lines)


class Indented:
    """A text wrapped to the width less ``by`` columns, each line indented (no trailing padding,
    unlike rich's ``Padding``, so piped output stays clean)."""

    def __init__(self, text: Text, by: int = 2) -> None:
        self.text = text
        self.by = by

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = max(options.max_width - self.by, 20)
        for line in self.text.wrap(console, width):
            line.rstrip()
            line.end = ""
            yield Segment(" " * self.by)
            yield line
            yield Segment.line()


def told_steps(folded: Folded, records: Sequence[Record]) -> Iterator[tuple[Record, Any, str]]:
    """Each of ``records`` (the events just appended to ``folded``, in order), its event, and its
    narration ("" for all when the state before them is not at hand, e.g. a game opened from the
    log)."""
    from tabletape.replay.fold import Visit
    from tabletape.replay.narrate import Narrator, join_sentences

    rules, before = folded.rules, folded.before
    narrator = Narrator(rules, folded.records)
    for record in records:
        event = decode_event(rules, record)
        if before is None:
            yield record, event, ""
            continue
        after = rules.apply(before, record.actor, event)
        visit = Visit(record=record, event=event, before=before, after=after,
                      turn=rules.turn(before), effective=True, turn_after=rules.turn(after))
        yield record, event, join_sentences(narrator.sentences(visit))
        before = after


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


def status_view(folded: Folded) -> Group:
    """The whole status screen of a game: its panel, then the head on a line of its own (a
    panel's border cuts what does not fit; the head must show whole, to be noted)."""
    players = ", ".join(folded.started.players)
    subtitle = Text(f"{players} · {plural(folded.head_seq, 'event')}")
    panel = Panel(
        Group(headline(folded), Text(), game_view(folded.rules, folded.state)),
        title=Text(printable(folded.game), style="bold"),
        subtitle=subtitle,
        border_style="blue",
    )
    return Group(panel, head_line(folded))


def head_line(folded: Folded) -> Text:
    """``head 412:7KQ2-M4XD-9PRA``: the head to note, never cut."""
    return Text.assemble("head ", (head_fingerprint(folded), "bold cyan"))


def head_fingerprint(folded: Folded) -> str:
    """The log's head as people note it (``412:7KQ2-M4XD-9PRA``; ``tabletape head``)."""
    from tabletape.ledger.fingerprints import fingerprint

    last = folded.records[-1]
    return fingerprint(last.seq, last.hash)


def status_json(folded: Folded) -> dict[str, Any]:
    """The documented ``status --json`` shape (games add their own keys after these)."""
    rules, state = folded.rules, folded.state
    info = rules.turn(state)
    result = rules.result(state)
    shape: dict[str, Any] = {
        "game": folded.game,
        "kind": rules.name,
        "uid": folded.uid,
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
        "head": head_fingerprint(folded),
    }
    for key, value in rules.extra(state).items():
        shape.setdefault(key, value)
    return msgspec.to_builtins(shape)


def actions_table(rules: Rules[Any], specs: Sequence[ActionSpec],
                  cannot_roll: str = "") -> Table:
    """The legal actions now: who may record each, and its syntax (``cannot_roll``: why
    tabletape rolls no dice for the game now, said under the table)."""
    caption = (Text(f"Dice are required: {cannot_roll}", style="yellow", justify="left")
               if cannot_roll else None)
    table = Table(box=box.SIMPLE_HEAD, title="What may be recorded now", title_justify="left",
                  caption=caption, caption_justify="left")
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
    repeats = redos(folded).repeats
    return [log_row(record, retracted=record.seq in folded.retracted,
                    redo_of=repeats.get(record.seq), verified=True)
            for record in folded.records]


def unverified_rows(records: Sequence[Record]) -> list[dict[str, Any]]:
    """``log --json`` rows of records after a bad line: as stored, ``verified`` false."""
    return [log_row(record, retracted=None, redo_of=None, verified=False) for record in records]


def log_row(record: Record, *, retracted: bool | None, redo_of: int | None,
            verified: bool) -> dict[str, Any]:
    """One ``log --json`` row (``drawn``: tabletape's mark of the dice it drew, which the hash
    covers too, or None when the table entered them)."""
    return {"seq": record.seq, "at": record.at, "actor": record.actor, "type": record.type,
            "payload": msgspec.json.decode(record.payload), "retracted": retracted,
            "redo_of": redo_of,
            "drawn": drawn_json(record.drawn),
            "prev": record.prev, "hash": record.hash, "verified": verified}


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
    for record, cell in tail(rows, last):
        table.add_row(str(record.seq), record.at[11:19], Text(record.actor), cell)
    return table


def tail(rows: Sequence[Row], last: int | None) -> list[Row]:
    """The last ``last`` rows (all when None; none for 0), as ``log --last`` shows them.

    >>> tail([1, 2, 3], 2), tail([1, 2, 3], None), tail([1, 2, 3], 0)
    ([2, 3], [1, 2, 3], [])
    """
    if last is None:
        return list(rows)
    return list(rows[max(len(rows) - last, 0):]) if last > 0 else []


def unverified_cell(record: Record, problem: str) -> Text:
    """A stored line that did not verify, as stored; the first bad one says why."""
    text = Text(f"{record.type} {bytes(record.payload).decode()}", style="dim")
    if problem:
        text.append(f"  BAD: {problem}", style="bold red")
    else:
        text.append("  (not verified: after a bad line)", style="italic")
    return text


def table_record_text(event: Event) -> str:
    """How ``log`` shows what the table (not a player's action) recorded, or ``""``: a
    signature by who vouched for which head, a reveal without its 64 hex digits.

    >>> table_record_text(SecretRevealed(secret="ab" * 32))
    'secret-revealed: the dice secret is public (audit re-derives every roll)'
    """
    if isinstance(event, Signed):
        return (f"sign: {event.signer} vouched for seq {event.seq} "
                f"({fingerprint(event.seq, event.hash)}, key {key_fingerprint(event.public_key)}; "
                "checked by verify)")
    if isinstance(event, SecretRevealed):
        return "secret-revealed: the dice secret is public (audit re-derives every roll)"
    return ""


def log_cell(folded: Folded, record: Record, repeats: Mapping[int, int] | None = None
             ) -> tuple[Text]:
    """A record's action cell; ``repeats`` maps each redo's seq to the seq it records again."""
    event = decode_event(folded.rules, record, folded.game, folded.started.rules_version)
    if record.type == "game-started":
        text = Text(f"start {folded.rules.title}: {', '.join(folded.started.players)}")
    else:
        text = Text(table_record_text(event) or action_text(event))
    if record.seq in folded.retracted:
        text.stylize("strike dim")
        text.append(f"  (undone at {folded.retracted[record.seq].seq})", style="italic dim")
    elif event_type(event) == "undo":
        text.stylize("magenta")
    if repeats and record.seq in repeats:
        text.append(f"  (redo of {repeats[record.seq]})", style="italic magenta")
    return (text,)
