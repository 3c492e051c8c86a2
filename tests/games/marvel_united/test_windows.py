"""Effect windows: each result is checked against what the data says the effect is (the
dashboard's BaM! and overflow, a Location's End of Turn effect), and ``done`` waits for what is
owed; where a Threat's text decides, the bookkeeping is checked."""

from __future__ import annotations

from msgspec.structs import replace

from tabletape.rules.marvel_united import RULES
from tabletape.rules.marvel_united.state import State, kinds, with_hero, with_place

from .helpers import PLAYERS, SETUP, play, refused, start
from .test_hero import cap_and_widow, clear

TASKMASTER = SETUP.replace(
    "crossbones,subversion,madame-hydra,bob,hydra-elite-troops,brainwashing",
    "elite-thugs-1,elite-thugs-2,explosive-trap-1,explosive-trap-2,entangling-trap-1,"
    "entangling-trap-2").replace(" on-move=madame-hydra", "")
ULTRON = SETUP.replace(
    "crossbones,subversion,madame-hydra,bob,hydra-elite-troops,brainwashing",
    "ultron-clone-1,ultron-clone-2,duplication-1,duplication-2,ultron-virus-1,"
    "ultron-virus-2").replace(" on-move=madame-hydra", "")
DEALS = ("deal player=olga cards=m,mh,aa", "deal player=patrick cards=m,ma,hh")
TWO_THUGS_OVER = ("villain-turn card=plan-6 move=0 bam=false thugs=0,3,0 civilians=0,0,0 "
                  "special=false")
"""Stark Labs (the villain's, 1 empty slot) gets 3 Thugs: 2 are not placed."""


def dealt(villain: str = "red-skull", setup: str = SETUP) -> State:
    return play(start(PLAYERS, villain=villain), [setup, *DEALS])


def test_red_skulls_overflow_is_fear_1_per_token_not_placed() -> None:
    """Place Thugs/Civilians: 'If there are not enough empty slots available at a Location,
    check the Villain Dashboard to see what happens.' Red Skull's dashboard (C): Fear +1 per
    token not placed. Two Thugs not placed: Fear +2, not 0, 1 or 3."""
    state = play(dealt(), [TWO_THUGS_OVER])
    assert [(s.kind, s.place, s.count) for s in state.pending] == [("overflow", 0, 2)]
    assert "overflow at stark-labs" in RULES.turn(state).detail
    assert "still expected: Fear +2" in RULES.turn(state).detail
    assert "still expected Fear +2" in refused(state, "done")
    assert "not Fear +3" in refused(state, "plot amount=3")
    state = play(state, ["plot amount=1"])
    assert "still expected Fear +1" in refused(state, "done")
    state = play(state, ["plot amount=1", "done"])
    assert state.fear == 2 and state.phase == "draw"


def test_taskmasters_overflow_is_one_crisis_token_per_location() -> None:
    """Taskmaster's dashboard (C): one Crisis token at the location that overflowed, once per
    location (FAQ, V), not 0, not 2, not elsewhere."""
    state = play(dealt("taskmaster", TASKMASTER), [TWO_THUGS_OVER])
    assert "still expected 1 Crisis token added at stark-labs" in refused(state, "done")
    assert "not 1 Crisis token added at central-park" in refused(
        state, "tokens location=central-park crisis=1")
    assert "not 2 Crisis tokens added at stark-labs" in refused(state, "tokens location=stark-labs "
                                                              "crisis=2")
    state = play(state, ["tokens location=stark-labs crisis=1", "done"])
    assert state.places[0].crisis == 1 and state.phase == "draw"


def test_each_location_that_overflows_opens_its_own_window() -> None:
    """Place Thugs/Civilians: 'Go in clockwise order'; the dashboard's effect triggers once per
    location that overflowed (FAQ, V): Avengers Mansion, then Stark Labs."""
    state = play(dealt("taskmaster", TASKMASTER), [
        "villain-turn card=plan-6 move=0 bam=false thugs=3,3,0 civilians=0,0,0 special=false"])
    assert [(s.kind, s.place, s.count) for s in state.pending] == [("overflow", 5, 1),
                                                                  ("overflow", 0, 2)]
    assert "avengers-mansion" in RULES.turn(state).detail
    state = play(state, ["tokens location=avengers-mansion crisis=1", "done",
                         "tokens location=stark-labs crisis=1", "done"])
    assert (state.places[5].crisis, state.places[0].crisis) == (1, 1)


