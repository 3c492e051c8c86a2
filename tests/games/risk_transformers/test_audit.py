"""The rules audit of setup and Phases 1-5 as a table types them: each test quotes the rulebook
passage it checks and failed before its fix (the Phase 2 back-up card, card effects, refusals
that name the rule, typos answered with "did you mean" and exit 2)."""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping
from typing import Any

import pytest
from msgspec.structs import replace

from tabletape.ledger.errors import USAGE_EXIT
from tabletape.rules.kernel import BadOptions, IllegalAction
from tabletape.rules.risk_transformers.board import cybertron_from_data, default_board_data
from tabletape.rules.risk_transformers.reinforce import begin_turn
from tabletape.rules.risk_transformers.state import (
    State,
    Zone,
    invariant_errors,
    with_seat,
    with_zone,
    zones_held,
)
from tests.games.risk_transformers.helpers import GAME, dealt, place_next, started
from tests.games.risk_transformers.test_battle import in_phase3, play, refused, zone

OLGA, PATRICK = 0, 1
BACK_UP_CARD = "upgrade-blue-1"
"""A placeholder card of the default deck made a back-up card for these tests."""


def back_up_board() -> dict[str, Any]:
    """The default board with one card calling for back-up in Phase 2 (effect ``back-up``)."""
    board = copy.deepcopy(default_board_data())
    card = next(c for c in board["transformers"]["cards"] if c["id"] == BACK_UP_CARD)
    card.update(timing="phase-2", effect="back-up", lasts="instant")
    return board


def in_phase(phase: str, layout: Mapping[str, Zone], cards: tuple[str, ...] = (),
             **given: Any) -> State:
    """Olga's turn at ``phase`` on the board with a back-up card, holding ``cards``."""
    state = replace(in_phase3(layout, board=back_up_board(), **given), phase=phase)
    return dealt(state, OLGA, *cards)


# -- 2. Calling for back-up (Phase 2) --------------------------------------------------------------

PHASE_TWO_LINE = ("Calling for back-up (Phase 2): There are upgrade cards which allow you to call "
                  "for back-up in Phase 2 before an attack. The rules for back-up are exactly the "
                  "same as for this phase but you cannot move OPTIMUS PRIME in vehicle form.")


def test_a_back_up_card_moves_pieces_in_phase_two() -> None:
    """Calling for back-up (Phase 2): "There are upgrade cards which allow you to call for
    back-up in Phase 2 before an attack": the card is discarded with the move."""
    state = in_phase("morph", {"autobase": zone(OLGA, robots=6),
                               "plasma-energy-chamber": zone(OLGA, robots=1)}, (BACK_UP_CARD,))
    state = play(state, f"back-up card={BACK_UP_CARD} from=autobase to=plasma-energy-chamber "
                 "robots=5")
    assert state.at("autobase") == zone(OLGA, robots=1)
    assert state.at("plasma-energy-chamber") == zone(OLGA, robots=6)
    assert state.seats[OLGA].hand == () and state.discard[-1] == BACK_UP_CARD
    assert state.phase == "morph" and not state.backed_up


def test_the_phase_two_back_up_leaves_phase_four_its_own_move() -> None:
    """Calling for back-up (Phase 2): the card "allow[s] you to call for back-up in Phase 2":
    a move the card adds, so Phase 4's ("Call for Back-Up") is still to come."""
    state = in_phase("morph", {"autobase": zone(OLGA, robots=6),
                               "plasma-energy-chamber": zone(OLGA, robots=1)}, (BACK_UP_CARD,))
    state = play(state, f"back-up card={BACK_UP_CARD} from=autobase to=plasma-energy-chamber "
                 "robots=2", "end", "end")
    assert state.phase == "back-up"
    state = play(state, "back-up from=plasma-energy-chamber to=autobase robots=2")
    assert state.at("autobase") == zone(OLGA, robots=6)


