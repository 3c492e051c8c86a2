"""On Your Turn: draw, trade cards, mine, recruit, move, build; and Win."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from tabletape.rules.kernel import IllegalAction
from tabletape.rules.risk_deep_space import RULES
from tabletape.rules.risk_deep_space.events import Recruited
from tabletape.rules.risk_deep_space.state import CARDS

from .helpers import TWO, grant, holding, planet, play, ready, spread


def test_a_turn_starts_by_topping_up_to_two_cards() -> None:
    """On Your Turn: "If you start your turn with less than two Action cards, draw from the deck
    until you have two!" """
    state = ready(TWO, "trade-cards", "end", "end")
    assert state.name(state.current) == "Olga" and state.stage == 0
    with pytest.raises(IllegalAction, match="first draws up to two"):
        play(state, "end")
    with pytest.raises(IllegalAction, match="draws 2 cards, not 1"):
        play(state, "draw cards=air-leak")
    state = play(state, "draw cards=air-leak,mail-from-mom")
    assert state.seats[0].hand == ("air-leak", "mail-from-mom")


def test_an_empty_deck_takes_the_discards_reshuffled() -> None:
    state = ready()
    state = replace(state, deck=(0,) * 7, discard=state.deck)
    state = play(state, "trade-cards", "end", "end")
    assert sum(state.deck) == 0 and sum(state.discard) == 34
    state = play(state, "draw cards=tractor-beam,energy-boost")
    assert state.seats[0].hand == ("tractor-beam", "energy-boost")
    assert sum(state.deck) == 32 and sum(state.discard) == 0


def test_trading_both_cards_gives_a_recruit_on_the_home_station() -> None:
    """"At the beginning of your turn, you can choose to discard both of your Action cards in
    exchange for a new Recruit. Place that new Recruit on your Home Station." """
    state = play(ready(), "trade-cards")
    assert state.seats[0].hand == () and planet(state, "red-station") == ("Olga", 4)
    state = ready(TWO, "recruit count=1")
    with pytest.raises(IllegalAction, match="only at the beginning of the turn"):
        play(state, "trade-cards")


def test_cards_may_be_traded_before_or_after_mining() -> None:
    """Mine: "you may only mine at the beginning of your turn"; Good Space Dog: "At the
    beginning of your turn, you can choose to discard both of your Action cards in exchange for
    a new Recruit." Both belong to the beginning of the turn, in either order."""
    state = spread(spread(ready(), "n1", 0, 2), "w1", 0, 2)
    state = play(state, "mine planet=n1 resource=ore")
    assert "trade-cards" in {spec.type for spec in RULES.legal_actions(state)}
    state = play(state, "trade-cards", "mine planet=w1 resource=gem")
    assert state.seats[0].hand == () and planet(state, "red-station") == ("Olga", 4)
    assert (state.seats[0].ore, state.seats[0].gems) == (1, 3)


def test_mining_needs_two_recruits_and_comes_first() -> None:
    """Mine: "at least two Recruits on one planet ... one Gem or one Ore ... You can mine from
    more than one planet on a turn ... only at the beginning of your turn"."""
    state = spread(spread(ready(), "n1", 0, 2), "n2", 0, 1)
    state = play(state, "mine planet=n1 resource=ore")
    assert state.seats[0].ore == 1 and state.ore == 30
    with pytest.raises(IllegalAction, match="mined this turn already"):
        play(state, "mine planet=n1 resource=gem")
    with pytest.raises(IllegalAction, match="needs two of your Recruits"):
        play(state, "mine planet=n2")
    state = play(spread(state, "w1", 0, 2), "mine planet=w1 resource=gem", "recruit count=1")
    with pytest.raises(IllegalAction, match="too late to mine"):
        play(spread(state, "n2", 0, 2), "mine planet=n2")


def test_mining_says_which_token() -> None:
    """Mine: "you can choose to mine one Gem or one Ore from that planet": the player's choice
    is recorded, never assumed (``mine planet=n1`` alone does not mean a Gem)."""
    state = spread(ready(), "n1", 0, 2)
    with pytest.raises(IllegalAction, match="mine a Gem or an Ore: resource=gem or resource=ore"):
        play(state, "mine planet=n1")
    mining = {spec.type: spec for spec in RULES.legal_actions(state)}["mine"]
    assert [(f.name, f.required) for f in mining.fields] == [("planet", True), ("resource", True)]
    assert play(state, "mine planet=n1 resource=gem").seats[0].gems == 3


