"""The state of a Risk Strike game and the pure moves of cards that every rule is built from.

Continents and tactics cards are indexes into :data:`~tabletape.rules.risk_strike.data.CONTINENTS`
and
:data:`~tabletape.rules.risk_strike.data.TACTICS`; players are seat indexes; ``NOBODY`` is -1.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import msgspec
from msgspec.structs import replace

from tabletape.rules.kernel import IllegalAction
from tabletape.rules.risk_strike import data
from tabletape.rules.risk_strike.hidden import (
    World,
    could_reveal,
    deck_kinds,
    drew_face_down,
    drew_named,
    reshuffled,
    revealed,
    world_errors,
)
from tabletape.rules.seats import NOBODY, find_seat
from tabletape.rules.steps import put

CONTINENTS = data.CONTINENTS
TACTICS = data.TACTICS
TROOP, SPY, CANCEL, RALLY, ARTILLERY, SABOTAGE, EXPAND, BOMBARD = range(len(TACTICS))
ATTACKER_STEP, DEFENDER_STEP, HELPERS_STEP, DEPLOYED = range(4)
"""Attack Phase 2's steps: the attacker deploys or declines, then the defender, then other
players (until the attacker rolls or resolves); then troops are deployed."""
RULES_VERSIONS = ("1", "2")
"""The rules versions a game may be recorded under (game-started's ``rules_version``), the
current one last. Version 1 recorded Attack Phase 2 without declines; version 2 records them."""
DECLINES_RECORDED = 2
"""The first rules version whose logs record the attacker's and defender's declines."""
DICE_NAMED_AS_SHOWN = 2
"""The first rules version whose Bombard names a die by what it shows now (Rally included);
version 1 named it by the face it landed on."""
DRAW_OUTLIVES_BATTLE = 2
"""The first rules version whose logs record Expand's draw owed when the battle ended (``resolve``
closing the card and a winning roll): version 1 ended the turn without it, so there the next
player's entry shows the draw was not taken."""

Counts = tuple[int, ...]
NO_TACTICS: Counts = (0,) * len(TACTICS)


class Seat(msgspec.Struct, frozen=True, gc=False):
    """One player's cards."""

    name: str
    continents: Counts
    """Continent cards face up in front of the player, per continent."""
    known: Counts
    """Tactics cards in hand whose face is recorded, per card."""
    unknown: int = 0
    """Tactics cards in hand drawn face down and not named yet."""

    @property
    def hand(self) -> int:
        return sum(self.known) + self.unknown


class Troop(msgspec.Struct, frozen=True, gc=False):
    """An active Troop card: who played it and which side it fights for."""

    owner: int
    side: str
    """``attacker`` or ``defender``."""


class Dice(msgspec.Struct, frozen=True, gc=False):
    """One roll of a battle, with the tactics cards that changed it."""

    attacker: Counts
    """Faces of the attack dice before Rally's bonus: as they landed, or as Bombard left them
    (a die Bombard turns to 6 after a Rally holds 6 minus the bonus, so that it shows 6)."""
    defender: Counts
    attacker_bonus: int = 0
    """Rally: added to each attack die; a die shows its face plus the bonus."""
    defender_bonus: int = 0
    winners: tuple[str, ...] = ()
    """Winner of each pair, highest pair first, once resolved."""


class Battle(msgspec.Struct, frozen=True, gc=False):
    """A battle in progress (Attack Phases 1 to 3)."""

    attacker: int
    defender: int
    source: int
    """The continent attacked from."""
    target: int
    """The defending continent."""
    attack_cards: int
    """Active attacking continent cards (cards gained in this battle are not active)."""
    defend_cards: int
    troops: tuple[Troop, ...] = ()
    """Active troops in the order they were deployed."""
    deploy_step: int = ATTACKER_STEP
    """Attack Phase 2's step: the attacker's, the defender's, the helpers', or ``DEPLOYED``."""
    rolls: int = 0
    roll: Dice | None = None
    """The roll whose window is open (Rally, Bombard, Artillery), not resolved yet."""
    last: Dice | None = None
    """The last resolved roll."""

    def side_troops(self, side: str) -> int:
        return sum(1 for troop in self.troops if troop.side == side)

    @property
    def step(self) -> str:
        """``deploy``, ``ready`` (deployed, no roll yet), ``rolled`` or ``between`` rolls."""
        if self.deploy_step < DEPLOYED:
            return "deploy"
        if self.roll is not None:
            return "rolled"
        return "ready" if self.rolls == 0 else "between"


