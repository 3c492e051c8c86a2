"""Battle and the Action cards."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from tabletape.rules.kernel import IllegalAction
from tabletape.rules.risk_deep_space import RULES, data
from tabletape.rules.risk_deep_space.state import State

from .helpers import (
    SETUP_TWO,
    TWO,
    holding,
    parse,
    planet,
    play,
    ready,
    spread,
    start,
    started,
)


def invaded(olga: int = 3, patrick: int = 2) -> State:
    """Olga (3 at home) invades Patrick's Planet N1 with ``olga`` Recruits."""
    state = spread(ready(), "n1", 1, patrick)
    state = spread(state, "red-station", 0, olga)
    return play(state, f"move from=red-station to=n1 count={olga}")


def test_moving_onto_an_opponent_starts_a_battle() -> None:
    """Move: "If you move to a planet occupied by an opponent's Recruit(s), you must stop
    immediately and battle!" """
    state = invaded()
    assert state.battle is not None and state.battle.crew == 3
    with pytest.raises(IllegalAction, match="a battle is on"):
        play(state, "end")


def test_higher_die_wins_and_ties_go_to_the_defender() -> None:
    """Battle: "The higher roller wins the dispute. If there's a tie, victory goes to the
    defending Crew. For every loss, you must remove one of your Recruits"."""
    state = play(invaded(), "pass by=patrick", "battle attacker=4 defender=4")
    assert state.battle.crew == 2 and planet(state, "n1") == ("Patrick", 2)
    assert state.seats[0].supply == 30
    state = play(state, "battle attacker=5 defender=4")
    assert planet(state, "n1") == ("Patrick", 1)


def test_the_battle_goes_on_until_one_side_is_gone_and_the_winner_holds() -> None:
    """Battle: "The player who successfully defeats all of their opponent's Recruits will then
    occupy that planet. Whether they win or lose the battle, the attacking player gets to
    complete their turn." """
    state = play(invaded(), "pass by=patrick", "battle attacker=6 defender=1",
                 "battle attacker=6 defender=1")
    assert state.battle is None and planet(state, "n1") == ("Olga", 3)
    assert state.name(state.current) == "Olga" and state.moves_left == 1
    lost = play(invaded(1, 2), "pass by=patrick", "battle attacker=1 defender=6")
    assert lost.battle is None and planet(lost, "n1") == ("Patrick", 2)
    assert play(lost, "end").name(lost.current) == "Olga"


def test_tabletape_rolls_empty_dice() -> None:
    import random

    state = invaded()
    event = RULES.complete(state, "Olga", parse(state, "battle")[1],
                           random.Random(3))
    assert 1 <= event.attacker <= 6 and 1 <= event.defender <= 6


def test_one_die_given_is_not_completed_by_tabletape() -> None:
    """Battle: "You and your opponent each roll one die." Dice are entered as they landed, or
    all rolled by tabletape: a half-entered exchange (one die missing) is refused, not silently
    completed with a die nobody rolled."""
    import random

    state = play(invaded(), "pass by=patrick")
    _, event = parse(state, "battle attacker=5")
    event = RULES.complete(state, "Olga", event, random.Random(3))
    assert (event.attacker, event.defender) == (5, 0)
    with pytest.raises(IllegalAction, match=r"one die each: attacker=1\.\.6 defender=1\.\.6"):
        RULES.check(state, "Olga", event)


def test_tractor_beam_sends_the_invaders_back() -> None:
    """Tractor Beam: "move their Crew back to the planet they came from. The other player does
    not regain their lost movement." """
    state = play(invaded(), "play card=tractor-beam by=patrick")
    assert state.battle is None and planet(state, "red-station") == ("Olga", 3)
    assert state.moves_left == 1 and "tractor-beam" not in state.seats[1].hand
    with pytest.raises(IllegalAction, match="before the dice"):
        play(invaded(), "pass by=patrick", "battle attacker=1 defender=1",
             "play card=tractor-beam by=patrick")


