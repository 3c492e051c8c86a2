"""Rows from the fold: the ``games``, ``players`` and event-position rows of one game, and
:func:`project`, which folds a game once through them and the game's projections.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from tabletape.ledger import Record
from tabletape.ledger.identity import game_uid
from tabletape.queries.projections import Projection, Schema, seconds_between
from tabletape.queries.schema import GAMES, PLAYERS, POSITIONS
from tabletape.replay.visitor import GameInfo, Visit, Visitor, walk


class GameRows(Visitor):
    """The ``games`` row, ``players`` rows and event positions of one game.

    It keeps the visits and makes its rows at the end of the game, in a few passes over them:
    during the walk, ``visit_event`` is the list's own ``append`` (no Python call per event).
    """

    def begin_game(self, info: GameInfo) -> None:
        self.info = info
        self.visits: list[Visit] = []
        self.visit_event = self.visits.append  # type: ignore[method-assign]

    def end_game(self, info: GameInfo, final_state: Any) -> None:
        visits = self.visits
        assert visits
        records = [visit.record for visit in visits]
        turns = [visit.turn for visit in visits]
        seqs = [record.seq for record in records]
        retracted = info.retracted
        effective = [visit.effective for visit in visits]
        self.positions = Columns((
            seqs, [turn.turn for turn in turns], [turn.round for turn in turns],
            [turn.phase for turn in turns],
            [seq in retracted for seq in seqs] if retracted else [False] * len(seqs), effective,
        ))
        acted = [visit for visit in visits if visit.effective]
        first_at = next((record.at for record in records if record.at), "")
        last_at = records[-1].at
        last_effective_at = acted[-1].record.at if acted else ""
        played = [visit for visit in acted if visit.turn.turn >= 1]
        numbers = {visit.turn.turn for visit in played}
        rounds = max((visit.turn.round for visit in played), default=0)
        seats = set(info.started.players)
        play_order: dict[str, int] = {}
        for visit in played:
            active = visit.turn.active
            player = active[0] if len(active) == 1 else visit.record.actor
            if player not in play_order and player in seats:
                play_order[player] = len(play_order) + 1
                if len(play_order) == len(seats):
                    break
        self.visits = []

        rules, started = info.rules, info.started
        result = rules.result(final_state)
        winners = tuple(result.winners) if result else ()
        figures = {str(f.get("name")): f for f in rules.figures(final_state)}
        villain = rules.extra(final_state).get("villain") or started.options.get("villain")
        self.players = [
            (seat, name, play_order.get(name),
             *(text(figures.get(name, {}).get(key)) for key in PLAYER_FIGURES), name in winners)
            for seat, name in enumerate(started.players, start=1)
        ]
        head = records[-1]
        last = last_effective_at or first_at
        minutes = (seconds_between(first_at, last) or 0) / 60
        self.game = (
            started.kind, game_uid(started.uid, records[0].hash), started.rules_version,
            started.tabletape_version, list(started.players),
            started.options, started.seed, started.simulated, started.demo is True,
            stamp(first_at), stamp(last_at),
            stamp(last_effective_at) if result else None, result is not None, list(winners),
            result.team if result else None, result.reason if result else None, text(villain),
            started.parent, started.fork_seq, head.seq, head.hash,
            head.seq, len(acted), len(info.retracted), len(numbers), rounds,
            minutes,
        )


PLAYER_FIGURES = ("faction", "leader", "hero", "team")
"""The ``players`` columns taken from each player's figures, in the schema's order."""


class Columns(tuple):
    """Rows given column by column (equal-length lists, in the schema's order)."""

    __slots__ = ()


def text(value: Any) -> str | None:
    return None if value is None else str(value)


def stamp(at: str) -> str | None:
    """A ledger ``at`` as DuckDB reads a TIMESTAMP: ``2026-01-01 00:00:00.000000``."""
    return at.replace("T", " ").rstrip("Z") if at else None


class Folded(msgspec.Struct):
    """The rows of one game, ready to load."""

    game: str
    rows: dict[str, tuple[Schema, list[tuple[Any, ...]] | Columns]]
    """Table name -> its schema and rows, or :class:`Columns` (without the game column)."""
    events: int
    change: str = "new"


def project(game: str, records: Sequence[Record], projections: Sequence[Projection]) -> Folded:
    """Fold ``records`` once through the core visitor and ``projections``; collect their rows."""
    core = GameRows()
    walk(game, records, core, *projections)
    rows: dict[str, tuple[Schema, list[tuple[Any, ...]] | Columns]] = {
        GAMES.table: (GAMES, [core.game]), PLAYERS.table: (PLAYERS, core.players),
        POSITIONS.table: (POSITIONS, core.positions),
    }
    for projection in projections:
        schema = projection.schema
        rows.setdefault(schema.table, (schema, []))[1].extend(projection.rows)  # type: ignore[union-attr]
    return Folded(game, rows, len(records))
