"""A random legal player: deterministic for a seed, biased toward attacking so games end.

It proposes weighted candidate actions (out-of-turn tactics and helpers' troops included), then
returns the first, in a weighted random order, that the rules accept.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from tabletape.ledger.events import TABLE, Event
from tabletape.rules import dice
from tabletape.rules.bots import Candidate, first_legal
from tabletape.rules.dice import BATTLE_SIDES
from tabletape.rules.risk_strike.actions import attack_options
from tabletape.rules.risk_strike.events import (
    Attacked,
    Dealt,
    Deployed,
    Drew,
    Passed,
    Played,
    Resolved,
    Retreated,
    Rolled,
    RolledOff,
)
from tabletape.rules.risk_strike.moves import (
    deployers,
    dice_allowed,
    draw_need,
    expand_tactics,
    playable,
    resolve_roll,
    settle,
    shown_faces,
    step,
)
from tabletape.rules.risk_strike.state import (
    ARTILLERY,
    BOMBARD,
    CANCEL,
    CONTINENTS,
    HELPERS_STEP,
    NOBODY,
    SPY,
    TACTICS,
    TROOP,
    State,
    could_hold,
    drawable_kinds,
    tactics_left,
)


def choose(state: State, rng: random.Random) -> tuple[str, Event] | None:
    """A legal ``(actor, event)``, or None when the game is over."""
    if state.phase == "over":
        return None
    if state.turn == 0:
        return TABLE, setup_event(state, rng)
    def attempt(seat: int, event: Event) -> Event:
        step(state, seat, event)
        return event

    chosen = first_legal(list(propose(state, rng)), rng, attempt)
    return None if chosen is None else (state.name(chosen[0]), chosen[1])


def pick_continents(
    state: State, rng: random.Random, pile: tuple[int, ...], count: int, seat: int = NOBODY
) -> tuple[str, ...]:
    """``count`` continent cards as they might come off ``pile``; a player drawing by choice
    (``seat``) mostly takes what brings them nearest to a domination number."""
    left = list(pile)
    chosen = []
    for _ in range(count):
        options = [c for c, n in enumerate(left) if n]
        if seat != NOBODY and rng.random() < 0.7:
            held = state.seats[seat].continents
            c = max(options, key=lambda i: ((held[i] + 1) / state.domination[i], rng.random()))
        else:
            c = rng.choices(options, [left[i] for i in options])[0]
        left[c] -= 1
        chosen.append(CONTINENTS[c])
    return tuple(chosen)


def setup_event(state: State, rng: random.Random) -> Event:
    if state.phase == "roll-off":
        return RolledOff(dice=dice.roll(rng, len(state.contenders)))
    if state.phase == "fourth-card":
        second = state.order[1]
        return Dealt(
            player=state.name(second), continents=pick_continents(state, rng, state.deck, 1)
        )
    seat = state.dealt.index(False)
    named = tuple(rng.choice(drawable_kinds(state)) for _ in range(rng.randint(0, 1)))
    tactics = named + ((str(3 - len(named)),) if len(named) < 3 else ())
    return Dealt(
        player=state.name(seat),
        continents=pick_continents(state, rng, state.deck, 3),
        tactics=tactics,
    )


def propose(state: State, rng: random.Random) -> Iterator[Candidate]:
    """Weighted candidates: answers to a card just played, then what the settled state allows."""
    if state.pending is not None:
        yield 1.0, state.current, Resolved()
        for seat in range(len(state.seats)):
            if could_hold(state, seat, CANCEL):
                yield 0.6, seat, Played(card=TACTICS[CANCEL])
    settled = settle(state)
    current = settled.current
    if settled.expand_owed:
        yield 10.0, current, expand_draw(settled, rng)
        return
    if settled.phase == "draw":
        yield 10.0, current, turn_draw(settled, rng, current)
    elif settled.phase == "act":
        yield from act(settled, rng, current)
    elif settled.battle is not None:
        yield from battle(settled, rng)
    yield from plays(settled, rng)


def turn_draw(state: State, rng: random.Random, seat: int) -> Drew:
    need = draw_need(state)
    deck, lineup, tactics = list(state.deck), list(state.lineup), 0
    drawn: dict[str, list[str]] = {"continents": [], "lineup": []}
    for _ in range(need):
        piles = [("continents", deck), ("lineup", lineup)]
        piles = [(name, pile) for name, pile in piles if sum(pile)]
        if tactics < tactics_left(state) and (not piles or rng.random() < 0.35):
            tactics += 1
            continue
        name, pile = piles[0] if len(piles) == 1 or rng.random() < 0.7 else piles[1]
        picked = pick_continents(state, rng, tuple(pile), 1, seat)[0]
        pile[CONTINENTS.index(picked)] -= 1
        drawn[name].append(picked)
    return Drew(
        continents=tuple(drawn["continents"]),
        lineup=tuple(drawn["lineup"]),
        tactics=(str(tactics),) if tactics else (),
    )


def expand_draw(state: State, rng: random.Random) -> Drew:
    if sum(state.deck) and (not expand_tactics(state) or rng.random() < 0.7):
        count = min(2, sum(state.deck))
        return Drew(continents=pick_continents(state, rng, state.deck, count, state.current))
    return Drew(tactics=("1",))


def act(state: State, rng: random.Random, seat: int) -> Iterator[Candidate]:
    options = attack_options(state)
    if options:
        source, target, defender = rng.choice(options)
        yield 8.0, seat, Attacked(from_=source, target=target, defender=defender)
    named = drawable_kinds(state)
    drew = rng.choice(named) if named and rng.random() < 0.2 else ""
    yield 2.0, seat, Passed(drew=drew)


def battle(state: State, rng: random.Random) -> Iterator[Candidate]:
    fight = state.battle
    assert fight is not None
    if fight.step == "deploy":
        yield from deploys(state, rng)
    if fight.step == "rolled":
        yield 5.0, fight.attacker, Resolved()
        if fight.troops:  # the table may name whose troop a lost pair costs
            owner = state.name(rng.choice(fight.troops).owner)
            yield 1.0, fight.attacker, Resolved(lost=(owner,))
    if fight.deploy_step == HELPERS_STEP:
        yield 1.0, fight.attacker, Resolved()
    rolling = resolve_roll(state)
    if rolling.battle is not None:
        attack, defend = dice_allowed(rolling, rolling.battle)
        weight = 3.0 if fight.step in ("deploy", "rolled") else 8.0
        yield (
            weight,
            fight.attacker,
            Rolled(attacker=dice.roll(rng, attack), defender=dice.roll(rng, defend)),
        )
    if fight.rolls:
        yield 0.8, fight.attacker, Retreated()


def deploys(state: State, rng: random.Random) -> Iterator[Candidate]:
    """The deployers of this step: the attacker or defender deploy some troops or none, helpers
    some troops for a side."""
    fight = state.battle
    assert fight is not None
    for seat in deployers(state, fight):
        own = seat in (fight.attacker, fight.defender)
        if own:
            yield 1.0, seat, Deployed(troops=0)
        if not could_hold(state, seat, TROOP):
            continue
        troops = max(n for n in range(1, 4) if n == 1 or could_hold(state, seat, TROOP, n))
        count = rng.randint(1, troops)
        if own:
            yield 2.0, seat, Deployed(troops=count)
        else:
            yield 0.7, seat, Deployed(troops=count, side=rng.choice(BATTLE_SIDES))


def plays(state: State, rng: random.Random) -> Iterator[Candidate]:
    """Tactics cards each player could play now, out of turn included."""
    fight = state.battle
    for seat in range(len(state.seats)):
        for name in playable(state, seat):
            card = TACTICS.index(name)
            event = Played(card=name)
            if card == SPY:
                others = [s.name for i, s in enumerate(state.seats) if i != seat]
                event = Played(card=name, target=rng.choice(others))
            elif card == ARTILLERY and fight is not None:
                owners = sorted({troop.owner for troop in fight.troops})
                event = Played(card=name, target=state.name(rng.choice(owners)),
                               troops=rng.choice((0, 0, 1)))
            elif card == BOMBARD and fight is not None and fight.roll is not None:
                side = rng.choice(BATTLE_SIDES)
                event = Played(card=name, side=side,
                               die=rng.choice(shown_faces(fight.roll, side)))
            yield 0.5, seat, event
