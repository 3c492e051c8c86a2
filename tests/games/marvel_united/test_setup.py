"""Setup: villain health, the ring, Threats, the Masterplan deck, hands, Challenges, options."""

from __future__ import annotations

import pytest

from tabletape.rules.kernel import BadOptions
from tabletape.rules.marvel_united import RULES, data
from tabletape.rules.marvel_united.state import invariant_errors

from .helpers import PLAYERS, SETUP, play, ready, refused, start

FOUR = ("Olga", "Patrick", "Quinn", "Rosa")


def test_red_skull_has_11_health_with_4_heroes() -> None:
    """Setup: 'In a 4-player game, Red Skull starts with a pile of 11 Health tokens.'"""
    assert start(FOUR).health == 11
    assert start(PLAYERS).health == 4
    assert start(PLAYERS, villain="taskmaster").health == 2


def test_health_can_be_overridden() -> None:
    """Game data is data: a table overrides the villain's health (C) in the options."""
    assert start(PLAYERS, health="9").health == 9


def test_crossbones_enters_with_6_health() -> None:
    """Setup: 'Crossbones always enters the game with 6 Health tokens.'"""
    state = play(start(), [SETUP])
    crossbones = next(t for t in state.threats if t.name == "crossbones")
    assert crossbones.henchman and crossbones.health == 6


def test_setup_places_six_locations_threats_villain_and_heroes_opposite() -> None:
    """Setup: 6 Locations with their tokens, a Threat on each, the villain at one location and
    the heroes 'on the Location opposite to the Villain'."""
    state = play(start(), [SETUP])
    assert [p.name for p in state.places][:2] == ["stark-labs", "central-park"]
    assert all(p.threat == i for i, p in enumerate(state.places))
    assert state.villain_at == 0
    assert {h.location for h in state.heroes} == {3}
    park = state.places[1]
    assert (park.slots, park.civilians, park.thugs) == (5, 2, 2)
    assert len(state.deck) == 12 and state.phase == "deal"


def test_setup_refuses_a_wrong_ring() -> None:
    """Setup: 'Randomly pick 6 Locations': six different ones, and each Threat once."""
    assert "6 different" in refused(start(), "setup locations=stark-labs,central-park "
                                    "threats=crossbones start=stark-labs")
    bad = SETUP.replace("brainwashing", "crossbones")
    assert "each once" in refused(start(), bad)


def test_each_hero_draws_three() -> None:
    """Setup: 'Each player draws 3 cards from the top of their deck into their hand'."""
    state = play(start(), [SETUP])
    assert "draws 3 cards, not 2" in refused(state, "deal player=olga cards=m,mh")
    state = play(state, ["deal player=olga cards=m,mh,aa"])
    assert state.heroes[0].hand_size == 3 and state.heroes[0].cards_in_deck == 9
    assert "has their opening hand" in refused(state, "deal player=olga cards=m,mh,aa")


@pytest.mark.parametrize("hero", sorted(data.HEROES))
def test_hero_decks_have_12_cards(hero: str) -> None:
    """Components: '60 Hero Cards (12 for each Hero)'."""
    assert sum(card.count for card in data.HEROES[hero].values()) == 12


@pytest.mark.parametrize("villain", sorted(data.VILLAINS))
def test_villain_decks_have_12_masterplan_and_6_threat_cards(villain: str) -> None:
    """Components: '36 Masterplan Cards (12 for each Villain)', '18 Threat Cards (6 for each)'."""
    assert len(data.MASTERPLANS[villain]) == 12 and len(data.THREATS[villain]) == 6


@pytest.mark.parametrize(("challenge", "cards"), [("moderate", 11), ("hard", 11), ("heroic", 10)])
def test_challenges_remove_cards_from_each_deck(challenge: str, cards: int) -> None:
    """Challenges: moderate removes the highest-value card, hard the indicated card, heroic
    both indicated cards (which cards: V, the research page)."""
    state = start(PLAYERS, challenge=challenge)
    assert [h.total for h in state.heroes] == [cards, cards]
    assert not invariant_errors(state)


def test_options_name_heroes_and_refuse_unknown_values() -> None:
    """Each player chooses a Hero; names outside the box are refused with the allowed ones."""
    state = start(PLAYERS, heroes="hulk,black-widow")
    assert [h.hero for h in state.heroes] == ["hulk", "black-widow"]
    with pytest.raises(BadOptions, match="allowed: red-skull"):
        RULES.options({"villain": "thanos"}, PLAYERS)
    with pytest.raises(BadOptions, match="different hero"):
        RULES.options({"heroes": "hulk,hulk"}, PLAYERS)
    with pytest.raises(BadOptions, match="2 to 4 players"):
        RULES.options({}, ("a",))


def test_the_villain_goes_first() -> None:
    """Villain Turn: 'The game always starts with the Villain taking their turn.'"""
    state = play(start(), [SETUP, "deal player=olga cards=m,mh,aa",
                           "deal player=patrick cards=m,ma,hh"])
    assert state.phase == "villain"
    assert "nobody may draw now" in refused(state, "draw cards=m by=olga")
    state = ready()
    assert state.storyline == ("villain:plan-6",) and state.turn is None
