"""Projections: visitors over a game's fold that produce rows for one typed catalog table.

A game joins the catalog by naming, in its manifest (``projections=``), a function
``projections() -> list[Projection]`` returning *fresh* instances (it is called once per game
folded); the shipped games keep theirs in ``queries/games/<game>.py``. Each projection names a
:class:`Schema`; every projection of a table, whatever its game, shares that table's schema,
so ``dice`` rows of every dice game land in one table. The catalog adds the ``game`` column in
front of every row.

>>> class Adds(Projection):
...     schema = Schema("adds", (Column("seq", "BIGINT"), Column("n", "INTEGER")))
...     def visit_event(self, visit):
...         if visit.effective and visit.record.type == "add":
...             self.row(visit.record.seq, visit.event.n)
>>> Adds.schema.ddl()
'CREATE TABLE IF NOT EXISTS all_adds (game VARCHAR NOT NULL, seq BIGINT, n INTEGER)'

Rows are stored in ``all_<table>`` (every game, simulated ones included); people query the view
``<table>`` over it (see :mod:`tabletape.queries.schema`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, ClassVar, NamedTuple

from tabletape.replay.visitor import GameInfo, Visit, Visitor
from tabletape.rules.dice import NO_BONUS, Bonus, Die, Settled, faces
from tabletape.rules.kernel import Rules, UnknownGame
from tabletape.rules.manifest import warn_not_loaded
from tabletape.rules.registry import manifest_of, register


class Column(NamedTuple):
    """One typed column of a catalog table."""

    name: str
    type: str
    """A DuckDB type: ``BIGINT``, ``DOUBLE``, ``VARCHAR``, ``BOOLEAN``, ``TIMESTAMP``,
    ``INTEGER[]``, ``VARCHAR[]``, ``JSON``."""
    doc: str = ""


class Schema(NamedTuple):
    """A catalog table filled by projections: its name and columns (``game`` is implied first)."""

    table: str
    columns: tuple[Column, ...]
    doc: str = ""
    numbered: Column | None = None
    """A column the catalog fills after ``game``: each row's number in its game, from 1 in the
    order the projections made them (an id within the game; projections leave it out)."""

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(column.name for column in self.columns)

    @property
    def stored(self) -> str:
        """The table holding the rows: ``all_<table>`` (internal ``_`` tables keep their name).

        >>> Schema("dice", ()).stored, Schema("_sync", ()).stored
        ('all_dice', '_sync')
        """
        return self.table if self.table.startswith("_") else f"all_{self.table}"

    def all_columns(self) -> tuple[Column, ...]:
        """The stored columns: ``game``, the ``numbered`` one if any, then the declared ones."""
        return (GAME_COLUMN, *((self.numbered,) if self.numbered else ()), *self.columns)

    def ddl(self) -> str:
        """``CREATE TABLE IF NOT EXISTS`` for this table."""
        parts = [f"{GAME_COLUMN.name} {GAME_COLUMN.type} NOT NULL"]
        parts += [f"{quote(c.name)} {c.type}" for c in self.all_columns()[1:]]
        return f"CREATE TABLE IF NOT EXISTS {quote(self.stored)} ({', '.join(parts)})"

    def fingerprint(self) -> str:
        text = self.table + ":" + ",".join(f"{c.name} {c.type}" for c in self.all_columns()[1:])
        return hashlib.sha256(text.encode()).hexdigest()[:16]


GAME_COLUMN = Column("game", "VARCHAR", "Game id (the log's file name without .jsonl).")

SQL_KEYWORDS = frozenset({"from", "to", "order", "group", "end", "select", "table", "default"})


def quote(name: str) -> str:
    """A column or table name as SQL, quoted when it is a keyword."""
    return f'"{name}"' if name.lower() in SQL_KEYWORDS else name


class Projection(Visitor):
    """A visitor that turns one game's fold into rows of :attr:`schema` (``game`` excluded).

    Subclasses set ``schema`` (and bump ``version`` whenever the rows they make change, so
    catalogs reload their games) and call :meth:`row` from the visitor methods.
    """

    schema: ClassVar[Schema]
    version: ClassVar[int] = 1

    def __init__(self) -> None:
        self.rows: list[tuple[Any, ...]] = []

    def row(self, *values: Any) -> None:
        """Add one row, values in the schema's column order."""
        self.rows.append(values)

    def result(self) -> list[tuple[Any, ...]]:
        return self.rows