def test_the_phase_two_back_up_follows_phase_four_rules() -> None:
    """Calling for back-up (Phase 2): "The rules for back-up are exactly the same as for this
    phase": "remembering to leave at least one robot behind", "Zones are connected if you
    control all the neighboring zones between them"."""
    state = in_phase("morph", {"autobase": zone(OLGA, robots=3), "kalis": zone(OLGA, robots=1),
                               "orange-1": zone(OLGA, robots=1)}, (BACK_UP_CARD,), rest=PATRICK)
    card = f"card={BACK_UP_CARD}"
    refused(state, f"back-up {card} from=autobase to=kalis robots=3", "leave at least one")
    refused(state, f"back-up {card} from=autobase to=orange-1 robots=1", "not connected")
    after = play(state, f"back-up {card} from=autobase to=kalis robots=2")
    assert after.at("kalis") == zone(OLGA, robots=3)


def test_the_phase_two_back_up_cannot_move_optimus_in_vehicle_form() -> None:
    """Calling for back-up (Phase 2): "but you cannot move OPTIMUS PRIME in vehicle form"
    (neither with the move nor by his Phase 4 jump)."""
    layout = {"autobase": zone(OLGA, robots=3, leader=True),
              "plasma-energy-chamber": zone(OLGA, robots=1)}
    state = in_phase("morph", layout, (BACK_UP_CARD,), forms={OLGA: "vehicle"})
    line = f"back-up card={BACK_UP_CARD} from=autobase to=plasma-energy-chamber"
    refused(state, f"{line} robots=1 leader=true", "cannot move OPTIMUS PRIME in vehicle form")
    refused(state, "jump to=plasma-energy-chamber", "only in Phase 4")
    after = play(state, f"{line} robots=2")
    assert after.at("autobase") == zone(OLGA, robots=1, leader=True)
    robot_form = in_phase("morph", layout, (BACK_UP_CARD,))
    after = play(robot_form, f"{line} robots=1 leader=true")
    assert after.at("plasma-energy-chamber") == zone(OLGA, robots=2, leader=True)


def test_phase_two_back_up_needs_a_back_up_card() -> None:
    """Calling for back-up (Phase 2): "There are upgrade cards which allow you to call for
    back-up in Phase 2": without one, or with a card that does something else, no move."""
    layout = {"autobase": zone(OLGA, robots=3), "plasma-energy-chamber": zone(OLGA, robots=1)}
    state = in_phase("morph", layout, (BACK_UP_CARD, "fusion-cannons"))
    line = "from=autobase to=plasma-energy-chamber robots=1"
    refused(state, f"back-up {line}", "with an upgrade card")
    refused(state, f"back-up card=fusion-cannons {line}", "does not call for back-up")
    refused(state, f"play card={BACK_UP_CARD}", "record the move with it")
    no_card = in_phase("morph", layout)
    refused(no_card, f"back-up card={BACK_UP_CARD} {line}", "does not hold")
    phase_four = in_phase("back-up", layout, (BACK_UP_CARD,))
    refused(phase_four, f"back-up card={BACK_UP_CARD} {line}", "needs no card")


def test_a_card_the_rules_do_not_know_may_be_the_back_up_card() -> None:
    """Calling for back-up (Phase 2) with a card whose effect is the table's (``table``): the
    table says it calls for back-up, and the move is recorded with it."""
    layout = {"autobase": zone(OLGA, robots=3), "plasma-energy-chamber": zone(OLGA, robots=1)}
    state = in_phase("morph", layout, ("upgrade-blue-2",))
    after = play(state, "back-up card=upgrade-blue-2 from=autobase to=plasma-energy-chamber "
                 "robots=2")
    assert after.at("plasma-energy-chamber") == zone(OLGA, robots=3)


def test_phase_two_offers_the_back_up_card() -> None:
    """Phase 2 lists ``back-up`` with the player's back-up cards, and ``play`` without them."""
    layout = {"autobase": zone(OLGA, robots=3), "plasma-energy-chamber": zone(OLGA, robots=1)}
    specs = {s.type: s for s in GAME.legal_actions(in_phase("morph", layout, (BACK_UP_CARD,)))}
    card = next(f for f in specs["back-up"].fields if f.name == "card")
    assert card.choices == (BACK_UP_CARD,) and "play" not in specs


