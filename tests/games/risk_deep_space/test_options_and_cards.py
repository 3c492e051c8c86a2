"""The options a table may set (lost Bases, open Home Stations, card costs) against their
defaults, and the Space Dog when an Action card wipes out its Crew."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from tabletape.rules.kernel import BadOptions, IllegalAction
from tabletape.rules.risk_deep_space import RULES
from tabletape.rules.risk_deep_space.state import Dog, State, bases_built, put, with_seat

from .helpers import TWO, grant, holding, planet, play, ready, spread

DESTROYED = {"lost-base": "destroyed"}
OPEN = {"open-stations": "true"}


def with_base(state: State, space: str, seat: int) -> State:
    """``seat`` has built a Base on ``space`` (taken from their five)."""
    p = state.board.index(space)
    state = with_seat(state, seat, bases=state.seats[seat].bases - 1)
    return replace(state, bases=put(state.bases, p, (*state.bases[p], seat)))


def with_dog(state: State, space: str, seat: int, *, waiting: bool = False) -> State:
    """One of ``seat``'s Space Dogs stands on ``space`` (taken from the tokens by the board)."""
    dog = Dog(owner=seat, space=state.board.index(space), waiting=waiting)
    return replace(state, dogs=(*state.dogs, dog), dogs_left=state.dogs_left - 1)


def dogs(state: State) -> list[tuple[str, str, bool]]:
    """Each Space Dog as ``(owner, planet, waiting)``."""
    return [(state.name(d.owner), state.space(d.space), d.waiting) for d in state.dogs]


def invade(olga: int = 3, patrick: int = 2, *, dog: bool = False, **options: str) -> State:
    """Olga (``olga`` at home, with her Space Dog when ``dog``) invades Patrick's Planet N1,
    where Patrick has ``patrick`` Recruits and a Base."""
    state = with_base(spread(ready(TWO, **options), "n1", 1, patrick), "n1", 1)
    state = spread(state, "red-station", 0, olga)
    if dog:
        state = with_dog(state, "red-station", 0)
    return play(state, f"move from=red-station to=n1 count={olga}")


# -- lost-base -------------------------------------------------------------------------------------


def test_by_default_a_base_stays_and_counts_when_its_planet_is_lost() -> None:
    """Documented default ``lost-base=stays`` (the rulebook says nothing of a Base on a planet
    that is lost): the Base stays on its planet and keeps counting toward the Win; the new holder
    may build a Base of its own there ("One Base per player per planet")."""
    state = play(invade(), "pass by=patrick", "battle attacker=6 defender=1",
                 "battle attacker=6 defender=1")
    assert planet(state, "n1") == ("Olga", 3)
    assert state.bases[state.board.index("n1")] == (1,)
    assert bases_built(state, 1) == 1 and state.seats[1].bases == 4
    assert RULES.figures(state)[1]["bases"] == 1
    state = play(grant(state, 0, ore=3), "build planet=n1")
    assert state.bases[state.board.index("n1")] == (1, 0)


def test_lost_base_destroyed_sends_the_base_back_to_its_owner() -> None:
    """Option ``lost-base=destroyed``: a Base on a planet its owner loses goes back to its owner
    (off the board, to be built again), and no longer counts."""
    state = play(invade(**DESTROYED), "pass by=patrick", "battle attacker=6 defender=1",
                 "battle attacker=6 defender=1")
    assert planet(state, "n1") == ("Olga", 3)
    assert state.bases[state.board.index("n1")] == ()
    assert bases_built(state, 1) == 0 and state.seats[1].bases == 5
    assert RULES.figures(state)[1]["bases"] == 0


def test_lost_base_destroyed_also_when_the_planet_is_won_with_air_leak() -> None:
    """Option ``lost-base=destroyed`` with Air Leak ("remove three opponent Recruits and one of
    your own"): the attacker who empties the planet holds it, and the Base goes back."""
    state = holding(invade(4, 2, **DESTROYED), 0, "air-leak", "energy-boost")
    state = play(state, "play card=air-leak by=olga")
    assert planet(state, "n1") == ("Olga", 3) and state.seats[1].bases == 5


def test_lost_base_destroyed_when_the_planet_was_left_empty() -> None:
    """Option ``lost-base=destroyed``: a Base on a planet with no Recruits left (bribed away)
    goes back to its owner when an opponent moves onto it; by default it stays."""
    for options, left in (({}, (1,)), (DESTROYED, ())):
        state = with_base(spread(ready(TWO, **options), "n1", 1, 0), "n1", 1)
        state = play(state, "move from=red-station to=n1 count=1")
        assert state.battle is None and planet(state, "n1") == ("Olga", 1)
        assert state.bases[state.board.index("n1")] == left
        assert state.seats[1].bases == 5 - len(left)


