"""Force Field tokens: the rulebook prints no rule (Components: "2 Force Field tokens").

Default ``force-fields=unused`` (data.FORCE_FIELD_RULE, mark I): the tokens stay by the board.
Option ``force-fields=shield`` (data.FORCE_FIELD_RULES["shield"], mark I): once per turn, as one
of the two movements, pay a Gem to put a Force Field from the supply on a planet you occupy that
has none; no opponent may move onto it (passing over it, and Action cards, are unaffected); at
the start of your next turn the token goes back to the supply.
"""

from __future__ import annotations

import io
import random

import pytest
from rich.console import Console

from tabletape.replay.games.risk_deep_space import derived, recorded, view
from tabletape.rules.board import NOBODY
from tabletape.rules.bot_games import bot_game
from tabletape.rules.kernel import IllegalAction
from tabletape.rules.risk_deep_space import RULES
from tabletape.rules.risk_deep_space.events import Ended, Shielded
from tabletape.rules.risk_deep_space.state import invariant_errors

from .helpers import TWO, grant, planet, play, ready, spread, started

SHIELD = {"force-fields": "shield"}
THREE = ("Olga", "Patrick", "Carol")


def shielded() -> object:
    """Olga (red, first) holds Inner North with 2; Patrick (yellow) holds N2 with 3."""
    return spread(spread(ready(TWO, **SHIELD), "north-inner", 0, 2), "n2", 1, 3)


def actions(state) -> dict:
    return {spec.type: spec for spec in RULES.legal_actions(state)}


def test_by_default_force_fields_stay_by_the_board() -> None:
    """Default force-fields=unused: no rule is printed, so a Force Field is refused and not
    offered; both tokens stay by the board."""
    state = spread(ready(), "north-inner", 0, 2)
    assert state.settings.force_fields == "unused" and state.fields_left == 2
    assert "shield" not in actions(state)
    with pytest.raises(IllegalAction, match="not used at this table"):
        play(state, "shield planet=north-inner")


def test_a_force_field_costs_a_gem_and_a_movement() -> None:
    """force-fields=shield: a Gem to the supply, a token from the supply, one of two movements."""
    state = shielded()
    spec = actions(state)["shield"]
    assert spec.fields[0].choices == ("north-inner",)  # not the Home Station
    gems = state.gems
    state = play(state, "shield planet=north-inner")
    assert state.seats[0].gems == 1 and state.gems == gems + 1
    assert state.fields_left == 1 and state.shields == ((state.board.index("north-inner"), 0),)
    assert state.moves_left == 1
    with pytest.raises(IllegalAction, match="one a turn"):
        play(state, "shield planet=north-inner")
    assert "shield" not in actions(state)
    state = play(shielded(), "move from=red-station to=n1 count=1",
                 "move from=red-station to=n1 count=1")
    with pytest.raises(IllegalAction, match="takes a movement"):
        play(state, "shield planet=north-inner")


def test_a_force_field_needs_a_gem() -> None:
    """force-fields=shield: "pay 1 Gem"."""
    state = grant(shielded(), 0, gems=-2)
    assert "shield" not in actions(state)
    with pytest.raises(IllegalAction, match="costs a Gem"):
        play(state, "shield planet=north-inner")


def test_a_force_field_goes_on_a_planet_you_occupy() -> None:
    """force-fields=shield: "on a planet you occupy" (not an opponent's, an empty one or a Home
    Station)."""
    state = shielded()
    for other in ("n2", "n1", "red-station"):
        with pytest.raises(IllegalAction, match="a planet Olga occupies"):
            play(state, f"shield planet={other}")


def test_only_two_force_fields_are_in_the_box() -> None:
    """force-fields=shield: tokens come "from the supply (2 in the box)"."""
    state = ready(THREE, **SHIELD)
    for seat, space in enumerate(("north-inner", "east-inner", "south-inner")):
        state = spread(state, space, seat, 2)
    state = play(state, "shield planet=north-inner", "end", "shield planet=east-inner", "end")
    assert state.fields_left == 0 and len(state.shields) == 2
    assert "shield" not in actions(state)
    with pytest.raises(IllegalAction, match="no Force Field token is left"):
        play(state, "shield planet=south-inner")


