"""The one fold loop (:class:`tabletape.replay.fold.Fold`): its two views of a log agree."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import pytest

from tabletape.ledger import Ledger, Record
from tabletape.replay.fold import Check, Fold, RefusedEvent, begin
from tests.replay.conftest import raw_log, stamp, tiny_started
from tests.support.tinygame import Added


def both_views(game: str, records: list[Record], check: Check) -> tuple[Fold, Fold]:
    info = begin(game, records)
    return Fold(info, records, check), Fold(info, records, check)


def test_steps_are_the_effective_visits_and_end_in_the_same_state(store: Ledger,
                                                                   story: str) -> None:
    records = store.records(story)
    visits, steps = both_views(story, records, Check.REFUSE)
    seen = list(visits.visits())
    assert [v.record.seq for v in seen] == [r.seq for r in records]
    effective = [(v.record, v.event) for v in seen if v.effective]
    assert [(s.record, s.event) for s in steps.steps()] == effective
    assert len(effective) < len(records) - 2  # the undo, the note and the undone roll are skipped
    assert visits.state == steps.state == seen[-1].after


def test_each_visit_knows_the_turn_before_and_after_it(store: Ledger, story: str) -> None:
    records = store.records(story)
    fold, _ = both_views(story, records, Check.NONE)
    rules = fold.info.rules
    seen = list(fold.visits())
    for visit, following in pairwise(seen):
        assert visit.turn == rules.turn(visit.before)
        assert visit.turn_after == rules.turn(visit.after) == following.turn


def test_the_check_policy_refuses_or_reports(tmp_path: Path) -> None:
    """An illegal stored event: REFUSE ends the fold saying why; REPORT names it and goes on."""
    path = tmp_path / "ledger" / "games" / "ty-bad.jsonl"
    raw_log(path, [(stamp(0), "table", tiny_started()), (stamp(1), "olga", Added(n=9)),
                   (stamp(2), "patrick", Added(n=1))])
    records = Ledger(tmp_path / "ledger").records("ty-bad")
    refusing, reporting = both_views("ty-bad", records, Check.REFUSE)[0], both_views(
        "ty-bad", records, Check.REPORT)[0]
    with pytest.raises(RefusedEvent, match=r"event 2 of game ty-bad .*add 1 to 3, not 9"):
        list(refusing.steps())
    refused = [v.refused for v in reporting.visits()]
    assert refused[1].startswith("you may add 1 to 3, not 9") and refused[2] == ""
    assert reporting.state.total == 10
