"""Pebbles in the catalog: one ``pebbles_takes`` row per effective take or roll."""

from __future__ import annotations

from tabletape.queries.projections import Column, Projection, Schema
from tabletape.replay.visitor import Visit

TAKES = Schema("pebbles_takes", (Column("seq", "BIGINT"), Column("player", "VARCHAR"),
                                 Column("pebbles", "INTEGER")))


class Takes(Projection):
    schema = TAKES

    def visit_event(self, visit: Visit) -> None:
        if visit.effective and visit.record.type in ("take", "roll"):
            self.row(visit.record.seq, visit.record.actor, visit.before.pile - visit.after.pile)


def projections() -> list[Projection]:
    return [Takes()]