def test_lost_base_destroyed_leaves_a_defended_base_alone() -> None:
    """Option ``lost-base=destroyed`` touches only a planet that is lost: "If there's a tie,
    victory goes to the defending Crew", and the defender keeps planet and Base."""
    state = play(invade(1, 2, **DESTROYED), "pass by=patrick", "battle attacker=3 defender=3")
    assert state.battle is None and planet(state, "n1") == ("Patrick", 2)
    assert state.bases[state.board.index("n1")] == (1,) and state.seats[1].bases == 4


# -- open-stations ---------------------------------------------------------------------------------


def test_home_stations_of_unused_colours_are_closed_by_default() -> None:
    """Get Ready! 1: "Any colors not in use go back in the box." Documented default
    ``open-stations=false``: nobody moves onto the Home Station of a colour not in use."""
    state = spread(ready(TWO), "e1", 0, 2)
    with pytest.raises(IllegalAction, match="nobody moves onto a Home Station"):
        play(state, "move from=e1 to=green-station count=2")
    state = spread(ready(TWO), "w1", 0, 2)
    with pytest.raises(IllegalAction, match="nobody moves onto a Home Station"):
        play(state, "move from=w1 to=blue-station count=2")


def test_open_stations_opens_only_the_stations_of_unused_colours() -> None:
    """Option ``open-stations=true``: the Home Stations of colours not in use are planets like
    any other; Move: "You may not move onto another player's Home Station, or back onto your
    own" still holds for the colours in use."""
    state = play(spread(ready(TWO, **OPEN), "e1", 0, 2), "move from=e1 to=green-station count=2")
    assert planet(state, "green-station") == ("Olga", 2)
    state = play(state, "move from=green-station to=e2 count=1")
    assert planet(state, "e2") == ("Olga", 1)
    with pytest.raises(IllegalAction, match="nobody moves onto a Home Station"):
        play(spread(ready(TWO, **OPEN), "s1", 0, 2), "move from=s1 to=yellow-station count=1")
    with pytest.raises(IllegalAction, match="nobody moves onto a Home Station"):
        play(spread(ready(TWO, **OPEN), "n1", 0, 2), "move from=n1 to=red-station count=1")


def test_open_stations_changes_nothing_with_every_colour_in_use() -> None:
    """Option ``open-stations=true`` with four players: every Home Station is someone's, and
    stays closed."""
    players = ("Olga", "Patrick", "Carol", "Dan")
    state = spread(ready(players, **OPEN), "e1", 0, 2)
    with pytest.raises(IllegalAction, match="nobody moves onto a Home Station"):
        play(state, "move from=e1 to=green-station count=1")


# -- costs of the cards whose cost is not printed --------------------------------------------------


def mail_from_mom(**options: str) -> tuple[State, str]:
    return holding(ready(TWO, **options), 0, "mail-from-mom", "air-leak"), \
        "play card=mail-from-mom take=good-space-dog"


def tractor_beam(**options: str) -> tuple[State, str]:
    return invade(**options), "play card=tractor-beam by=patrick"


def good_space_dog(**options: str) -> tuple[State, str]:
    state = holding(ready(TWO, **options), 0, "good-space-dog", "air-leak")
    state = spread(spread(state, "n1", 1, 2), "red-station", 0, 3)
    return play(state, "move from=red-station to=n1 count=3"), "play card=good-space-dog by=olga"


CARDS = {"mail-from-mom": (mail_from_mom, 0), "tractor-beam": (tractor_beam, 1),
         "good-space-dog": (good_space_dog, 0)}
"""Each card whose cost the rulebook does not print: a state where its holder may play it, the
line that plays it, and the holder's seat."""


@pytest.mark.parametrize("card", list(CARDS))
def test_unprinted_card_costs_are_free_by_default(card: str) -> None:
    """Documented default: Tractor Beam, Mail from Mom and Good Space Dog cost nothing (the
    rulebook prints no cost icon for them: "This is free to play")."""
    build, seat = CARDS[card]
    state, line = build()
    after = play(state, line)
    assert after.seats[seat].gems == state.seats[seat].gems and after.gems == state.gems
    assert card not in after.seats[seat].hand


@pytest.mark.parametrize("card", list(CARDS))
def test_cost_gem_charges_a_gem_to_the_supply(card: str) -> None:
    """Option ``cost.<card>=gem`` ("This means pay a Gem."): playing the card pays one Gem to
    the supply by the board."""
    build, seat = CARDS[card]
    state, line = build(**{f"cost.{card}": "gem"})
    after = play(state, line)
    assert after.seats[seat].gems == state.seats[seat].gems - 1
    assert after.gems == state.gems + 1
    assert card not in after.seats[seat].hand


