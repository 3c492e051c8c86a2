"""Hero turns: draw, play, actions from two cards and tokens, specials, Location effects,
Missions, damage and KO, winning."""

from __future__ import annotations

from msgspec.structs import replace

from tabletape.rules.marvel_united.state import State, with_hero, with_place, with_threat

from .helpers import PLAYERS, play, ready, refused

WIDOW_CAP = ("Olga", "Patrick")


def cap_and_widow() -> State:
    return ready(WIDOW_CAP, hands=("m,ma,aa", "m,mh,a"), heroes="captain-america,black-widow")


def clear(state: State, index: int) -> State:
    """The Threat at location ``index`` gone (as if cleared)."""
    threat = state.places[index].threat
    state = with_threat(state, threat, replace(state.threats[threat], cleared=True, health=0))
    return with_place(state, index, replace(state.places[index], threat=-1))


def test_captain_america_with_black_widows_symbols() -> None:
    """Resolve Actions, Example 1: 'Captain America plays his card. Combined with Black Widow's
    symbols, this turn he can perform 2 Attacks, 1 Move, and 1 Heroic Action'."""
    state = play(cap_and_widow(), ["draw cards=hh by=patrick", "play card=mh", "end",
                                   "draw cards=hh", "play card=aa"])
    assert state.turn is not None and state.turn.symbols == (1, 2, 1, 0)


def test_captain_marvel_uses_iron_mans_move_but_not_his_special() -> None:
    """Resolve Actions, Example 2: 'Besides her 2 Heroic Actions, she can also perform the Move
    action from Iron Man's card. She cannot use Iron Man's special ability.'"""
    state = ready(PLAYERS, hands=("m-special,m,mh", "hh,m,mm"), heroes="iron-man,captain-marvel")
    state = play(state, ["draw cards=aa by=olga", "play card=m-special", "end",
                         "draw cards=w", "play card=hh"])
    assert state.turn is not None and state.turn.symbols == (1, 0, 2, 0)
    assert "no special effect" in refused(state, "special")
    state = play(state, ["move to=police-hq"])
    assert "no Move symbol left" in refused(state, "move to=shield-helicarrier")


def test_the_first_hero_card_borrows_nothing() -> None:
    """Resolve Actions: 'the first player in the game does not benefit from the actions of
    another Hero's card'."""
    state = play(cap_and_widow(), ["draw cards=hh by=olga", "play card=ma"])
    assert state.turn is not None and state.turn.symbols == (1, 1, 0, 0)


def test_the_previous_hero_card_counts_across_a_masterplan_card() -> None:
    """Resolve Actions: 'AND at the bottom of the previous Hero card in the Storyline (even if
    they are separated by a Masterplan card)'."""
    state = play(cap_and_widow(), [
        "draw cards=hh by=olga", "play card=ma", "end",
        "draw cards=hh", "play card=m", "end",
        "draw cards=w", "play card=aa", "end",
        "villain-turn card=plan-8 move=0 bam=false thugs=0,0,0 civilians=0,0,0 special=false",
        "draw cards=w", "play card=mh"])
    assert state.storyline[-2] == "villain:plan-8"
    assert state.turn is not None and state.turn.symbols == (1, 2, 1, 0)


def test_the_special_is_only_for_its_owner_and_once() -> None:
    """Special Effect: 'these Special Effects cannot be performed by other Heroes'; the active
    Hero applies their own once, its results recorded by them."""
    state = ready(PLAYERS, hands=("m-special,m,mh", "hh,m,mm"), heroes="iron-man,captain-marvel")
    state = play(state, ["draw cards=aa by=olga", "play card=m-special", "special"])
    by_table = refused(state, "gain hero=olga tokens=move by=table")
    assert "records the results of their effect" in by_table
    state = play(state, ["gain hero=olga tokens=wild by=olga", "done by=olga"])
    assert state.heroes[0].tokens == (0, 0, 0, 1)
    assert "no special effect" in refused(state, "special")


