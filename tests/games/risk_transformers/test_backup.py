"""Phase 4, Call for Back-Up, and Phase 5, Draw a Card (T10, T11, A7, A11, A16, A17)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from msgspec.structs import replace

from tabletape.rules.risk_transformers.state import State, Zone, invariant_errors
from tests.games.risk_transformers.helpers import GAME
from tests.games.risk_transformers.test_battle import in_phase3, play, refused, zone

OLGA, PATRICK, PAULA = 0, 1, 2
"""Olga leads Optimus Prime (Autobots) and Patrick Megatron; with 4 players Paula (Bumblebee)
is Olga's teammate."""


def in_phase(phase: str, layout: Mapping[str, Zone], **given: Any) -> State:
    """The game of :func:`in_phase3` moved on to Phase 4 (``back-up``) or 5 (``draw``)."""
    return replace(in_phase3(layout, **given), phase=phase)


def offered(state: State) -> set[str]:
    return {spec.type for spec in GAME.legal_actions(state)}


# -- Phase 4: the back-up move -----------------------------------------------------------------


def test_the_back_up_example_moves_five_robots() -> None:
    """Phase 4: "Example: In Phase 4, Red calls for back-up and moves 5 robots from Autobase to
    Plasma Energy Chamber"; A7: one back-up move per turn."""
    state = in_phase("back-up", {"autobase": zone(OLGA, robots=6),
                                 "plasma-energy-chamber": zone(OLGA, robots=1)})
    state = play(state, "back-up from=autobase to=plasma-energy-chamber robots=5")
    assert state.at("autobase") == zone(OLGA, robots=1)
    assert state.at("plasma-energy-chamber") == zone(OLGA, robots=6)
    refused(state, "back-up from=plasma-energy-chamber to=autobase robots=1", "one back-up move")


def test_back_up_goes_only_through_zones_you_control() -> None:
    """Phase 4: "Zones are connected if you control all the neighboring zones between them"
    (Launch Pad reaches Autobase through Kalis)."""
    layout = {"launch-pad": zone(OLGA, robots=3), "kalis": zone(OLGA, robots=1),
              "autobase": zone(OLGA, robots=1), "hexima-state": zone(PATRICK, robots=1)}
    state = play(in_phase("back-up", layout), "back-up from=launch-pad to=autobase robots=2")
    assert state.at("autobase") == zone(OLGA, robots=3)
    cut = {**layout, "kalis": zone(PATRICK, robots=1)}
    refused(in_phase("back-up", cut), "back-up from=launch-pad to=autobase robots=2",
            "not connected")


@pytest.mark.parametrize(("autobase", "line"), [
    (zone(OLGA, robots=3), "robots=3"),
    (zone(OLGA, robots=2, leader=True), "robots=2 leader=true"),
    (zone(OLGA, robots=3), "robots=0")])
def test_back_up_leaves_at_least_one_robot_behind(autobase: Zone, line: str) -> None:
    """Phase 4: "Take as many robots as you want from one zone (remembering to leave at least
    one robot behind)"."""
    state = in_phase("back-up", {"autobase": autobase, "kalis": zone(OLGA, robots=1)},
                     rest=PATRICK)
    refused(state, f"back-up from=autobase to=kalis {line}", "leave at least one")


def test_the_leader_may_go_with_the_back_up() -> None:
    """A7: "the leader may move as part of it" (the back-up moves robots "to improve its
    defense")."""
    state = in_phase("back-up", {"autobase": zone(OLGA, robots=2, leader=True),
                                 "kalis": zone(OLGA, robots=1)}, rest=PATRICK)
    state = play(state, "back-up from=autobase to=kalis robots=1 leader=true")
    assert state.at("kalis") == zone(OLGA, robots=2, leader=True)
    assert state.at("autobase") == zone(OLGA, robots=1)


def test_four_players_back_up_through_the_teammates_zones() -> None:
    """4-Player Game: "You can call for back-up through your teammate's zones" (but a zone has
    one owner: the robots go to one of your own)."""
    layout = {"launch-pad": zone(OLGA, robots=3), "kalis": zone(PAULA, robots=1),
              "autobase": zone(OLGA, robots=1), "hexima-state": zone(PATRICK, robots=1)}
    state = in_phase("back-up", layout, players=4)
    after = play(state, "back-up from=launch-pad to=autobase robots=2")
    assert after.at("autobase") == zone(OLGA, robots=3)
    refused(state, "back-up from=launch-pad to=kalis robots=2", "does not control kalis")


