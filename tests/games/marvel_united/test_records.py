"""Issue 11: who a card goes to, whose name a word means, costs that are not damage, what a
table can express, and faces that must be recorded rather than assumed."""

from __future__ import annotations

import random

from msgspec.structs import replace

from tabletape.rules.marvel_united import RULES
from tabletape.rules.marvel_united.events import VillainTurn
from tabletape.rules.marvel_united.state import State, with_hero, with_place

from .helpers import PLAYERS, SETUP, parse, play, ready, refused, start
from .test_hero import cap_and_widow, clear

TASKMASTER_SETUP = (
    "setup locations=stark-labs,central-park,times-square,shield-hq,police-hq,shield-helicarrier "
    "threats=elite-thugs-1,elite-thugs-2,explosive-trap-1,explosive-trap-2,entangling-trap-1,"
    "entangling-trap-2 start=stark-labs"
)
QUIET = "villain-turn card=plan-6 move=0 bam=false thugs=0,0,0 civilians=0,0,0 special=false"


def dealt(**options: str) -> State:
    return play(start(PLAYERS, **options), [SETUP, "deal player=olga cards=m,mh,aa",
                                            "deal player=patrick cards=m,ma,hh"])


def third_mission_pending() -> State:
    """Olga's rescue completes the third Mission: both heroes have a draw pending."""
    state = play(cap_and_widow(), ["draw cards=hh by=olga", "play card=ma"])
    for index in (0, 1, 2, 4):
        state = clear(state, index)
    state = replace(state, missions=(8, 9, 4), completed=("thugs", "threats"))
    state = with_hero(state, 0, replace(state.heroes[0], tokens=(0, 0, 1, 0)))
    return play(state, ["rescue token=true"])


# -- 1. the third Mission's draws ----------------------------------------------------------------


def test_each_hero_draws_their_own_third_mission_card_in_any_order() -> None:
    """Completing Missions: 'doing so allows all players to immediately draw 1 card from their
    deck into their hand': Patrick's draw goes into Patrick's hand, even while Olga's is also
    pending."""
    state = third_mission_pending()
    olga, patrick = state.heroes[0].hand_size, state.heroes[1].hand_size
    state = play(state, ["draw cards=hh by=patrick"])
    assert state.heroes[1].hand_size == patrick + 1 and state.heroes[0].hand_size == olga
    assert [(s.kind, s.hero) for s in state.pending] == [("mission-draw", 0)]
    assert "not owed" in refused(state, "draw cards=w by=patrick")
    state = play(state, ["draw cards=w by=olga"])
    assert state.heroes[0].hand_size == olga + 1 and not state.pending


def test_every_hero_owed_a_third_mission_card_may_draw_it() -> None:
    """Completing Missions: 'all players ... draw 1 card': both may act now, so each names
    themselves (``by=``), and each draws their own card."""
    state = third_mission_pending()
    draw = next(spec for spec in RULES.legal_actions(state) if spec.type == "draw")
    assert draw.actors == ("Olga", "Patrick")
    assert RULES.turn(state).active == ("Olga", "Patrick")
    assert "Olga, Patrick draw 1 card each" in RULES.turn(state).detail
    assert "not Olga's" in refused(state, "draw cards=w by=patrick hero=olga")
    assert "their own" in refused(state, "draw cards=w by=table hero=olga")
    assert "(Olga, Patrick: draw)" in refused(state, "done by=table")
    state = play(state, ["draw cards=hh by=patrick hero=black-widow"])
    assert state.heroes[1].hand[5] == 1  # Black Widow's hh


def test_a_completed_third_mission_card_is_drawn_by_the_right_hero_when_tabletape_draws() -> None:
    """Completing Missions: tabletape draws Patrick's card from Patrick's deck."""
    state = third_mission_pending()
    event = RULES.complete(state, "Patrick", RULES.event_types()["draw"](), random.Random(1))
    RULES.check(state, "Patrick", event)
    after = RULES.apply(state, "Patrick", event)
    assert after.heroes[1].hand_size == state.heroes[1].hand_size + 1


# -- 2. a player's own name wins -----------------------------------------------------------------


