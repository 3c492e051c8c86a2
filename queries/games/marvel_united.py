"""Marvel United in the catalog: the Storyline card by card (``storyline``), the Missions as they
were completed (``missions``), and the reports ``stats`` shows for it: win rate per villain, per
hero team, and how games were lost.

The reports register when this module is imported (the catalog imports it to fold a Marvel United
game; ``stats`` must import it too, see :func:`tabletape.queries.reports.report`).
"""

from __future__ import annotations

from typing import Any

import duckdb

from tabletape.queries.projections import Column, Projection, Schema
from tabletape.queries.reports import report, rows_of
from tabletape.replay.visitor import Visit
from tabletape.rules.marvel_united.events import Played, VillainTurn
from tabletape.rules.marvel_united.state import State

STORYLINE = Schema("storyline", (
    Column("seq", "BIGINT", "The event that added the card."),
    Column("turn", "INTEGER"),
    Column("position", "INTEGER", "Place in the Storyline, from 1."),
    Column("side", "VARCHAR", "``villain`` (a Masterplan card) or ``hero``."),
    Column("player", "VARCHAR", "Who played it (``table`` for the villain)."),
    Column("hero", "VARCHAR", "The hero (NULL for the villain)."),
    Column("card", "VARCHAR", "The card as recorded (a Masterplan card or a hero card kind)."),
    Column("move", "INTEGER", "Masterplan: locations the villain moved."),
    Column("bam", "BOOLEAN", "Masterplan: the card showed BaM!."),
    Column("under_pressure", "BOOLEAN", "A Mission was complete when the card was added."),
), "Every card added to a Marvel United Storyline, in order.")

MISSIONS = Schema("missions", (
    Column("seq", "BIGINT", "The event that completed the Mission."),
    Column("turn", "INTEGER"),
    Column("mission", "VARCHAR", "``rescue``, ``thugs`` or ``threats``."),
    Column("completed_order", "INTEGER", "1 for the first Mission completed."),
), "Missions completed, in the order they were completed.")


class Storyline(Projection):
    """``storyline``: one row per Masterplan or Hero card added."""

    schema = STORYLINE

    def visit_event(self, visit: Visit) -> None:
        if not visit.effective or not isinstance(visit.event, VillainTurn | Played):
            return
        before: State = visit.before
        after: State = visit.after
        position = len(after.storyline)
        seq, turn = visit.record.seq, visit.turn.turn
        event = visit.event
        if isinstance(event, VillainTurn):
            self.row(seq, turn, position, "villain", visit.record.actor, None, event.card,
                     event.move, event.bam, before.under_pressure)
        else:
            assert before.turn is not None
            hero = before.heroes[before.turn.seat].hero
            self.row(seq, turn, position, "hero", visit.record.actor, hero, event.card.casefold(),
                     None, None, before.under_pressure)


class Missions(Projection):
    """``missions``: one row per Mission completed."""

    schema = MISSIONS

    def visit_event(self, visit: Visit) -> None:
        if not visit.effective or visit.record.seq == 1:
            return
        before: State = visit.before
        after: State = visit.after
        for order, mission in enumerate(after.completed, start=1):
            if order > len(before.completed):
                self.row(visit.record.seq, visit.turn.turn, mission, order)


def projections() -> list[Projection]:
    """Marvel United's projections, fresh for one game."""
    return [Storyline(), Missions()]


# -- reports -------------------------------------------------------------------------------------


@report("villains", "Marvel United: win rate per villain")
def villains(con: duckdb.DuckDBPyConnection) -> tuple[list[str], list[Any]]:
    """Finished games per villain and player count: the heroes' wins and win rate."""
    return rows_of(con, """
        SELECT villain, len(players) AS heroes, count(*) AS games,
               count(*) FILTER (team = 'heroes') AS hero_wins,
               round(avg((team = 'heroes')::INTEGER), 3) AS hero_win_rate
        FROM games WHERE kind = 'marvel-united' AND finished
        GROUP BY villain, heroes ORDER BY villain, heroes""")


@report("hero-teams", "Marvel United: win rate per hero team")
def hero_teams(con: duckdb.DuckDBPyConnection) -> tuple[list[str], list[Any]]:
    """Finished games per team of heroes (alphabetical), against any villain."""
    return rows_of(con, """
        WITH teams AS (
            SELECT g.game, string_agg(p.hero, ' + ' ORDER BY p.hero) AS team,
                   any_value(g.team) = 'heroes' AS won
            FROM games g JOIN players p USING (game)
            WHERE g.kind = 'marvel-united' AND g.finished GROUP BY g.game)
        SELECT team, count(*) AS games, count(*) FILTER (won) AS wins,
               round(avg(won::INTEGER), 3) AS win_rate
        FROM teams GROUP BY team ORDER BY win_rate DESC, games DESC, team""")


@report("losses", "Marvel United: how games were lost")
def losses(con: duckdb.DuckDBPyConnection) -> tuple[list[str], list[Any]]:
    """Games the villain won, per villain and reason, with the share of that villain's games."""
    return rows_of(con, """
        SELECT villain, reason, count(*) AS games,
               round(count(*) / sum(count(*)) OVER (PARTITION BY villain), 3) AS share
        FROM games WHERE kind = 'marvel-united' AND finished AND team = 'villain'
        GROUP BY villain, reason ORDER BY villain, games DESC, reason""")