def test_a_board_back_up_card_is_played_in_phase_two() -> None:
    """A board's back-up card with a timing outside Phase 2 is one clear problem."""
    board = back_up_board()
    card = next(c for c in board["transformers"]["cards"] if c["id"] == BACK_UP_CARD)
    card["timing"] = "before-attack"
    with pytest.raises(BadOptions, match="a back-up card is played in Phase 2"):
        cybertron_from_data(board)


def test_refusal_exit_codes() -> None:
    """A typo in a zone is input not understood (exit 2); a rule's refusal is exit 1."""
    state = in_phase("back-up", {"autobase": zone(OLGA, robots=3)})
    with pytest.raises(IllegalAction) as typo:
        play(state, "back-up from=autobse to=kalis robots=1")
    assert typo.value.exit_code == USAGE_EXIT and "did you mean 'autobase'" in str(typo.value)


def test_a_card_name_typo_is_not_understood() -> None:
    """Phase 5, "Whenever you play an upgrade card": a card is named by its id or its printed
    name in any case; a typo gets "did you mean" and exit 2."""
    state = in_phase("place", {"autobase": zone(OLGA, robots=3)}, ("mass-production",))
    state = replace(state, step="B")
    after = play(state, "play card=Mass-Production")
    assert after.discard[-1] == "mass-production"
    with pytest.raises(IllegalAction) as typo:
        play(state, "play card=mass-prod")
    assert typo.value.exit_code == USAGE_EXIT
    assert "did you mean 'mass-production'" in str(typo.value)


def test_a_refusal_names_its_rule() -> None:
    """When Can I Attack?: "You must have 2 or more robots in the zone you are attacking
    from": the refusal says so and names the rule."""
    state = in_phase3({"autobase": zone(OLGA, robots=1), "kalis": zone(PATRICK, robots=1)})
    with pytest.raises(IllegalAction) as refusal:
        play(state, "attack from=autobase target=kalis robots=1")
    assert refusal.value.message().endswith("Rule: When Can I Attack?")


# -- 3. card effects the rules can check ---------------------------------------------------------

DUEL = {"hexima-state": zone(OLGA, robots=4), "launch-pad": zone(PATRICK, robots=2)}
"""Olga attacks the Launch Pad from Hexima State, Patrick holds it with 2 robots."""


def deck_with(**effects: tuple[str, str, str]) -> dict[str, Any]:
    """The default board with placeholder cards given (timing, effect, lasts)."""
    board = copy.deepcopy(default_board_data())
    for card in board["transformers"]["cards"]:
        if card["id"] in effects:
            timing, effect, lasts = effects[card["id"]]
            card.update(timing=timing, effect=effect, lasts=lasts)
    return board


def dueling(hands: Mapping[int, tuple[str, ...]], **effects: tuple[str, str, str]) -> State:
    """Olga's Phase 3 on :data:`DUEL` with the cards given (see :func:`deck_with`)."""
    state = in_phase3(DUEL, board=deck_with(**effects))
    for seat, cards in hands.items():
        state = dealt(state, seat, *cards)
    return state


def test_the_defender_plays_a_card_during_the_attack() -> None:
    """Play Cards: "The attacker and defender can play upgrade cards during the attack. Each
    card tells you when to play it and how it affects the attack": a defence card (+1 to each
    defending die for this attack) turns 5,5 against 4,4 into ties the defender wins."""
    state = dueling({PATRICK: ("upgrade-blue-1",)},
                    **{"upgrade-blue-1": ("before-defence", "defence-dice+1", "attack")})
    state = play(state, "attack from=hexima-state target=launch-pad robots=2",
                 "defend by=patrick robots=2", "play by=patrick card=upgrade-blue-1",
                 "roll by=olga attacker=5,5 defender=4,4")
    assert state.at("launch-pad") == zone(PATRICK, robots=2)
    assert state.at("hexima-state") == zone(OLGA, robots=2)
    assert state.discard == ("upgrade-blue-1",)


