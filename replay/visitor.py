"""Walking a log with visitors: the one way narration, audit, exporters and projections read games.

A visitor sees the game begin, every stored event with the state before and after it, and the
end (the shape of python-chess's ``pgn.BaseVisitor``)::

    class CountRolls(Visitor):
        def begin_game(self, game): self.rolls = 0
        def visit_event(self, visit): self.rolls += visit.record.type == "roll"
        def result(self): return self.rolls

    walk(game_id, records, CountRolls())

Every record is visited, including game-started, undo, note and retracted ones (``effective`` is
False for those, and ``before is after``), so an auditor sees the whole log and a projection can
skip what the fold skipped. The visits come from the one fold loop,
:class:`tabletape.replay.fold.Fold`, which the record path folds with too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tabletape.ledger import Record
from tabletape.replay.fold import Check, Fold, GameInfo, Visit, begin


class Visitor:
    """Base visitor: override what you need. ``result`` is what :func:`walk` returns."""

    def begin_game(self, info: GameInfo) -> None:
        """Called once, before any event."""

    def visit_event(self, visit: Visit, /) -> None:
        """Called for every stored record, in seq order (positionally: a visitor may make it a
        list's ``append``)."""

    def end_game(self, info: GameInfo, final_state: Any) -> None:
        """Called once, after the last event."""

    def result(self) -> Any:
        return None


def walk(
    game: str, records: Sequence[Record], *visitors: Visitor, check: bool = False
) -> list[Any]:
    """Fold ``records`` once, showing every event to every visitor; return their results.

    With ``check``, each effective event is checked by the current rules first; a refused one is
    reported in ``Visit.refused`` and applied anyway when ``apply`` can (so an audit sees them all).
    """
    info = begin(game, records)
    for visitor in visitors:
        visitor.begin_game(info)
    calls = [visitor.visit_event for visitor in visitors]  # bound after begin_game may rebind
    fold = Fold(info, records, Check.REPORT if check else Check.NONE)
    for visit in fold.visits():
        for call in calls:
            call(visit)
    for visitor in visitors:
        visitor.end_game(info, fold.state)
    return [visitor.result() for visitor in visitors]


__all__ = ["GameInfo", "Visit", "Visitor", "walk"]