def test_back_up_only_in_phase_4_on_your_turn() -> None:
    """Taking Your Turn: "4. Phase 4: Call for Back-Up (Optional)"."""
    layout = {"autobase": zone(OLGA, robots=3), "kalis": zone(OLGA, robots=1)}
    refused(in_phase3(layout), "back-up from=autobase to=kalis robots=1", "only in Phase 4")
    refused(in_phase("back-up", layout), "back-up by=patrick from=autobase to=kalis robots=1",
            "turn")


# -- Phase 4: Optimus Prime's jump ---------------------------------------------------------------

OPTIMUS_AWAY = {"uraya": zone(OLGA, robots=1, leader=True), "launch-pad": zone(OLGA, robots=1),
                "autobase": zone(OLGA, robots=3), "kalis": zone(OLGA, robots=1)}
"""Optimus Prime on Uraya, far from Olga's other zones."""


def test_optimus_in_vehicle_form_jumps_besides_the_back_up() -> None:
    """Phase 4, OPTIMUS PRIME: "In vehicle form OPTIMUS PRIME can jump to any of your zones in
    Phase 4, even if they are not connected"; "You can move Optimus Prime as well as calling
    for back-up"."""
    state = in_phase("back-up", OPTIMUS_AWAY, forms={OLGA: "vehicle"})
    assert {"back-up", "jump", "end"} <= offered(state)
    state = play(state, "back-up from=autobase to=kalis robots=2", "jump to=launch-pad")
    assert state.at("launch-pad") == zone(OLGA, robots=1, leader=True)
    assert state.at("uraya") == zone(OLGA, robots=1)
    assert "jump" not in offered(state) and "back-up" not in offered(state)
    refused(state, "jump to=uraya", "has jumped")


def test_optimus_never_leaves_a_zone_empty() -> None:
    """Phase 4, OPTIMUS PRIME: "Remember: you cannot leave a zone empty"."""
    state = in_phase("back-up", {**OPTIMUS_AWAY, "uraya": zone(OLGA, leader=True)},
                     forms={OLGA: "vehicle"})
    assert "jump" not in offered(state)
    refused(state, "jump to=launch-pad", "cannot leave a zone empty")


@pytest.mark.parametrize(("players", "forms", "seat"), [(2, {}, OLGA),
                                                        (2, {PATRICK: "vehicle"}, PATRICK)])
def test_only_optimus_in_vehicle_form_jumps(players: int, forms: dict[int, str],
                                            seat: int) -> None:
    """Leaders: "OPTIMUS PRIME (Truck): During Phase 4, you can move OPTIMUS PRIME in vehicle
    form to any zone you control" (robot form, or Megatron: no jump)."""
    layout = {"uraya": zone(seat, robots=1, leader=True), "launch-pad": zone(seat, robots=1)}
    state = in_phase("back-up", layout, players=players, forms=forms, current=seat)
    refused(state, "jump to=launch-pad", "only Optimus Prime")


# -- Phase 4: giving a zone (4 players) ----------------------------------------------------------

GIFT = {"kalis": zone(OLGA, robots=2, leader=True), "autobase": zone(OLGA, robots=3),
        "launch-pad": zone(OLGA, robots=1)}


def test_four_players_give_a_zone_instead_of_back_up() -> None:
    """4-Player Game: "you can give a zone to your teammate instead of calling for back-up. ...
    2. Put all robots from that zone on your scrapheap. 3. Your teammate puts a robot from his
    scrapheap into the zone. He now owns that zone." A16: the leader goes to the scrapheap."""
    state = in_phase("back-up", GIFT, players=4)
    olga, paula = state.seats[OLGA], state.seats[PAULA]
    assert "gift" in offered(state)
    state = play(state, "gift zone=kalis")
    assert state.at("kalis") == zone(PAULA, robots=1)
    assert state.seats[OLGA].scrap_robots == olga.scrap_robots + 2
    assert state.seats[OLGA].scrapped
    assert state.seats[PAULA].scrap_robots == paula.scrap_robots - 1
    refused(state, "back-up from=autobase to=launch-pad robots=1", "one back-up move")


def test_back_up_then_no_gift_and_no_gift_with_two_players() -> None:
    """4-Player Game: the gift is "instead of calling for back-up"; there is no teammate in the
    2-player game."""
    state = play(in_phase("back-up", GIFT, players=4),
                 "back-up from=autobase to=launch-pad robots=1")
    refused(state, "gift zone=kalis", "instead of calling for back-up")
    refused(in_phase("back-up", GIFT), "gift zone=kalis", "only to a teammate")