def test_cards_in_an_attack_come_before_the_roll_and_by_their_timing() -> None:
    """Play Cards: "Each card tells you when to play it": the attacker's card is played before
    the attack or before a roll (FUSION CANNONS: "Play before you attack"), a defence card by
    the defender, none once the dice are rolled."""
    state = dueling({OLGA: ("fusion-cannons",), PATRICK: ("upgrade-blue-1",)},
                    **{"upgrade-blue-1": ("before-defence", "defence-dice+1", "attack")})
    state = play(state, "attack from=hexima-state target=launch-pad robots=2")
    refused(state, "play by=patrick card=fusion-cannons", "not played by the defender")
    refused(state, "play card=upgrade-blue-1", "not played by the attacker")
    state = play(state, "play card=fusion-cannons", "defend by=patrick robots=2")
    assert state.attack is not None and state.attack.cards == ("fusion-cannons",)
    state = play(state, "roll by=olga attacker=4,4 defender=4,1")
    assert state.at("launch-pad") == zone(OLGA, robots=2)
    refused(state, "play by=patrick card=upgrade-blue-1", "not while it waits to move in")


def test_a_dice_card_adds_what_its_effect_says() -> None:
    """FUSION CANNONS: "Add 1 to each die for this attack"; a board's ``attack-dice+2`` adds 2
    (the effect's number, not always 1): 3,3 against 4,4 wins both pairs."""
    state = dueling({OLGA: ("upgrade-blue-1",)},
                    **{"upgrade-blue-1": ("before-attack", "attack-dice+2", "attack")})
    state = play(state, "play card=upgrade-blue-1",
                 "attack from=hexima-state target=launch-pad robots=2",
                 "defend by=patrick robots=2", "roll by=olga attacker=3,3 defender=4,4")
    assert state.at("launch-pad") == zone(OLGA, robots=2)


def test_a_this_turn_card_lasts_for_every_attack_of_the_turn() -> None:
    """Play Cards: "If it reads 'this turn,' it lasts until the attacking player has finished
    all of his attacks": the card helps the second attack too."""
    layout = {"hexima-state": zone(OLGA, robots=4), "launch-pad": zone(PATRICK, robots=1),
              "kalis": zone(PATRICK, robots=1)}
    state = in_phase3(layout, board=deck_with(
        **{"upgrade-blue-1": ("before-attack", "attack-dice+1", "turn")}))
    state = dealt(state, OLGA, "upgrade-blue-1")
    state = play(state, "attack from=hexima-state target=launch-pad robots=1",
                 "play card=upgrade-blue-1", "defend by=patrick robots=1",
                 "roll by=olga attacker=4 defender=4", "stop")
    assert state.at("launch-pad") == zone(OLGA, robots=1)
    state = play(state, "attack from=hexima-state target=kalis robots=1",
                 "defend by=patrick robots=1", "roll by=olga attacker=4 defender=4")
    assert state.at("kalis") == zone(OLGA, robots=1)


def test_a_card_the_rules_do_not_know_is_recorded_in_battle() -> None:
    """Cards without a machine effect ("effect": "table"): the table records what it did; the
    card is discarded ("Otherwise the card has an instant effect. Do what it says, then put it
    faceup on the discard pile")."""
    state = dueling({PATRICK: ("upgrade-blue-2",)})
    state = play(state, "attack from=hexima-state target=launch-pad robots=2",
                 "play by=patrick card=upgrade-blue-2 note='moved a robot in'")
    assert state.discard == ("upgrade-blue-2",) and state.seats[PATRICK].hand == ()
    specs = {s.type for s in GAME.legal_actions(dueling({PATRICK: ("upgrade-blue-2",)}))}
    assert "play" not in specs


# -- wording and the rules found as a table types them ---------------------------------------------