# -- shared schemas ------------------------------------------------------------------------------

TURNS = Schema("turns", (
    Column("turn", "INTEGER", "Turn number (0: setup)."),
    Column("round", "INTEGER", "Round number (0: setup)."),
    Column("player", "VARCHAR", "Whose turn it was (the first active player)."),
    Column("first_seq", "BIGINT", "First effective event of the turn."),
    Column("last_seq", "BIGINT", "Last effective event of the turn."),
    Column("events", "INTEGER", "Effective events in the turn."),
    Column("seconds", "DOUBLE",
           "From the last event before the turn to the turn's last event (thinking included)."),
), "One row per turn that had effective events.")

STANDINGS = Schema("standings", (
    Column("turn", "INTEGER", "The turn at whose end the figures were taken."),
    Column("round", "INTEGER"),
    Column("player", "VARCHAR"),
    Column("figure", "VARCHAR", "Figure name from the game's status figures; nested keys as "
                                "``cards.asia``, list lengths as ``hand.count``."),
    Column("value", "DOUBLE", "Its value (booleans as 0/1)."),
), "Every numeric per-player figure at the end of every turn (and at the end of the game).")

DICE = Schema("dice", (
    Column("seq", "BIGINT", "The event that recorded the roll."),
    Column("turn", "INTEGER"),
    Column("player", "VARCHAR", "Who rolled."),
    Column("role", "VARCHAR", "``attacker``, ``defender`` or ``roll``."),
    Column("die", "INTEGER", "Position of the die in the roll as recorded, from 1."),
    Column("sides", "INTEGER", "This die's sides (a side may roll dice of different sizes)."),
    Column("face", "INTEGER", "The face as it landed."),
    Column("value", "INTEGER", "The value after the game's modifiers (bonus, face changes)."),
    Column("modifier", "INTEGER", "What the modifiers did to this die: ``value - face`` (0: "
                                  "untouched; a card that adds 1 to one die gives 1 on that die)."),
), "Every die rolled (retracted events excluded).")

BATTLES = Schema("battles", (
    Column("seq", "BIGINT", "The event that settled the battle's dice (one event may settle "
                            "several battles)."),
    Column("turn", "INTEGER"),
    Column("attacker", "VARCHAR"),
    Column("defender", "VARCHAR"),
    Column("source", "VARCHAR", "Where the attack came from (territory, continent, planet)."),
    Column("target", "VARCHAR", "What was attacked."),
    Column("attacker_dice", "INTEGER"),
    Column("defender_dice", "INTEGER"),
    Column("attacker_sides", "INTEGER", "Sides of the attacker's dice when they are all one "
                                        "size; NULL when mixed (see ``attacker_die_sides``)."),
    Column("defender_sides", "INTEGER", "Likewise for the defender."),
    Column("attacker_faces", "INTEGER[]", "Faces as they landed."),
    Column("defender_faces", "INTEGER[]"),
    Column("attacker_die_sides", "INTEGER[]", "Sides of each attacker die, in the order of "
                                              "``attacker_faces`` (e.g. ``[8, 6]``)."),
    Column("defender_die_sides", "INTEGER[]"),
    Column("attacker_modifiers", "INTEGER[]", "What modifiers did to each attacker die (value - "
                                              "face), in the order of ``attacker_faces``."),
    Column("defender_modifiers", "INTEGER[]"),
    Column("attacker_bonus_each", "INTEGER", "The attacker's bonus added to each die (a card's "
                                             "\"+1 to each die\"; 0: none)."),
    Column("attacker_bonus_one", "INTEGER", "The attacker's bonus placed on one die after the "
                                            "roll (a robot-form leader's +1; 0: none)."),
    Column("defender_bonus_each", "INTEGER", "Likewise for the defender."),
    Column("defender_bonus_one", "INTEGER"),
    Column("modified", "BOOLEAN", "True when a modifier (bonus, changed face) touched the dice."),
    Column("attacker_losses", "INTEGER", "Pairs the attacker lost."),
    Column("defender_losses", "INTEGER", "Pairs the defender lost."),
), "One row per dice battle (one roll-off of attacker against defender).",
    numbered=Column("battle", "INTEGER", "The battle's id in its game: its number from 1, in "
                                         "recorded order (``game`` and ``battle`` identify it)."))

