"""Issue 16 (D): the series a picture of a game draws are the catalog's own rows.

:func:`game_series` folds one log through the catalog's projections; here its standings, dice and
battles are compared with what a synced catalog holds for the same seeded simulated game, for
every shipped game kind.
"""

from __future__ import annotations

from collections import Counter, defaultdict

import duckdb
import pytest

from tabletape.ledger import Ledger
from tabletape.queries.catalog import connect
from tabletape.queries.database import sql_string
from tabletape.queries.odds import battle_odds, face_test
from tabletape.queries.reports import run_reports
from tabletape.queries.scope import Scope, stored
from tabletape.queries.series import GameSeries, game_series, league_series
from tabletape.replay.simulate import simulate

KINDS = ("risk-strike", "marvel-united", "risk-deep-space", "risk-transformers")


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> tuple[Ledger, dict[str, list[str]]]:
    """Two seeded simulated games of every shipped kind."""
    ledger = Ledger(tmp_path_factory.mktemp("series") / "ledger")
    return ledger, {kind: simulate(ledger, kind, games=2, seed=16) for kind in KINDS}


@pytest.fixture(scope="module")
def catalog(league: tuple[Ledger, dict[str, list[str]]]) -> duckdb.DuckDBPyConnection:
    return connect(league[0], include_simulated=True)


def games_of(league: tuple[Ledger, dict[str, list[str]]]) -> list[str]:
    return [game for games in league[1].values() for game in games]


@pytest.mark.slow
def test_standings_are_the_catalogs_rows_turn_by_turn(
        league: tuple[Ledger, dict[str, list[str]]], catalog: duckdb.DuckDBPyConnection) -> None:
    ledger = league[0]
    for game in games_of(league):
        series = game_series(game, ledger.records(game))
        stored: dict[str, dict[str, list[tuple[int, float]]]] = defaultdict(
            lambda: defaultdict(list))
        for turn, player, figure, value in catalog.execute(
                "SELECT turn, player, figure, value FROM standings WHERE game = ? "
                "ORDER BY turn", [game]).fetchall():
            stored[figure][player].append((turn, value))
        assert series.standings, game
        assert series.standings == {figure: dict(players) for figure, players in stored.items()}
        for players in series.standings.values():
            for points in players.values():
                turns = [turn for turn, _ in points]
                assert turns == sorted(turns), f"{game}: a series out of turn order"


def test_dice_faces_count_the_catalogs_dice_per_size(
        league: tuple[Ledger, dict[str, list[str]]], catalog: duckdb.DuckDBPyConnection) -> None:
    ledger = league[0]
    seen_dice = False
    for game in games_of(league):
        series = game_series(game, ledger.records(game))
        stored = Counter({(sides, face): n for sides, face, n in catalog.execute(
            "SELECT sides, face, count(*) FROM dice WHERE game = ? GROUP BY ALL",
            [game]).fetchall()})
        counted = Counter({(die.sides, face): n for die in series.dice
                           for face, n in enumerate(die.counts, start=1) if n})
        assert counted == stored, game
        for die in series.dice:
            seen_dice = True
            assert len(die.counts) == die.sides and sum(die.counts) == die.total
            assert die.expected == pytest.approx(die.total / die.sides)
            assert die.p_value == pytest.approx(face_test(
                Counter(dict(enumerate(die.counts, start=1))), die.sides)[1], rel=1e-2)
    assert seen_dice


def test_battles_are_the_battles_reports_rows_for_the_game(
        league: tuple[Ledger, dict[str, list[str]]]) -> None:
    """The same grouping as ``stats battles``: each game alone in a catalog gives the report's
    rows, outcome by outcome."""
    ledger, fought = league[0], 0
    for game in games_of(league):
        series = game_series(game, ledger.records(game))
        con = connect(ledger, include_simulated=True)
        con.execute(f"CREATE TEMP VIEW battles AS SELECT * FROM {stored(con)}.battles "
                    f"WHERE game = {sql_string(game)}")
        (report,) = run_reports(con, ["battles"])
        flat = [(battle.matchup, battle.bonus, battle.battles, outcome.attacker_losses,
                 outcome.observed, outcome.exact_fraction, battle.p_value)
                for battle in series.battles for outcome in battle.outcomes]
        expected = [(row["matchup"], row["bonus"], row["battles"], row["attacker_losses"],
                     row["observed"], row["exact_fraction"], row["p_value"])
                    for row in report.records()]
        assert flat == expected, game
        fought += len(flat)
        con.close()
    assert fought


def test_exact_odds_of_a_plain_matchup_are_the_rulebook_sums(
        league: tuple[Ledger, dict[str, list[str]]]) -> None:
    """Risk Strike, "Battle": highest dice are compared pairwise, ties to the defender; the
    exact odds of a plain NvM d6 matchup are :func:`battle_odds` of it."""
    ledger, kinds = league
    plain = [battle for game in kinds["risk-strike"]
             for battle in game_series(game, ledger.records(game)).battles if not battle.bonus]
    assert plain
    for battle in plain:
        odds = battle_odds(len(battle.attacker_sides), len(battle.defender_sides))
        assert [outcome.exact for outcome in battle.outcomes] == [
            round(float(q), 4) for q in odds.values()]
        assert sum(outcome.observed for outcome in battle.outcomes) == battle.battles


def test_league_series_is_every_games_dice_and_battles(
        league: tuple[Ledger, dict[str, list[str]]], catalog: duckdb.DuckDBPyConnection) -> None:
    ledger = league[0]
    whole = league_series(catalog)
    per_game = [game_series(game, ledger.records(game)) for game in games_of(league)]
    totals: Counter[int] = Counter()
    for series in per_game:
        for die in series.dice:
            totals[die.sides] += die.total
    assert {die.sides: die.total for die in whole.dice} == dict(totals)
    assert sum(b.battles for b in whole.battles) == sum(
        b.battles for series in per_game for b in series.battles)


def test_league_series_narrows_to_a_scope(league: tuple[Ledger, dict[str, list[str]]]) -> None:
    ledger, kinds = league
    con = connect(ledger)
    narrowed = league_series(con, Scope(kind="risk-strike", include_simulated=True))
    con.close()
    alone = [game_series(game, ledger.records(game)) for game in kinds["risk-strike"]]
    assert sum(b.battles for b in narrowed.battles) == sum(
        b.battles for series in alone for b in series.battles)
    assert [die.sides for die in narrowed.dice] == [6]


def test_an_unfinished_game_has_its_series_so_far(tmp_path) -> None:  # type: ignore[no-untyped-def]
    ledger = Ledger(tmp_path / "ledger")
    (game,) = simulate(ledger, "risk-strike", games=1, seed=3)
    records = ledger.records(game)
    whole = game_series(game, records)
    part = game_series(game, records[: len(records) // 2])
    assert whole.finished and not part.finished
    last_turn = max(turn for players in part.standings.values() for points in players.values()
                    for turn, _ in points)
    assert last_turn < max(turn for players in whole.standings.values()
                           for points in players.values() for turn, _ in points)
    assert isinstance(part, GameSeries)