def test_air_leak_removes_three_and_one_of_your_own() -> None:
    """Air Leak: "During battle, remove three opponent Recruits and one of your own Recruits
    from the planet you are on." """
    state = play(invaded(4, 2), "play card=air-leak by=olga")
    assert state.battle is None and planet(state, "n1") == ("Olga", 3)
    state = holding(invaded(3, 2), 1, "air-leak", "tractor-beam")
    state = play(state, "play card=air-leak by=patrick")
    assert state.battle is None and planet(state, "n1") == ("Patrick", 1)


def test_space_dog_adds_one_and_absorbs_the_first_defeat() -> None:
    """Space Dog, Paw!: "add +1 to your dice rolls. On your first defeat while battling with
    Space Dog on your side, remove the Space Dog token from the board instead of a Recruit."
    Good Space Dog: "When you battle, place the Space Dog token on that planet." """
    state = holding(ready(TWO), 0, "good-space-dog", "air-leak")
    state = spread(spread(state, "n1", 1, 2), "red-station", 0, 3)
    state = play(state, "move from=red-station to=n1 count=3",
                 "play card=good-space-dog by=olga")
    assert state.dogs_left == 2
    state = play(state, "pass by=patrick", "battle attacker=4 defender=4")
    assert planet(state, "n1") == ("Patrick", 1)
    state = play(state, "battle attacker=2 defender=5")
    assert state.battle.crew == 3 and state.dogs_left == 3
    state = play(state, "battle attacker=2 defender=5")
    assert state.battle.crew == 2


def test_the_dog_paw_is_activated_for_a_gem_only_when_drawn() -> None:
    """Space Dog, Paw!: "When you draw this card, you can pay one Gem to activate a Space Dog
    ... place a Space Dog token on any planet where you have Recruits." """
    state = play(ready(TWO), "trade-cards", "end", "end",
                 "draw cards=space-dog-paw,air-leak",
                 "play card=space-dog-paw planet=red-station")
    assert state.seats[0].gems == 1 and state.dogs_left == 2
    late = play(ready(TWO), "trade-cards", "end", "end", "draw cards=space-dog-paw,air-leak",
                "end")
    with pytest.raises(IllegalAction, match="only right after it is drawn"):
        play(late, "play card=space-dog-paw planet=n1 by=olga")


def test_a_dog_travels_with_its_crew_and_waits_at_home_when_wiped_out() -> None:
    """Space Dog, Paw!: "can move to other planets as part of a Crew ... If you have no Recruits
    on the board, move Space Dog to your Home Station"."""
    state = play(ready(TWO), "trade-cards", "end", "end", "draw cards=space-dog-paw,air-leak",
                 "play card=space-dog-paw planet=red-station",
                 "move from=red-station to=n1 count=1 dog=true")
    assert [state.space(d.space) for d in state.dogs] == ["n1"]
    state = play(state, "move from=n1 to=w1 count=1")
    assert [state.space(d.space) for d in state.dogs] == ["w1"]


def test_bribe_a_rival_pays_the_rival_and_takes_two() -> None:
    """Bribe a Rival: "Pay one Gem to any opponent and remove two of their Recruits from any
    planet directly connected to a planet you occupy. Add two Recruits to your Home Station." """
    state = holding(spread(ready(TWO), "n1", 1, 3), 0, "energy-boost", "bribe-a-rival")
    state = play(state, "play card=bribe-a-rival planet=n1")
    assert planet(state, "n1") == ("Patrick", 1) and planet(state, "red-station") == ("Olga", 5)
    assert state.seats[0].gems == 1 and state.seats[1].gems == 3


def test_energy_boost_passes_an_occupied_planet() -> None:
    """Energy Boost: "You may move past an occupied planet without battling." """
    state = spread(ready(TWO), "n1", 1, 2)
    with pytest.raises(IllegalAction, match="cannot be reached"):
        play(state, "move from=red-station to=w1 count=3")
    state = play(state, "play card=energy-boost", "move from=red-station to=w1 count=3")
    assert planet(state, "w1") == ("Olga", 3) and state.battle is None


