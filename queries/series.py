"""The numbers every picture of a game draws: standings over time, dice faces against fair,
battle outcomes against the exact odds.

:func:`game_series` takes them from one game's log through the catalog's own projections
(:func:`tabletape.queries.rows.project`), so a picture and ``tabletape sql`` never disagree and
nothing needs a sync; :func:`league_series` takes the dice and battles of every game a catalog
connection sees (``stats``' scope included). Dice are grouped per die size and battles per
matchup by the same pieces the ``dice`` and ``battles`` reports use.

>>> faces = dice_faces([(6, 1, 3), (6, 6, 3)])
>>> faces[0].counts, faces[0].total, faces[0].expected
([3, 0, 0, 0, 0, 3], 6, 1.0)
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import msgspec

from tabletape.ledger import GameStarted, Record
from tabletape.queries.odds import face_test
from tabletape.queries.projections import BATTLES, DICE, STANDINGS, projections_for
from tabletape.queries.reports import (
    MATCHUP_COLUMNS,
    Matchup,
    bonus_name,
    matchup_name,
    matchup_rows,
    matchups_of,
)
from tabletape.queries.rows import Folded, project
from tabletape.rules.registry import find_game

if TYPE_CHECKING:
    import duckdb

    from tabletape.queries.scope import Scope

Series = list[tuple[int, float]]
"""``[(turn, value), ...]`` in turn order."""


class DiceFaces(msgspec.Struct, kw_only=True):
    """How often each face of one die size landed, against fair dice."""

    sides: int
    counts: list[int]
    """Landings of face 1, 2, ... ``sides`` (faces as they landed, before any modifier)."""
    total: int
    expected: float
    """Landings of each face that fair dice give on average: ``total / sides``."""
    chi_square: float
    p_value: float
    """Chance that fair dice look at least this uneven (Pearson's chi-square test)."""


class Outcome(msgspec.Struct, kw_only=True):
    """One outcome of a matchup: the attacker lost ``attacker_losses`` pairs."""

    attacker_losses: int
    observed: int
    share: float
    """``observed / battles``."""
    exact: float
    """Its exact probability."""
    exact_fraction: str
    """The same as a fraction of every roll: ``2890/7776``."""


class BattleOutcome(msgspec.Struct, kw_only=True):
    """The battles of one matchup (each side's dice and bonus) against the exact odds."""

    matchup: str
    """``3v2 d6``, ``d8+d6 v 2d6`` (as the ``battles`` report names it)."""
    bonus: str
    """Each side's bonus in table words, ``""`` for none."""
    attacker_sides: list[int]
    """Sides of each attack die, largest first."""
    defender_sides: list[int]
    battles: int
    outcomes: list[Outcome]
    """One per possible number of attacker losses, from 0."""
    p_value: float
    """Chi-square test of the observed counts against the exact odds."""


class GameSeries(msgspec.Struct, kw_only=True):
    """What every picture of one game needs (``tabletape plot GAME --json`` prints it)."""

    game: str
    kind: str
    players: list[str]
    """In seat order."""
    finished: bool
    standings: dict[str, dict[str, Series]]
    """Figure -> player -> ``[(turn, value), ...]``: the ``standings`` rows of the game."""
    dice: list[DiceFaces] = []
    battles: list[BattleOutcome] = []


class LeagueSeries(msgspec.Struct, kw_only=True):
    """Dice, battles and game lengths of every game a catalog connection sees."""

    dice: list[DiceFaces]
    battles: list[BattleOutcome]
    lengths: dict[str, list[int]]
    """Game kind -> the turns of each of its finished games, fewest first."""


def game_series(game: str, records: Sequence[Record]) -> GameSeries:
    """The series of one game from its (verified) records, folded once through the catalog's
    projections."""
    started = msgspec.json.decode(records[0].payload, type=GameStarted)
    folded = project(game, records, projections_for(find_game(started.kind)))
    games = folded.rows["games"]
    finished = bool(dict(zip(games[0].names, games[1][0], strict=True))["finished"])
    standings = table_rows(folded, STANDINGS.table, ("turn", "player", "figure", "value"))
    faces = Counter(table_rows(folded, DICE.table, ("sides", "face")))
    return GameSeries(
        game=game, kind=started.kind, players=list(started.players), finished=finished,
        standings=standings_of(standings),
        dice=dice_faces((sides, face, n) for (sides, face), n in faces.items()),
        battles=battle_outcomes(table_rows(folded, BATTLES.table, MATCHUP_COLUMNS)))


def league_series(con: duckdb.DuckDBPyConnection, scope: Scope | None = None, *,
                  battles: bool = True) -> LeagueSeries:
    """Dice, battles and lengths of the games ``con``'s catalog views show (narrowed to
    ``scope`` first when given, as ``stats`` narrows them); without ``battles``, none are
    grouped (``stats`` has them in its report already)."""
    if scope is not None:
        from tabletape.queries.scope import narrow

        narrow(con, scope)
    counted = con.execute("SELECT sides, face, count(*) FROM dice GROUP BY ALL").fetchall()
    found = (con.execute(f"SELECT {', '.join(MATCHUP_COLUMNS)} FROM battles").fetchall()
             if battles else [])
    lengths: dict[str, list[int]] = defaultdict(list)
    for kind, turns in con.execute(
            "SELECT kind, turns FROM games WHERE finished ORDER BY kind, turns").fetchall():
        lengths[kind].append(int(turns))
    return LeagueSeries(dice=dice_faces(counted), battles=battle_outcomes(found),
                        lengths=dict(lengths))


def table_rows(folded: Folded, table: str, columns: Sequence[str]) -> list[tuple[Any, ...]]:
    """The ``columns`` of one projected table's rows (none when the game has no such table)."""
    if table not in folded.rows:
        return []
    schema, rows = folded.rows[table]
    at = [schema.names.index(column) for column in columns]
    return [tuple(row[n] for n in at) for row in rows]


def standings_of(rows: Iterable[tuple[Any, ...]]) -> dict[str, dict[str, Series]]:
    """Figure -> player -> series, from ``(turn, player, figure, value)`` rows in turn order.

    >>> standings_of([(0, "ann", "bases", 1.0), (0, "bob", "bases", 2.0), (1, "ann", "bases", 3.0)])
    {'bases': {'ann': [(0, 1.0), (1, 3.0)], 'bob': [(0, 2.0)]}}
    """
    found: dict[str, dict[str, Series]] = defaultdict(lambda: defaultdict(list))
    for turn, player, figure, value in rows:
        found[figure][player].append((int(turn), float(value)))
    return {figure: dict(players) for figure, players in found.items()}


def changed(players: dict[str, Series]) -> bool:
    """Whether some player's figure took more than one value in the game.

    >>> changed({"ann": [(0, 1.0), (1, 1.0)], "bob": [(0, 2.0)]})
    False
    >>> changed({"ann": [(0, 1.0), (1, 2.0)]})
    True
    """
    return any(len({value for _, value in points}) > 1 for points in players.values())


def changing_figures(series: GameSeries) -> list[str]:
    """The figures of the game's standings that changed during it (what a picture draws when
    no figure is asked for: ``plot``, the replay page)."""
    return [name for name, players in series.standings.items() if changed(players)]


def dice_faces(counted: Iterable[tuple[int, int, int]]) -> list[DiceFaces]:
    """Per die size, smallest first, from ``(sides, face, landings)`` counts."""
    by_size: dict[int, Counter[int]] = defaultdict(Counter)
    for sides, face, n in counted:
        by_size[int(sides)][int(face)] += int(n)
    found = []
    for sides, faces in sorted(by_size.items()):
        total = sum(faces.values())
        statistic, p = face_test(faces, sides)
        found.append(DiceFaces(sides=sides, counts=[faces.get(face, 0)
                                                    for face in range(1, sides + 1)],
                               total=total, expected=total / sides,
                               chi_square=round(statistic, 2), p_value=float(f"{p:.3g}")))
    return found


def battle_outcomes(battles: Iterable[Sequence[Any]]) -> list[BattleOutcome]:
    """Per matchup (as the ``battles`` report groups them), rows of
    :data:`~tabletape.queries.reports.MATCHUP_COLUMNS`."""
    return [battle_outcome(key, counts) for key, counts in matchups_of(battles).items()]


def battle_outcome(key: Matchup, counts: Counter[int]) -> BattleOutcome:
    """One matchup's outcomes, from the ``battles`` report's rows of it."""
    rows = matchup_rows(key, counts)
    attacker, defender, attacker_bonus, defender_bonus = key
    outcomes = [Outcome(attacker_losses=losses, observed=observed, share=share, exact=exact,
                        exact_fraction=fraction)
                for _, _, _, losses, observed, share, exact, fraction, _, _ in rows]
    return BattleOutcome(matchup=matchup_name(key), bonus=bonus_name(attacker_bonus,
                                                                      defender_bonus),
                         attacker_sides=list(attacker), defender_sides=list(defender),
                         battles=sum(counts.values()), outcomes=outcomes, p_value=rows[0][-1])
