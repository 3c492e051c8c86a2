"""The facts a Risk: Transformers table records: each as people type it, and stored unchanged."""

from __future__ import annotations

import msgspec
import pytest

from tabletape.ledger.events import event_type
from tabletape.rules.actions import event_from, parse_action
from tabletape.rules.dice import Die
from tabletape.rules.risk_transformers import events
from tabletape.rules.risk_transformers.game import RiskTransformers

TYPES = RiskTransformers().event_types()
TYPED = [line.strip().split("   ")[0].replace("[", "").replace("]", "")
         for line in (events.__doc__ or "").splitlines() if line.startswith("    ")]
"""Each action written out in the module's docstring (optional fields unbracketed)."""


@pytest.mark.parametrize("text", TYPED)
def test_every_action_in_the_docstring_parses(text: str) -> None:
    """The docstring's actions are real: each parses into its event and round-trips stored."""
    event = event_from(parse_action(text), TYPES)
    assert event_type(event) == text.split()[0]
    stored = msgspec.json.encode(event)
    assert msgspec.json.decode(stored, type=type(event)) == event


def test_every_event_is_in_the_docstring() -> None:
    """Every event type is shown as typed, so the turn rules and the people agree on words."""
    shown = {text.split()[0] for text in TYPED}
    assert {event_type(cls) for cls in events.EVENTS} == shown


def test_a_roll_keeps_each_die_s_size() -> None:
    """Which Dice Do I Use?: "6-sided for robots/vehicles or 8-sided for your leader": the
    stored roll keeps each die's size beside its face (the shared dice syntax, ``d8:3``)."""
    rolled = event_from(parse_action("roll attacker=6,3,1 defender=4,d8:3"), TYPES)
    assert rolled == events.Rolled(attacker=(Die(6, 6), Die(6, 3), Die(6, 1)),
                                   defender=(Die(6, 4), Die(8, 3)))
    assert b'"defender":[[6,4],[8,3]]' in msgspec.json.encode(rolled)


def test_consequences_are_not_recorded() -> None:
    """DESIGN rule 1, "Record facts, derive consequences": no event stores a loss count, a
    capture, a zone count, robots received or a winner."""
    derived = {"captured", "losses", "winner", "received", "zones", "eliminated", "bonus"}
    for cls in events.EVENTS:
        assert not derived & {f.name for f in msgspec.structs.fields(cls)}, cls


def test_a_piece_is_a_robot_a_vehicle_or_the_leader() -> None:
    """Components: "Leader ... Robot ... Vehicle": a casualty names one of them, in any case
    (the rules check the word: ``test_audit.test_words_in_any_case_and_typos``)."""
    event = event_from(parse_action("lose pieces=Robot,tank"), TYPES)
    assert event.pieces == ("Robot", "tank")
