"""Any sequence of the actions ``legal_actions`` offers in Phases 1 and 2 (and ``end`` through
the phases) keeps every piece and card accounted for (Setup 3: "The rest of your army is kept
... on your scrapheap"; "A zone must never be empty during the game")."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tabletape.rules.actions import ParsedAction, event_from
from tabletape.rules.kernel import ActionSpec, IllegalAction
from tabletape.rules.risk_transformers.events import EVENTS
from tabletape.rules.risk_transformers.state import State, invariant_errors
from tests.games.risk_transformers.helpers import GAME, dealt, playing, unfillable

TYPES = {event.__struct_config__.tag: event for event in EVENTS}
START = playing(2)
TABLE_CARDS = [c.id for c in START.board.section.cards if c.effect == "table"][:3]
DEALT = dealt(dealt(START, 0, "mass-production", "interlock-initiators", "fusion-cannons",
                    TABLE_CARDS[0]), 1, *TABLE_CARDS[1:])


def values(state: State, spec: ActionSpec, draw: st.DrawFn) -> dict[str, str]:
    """A value for each field of ``spec``: one of its choices, or a plausible one."""
    found = {}
    for field in spec.fields:
        if field.choices:
            found[field.name] = draw(st.sampled_from(field.choices))
        elif field.name == "count":
            most = max(1, state.seats[state.current].operational)
            found[field.name] = str(draw(st.integers(1, most)))
        elif field.name == "to":
            found[field.name] = draw(st.sampled_from(
                ["open", "closed", *state.board.positions("pion-tower")]))
        elif field.kind == "bool":
            found[field.name] = draw(st.sampled_from(["true", "false"]))
    return found


@settings(max_examples=40, deadline=None)
@given(draw=st.data(), moves=st.integers(1, 60))
def test_legal_sequences_keep_the_invariants(draw: st.DataObject, moves: int) -> None:
    state = DEALT
    for _ in range(moves):
        if state.phase == "over":  # six days played: nothing more is offered
            assert GAME.legal_actions(state) == () and GAME.result(state) is not None
            break
        actions = GAME.legal_actions(state)
        assert actions, "a turn always offers something"
        assert unfillable(actions) == [], "an offered action lists no zone or card to name"
        spec = draw.draw(st.sampled_from(actions))
        event = event_from(ParsedAction(spec.type, values(state, spec, draw.draw), None),
                           TYPES)
        try:
            state = GAME.apply(state, spec.actors[0], event)
        except IllegalAction:
            continue
        assert invariant_errors(state) == []
        assert state.phase in ("place", "morph", "attack", "back-up", "draw", "allspark", "over")
