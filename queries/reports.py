"""Canned statistics: the questions players ask, answered from the catalog.

A report is a function of a catalog connection registered by :func:`report`; adding one (say
Marvel United's "how games were lost") is one more decorated function::

    @report("villains", "Win rate per villain")
    def villains(con): ...

Each returns a :class:`ReportTable`: column names, rows and notes for people.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import duckdb
import msgspec

from tabletape.queries.odds import chi_square, dice_odds, face_test, z_score
from tabletape.rules.dice import NO_BONUS, Bonus

SUSPICIOUS_P = 1e-4
"""A player's dice whose fairness test gives a p-value below this are flagged ``suspicious``."""


class ReportTable(msgspec.Struct, kw_only=True):
    """A report's result: what ``stats --format json`` prints for it."""

    report: str
    title: str
    columns: list[str]
    rows: list[list[Any]]
    notes: list[str] = []

    def records(self) -> list[dict[str, Any]]:
        """The rows as objects keyed by column name."""
        return [dict(zip(self.columns, row, strict=True)) for row in self.rows]

    def to_json(self) -> dict[str, Any]:
        return {"report": self.report, "title": self.title, "columns": self.columns,
                "rows": self.records(), "notes": self.notes}


ReportFunction = Callable[[duckdb.DuckDBPyConnection], ReportTable]


class Report(msgspec.Struct, frozen=True):
    name: str
    title: str
    doc: str
    run: ReportFunction


REPORTS: dict[str, Report] = {}
"""Every report by name, in the order ``stats`` shows them (see :func:`all_reports`)."""


def all_reports() -> dict[str, Report]:
    """Every report, the shipped games' own included (their plug-ins register them on import)."""
    from tabletape.queries.projections import plugin
    from tabletape.rules.registry import manifests

    for kind in manifests():
        plugin(kind)
    return REPORTS