class Pending(msgspec.Struct, frozen=True, gc=False):
    """A tactics card played whose Canceled Orders window is still open."""

    player: int
    card: int
    target: int = NOBODY
    side: str = ""
    die: int = 0
    troops: int = 0
    """Artillery: how many troops go (0: up to 2)."""
    cancels: int = 0
    """Canceled Orders played on top of it: each cancels the card before it."""

    @property
    def canceled(self) -> bool:
        return self.cancels % 2 == 1


class Resolution(msgspec.Struct, frozen=True, gc=False):
    """A roll as the rules resolved it: how many rolls the game had resolved, and the roll."""

    number: int
    roll: Dice
    """Its faces after Bombard, Rally's bonus and the winner of each pair."""


class State(msgspec.Struct, frozen=True, gc=False):
    """Everything the rules know about a game at one point."""

    seats: tuple[Seat, ...]
    """Players in seat order (to the left)."""
    sizes: Counts
    domination: Counts
    links: tuple[tuple[int, ...], ...]
    """Continents each continent may attack, itself included."""
    tactics_total: Counts
    phase: str = "deal"
    """``deal``, ``roll-off``, ``fourth-card``, ``draw``, ``act``, ``battle``, ``end`` (the
    battle is over; the turn ends once Expand's owed draw is taken), ``over``."""
    dealt: tuple[bool, ...] = ()
    contenders: tuple[int, ...] = ()
    """Players still in the first-player roll-off."""
    rolloffs: tuple[Counts, ...] = ()
    order: tuple[int, ...] = ()
    """Play order: the first player, then to the left."""
    turn: int = 0
    drawn: int = 0
    """Cards drawn so far in this turn's draw."""
    deck: Counts = ()
    """Continent cards left in the deck, per continent."""
    lineup: Counts = ()
    """Surrendered continent cards, per continent."""
    tactics_deck: int = 0
    discard: Counts = ()
    reshuffles: int = 0
    coins: tuple[int, ...] = ()
    """Holder of each continent's domination coin, or ``NOBODY``."""
    battle: Battle | None = None
    extra_named: tuple[int, ...] = ()
    """Players whose additional setup tactics card (Game Setup 6) the table has named."""
    ended: Battle | None = None
    """The last battle as it ended: its troops after the last roll's losses (then discarded, or
    back in hand after Sabotage) and that roll's winners, for narration."""
    pending: Pending | None = None
    expand_owed: int = 0
    """Expand draws owed by the player whose turn it is."""
    winner: int = NOBODY
    worlds: tuple[World, ...] = ()
    """What face-down tactics cards can be: the possible pasts (:mod:`.hidden`)."""
    reshuffle_when_empty: bool = False
    """Reading (option ``reshuffle``): the discard pile becomes the deck as soon as the deck runs
    out, rather than at the next draw."""
    expand_cards_active: bool = False
    """Reading (option ``expand-cards``): attacking-continent cards drawn with Expand during a
    battle add to its attacking cards."""
    stop_after_win: bool = False
    """Reading (option ``after-win``): pairs after the one that ends the battle (no defending or
    no attacking cards left) or wins the game are not resolved."""
    protocol: int = DECLINES_RECORDED
    """The rules version the game is recorded under (game-started's ``rules_version``): before
    :data:`DECLINES_RECORDED`, nobody typed a decline, and a later entry of Attack Phase 2 (a
    later player's troops, the roll, Artillery, Sabotage) declined the steps not yet answered
    (:func:`.moves.answering`); and Bombard named a die by the face it landed on
    (:func:`.moves.named_faces`); and the next player's entry after a battle that ended with
    Expand's draw owed shows the draw was not taken (:func:`.moves.step`)."""
    seat_names: tuple[str | None, ...] = ()
    """Seat names as stored, for an exact-spelling lookup (:func:`seat_of`): each seat's name, or
    None where an earlier seat has the same name case-insensitively or the name means the table
    (then only the case-insensitive search finds the seat). Set by ``start``; empty: search."""
    resolved: Resolution | None = None
    """The last roll resolved (see :func:`roll_resolved`), for narration and the catalog."""

    @property
    def current(self) -> int:
        """The player whose turn it is (``NOBODY`` during setup)."""
        if not self.order or self.turn == 0:
            return NOBODY
        return self.order[(self.turn - 1) % len(self.order)]

    @property
    def round(self) -> int:
        return 0 if self.turn == 0 else (self.turn - 1) // len(self.seats) + 1

    def name(self, seat: int) -> str:
        return self.seats[seat].name