def test_crushing_the_last_robots_in_a_factory_destroys_the_army() -> None:
    """Sliding Zones: "Close the zone. Any robots on it are crushed and returned to their owner's
    scrapheap"; Out of Robots!: "If you have no robots on the gameboard, your army is destroyed
    and you are out of the game!", "If you destroy all enemy armies, you win the game!"."""
    state = in_phase3({"perihex": zone(PATRICK, robots=2)}, rest=OLGA)
    state = replace(state, phase="morph", open_factories=("decagon-factory",))
    state = with_zone(state, state.place("decagon-factory"), zone(PATRICK, robots=2))
    state = with_zone(state, state.place("perihex"), zone(OLGA, robots=1))
    state = with_seat(state, OLGA, scrap_robots=state.seats[OLGA].scrap_robots - 1)
    assert invariant_errors(state) == []
    state = dealt(state, OLGA, "upgrade-decagon")
    state = play(state, "change card=upgrade-decagon zone=decagon to=closed")
    assert state.seats[PATRICK].eliminated and state.phase == "over"


def test_a_new_attack_waits_for_the_one_in_progress() -> None:
    """Results, Outcome 2: "END the attack. You can then launch a NEW attack": while the defender
    has not answered, the refusal says what the attack waits for."""
    state = play(in_phase3(DUEL), "attack from=hexima-state target=launch-pad robots=1")
    refused(state, "attack from=hexima-state target=launch-pad robots=2",
            "the attack on launch-pad is not over: it waits to defend")
    refused(state, "defend by=olga robots=1", "Patrick defends launch-pad, not Olga")


# -- Things to Know: 3 robots for 1 vehicle ------------------------------------------------------


def test_three_robots_for_a_vehicle_at_any_time() -> None:
    """Things to Know: "You can exchange 3 robots for 1 vehicle, or vice versa, at any time";
    Setup 3: "Vehicle (worth 3 robots)". Patrick puts Black's vehicle of the Battle Example
    into Hexima State during Olga's turn, and takes it back."""
    state = in_phase3({"hexima-state": zone(PATRICK, robots=6)})
    before = state.seats[PATRICK]
    state = play(state, "exchange by=patrick zone=hexima-state to=vehicle")
    assert state.at("hexima-state") == zone(PATRICK, robots=3, vehicles=1)
    after = state.seats[PATRICK]
    assert (after.scrap_robots, after.scrap_vehicles) == (before.scrap_robots + 3,
                                                          before.scrap_vehicles - 1)
    state = play(state, "exchange by=patrick zone=hexima-state to=robots")
    assert state.at("hexima-state") == zone(PATRICK, robots=6)
    assert state.seats[PATRICK] == before


def test_an_exchange_needs_the_pieces() -> None:
    """Things to Know: "exchange 3 robots for 1 vehicle": three robots on the zone and a vehicle
    on the scrapheap; only your own zone; not on a zone whose declared pieces still roll."""
    state = in_phase3({"hexima-state": zone(OLGA, robots=4), "launch-pad": zone(PATRICK,
                                                                                robots=2)})
    refused(state, "exchange zone=hexima-state to=vehicle count=2", "holds 4 robots")
    refused(state, "exchange zone=hexima-state to=robots", "holds 0 vehicles")
    refused(state, "exchange by=patrick zone=hexima-state to=vehicle", "does not control")
    state = play(state, "attack from=hexima-state target=launch-pad robots=3")
    refused(state, "exchange zone=hexima-state to=vehicle", "waits to defend")


def test_names_typed_as_people_say_them_are_stored_as_ids() -> None:
    """Neighboring Zones names zones as printed ("The Praetorus Wharf"); the log stores the
    board's id whatever the case or spacing typed, and a card by its id."""
    state = in_phase3(DUEL)
    event = GAME.event_types()["attack"](**{"from_": "Hexima State", "target": "LAUNCH PAD",
                                            "robots": 1})
    stored = GAME.complete(state, "Olga", event, random.Random(1))
    assert (stored.from_, stored.target) == ("hexima-state", "launch-pad")
    card = GAME.complete(state, "Olga", GAME.event_types()["play"](card="Fusion Cannons"),
                         random.Random(1))
    assert card.card == "fusion-cannons"


