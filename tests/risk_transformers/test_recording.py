"""Setup recorded through the real ledger and fold (the game registered in code for the test
only: it has no entry point until it is whole)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tabletape.ledger.events import GameStarted
from tabletape.ledger.store import Ledger
from tabletape.replay.fold import open_game, record_action
from tabletape.rules.kernel import REGISTERED, IllegalAction, rules_manifest
from tabletape.rules.risk_transformers.state import invariant_errors
from tests.risk_transformers.helpers import GAME, NAMES


@pytest.fixture
def recorded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Ledger, str]:
    """A 2-player game in a scratch ledger."""
    monkeypatch.setitem(REGISTERED, GAME.name, rules_manifest(GAME))
    ledger = Ledger(tmp_path)
    started = GameStarted(kind=GAME.name, rules_version=GAME.rules_version,
                          tabletape_version="test", players=NAMES[:2],
                          options=GAME.options({}, NAMES[:2]))
    return ledger, ledger.create(started, prefix=GAME.short)


def test_placing_is_recorded_and_replays(recorded: tuple[Ledger, str]) -> None:
    """Setup 5, "take turns placing a robot on an empty zone": typed as people type it, the
    placer found by the rules (the only player who may place), and the log folds to the same
    state."""
    ledger, game = recorded
    folded, record = record_action(ledger, game, "place zone=uraya")
    assert record.actor == "Olga" and folded.state.at("uraya").owner == 0
    folded, record = record_action(ledger, game, ["place", "zone=The Praetorus Wharf"])
    assert record.actor == "Patrick"
    again = open_game(ledger, game)
    assert again.state == folded.state and invariant_errors(again.state) == []


def test_a_refused_placement_leaves_the_log_untouched(recorded: tuple[Ledger, str]) -> None:
    """Setup 5: "on an empty zone": a taken zone is refused with the zones allowed, and
    nothing is written."""
    ledger, game = recorded
    record_action(ledger, game, "place zone=uraya")
    before = ledger.path(game).read_bytes()
    with pytest.raises(IllegalAction, match="uraya is taken: place on an empty zone"):
        record_action(ledger, game, "place zone=uraya by=Patrick")
    assert ledger.path(game).read_bytes() == before