def test_ultrons_overflow_sends_each_token_to_the_next_location_clockwise() -> None:
    """Ultron's dashboard (C): 'the token goes to the next location clockwise' (a reading: the
    next one with an empty slot). Central Park takes 1, then Times Square."""
    state = play(dealt("ultron", ULTRON), [TWO_THUGS_OVER])
    assert "still allowed: 2 Thugs added at central-park" in refused(
        state, "tokens location=times-square thugs=1")
    assert "not 1 Civilian added" in refused(state, "tokens location=central-park civilians=1")
    state = play(state, ["tokens location=central-park thugs=1"])
    assert "1 Thug added at times-square" in refused(state, "done")
    state = play(state, ["tokens location=times-square thugs=1", "done"])
    assert state.phase == "draw"


def bam_at_stark_labs(bam: str = "") -> State:
    """Red Skull's BaM! at Stark Labs, Olga there with him, Patrick at the Helicarrier; the
    Threats showing BaM!: ``bam``."""
    state = play(start(), [f"{SETUP} bam={bam}", *DEALS])
    state = with_hero(state, 0, replace(state.heroes[0], location=0))
    return play(state, ["villain-turn card=plan-1 move=0 bam=true thugs=0,0,0 civilians=0,0,0 "
                        "special=false"])


def test_red_skulls_bam_is_1_damage_here_and_fear_2() -> None:
    """Activate BaM!: 'Activate the BaM! effect detailed on the Villain Dashboard, as well as
    any BaM! effects shown on Threat cards.' Red Skull's (C): 1 damage to each hero at his
    location; Fear +2. With no BaM! Threat: no damage far from him or twice, no Thug to a
    Mission, no gifts, and Fear not left at 0."""
    state = bam_at_stark_labs()
    assert "not 1 damage to Patrick" in refused(state, "damage hero=patrick cards=m")
    assert "not 2 damage to Olga" in refused(state, "damage hero=olga cards=m,mh")
    assert "discards tokens to the pool" in refused(
        state, "tokens location=stark-labs thugs=-1 mission=true")
    assert "no Action tokens" in refused(state, "gain hero=olga tokens=wild,wild,wild")
    assert "still expected 1 damage to Olga, Fear +2" in refused(state, "done")
    state = play(state, ["damage hero=olga cards=m", "plot amount=2", "done"])
    assert state.fear == 2 and state.heroes[0].hand_size == 2


def test_a_bam_threat_may_add_damage_where_it_or_the_villain_is() -> None:
    """Activate BaM!: the Threats' BaM! effects are on their cards (judged by the table): extra
    damage is accepted at the villain's location or a BaM! Threat's (here Brainwashing, at
    Avengers Mansion), not elsewhere."""
    state = bam_at_stark_labs("brainwashing")
    state = with_hero(state, 1, replace(state.heroes[1], location=5))
    state = play(state, ["damage hero=patrick cards=m", "damage hero=olga cards=m,mh"])
    state = with_hero(state, 1, replace(state.heroes[1], location=3))
    assert "not 1 damage to Patrick" in refused(state, "damage hero=patrick cards=ma")
    state = play(state, ["plot amount=2", "done"])
    assert state.phase == "draw"


def test_the_bam_after_a_ko_is_the_dashboards_only() -> None:
    """KO: 'immediately resolve the BAM! effect on the Villain Dashboard'; the Henchmen's BaM!s
    do not trigger on a KO (FAQ, V)."""
    state = bam_at_stark_labs("brainwashing")
    olga = state.heroes[0]
    state = with_hero(state, 0, replace(olga, hand=(1,) + (0,) * (len(olga.hand) - 1),
                                        deck=tuple(a + b - (k == 0) for k, (a, b) in enumerate(
                                            zip(olga.deck, olga.hand, strict=True)))))
    state = play(state, ["damage hero=olga cards=m"])
    assert [s.kind for s in state.pending] == ["ko-bam", "bam", "place"]
    assert "still expected Fear +2" in refused(state, "done")
    assert "not 1 Crisis token" in refused(state, "tokens location=stark-labs crisis=1")
    state = with_hero(state, 1, replace(state.heroes[1], location=5))
    assert "not 1 damage to Patrick" in refused(state, "damage hero=patrick cards=m")
    state = play(state, ["plot amount=2", "done", "plot amount=2", "done"])
    assert state.fear == 4


def location_effect_at(name: str, hand: int = 3) -> State:
    """Olga (Captain America) at ``name``, its Threat cleared, with ``hand`` cards after playing
    her card, using its End of Turn effect."""
    return play(standing_at(name, hand), ["location-effect"])


def standing_at(name: str, hand: int = 3) -> State:
    """Olga at ``name`` as in :func:`location_effect_at`, before she uses its effect."""
    state = play(cap_and_widow(), ["draw cards=hh by=olga", "play card=ma"])
    here = next(i for i, p in enumerate(state.places) if p.name == name)
    state = replace(clear(state, here), missions=(0, 0, 1))
    olga = state.heroes[0]
    spare = olga.hand_size - hand
    kept, moved = list(olga.hand), [0] * len(olga.hand)
    for kind in range(len(kept)):
        take = min(kept[kind], spare - sum(moved))
        kept[kind] -= take
        moved[kind] += take
    return with_hero(state, 0, replace(olga, location=here, hand=tuple(kept), deck=tuple(
        a + b for a, b in zip(olga.deck, moved, strict=True))))