def roll_resolved(before: State, after: State) -> Dice | None:
    """The roll an event resolved (``before`` and ``after`` it), or None if it resolved none."""
    resolved, earlier = after.resolved, before.resolved
    if resolved is None or (earlier is not None and earlier.number == resolved.number):
        return None
    return resolved.roll


# -- names -----------------------------------------------------------------------------------------


def normalize(text: str) -> str:
    """``North_America`` and ``north america`` become ``north-america``."""
    return "-".join(text.strip().casefold().replace("_", " ").replace("-", " ").split())


def title(token: str) -> str:
    """``north-america`` becomes ``North America`` (table words)."""
    return token.replace("-", " ").title()


CONTINENT_INDEX: dict[str, int] = {name: c for c, name in enumerate(CONTINENTS)}
"""Continents by their stored spelling (the spelling events hold): no normalizing needed."""
TACTICS_INDEX: dict[str, int] = {name: k for k, name in enumerate(TACTICS)}


def continent_of(text: str) -> int | None:
    found = CONTINENT_INDEX.get(text)
    if found is not None:
        return found
    key = normalize(text)
    key = data.CONTINENT_ALIASES.get(key, key)
    return CONTINENTS.index(key) if key in CONTINENTS else None


def card_of(text: str) -> int | None:
    found = TACTICS_INDEX.get(text)
    if found is not None:
        return found
    key = normalize(text)
    key = data.TACTICS_ALIASES.get(key, key)
    return TACTICS.index(key) if key in TACTICS else None


def seat_of(state: State, text: str) -> int | None:
    """The seat of a player a typed name means (:func:`~tabletape.rules.seats.find_seat`)."""
    return find_seat(text, players(state))


def players(state: State) -> tuple[str, ...]:
    """The players' names in seat order."""
    return tuple([seat.name for seat in state.seats])


def exact_seat_names(players: Sequence[str]) -> tuple[str | None, ...]:
    """:attr:`State.seat_names` for players in seat order."""
    folded = [name.casefold() for name in players]
    result: list[str | None] = []
    for seat, name in enumerate(players):
        key = name.strip().casefold()
        found = folded.index(key) if key in folded else None
        result.append(name if found == seat and key != "table" else None)
    return tuple(result)


def names(state: State, seats: Iterable[int]) -> tuple[str, ...]:
    return tuple(state.name(seat) for seat in seats)


# -- counts ----------------------------------------------------------------------------------------


def bump(counts: Counts, index: int, by: int = 1) -> Counts:
    """``counts`` with ``counts[index]`` changed by ``by``."""
    changed = [*counts]
    changed[index] += by
    return tuple(changed)


def tally(indexes: Iterable[int], size: int) -> Counts:
    """How many times each index occurs."""
    result = [0] * size
    for index in indexes:
        result[index] += 1
    return tuple(result)


def with_seat(state: State, index: int, seat: Seat) -> State:
    return replace(state, seats=put(state.seats, index, seat))


def coins_of(state: State, seat: int) -> tuple[int, ...]:
    return tuple(c for c, holder in enumerate(state.coins) if holder == seat)


# -- tactics cards: what is seen, and what can still be anywhere unseen ---------------------------


def seen(state: State, card: int) -> int:
    """Cards of one kind whose place is known: discard pile, named in hands, active troops."""
    held = sum(seat.known[card] for seat in state.seats)
    active = len(state.battle.troops) if card == TROOP and state.battle else 0
    return state.discard[card] + held + active


def unseen(state: State, card: int) -> int:
    """Cards of one kind that may be in the deck or among hands' unknown cards."""
    return state.tactics_total[card] - seen(state, card)


def could_hold(state: State, seat: int, card: int, count: int = 1) -> bool:
    """Whether ``seat`` can have ``count`` cards of this kind in hand (named, or face-down cards
    that can be this card in some world, see :mod:`.hidden`)."""
    hand = state.seats[seat]
    need = count - hand.known[card]
    return need <= 0 or (need <= hand.unknown and could_reveal(state.worlds, seat, card, need))


def take_cards(state: State, seat: int, card: int, count: int = 1) -> State:
    """Cards of one kind leave a hand: named ones first, then face-down cards, named by it.

    (Named first loses nothing: a face-down card that was this card and a named one left in hand
    is the same hand as the named one played and the face-down card kept.)
    """
    hand = state.seats[seat]
    named = min(hand.known[card], count)
    hidden = count - named
    known = bump(hand.known, card, -named) if named else hand.known
    seats = put(state.seats, seat, Seat(hand.name, hand.continents, known, hand.unknown - hidden))
    if not hidden:
        return replace(state, seats=seats)
    return replace(state, seats=seats, worlds=revealed(state.worlds, seat, card, hidden))


