"""The end of a day: the AllSpark and the day counter (spec T12; readings A10, A11, A19). Each
test quotes the rulebook passage it checks ("Rounds (Days)", "At the end of Phase 5...")."""

from __future__ import annotations

import random
from pathlib import Path

import msgspec
import pytest
from msgspec.structs import replace

from tabletape.ledger.store import Ledger
from tabletape.replay.recording import open_game, record_action
from tabletape.rules.kernel import IllegalAction
from tabletape.rules.risk_transformers import data
from tabletape.rules.risk_transformers.allspark import spark
from tabletape.rules.risk_transformers.events import AllSpark
from tabletape.rules.risk_transformers.state import (
    State,
    invariant_errors,
    with_seat,
    with_zone,
    zones_held,
)
from tests.games.risk_transformers.helpers import GAME, NAMES, recorded_game
from tests.games.risk_transformers.test_battle import in_phase3, play, refused, zone

OLGA, PATRICK, PAULA, QUENTIN = 0, 1, 2, 3
PERIHEX = "fusion-cannons"
"""The rulebook's sample card: "FUSION CANNONS ... Zone: Perihex"."""


def day_over(players: int = 2, day: int = 1, **layout: object) -> State:
    """The last seat's Phase 5 ended on ``day``: the round waits for its AllSpark card."""
    state = in_phase3({"perihex": zone(OLGA, robots=1)}, players=players,
                      current=players - 1)
    state = replace(state, phase="draw", day=day, **layout)  # type: ignore[arg-type]
    return play(state, "end")


def test_the_last_players_turn_ends_the_day_and_waits_for_the_allspark() -> None:
    """"At the end of Phase 5, your turn is over. If you are the last player, follow the steps in
    Rounds": the last player turns the AllSpark card, and no turn starts before it."""
    state = day_over()
    assert (state.phase, state.current, state.day) == ("allspark", PATRICK, 1)
    offered = GAME.legal_actions(state)
    assert [(spec.type, spec.actors) for spec in offered] == [("allspark", ("Patrick",))]
    assert PERIHEX in offered[0].fields[0].choices
    info = GAME.turn(state)
    assert info.active == ("Patrick",) and "AllSpark" in info.detail
    refused(state, "place zone=perihex by=olga", "turns the AllSpark card first")
    refused(state, "end", "turns the AllSpark card first")
    refused(state, f"allspark card={PERIHEX} by=olga", "only Patrick may turn the AllSpark")


def test_the_allspark_gives_three_robots_and_a_new_day_begins() -> None:
    """Rounds 1: "Take the top card from the draw pile. Place it faceup on the discard pile...
    The player who controls this zone immediately puts 3 robots from his scrapheap on it."
    Rounds 2: "Move the vehicle marker to the next square of the day counter. A new day begins
    and each player takes another turn." """
    state = day_over()
    scrap = state.seats[OLGA].scrap_robots
    after = play(state, f"allspark card={PERIHEX}")
    assert after.at("perihex").robots == 1 + data.ALLSPARK.value
    day_two = sum(receipt.robots for receipt in after.received)  # Olga's Phase 1, step A
    assert after.seats[OLGA].scrap_robots == scrap - data.ALLSPARK.value - day_two
    assert after.discard == (PERIHEX,) and after.pile == state.pile - 1
    assert (after.day, after.phase, after.step, after.current) == (2, "place", "B", OLGA)


def test_a_short_scrapheap_gives_what_it_has() -> None:
    """A10: "Empty scrapheap (opening, AllSpark, gifting, Phase 1 gains): place what exists"
    (one robot and no vehicle left, the vehicles all on the board: nothing to exchange, see
    test_scrapheap.py)."""
    state = day_over()
    olga = state.seats[OLGA]
    state = with_seat(state, OLGA, scrap_robots=1, scrap_vehicles=0, operational=olga.operational
                      + olga.scrap_robots - 1)
    state = with_zone(state, state.place("perihex"),
                      replace(state.at("perihex"), vehicles=olga.scrap_vehicles))
    after = play(state, f"allspark card={PERIHEX}")
    assert after.at("perihex").robots == 2 and after.seats[OLGA].scrap_robots == 0
    # nothing left for day 2's Phase 1 either: step A's robots are all short, and say so
    step_a = after.received[0]
    assert (step_a.robots, step_a.short) == (0, after.board.robots_for(zones_held(after, OLGA)))
    assert "short: the scrapheap holds no more robots, A10" in GAME.turn(after).detail


def test_the_card_must_be_in_the_draw_pile() -> None:
    """Rounds 1, "the top card from the draw pile": a card face up on the discards is not."""
    state = day_over(discard=(PERIHEX,), pile=len(GAME_CARDS) - 1)
    refused(state, f"allspark card={PERIHEX}", "fusion-cannons is not in the draw pile")
    refused(state, "allspark card=", "name the card turned")


GAME_CARDS = in_phase3({}).board.card_ids


def test_an_empty_draw_pile_is_the_discards_reshuffled() -> None:
    """A11: "Empty draw pile: reshuffle the discards" (the card then comes from them)."""
    state = day_over(pile=0, discard=GAME_CARDS)
    after = play(state, f"allspark card={PERIHEX}")
    assert after.discard == (PERIHEX,) and after.pile == len(GAME_CARDS) - 1


def test_no_card_anywhere_moves_the_day_at_once() -> None:
    """NO_ALLSPARK_CARD (I): every card in a hand, there is no top card to turn: the day marker
    moves on without an AllSpark."""
    state = in_phase3({}, current=PATRICK)
    state = with_seat(replace(state, phase="draw", pile=0), OLGA, hand=GAME_CARDS)
    assert invariant_errors(state) == [] and data.NO_ALLSPARK_CARD.mark == "I"
    after = play(state, "end")
    assert (after.day, after.phase, after.current) == (2, "place", OLGA)