def test_avengers_mansion_draws_up_to_3_cards_in_hand() -> None:
    """4. Location Effect: 'apply the End of Turn effect detailed at the bottom of the
    Location'. Avengers Mansion (C): draw up to 3 cards in hand; with 1 card, 2 at most."""
    state = location_effect_at("avengers-mansion", hand=1)
    assert "not Olga draws 3 cards" in refused(state, "draw cards=aa,w,ww by=olga")
    assert "not 1 damage to Olga" in refused(state, "damage hero=olga cards=hh by=olga")
    state = play(state, ["draw cards=aa,w by=olga", "done by=olga"])
    assert state.heroes[0].hand_size == 3


def test_times_square_rescues_one_civilian_here() -> None:
    """Times Square (C): rescue a Civilian here: one, here, to the Rescue Civilians Mission."""
    state = location_effect_at("times-square")
    assert "(mission=true)" in refused(state, "tokens location=times-square civilians=-1 "
                                              "by=olga")
    assert "not 1 Civilian removed from central-park" in refused(
        state, "tokens location=central-park civilians=-1 mission=true by=olga")
    state = play(state, ["tokens location=times-square civilians=-1 mission=true by=olga"])
    assert state.missions[0] == 1
    assert "nothing more" in refused(state, "tokens location=times-square civilians=-1 "
                                            "mission=true by=olga")


def test_central_park_moves_up_to_2_tokens_elsewhere() -> None:
    """Central Park (C): move up to 2 Civilians/Thugs from here elsewhere: taken from here,
    each put down at another location before 'done'."""
    state = location_effect_at("central-park")
    state = play(state, ["tokens location=central-park thugs=-1 by=olga",
                         "tokens location=central-park civilians=-1 by=olga"])
    assert "not 1 Thug removed" in refused(state, "tokens location=central-park thugs=-1 "
                                                   "by=olga")
    assert "still expected 1 Thug added elsewhere, 1 Civilian added elsewhere" in (
        refused(state, "done by=olga"))
    assert "not 2 Thugs added" in refused(state, "tokens location=times-square thugs=2 by=olga")
    state = play(state, ["tokens location=stark-labs civilians=1 by=olga",
                         "tokens location=avengers-mansion thugs=1 by=olga", "done by=olga"])
    assert state.phase == "act"


def test_police_hq_discards_one_thug_and_the_helicarrier_moves_its_hero_only() -> None:
    """New York Police HQ (C): discard a Thug from any location (to the pool); S.H.I.E.L.D.
    Helicarrier: 'She decides to use it and moves to another Location' (the hero, once)."""
    state = location_effect_at("police-hq")
    state = play(state, ["tokens location=stark-labs thugs=-1 by=olga"])
    assert state.missions[1] == 0
    assert "nothing more" in refused(state, "tokens location=police-hq thugs=-1 by=olga")
    state = location_effect_at("shield-helicarrier")
    assert "not Patrick goes to any location" in refused(
        state, "relocate hero=patrick to=stark-labs by=olga")
    state = play(state, ["relocate hero=olga to=stark-labs by=olga"])
    assert "nothing more" in refused(state, "relocate hero=olga to=central-park by=olga")
    assert "not Fear +1" in refused(state, "plot amount=1 by=olga")


def test_shield_hq_removes_a_crisis_token_for_its_discard() -> None:
    """S.H.I.E.L.D. Headquarters (C): discard a card to the bottom of your deck to remove a
    Crisis token anywhere: the cost (``discard``, not damage) comes first, then the Crisis
    token; the two go together, once."""
    state = location_effect_at("police-hq")
    # The same game with S.H.I.E.L.D. HQ (4 slots, as the Police HQ) in that place.
    state = with_place(state, 4, replace(state.places[4], name="shield-hq"))
    state = with_place(state, 0, replace(state.places[0], crisis=1))
    assert "discard a card first" in refused(state, "tokens location=stark-labs crisis=-1 by=olga")
    assert "discard a card first" in refused(state, "damage hero=olga cards=hh by=olga")
    state = play(state, ["discard cards=hh by=olga"])
    assert "not 1 damage to Olga" in refused(state, "damage hero=olga cards=m by=olga")
    assert "still expected 1 Crisis token removed anywhere" in refused(state, "done by=olga")
    assert "Olga discards 1 card" in refused(state, "discard cards=m by=olga")
    state = play(state, ["tokens location=stark-labs crisis=-1 by=olga", "done by=olga"])
    assert state.places[0].crisis == 0 and state.phase == "act"