def report(name: str, title: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register a report: a function ``(con) -> (columns, rows[, notes])``."""

    def register(function: Callable[..., Any]) -> Callable[..., Any]:
        def run(con: duckdb.DuckDBPyConnection) -> ReportTable:
            columns, rows, *rest = function(con)
            return ReportTable(report=name, title=title, columns=list(columns),
                               rows=[list(row) for row in rows],
                               notes=list(rest[0]) if rest else [])

        REPORTS[name] = Report(name, title, (function.__doc__ or "").strip(), run)
        return function

    return register


def rows_of(con: duckdb.DuckDBPyConnection, query: str) -> tuple[list[str], list[tuple[Any, ...]]]:
    relation = con.sql(query)
    return relation.columns, relation.fetchall()


# -- win rates -----------------------------------------------------------------------------------


@report("players", "Win rate by player")
def win_rate_by_player(con: duckdb.DuckDBPyConnection) -> tuple[list[str], list[Any]]:
    """Finished games and wins of each player, per game kind."""
    return rows_of(con, """
        SELECT kind, player, count(*) AS games, count(*) FILTER (won) AS wins,
               round(avg(won::INTEGER), 3) AS win_rate
        FROM results GROUP BY kind, player ORDER BY kind, win_rate DESC, games DESC, player""")


@report("seats", "Win rate by seat and by play order (first-player advantage)")
def win_rate_by_seat(con: duckdb.DuckDBPyConnection) -> tuple[list[str], list[Any]]:
    """Per kind and player count: wins by seat and by position in the play order; ``fair`` is
    what every position would win if it made no difference."""
    return rows_of(con, """
        WITH counted AS (
            SELECT r.*, count(*) OVER (PARTITION BY r.game) AS seated FROM results r)
        SELECT kind, seated AS players, 'seat' AS position_by, seat AS position,
               count(*) AS games, count(*) FILTER (won) AS wins,
               round(avg(won::INTEGER), 3) AS win_rate, round(1 / any_value(seated), 3) AS fair
        FROM counted GROUP BY ALL
        UNION ALL
        SELECT kind, seated, 'play order', play_order, count(*), count(*) FILTER (won),
               round(avg(won::INTEGER), 3), round(1 / any_value(seated), 3)
        FROM counted WHERE play_order IS NOT NULL GROUP BY ALL
        ORDER BY kind, players, position_by DESC, position""")


@report("sides", "Win rate of each faction, team, leader, hero and villain")
def win_rate_by_side(con: duckdb.DuckDBPyConnection) -> tuple[list[str], list[Any], list[str]]:
    """Where the game has factions, teams, leaders, heroes or villains: how often each won.

    Every row is the named side's own record: ``won`` counts the times that faction, team,
    leader, hero or villain won (a villain wins when the heroes lose). ``played`` counts a
    faction, leader or hero once per player who played it (the two Decepticons of a 3-player
    Risk: Transformers game, each playing alone, are played twice), a team or villain once per
    game; ``per`` says which."""
    columns, rows = rows_of(con, """
        SELECT kind, side, name, per, count(*) AS played, count(*) FILTER (won) AS won,
               round(avg(won::INTEGER), 3) AS win_rate
        FROM (
            SELECT kind, 'faction' AS side, faction AS name, 'player' AS per, won FROM results
                WHERE faction IS NOT NULL
            UNION ALL SELECT kind, 'team', player_team, 'game', won FROM (
                SELECT DISTINCT game, kind, player_team, won FROM results
                WHERE player_team IS NOT NULL)
            UNION ALL SELECT kind, 'leader', leader, 'player', won FROM results
                WHERE leader IS NOT NULL
            UNION ALL SELECT kind, 'hero', hero, 'player', won FROM results WHERE hero IS NOT NULL
            UNION ALL SELECT kind, 'villain', villain, 'game', len(winners) = 0 FROM games
                WHERE finished AND villain IS NOT NULL)
        GROUP BY ALL ORDER BY kind, side, win_rate DESC, name""")
    notes = ["Each row: how often the named side itself won (a villain wins when the heroes "
             "lose). played: per player, a faction, leader or hero counts once for each player "
             "who played it (two players of one faction in a game: 2); per game, a team or "
             "villain once a game."]
    return columns, rows, notes


@report("lengths", "Game length")
def game_lengths(con: duckdb.DuckDBPyConnection) -> tuple[list[str], list[Any]]:
    """Finished games per kind: turns, rounds and minutes (mean, shortest, longest)."""
    return rows_of(con, """
        SELECT kind, count(*) AS games,
               round(avg(turns), 1) AS turns_mean, min(turns) AS turns_min,
               max(turns) AS turns_max, round(avg(rounds), 1) AS rounds_mean,
               round(avg(minutes), 1) AS minutes_mean, round(min(minutes), 1) AS minutes_min,
               round(max(minutes), 1) AS minutes_max,
               round(sum(minutes) * 60 / nullif(sum(turns), 0), 1) AS seconds_per_turn
        FROM games WHERE finished GROUP BY kind ORDER BY kind""")


# -- dice ----------------------------------------------------------------------------------------


@report("dice", "Dice luck per player")
def dice_luck(con: duckdb.DuckDBPyConnection) -> tuple[list[str], list[Any], list[str]]:
    """Faces as they landed, per player and die size: the mean against the fair mean, and the
    chi-square test of the face counts (p-value; ``suspicious`` below SUSPICIOUS_P)."""
    counts: dict[tuple[str, int], Counter[int]] = defaultdict(Counter)
    for player, sides, face, n in con.execute(
        "SELECT player, sides, face, count(*) FROM dice GROUP BY ALL").fetchall():
        counts[(player, sides)][face] = n
    rows = []
    for (player, sides), faces in sorted(counts.items()):
        n = sum(faces.values())
        mean = sum(face * k for face, k in faces.items()) / n
        statistic, p = face_test(faces, sides)
        verdict = "suspicious" if p < SUSPICIOUS_P else "fair"
        rows.append((player, sides, n, round(mean, 3), (sides + 1) / 2, round(statistic, 2),
                     float(f"{p:.3g}"), verdict))
    notes = [f"p-value: chance that fair dice look at least this uneven; below {SUSPICIOUS_P:g} "
             "the dice are called suspicious. Few dice (under 5 per face) say little."]
    columns = ["player", "sides", "dice", "mean", "fair_mean", "chi_square", "p_value",
               "verdict"]
    return columns, rows, notes


@report("battles", "Battle outcomes against the exact odds")
def battle_outcomes(con: duckdb.DuckDBPyConnection) -> tuple[list[str], list[Any], list[str]]:
    """Battles per matchup (the sides of each attack die v each defence die, and each side's
    bonus): how often the attacker lost 0, 1, 2 pairs, beside the exact probability (ties to the
    defender; a bonus on one die placed where it helps most)."""
    found = con.execute(f"SELECT {', '.join(MATCHUP_COLUMNS)} FROM battles").fetchall()
    rows = []
    for key, counts in matchups_of(found).items():
        rows.extend(matchup_rows(key, counts))
    notes = ["exact: probability by enumerating every roll, a +1 on one die placed where it "
             "helps its side most; z: (observed - expected) / sd; p_value: chi-square test of "
             "the matchup's counts. Battles whose dice something other than a recorded bonus "
             "changed (a face turned to a 6) are left out."]
    columns = ["matchup", "bonus", "battles", "attacker_losses", "observed", "share", "exact",
               "exact_fraction", "z", "p_value"]
    return columns, rows, notes


Matchup = tuple[tuple[int, ...], tuple[int, ...], Bonus, Bonus]
"""The sides of each attack die and of each defence die, largest first, and each side's bonus:
``((8, 6), (6, 6), Bonus(one=1), NO_BONUS)``."""


MATCHUP_COLUMNS = ("attacker_die_sides", "defender_die_sides", "attacker_bonus_each",
                   "attacker_bonus_one", "defender_bonus_each", "defender_bonus_one",
                   "attacker_modifiers", "defender_modifiers", "attacker_losses")
"""The ``battles`` columns :func:`matchups_of` groups, in the order it takes them."""


def matchups_of(battles: Iterable[Sequence[Any]]) -> dict[Matchup, Counter[int]]:
    """How often the attacker lost 0, 1, 2... pairs, per matchup, in :func:`matchup_order`.

    ``battles`` are rows of :data:`MATCHUP_COLUMNS` (the catalog's or one game's projected
    ``battles`` rows); a battle without dice on both sides, or whose dice something other than
    its recorded bonus changed, is left out. The ``battles`` report and
    :func:`tabletape.queries.series.game_series` both count with it.

    >>> found = matchups_of([([6, 6], [6], 0, 0, 0, 0, [0, 0], [0], 1),
    ...                      ([6], [], 0, 0, 0, 0, [0], [], 0)])  # no defence dice: left out
    >>> [(matchup_name(key), dict(counts)) for key, counts in found.items()]
    [('2v1 d6', {1: 1})]
    """
    matchups: dict[Matchup, Counter[int]] = defaultdict(Counter)
    for attacker, defender, a_each, a_one, d_each, d_one, a_mods, d_mods, lost in battles:
        bonuses = Bonus(a_each or 0, a_one or 0), Bonus(d_each or 0, d_one or 0)
        if (attacker and defender and explained(a_mods, bonuses[0])
                and explained(d_mods, bonuses[1])):
            key = (tuple(sorted(attacker, reverse=True)), tuple(sorted(defender, reverse=True)),
                   *bonuses)
            matchups[key][lost] += 1
    return {key: matchups[key] for key in sorted(matchups, key=matchup_order)}


def explained(modifiers: list[int], bonus: Bonus) -> bool:
    """Whether what modifiers did to a side's dice is its bonus: ``each`` on every die and
    ``one`` more on at most one of them.

    >>> explained([1, 1, 2], Bonus(each=1, one=1)), explained([0, 0], NO_BONUS)
    (True, True)
    >>> explained([5, 0], NO_BONUS)  # a face turned to a 6
    False
    """
    extra = sorted(shift - bonus.each for shift in modifiers)
    if not extra:
        return True
    return all(shift == 0 for shift in extra[:-1]) and extra[-1] in (0, bonus.one)


def matchup_order(key: Matchup) -> tuple[Any, ...]:
    """Smaller dice first, then more dice first (``3v2 d6`` before ``1v1 d6``), unbonused first."""
    attacker, defender, attacker_bonus, defender_bonus = key
    return (max(attacker), max(defender), -len(attacker), -len(defender), attacker, defender,
            attacker_bonus.each, attacker_bonus.one, defender_bonus.each, defender_bonus.one)


def matchup_name(key: Matchup) -> str:
    """``3v2 d6`` or ``3v2 d8/d6`` when each side's dice are one size, else ``d8+d6 v 2d6``.

    >>> matchup_name(((6, 6, 6), (6, 6), NO_BONUS, NO_BONUS))
    '3v2 d6'
    >>> matchup_name(((8,), (6,), NO_BONUS, NO_BONUS))
    '1v1 d8/d6'
    >>> matchup_name(((8, 6), (6, 6), Bonus(one=1), NO_BONUS))
    'd8+d6 v 2d6'
    """
    attacker, defender, _, _ = key
    if len(set(attacker)) == 1 and len(set(defender)) == 1:
        sa, sd = attacker[0], defender[0]
        sizes = f"d{sa}" if sa == sd else f"d{sa}/d{sd}"
        return f"{len(attacker)}v{len(defender)} {sizes}"
    return f"{dice_name(attacker)} v {dice_name(defender)}"


def bonus_name(attacker: Bonus, defender: Bonus) -> str:
    """Each side's bonus in table words; ``""`` for none.

    >>> bonus_name(Bonus(each=1, one=1), Bonus(one=1))
    'attacker +1 each die +1 one die, defender +1 one die'
    >>> bonus_name(NO_BONUS, NO_BONUS)
    ''
    """
    return ", ".join(f"{side} {side_bonus(bonus)}" for side, bonus in
                     (("attacker", attacker), ("defender", defender)) if bonus != NO_BONUS)


def side_bonus(bonus: Bonus) -> str:
    """``+1 each die +1 one die``: one side's bonus."""
    parts = [(bonus.each, "each die"), (bonus.one, "one die")]
    return " ".join(f"{n:+d} {what}" for n, what in parts if n)


def dice_name(sides: tuple[int, ...]) -> str:
    """``2d6``, ``d8+d6``: one side's dice as players write them."""
    counts = Counter(sides)
    return "+".join(f"{n if n > 1 else ''}d{size}" for size, n in counts.items())


def matchup_rows(key: Matchup, counts: Counter[int]) -> list[tuple[Any, ...]]:
    """One row per attacker-loss count of one matchup."""
    attacker, defender, attacker_bonus, defender_bonus = key
    odds = dice_odds(attacker, defender, attacker_bonus, defender_bonus)
    n = sum(counts.values())
    _, p = chi_square([counts.get(k, 0) for k in odds], [n * float(q) for q in odds.values()])
    outcomes = math.prod(attacker) * math.prod(defender)
    bonus = bonus_name(attacker_bonus, defender_bonus)
    return [(matchup_name(key), bonus, n, losses, counts.get(losses, 0),
             round(counts.get(losses, 0) / n, 4), round(float(q), 4),
             f"{q * outcomes}/{outcomes}", round(z_score(counts.get(losses, 0), n, float(q)), 2),
             float(f"{p:.3g}"))
            for losses, q in odds.items()]


def run_reports(con: duckdb.DuckDBPyConnection,
                names: list[str] | None = None) -> list[ReportTable]:
    """Run the named reports (all when None)."""
    return [REPORTS[name].run(con) for name in names or list(REPORTS)]
