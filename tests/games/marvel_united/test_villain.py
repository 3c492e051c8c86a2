"""Villain turns: the Masterplan card, movement, BaM!, placements and overflow, the losses."""

from __future__ import annotations

from msgspec.structs import replace

from tabletape.rules.marvel_united.state import State, with_hero, with_place

from .helpers import PLAYERS, SETUP, play, ready, refused, start


def dealt() -> State:
    return play(start(), [SETUP, "deal player=olga cards=m,mh,aa",
                          "deal player=patrick cards=m,ma,hh"])


def test_red_skull_moves_2_and_triggers_the_threat_there() -> None:
    """Move Villain: 'Red Skull moves 2 Locations clockwise, triggering the Threat effect at his
    destination.' (Madame Hydra shows the movement symbol at this table.)"""
    state = play(dealt(), ["villain-turn card=plan-2 move=2 bam=false thugs=0,0,0 "
                           "civilians=0,0,0 special=false"])
    assert state.places[state.villain_at].name == "times-square"
    assert [s.kind for s in state.pending] == ["threat-move", "place"]
    assert "results of the Threat's movement effect" in refused(state, "done by=olga")
    state = play(state, ["done"])
    assert state.pending == () and state.phase == "draw"


def test_a_threat_without_the_movement_symbol_does_not_trigger() -> None:
    """Move Villain: only 'a Threat card with the movement symbol' is resolved."""
    state = play(dealt(), ["villain-turn card=plan-2 move=1 bam=false thugs=0,0,0 "
                           "civilians=0,0,0 special=false"])
    assert state.pending == ()


def test_bam_then_placements_then_special_in_order() -> None:
    """Villain Turn: 'executed in order, from top to bottom': move, BaM!, Thugs/Civilians,
    and 'If the Masterplan card has a Special Effect described on it, resolve it last'."""
    state = play(dealt(), ["villain-turn card=hail-hydra-1 move=0 bam=true thugs=0,1,0 "
                           "civilians=0,0,0 special=true"])
    assert [s.kind for s in state.pending] == ["bam", "place", "special"]
    before = state.places[0].thugs
    state = play(state, ["plot amount=2", "done"])
    assert state.places[0].thugs == before + 1
    assert [s.kind for s in state.pending] == ["special"]
    state = play(state, ["done"])
    assert state.fear == 2 and state.phase == "draw"


def test_the_placement_example_overflows_once() -> None:
    """Place Thugs/Civilians: 'the first Location gets a Thug, then a Civilian, then Red Skull's
    Location gets a Thug, and finally the last Location gets a Thug. As there's no empty slot to
    place the remaining Civilian, the Villain's effect is triggered once.'"""
    state = dealt()
    # Red Skull at Central Park (5 slots); the last location, Times Square, has 1 free slot.
    state = replace(state, villain_at=1)
    state = with_place(state, 2, replace(state.places[2], civilians=3, thugs=1))
    state = with_place(state, 0, replace(state.places[0], thugs=0))
    park, labs = state.places[1], state.places[0]
    state = play(state, ["villain-turn card=plan-1 move=0 bam=false thugs=1,1,1 "
                         "civilians=1,0,1 special=false"])
    assert (state.places[0].thugs, state.places[0].civilians) == (labs.thugs + 1,
                                                                  labs.civilians + 1)
    assert state.places[1].thugs == park.thugs + 1
    assert (state.places[2].thugs, state.places[2].civilians) == (2, 3)
    assert [(s.kind, s.count, s.place, s.thugs, s.civilians)
            for s in state.pending] == [("overflow", 1, 2, (0,), (1,))]
    state = play(state, ["plot amount=1", "done"])
    assert state.fear == 1


def test_a_masterplan_card_after_every_3_hero_cards() -> None:
    """Turn Sequence: 'Each time 3 Hero cards have been added to the Storyline, a new Masterplan
    card is drawn'."""
    state = ready()
    state = play(state, ["draw cards=aa by=olga", "play card=ma", "end",
                         "draw cards=w", "play card=w", "end",
                         "draw cards=hh", "play card=hh", "end"])
    assert state.phase == "villain"
    assert [e.split(":")[0] for e in state.storyline] == ["villain", "Olga", "Patrick", "Olga"]


def test_under_pressure_a_masterplan_card_after_every_2() -> None:
    """Under Pressure: after the first Mission the Villain plays a Masterplan card 'after every
    TWO Hero cards'."""
    state = replace(ready(), completed=("rescue",), missions=(9, 0, 0))
    state = play(state, ["draw cards=aa by=olga", "play card=ma", "end",
                         "draw cards=w", "play card=w", "end"])
    assert state.phase == "villain"


def test_an_empty_masterplan_deck_loses() -> None:
    """Winning & Losing: 'The Villain must draw a Masterplan card, but their deck is empty.'"""
    state = replace(ready(), deck=())
    state = replace(state, storyline=state.storyline + tuple(
        f"villain:plan-{n}" for n in (1, 2, 3, 4, 5, 7, 8)) + tuple(
        f"villain:{n}" for n in ("hail-hydra-1", "hail-hydra-2", "hydra-insurgency-1",
                                 "hydra-insurgency-2")))
    state = play(state, ["draw cards=aa by=olga", "play card=ma", "end",
                         "draw cards=w", "play card=w", "end",
                         "draw cards=hh", "play card=hh", "end"])
    assert state.outcome == "lost" and "empty deck" in state.reason


