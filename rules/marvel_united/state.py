"""The state of a Marvel United game, and the small pure moves every rule is built from.

Heroes are seat indexes (``NOBODY`` is -1); a hero's cards are counts per card kind, the kinds
of :data:`~tabletape.rules.marvel_united.data.HEROES` in order. A deck has a shuffled part (order
unknown,
so counts) and a bottom (cards put under it by damage, in order: drawn after the shuffled part).
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec
from msgspec.structs import replace

from tabletape.rules.marvel_united import data
from tabletape.rules.seats import NOBODY, find_seat
from tabletape.rules.steps import put

MOVE, ATTACK, HEROIC, WILD = range(4)
SYMBOL_NAMES = ("move", "attack", "heroic", "wild")
Counts = tuple[int, ...]


class Hero(msgspec.Struct, frozen=True, gc=False):
    """One player's hero: cards, place, condition, Action tokens."""

    player: str
    hero: str
    total: int
    """Cards in this hero's game (12 less any removed by a Challenge)."""
    deck: Counts
    """The shuffled part of the deck, per card kind."""
    bottom: tuple[int, ...] = ()
    """Cards put under the deck, in the order they will be drawn."""
    hand: Counts = ()
    played: Counts = ()
    """Cards in the Storyline, per kind."""
    location: int = NOBODY
    ko: bool = False
    invulnerable: bool = False
    tokens: Counts = (0, 0, 0, 0)
    """Action tokens held: Move, Attack, Heroic, Wild."""
    dealt: bool = False

    @property
    def cards_in_deck(self) -> int:
        return sum(self.deck) + len(self.bottom)

    @property
    def hand_size(self) -> int:
        return sum(self.hand)


class Place(msgspec.Struct, frozen=True, gc=False):
    """A Location tile in the ring."""

    name: str
    slots: int
    thugs: int
    civilians: int
    crisis: int = 0
    threat: int = NOBODY
    """The Threat card covering its End of Turn effect (index into ``State.threats``)."""

    @property
    def free(self) -> int:
        return self.slots - self.thugs - self.civilians


class Threat(msgspec.Struct, frozen=True, gc=False):
    """A Threat card: a Henchman (health) or a Threat cleared with Heroic tokens."""

    name: str
    place: int
    henchman: bool
    health: int
    heroic: int = 0
    """Action tokens on its slots."""
    slots: str = ""
    """The symbols its empty slots still ask for (``HHH`` for most; none for a Henchman)."""
    bam: bool = False
    on_move: bool = False
    cleared: bool = False


class Step(msgspec.Struct, frozen=True, gc=False):
    """An effect being resolved (a window), or one due next.

    Kinds: ``threat-move``, ``bam``, ``place`` (derived), ``overflow``, ``special`` (the
    Masterplan card's), ``ko-bam``, ``hero-special``, ``location``, ``mission-draw``."""

    kind: str
    hero: int = NOBODY
    count: int = 0
    thugs: Counts = ()
    civilians: Counts = ()
    results: int = 0
    """Results recorded in this window so far."""
    place: int = NOBODY
    """Where the effect happens: the location that overflowed, or where the hero used a
    Location effect."""
    tally: tuple[tuple[str, int], ...] = ()
    """What the results recorded so far amount to (``damage:0``, ``fear``, ``thugs:3``…)."""

    def tallied(self, key: str) -> int:
        return sum(n for k, n in self.tally if k == key)


class Turn(msgspec.Struct, frozen=True, gc=False):
    """The hero turn in progress."""

    seat: int
    stood_up: bool = False
    card: int = NOBODY
    symbols: Counts = (0, 0, 0, 0)
    """Symbols of this card and the previous Hero card not used yet: Move, Attack, Heroic, Wild."""
    special: bool = False
    """The card played has a special effect not used yet."""
    location_used: bool = False


RULES_VERSIONS = ("1", "2", "3")
"""The rules versions a game may be recorded under (game-started's ``rules_version``), the
current one last. Version 2 changed what a table types (see :func:`recorded_as_v1`); version 3
passes a window or a draw where nothing may be recorded by itself (:func:`passes_by_itself`)."""