def test_megatron_alone_from_afar_moves_in_alone() -> None:
    """Vehicle Form: "MEGATRON can attack any zone. If the zone is not neighboring, move him to
    the [...] zone and attack. He must attack alone." (A3: if he captures, he moves in): no
    other robot follows him from a zone that is not a neighbour."""
    state = in_phase3({"autobase": zone(PATRICK, robots=3, leader=True),
                       "orange-2": zone(OLGA, robots=1)}, current=PATRICK,
                      forms={PATRICK: "vehicle"})
    state = play(state, "attack from=autobase target=orange-2 leader=true",
                 "defend by=olga robots=1", "roll by=patrick attacker=d8:8 defender=1")
    assert state.at("orange-2") == zone(PATRICK, leader=True)
    assert {s.type for s in GAME.legal_actions(state)} >= {"stop"}
    assert "move-in" not in {s.type for s in GAME.legal_actions(state)}
    refused(state, "move-in robots=1", "only he moves in")
    assert play(state, "stop").at("autobase") == zone(PATRICK, robots=3)


# -- the Phase 1 example ------------------------------------------------------------------------


def test_the_phase_one_example_gives_twenty_two_robots() -> None:
    """Phase 1 example: "Red controls 23 zones, including all zones in the purple sector and 2
    robots on the Decagon's secret war factory": 7 for 23 zones, Mass-Production 3, the purple
    bonus 5 "doubled by Interlock Initiators, so he gets 10 robots", 2 for the factory: "Red
    has 22 operational robots". (One of Red's zones holds a vehicle: with the reconstructed 45
    robots a set, 24 robots on the board would leave 21 on the scrapheap.)"""
    purple = ("purple-1", "purple-2", "purple-3", "decagon", "plasma-energy-chamber",
              "perihex", "purple-4")
    others = ("blue-1", "blue-2", "moon-alpha", "blue-3", "blue-4", "blue-5", "blue-6", "vos",
              "tri-lorus-loop", "green-1", "unicron", "green-2", "green-3", "green-4")
    layout = {name: zone(OLGA, robots=1) for name in (*purple, *others)}
    layout["the-arena"] = zone(OLGA, vehicles=1)
    state = in_phase3(layout, rest=PATRICK)
    state = replace(state, open_factories=("decagon-factory",))
    state = with_zone(state, state.place("decagon-factory"), zone(OLGA, robots=2))
    state = with_seat(state, OLGA, scrap_robots=state.seats[OLGA].scrap_robots - 2)
    assert invariant_errors(state) == [] and zones_held(state, OLGA) == 23
    state = dealt(begin_turn(state, OLGA), OLGA, "mass-production", "interlock-initiators")
    state = play(state, "play card=mass-production", "play card=interlock-initiators",
                 "place zone=decagon-factory count=1")
    assert {r.source: r.robots for r in state.received} == {
        "23 zones": 7, "mass-production": 3, "purple": 10, "decagon-factory": 2}
    assert state.seats[OLGA].operational == 22 - 1


def test_words_in_any_case_and_typos() -> None:
    """How to Attack 6: "The loser takes a robot from his zone": ``lose pieces=Robots`` is a
    robot; a word that is no piece (``tank``) is not understood (exit 2, the pieces listed);
    Bring Back Your Leader: "in either robot or vehicle form" (``form=Vehicle``)."""
    state = in_phase3({"hexima-state": zone(OLGA, robots=3, vehicles=1),
                       "launch-pad": zone(PATRICK, robots=2)})
    state = play(state, "attack from=hexima-state target=launch-pad robots=2 vehicles=1",
                 "defend by=patrick robots=1", "roll by=olga attacker=1,1,1 defender=6")
    with pytest.raises(IllegalAction) as typo:
        play(state, "lose by=olga pieces=tank")
    assert typo.value.exit_code == USAGE_EXIT and typo.value.allowed == (
        "robot", "vehicle", "leader")
    event = GAME.complete(state, "Olga", GAME.event_types()["lose"](pieces=("Robots",)),
                          random.Random(1))
    after = GAME.step(state, "Olga", event)
    assert after.at("hexima-state") == zone(OLGA, robots=2, vehicles=1)
    revive = GAME.complete(state, "Olga", GAME.event_types()["revive"](
        zone="Kalis", form="Vehicle"), random.Random(1))
    assert (revive.zone, revive.form) == ("kalis", "vehicle")


