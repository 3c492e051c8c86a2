"""Found by playing the rulebook through the CLI as a table would: refusals that name the rule,
and ``actions`` listing only the values the rules accept now."""

from __future__ import annotations

import msgspec
from msgspec.structs import replace

from tabletape.rules.marvel_united import RULES
from tabletape.rules.marvel_united.state import State, kinds, with_hero

from .helpers import PLAYERS, SETUP, play, refused, start, started
from .test_hero import cap_and_widow
from .test_windows import TASKMASTER, bam_at_stark_labs, location_effect_at


def choices(state: State, action: str, field: str) -> tuple[str, ...]:
    """The values ``actions`` lists for one field of one action allowed now."""
    spec = next(s for s in RULES.legal_actions(state) if s.type == action)
    return next(f.choices for f in spec.fields if f.name == field)


def test_times_square_refuses_a_civilian_elsewhere_for_being_elsewhere() -> None:
    """4. Location Effect: 'apply the End of Turn effect detailed at the bottom of the
    Location'; Times Square (C): rescue a Civilian *here*. A Civilian taken at another location
    is refused because the effect works here, with or without mission=true (not because
    'the effect discards tokens to the pool', which Times Square never does)."""
    state = location_effect_at("times-square")
    for flag in ("", " mission=true"):
        reason = refused(state, f"tokens location=central-park civilians=-1{flag} by=olga")
        assert "still allowed: 1 Civilian removed from times-square" in reason, reason
        assert "pool" not in reason


def test_a_location_effect_lists_only_its_own_places_and_hero() -> None:
    """Times Square (C): 'rescue a Civilian here'; S.H.I.E.L.D. Helicarrier: 'She decides to
    use it and moves to another Location' (the hero herself): ``actions`` lists Times Square
    only, and the Helicarrier's own hero only."""
    assert choices(location_effect_at("times-square"), "tokens", "location") == (
        "times-square",)
    assert choices(location_effect_at("shield-helicarrier"), "relocate", "hero") == ("Olga",)


def test_bam_lists_the_heroes_it_damages_and_the_cards_they_hold() -> None:
    """Activate BaM!: Red Skull's dashboard (C): 1 damage to each hero at his location; Hero
    Damage: 'discard 1 card from their hand'. With no BaM! Threat only Olga (with him) is
    listed, with the cards in her hand."""
    state = bam_at_stark_labs()
    assert choices(state, "damage", "hero") == ("Olga",)
    assert set(choices(state, "damage", "cards")) == {"m", "mh", "aa"}


def test_the_draw_lists_what_the_deck_can_give() -> None:
    """1. Draw Card: 'draws the top card from their Hero deck': ``actions`` lists the cards
    still in Patrick's deck (Black Widow: one 'm' and one 'a', both in his hand), not every
    card of his hero; a card put under the deck only when the draw reaches it (one card from
    a shuffled part of one: that card)."""
    state = play(cap_and_widow(), ["draw cards=hh by=olga", "play card=ma", "end"])
    assert set(choices(state, "draw", "cards")) == {"mh", "ma", "aa", "hh", "w", "ww",
                                                    "interrogate"}
    patrick = state.heroes[1]
    under = replace(patrick, bottom=(kinds("black-widow").index("m"),))
    assert "m" not in choices(with_hero(state, 1, under), "draw", "cards")
    names = kinds("black-widow")
    last = replace(under, deck=tuple(int(name == "hh") for name in names))
    assert choices(with_hero(state, 1, last), "draw", "cards") == ("hh",)


def test_a_location_named_twice_is_refused_as_named_twice() -> None:
    """Setup: 'Randomly pick 6 Locations': six different tiles. Six names with one twice are
    refused for the repeat (not 'not 6')."""
    reason = refused(start(), SETUP.replace("central-park", "stark-labs"))
    assert "stark-labs is named twice" in reason, reason