def test_the_windows_list_only_the_results_they_accept() -> None:
    """What may be recorded now: Red Skull's BaM! with no BaM! Threat takes damage and Fear;
    Times Square's effect a Civilian; a villain's judged effect never a gift."""
    def types(state: State) -> list[str]:
        return [spec.type for spec in RULES.legal_actions(state)]

    assert types(bam_at_stark_labs()) == ["damage", "plot", "done"]
    assert types(location_effect_at("times-square")) == ["tokens", "done"]
    assert "gain" not in types(bam_at_stark_labs("brainwashing"))


def test_status_shows_the_dashboard_and_each_threats_symbols() -> None:
    """Setup: 'All players should familiarize themselves with the text on the Villain Dashboard
    and all 6 Threat cards': the view shows the dashboard's effects as the rules check them,
    each Threat's kind and symbols, and an open End of Turn effect's text."""
    from io import StringIO

    from rich.console import Console

    from tabletape.replay.games.marvel_united import view

    state = location_effect_at("times-square")
    console = Console(file=StringIO(), width=200)
    console.print(view(RULES, state))
    shown = console.file.getvalue()  # type: ignore[attr-defined]
    assert "BaM! 1 damage to each hero at his location; Fear +2" in shown
    assert "overflow: Fear +1 per token not placed" in shown
    assert "Crossbones (6 health, BaM!)" in shown
    assert "End of Turn open: rescue a Civilian here" in shown


def test_a_hero_special_helps_the_heroes() -> None:
    """Special Effect: the card's own effect, judged by its owner; it neither damages heroes nor
    advances the villain's track (a reading)."""
    state = play(start(PLAYERS, heroes="iron-man,captain-marvel"), [SETUP, *DEALS[:1],
                 "deal player=patrick cards=hh,m,mm",
                 "villain-turn card=plan-6 move=0 bam=false thugs=0,0,0 civilians=0,0,0 "
                 "special=false", "draw cards=m-special by=olga", "play card=m-special",
                 "special"])
    assert "does not damage heroes" in refused(state, "damage hero=patrick cards=hh by=olga")
    assert "does not advance" in refused(state, "plot amount=1 by=olga")
    assert "only a Location's End of Turn effect" in refused(
        state, "swap card=aa storyline=m-special by=olga")
    hurt = replace(state, health=state.health - 1)
    assert "does not restore" in refused(hurt, "hit target=villain amount=-1 by=olga")
    state = play(state, ["gain hero=patrick tokens=move by=olga", "done by=olga"])
    assert state.heroes[1].tokens == (1, 0, 0, 0)


def test_stark_labs_swaps_a_hand_card_with_a_storyline_card() -> None:
    """Stark Labs (C): swap a hand card with one of your face-up Storyline cards; the next hero
    then borrows the symbols of the card now in the Storyline (Resolve Actions: 'the previous
    Hero card in the Storyline')."""
    state = location_effect_at("stark-labs")
    assert "no 'hh' card of Olga's in the Storyline" in refused(
        state, "swap card=m storyline=hh by=olga")
    state = play(state, ["swap card=aa storyline=ma by=olga"])
    assert state.storyline[-1] == "Olga:aa" and state.heroes[0].hand[1] == 1
    assert "nothing more" in refused(state, "swap card=ma storyline=aa by=olga")
    state = play(state, ["done by=olga", "end", "draw cards=hh", "play card=m"])
    assert state.turn is not None and state.turn.symbols == (1, 2, 0, 0)
    assert "not Olga swaps a card with their Storyline" in refused(
        location_effect_at("times-square"), "swap card=aa storyline=ma by=olga")


def test_avengers_tower_shuffles_the_cards_put_under_the_deck() -> None:
    """Avengers Tower (C): put one chosen card of your deck on top after shuffling. Hero Damage
    puts cards 'at the bottom of their deck'; once shuffled, any card of the deck may come
    next, not only the one put under it first."""
    state = play(cap_and_widow(), ["draw cards=hh by=olga", "play card=ma"])
    # The same game with Avengers Tower at the Helicarrier's place, its Threat cleared.
    state = replace(clear(state, 3), missions=(0, 0, 1))
    state = with_place(state, 3, replace(state.places[3], name="avengers-tower"))
    olga = state.heroes[0]
    under = tuple(k for k, n in enumerate(olga.deck) for _ in range(n))
    state = with_hero(state, 0, replace(olga, deck=(0,) * len(olga.deck), bottom=under))
    state = play(state, ["location-effect"])
    assert state.heroes[0].bottom == () and sum(state.heroes[0].deck) == len(under)
    assert state.pending == ()  # nothing to record: the window passed (rules version 3)
    state = play(state, ["end", "draw cards=hh", "play card=m", "end"])
    state = play(state, ["draw cards=ww by=olga"])
    assert state.heroes[0].hand[kinds("captain-america").index("ww")] == 1