SHARED_SCHEMAS: tuple[Schema, ...] = (TURNS, STANDINGS, DICE, BATTLES)
"""Projection tables every catalog has, even before any game fills them."""


def dice_row(seq: int, turn: int, player: str, role: str, die: int, sides: int, face: int,
             value: int) -> tuple[Any, ...]:
    """A ``dice`` row; its ``modifier`` is what the game's modifiers did, ``value - face``.

    >>> dice_row(5, 2, "olga", "attacker", 1, 8, 3, 4)
    (5, 2, 'olga', 'attacker', 1, 8, 3, 4, 1)
    """
    return seq, turn, player, role, die, sides, face, value, value - face


def battle_dice(attacker: Sequence[int], defender: Sequence[int], *,
                attacker_sides: int | Sequence[int], defender_sides: int | Sequence[int],
                attacker_values: Sequence[int] | None = None,
                defender_values: Sequence[int] | None = None,
                attacker_bonus: Bonus = NO_BONUS,
                defender_bonus: Bonus = NO_BONUS) -> tuple[Any, ...]:
    """The ``battles`` columns from ``attacker_dice`` to ``defender_bonus_one``.

    ``attacker``/``defender`` are the faces as they landed; ``*_sides`` one size for every die
    of the side or one per die; ``*_values`` the dice after modifiers (default: the faces);
    ``*_bonus`` the kind of bonus each side rolled with (:class:`~tabletape.rules.dice.Bonus`:
    on each die, on one die), what the ``battles`` report takes the exact odds of.

    >>> battle_dice((5, 2), (4,), attacker_sides=(8, 6), defender_sides=6,
    ...             attacker_values=(5, 3), attacker_bonus=Bonus(one=1))
    (2, 1, None, 6, [5, 2], [4], [8, 6], [6], [0, 1], [0], 0, 1, 0, 0)
    """
    shifts = [modifiers(faces, values) for faces, values in ((attacker, attacker_values),
                                                             (defender, defender_values))]
    return (len(attacker), len(defender), one_size(attacker_sides), one_size(defender_sides),
            list(attacker), list(defender), per_die(attacker_sides, len(attacker)),
            per_die(defender_sides, len(defender)), *shifts, attacker_bonus.each,
            attacker_bonus.one, defender_bonus.each, defender_bonus.one)


def side_dice_rows(seq: int, turn: int, player: str, role: str, dice: Sequence[Die],
                   values: Sequence[int]) -> list[tuple[Any, ...]]:
    """The ``dice`` rows of one side's roll of :class:`~tabletape.rules.dice.Die` (mixed sizes),
    each with its value after modifiers (a settled roll's, :func:`tabletape.rules.dice.settle`).

    >>> side_dice_rows(5, 2, "olga", "attacker", (Die(8, 8), Die(6, 3)), (9, 3))[0]
    (5, 2, 'olga', 'attacker', 1, 8, 8, 9, 1)
    """
    return [dice_row(seq, turn, player, role, n, die.sides, die.face, value)
            for n, (die, value) in enumerate(zip(dice, values, strict=True), start=1)]