def test_setup_lists_the_threat_slots_field() -> None:
    """Clear Threats: 'Note that some Threats may display other types of actions that must be
    spent': the setup takes them as ``slots=threat:symbols``, so ``actions`` lists it, with the
    Threats it applies to (those cleared with action tokens, not Henchmen)."""
    spec = next(s for s in RULES.legal_actions(start()) if s.type == "setup")
    slots = next(f for f in spec.fields if f.name == "slots")
    assert set(slots.choices) == {"hydra-elite-troops", "subversion", "brainwashing"}


def test_a_hero_special_does_not_list_damage() -> None:
    """Special Effect: 'The active Hero may apply the listed effect' (the team's reading: a
    hero's special damages no hero). ``actions`` in that window does not offer ``damage``,
    which would always be refused."""
    state = play(start(PLAYERS, heroes="iron-man,captain-marvel"), [
        SETUP, "deal player=olga cards=m,mh,aa", "deal player=patrick cards=hh,m,mm",
        "villain-turn card=plan-6 move=0 bam=false thugs=0,0,0 civilians=0,0,0 special=false",
        "draw cards=m-special by=olga", "play card=m-special", "special"])
    listed = [spec.type for spec in RULES.legal_actions(state)]
    assert "damage" not in listed and "gain" in listed


def test_an_attack_on_a_guarded_crisis_token_names_taskmasters_rule() -> None:
    """Taskmaster's dashboard (C; the team's reading in the package docstring): an Attack or a
    Heroic Action discards a Crisis token only where no Civilians or Thugs are. An Attack on a
    Crisis token with Civilians beside it is refused for that rule, as the Heroic Action is
    (not 'no crisis to attack' while one lies there)."""
    state = play(start(PLAYERS, villain="taskmaster"), [
        TASKMASTER, "deal player=olga cards=m,mh,aa", "deal player=patrick cards=m,ma,hh",
        "villain-turn card=plan-1 move=3 bam=true thugs=0,0,0 civilians=0,0,0 special=false",
        "tokens location=shield-helicarrier crisis=1", "damage hero=olga cards=m",
        "damage hero=patrick cards=m", "done", "draw cards=aa by=olga", "play card=aa"])
    here = state.heroes[0].location
    assert state.places[here].crisis and state.places[here].civilians
    for line in ("attack target=crisis", "heroic target=crisis"):
        assert "only by Taskmaster's rule" in refused(state, line)


def test_a_spent_symbol_refusal_lists_actions_and_says_what_is_left() -> None:
    """Resolve Actions: 'once per symbol available to them'. A second Move on one Move symbol
    is refused saying what is left (the card's Attack), and the allowed values are actions one
    can type, not '1+0 tokens'."""
    state = play(cap_and_widow(), ["draw cards=hh by=olga", "play card=ma",
                                   "move to=times-square"])
    reason = refused(state, "move to=central-park")
    assert "left: 1 Attack symbol" in reason, reason
    assert "+0 tokens" not in reason, reason
    assert "Allowed: " in reason and "end" in reason.partition("Allowed: ")[2], reason


def test_a_threat_slot_refusal_names_what_its_slots_ask_for_as_typed() -> None:
    """Clear Threats: 'some Threats may display other types of actions that must be spent'. At
    a Threat whose slots ask for Move, Move, Attack (slots=hydra-elite-troops:mma), a Heroic
    action is refused because no slot asks for it, whether typed ``heroic`` or ``spend
    symbol=heroic``, and the allowed values are what one types: ``spend symbol=move``…"""
    state = play(start(), [f"{SETUP} slots=hydra-elite-troops:mma",
                           "deal player=olga cards=m,mh,aa", "deal player=patrick cards=m,ma,hh",
                           "villain-turn card=plan-6 move=0 bam=false thugs=0,0,0 "
                           "civilians=0,0,0 special=false", "draw cards=hh by=olga",
                           "play card=mh", "move to=police-hq"])
    for line in ("heroic target=threat", "spend symbol=heroic"):
        reason = refused(state, line)
        assert "no Heroic slot open on hydra-elite-troops" in reason, reason
        assert reason.endswith("Allowed: spend symbol=move, spend symbol=attack."), reason


