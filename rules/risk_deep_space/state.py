"""The state of a Risk: Deep Space game and the small pure changes every rule is built from.

Planets are indexes into the board's spaces; players are seat indexes; ``NOBODY`` is -1;
cards are indexes into :data:`~tabletape.rules.risk_deep_space.data.CARDS`.
"""

from __future__ import annotations

from typing import TypeVar

import msgspec
from msgspec.structs import replace

from tabletape.rules.board import Board
from tabletape.rules.risk_deep_space import data
from tabletape.rules.risk_deep_space.options import Settings
from tabletape.rules.seats import NOBODY, seat_named, unknown
from tabletape.rules.steps import put

CARDS = data.CARDS
T = TypeVar("T")


class Seat(msgspec.Struct, frozen=True, gc=False):
    """One player's forces off the board, tokens and cards."""

    name: str
    colour: str
    home: int
    """Their Home Station (a space index)."""
    supply: int
    """Recruits off the board (in their off-board pile)."""
    bases: int
    """Bases not built yet."""
    gems: int
    ore: int = 0
    hand: tuple[str, ...] = ()
    """Action cards in front of the player, face up."""


class Dog(msgspec.Struct, frozen=True, gc=False):
    """A Space Dog token on the board."""

    owner: int
    space: int
    waiting: bool = False
    """At the Home Station with no Crew: travels with the next Crew that leaves it."""
    stray: bool = False
    """Its Crew was just wiped out by an Action card and it joined the largest other Crew: its
    owner may send it to another Crew instead, before the next action."""


class Battle(msgspec.Struct, frozen=True, gc=False):
    """A battle in progress: the attacking Crew has moved onto the defender's planet."""

    attacker: int
    defender: int
    source: int
    target: int
    crew: int
    """Attacking Recruits still standing (the defenders are the planet's Recruits)."""
    exchanges: int = 0
    answered: bool = False
    """The defender has passed on the cards played before the dice (``pass``)."""
    last: tuple[int, int] = (0, 0)
    """The dice of the last exchange (0, 0 before the first)."""


class State(msgspec.Struct, frozen=True, gc=False):
    """Everything the rules know after some events."""

    settings: Settings
    seats: tuple[Seat, ...]
    holders: tuple[int, ...]
    """Who has Recruits on each space (``NOBODY``: none)."""
    recruits: tuple[int, ...]
    """How many Recruits are on each space."""
    bases: tuple[tuple[int, ...], ...]
    """Seats with a Base on each space."""
    deck: tuple[int, ...]
    """Cards of each kind in the facedown deck."""
    discard: tuple[int, ...]
    gems: int
    """Gem tokens in the supply by the board."""
    ore: int
    dogs_left: int
    """Space Dog tokens by the board."""
    fields_left: int = data.FORCE_FIELDS.value
    """Force Field tokens by the board (they leave it only with ``force-fields=shield``)."""
    shields: tuple[tuple[int, int], ...] = ()
    """Force Fields on the board, as ``(planet, owner)``: until the owner's next turn."""
    homes: tuple[int, ...] = ()
    """The Home Stations in use, by seat."""
    closed: tuple[int, ...] = ()
    """Spaces nobody stops on besides covered planets: Home Stations (those of colours not in
    use unless ``open-stations``) and the centre."""
    dogs: tuple[Dog, ...] = ()
    covered: tuple[int, ...] = ()
    """Planets under a planet cover (Deep Space)."""
    phase: str = "deal"
    """``deal``, ``cover``, ``roll-off``, ``turn``, ``over``."""
    contenders: tuple[int, ...] = ()
    rolloffs: tuple[tuple[int, ...], ...] = ()
    order: tuple[int, ...] = ()
    current: int = NOBODY
    turn: int = 0
    round: int = 0
    stage: int = 0
    """Where the turn is: 0 draw, 1 start (trade cards), 2 mine, 3 recruit, 4 move and build."""
    moves_left: int = 0
    mined: tuple[int, ...] = ()
    boost: bool = False
    """Energy Boost played: the next movement may pass occupied planets."""
    paws: tuple[int, ...] = ()
    """One seat per Space Dog, Paw! drawn and not yet activated: each may be activated until that
    player's next action."""
    battle: Battle | None = None
    winner: int = NOBODY
    battles: int = 0
    """Battles begun so far (numbering for narration)."""

    bonus: tuple[int, int] = (0, 0)
    """Space Dog: the +1 (or 0) on the attacker's and the defender's die in the last battle
    exchange."""

    # -- lookups -------------------------------------------------------------------------------

    @property
    def board(self) -> Board:
        return self.settings.board

    def name(self, seat: int) -> str:
        return self.seats[seat].name

    def space(self, index: int) -> str:
        return self.board.spaces[index].id

    def title(self, index: int) -> str:
        return self.board.spaces[index].title


# -- names as typed --------------------------------------------------------------------------------


def seat_called(state: State, text: str) -> int:
    """The seat a typed player means (:func:`~tabletape.rules.seats.find_seat`): a player's name
    first, else the colour a player plays, else a unique prefix of a player's name."""
    colours = tuple(me.colour for me in state.seats)
    return seat_named(text, players(state), aliases=(colours,),
                      refusal=f"nobody called '{text}' plays")


def players(state: State) -> tuple[str, ...]:
    """The players' names in seat order."""
    return tuple([me.name for me in state.seats])