def test_a_shielded_planet_refuses_an_opponents_move() -> None:
    """force-fields=shield: "no opponent may move onto a shielded planet"; its owner may."""
    state = play(shielded(), "shield planet=north-inner", "end")
    assert state.name(state.current) == "Patrick"
    assert "north-inner" not in actions(state)["move"].fields[1].choices
    with pytest.raises(IllegalAction,
                       match="Olga's Force Field shields Inner North until Olga's next turn"):
        play(state, "move from=n2 to=north-inner count=3")
    own = play(shielded(), "shield planet=north-inner",
               "move from=red-station to=north-inner count=1")
    assert planet(own, "north-inner") == ("Olga", 3)


def test_action_cards_ignore_a_force_field() -> None:
    """force-fields=shield: our reading keeps Action cards unaffected, so Bribe a Rival strikes a
    shielded planet (Patrick holds Bribe a Rival, next to Inner North from N2)."""
    state = play(shielded(), "shield planet=north-inner", "end")
    state = play(state, "play card=bribe-a-rival planet=north-inner")
    assert planet(state, "north-inner") == (None, 0)
    assert state.shields  # the token stays until Olga's next turn
    with pytest.raises(IllegalAction, match="Force Field shields Inner North"):
        play(state, "move from=n2 to=north-inner count=3")


def test_the_force_field_goes_back_at_its_owners_next_turn() -> None:
    """force-fields=shield: "at the start of your next turn the token goes back to the supply"."""
    state = play(shielded(), "shield planet=north-inner", "end")
    assert state.fields_left == 1
    state = play(state, "end")
    assert state.name(state.current) == "Olga"
    assert state.shields == () and state.fields_left == 2
    state = play(state, "end", "move from=n2 to=north-inner count=3")
    assert state.battle is not None


def test_narration_and_view_show_force_fields() -> None:
    state = play(shielded(), "shield planet=north-inner")
    console = Console(file=io.StringIO(), width=120)
    console.print(view(RULES, state))
    text = console.file.getvalue()
    assert "Force Field: Olga" in text and "1 Force Fields" in text
    before = shielded()
    told = recorded(before, "Olga", Shielded(planet="north-inner"))
    assert "puts a Force Field on Inner North" in told
    state = play(state, "end")
    after = play(state, "end")
    assert "Olga's Force Field on Inner North goes back by the board." in derived(
        state, after, Ended())
    figures = RULES.extra(after)
    assert figures["supply"]["force_fields"] == 2 and figures["shields"] == []


@pytest.mark.parametrize("first", [  # the first ten seeds in the default run, all in the slow one
    pytest.param(n, marks=() if n == 0 else pytest.mark.slow) for n in range(0, 50, 10)],
    ids=lambda n: f"seeds{n}-{n + 9}")
def test_bot_games_with_shields_end_legally(first: int) -> None:
    """force-fields=shield: 50 seeded bot games end with a winner; after every event the 2
    Force Fields (by the board + on planets) and every other piece add up, and no Recruit stands
    on a planet an opponent's Force Field shields."""
    used = 0
    for seed in range(first, first + 10):
        players = ("Olga", "Patrick", "Carol", "Dan")[: 2 + seed % 3]
        begun = started(players, seed=seed, **SHIELD)
        state = RULES.start(begun)
        for number, (actor, event) in enumerate(bot_game(RULES, begun, random.Random(seed)), 1):
            state = RULES.apply(state, actor, event)
            errors = invariant_errors(state)
            assert not errors, f"seed {seed}, event {number} {event!r}: {errors}"
            used += isinstance(event, Shielded)
            for space, owner in state.shields:
                assert state.holders[space] in (owner, NOBODY), (seed, number)
                assert state.battle is None or state.battle.target != space, (seed, number)
        result = RULES.result(state)
        assert result is not None and len(result.winners) == 1, f"seed {seed}: no winner"
    assert used > 0