def test_mail_from_mom_takes_a_card_from_the_deck() -> None:
    """Mail from Mom: "Look through the first three cards in the Action deck and choose one
    card." """
    state = ready(TWO)
    state = play(state, "trade-cards", "end", "end", "draw cards=mail-from-mom,air-leak",
                 "play card=mail-from-mom take=good-space-dog")
    assert state.seats[0].hand == ("air-leak", "good-space-dog")


# -- Space Dog, Paw! for each card drawn; Energy Boost adds a choice -----------------------------

def test_two_dog_paws_drawn_together_can_both_be_activated() -> None:
    """Space Dog, Paw!: "When you draw this card, you can pay one Gem to activate a Space Dog."
    Each Paw! drawn is activated on its own (two drawn at once: two Space Dogs for two Gems)."""
    state = play(ready(TWO), "trade-cards", "end", "end",
                 "draw cards=space-dog-paw,space-dog-paw",
                 "play card=space-dog-paw planet=red-station",
                 "play card=space-dog-paw planet=red-station")
    assert state.dogs_left == 1 and state.seats[0].gems == 0 and state.seats[0].hand == ()


def test_a_dog_paw_dealt_at_setup_outlives_the_next_deal() -> None:
    """Space Dog, Paw!: "When you draw this card, you can pay one Gem to activate a Space Dog"
    (dealt at Get Ready! 4: the table dealing the next player is not Olga's action)."""
    state = play(start(), "deal player=olga cards=space-dog-paw,air-leak",
                 "deal player=patrick cards=tractor-beam,bribe-a-rival",
                 "cover planets=nw-corner,se-corner", "roll-off dice=6,2",
                 "play card=space-dog-paw planet=red-station")
    assert state.dogs_left == 2 and state.seats[0].gems == 1


def test_each_players_dog_paw_waits_for_that_players_next_action() -> None:
    """Space Dog, Paw! dealt to both players: each may activate theirs until their own next
    action; another player's actions do not close it, one's own does."""
    state = play(start(), "deal player=olga cards=space-dog-paw,air-leak",
                 "deal player=patrick cards=space-dog-paw,bribe-a-rival", *SETUP_TWO[2:])
    assert {spec.type: spec.actors for spec in RULES.legal_actions(state)}["play"] == (
        "Olga", "Patrick")
    state = play(state, "move from=red-station to=n1 count=1",
                 "play card=space-dog-paw planet=yellow-station by=patrick")
    assert [state.name(d.owner) for d in state.dogs] == ["Patrick"]
    with pytest.raises(IllegalAction, match="only right after it is drawn"):
        play(state, "play card=space-dog-paw planet=n1 by=olga")


def test_a_dog_paw_is_not_activated_in_the_middle_of_a_battle() -> None:
    """Space Dog, Paw!: "You have to activate the card before a battle begins ... If an opponent
    attacks you, you can't activate Space Dog in the middle of the battle." """
    state = play(start(), "deal player=olga cards=energy-boost,air-leak",
                 "deal player=patrick cards=space-dog-paw,bribe-a-rival", *SETUP_TWO[2:])
    state = spread(state, "n1", 1, 2)
    state = play(state, "move from=red-station to=n1 count=3")
    with pytest.raises(IllegalAction, match="before a battle begins"):
        play(state, "play card=space-dog-paw planet=n1 by=patrick")
    offered = [spec.fields[0].choices for spec in RULES.legal_actions(state)
               if spec.type == "play" and "Patrick" in spec.actors]
    assert all(data.DOG_PAW not in cards for cards in offered)