def test_a_player_named_like_another_seats_hero_is_dealt_to() -> None:
    """Setup: 'Each player draws 3 cards ... into their hand': ``player=Hulk`` is the player
    called Hulk (playing Iron Man), not Olga who plays Hulk."""
    state = play(start(("Olga", "Hulk"), heroes="hulk,iron-man"), [SETUP])
    state = play(state, ["deal player=Hulk cards=m,mh,ma"])
    assert state.heroes[1].dealt and not state.heroes[0].dealt
    state = play(state, ["deal player=Olga cards=m,ma,aa", QUIET, "draw cards=ww by=hulk"])
    assert state.turn is not None and state.turn.seat == 1


# -- 3. a cost is not damage ---------------------------------------------------------------------


def at_shield_hq(invulnerable: bool) -> State:
    """Olga (Captain America) at S.H.I.E.L.D. HQ, its End of Turn effect uncovered, a Crisis
    token at Central Park."""
    state = play(start(PLAYERS, villain="taskmaster", heroes="captain-america,black-widow"), [
        TASKMASTER_SETUP, "deal player=olga cards=m,ma,aa", "deal player=patrick cards=m,mh,a",
        QUIET, "draw cards=hh by=olga", "play card=m"])
    state = clear(state, 3)
    state = replace(state, missions=(0, 0, 1))
    state = with_place(state, 1, replace(state.places[1], crisis=1))
    return with_hero(state, 0, replace(state.heroes[0], invulnerable=invulnerable))


def test_shield_hq_cost_is_paid_while_invulnerable() -> None:
    """Invulnerable: 'the Hero cannot be damaged until their next turn': S.H.I.E.L.D. HQ's
    discard is a cost the hero chooses to pay (Hero Damage is 'For each damage a Hero takes'),
    so it is recorded with ``discard``, Invulnerable or not."""
    state = play(at_shield_hq(invulnerable=True), ["location-effect", "discard cards=aa by=olga",
                                                   "tokens location=central-park crisis=-1 by=olga",
                                                   "done by=olga"])
    assert state.heroes[0].bottom == (2,) and state.places[1].crisis == 0  # Cap's aa


def test_shield_hq_effect_needs_its_cost_first() -> None:
    """S.H.I.E.L.D. HQ (C): 'discard a card to the bottom of your deck to remove a Crisis
    token': no Crisis token leaves without the card."""
    state = play(at_shield_hq(invulnerable=False), ["location-effect"])
    assert "discard a card first" in refused(state, "tokens location=central-park crisis=-1 "
                                                    "by=olga")
    assert [spec.type for spec in RULES.legal_actions(state)] == ["discard", "done"]
    state = play(state, ["discard cards=hh by=olga"])
    assert "tokens" in [spec.type for spec in RULES.legal_actions(state)]


# -- 4. what a table can express -----------------------------------------------------------------


def test_the_villain_can_move_counterclockwise() -> None:
    """Move Villain: 'Move the Villain clockwise (unless otherwise indicated)': ``move=-1`` is
    one location counterclockwise."""
    state = play(dealt(), ["villain-turn card=plan-2 move=-1 bam=false thugs=0,0,0 "
                           "civilians=0,0,0 special=false"])
    assert state.places[state.villain_at].name == "avengers-mansion"
    assert "-6 to 6" in refused(dealt(), "villain-turn card=plan-2 move=-7 bam=false "
                                         "thugs=0,0,0 civilians=0,0,0 special=false")


def test_a_threat_asking_for_attack_and_move_symbols() -> None:
    """Clear Threats: 'Note that some Threats may display other types of actions that must be
    spent': the setup names each slot's symbol; ``spend symbol=attack`` fills an Attack slot,
    and the Threat is cleared when every slot is filled."""
    line = SETUP + " slots=hydra-elite-troops:mma"
    state = play(start(), [line, "deal player=olga cards=m,mh,aa",
                           "deal player=patrick cards=m,ma,hh", QUIET])
    troops = next(i for i, t in enumerate(state.threats) if t.name == "hydra-elite-troops")
    at = state.threats[troops].place  # police-hq, next to the heroes at the Helicarrier
    state = play(state, ["draw cards=ma by=olga", "play card=ma",
                         f"move to={state.places[at].name}"])
    state = with_hero(state, 0, replace(state.heroes[0], tokens=(2, 1, 1, 0)))
    assert "it asks for Move, Move, Attack" in refused(state, "heroic token=true")
    state = play(state, ["spend symbol=attack"])
    assert "no Attack slot open" in refused(state, "spend symbol=attack token=true")
    state = play(state, ["spend symbol=move token=true"])
    assert not state.threats[troops].cleared
    assert "no Heroic slot open" in refused(state, "spend symbol=heroic token=true")
    state = play(state, ["spend symbol=move token=true"])
    assert state.threats[troops].cleared and state.missions[2] == 1
    assert "not a Threat in play" in refused(start(), SETUP + " slots=crossbones:mma")
    assert "one letter per slot" in refused(start(), SETUP + " slots=subversion:mwx")


