"""Building Risk: Deep Space states for tests: start a game, fold typed lines."""

from __future__ import annotations

from collections.abc import Sequence

from msgspec.structs import replace

from tabletape.ledger.events import TABLE, Event, GameStarted
from tabletape.rules.actions import event_from, parse_action
from tabletape.rules.risk_deep_space import RULES
from tabletape.rules.risk_deep_space.state import (
    CARDS,
    State,
    invariant_errors,
    set_recruits,
    with_seat,
)

TWO = ("Olga", "Patrick")


def started(players: Sequence[str] = TWO, seed: int = 1, **options: str) -> GameStarted:
    return GameStarted(kind="risk-deep-space", rules_version=RULES.rules_version,
                       tabletape_version="test", players=tuple(players),
                       options=RULES.options(options, players), seed=seed)


def start(players: Sequence[str] = TWO, **options: str) -> State:
    return RULES.start(started(players, **options))


def parse(state: State, line: str) -> tuple[str, Event]:
    """A typed line as ``(actor, event)``, the way the CLI reads it: ``by`` names the actor,
    else the only player allowed that action, else the player whose turn it is (or the table)."""
    parsed = parse_action(line)
    actor = (parsed.by or RULES.default_actor(state, parsed.action)
             or (state.name(state.current) if state.phase == "turn" else TABLE))
    return actor, event_from(parsed, RULES.event_types())


def play(state: State, *lines: str) -> State:
    """Fold typed lines: each is checked, then applied, and everything must still add up."""
    for line in lines:
        actor, event = parse(state, line)
        RULES.check(state, actor, event)
        state = RULES.apply(state, actor, event)
        assert invariant_errors(state) == [], (line, invariant_errors(state))
    return state


SETUP_TWO = (
    "deal player=olga cards=energy-boost,air-leak",
    "deal player=patrick cards=tractor-beam,bribe-a-rival",
    "cover planets=nw-corner,se-corner",
    "roll-off dice=6,2",
)


def ready(players: Sequence[str] = TWO, *lines: str, **options: str) -> State:
    """A game past setup (Olga first), then ``lines``."""
    state = start(players, **options)
    if len(players) == 2:
        state = play(state, *SETUP_TWO)
    else:
        hands = ["energy-boost,air-leak", "tractor-beam,bribe-a-rival", "mail-from-mom,air-leak",
                 "energy-boost,tractor-beam"]
        for name, hand in zip(players, hands, strict=False):
            state = play(state, f"deal player={name} cards={hand}")
        dice = ",".join("6" if i == 0 else "1" for i in range(len(players)))
        state = play(state, f"roll-off dice={dice}")
    return play(state, *lines)


def grant(state: State, seat: int, *, gems: int = 0, ore: int = 0) -> State:
    """``seat`` takes ``gems`` and ``ore`` from the supply (negative: gives them back)."""
    me = state.seats[seat]
    state = replace(state, gems=state.gems - gems, ore=state.ore - ore)
    return with_seat(state, seat, gems=me.gems + gems, ore=me.ore + ore)


def holding(state: State, seat: int, *cards: str) -> State:
    """``seat``'s hand put back in the deck, and ``cards`` taken from it instead."""
    deck = list(state.deck)
    for card in state.seats[seat].hand:
        deck[CARDS.index(card)] += 1
    for card in cards:
        deck[CARDS.index(card)] -= 1
    return with_seat(replace(state, deck=tuple(deck)), seat, hand=cards)


def spread(state: State, space: str, seat: int, count: int) -> State:
    """``seat`` has ``count`` Recruits on ``space``, the difference taken from (or put back in)
    their supply."""
    index = state.board.index(space)
    now = state.recruits[index] if state.holders[index] == seat else 0
    state = with_seat(state, seat, supply=state.seats[seat].supply - (count - now))
    return set_recruits(state, index, seat, count)


def planet(state: State, space: str) -> tuple[str | None, int]:
    """Who holds ``space`` and with how many Recruits."""
    p = state.board.index(space)
    who = state.holders[p]
    return (state.name(who) if who >= 0 else None), state.recruits[p]