@pytest.mark.parametrize("card", list(CARDS))
def test_cost_gem_refuses_the_card_without_a_gem(card: str) -> None:
    """Option ``cost.<card>=gem``: without a Gem the card cannot be played, and stays in hand."""
    build, seat = CARDS[card]
    state, line = build(**{f"cost.{card}": "gem"})
    broke = grant(state, seat, gems=-state.seats[seat].gems)
    with pytest.raises(IllegalAction, match=r"costs a Gem; \w+ has none"):
        play(broke, line)
    assert card in broke.seats[seat].hand


def test_printed_costs_cannot_be_changed() -> None:
    """Action Cards: Energy Boost is "free to play", Bribe a Rival costs a Gem, Air Leak a
    Recruit: only the unprinted costs are options, and only ``free`` or ``gem``."""
    with pytest.raises(BadOptions, match=r"unknown option 'cost\.energy-boost'"):
        ready(TWO, **{"cost.energy-boost": "gem"})
    with pytest.raises(BadOptions, match=r"cost\.mail-from-mom"):
        ready(TWO, **{"cost.mail-from-mom": "recruit"})


# -- the Space Dog when its Crew is wiped out ------------------------------------------------------


def patricks_turn(state: State) -> State:
    """Olga ends her first turn; Patrick (Tractor Beam, Bribe a Rival) is to play."""
    state = play(state, "end")
    assert state.name(state.current) == "Patrick"
    return state


def test_a_dog_whose_crew_is_bribed_away_joins_another_crew() -> None:
    """Space Dog, Paw!: "If another player uses an Action card to wipe out the Crew that Space
    Dog is traveling with, move the Space Dog token to another one of your Crews on the board."
    (documented reading: the largest Crew)."""
    state = spread(spread(ready(TWO), "s1", 0, 2), "w1", 0, 4)
    state = patricks_turn(with_dog(state, "s1", 0))
    state = play(state, "play card=bribe-a-rival planet=s1")
    assert planet(state, "s1") == (None, 0)
    assert dogs(state) == [("Olga", "w1", False)] and state.dogs_left == 2


def test_a_dog_stays_with_a_crew_bribe_a_rival_does_not_wipe_out() -> None:
    """Bribe a Rival removes two Recruits; Space Dog, Paw!: "Space Dog can only be removed from
    the board if you lose a round in battle", and a Crew still standing keeps its dog."""
    state = spread(ready(TWO), "s1", 0, 3)
    state = play(patricks_turn(with_dog(state, "s1", 0)), "play card=bribe-a-rival planet=s1")
    assert planet(state, "s1") == ("Olga", 1) and dogs(state) == [("Olga", "s1", False)]


def test_a_dog_with_no_recruits_left_waits_at_home_for_the_next_crew() -> None:
    """Space Dog, Paw!: "If you have no Recruits on the board, move Space Dog to your Home
    Station and have him travel with the next Crew that leaves the Station!" """
    state = spread(spread(ready(TWO), "s1", 0, 2), "red-station", 0, 0)
    state = patricks_turn(with_dog(state, "s1", 0))
    state = play(state, "play card=bribe-a-rival planet=s1")
    assert dogs(state) == [("Olga", "red-station", True)]
    state = play(state, "end", "recruit count=2")
    assert dogs(state) == [("Olga", "red-station", True)]
    state = play(state, "move from=red-station to=n1 count=1")
    assert dogs(state) == [("Olga", "n1", False)] and planet(state, "red-station") == ("Olga", 1)


def test_a_dog_whose_attacking_crew_air_leak_wipes_out_joins_another_crew() -> None:
    """Air Leak: "remove three opponent Recruits and one of your own"; Space Dog, Paw!: the dog
    of a Crew an Action card wiped out goes to another of its owner's Crews (not back by the
    board: "Space Dog can only be removed from the board if you lose a round in battle")."""
    state = with_dog(spread(spread(ready(TWO), "n1", 1, 2), "w1", 0, 2), "red-station", 0)
    state = holding(state, 1, "air-leak", "tractor-beam")
    state = play(state, "move from=red-station to=n1 count=3")
    assert dogs(state) == [("Olga", "n1", False)]
    state = play(state, "play card=air-leak by=patrick")
    assert state.battle is None and planet(state, "n1") == ("Patrick", 1)
    assert dogs(state) == [("Olga", "w1", False)] and state.dogs_left == 2