def test_a_thug_survives_an_attack_when_a_threat_there_says_so() -> None:
    """Attack: 'If attacking a Thug, it is eliminated upon receiving 1 damage (unless a Threat
    card in its Location says otherwise)'."""
    state = play(cap_and_widow(), ["draw cards=hh by=olga", "play card=aa"])
    here = state.heroes[0].location
    thugs = state.places[here].thugs
    state = play(state, ["attack target=thug survives=true"])
    assert state.places[here].thugs == thugs and state.missions[1] == 0
    state = clear(state, here)
    assert "no Threat" in refused(state, "attack target=thug survives=true")


# -- 5. a Masterplan card's face ----------------------------------------------------------------


def test_a_masterplan_card_needs_its_face() -> None:
    """Villain Turn: 'Each Masterplan card played will have different elements that must be
    executed in order': the shipped faces are placeholders (marked I), so the table records
    what the card shows unless it plays with the shipped deck (``masterplan-deck=shipped``)."""
    assert "what the card shows" in refused(dealt(), "villain-turn card=plan-3")
    assert "what the card shows" in refused(dealt(), "villain-turn card=plan-3 move=1")
    event = RULES.complete(dealt(), "table", VillainTurn(), random.Random(4))
    assert "what the card shows" in refused_event(dealt(), event)
    state = play(dealt(**{"masterplan-deck": "shipped"}), ["villain-turn card=plan-3"])
    assert state.places[state.villain_at].name == "central-park"  # plan-3 moves 1 (I)


def refused_event(state: State, event: VillainTurn) -> str:
    try:
        RULES.check(state, "table", event)
    except Exception as error:  # IllegalAction
        return str(error)
    raise AssertionError(f"{event!r} was accepted")


def test_status_marks_the_shipped_placeholder_faces() -> None:
    """Game data is data: placeholder faces in use are marked as such."""
    table = RULES.extra(dealt())["data_marks"]
    shipped = RULES.extra(dealt(**{"masterplan-deck": "shipped"}))["data_marks"]
    assert table["masterplan"] == "table" and shipped["masterplan"] == "I"


# -- 6. refusals that say the rule ---------------------------------------------------------------


def test_the_villain_cannot_be_attacked_before_2_missions() -> None:
    """Attack: 'Only after resolving 2 Missions, Heroes can attack the Villain directly.'"""
    state = play(cap_and_widow(), ["draw cards=hh by=olga", "play card=aa"])
    state = replace(state, villain_at=state.heroes[0].location)
    assert "Only after resolving 2 Missions" in refused(state, "attack target=villain")
    assert "not at" in refused(replace(state, villain_at=0, completed=("rescue", "thugs")),
                               "attack target=villain")


# -- the same kind of fault, found while looking --------------------------------------------------


def test_the_narration_names_the_player_a_hero_name_meant() -> None:
    """Hero Damage: the narration says whose hand the card left: ``hero=captain-america``
    is Olga, as the state has it."""
    from tabletape.replay.games.marvel_united import recorded

    state = play(cap_and_widow(), ["draw cards=hh by=olga", "play card=m", "end",
                                   "draw cards=hh", "play card=m", "end",
                                   "draw cards=w", "play card=ma", "end",
                                   "villain-turn card=plan-1 move=0 bam=true thugs=0,0,0 "
                                   "civilians=0,0,0 special=false"])
    actor, event = parse(state, "damage hero=captain-america cards=aa")
    assert recorded(state, actor, event) == "Olga takes 1 damage (aa)."
    actor, event = parse(state, "deal player=black-widow cards=m,mh,a")
    assert recorded(state, actor, event).startswith("Patrick draws an opening hand")


