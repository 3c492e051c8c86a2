"""What a table's trial of the game found: an attack typed as people type it (no ``by=`` where
only one player can mean it), the dice typed one side at a time, who the prompt waits for."""

from __future__ import annotations

import copy
import random
from pathlib import Path

import pytest
from msgspec.structs import replace

from tabletape.ledger.store import Ledger
from tabletape.replay.recording import open_game, record_action
from tabletape.rules.kernel import BadOptions, IllegalAction
from tabletape.rules.risk_transformers import data
from tabletape.rules.risk_transformers.battle import neighbours
from tabletape.rules.risk_transformers.board import cybertron_from_data, default_board_data
from tabletape.rules.risk_transformers.events import AllSpark
from tabletape.rules.risk_transformers.reinforce import KEPT
from tabletape.rules.risk_transformers.state import Receipt
from tests.games.risk_transformers.helpers import GAME, NAMES, playing, recorded_game
from tests.games.risk_transformers.test_allspark import PERIHEX, day_over
from tests.games.risk_transformers.test_battle import (
    EXAMPLE,
    OLGA_ATTACKS,
    in_phase3,
    play,
    refused,
    zone,
)

OLGA, PATRICK = 0, 1


def test_the_defender_is_the_one_expected_to_declare() -> None:
    """How to Attack 3: "The defender must say how many robots he is defending with": while the
    attack waits for him, he is the one expected to act (the prompt and the headline name him),
    then the attacker again for the roll and for "CONTINUE the attack ... OR END"."""
    state = play(in_phase3(OLGA_ATTACKS), "attack from=hexima-state target=launch-pad robots=3")
    assert GAME.turn(state).active == ("Patrick",)
    state = play(state, "defend by=patrick robots=2")
    assert GAME.turn(state).active == ("Olga",)
    state = play(state, "roll attacker=5,5,1 defender=5,4")
    assert GAME.turn(state).active == ("Olga",)


def test_the_side_that_must_choose_is_the_one_expected() -> None:
    """Battle Example 7: "Black exchanges a vehicle for 3 robots and puts one of them on his
    scrapheap": Black's casualty is his choice (robots or the vehicle), so Black (Patrick) is
    the one the attack waits for; before that Red may place OPTIMUS PRIME's +1 ("Red uses
    OPTIMUS PRIME'S +1 defense bonus to increase his roll from 3 to 4"), so Red is."""
    state = play(in_phase3(EXAMPLE, current=PATRICK),
                 "attack from=hexima-state target=launch-pad robots=3",
                 "defend by=olga robots=1 leader=true", "roll attacker=6,4,1 defender=4,d8:3")
    assert GAME.turn(state).active == ("Olga",)
    assert {s.type: s.actors for s in GAME.legal_actions(state)}["plus-one"] == ("Olga",)
    state = play(state, "plus-one by=olga face=3")
    assert GAME.turn(state).active == ("Patrick",)
    assert {s.type: s.actors for s in GAME.legal_actions(state)}["lose"] == ("Patrick",)


def test_one_side_of_the_dice_alone_is_refused_in_table_words() -> None:
    """How to Attack 4: "At the same time: you both roll one die for each of the robots you are
    using": the defender's die typed before the attacker's is refused with what to type."""
    state = play(in_phase3(OLGA_ATTACKS), "attack from=hexima-state target=launch-pad robots=3",
                 "defend by=patrick robots=2")
    refused(state, "roll by=patrick defender=6,2", "both sides roll at the same time: type both")
    refused(state, "roll attacker=6,2,1", "both sides roll at the same time: type both")


@pytest.fixture
def ledger_game(tmp_path: Path) -> tuple[Ledger, str]:
    """A 2-player game in a scratch ledger, leftovers kept for the first Phase 1."""
    ledger = Ledger(tmp_path)
    return ledger, recorded_game(ledger, leftover="keep")


def offer(ledger: Ledger, game: str, action: str) -> tuple[str, ...]:
    """The choices of the first field of ``action`` offered now."""
    (spec,) = [s for s in GAME.legal_actions(open_game(ledger, game).state) if s.type == action]
    return spec.fields[0].choices


def test_an_attack_is_typed_without_by(ledger_game: tuple[Ledger, str]) -> None:
    """How to Attack 1-4, typed at the table as said: the attacker declares, "The defender must
    say how many robots he is defending with" (his alone), and the roll both make "At the same
    time" is recorded once without naming anyone (it was refused: "several players may roll
    now; say who with by=NAME")."""
    ledger, game = ledger_game
    while open_game(ledger, game).state.phase == "setup":
        record_action(ledger, game, f"place zone={offer(ledger, game, 'place')[0]}")
    state = open_game(ledger, game).state
    home = next(p for p, z in enumerate(state.zones) if z.owner == OLGA and z.leader)
    while (left := open_game(ledger, game).state.seats[OLGA].operational):
        record_action(ledger, game, f"place zone={state.places[home]} count={left}")
    record_action(ledger, game, "end")
    record_action(ledger, game, "end")
    target = next(state.places[p] for p in neighbours(state, home)
                  if state.zones[p].owner == PATRICK)
    home = state.places[home]
    record_action(ledger, game, f"attack from={home} target={target} robots=2")
    _, defended = record_action(ledger, game, "defend robots=1")
    assert defended.actor == "Patrick"
    _, rolled = record_action(ledger, game, "roll attacker=6,6 defender=1")
    assert rolled.actor == "Olga"
    with pytest.raises(IllegalAction, match="cannot roll now"):
        record_action(ledger, game, "roll attacker=6,6 defender=1")