def name_face_down(state: State, seat: int, card: int, **changes: object) -> State:
    """One face-down card in a hand is named (shown to the table) and stays in the hand; with
    ``changes`` to other fields, in one replace. Raises :class:`IllegalAction` when no
    face-down card of the hand can be that card."""
    hand = state.seats[seat]
    if not hand.unknown or not could_reveal(state.worlds, seat, card, 1):
        raise IllegalAction(f"{hand.name} cannot hold another {title(TACTICS[card])} card face "
                            "down")
    named = Seat(hand.name, hand.continents, bump(hand.known, card), hand.unknown - 1)
    return replace(state, seats=put(state.seats, seat, named),
                   worlds=revealed(state.worlds, seat, card), **changes)


def discard(state: State, card: int, count: int = 1) -> State:
    return replace(state, discard=bump(state.discard, card, count))


def tactics_left(state: State, keep: Counts = ()) -> int:
    """Tactics cards that can still be drawn (the deck, then the reshuffled discard pile, but for
    the cards ``keep`` still in use there)."""
    return state.tactics_deck + sum(state.discard) - sum(keep)


def in_use(card: int, count: int = 1) -> Counts:
    """``count`` cards of one kind being used: in the discard pile, yet not reshuffled.

    How to Use Tactics Cards: 'After you use a tactics card, place it in the discard pile': a
    Spy or Expand drawing for itself is not part of a deck made while it is used.
    """
    return bump(NO_TACTICS, card, count)


def shuffled(pile: Counts, keep: Counts) -> Counts:
    """More to Know: 'If the tactics card deck ever runs out, shuffle the discard pile to create a
    new deck': the new deck, the cards still in use (``keep``) left out of it."""
    return tuple(n - k for n, k in zip(pile, keep, strict=True))


def draw_tactics(state: State, seat: int, cards: Iterable[int | None], *,
                 keep: Counts = (), **changes: object) -> State:
    """Draw tactics cards in order, reshuffling the discard pile (but for the cards ``keep`` in
    use) when the deck runs out (at the next draw, or at once with the ``reshuffle=when-empty``
    reading); with ``changes`` to other fields of the state, in one replace.

    Raises :class:`IllegalAction` when no card is left or a named card cannot be in the deck.
    """
    hand = state.seats[seat]
    known, unknown = hand.known, hand.unknown
    deck, pile, reshuffles = state.tactics_deck, state.discard, state.reshuffles
    worlds = state.worlds
    keep = keep or NO_TACTICS
    drawn = 0
    for card in cards:
        if deck == 0:
            fresh = shuffled(pile, keep)
            if not sum(fresh):
                raise IllegalAction("no tactics cards are left to draw (deck and discard empty)")
            deck, pile, reshuffles, worlds = sum(fresh), keep, reshuffles + 1, reshuffled(
                worlds, fresh
            )
        if card is None:
            unknown += 1
            worlds = drew_face_down(worlds, seat)
        else:
            found = drew_named(worlds, card)
            if not found:
                now = replace(state, tactics_deck=deck, discard=pile, reshuffles=reshuffles,
                              worlds=worlds, seats=put(state.seats, seat, Seat(
                                  hand.name, hand.continents, known, unknown)))
                raise IllegalAction(named_draw_refusal(now, card), allowed=drawable_kinds(now))
            worlds = found
            known = bump(known, card)
        deck -= 1
        drawn += 1
        if deck == 0 and state.reshuffle_when_empty and sum(pile) > sum(keep):
            fresh = shuffled(pile, keep)
            deck, pile, reshuffles, worlds = sum(fresh), keep, reshuffles + 1, reshuffled(
                worlds, fresh
            )
    if drawn:
        changes["tactics_deck"] = deck
        changes["worlds"] = worlds
        changes["seats"] = put(state.seats, seat, Seat(hand.name, hand.continents, known, unknown))
        if reshuffles != state.reshuffles:
            changes["discard"] = pile
            changes["reshuffles"] = reshuffles
    return replace(state, **changes) if changes else state


def named_draw_refusal(state: State, card: int) -> str:
    """Why the deck in play cannot hold a card of this kind."""
    name, missing = title(TACTICS[card]), unseen(state, card)
    if not missing:
        total = state.tactics_total[card]
        return f"no {name} card can be in the deck: all {total} are accounted for"
    where = "is" if missing == 1 else "are"
    return (f"no {name} card can be in the deck: the {missing} not accounted for {where} face "
            "down in hands (drawn before the deck in play was shuffled)")