def settled_battle_dice(attacker: Sequence[Die], defender: Sequence[Die], settled: Settled, *,
                        attacker_bonus: Bonus = NO_BONUS,
                        defender_bonus: Bonus = NO_BONUS) -> tuple[Any, ...]:
    """:func:`battle_dice` of a roll of mixed dice settled with its bonuses.

    >>> settled_battle_dice((Die(8, 7),), (Die(6, 3),), Settled((8,), (3,), ("attacker",)),
    ...                     attacker_bonus=Bonus(one=1))
    (1, 1, 8, 6, [7], [3], [8], [6], [1], [0], 0, 1, 0, 0)
    """
    return battle_dice(faces(attacker), faces(defender),
                       attacker_sides=[die.sides for die in attacker],
                       defender_sides=[die.sides for die in defender],
                       attacker_values=settled.attacker, defender_values=settled.defender,
                       attacker_bonus=attacker_bonus, defender_bonus=defender_bonus)


def per_die(sides: int | Sequence[int], count: int) -> list[int]:
    """One size per die: ``sides`` repeated ``count`` times, or the sizes as given."""
    return [sides] * count if isinstance(sides, int) else list(sides)


def one_size(sides: int | Sequence[int]) -> int | None:
    """The size of every die of a side when they are all one size (None when mixed).

    >>> one_size(6), one_size([8, 8]), one_size([8, 6])
    (6, 8, None)
    """
    if isinstance(sides, int):
        return sides
    return sides[0] if sides and len(set(sides)) == 1 else None


def modifiers(faces: Sequence[int], values: Sequence[int] | None) -> list[int]:
    """``value - face`` per die (0s when there are no values)."""
    if values is None:
        return [0] * len(faces)
    return [value - face for face, value in zip(faces, values, strict=True)]


# -- generic projections -------------------------------------------------------------------------


class Batched(Projection):
    """A projection that keeps the game's visits and makes its rows at the end of the game.

    During the walk ``visit_event`` is the list's own ``append`` (no Python call per event);
    :meth:`rows_from` then makes the rows in one tight loop. Subclasses override ``rows_from``.
    """

    def begin_game(self, info: GameInfo) -> None:
        self.visits: list[Visit] = []
        self.visit_event = self.visits.append  # type: ignore[method-assign]

    def end_game(self, info: GameInfo, final_state: Any) -> None:
        visits, self.visits = self.visits, []
        self.rows_from(info, visits, final_state)

    def rows_from(self, info: GameInfo, visits: list[Visit], final_state: Any) -> None:
        """Make the rows of a game from its visits, in seq order."""


class TurnsProjection(Batched):
    """``turns``: effective events grouped by the turn they were recorded in."""

    schema = TURNS

    def rows_from(self, info: GameInfo, visits: list[Visit], final_state: Any) -> None:
        add = self.rows.append
        previous_at = ""
        number: int | None = None
        rnd = first = last = events = 0
        player = start_at = last_at = ""
        parsed: tuple[str, datetime] = ("", EPOCH)
        for visit in visits:
            record = visit.record
            if not visit.effective:
                if record.seq == 1:
                    previous_at = record.at
                continue
            turn = visit.turn
            if turn.turn != number:
                if number is not None:
                    seconds, parsed = elapsed(start_at, last_at, parsed)
                    add((number, rnd, player, first, last, events, seconds))
                active = turn.active
                number, rnd = turn.turn, turn.round
                player = active[0] if len(active) == 1 else record.actor
                first, events, start_at = record.seq, 0, previous_at or record.at
            last = record.seq
            events += 1
            last_at = previous_at = record.at
        if number is not None:
            add((number, rnd, player, first, last, events, elapsed(start_at, last_at, parsed)[0]))


EPOCH = datetime(1970, 1, 1)


def elapsed(start: str, end: str, parsed: tuple[str, datetime]) -> tuple[float | None,
                                                                          tuple[str, datetime]]:
    """:func:`seconds_between` that remembers the end it parsed (the next turn starts there)."""
    if not start or not end:
        return None, parsed
    begun = parsed[1] if parsed[0] == start else datetime.fromisoformat(start)
    ended = datetime.fromisoformat(end)
    return (ended - begun).total_seconds(), (end, ended)