class State(msgspec.Struct, frozen=True, gc=False):
    """Everything the rules know about a game at one point."""

    villain: str
    heroes: tuple[Hero, ...]
    health: int
    start_health: int
    plot: str
    plot_limit: int
    mission_slots: Counts
    locations_option: tuple[str, ...] = ()
    masterplan_deck: str = "table"
    """``table``: villain turns record their card's face; ``shipped``: the data's faces (I)."""
    typos: str = "refuse"
    """``refuse``: an entry that changes nothing or names no known target is refused as a
    typo; ``keep``: recorded (logs made before the option)."""
    protocol: int = 2
    """The rules version the game is recorded under (game-started's ``rules_version``): it
    decides how the table's entries are read where the recording protocol changed
    (:func:`recorded_as_v1`)."""
    threat_flags: str = "I"
    """``table`` when the setup named the Threats' BaM! and movement symbols, else ``I``."""
    places: tuple[Place, ...] = ()
    threats: tuple[Threat, ...] = ()
    villain_at: int = NOBODY
    fear: int = 0
    deck: tuple[str, ...] = ()
    """Masterplan cards not drawn yet (order unknown)."""
    storyline: tuple[str, ...] = ()
    """``villain:plan-3`` or ``olga:aa``, in play order."""
    missions: Counts = (0, 0, 0)
    completed: tuple[str, ...] = ()
    phase: str = "setup"
    pending: tuple[Step, ...] = ()
    turn: Turn | None = None
    last_seat: int = NOBODY
    since: int = 0
    """Hero cards added since the last Masterplan card."""
    turns: int = 0
    rounds: int = 0
    outcome: str = ""
    """``won`` or ``lost`` once over."""
    reason: str = ""
    detail: str = ""

    def name(self, seat: int) -> str:
        return self.heroes[seat].player

    @property
    def under_pressure(self) -> bool:
        return bool(self.completed)

    @property
    def damageable(self) -> bool:
        """Two Missions done (and, for Taskmaster, no Crisis token anywhere)."""
        if len(self.completed) < 2:
            return False
        return not (self.villain == "taskmaster" and any(p.crisis for p in self.places))


# -- lookups ---------------------------------------------------------------------------------------


def kinds(hero: str) -> tuple[str, ...]:
    return tuple(data.HEROES[hero])


def card_names(hero: Hero, where: str, reach: int = data.KO_DRAW.value) -> tuple[str, ...]:
    """The names of a hero's cards ``where``: ``hand``, ``storyline``, or ``deck``, those a
    draw of ``reach`` cards may take (the shuffled part, then the cards put under it, in
    order)."""
    names = kinds(hero.hero)
    if where in ("hand", "storyline"):
        counts = hero.hand if where == "hand" else hero.played
        return tuple(names[k] for k, n in enumerate(counts) if n)
    under = hero.bottom[:max(0, reach - sum(hero.deck))]
    return tuple(names[k] for k in range(len(names)) if hero.deck[k] or k in under)


def card_of(hero: str, text: str) -> int | None:
    key = text.strip().casefold()
    names = kinds(hero)
    return names.index(key) if key in names else None


def symbols_of(hero: str, kind: int) -> Counts:
    face = data.HEROES[hero][kinds(hero)[kind]].symbols
    return tuple(face.count(symbol) for symbol in data.SYMBOLS)


def has_special(hero: str, kind: int) -> bool:
    return bool(data.HEROES[hero][kinds(hero)[kind]].special)


def recorded_as_v1(state: State) -> bool:
    """Whether the game is recorded under rules version 1, whose logs are read as that version
    typed them, where the recording protocol changed (rules fixes apply to every version):

    - one ``done`` closed the overflow of every location that overflowed in a villain turn
      (version 2: one window per location, each closed by its own ``done``);
    - a Location effect's cost (S.H.I.E.L.D. HQ) was typed as ``damage`` and could follow its
      Crisis token (version 2: ``discard``, before the effect's results);
    - a typed name meant the first seat whose player or hero it names (version 2: a player's
      own name first);
    - the table could type a third-Mission draw: the hero named (``hero=``) drew, else the
      first hero owed one (version 2: each hero types their own);
    - Times Square's rescue was typed without ``mission=true`` (version 2 asks for it; the
      Civilian goes to the Mission either way).

    (A version 1 game-started has no ``masterplan-deck`` option: it played the shipped faces,
    :func:`.options.settings`.)"""
    return state.protocol < 2


def passes_by_itself(state: State) -> bool:
    """Whether a step in which nothing may be recorded passes by itself (rules version 3 on):
    a window with nothing to record (no ``done`` typed), a hero's draw that takes no card (no
    ``draw`` typed). Logs of versions 1 and 2 hold the ``done`` and ``draw`` they typed there."""
    return state.protocol >= 3


def seat_of(state: State, text: str) -> int | None:
    """The seat a typed name means (:func:`~tabletape.rules.seats.find_seat`): a player's own
    name first, then the hero they play (a player called Hulk is that player, even when another
    seat plays Hulk), then a unique prefix of a player's name; version 1: the first seat whose
    player or hero it names."""
    if recorded_as_v1(state):
        key = text.strip().casefold()
        return next((seat for seat, hero in enumerate(state.heroes)
                     if key in (hero.player.casefold(), hero.hero)), None)
    for seat, hero in enumerate(state.heroes):  # the fold's fast path: actors are stored exact
        if hero.player == text:
            return seat
    return find_seat(text, players(state), aliases=([hero.hero for hero in state.heroes],))


def players(state: State) -> tuple[str, ...]:
    """The players' names in seat order."""
    return tuple([hero.player for hero in state.heroes])


def place_of(state: State, text: str) -> int | None:
    key = text.strip().casefold()
    for index, place in enumerate(state.places):
        if place.name == key:
            return index
    return None