def draw_unknown(state: State, seat: int, count: int = 1, keep: Counts = ()) -> State:
    """Draw up to ``count`` face-down tactics cards, as many as are left (``keep``: cards in use,
    not reshuffled)."""
    return draw_tactics(state, seat, [None] * min(count, tactics_left(state, keep)), keep=keep)


def drawable_kinds(state: State) -> tuple[str, ...]:
    """The tactics cards the next draw could give: what the deck in play can still hold, or the
    discard pile when the deck is empty (it is reshuffled)."""
    if state.tactics_deck:
        return tuple(TACTICS[k] for k in deck_kinds(state.worlds))
    return tuple(TACTICS[k] for k, n in enumerate(state.discard) if n)


# -- continent cards and coins ---------------------------------------------------------------------


def gain_all(state: State, seat: int, counts: Mapping[int, int], **changes: object) -> State:
    """``counts[c]`` continent cards of each continent ``c`` join a player, with ``changes`` to
    other fields of the state, in one replace; reaching the domination number takes the coin.

    Dominating: 'take that continent's domination coin, even if it is controlled by another
    player'. Winning: 'The first player to collect two domination coins wins!'
    """
    cards = state.seats[seat]
    held = [*cards.continents]
    coins = state.coins
    domination = state.domination
    took = False
    for c, count in counts.items():
        held[c] += count
        if held[c] >= domination[c] and coins[c] != seat:
            coins = put(coins, c, seat)
            took = True
    if took:
        changes["coins"] = coins
        if state.winner == NOBODY and coins.count(seat) >= 2:
            changes["winner"] = seat
    cards = Seat(cards.name, tuple(held), cards.known, cards.unknown)
    return replace(state, seats=put(state.seats, seat, cards), **changes)


# -- invariants ------------------------------------------------------------------------------------


def invariant_errors(state: State) -> list[str]:
    """What does not add up: every continent card, tactics card and coin must be somewhere.

    Used by the tests after every event; an empty list means the state is consistent.
    """
    errors: list[str] = []
    for c, name in enumerate(CONTINENTS):
        held = sum(seat.continents[c] for seat in state.seats)
        if state.deck[c] + state.lineup[c] + held != state.sizes[c]:
            errors.append(f"{name}: deck {state.deck[c]} + lineup {state.lineup[c]} + held {held}")
        if min(state.deck[c], state.lineup[c], *(s.continents[c] for s in state.seats)) < 0:
            errors.append(f"{name}: a negative count")
    if sum(state.sizes) != data.CONTINENT_CARDS.value:
        errors.append(f"continent cards add up to {sum(state.sizes)}")
    hands = sum(seat.hand for seat in state.seats)
    active = len(state.battle.troops) if state.battle else 0
    total = state.tactics_deck + sum(state.discard) + hands + active
    if total != sum(state.tactics_total) or sum(state.tactics_total) != 40:
        errors.append(f"tactics cards add up to {total} of {sum(state.tactics_total)}")
    for k, name in enumerate(TACTICS):
        if seen(state, k) > state.tactics_total[k]:
            errors.append(f"{seen(state, k)} {name} cards seen of {state.tactics_total[k]}")
    if min(state.tactics_deck, *(seat.unknown for seat in state.seats)) < 0:
        errors.append("a negative tactics count")
    unknown = tuple(seat.unknown for seat in state.seats)
    errors.extend(world_errors(state.worlds, unknown, state.tactics_deck))
    errors.extend(coin_errors(state))
    return errors


def coin_errors(state: State) -> list[str]:
    """Six coins, each with nobody or a player; where only one player can reach a continent's
    number (twice the number exceeds the cards), that player holds its coin."""
    errors = [] if len(state.coins) == data.COINS.value else [f"{len(state.coins)} coins"]
    for c, holder in enumerate(state.coins):
        if holder != NOBODY and not 0 <= holder < len(state.seats):
            errors.append(f"{CONTINENTS[c]} coin held by seat {holder}")
        reached = [
            s for s, seat in enumerate(state.seats) if seat.continents[c] >= state.domination[c]
        ]
        unique = 2 * state.domination[c] > state.sizes[c]
        if unique and reached and reached != [holder]:
            errors.append(f"{CONTINENTS[c]}: {reached} reached the number, coin with {holder}")
    winners = [s for s in range(len(state.seats)) if len(coins_of(state, s)) >= 2]
    if state.winner == NOBODY and winners:
        errors.append(f"seats {winners} hold two coins but nobody won")
    return errors