class StandingsProjection(Batched):
    """``standings``: the game's numeric per-player figures at the end of every turn."""

    schema = STANDINGS

    def rows_from(self, info: GameInfo, visits: list[Visit], final_state: Any) -> None:
        figures = info.rules.figures
        add = self.rows.append
        number: int | None = None
        rnd = 0
        for visit in visits:
            if not visit.effective:
                continue
            turn = visit.turn
            if number is not None and turn.turn != number:
                emit(add, number, rnd, figures(visit.before))
            number, rnd = turn.turn, turn.round
        if number is not None:
            emit(add, number, rnd, figures(final_state))


def emit(add: Callable[[tuple[Any, ...]], None], turn: int, rnd: int,
         players: list[dict[str, Any]]) -> None:
    """Add the ``standings`` rows of one turn's figures."""
    for figures in players:
        player = str(figures.get("name", ""))
        for key, value in figures.items():
            if key == "name":
                continue
            if type(value) in NUMBERS:
                add((turn, rnd, player, key, float(value)))
            elif isinstance(value, dict | list | tuple):
                for name, number in numeric_figures({key: value}):
                    add((turn, rnd, player, name, number))


NUMBERS = (int, float, bool)


def numeric_figures(figures: dict[str, Any], prefix: str = "") -> list[tuple[str, float]]:
    """The numbers in a player's figures, flattened.

    >>> numeric_figures({"name": "olga", "troops": 3, "cards": {"asia": 2}, "hand": ["a", "b"],
    ...                  "alive": True, "faction": "autobots"})
    [('troops', 3.0), ('cards.asia', 2.0), ('hand.count', 2.0), ('alive', 1.0)]
    """
    found: list[tuple[str, float]] = []
    for key, value in figures.items():
        name = f"{prefix}{key}"
        if key == "name" and not prefix:
            continue
        if isinstance(value, bool | int | float):
            found.append((name, float(value)))
        elif isinstance(value, dict):
            found.extend(numeric_figures(value, f"{name}."))
        elif isinstance(value, list | tuple):
            found.append((f"{name}.count", float(len(value))))
    return found


def seconds_between(start: str, end: str) -> float | None:
    """Seconds from one ``at`` stamp to another (None when either is missing)."""
    if not start or not end:
        return None
    return (datetime.fromisoformat(end) - datetime.fromisoformat(start)).total_seconds()


# -- plug-ins ------------------------------------------------------------------------------------

ProjectionFactory = Callable[[], Sequence[Projection]]


def register_projections(kind: str, factory: ProjectionFactory) -> None:
    """Give the known game ``kind`` the projections ``factory`` in code (tests, notebooks)."""
    manifest = manifest_of(kind)
    if manifest is None:
        raise UnknownGame(f"no game kind '{kind}' to give projections to; register it first")
    register(manifest, projections=factory)


def plugin(kind: str) -> ProjectionFactory | None:
    """The ``projections`` function game ``kind``'s manifest names, or None when it has none."""
    manifest = manifest_of(kind)
    if manifest is None:
        return None
    try:  # loaded here, in the layer that uses it (replay's parts: tabletape.replay.parts)
        factory: ProjectionFactory | None = manifest.part("projections")
    except Exception as error:  # a broken plug-in module: the generic projections instead
        warn_not_loaded(f"'{kind}' part projections ({manifest.projections})", error)
        return None
    return factory


def generic_projections() -> list[Projection]:
    """The projections every game gets."""
    return [TurnsProjection(), StandingsProjection()]


def projections_for(rules: Rules[Any]) -> list[Projection]:
    """Fresh projections for one game of ``rules``: the generic ones, then the game's own."""
    factory = plugin(rules.name)
    return [*generic_projections(), *(factory() if factory else [])]


def fingerprint(rules: Rules[Any]) -> str:
    """Changes whenever the rows of a game of ``rules`` may change: reload it then."""
    parts = [rules.name, rules.rules_version]
    for projection in projections_for(rules):
        parts.append(f"{type(projection).__qualname__}:{projection.version}:"
                     f"{projection.schema.fingerprint()}")
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:16]