def test_energy_boost_still_lets_the_movement_attack() -> None:
    """Energy Boost: "You may move past an occupied planet without battling." It adds a choice:
    the boosted movement may still stop on an occupied planet and battle, as it could without
    the card (adjacent, or through the centre for a Gem)."""
    state = spread(spread(ready(TWO), "n1", 1, 2), "north-inner", 0, 3)
    state = spread(state, "south-inner", 1, 2)
    boosted = play(state, "play card=energy-boost")
    through = play(boosted, "move from=north-inner to=south-inner count=3")
    assert through.battle is not None and through.seats[0].gems == 1
    beside = play(boosted, "move from=red-station to=n1 count=3")
    assert beside.battle is not None and state.space(beside.battle.target) == "n1"


def test_a_quick_roll_does_not_take_the_invaded_players_card_away() -> None:
    """Action Cards: "An Action card that can be used when a player tries to battle you is
    marked 'You can use this card when a player tries to battle you!'" Tractor Beam: "When an
    opponent invades a planet you occupy, move their Crew back". The dice wait until the
    invaded player, holding such a card, plays it or passes."""
    state = invaded()
    with pytest.raises(IllegalAction, match=r"Patrick may first answer the invasion, before "
                                            r"the dice: Tractor Beam .* or pass"):
        play(state, "battle attacker=6 defender=1")
    listed = {spec.type: spec.actors for spec in RULES.legal_actions(state)}
    assert listed["pass"] == ("Patrick",) and "battle" not in listed
    assert RULES.turn(state).active == ("Patrick",)
    with pytest.raises(IllegalAction, match="Patrick may first answer the invasion"):
        play(state, "battle attacker=6 defender=1 by=patrick")  # the one expected to act
    assert "Patrick may play Tractor Beam or pass" in RULES.turn(state).detail
    assert play(state, "play card=tractor-beam by=patrick").battle is None
    rolled = play(state, "pass", "battle attacker=6 defender=1")
    assert rolled.battle.exchanges == 1
    with pytest.raises(IllegalAction, match="only the invaded player passes"):
        play(state, "pass by=olga")


def test_a_log_recorded_before_the_answer_rule_folds_as_recorded() -> None:
    """Old logs must still fold: a game started before ``defender-answers`` existed (no such
    option stored) rolled at once; ``defender-answers=roll`` is the same for a table that wants
    it."""
    begun = started()
    old = {key: value for key, value in begun.options.items() if key != "defender-answers"}
    assert begun.options["defender-answers"] == "wait"
    for options in (old, {**old, "defender-answers": "roll"}):
        state = play(RULES.start(replace(begun, options=options)), *SETUP_TWO)
        state = play(spread(state, "n1", 1, 2), "move from=red-station to=n1 count=3",
                     "battle attacker=6 defender=1")
        assert state.battle.exchanges == 1


def test_nothing_to_answer_lets_the_dice_roll_at_once() -> None:
    """Battle: "Attacking Crew rolls first." With no card to play before the dice, the invaded
    player is not asked."""
    state = holding(invaded(), 1, "air-leak", "bribe-a-rival")
    assert play(state, "battle attacker=6 defender=1").battle.exchanges == 1
    with pytest.raises(IllegalAction, match="only the invaded player passes"):
        play(state, "pass by=patrick")


def test_a_card_played_without_its_planet_lists_that_cards_planets() -> None:
    """Space Dog, Paw!: "place a Space Dog token on any planet where you have Recruits"; Bribe a
    Rival: "remove two of their Recruits from any planet directly connected to a planet you
    occupy". Errors are for people: a card typed without ``planet=`` is refused naming the
    planets that card may take, not every space on the board."""
    paw = play(ready(TWO), "trade-cards", "end", "end", "draw cards=space-dog-paw,air-leak")
    with pytest.raises(IllegalAction, match="planet=") as refused:
        play(paw, "play card=space-dog-paw")
    assert refused.value.allowed == ("red-station",)
    bribe = holding(spread(ready(TWO), "n1", 1, 3), 0, "energy-boost", "bribe-a-rival")
    with pytest.raises(IllegalAction, match="planet=") as refused:
        play(bribe, "play card=bribe-a-rival")
    assert refused.value.allowed == ("n1",)