def test_move_goes_to_an_adjacent_location_only() -> None:
    """Move: 'Move the Hero to an adjacent Location, in any direction.'"""
    state = play(cap_and_widow(), ["draw cards=hh by=olga", "play card=ma"])
    assert "is not next to" in refused(state, "move to=stark-labs")
    state = play(state, ["move to=times-square"])
    assert state.places[state.heroes[0].location].name == "times-square"


def test_attack_thugs_henchmen_and_the_villain_only_after_2_missions() -> None:
    """Attack: a Thug is eliminated and goes to the Defeat Thugs Mission; a Henchman loses 1
    Health; 'Only after resolving 2 Missions, Heroes can attack the Villain directly.'"""
    state = play(cap_and_widow(), ["draw cards=hh by=olga", "play card=aa"])
    here = state.heroes[0].location  # the Helicarrier: 2 Thugs, Bob (4 health)
    thugs = state.places[here].thugs
    state = play(state, ["attack target=thug", "attack target=henchman"])
    assert state.places[here].thugs == thugs - 1 and state.missions[1] == 1
    assert state.threats[state.places[here].threat].health == 3
    state = replace(state, villain_at=here)
    state = with_hero(state, 0, replace(state.heroes[0], tokens=(0, 1, 0, 0)))
    assert "Only after resolving 2 Missions" in refused(state, "attack target=villain")
    state = replace(state, completed=("rescue", "thugs"), missions=(9, 9, 0))
    state = play(state, ["attack target=villain"])
    assert state.health == 3 and state.heroes[0].tokens == (0, 0, 0, 0)


def test_heroic_rescues_civilians_and_clears_threats_with_3_tokens() -> None:
    """Heroic Action: rescue 1 Civilian, or place a Heroic token on the Threat here; 'All other
    Threats are cleared by placing 3 Heroic Action tokens'; its Threat token goes to the Clear
    Threats Mission and the End of Turn effect opens."""
    state = cap_and_widow()
    here = state.heroes[0].location
    index = state.places[here].threat
    state = with_threat(state, index, replace(state.threats[index], henchman=False, health=0,
                                              slots="HHH"))
    state = with_hero(state, 0, replace(state.heroes[0], tokens=(0, 0, 2, 0)))
    state = play(state, ["draw cards=hh by=olga", "play card=m", "rescue token=true",
                         "heroic token=true"])
    assert state.missions[0] == 1
    assert "no Heroic symbol left" in refused(state, "heroic")
    state = with_hero(state, 0, replace(state.heroes[0], tokens=(0, 0, 2, 0)))
    state = play(state, ["heroic", "heroic"])
    assert state.places[here].threat == -1 and state.missions[2] == 1


def test_location_effect_only_uncovered_and_once() -> None:
    """Location Effect: only where no Threat card covers it; 'Each turn, a Hero can only use a
    single Location Effect.'"""
    state = play(cap_and_widow(), ["draw cards=hh by=olga", "play card=ma"])
    assert "Threat covers" in refused(state, "location-effect")
    here = state.heroes[0].location
    state = replace(clear(state, here), missions=(0, 0, 1))
    state = play(state, ["location-effect", "relocate hero=olga to=stark-labs by=olga",
                         "done by=olga"])
    assert state.places[state.heroes[0].location].name == "stark-labs"
    assert "a single Location effect" in refused(state, "location-effect")


def test_completing_missions_pressure_damage_and_a_card_for_everyone() -> None:
    """Completing Missions: the first puts the Villain Under Pressure, the second lets the
    Heroes damage the Villain, the third lets all players draw 1 card; tokens rescued once a
    Mission is full go to the pool."""
    state = play(cap_and_widow(), ["draw cards=hh by=olga", "play card=ma"])
    here = state.heroes[0].location
    state = with_place(state, here, replace(state.places[here], civilians=2))
    for index in (0, 1, 2, 4):
        state = clear(state, index)
    state = replace(state, missions=(8, 9, 4), completed=("thugs", "threats"))
    state = with_hero(state, 0, replace(state.heroes[0], tokens=(0, 0, 2, 0)))
    state = play(state, ["rescue token=true"])
    assert state.completed[-1] == "rescue"
    assert [s.kind for s in state.pending] == ["mission-draw", "mission-draw"]
    state = play(state, ["draw cards=w by=olga", "draw cards=hh by=patrick", "rescue token=true"])
    assert state.missions[0] == 9 and state.places[here].civilians == 0