def test_red_skulls_fear_track_completes_the_plot() -> None:
    """Winning & Losing: 'The Villain achieves the victory condition stated on their Dashboard'
    (Red Skull: Fear reaches the end of the track, C)."""
    state = replace(dealt(), fear=18)
    state = play(state, ["villain-turn card=plan-1 move=0 bam=true thugs=0,0,0 civilians=0,0,0 "
                         "special=false", "plot amount=2"])
    assert state.outcome == "lost" and state.reason == "the villain's plot is complete"


def test_ultron_loses_nobody_until_every_location_is_full() -> None:
    """Ultron's dashboard (C): the heroes lose when every location is full."""
    state = play(start(PLAYERS, villain="ultron"), [
        SETUP.replace("crossbones,subversion,madame-hydra,bob,hydra-elite-troops,brainwashing",
                      "ultron-clone-1,ultron-clone-2,duplication-1,duplication-2,"
                      "ultron-virus-1,ultron-virus-2").replace(" on-move=madame-hydra", ""),
        "deal player=olga cards=m,mh,aa", "deal player=patrick cards=m,ma,hh"])
    for index, place in enumerate(state.places[1:], start=1):
        state = with_place(state, index, replace(place, thugs=place.slots - place.civilians))
    state = play(state, ["villain-turn card=plan-1 move=0 bam=true thugs=0,0,0 civilians=0,0,0 "
                         "special=false"])
    assert not state.outcome
    free = state.places[0].free
    state = play(state, [f"tokens location=stark-labs thugs={free}"])
    assert state.outcome == "lost" and state.detail == "every location is full"


def test_the_table_records_villain_turns_not_heroes() -> None:
    """The villain's actions are recorded by the table."""
    assert "the table records" in refused(dealt(), "villain-turn card=plan-1 by=olga")
    assert "not in the Masterplan deck" in refused(dealt(), "villain-turn card=plan-99")


def test_ko_by_damage_triggers_bam_which_can_chain() -> None:
    """KO: 'immediately resolve the BAM! effect on the Villain Dashboard (this could cause
    another Hero to be KO'd, creating a chain reaction)'."""
    state = play(dealt(), ["villain-turn card=plan-1 move=0 bam=true thugs=0,0,0 civilians=0,0,0 "
                           "special=false"])
    state = with_hero(state, 0, replace(state.heroes[0], location=0))
    state = with_hero(state, 1, replace(state.heroes[1], location=0))
    state = play(state, ["damage hero=patrick cards=m,ma", "damage hero=olga cards=m,mh,aa"])
    assert state.heroes[0].ko and [s.kind for s in state.pending] == ["ko-bam", "bam", "place"]
    assert "KO'd: ignored" in refused(state, "damage hero=olga cards=m")
    state = play(state, ["damage hero=patrick cards=hh"])
    assert [s.kind for s in state.pending] == ["ko-bam", "ko-bam", "bam", "place"]
    assert state.heroes[0].bottom == (0, 1, 3)  # m, mh, aa in the order discarded


def test_tabletape_draws_the_masterplan_card_and_fills_what_it_shows() -> None:
    """Villain Turn: 'Draw the top card from the Masterplan deck': when the table plays with
    the shipped deck (``masterplan-deck=shipped``) and leaves it empty, tabletape draws one from
    the seeded generator and records the card's face from the data (marked I)."""
    import random

    from tabletape.rules.marvel_united import RULES
    from tabletape.rules.marvel_united.events import VillainTurn

    state = play(start(PLAYERS, **{"masterplan-deck": "shipped"}), [
        SETUP, "deal player=olga cards=m,mh,aa", "deal player=patrick cards=m,ma,hh"])
    event = RULES.complete(state, "table", VillainTurn(), random.Random(4))
    assert isinstance(event, VillainTurn) and event.card in state.deck
    assert event.move is not None and len(event.thugs) == 3 and event.special is not None
    RULES.check(state, "table", event)


def test_taskmaster_cannot_be_damaged_while_a_crisis_token_is_out() -> None:
    """Taskmaster's dashboard (C): no damage to him while any location has a Crisis token; an
    Attack where there are no Civilians or Thugs discards a Crisis token there."""
    state = play(start(PLAYERS, villain="taskmaster"), [
        SETUP.replace("crossbones,subversion,madame-hydra,bob,hydra-elite-troops,brainwashing",
                      "elite-thugs-1,elite-thugs-2,explosive-trap-1,explosive-trap-2,"
                      "entangling-trap-1,entangling-trap-2").replace(" on-move=madame-hydra", ""),
        "deal player=olga cards=m,mh,aa", "deal player=patrick cards=m,ma,hh",
        "villain-turn card=plan-1 move=3 bam=true thugs=0,0,0 civilians=0,0,0 special=false",
        "tokens location=shield-helicarrier crisis=1", "damage hero=olga cards=m",
        "damage hero=patrick cards=m", "done",
        "draw cards=aa by=olga", "play card=aa"])
    here = state.heroes[0].location
    state = with_place(state, here, replace(state.places[here], thugs=0, civilians=0))
    state = replace(state, villain_at=here, completed=("rescue", "thugs"), missions=(9, 9, 0))
    assert not state.damageable
    assert "while a Crisis token is out" in refused(state, "attack target=villain")
    state = play(state, ["attack target=crisis", "attack target=villain"])
    assert state.health == 1