def test_a_taken_zone_is_no_typo() -> None:
    """Setup 5: "take turns placing a robot on an empty zone": placing on a taken zone is
    refused for the rule, without "did you mean" another zone (the name was right)."""
    place = GAME.event_types()["place"]
    state = GAME.step(started(2), "Olga", place(zone="blue-1"))
    taken = "blue-1"  # blue-2, an empty zone, is one letter away
    with pytest.raises(IllegalAction) as refusal:
        GAME.step(state, "Patrick", place(zone=taken))
    message = refusal.value.suggesting([taken]).message()
    assert "is taken" in message and "did you mean" not in message
    near = refusal.value.allowed[0] + "x"
    assert "did you mean" in refusal.value.suggesting([near]).message()


def test_setup_says_who_places_where() -> None:
    """Setup 5: "take turns placing a robot on an empty zone until all zones contain a robot":
    the turn line says who places, where, and how many are left (A1 for the leftovers)."""
    state = started(2)
    assert GAME.turn(state).detail == ("setup: Olga places a robot on an empty zone "
                                       "(40 empty, 29 to place)")
    while state.phase == "setup":
        state = place_next(state)[0]
    assert GAME.turn(state).detail.startswith("setup: ")
    assert "places a leftover robot on a zone of his" in GAME.turn(state).detail


def test_no_gift_to_a_teammate_out_of_the_game() -> None:
    """4-Player Game: "you can give a zone to your teammate"; Out of Robots!: "your army is
    destroyed and you are out of the game!": an eliminated teammate gets no zone."""
    layout = {"kalis": zone(OLGA, robots=2), "autobase": zone(OLGA, robots=3)}
    state = replace(in_phase3(layout, players=4, rest=1), phase="back-up")
    paula = 2
    state = with_seat(state, paula, eliminated=True)
    assert invariant_errors(state) == []
    assert "gift" not in {s.type for s in GAME.legal_actions(state)}
    refused(state, "gift zone=kalis", "teammate still in the game")


def test_phase_three_does_not_end_on_a_declared_attack() -> None:
    """How to Attack 3: "The defender must say how many robots he is defending with": ``end``
    with a declared attack is refused, naming what it waits for and how to take it back."""
    state = play(in_phase3(DUEL), "attack from=hexima-state target=launch-pad robots=1")
    refused(state, "end", "waits to defend: roll it out .*tabletape undo")


def test_a_card_the_table_applies_is_played_in_any_phase_of_the_turn() -> None:
    """Play Cards: "Each card tells you when to play it"; an ``any-time`` card whose text the
    rules do not know is played on its player's turn in Phases 4 and 5 too (as in 2 and 3), and
    the table notes what it did ("Do what it says, then put it faceup on the discard pile")."""
    layout = {"autobase": zone(OLGA, robots=3), "kalis": zone(OLGA, robots=1)}
    for phase, step in (("back-up", ""), ("draw", "")):
        state = replace(in_phase(phase, layout, ("upgrade-blue-2", "fusion-cannons")),
                        step=step)
        offers = {s.type: s for s in GAME.legal_actions(state)}
        card = next(f for f in offers["play"].fields if f.name == "card")
        assert card.choices == ("upgrade-blue-2",), phase
        after = play(state, "play card=upgrade-blue-2 note='moved a robot'")
        assert after.discard == ("upgrade-blue-2",) and after.phase == phase
        refused(state, "play card=fusion-cannons", "not played in Phase")


def test_the_table_exchanges_nothing() -> None:
    """Things to Know: "You can exchange 3 robots for 1 vehicle": a player's pieces, so
    ``by=table`` is refused naming the players (it was taken as the last seat's)."""
    state = in_phase3({"hexima-state": zone(PATRICK, robots=6)})
    refused(state, "exchange by=table zone=hexima-state to=vehicle", "not the table")


def test_the_table_is_named_as_the_table() -> None:
    """How to Attack 3: "The defender must say how many robots he is defending with": the table
    typing the defence is told who defends, and is not taken for the last seat."""
    state = play(in_phase3(DUEL), "attack from=hexima-state target=launch-pad robots=1")
    refused(state, "defend by=table robots=1", "Patrick defends launch-pad, not table")