@pytest.mark.parametrize(("choice", "jumps"), [("true", True), ("false", False)])
def test_optimus_jumps_after_a_gift_as_the_option_says(choice: str, jumps: bool) -> None:
    """A17: Optimus may still jump when the player gifts a zone instead of backing up
    (``gift-jump``)."""
    layout = {**OPTIMUS_AWAY, "kalis": zone(OLGA, robots=1)}
    state = in_phase("back-up", layout, players=4, forms={OLGA: "vehicle"},
                     **{"gift-jump": choice})
    state = play(state, "gift zone=kalis")
    assert ("jump" in offered(state)) is jumps
    if jumps:
        assert play(state, "jump to=autobase").at("autobase").leader
    else:
        refused(state, "jump to=autobase", "gift-jump=false")


# -- Phase 5 ------------------------------------------------------------------------------------

HELD = {"autobase": zone(OLGA, robots=2), "kalis": zone(OLGA, robots=1)}


def test_no_capture_no_card() -> None:
    """Phase 5: "If you captured another player's zone on this turn, draw an upgrade card"."""
    state = in_phase("draw", HELD)
    assert "draw" not in offered(state)
    refused(state, "draw", "captured no zone")
    after = play(state, "end")
    assert (after.current, after.phase, after.seats[OLGA].hand) == (PATRICK, "place", ())


def test_a_capture_draws_exactly_one_card_and_ends_the_turn() -> None:
    """Phase 5: "You can only draw one card per turn, even if you captured more than one
    zone"; "At the end of Phase 5, your turn is over"."""
    state = replace(in_phase("draw", HELD), captured=True)
    assert offered(state) == {"draw"}
    refused(state, "end", "draw the card first")
    card = state.board.card_ids[0]
    after = play(state, f"draw card={card}")
    assert after.seats[OLGA].hand == (card,) and after.pile == state.pile - 1
    assert (after.current, after.phase) == (PATRICK, "place")
    refused(after, "draw by=olga", "only in Phase 5")


def test_the_card_may_be_drawn_face_down() -> None:
    """Phase 5: "Keep the card hidden from other players until you are ready to play it" (Drew:
    empty, face down)."""
    state = play(replace(in_phase("draw", HELD), captured=True), "draw")
    assert state.seats[OLGA].hand == ("",)


def test_a_named_card_must_be_in_the_draw_pile() -> None:
    """Phase 5: the card comes from the draw pile (one face up on the discard pile is not
    there)."""
    state = in_phase("draw", HELD)
    cards = state.board.card_ids
    card = next(card for card in cards if cards.count(card) == 1)
    state = replace(state, captured=True, discard=(card,), pile=state.pile - 1)
    refused(state, f"draw card={card}", "not in the draw pile")


def test_an_empty_draw_pile_is_the_discards_reshuffled() -> None:
    """A11: Empty draw pile: reshuffle the discards."""
    state = in_phase("draw", HELD)
    state = replace(state, captured=True, pile=0, discard=state.board.card_ids)
    card = state.board.card_ids[-1]
    after = play(state, f"draw card={card}")
    assert after.discard == () and after.pile == len(state.board.card_ids) - 1
    assert after.seats[OLGA].hand == (card,)


def test_no_card_left_anywhere_ends_the_turn() -> None:
    """A11 with nothing to reshuffle: every card is in a hand, so the capture draws nothing."""
    state = in_phase("draw", HELD)
    state = replace(state, captured=True, pile=0)
    state = replace(state, seats=(replace(state.seats[OLGA], hand=state.board.card_ids),
                                  *state.seats[1:]))
    assert invariant_errors(state) == []
    assert play(state, "end").current == PATRICK


OLGA_ATTACKS = {"hexima-state": zone(OLGA, robots=4, leader=True),
                "launch-pad": zone(PATRICK, robots=2), "kalis": zone(OLGA, robots=1)}


def test_a_turn_with_a_capture_runs_through_phases_4_and_5() -> None:
    """Taking Your Turn: Phase 3 (a capture), "4. Phase 4: Call for Back-Up (Optional)", "5.
    Phase 5: Draw a Card"; ``end turn=true`` stops at Phase 5 while the card is owed."""
    state = play(in_phase3(OLGA_ATTACKS), "attack from=hexima-state target=launch-pad robots=2 "
                 "leader=true", "defend by=patrick robots=2",
                 "roll attacker=d8:8,6,6 defender=5,5", "end")
    assert (state.phase, state.captured) == ("back-up", True)
    state = play(state, "back-up from=hexima-state to=kalis robots=1", "end turn=true")
    assert (state.phase, state.current) == ("draw", OLGA)
    state = play(state, "draw")
    assert (state.current, state.seats[OLGA].hand) == (PATRICK, ("",))
