"""Face-down tactics cards across reshuffles: what each hand's unnamed cards could be.

Design rule 4: hidden information is first-class. Every tactics deck is a *generation*: the first
is the boxed 40 cards; each reshuffle makes a new one from the discard pile, whose cards were all
seen, so its make-up is known. A card drawn face down is one of the cards its generation still
had. When a face-down card is played it is named, but which generation it came from is not known
when the hand holds face-down cards of several: each possibility is kept as a *world*.

A world is one past consistent with everything recorded: per generation still in play, oldest
first, the cards of each kind that are still hidden (face down in a hand, or in the deck) and how
many face-down cards each hand holds from it. The last generation is the deck in play. A play, a
deployment or a named draw is legal when some world allows it; the worlds that do not are dropped.
Generations no hand holds cards of (other than the deck in play) no longer matter and are dropped,
so there are seldom more than two, and few worlds.

>>> worlds = first_world((2, 1), players=2)
>>> worlds = drew_face_down(worlds, seat=0)
>>> could_reveal(worlds, seat=0, card=1, count=1), could_reveal(worlds, seat=1, card=1, count=1)
(True, False)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import msgspec
from msgspec.structs import replace

Counts = tuple[int, ...]


class Generation(msgspec.Struct, frozen=True, gc=False):
    """One deck's cards as one world sees them."""

    left: Counts
    """Cards of each kind from this deck still hidden: in it, or face down in a hand."""
    hands: Counts
    """Face-down cards from this deck in each hand, by seat."""


World = tuple[Generation, ...]
"""One possible past: the generations still in play, oldest first; the last is the deck."""


def _bump(counts: Counts, index: int, by: int) -> Counts:
    changed = [*counts]
    changed[index] += by
    return tuple(changed)


def first_world(deck: Counts, players: int) -> tuple[World, ...]:
    """The boxed deck, nobody holding any of it yet."""
    return ((Generation(deck, (0,) * players),),)


def drew_face_down(worlds: tuple[World, ...], seat: int, count: int = 1) -> tuple[World, ...]:
    """``seat`` draws ``count`` cards from the deck without naming them."""
    return tuple(
        (*world[:-1], replace(world[-1], hands=_bump(world[-1].hands, seat, count)))
        for world in worlds
    )


def drew_named(worlds: tuple[World, ...], card: int) -> tuple[World, ...]:
    """A card of kind ``card`` comes off the deck face up (or named): the worlds where the deck
    could still hold one (none: it cannot be there)."""
    return tuple(
        (*world[:-1], replace(world[-1], left=_bump(world[-1].left, card, -1)))
        for world in worlds
        if world[-1].left[card]
    )


def reshuffled(worlds: tuple[World, ...], pile: Counts) -> tuple[World, ...]:
    """The (empty) deck is replaced by the discard pile ``pile``, shuffled."""
    fresh = Generation(pile, (0,) * len(worlds[0][0].hands))
    return unique(_pruned((*world, fresh)) for world in worlds)


def revealed(worlds: tuple[World, ...], seat: int, card: int, count: int = 1) -> tuple[World, ...]:
    """``count`` of ``seat``'s face-down cards turn out to be ``card``: every world where they
    could be, one per way of sharing them among the generations they may come from."""
    return unique(
        _pruned(found) for world in worlds for found in _splits(world, seat, card, count, 0)
    )


def _splits(world: World, seat: int, card: int, count: int, start: int) -> Iterator[World]:
    if count == 0:
        yield world
        return
    for index in range(start, len(world)):
        generation = world[index]
        if generation.hands[seat] and generation.left[card]:
            taken = Generation(_bump(generation.left, card, -1), _bump(generation.hands, seat, -1))
            changed = (*world[:index], taken, *world[index + 1 :])
            yield from _splits(changed, seat, card, count - 1, index)


def could_reveal(worlds: tuple[World, ...], seat: int, card: int, count: int) -> bool:
    """Whether ``count`` of ``seat``'s face-down cards can be ``card`` in some world."""
    return any(
        sum(min(g.hands[seat], g.left[card]) for g in world) >= count for world in worlds
    )


def deck_kinds(worlds: tuple[World, ...]) -> tuple[int, ...]:
    """Kinds the deck in play could give next (when it is not empty)."""
    kinds = len(worlds[0][-1].left) if worlds else 0
    return tuple(k for k in range(kinds) if any(world[-1].left[k] for world in worlds))


def unique(worlds: Iterable[World]) -> tuple[World, ...]:
    """Worlds without repeats, in first-seen order."""
    return tuple(dict.fromkeys(worlds))


def _pruned(world: World) -> World:
    """The world without older generations no hand holds cards of any more."""
    if all(sum(g.hands) for g in world[:-1]):
        return world
    return (*(g for g in world[:-1] if sum(g.hands)), world[-1])


def world_errors(worlds: tuple[World, ...], unknown: Counts, deck: int) -> list[str]:
    """What does not add up in the worlds, given each hand's face-down cards and the deck."""
    if not worlds:
        return ["no world explains the face-down cards"]
    errors = []
    for number, world in enumerate(worlds):
        held = tuple(sum(g.hands[seat] for g in world) for seat in range(len(unknown)))
        if held != unknown:
            errors.append(f"world {number}: face-down cards {held}, not {unknown}")
        for index, g in enumerate(world):
            in_deck = deck if index == len(world) - 1 else 0
            if sum(g.left) != sum(g.hands) + in_deck or min(*g.left, *g.hands) < 0:
                errors.append(f"world {number}, deck {index}: {g.left} for {g.hands} + {in_deck}")
    return errors
