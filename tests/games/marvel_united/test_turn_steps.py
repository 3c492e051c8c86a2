"""The order of a hero turn's steps: Draw, Play, Resolve Actions, then the Location effect."""

from __future__ import annotations

from msgspec.structs import replace

from tabletape.rules.marvel_united import RULES
from tabletape.rules.marvel_united.state import State, with_hero

from .helpers import play, ready, refused
from .test_hero import cap_and_widow, clear


def after_the_location_effect() -> State:
    """Olga (Captain America) has symbols, a token and a special left, and has used the
    Helicarrier's End of Turn effect to go to Times Square, where a Civilian waits."""
    state = ready(("Olga", "Patrick"), hands=("m,ma,leadership-h", "m,mh,a"),
                  heroes="captain-america,black-widow")
    state = play(state, ["draw cards=hh by=olga", "play card=leadership-h"])
    here = state.heroes[0].location
    state = replace(clear(state, here), missions=(0, 0, 1))
    state = with_hero(state, 0, replace(state.heroes[0], tokens=(1, 1, 1, 1)))
    return play(state, ["location-effect", "relocate hero=olga to=times-square by=olga",
                        "done by=olga"])


def test_nothing_but_end_after_the_location_effect() -> None:
    """Hero Turn: 'players follow these steps in order: Draw a Card, Play a Card, Resolve
    Actions, Location Effect'; '4. Location Effect: If the Location where the active Hero ends
    their turn has no Threat card on it, the player may choose to apply the End of Turn effect'.
    The Location effect is the last step: no action, token or special after it."""
    state = after_the_location_effect()
    assert state.turn is not None and state.turn.symbols[2] == 1 and state.turn.special
    for line in ("move to=shield-helicarrier", "rescue", "rescue token=true", "special",
                 "attack target=thug token=true", "heroic token=true"):
        assert "the Location effect is the last step" in refused(state, line), line
    assert [spec.type for spec in RULES.legal_actions(state)] == ["end"]
    state = play(state, ["end"])
    assert state.turn is not None and state.turn.seat == 1


def test_actions_before_the_location_effect_still_go() -> None:
    """Resolve Actions: the symbols are used 'in any order' before the Location Effect step."""
    state = play(cap_and_widow(), ["draw cards=hh by=olga", "play card=ma"])
    here = state.heroes[0].location
    state = replace(clear(state, here), missions=(0, 0, 1))
    state = play(state, ["attack target=thug", "location-effect", "done by=olga"])
    assert "the Location effect is the last step" in refused(state, "move to=times-square")
