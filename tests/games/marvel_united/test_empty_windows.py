"""Marvel United windows with nothing to record pass by themselves (issue 15, rules version 3).

A window is where the table records an effect's results and says ``done``. When the data says
the effect can have no result at all, there is nothing for the table to do: the fold passes the
window (derived, no ``done`` typed). Where a result may be recorded, the window stays; and
logs of versions 1 and 2, which typed that ``done``, fold as they did.
"""

from __future__ import annotations

from msgspec.structs import replace

from tabletape.rules.marvel_united import RULES
from tabletape.rules.marvel_united.state import State, with_hero, with_place

from .helpers import PLAYERS, play, refused, start
from .test_hero import cap_and_widow
from .test_windows import DEALS, ULTRON, location_effect_at, standing_at

NO_EFFECT = "no effect is being resolved"


def test_the_current_version_passes_empty_windows() -> None:
    assert RULES.rules_version == "3"
    assert start().protocol == 3


def test_a_location_effect_with_nothing_to_do_needs_no_done() -> None:
    """Location Effect: 'the player may choose to apply the End of Turn effect detailed at the
    bottom of the Location'. Avengers Mansion (C): draw up to 3 cards in hand: with 3 cards
    already, it draws none, so the window passes and the hero may end the turn."""
    state = location_effect_at("avengers-mansion", hand=3)
    assert state.pending == ()
    assert NO_EFFECT in refused(state, "done by=olga")
    assert [spec.type for spec in RULES.legal_actions(state)] == ["end"]


def test_a_location_effect_that_may_do_something_keeps_its_window() -> None:
    """Avengers Mansion with 1 card in hand: up to 2 cards may be drawn, so the window stays
    until the draw and ``done`` (a window where results were recorded is closed by ``done``)."""
    state = location_effect_at("avengers-mansion", hand=1)
    assert [step.kind for step in state.pending] == ["location"]
    state = play(state, ["draw cards=aa,w by=olga"])
    assert [step.kind for step in state.pending] == ["location"]
    assert play(state, ["done by=olga"]).pending == ()


def ultron_bam_at_a_full_location(hero_there: bool) -> State:
    """Ultron's BaM! ('add 3 Thugs at his location; 1 damage to each hero there') at Stark Labs
    with every slot taken and no BaM! Threat named at setup; Olga there or not, Patrick at the
    Helicarrier."""
    state = play(start(PLAYERS, villain="ultron"), [f"{ULTRON} bam=", *DEALS])
    place = state.places[0]
    state = with_place(state, 0, replace(place, thugs=place.slots - place.civilians))
    state = with_hero(state, 0, replace(state.heroes[0], location=0 if hero_there else 2))
    state = with_hero(state, 1, replace(state.heroes[1], location=3))
    return play(state, ["villain-turn card=plan-1 move=0 bam=true thugs=0,0,0 civilians=0,0,0 "
                        "special=false"])


def test_a_bam_that_can_do_nothing_passes() -> None:
    """Activate BaM!: 'Activate the BaM! effect detailed on the Villain Dashboard'. Ultron's adds
    Thugs where he stands and damages each hero there: on a full location with no hero, it can
    do nothing, and the villain turn goes on to the heroes."""
    state = ultron_bam_at_a_full_location(hero_there=False)
    assert state.pending == ()
    assert state.phase == "draw"
    assert NO_EFFECT in refused(state, "done")


def test_a_bam_that_may_damage_a_hero_stays() -> None:
    """The same BaM! with Olga there: 'often dealing damage to them (see Hero Damage)'."""
    state = ultron_bam_at_a_full_location(hero_there=True)
    assert state.pending[0].kind == "bam"
    assert "still expected 1 damage to Olga" in refused(state, "done")


def test_a_version_2_log_keeps_its_done() -> None:
    """A game recorded under version 2 typed ``done`` in such a window: it still folds so."""
    state = play(replace(standing_at("avengers-mansion", hand=3), protocol=2),
                 ["location-effect"])
    assert [step.kind for step in state.pending] == ["location"]
    assert play(state, ["done by=olga"]).pending == ()


def patrick_next_with_an_empty_deck(protocol: int = 3) -> State:
    """Olga's turn played and ended; Patrick (Black Widow) starts his with no card left in his
    deck (all his cards in hand)."""
    state = play(cap_and_widow(), ["draw cards=hh by=olga", "play card=ma"])
    widow = state.heroes[1]
    hand = tuple(h + d for h, d in zip(widow.hand, widow.deck, strict=True))
    state = with_hero(state, 1, replace(widow, deck=(0,) * len(widow.deck), hand=hand))
    return play(replace(state, protocol=protocol), ["end"])


def test_a_draw_from_an_empty_deck_is_not_typed() -> None:
    """1. Draw Card: 'If their deck runs out, the player simply doesn't draw a card.' Patrick's
    turn goes straight to playing a card: no ``draw`` to type."""
    state = patrick_next_with_an_empty_deck()
    assert state.turn is not None and state.turn.seat == 1
    assert state.phase == "play"
    assert "draw" not in [spec.type for spec in RULES.legal_actions(state)]
    held = state.heroes[1].hand_size
    state = play(state, ["play card=m by=patrick"])
    assert state.heroes[1].hand_size == held - 1


def test_a_draw_with_cards_left_is_still_typed() -> None:
    """With cards in the deck the hero draws one, typed as it was."""
    state = play(cap_and_widow(), ["draw cards=hh by=olga", "play card=ma", "end"])
    assert state.phase == "draw" and state.turn is not None and state.turn.seat == 1


def test_a_version_2_log_keeps_its_empty_draw() -> None:
    """Version 2 typed ``draw`` with no card for it: such a log folds as it did."""
    state = patrick_next_with_an_empty_deck(protocol=2)
    assert state.phase == "draw"
    assert play(state, ["draw by=patrick"]).phase == "play"


def test_the_narration_says_there_was_no_card_to_draw() -> None:
    from tabletape.replay.games.marvel_united import derived

    state = patrick_next_with_an_empty_deck()
    before = play(cap_and_widow(), ["draw cards=hh by=olga", "play card=ma"])
    told = derived(before, state, None)
    assert told[-2:] == ["Patrick's turn.", "Patrick has no card to draw."]
