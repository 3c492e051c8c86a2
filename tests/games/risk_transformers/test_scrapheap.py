"""Robots taken from a scrapheap are paid in robot units (``scrap-vehicles=exchange``, A10).

Setup 3: "Vehicle (worth 3 robots)"; Things to Know: "You can exchange 3 robots for 1 vehicle,
or vice versa, at any time." A scrapheap out of robots pays with its vehicles, 3 robots each, as
often as needed; only with no robot and no vehicle left is a receipt short (A10: "Empty
scrapheap (opening, AllSpark, gifting, Phase 1 gains): place what exists"). ``idle`` keeps the
literal reading: the vehicles stay on the scrapheap.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from msgspec.structs import replace

from tabletape.replay.games.risk_transformers import scrapheap_news
from tabletape.replay.simulate import simulated_started
from tabletape.rules.fair_dice import dice_rng
from tabletape.rules.kernel import BadOptions, IllegalAction
from tabletape.rules.risk_transformers import data
from tabletape.rules.risk_transformers.allspark import spark
from tabletape.rules.risk_transformers.battle import remove
from tabletape.rules.risk_transformers.events import Changed
from tabletape.rules.risk_transformers.options import readings
from tabletape.rules.risk_transformers.state import (
    Receipt,
    State,
    Zone,
    invariant_errors,
    with_seat,
    zones_held,
)
from tests.games.risk_transformers.helpers import GAME, NAMES, dealt, playing
from tests.games.risk_transformers.test_backup import GIFT, PAULA, in_phase
from tests.games.risk_transformers.test_battle import OLGA, PATRICK, in_phase3, play, zone
from tests.games.risk_transformers.test_phases import act, in_phase_two

WORTH = data.VEHICLE_WORTH.value
IDLE = {"scrap-vehicles": "idle"}


def out_of_robots(state: State, seat: int) -> State:
    """``seat``'s scrapheap robots moved to the operational pile: only vehicles left there."""
    me = state.seats[seat]
    return with_seat(state, seat, scrap_robots=0, operational=me.operational + me.scrap_robots)


def day_over(**options: Any) -> State:
    """Patrick's Phase 5 of day 1 ended, Olga (on Perihex) with vehicles only on her scrapheap:
    the round waits for its AllSpark card."""
    state = in_phase3({"perihex": zone(OLGA, robots=1)}, current=PATRICK, **options)
    return play(out_of_robots(replace(state, phase="draw"), OLGA), "end")


