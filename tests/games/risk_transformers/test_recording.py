"""Setup and the first phases recorded through the real ledger and fold."""

from __future__ import annotations

from pathlib import Path

import pytest

from tabletape.ledger.store import Ledger
from tabletape.replay.recording import open_game, record_action
from tabletape.rules.kernel import IllegalAction
from tabletape.rules.risk_transformers.state import invariant_errors
from tests.games.risk_transformers.helpers import GAME, recorded_game


@pytest.fixture
def recorded(tmp_path: Path) -> tuple[Ledger, str]:
    """A 2-player game in a scratch ledger."""
    ledger = Ledger(tmp_path)
    return ledger, recorded_game(ledger)


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


def test_phase_1_and_2_are_recorded_as_typed(recorded: tuple[Ledger, str]) -> None:
    """Phase 1 E, "place them in any zone(s) which already has a red robot in it", then
    Phase 2, "Flip your leader over": typed as the table types them, the turn shown in table
    words, and the log folds to the same state."""
    ledger, game = recorded
    folded = open_game(ledger, game)
    while folded.state.phase in ("setup", "leftover"):
        zone = GAME.legal_actions(folded.state)[0].fields[0].choices[0]
        folded, _ = record_action(ledger, game, f"place zone={zone}")
    info = GAME.turn(folded.state)
    assert (info.phase, info.active) == ("Phase 1: place robots, step B", ("Olga",))
    assert info.detail.startswith(f"day 1: Olga receives {folded.state.received[0].robots} "
                                  f"robots: {folded.state.received[0].robots} for ")
    pile = folded.state.seats[0].operational
    folded, _ = record_action(ledger, game, f"place zone=Uraya count={pile}")
    folded, _ = record_action(ledger, game, "end")
    folded, record = record_action(ledger, game, "morph")
    assert record.actor == "Olga" and folded.state.seats[0].form == "vehicle"
    assert GAME.turn(folded.state).phase == "Phase 2: morph"
    before = ledger.path(game).read_bytes()
    with pytest.raises(IllegalAction, match="placed now only during setup and Phase 1 step E"):
        record_action(ledger, game, "place zone=uraya")
    assert ledger.path(game).read_bytes() == before
    assert open_game(ledger, game).state == folded.state
