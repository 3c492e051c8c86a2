"""Building Marvel United states for tests: start a game, fold typed lines."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tabletape.ledger.events import TABLE, Event, GameStarted
from tabletape.rules.actions import event_from, parse_action
from tabletape.rules.marvel_united import RULES
from tabletape.rules.marvel_united.state import State, invariant_errors

PLAYERS = ("Olga", "Patrick")


def started(players: Sequence[str] = PLAYERS, seed: int = 1, **options: str) -> GameStarted:
    return GameStarted(kind="marvel-united", rules_version=RULES.rules_version,
                       tabletape_version="test", players=tuple(players),
                       options=RULES.options(options, players), seed=seed)


def start(players: Sequence[str] = PLAYERS, **options: str) -> State:
    return RULES.start(started(players, **options))


def parse(state: State, line: str) -> tuple[str, Event]:
    """A typed line as ``(actor, event)``: ``by`` names the actor, else the only one allowed."""
    parsed = parse_action(line)
    event = event_from(parsed, RULES.event_types())
    actor = parsed.by or RULES.default_actor(state, parsed.action) or fallback_actor(state)
    return actor, event


def fallback_actor(state: State) -> str:
    """Whoever is expected to act now (for actions nobody may take: to read the refusal)."""
    active = RULES.turn(state).active
    return active[0] if len(active) == 1 else TABLE


def play(state: State, lines: Iterable[str]) -> State:
    """Fold typed lines, each checked, with the invariants after each."""
    for line in lines:
        actor, event = parse(state, line)
        RULES.check(state, actor, event)
        state = RULES.apply(state, actor, event)
        errors = invariant_errors(state)
        assert not errors, f"{line}: {errors}"
    return state


def refused(state: State, line: str) -> str:
    """The refusal of a typed line (fails when it is accepted)."""
    actor, event = parse(state, line)
    try:
        RULES.check(state, actor, event)
    except Exception as error:  # IllegalAction
        return str(error)
    raise AssertionError(f"{line} was accepted")


SETUP = ("setup locations=stark-labs,central-park,times-square,shield-helicarrier,police-hq,"
         "avengers-mansion threats=crossbones,subversion,madame-hydra,bob,hydra-elite-troops,"
         "brainwashing start=stark-labs on-move=madame-hydra")

QUIET_PLAN = "villain-turn card=plan-6 move=0 bam=false thugs=0,0,0 civilians=0,0,0 special=false"
"""A first Masterplan card that does nothing, so hero rules can be tested from a calm start."""


def ready(players: Sequence[str] = PLAYERS, hands: Sequence[str] = (), **options: str) -> State:
    """Set up, deal (``hands``: one comma list per player), play a quiet first villain turn:
    the heroes choose who starts."""
    state = start(players, **options)
    state = play(state, [SETUP])
    deals = [f"deal player={p} cards={h}" for p, h in zip(players, hands, strict=False)]
    for player in players[len(deals):]:
        deals.append(f"deal player={player} cards={default_hand(state, player)}")
    return play(state, [*deals, QUIET_PLAN])


def default_hand(state: State, player: str) -> str:
    from tabletape.rules.marvel_united.state import kinds, seat_of

    seat = seat_of(state, player)
    assert seat is not None
    return ",".join(kinds(state.heroes[seat].hero)[:3])