def test_a_movement_says_how_many_recruits_move() -> None:
    """Move: "You can move an individual Recruit or you can move a Crew": which one is the
    player's to say (``count=``), never assumed."""
    state = ready()
    with pytest.raises(IllegalAction, match="say how many Recruits move from Red Home Station: "
                                            "count=1 to 3"):
        play(state, "move from=red-station to=n1")
    assert planet(play(state, "move from=red-station to=n1 count=3"), "n1") == ("Olga", 3)


def test_nothing_is_mined_on_a_home_station() -> None:
    """Mine, NOTE: "On your first turn, you won't be able to mine because all of your Recruits
    will be on your Home Station!" """
    with pytest.raises(IllegalAction, match="nothing is mined on a Home Station"):
        play(ready(), "mine planet=red-station")


def test_what_is_not_in_the_supply_cannot_be_taken() -> None:
    """Components: 31 Gem and 31 Ore tokens, 32 Recruits per colour."""
    state = replace(spread(ready(), "n1", 0, 2), ore=0)
    with pytest.raises(IllegalAction, match="no ore token is left"):
        play(state, "mine planet=n1 resource=ore")
    state = spread(ready(), "n1", 0, 28)
    with pytest.raises(IllegalAction, match="1 Recruits left off the board"):
        play(state, "recruit count=2")


def test_recruits_cost_a_gem_each_and_go_home() -> None:
    """Recruit: "You may pay one Gem to gain a single Recruit."""
    state = play(ready(), "recruit count=2")
    assert state.seats[0].gems == 0 and planet(state, "red-station") == ("Olga", 5)
    assert state.gems == 27 + 2
    with pytest.raises(IllegalAction, match="each Recruit costs a Gem"):
        play(ready(), "recruit count=3")


def test_up_to_two_movements_of_a_recruit_or_a_crew() -> None:
    """Move: "You are allowed up to two movements per turn ... a Crew ... counts as a single
    movement. There is no limit on how big that Crew can be!" """
    state = play(ready(), "move from=red-station to=n1 count=3", "move from=n1 to=w1 count=1")
    assert planet(state, "n1") == ("Olga", 2) and planet(state, "w1") == ("Olga", 1)
    with pytest.raises(IllegalAction, match="both movements of this turn are used"):
        play(state, "move from=n1 to=red-station count=1")


def test_recruits_move_only_to_connected_planets() -> None:
    """Move: "Recruits may only move to planets connected to the planet they are currently on"."""
    with pytest.raises(IllegalAction, match="cannot be reached in one movement"):
        play(ready(), "move from=red-station to=e1 count=1")


def test_nobody_moves_onto_a_home_station() -> None:
    """Move: "You may not move onto another player's Home Station, or back onto your own."""
    state = play(ready(), "move from=red-station to=n1 count=3")
    with pytest.raises(IllegalAction, match="nobody moves onto a Home Station"):
        play(state, "move from=n1 to=red-station count=1")
    state = spread(ready(), "s1", 0, 2)
    with pytest.raises(IllegalAction, match="nobody moves onto a Home Station"):
        play(state, "move from=s1 to=yellow-station count=1")


def test_deep_space_is_crossed_free_and_never_a_stop() -> None:
    """Get Ready! 5: "You cannot stop on them, but you can travel over them ... Traveling over a
    planet cover doesn't cost a movement." """
    state = play(ready(), "move from=red-station to=n1 count=3")
    with pytest.raises(IllegalAction, match="Deep Space"):
        play(state, "move from=n1 to=nw-corner count=1")
    state = play(state, "move from=n1 to=w1 count=3")
    assert planet(state, "w1") == ("Olga", 3) and state.moves_left == 0