def test_damage_discards_to_the_bottom_and_invulnerable_heroes_take_none() -> None:
    """Hero Damage: 'For each damage a Hero takes, they must discard 1 card from their hand,
    placing it at the bottom of their deck'; Invulnerable: cannot be damaged until their next
    turn."""
    state = play(cap_and_widow(), ["draw cards=hh by=olga", "play card=m", "end",
                                   "draw cards=hh", "play card=m", "end",
                                   "draw cards=w", "play card=ma", "end"])
    state = with_hero(state, 1, replace(state.heroes[1], invulnerable=True))
    state = play(state, ["villain-turn card=plan-1 move=0 bam=true thugs=0,0,0 "
                         "civilians=0,0,0 special=false", "damage hero=olga cards=aa"])
    assert state.heroes[0].bottom == (2,)  # Captain America's aa
    assert "Invulnerable" in refused(state, "damage hero=patrick cards=mh")
    state = play(state, ["plot amount=2", "done"])
    assert state.turn is not None and state.heroes[1].invulnerable is False


def test_playing_the_last_card_ko_s_only_at_the_end_of_the_turn() -> None:
    """KO: 'If a Hero plays their last card during their turn, they get to perform their full
    turn before being KO'd'; then the villain's BaM! resolves; at their next turn the hero stands
    up and draws up to 4."""
    state = cap_and_widow()
    hero = state.heroes[0]
    deck = tuple(a + b for a, b in zip(hero.deck, hero.hand, strict=True))
    state = with_hero(state, 0, replace(hero, hand=(0,) * 9, deck=deck))
    state = play(state, ["draw cards=hh by=olga", "play card=hh"])
    assert not state.heroes[0].ko and state.phase == "act"
    state = play(state, ["end"])
    assert state.heroes[0].ko and [s.kind for s in state.pending] == ["ko-bam"]
    assert "KO'd" in refused(state, "damage hero=olga cards=hh")
    state = play(state, ["plot amount=2", "done", "draw cards=hh", "play card=m", "end"])
    assert state.turn is not None and state.turn.seat == 0 and not state.heroes[0].ko
    assert "draws 4 cards" in refused(state, "draw cards=w")
    state = play(state, ["draw cards=w,ww,hh,m"])
    assert state.heroes[0].hand_size == 4


def test_a_hero_with_no_cards_loses_the_game() -> None:
    """Winning & Losing: 'Any Hero starts their turn with no cards both in their deck and in
    their hand.'"""
    state = play(cap_and_widow(), ["draw cards=hh by=olga", "play card=m"])
    widow = state.heroes[1]
    played = tuple(a + b + c for a, b, c in zip(widow.deck, widow.hand, widow.played,
                                                strict=True))
    empty = (0,) * len(played)
    state = with_hero(state, 1, replace(widow, deck=empty, hand=empty, played=played))
    story = tuple(f"Patrick:{kind}" for kind, n in zip(
        ("m", "mh", "ma", "a", "aa", "hh", "w", "ww", "interrogate"), played, strict=True)
        for _ in range(n))
    state = replace(state, storyline=state.storyline + story)
    state = play(state, ["end"])
    assert state.outcome == "lost" and state.reason == "a hero starts a turn with no cards"


def test_the_heroes_win_when_the_villain_reaches_0() -> None:
    """Winning & Losing: 'HEROES WIN if they defeat the Villain'."""
    state = play(cap_and_widow(), ["draw cards=hh by=olga", "play card=aa"])
    here = state.heroes[0].location
    state = replace(state, villain_at=here, health=1, completed=("rescue", "thugs"),
                    missions=(9, 9, 0))
    state = play(state, ["attack target=villain"])
    assert state.outcome == "won" and state.health == 0
    assert "the game is over" in refused(state, "end")


def test_only_the_active_hero_acts() -> None:
    """Hero Turn: the active player follows the steps in order."""
    state = play(cap_and_widow(), ["draw cards=hh by=olga"])
    assert "Olga's turn" in refused(state, "play card=m by=patrick")
    assert "not possible now" in refused(state, "end by=olga")