def test_a_card_name_mistyped_lists_the_cards_in_hand() -> None:
    """Action Cards: "Read your card to know when to play it": a card typed wrong (or left
    out) is refused naming the cards the player holds, the ones they could mean."""
    state = holding(ready(TWO), 0, "energy-boost", "mail-from-mom")
    for typed in ("", "energy-bost"):
        with pytest.raises(IllegalAction, match="no Action card called") as refused:
            play(state, f"play card={typed} by=olga")
        assert refused.value.allowed == ("energy-boost", "mail-from-mom")
    state = play(state, "play card=ENERGY_BOOST")
    assert state.boost


def test_mail_from_mom_mistyped_take_lists_the_deck() -> None:
    """Mail from Mom: "Look through the first three cards in the Action deck and choose one
    card": a chosen card typed wrong is refused naming the cards in the deck."""
    state = holding(ready(TWO), 0, "energy-boost", "mail-from-mom")
    state = replace(state, deck=tuple(int(card == "air-leak") * n
                                      for card, n in zip(data.CARDS, state.deck, strict=True)))
    with pytest.raises(IllegalAction, match="no Action card called") as refused:
        play(state, "play card=mail-from-mom take=air-lek")
    assert refused.value.allowed == ("air-leak",)


def test_bribe_a_rival_reaches_from_and_onto_home_stations_by_direct_links_only() -> None:
    """Bribe a Rival: "remove two of their Recruits from any planet directly connected to a
    planet you occupy" (reading: your Home Station is a planet you occupy, a rival's may be
    struck; a link crossing a planet cover is not a direct connection)."""
    state = holding(ready(TWO), 0, "energy-boost", "bribe-a-rival")
    state = spread(spread(spread(state, "n1", 0, 1), "w1", 1, 2), "n2", 1, 1)
    state = spread(state, "s1", 0, 1)
    with pytest.raises(IllegalAction, match="next to a planet") as refused:
        play(state, "play card=bribe-a-rival planet=w1")
    assert set(refused.value.allowed) == {"n2", "yellow-station"}
    state = play(state, "play card=bribe-a-rival planet=yellow-station")
    assert planet(state, "yellow-station") == ("Patrick", 1)


def test_tractor_beam_gives_back_no_gem_paid_to_cross_the_centre() -> None:
    """Tractor Beam: "move their Crew back to the planet they came from. The other player does
    not regain their lost movement." (reading: nor the Gem paid to cross the centre)."""
    state = spread(spread(ready(TWO), "north-inner", 0, 2), "south-inner", 1, 2)
    state = holding(state, 1, "tractor-beam", "air-leak")
    state = play(state, "move from=north-inner to=south-inner count=2")
    assert state.seats[0].gems == 1
    state = play(state, "play card=tractor-beam by=patrick")
    assert planet(state, "north-inner") == ("Olga", 2) and state.battle is None
    assert state.seats[0].gems == 1 and state.moves_left == 1


def test_the_state_records_the_space_dog_bonus_of_each_exchange() -> None:
    """What narration and the catalog read: the +1 each side had in the last exchange (the dog
    that absorbs a defeat leaves the board, and its bonus with it)."""
    state = holding(ready(TWO), 0, "good-space-dog", "air-leak")
    state = spread(spread(state, "n1", 1, 2), "red-station", 0, 3)
    state = play(state, "move from=red-station to=n1 count=3",
                 "play card=good-space-dog by=olga", "pass by=patrick")
    assert state.bonus == (0, 0)
    state = play(state, "battle attacker=4 defender=4")
    assert state.bonus == (1, 0)
    state = play(state, "battle attacker=2 defender=5")
    assert state.bonus == (1, 0) and state.dogs_left == 3
    state = play(state, "battle attacker=2 defender=5")
    assert state.bonus == (0, 0)