def test_crossing_the_centre_costs_a_gem() -> None:
    """Move: "You may pay one Gem to pass through the middle of the board and quickly reach one
    of the four planets connected to the center." """
    state = play(ready(), "move from=red-station to=north-inner count=3")
    with pytest.raises(IllegalAction, match="nobody stops on the centre"):
        play(state, "move from=north-inner to=centre count=1")
    state = play(state, "move from=north-inner to=east-inner count=3")
    assert state.seats[0].gems == 1 and planet(state, "east-inner") == ("Olga", 3)
    broke = play(grant(ready(), 0, gems=-2), "move from=red-station to=north-inner count=3")
    with pytest.raises(IllegalAction, match="costs a Gem"):
        play(broke, "move from=north-inner to=east-inner count=3")


def test_a_base_needs_three_recruits_and_three_ore() -> None:
    """Build a Base: "you must have three Recruits on the planet where you wish to build. Pay
    three Ore tokens"."""
    state = grant(spread(ready(), "n1", 0, 3), 0, ore=3)
    with pytest.raises(IllegalAction, match="needs three of your Recruits"):
        play(spread(ready(), "n1", 0, 2), "build planet=n1")
    state = play(state, "build planet=n1")
    assert state.bases[state.board.index("n1")] == (0,) and state.seats[0].bases == 4
    assert state.seats[0].ore == 0 and state.ore == 31
    with pytest.raises(IllegalAction, match="has a Base on Planet N1 already"):
        play(grant(state, 0, ore=3), "build planet=n1")


def test_no_base_on_a_home_station_unless_the_table_allows_it() -> None:
    state = grant(ready(), 0, ore=3)
    with pytest.raises(IllegalAction, match="no Base on a Home Station"):
        play(state, "build planet=red-station")
    allowed = grant(ready(**{"home-bases": "true"}), 0, ore=3)
    assert play(allowed, "build planet=red-station").seats[0].bases == 4


@pytest.mark.parametrize(("players", "needed"), [(("Olga", "Patrick"), 5),
                                                 (("Olga", "Patrick", "Carol"), 4)])
def test_the_first_to_build_four_bases_wins_five_with_two(players: tuple[str, ...],
                                                          needed: int) -> None:
    """Win: "In a 3-4 player game, the first player to build four Bases wins! In a 2-player
    game, the first player to build five Bases wins!" """
    state = ready(players)
    for space in ("n1", "n2", "north-inner", "w1", "e1")[:needed]:
        state = grant(spread(state, space, 0, 3), 0, ore=3)
        state = play(state, f"build planet={space}")
    result = RULES.result(state)
    assert result is not None and result.winners == ("Olga",)
    assert state.phase == "over"


def test_the_turn_passes_to_the_left() -> None:
    state = play(ready(("Olga", "Patrick", "Carol")), "end")
    assert state.name(state.current) == "Patrick" and state.turn == 2
    state = play(state, "end", "end")
    assert state.name(state.current) == "Olga" and state.round == 2


def test_recruiting_without_gems_is_refused_with_the_gems_rule() -> None:
    """Recruit: "You may pay one Gem to gain a single Recruit." With no Gem, nobody may recruit
    now (``legal_actions`` offers no recruit), and the player whose turn it is is told why:
    the Gem, not the turn."""
    state = grant(ready(TWO), 0, gems=-2)
    assert "recruit" not in {spec.type for spec in RULES.legal_actions(state)}
    with pytest.raises(IllegalAction, match="each Recruit costs a Gem; Olga has 0") as refused:
        RULES.check(state, "Olga", Recruited(count=1))
    assert "move" in refused.value.allowed and "recruit" not in refused.value.allowed


def test_only_what_the_rules_accept_is_offered() -> None:
    """Bribe a Rival "(pay a Gem)": without a Gem or an opponent next door it is not offered;
    Move: "You may pay one Gem to pass through the middle": without a Gem the planets beyond the
    centre are not offered; Mine: only tokens left by the board are offered. What is offered
    is what one player may record now, so ``by=`` may be left out exactly then."""
    state = spread(holding(ready(TWO), 0, "bribe-a-rival", "energy-boost"), "n1", 1, 2)
    offered = {spec.type: spec for spec in RULES.legal_actions(state)}
    assert offered["play"].fields[0].choices == ("bribe-a-rival", "energy-boost")
    poor = spread(grant(state, 0, gems=-2), "north-inner", 0, 2)
    offered = {spec.type: spec for spec in RULES.legal_actions(poor)}
    assert offered["play"].fields[0].choices == ("energy-boost",)
    assert "south-inner" not in offered["move"].fields[1].choices
    with pytest.raises(IllegalAction, match="Bribe a Rival costs a Gem"):
        play(poor, "play card=bribe-a-rival planet=n1")
    no_ore = replace(spread(ready(), "w1", 0, 2), ore=0)
    mining = {spec.type: spec for spec in RULES.legal_actions(no_ore)}["mine"]
    assert mining.fields[1].choices == ("gem",)