def test_a_hero_drawing_during_the_villains_window_hears_whose_window_it_is() -> None:
    """Villain Turn: the BaM! is the table's to resolve; a hero's early ``draw`` is told so,
    not asked for ``hero=``."""
    state = play(dealt(), ["villain-turn card=plan-1 move=0 bam=true thugs=0,0,0 "
                           "civilians=0,0,0 special=false"])
    assert "the table records the results of BaM!" in refused(state, "draw cards=w by=olga")


def test_a_player_may_not_be_called_villain() -> None:
    """Storyline: Masterplan cards are the villain's entries, so no player takes that name."""
    import pytest

    from tabletape.rules.kernel import BadOptions

    with pytest.raises(BadOptions, match="'villain' names the villain"):
        start(("villain", "Patrick"))


def test_the_cost_is_the_location_whose_effect_is_used() -> None:
    """Location Effect: the effect 'detailed at the bottom of the Location' where the hero ends
    the turn: after the Helicarrier moves Olga to S.H.I.E.L.D. HQ, no HQ cost is asked."""
    state = at_shield_hq(invulnerable=False)
    helicarrier = next(i for i, p in enumerate(state.places) if p.name == "shield-helicarrier")
    state = with_hero(clear(state, helicarrier), 0, replace(state.heroes[0],
                                                            location=helicarrier))
    state = play(state, ["location-effect", "relocate hero=olga to=shield-hq by=olga"])
    assert [spec.type for spec in RULES.legal_actions(state)] == ["done"]
    assert not play(state, ["done by=olga"]).pending


def test_names_are_read_the_same_whatever_their_case() -> None:
    """Setup: the villain's start and the Threats' symbols, and Action token names, are read
    as every other name is, whatever their case (``start=Stark-Labs``, ``tokens=Move``)."""
    line = SETUP.replace("start=stark-labs", "start=Stark-Labs").replace(
        "on-move=madame-hydra", "on-move=Madame-Hydra")
    state = play(start(), [line, "deal player=olga cards=m,mh,aa",
                           "deal player=patrick cards=m,ma,hh"])
    assert state.villain_at == 0
    assert [t.name for t in state.threats if t.on_move] == ["madame-hydra"]
    state = ready(PLAYERS, hands=("m-special,m,mh", "hh,m,mm"), heroes="iron-man,captain-marvel")
    state = play(state, ["draw cards=aa by=olga", "play card=m-special", "special",
                         "gain hero=olga tokens=Move,WILD by=olga"])
    assert state.heroes[0].tokens == (1, 0, 0, 1)


def test_the_cost_comes_from_the_hand_of_the_hero_using_the_effect() -> None:
    """S.H.I.E.L.D. HQ (C): 'discard a card to the bottom of your deck': Patrick's card does
    not pay Olga's cost."""
    state = play(at_shield_hq(invulnerable=False), ["location-effect"])
    assert "from Olga's own hand" in refused(state, "discard hero=patrick cards=m by=olga")


def test_an_action_before_the_third_mission_draws_says_to_draw() -> None:
    """Completing Missions: the third Mission's draw is immediate: the active hero's next
    action waits for it, and the refusal says so (not 'then done', which is refused too)."""
    state = third_mission_pending()
    refusal = refused(state, "rescue token=true by=olga")
    assert "the third Mission's cards are drawn first (Olga, Patrick: draw)" in refusal


def test_the_narration_tells_new_facts_in_table_words() -> None:
    """Move Villain 'clockwise (unless otherwise indicated)'; a cost is not damage; a Thug a
    Threat keeps: the narration says what was recorded."""
    from tabletape.replay.games.marvel_united import recorded

    state = dealt()
    line = ("villain-turn card=plan-2 move=-1 bam=false thugs=0,0,0 civilians=0,0,0 "
            "special=false")
    assert "move 1 counterclockwise" in recorded(state, *parse(state, line))
    state = play(at_shield_hq(invulnerable=True), ["location-effect"])
    told = recorded(state, *parse(state, "discard cards=aa by=Olga"))
    assert told == "Olga discards aa to the bottom of the deck (a cost, not damage)."
    state = play(cap_and_widow(), ["draw cards=hh by=olga", "play card=aa"])
    told = recorded(state, *parse(state, "attack target=thug survives=true"))
    assert "survives" in told