def around(state: State, at: int) -> tuple[int, int, int]:
    """The location before ``at`` (counterclockwise), ``at``, and the one after: clockwise."""
    ring = len(state.places)
    return ((at - 1) % ring, at, (at + 1) % ring)


def adjacent(state: State, a: int, b: int) -> bool:
    return (a - b) % len(state.places) in (1, len(state.places) - 1)


def threat_here(state: State, at: int) -> Threat | None:
    index = state.places[at].threat
    return state.threats[index] if index != NOBODY else None


def present(state: State, at: int) -> tuple[int, ...]:
    """Heroes at a location that effects do not ignore (KO'd heroes are ignored)."""
    return tuple(s for s, h in enumerate(state.heroes) if h.location == at and not h.ko)


def last_hero_card(state: State) -> tuple[int, int] | None:
    """``(seat, kind)`` of the last Hero card in the Storyline."""
    for entry in reversed(state.storyline):
        who, _, card = entry.partition(":")
        if who != "villain":
            seat = seat_of(state, who)
            assert seat is not None
            return seat, kinds(state.heroes[seat].hero).index(card)
    return None


def window_words(head: Step, state: State | None = None) -> str:
    """The effect being resolved, in table words (``state`` names where it happens)."""
    where = ""
    if state is not None and head.place != NOBODY:
        where = f" at {state.places[head.place].name}"
    return {
        "threat-move": "the Threat's movement effect",
        "bam": "BaM! (the dashboard's and the Threats')",
        "overflow": f"the overflow effect{where} ({head.count} "
                    f"token{'s' if head.count != 1 else ''} not placed)",
        "special": "the Masterplan card's special effect",
        "ko-bam": "the villain's BaM! for the KO",
        "hero-special": "the card's special effect",
        "location": "the Location's End of Turn effect",
        "mission-draw": "the third Mission's card",
    }.get(head.kind, head.kind)


# -- copy-on-write ---------------------------------------------------------------------------------


def bump(values: Sequence[int], index: int, by: int = 1) -> tuple[int, ...]:
    return put(values, index, values[index] + by)


def with_hero(state: State, seat: int, hero: Hero) -> State:
    return replace(state, heroes=(*state.heroes[:seat], hero, *state.heroes[seat + 1:]))


def with_place(state: State, index: int, place: Place) -> State:
    return replace(state, places=(*state.places[:index], place, *state.places[index + 1:]))


def with_threat(state: State, index: int, threat: Threat) -> State:
    return replace(state, threats=(*state.threats[:index], threat, *state.threats[index + 1:]))


# -- invariants ------------------------------------------------------------------------------------


def invariant_errors(state: State) -> list[str]:
    """Cards, tokens, health: what must hold after every event."""
    errors: list[str] = []
    for hero in state.heroes:
        held = sum(hero.deck) + len(hero.bottom) + sum(hero.hand) + sum(hero.played)
        if held != hero.total:
            errors.append(f"{hero.player}: {held} cards, not {hero.total}")
        if min((*hero.deck, *hero.hand, *hero.played, *hero.tokens), default=0) < 0:
            errors.append(f"{hero.player}: a negative count")
        if hero.ko and hero.hand_size:
            errors.append(f"{hero.player} is KO'd holding cards")
    heroes_played = sum(1 for e in state.storyline if not e.startswith("villain:"))
    if heroes_played != sum(sum(h.played) for h in state.heroes):
        errors.append("Storyline Hero cards do not match the cards played")
    plans = sum(1 for e in state.storyline if e.startswith("villain:"))
    if state.places and plans + len(state.deck) != len(data.MASTERPLANS[state.villain]):
        errors.append(f"{plans} Masterplan cards played and {len(state.deck)} in the deck")
    for place in state.places:
        if place.thugs < 0 or place.civilians < 0 or place.crisis < 0 or place.free < 0:
            errors.append(f"{place.name}: {place.thugs} Thugs, {place.civilians} Civilians "
                          f"in {place.slots} slots")
    for index, threat in enumerate(state.threats):
        covering = state.places[threat.place].threat == index
        if threat.cleared == covering or threat.health < 0:
            errors.append(f"{threat.name}: cleared {threat.cleared}, covering {covering}")
    cleared = sum(t.cleared for t in state.threats)
    for mission, count, slots in zip(data.MISSIONS, state.missions, state.mission_slots,
                                     strict=True):
        if not 0 <= count <= slots or (mission in state.completed) != (count == slots):
            errors.append(f"mission {mission}: {count} of {slots}")
    if state.missions[2] > cleared:
        errors.append(f"{state.missions[2]} Threat tokens for {cleared} cleared Threats")
    if not 0 <= state.health <= state.start_health:
        errors.append(f"villain health {state.health}")
    if (state.health == 0) != (state.outcome == "won"):
        errors.append("the villain is at 0 health but the game is not won, or the reverse")
    return errors
