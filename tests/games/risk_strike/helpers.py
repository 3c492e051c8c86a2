"""Building Risk Strike states for tests: start a game, fold typed lines or events."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import msgspec

from tabletape.ledger.events import TABLE, Event, GameStarted
from tabletape.rules.kernel import split_list
from tabletape.rules.risk_strike import RULES
from tabletape.rules.risk_strike.state import State, draw_tactics, invariant_errors


def started(
    players: Sequence[str] = ("Olga", "Patrick"), seed: int = 1, **options: str
) -> GameStarted:
    return GameStarted(
        kind="risk-strike",
        rules_version=RULES.rules_version,
        tabletape_version="test",
        players=tuple(players),
        options=RULES.options(options, players),
        seed=seed,
    )


def start(players: Sequence[str] = ("Olga", "Patrick"), **options: str) -> State:
    return RULES.start(started(players, **options))


def parse(state: State, line: str) -> tuple[str, Event]:
    """``roll attacker=6,3,2 defender=5,5 by=olga`` as ``(actor, event)``, the way the CLI
    reads a line: ``by`` names the actor, else the only player allowed that action (for an
    action nobody may take now: the player whose turn it is, or the table in setup)."""
    action, *pairs = line.split()
    values = dict(pair.split("=", 1) for pair in pairs)
    actor = values.pop("by", None) or RULES.default_actor(state, action) or fallback_actor(state)
    cls = RULES.event_types()[action]
    types = {f.encode_name: f.type for f in msgspec.structs.fields(cls)}
    raw = {key: split_list(value, types[key]) for key, value in values.items()}
    return actor, msgspec.convert(raw, cls, strict=False)


def fallback_actor(state: State) -> str:
    return state.name(state.current) if state.turn else TABLE


def play(state: State, *lines: str) -> State:
    """Fold typed lines: each is checked, then applied, and the cards must still add up."""
    for line in lines:
        actor, event = parse(state, line)
        state = fold(state, [(actor, event)])
    return state


def fold(state: State, events: Iterable[tuple[str, Event]]) -> State:
    for actor, event in events:
        RULES.check(state, actor, event)
        state = RULES.apply(state, actor, event)
        assert invariant_errors(state) == [], invariant_errors(state)
    return state


def dealt(
    players: Sequence[str] = ("Olga", "Patrick"),
    *hands: str,
    first: int = 0,
    fourth: str = "africa",
    **options: str,
) -> State:
    """A game just past setup: ``hands`` are the deal lines' ``continents=... tactics=...``
    parts in seat order; the player at ``first`` wins the roll-off."""
    state = start(players, **options)
    for name, hand in zip(players, hands, strict=False):
        state = play(state, f"deal player={name} {hand}")
    dice = ",".join("6" if i == first else "1" for i in range(len(players)))
    state = play(state, f"roll-off dice={dice}")
    if len(players) == 2:
        state = play(state, f"deal player={players[1 - first]} continents={fourth}")
    return state


__all__ = ["TABLE", "dealt", "deck_into_hand", "fold", "parse", "play", "start", "started"]


def deck_into_hand(state: State, seat: int) -> State:
    """The tactics deck, all of it, drawn face down into one hand (to reach an empty deck)."""
    return draw_tactics(state, seat, [None] * state.tactics_deck)
