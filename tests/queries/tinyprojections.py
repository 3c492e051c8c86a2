"""Projections of the test-only game "tiny" (its rolls), registered as a plug-in would be."""

from __future__ import annotations

from tabletape.queries.projections import DICE, Projection, dice_row, register_projections
from tabletape.replay.visitor import Visit


class TinyDice(Projection):
    """Every die tiny's ``roll`` recorded: one six-sided die, unmodified."""

    schema = DICE

    def visit_event(self, visit: Visit) -> None:
        if visit.effective and visit.record.type == "roll":
            for die, face in enumerate(visit.event.dice, start=1):  # type: ignore[attr-defined]
                self.row(*dice_row(visit.record.seq, visit.turn.turn, visit.record.actor, "roll",
                                   die, 6, face, face))


def projections() -> list[Projection]:
    return [TinyDice()]


register_projections("tiny", projections)