def card_called(text: str) -> str:
    """The Action card a typed name means (its id or its title)."""
    wanted = (text.strip().casefold().replace(" ", "-").replace("_", "-").replace(",", "")
              .replace("!", ""))
    for card in CARDS:
        if wanted in (card, data.title(card).casefold().replace(" ", "-").replace(",", "")):
            return card
    raise unknown(f"no Action card called '{text}'", text, CARDS)


def rollers(state: State) -> tuple[int, ...]:
    """Who rolls for first player now: everyone, or the players tied for highest."""
    return state.contenders or tuple(range(len(state.seats)))


# -- small pure changes ----------------------------------------------------------------------------


def with_seat(state: State, seat: int, **changes: object) -> State:
    return replace(state, seats=put(state.seats, seat, replace(state.seats[seat], **changes)))


def set_recruits(state: State, space: int, seat: int, count: int) -> State:
    """``count`` of ``seat``'s Recruits on ``space`` (0 empties it)."""
    return replace(
        state,
        recruits=put(state.recruits, space, count),
        holders=put(state.holders, space, seat if count else NOBODY),
    )


def dogs_at(state: State, space: int, owner: int) -> list[int]:
    """Indexes (into ``state.dogs``) of ``owner``'s Space Dogs on ``space``."""
    return [i for i, dog in enumerate(state.dogs) if dog.space == space and dog.owner == owner]


def mine_at(state: State, seat: int, space: int) -> int:
    """``seat``'s Recruits on ``space``."""
    return state.recruits[space] if state.holders[space] == seat else 0


def on_board(state: State, seat: int) -> int:
    """``seat``'s Recruits on the board, the attacking Crew of a battle included."""
    crew = state.battle.crew if state.battle and state.battle.attacker == seat else 0
    return crew + sum(n for who, n in zip(state.holders, state.recruits, strict=True)
                      if who == seat)


def shield_on(state: State, space: int) -> int:
    """Whose Force Field is on ``space`` (``NOBODY``: none)."""
    return next((owner for planet, owner in state.shields if planet == space), NOBODY)


def bases_built(state: State, seat: int) -> int:
    return sum(seat in here for here in state.bases)


def card_index(card: str) -> int:
    return CARDS.index(card)


def one_less(values: tuple[T, ...], value: T) -> tuple[T, ...]:
    """``values`` with one ``value`` taken out (a card from a hand, a seat from a list)."""
    result = list(values)
    result.remove(value)
    return tuple(result)


# -- conservation ----------------------------------------------------------------------------------


def invariant_errors(state: State) -> list[str]:
    """What does not add up: every Recruit, Base, token and card must be somewhere.

    Used by the tests and the audit after every event; an empty list means all is accounted for.
    """
    errors: list[str] = []
    seats = range(len(state.seats))
    for seat in seats:
        me = state.seats[seat]
        recruits = me.supply + on_board(state, seat)
        if recruits != data.RECRUITS.value:
            errors.append(f"{me.name}: {recruits} Recruits, not {data.RECRUITS.value}")
        bases = me.bases + bases_built(state, seat)
        if bases != data.BASES.value:
            errors.append(f"{me.name}: {bases} Bases, not {data.BASES.value}")
        if min(me.supply, me.bases, me.gems, me.ore) < 0:
            errors.append(f"{me.name}: a negative count")
    for what, supply, held, total in (
        ("Gems", state.gems, sum(s.gems for s in state.seats), data.GEMS.value),
        ("Ore", state.ore, sum(s.ore for s in state.seats), data.ORE.value),
        ("Space Dogs", state.dogs_left, len(state.dogs), data.SPACE_DOGS.value),
        ("Force Fields", state.fields_left, len(state.shields), data.FORCE_FIELDS.value),
    ):
        if supply < 0 or supply + held != total:
            errors.append(f"{what}: {supply} by the board + {held} out, not {total}")
    cards = [state.deck[k] + state.discard[k] + sum(s.hand.count(card) for s in state.seats)
             for k, card in enumerate(CARDS)]
    if tuple(cards) != state.settings.mix or min(*state.deck, *state.discard) < 0:
        errors.append(f"Action cards {cards} do not match the deck {state.settings.mix}")
    errors.extend(board_errors(state))
    return errors


def board_errors(state: State) -> list[str]:
    """Holders and counts agree; no Recruits under a cover; dogs stand with their Crews; Force
    Fields one to a planet, never on a closed or covered space."""
    errors = []
    shielded = [space for space, _ in state.shields]
    if len(set(shielded)) != len(shielded):
        errors.append("two Force Fields on one planet")
    for space, owner in state.shields:
        if space in state.closed or space in state.covered or owner not in range(len(state.seats)):
            errors.append(f"a Force Field of seat {owner} on {state.space(space)}")
    for space, (who, count) in enumerate(zip(state.holders, state.recruits, strict=True)):
        if (who == NOBODY) != (count == 0) or count < 0:
            errors.append(f"{state.space(space)}: holder {who} with {count} Recruits")
        if count and space in state.covered:
            errors.append(f"{state.space(space)} is Deep Space but holds Recruits")
    battle = state.battle
    for dog in state.dogs:
        crew = battle is not None and battle.target == dog.space and battle.attacker == dog.owner
        home = state.seats[dog.owner].home == dog.space
        if not (mine_at(state, dog.owner, dog.space) or crew or (home and dog.waiting)):
            errors.append(f"{state.name(dog.owner)}'s Space Dog on {state.space(dog.space)} "
                          "stands with no Crew")
    return errors