def test_the_first_phase_1_counts_the_kept_leftovers() -> None:
    """Reading A1, ``leftover=keep``: the leftovers are kept "for the first Phase 1 step E": the
    headline's count is every robot to place (it said "receives 4 robots: 4 for 13 zones" and
    then "places 20 operational robots")."""
    state = playing(3)
    kept = state.seats[0].operational - state.received[0].robots
    assert kept > 0 and state.received[1] == Receipt(KEPT, kept)
    total = sum(r.robots for r in state.received)
    assert total == state.seats[0].operational
    assert f"receives {total} robots: " in GAME.turn(state).detail
    assert f"{kept} for setup's leftovers (A1)" in GAME.turn(state).detail


@pytest.mark.parametrize("value", ["perhaps", "ja"])
def test_a_yes_no_option_says_so(value: str) -> None:
    """Reading A17 is an option a table sets: ``gift-jump=perhaps`` is refused in its words
    ("gift-jump is true or false"), not the decoder's ("Expected `bool`, got `str`")."""
    with pytest.raises(BadOptions, match=f"gift-jump is true or false, not '{value}'"):
        GAME.options({"gift-jump": value}, NAMES[:2])
    assert GAME.options({"gift-jump": "false"}, NAMES[:2])["gift-jump"] in (False, "false")


def test_how_many_pieces_is_said_in_words() -> None:
    """How to Attack 3, "The defender must say how many robots he is defending with (1 or 2)",
    and BARRICADE in vehicle form: "the defender can only use one robot to defend": the refusal
    says how many and why ("defend with 1 to 1 pieces, not 2" said neither)."""
    state = play(in_phase3({"hexima-state": zone(OLGA, robots=4),
                            "launch-pad": zone(PATRICK, leader=True)}),
                 "attack from=hexima-state target=launch-pad robots=3")
    refused(state, "defend by=patrick robots=1 leader=true",
            r"defend with 1 piece \(launch-pad holds 1\), not 2")
    state = in_phase3({"the-arena": zone(PATRICK, robots=3, leader=True),
                       "blue-4": zone(OLGA, robots=3)}, current=PATRICK, forms={PATRICK: "vehicle"},
                      leaders="optimus-prime,barricade")
    state = play(state, "attack from=the-arena target=blue-4 robots=2 leader=true")
    refused(state, "defend by=olga robots=2",
            r"defend with 1 piece \(BARRICADE attacks in vehicle form\), not 2")


def test_the_allspark_card_may_be_typed_as_the_zone_it_shows() -> None:
    """Rounds (Days) 1: "Take the top card from the draw pile ... The zone shown on the card is
    where the AllSpark brings new life": the table reads the zone aloud, so ``allspark
    card=Perihex`` is the card showing Perihex (Fusion Cannons: "Zone: Perihex"); a zone no
    unseen card shows is refused in those words (it said "perihex is not in the draw pile")."""
    state = day_over()
    event = GAME.complete(state, "Patrick", AllSpark(card="Perihex"), random.Random(1))
    assert event == AllSpark(card=PERIHEX)
    after = GAME.step(state, "Patrick", event)
    assert after.at("perihex").robots == 1 + data.ALLSPARK.value
    gone = replace(state, pile=state.pile - 1, discard=(PERIHEX,))
    event = GAME.complete(gone, "Patrick", AllSpark(card="perihex"), random.Random(1))
    with pytest.raises(IllegalAction, match="no card still in the draw pile shows perihex"):
        GAME.step(gone, "Patrick", event)


def test_a_panel_row_running_far_past_the_board_is_read_as_or_more() -> None:
    """Phase 1 A, "Find the number of zones you control in the black numbers": a table's panel
    row ``from 40 to 1000000000000`` ("40 or more") covers every count that can occur; only
    those are looked at (each count up to the row's end was counted: the board file hung
    ``new`` and filled the memory)."""
    board = copy.deepcopy(default_board_data())
    board["transformers"]["panel"][-1]["to"] = 10**12
    cybertron = cybertron_from_data(board)
    assert cybertron.robots_for(len(cybertron.board.ids)) == board["transformers"]["panel"][-1][
        "robots"]