def test_the_last_card_and_a_reshuffled_one_may_be_typed_in_either_order() -> None:
    """On Your Turn: "draw from the deck until you have two!" With one card left in the deck,
    the player draws it and then one from the discards shuffled into a new deck; the two cards
    shown face up may be typed in any order, and both piles' cards are offered."""
    state = play(ready(), "trade-cards", "end", "end")
    k = CARDS.index("energy-boost")
    rest = tuple(n + d - (1 if i == k else 0)
                 for i, (n, d) in enumerate(zip(state.deck, state.discard, strict=True)))
    state = replace(state, deck=tuple(int(i == k) for i in range(len(CARDS))), discard=rest)
    drawing = {spec.type: spec for spec in RULES.legal_actions(state)}["draw"]
    assert set(drawing.fields[0].choices) == set(CARDS)
    for typed in ("tractor-beam,energy-boost", "energy-boost,tractor-beam"):
        drawn = play(state, f"draw cards={typed}")
        assert sorted(drawn.seats[0].hand) == ["energy-boost", "tractor-beam"]
        assert sum(drawn.deck) == sum(rest) - 1 and sum(drawn.discard) == 0
    with pytest.raises(IllegalAction, match="Energy Boost"):
        play(state, "draw cards=tractor-beam,air-leak")


def test_a_card_mistyped_in_a_draw_lists_the_cards_that_may_come() -> None:
    """On Your Turn: "draw from the deck until you have two!": a card typed wrong is refused
    naming the cards the deck can give now, not every card of the game."""
    state = play(ready(), "trade-cards", "end", "end")
    keep = {CARDS.index("energy-boost"), CARDS.index("air-leak")}
    total = tuple(n + d for n, d in zip(state.deck, state.discard, strict=True))
    deck = tuple(min(n, 1) if i in keep else 0 for i, n in enumerate(total))
    state = replace(state, deck=deck, discard=tuple(t - d for t, d in zip(total, deck,
                                                                          strict=True)))
    with pytest.raises(IllegalAction, match="no Action card called") as refused:
        play(state, "draw cards=energy-bost,air-leak")
    assert refused.value.allowed == ("energy-boost", "air-leak")


def test_a_planet_mistyped_lists_the_planets_the_action_may_take() -> None:
    """Move: "Recruits may only move to planets connected to the planet they are currently
    on"; Mine: "at least two Recruits on one planet". A planet typed wrong is refused naming
    the planets this action may take (your planets; the planets one movement reaches), not
    every space on the board."""
    state = spread(ready(), "n1", 0, 2)
    with pytest.raises(IllegalAction, match="no planet called 'n11'") as refused:
        play(state, "move from=n11 to=n2 count=1")
    assert refused.value.allowed == ("n1", "red-station")
    with pytest.raises(IllegalAction, match="no planet called 'nn2'") as refused:
        play(state, "move from=red-station to=nn2 count=1")
    assert set(refused.value.allowed) == {"n1", "n2", "north-inner"}
    with pytest.raises(IllegalAction, match="no planet called 'n11'") as refused:
        play(state, "mine planet=n11 resource=gem")
    assert refused.value.allowed == ("n1",)


def test_a_base_refused_names_the_planets_where_one_may_go() -> None:
    """Build a Base: "To build a Base, you must have three Recruits on the planet where you
    wish to build": refused elsewhere, naming the planets where the three stand."""
    state = grant(spread(spread(ready(), "n1", 0, 3), "n2", 0, 2), 0, ore=3)
    for typed in ("n2", "red-station", "n22"):
        with pytest.raises(IllegalAction) as refused:
            play(state, f"build planet={typed}")
        assert refused.value.allowed == ("n1",)