def test_a_dog_whose_defending_crew_air_leak_wipes_out_waits_at_home() -> None:
    """Air Leak played by the attacker on a defending Crew with its Space Dog: "If you have no
    Recruits on the board, move Space Dog to your Home Station"."""
    state = spread(spread(ready(TWO), "n1", 1, 3), "yellow-station", 1, 0)
    state = play(with_dog(state, "n1", 1), "move from=red-station to=n1 count=3")
    state = play(state, "play card=air-leak by=olga")
    assert state.battle is None and planet(state, "n1") == ("Olga", 2)
    assert dogs(state) == [("Patrick", "yellow-station", True)]


def test_tractor_beam_sends_the_crew_back_with_its_dog() -> None:
    """Tractor Beam: "move their Crew back to the planet they came from" (the Space Dog "can
    move to other planets as part of a Crew", so it goes back with it)."""
    state = invade(5, 2, dog=True)
    assert dogs(state) == [("Olga", "n1", False)]
    state = play(state, "play card=tractor-beam by=patrick")
    assert state.battle is None and planet(state, "red-station") == ("Olga", 5)
    assert dogs(state) == [("Olga", "red-station", False)] and state.dogs_left == 2
    assert state.moves_left == 1


def test_tractor_beam_returns_a_part_crew_and_its_dog_to_the_rest() -> None:
    """Tractor Beam with a Crew that left Recruits behind (``dog=true`` took the dog along): the
    Crew and its dog go back, and join those who stayed."""
    state = with_base(spread(ready(TWO), "n1", 1, 2), "n1", 1)
    state = with_dog(spread(state, "red-station", 0, 5), "red-station", 0)
    state = play(state, "move from=red-station to=n1 count=3 dog=true")
    assert planet(state, "red-station") == ("Olga", 2) and dogs(state) == [("Olga", "n1", False)]
    state = play(state, "play card=tractor-beam by=patrick")
    assert planet(state, "red-station") == ("Olga", 5)
    assert dogs(state) == [("Olga", "red-station", False)]


@pytest.mark.parametrize("name", ["space-dog-paw", "Space Dog, Paw!", "space dog paw"])
def test_the_dog_paw_is_activated_by_any_of_its_names(name: str) -> None:
    """Space Dog, Paw!: "When you draw this card, you can pay one Gem to activate a Space Dog"
    (the card may be named by its title, as every other card may)."""
    state = play(ready(TWO), "trade-cards", "end", "end", "draw cards=space-dog-paw,air-leak")
    state = play(state, f'play card="{name}" planet=red-station')
    assert dogs(state) == [("Olga", "red-station", False)] and state.seats[0].gems == 1


def test_the_owner_chooses_which_crew_a_wiped_out_dog_joins() -> None:
    """Space Dog, Paw!: "If another player uses an Action card to wipe out the Crew that Space
    Dog is traveling with, move the Space Dog token to another one of your Crews on the board."
    Its owner says which, right after the card (documented default: the largest Crew)."""
    state = spread(spread(spread(ready(TWO), "s1", 0, 2), "w1", 0, 4), "w2", 0, 1)
    state = play(patricks_turn(with_dog(state, "s1", 0)), "play card=bribe-a-rival planet=s1")
    assert dogs(state) == [("Olga", "w1", False)]
    sending = {spec.type: spec for spec in RULES.legal_actions(state)}["send-dog"]
    assert sending.actors == ("Olga",)
    assert sending.fields[0].choices == ("red-station", "w2", "w1")
    with pytest.raises(IllegalAction, match="joins one of Olga's Crews"):
        play(state, "send-dog to=s2")
    sent = play(state, "send-dog to=w2")
    assert dogs(sent) == [("Olga", "w2", False)] and "send-dog" not in {
        spec.type for spec in RULES.legal_actions(sent)}
    with pytest.raises(IllegalAction, match="only right after an Action card"):
        play(state, "end", "send-dog to=w2 by=olga")


def test_the_status_line_names_who_may_send_a_wiped_out_dog() -> None:
    """Space Dog, Paw!: "move the Space Dog token to another one of your Crews on the board":
    while its owner may still choose, the status line says so (as it does for a Space Dog,
    Paw! that may be activated), so the table knows the owner's choice is open."""
    state = spread(spread(spread(ready(TWO), "s1", 0, 2), "w1", 0, 4), "w2", 0, 1)
    state = play(patricks_turn(with_dog(state, "s1", 0)), "play card=bribe-a-rival planet=s1")
    assert "Olga may send the Space Dog to another Crew" in RULES.turn(state).detail
    assert "send the Space Dog" not in RULES.turn(play(state, "send-dog to=w2")).detail