def hero_special() -> State:
    """Olga (Iron Man) resolving her m-special; Patrick (Captain Marvel) beside her."""
    return play(start(PLAYERS, heroes="iron-man,captain-marvel"), [
        SETUP, "deal player=olga cards=m,mh,aa", "deal player=patrick cards=hh,m,mm",
        "villain-turn card=plan-6 move=0 bam=false thugs=0,0,0 civilians=0,0,0 special=false",
        "draw cards=m-special by=olga", "play card=m-special", "special"])


def test_a_result_that_changes_nothing_is_refused() -> None:
    """Design rule 6 ('Errors are for people'): a result typed without what it changes
    (``tokens location=x`` with no numbers, ``hit amount=0``, ``gain tokens=`` empty, a hero
    sent where they stand, Invulnerable twice) records nothing and is refused, as ``plot
    amount=0`` already was; the log is not touched."""
    state = hero_special()
    here = state.places[state.heroes[0].location].name
    for line in (f"tokens location={here} by=olga", f"tokens location={here} crisis=0 by=olga",
                 "hit target=villain amount=0 by=olga", "gain hero=patrick tokens= by=olga",
                 f"relocate hero=patrick to={here} by=olga"):
        reason = refused(state, line)
        assert "changes nothing" in reason, (line, reason)
    state = play(state, ["invulnerable hero=patrick by=olga"])
    assert "changes nothing" in refused(state, "invulnerable hero=patrick by=olga")


def test_logs_made_before_the_option_keep_results_that_changed_nothing() -> None:
    """Old logs must still fold: a game-started without the ``typos`` key (made before it)
    may hold such a result, typed then; it is read as it was typed. A table may choose
    ``--option typos=keep`` too."""
    for options in ({k: v for k, v in started().options.items() if k != "typos"},
                    {**started().options, "typos": "keep"}):
        state = RULES.start(msgspec.structs.replace(started(), options=options))
        assert state.typos == "keep"
    assert start().typos == "refuse"
    state = replace(hero_special(), typos="keep")
    here = state.places[state.heroes[0].location].name
    play(state, [f"tokens location={here} by=olga", "invulnerable hero=patrick by=olga",
                 "invulnerable hero=patrick by=olga"])


def test_move_and_attack_refusals_name_the_rule_for_the_typo() -> None:
    """Move: 'to an adjacent Location'; Attack: 'an enemy of your choice in the active Hero's
    Location' (a Thug, a Henchman, the Villain). A move to where the hero stands is refused as
    such, and a misspelt target gets 'did you mean'."""
    state = play(cap_and_widow(), ["draw cards=hh by=olga", "play card=ma"])
    here = state.places[state.heroes[0].location].name
    assert f"Olga is at {here} already" in refused(state, f"move to={here}")
    assert "did you mean 'villain'" in refused(state, "attack target=villian")


def test_a_misspelt_heroic_target_is_refused_for_the_typo() -> None:
    """Heroic Action: 'place a Heroic Action token on an empty slot of the Threat card' (or,
    Taskmaster's rule, discard a Crisis token): ``heroic target=thret`` is a typo, refused as
    one, not read as the Threat."""
    state = play(cap_and_widow(), ["draw cards=hh by=olga", "play card=ma"])
    assert "'thret' is not something a Heroic Action targets" in refused(
        state, "heroic target=thret")
    kept = replace(state, typos="keep")  # read as the Threat, as logs before the option were
    assert "no Threat taking action tokens" in refused(kept, "heroic target=thret")


def test_hit_lists_the_locations_of_henchmen() -> None:
    """Attack: 'If attacking a Henchman on a Threat card, remove 1 Health token from the card':
    an effect's ``hit target=henchman location=…`` lists the locations where a Henchman is."""
    state = hero_special()
    henchmen = {state.places[t.place].name for t in state.threats if t.henchman}
    assert set(choices(state, "hit", "location")) == henchmen


def test_an_unknown_card_lists_the_cards_that_may_be_named() -> None:
    """2. Play Card: 'chooses a Hero card from their hand': a card name that is no card of the
    hero is refused with the cards in hand as the allowed values (not every card of the
    hero)."""
    state = play(cap_and_widow(), ["draw cards=hh by=olga"])
    assert refused(state, "play card=zz").endswith("Allowed: m, ma, aa, hh.")