def test_tabletape_turns_the_card_when_left_empty() -> None:
    """Like the dice, a card the table leaves empty is drawn from the seeded generator, over the
    cards nobody has seen; the same seed turns the same card."""
    state = day_over(pile=3, discard=GAME_CARDS[3:])
    first = GAME.complete(state, "Patrick", AllSpark(card=""), random.Random(7))
    again = GAME.complete(state, "Patrick", AllSpark(card=""), random.Random(7))
    assert isinstance(first, AllSpark) and first == again and first.card in GAME_CARDS[:3]
    named = AllSpark(card=PERIHEX)
    assert GAME.complete(state, "Patrick", named, random.Random(7)) is named


def test_the_allspark_on_a_closed_factory_gives_nothing() -> None:
    """A3: "A closed factory is not a zone": nobody controls it, so nobody gets robots."""
    state = day_over()
    factory = next(iter(state.board.factories.values()))
    assert spark(state, factory) == state and spark(state, "perihex") != state


def test_six_days_then_the_game_is_over() -> None:
    """"The game is played over 6 days (rounds)"; Rounds 2: "If there are no days left, the game
    is over"; A19: "the AllSpark also happens after day 6, before scoring"."""
    state = day_over(day=data.DAYS.value)
    after = play(state, f"allspark card={PERIHEX}")
    assert (after.phase, after.day) == ("over", 6)
    assert after.at("perihex").robots == 1 + data.ALLSPARK.value
    assert GAME.legal_actions(after) == () and GAME.turn(after).active == ()
    assert GAME.result(after) is not None
    refused(after, "place zone=perihex", "the game is over: .* won")


def test_four_players_the_last_player_is_the_last_seat() -> None:
    """A19: "4 players: the 'last player' is the last seat from the youngest"; A15: "eliminated
    players are skipped": with the last seat out, the seat before it ends the day."""
    state = day_over(players=4)
    assert (state.phase, state.current) == ("allspark", QUENTIN)
    state = in_phase3({"perihex": zone(OLGA, robots=1)}, players=4, current=PAULA,
                      rest=PAULA)
    state = replace(state, phase="draw", seats=(*state.seats[:3],
                                                 replace(state.seats[3], eliminated=True)))
    assert (play(state, "end").phase, play(state, "end").current) == ("allspark", PAULA)


def test_a_day_is_every_seat_in_turn() -> None:
    """"Each day everyone takes a turn": day 1 Olga then Patrick, then the AllSpark, day 2 Olga."""
    state = in_phase3({"perihex": zone(OLGA, robots=1)})
    state = play(replace(state, phase="draw"), "end")
    assert (state.current, state.day, state.phase) == (PATRICK, 1, "place")
    state = play(state, "place zone=kalis", "place zone=kalis "
                 f"count={state.seats[PATRICK].operational - 1}", "end turn=true")
    assert (state.current, state.phase) == (PATRICK, "allspark")
    assert play(state, f"allspark card={PERIHEX}").current == OLGA


# -- a whole round through the ledger -------------------------------------------------------------


@pytest.fixture
def ledger_game(tmp_path: Path) -> tuple[Ledger, str]:
    """A 2-player game (leftovers kept for Phase 1) in a scratch ledger."""
    ledger = Ledger(tmp_path)
    return ledger, recorded_game(ledger, leftover="keep")


def test_a_whole_round_is_recorded_and_folds_back(ledger_game: tuple[Ledger, str]) -> None:
    """Setup 5, day 1's two turns and the AllSpark typed as a table types them; the AllSpark card
    left empty is turned by tabletape and stored, so the log folds back to the same state."""
    ledger, game = ledger_game
    folded = open_game(ledger, game)
    while folded.state.phase == "setup":
        spec = GAME.legal_actions(folded.state)[0]
        folded, _ = record_action(ledger, game, f"place zone={spec.fields[0].choices[0]}")
    for _ in NAMES[:2]:
        state = folded.state
        home = state.places[next(p for p, z in enumerate(state.zones) if z.owner == state.current)]
        folded, _ = record_action(ledger, game, f"place zone={home}")
        count = folded.state.seats[state.current].operational
        folded, _ = record_action(ledger, game, f"place zone={home} count={count}")
        folded, _ = record_action(ledger, game, "end turn=true")
    assert (folded.state.phase, folded.state.day) == ("allspark", 1)
    with pytest.raises(IllegalAction, match="turns the AllSpark card first"):
        record_action(ledger, game, "end")
    folded, record = record_action(ledger, game, "allspark")
    card = msgspec.json.decode(record.payload)["card"]
    assert card and folded.state.discard == (card,)
    assert (folded.state.day, folded.state.current, folded.state.phase) == (2, 0, "place")
    assert invariant_errors(folded.state) == []
    assert open_game(ledger, game).state == folded.state


def test_a_new_day_skips_an_eliminated_first_seat() -> None:
    """A15: "eliminated players are skipped": with Olga out, day 2 begins with Patrick."""
    state = in_phase3({"perihex": zone(PATRICK, robots=1)}, players=3, current=PAULA, rest=PAULA)
    state = replace(state, phase="draw", seats=(replace(state.seats[OLGA], eliminated=True),
                                                *state.seats[1:]))
    after = play(state, "end", f"allspark card={PERIHEX}")
    assert (after.day, after.current, after.phase) == (2, PATRICK, "place")