def test_step_a_is_paid_with_scrapheap_vehicles() -> None:
    """Phase 1 A: "count the number of zones you control and divide by 3" robots from the
    scrapheap; "You can exchange 3 robots for 1 vehicle ... at any time": with no robot there,
    vehicles are exchanged, 3 robots each, and the receipt is whole."""
    state = play(day_over(), "allspark card=fusion-cannons")
    owed = state.board.robots_for(zones_held(state, OLGA))
    step_a = state.received[0]
    vehicles = -(-owed // WORTH)
    assert (step_a.robots, step_a.short, step_a.exchanged) == (owed, 0, vehicles)
    olga = state.seats[OLGA]
    assert olga.scrap_vehicles == data.ARMY.value["vehicles"] - 1 - vehicles  # 1: the AllSpark
    assert olga.scrap_robots == WORTH * vehicles - owed
    assert "exchanged for 3 robots" in GAME.turn(state).detail


def test_the_allspark_is_paid_with_a_scrapheap_vehicle() -> None:
    """Rounds 1: "The player who controls this zone immediately puts 3 robots from his
    scrapheap on it": a vehicle on the scrapheap is exchanged for those 3 robots."""
    state = day_over()
    vehicles = state.seats[OLGA].scrap_vehicles
    after = spark(state, "perihex")
    assert after.at("perihex") == zone(OLGA, robots=1 + data.ALLSPARK.value)
    assert (after.seats[OLGA].scrap_robots, after.seats[OLGA].scrap_vehicles) == (0, vehicles - 1)
    assert invariant_errors(after) == []


def test_a_factory_opens_with_only_vehicles_on_the_scrapheap() -> None:
    """Sliding Zones: "Open the zone to reveal a secret war factory. Place a robot from your
    scrapheap in the war factory": a vehicle there is exchanged for 3 robots, one goes in."""
    state = out_of_robots(dealt(in_phase_two(playing(2)), OLGA, "fusion-cannons"), OLGA)
    vehicles = state.seats[OLGA].scrap_vehicles
    after = act(state, NAMES[OLGA], Changed(card="fusion-cannons", zone="decagon", to="open"))
    assert after.at("decagon-factory") == Zone(owner=OLGA, robots=1)
    assert (after.seats[OLGA].scrap_robots, after.seats[OLGA].scrap_vehicles) == (
        WORTH - 1, vehicles - 1)


def test_a_teammate_pays_the_gift_with_a_vehicle() -> None:
    """4-Player Game: "Your teammate puts a robot from his scrapheap into the zone": with only
    vehicles there, one is exchanged for 3 robots."""
    state = out_of_robots(in_phase("back-up", GIFT, players=4), PAULA)
    vehicles = state.seats[PAULA].scrap_vehicles
    state = play(state, "gift zone=kalis")
    assert state.at("kalis") == zone(PAULA, robots=1)
    assert (state.seats[PAULA].scrap_robots, state.seats[PAULA].scrap_vehicles) == (
        WORTH - 1, vehicles - 1)


def test_idle_vehicles_leave_the_receipt_short() -> None:
    """A10 read literally (``scrap-vehicles=idle``): "Empty scrapheap ...: place what exists":
    no robot on the scrapheap gives none, its vehicles stay, the shortfall is said."""
    state = day_over(**IDLE)
    vehicles = state.seats[OLGA].scrap_vehicles
    after = play(state, "allspark card=fusion-cannons")
    assert after.at("perihex") == zone(OLGA, robots=1)
    owed = after.board.robots_for(zones_held(after, OLGA))
    assert after.received[0] == Receipt(after.received[0].source, 0, short=owed)
    assert after.seats[OLGA].scrap_vehicles == vehicles
    assert "short: the scrapheap holds no more robots, A10" in GAME.turn(after).detail
    opening = out_of_robots(dealt(in_phase_two(playing(2, **IDLE)), OLGA, "fusion-cannons"), OLGA)
    with pytest.raises(IllegalAction, match="no robot on the scrapheap"):
        act(opening, NAMES[OLGA], Changed(card="fusion-cannons", zone="decagon", to="open"))


def test_the_option_is_a_reading_of_a10() -> None:
    """The default is ours (mark I), the literal reading the table's choice; a typo is named."""
    default = [row for row in readings(playing(2).settings) if row["option"] == "scrap-vehicles"]
    assert [(r["reading"], r["value"], r["mark"]) for r in default] == [("A10", "exchange", "I")]
    chosen = [row for row in readings(playing(2, **IDLE).settings)
              if row["option"] == "scrap-vehicles"]
    assert [(r["value"], r["mark"]) for r in chosen] == [("idle", "table")]
    with pytest.raises(BadOptions, match="did you mean 'idle'"):
        GAME.options({"scrap-vehicles": "idel"}, NAMES[:2])


def short_receipts(seed: int, reading: str) -> list[tuple[int, Receipt, int]]:
    """Seeded 2-player bot game ``seed``: each Phase 1 receipt that came short, with its day and
    the vehicles then left on the receiver's scrapheap."""
    state = GAME.start(simulated_started(GAME, 2, seed, {"scrap-vehicles": reading}))
    rng, short, count = random.Random(seed), [], 0
    while GAME.result(state) is None and (choice := GAME.bot_action(state, rng)) is not None:
        actor, event = choice
        after = GAME.apply(state, actor, GAME.complete(state, actor, event,
                                                       dice_rng(seed, count + 2)))
        new = after.received if after.turn != state.turn else after.received[len(state.received):]
        short += [(after.day, r, after.seats[after.current].scrap_vehicles)
                  for r in new if r.short]
        state, count = after, count + 1
    return short


@pytest.mark.slow
def test_bot_games_no_longer_starve_while_vehicles_sit_on_the_scrapheap() -> None:
    """The table trial's 2-player games: with ``idle`` both scrapheaps run out of robots by day
    3 while 10 vehicles sit there; paid in robot units, a receipt is short only once the
    scrapheap holds no vehicle either, and fewer robots are owed and never given."""
    seeds = range(8)
    idle = [entry for seed in seeds for entry in short_receipts(seed, "idle")]
    exchange = [entry for seed in seeds for entry in short_receipts(seed, "exchange")]
    assert any(vehicles for _, _, vehicles in idle)
    assert all(vehicles == 0 for _, _, vehicles in exchange)
    assert sum(r.short for _, r, _ in exchange) < sum(r.short for _, r, _ in idle)
    never = data.DAYS.value + 1
    assert min((day for day, _, _ in exchange), default=never) > min(day for day, _, _ in idle)


@pytest.mark.parametrize(("reading", "back", "told"), [
    ("exchange", WORTH - 1, "Patrick exchanges a vehicle for 3 robots and puts one of them on the "
                            "scrapheap."),
    ("idle", 0, "Patrick exchanges a vehicle for robots and puts it on the scrapheap: 0 robots "
                "come back.")])
def test_a_vehicle_lost_in_battle_gets_its_robots_back(reading: str, back: int,
                                                       told: str) -> None:
    """Battle Example 7: "Black exchanges a vehicle for 3 robots and puts one of them on his
    scrapheap": with no robot on the scrapheap the vehicle itself pays them (exchange); idle,
    none come back (A10)."""
    state = in_phase3({"hexima-state": zone(PATRICK, robots=3, vehicles=1),
                       "launch-pad": zone(OLGA, robots=1, leader=True)}, current=PATRICK,
                      **{"scrap-vehicles": reading})
    state = out_of_robots(play(state, "attack from=hexima-state target=launch-pad robots=3",
                               "defend by=olga robots=1 leader=true"), PATRICK)
    after = remove(state, PATRICK, state.place("hexima-state"), "vehicle", "")
    assert after.at("hexima-state") == zone(PATRICK, robots=3 + back)
    assert invariant_errors(after) == []
    assert scrapheap_news(state, after) == [told]
