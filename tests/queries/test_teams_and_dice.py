"""Teams and mixed dice in the shared catalog (catalog version 4): ``players.team``, the winning
team in ``games``, dice of different sizes on one side and a modifier on one die; and a catalog
of the previous version rebuilt from the logs, people told once."""

from __future__ import annotations

import duckdb
import pytest
from typer.testing import CliRunner

import tabletape
from tabletape.ledger import Ledger
from tabletape.queries.catalog import CatalogRebuiltWarning, catalog_path, connect, sync
from tabletape.queries.odds import dice_odds
from tabletape.queries.reports import run_reports
from tabletape.queries.schema import CATALOG_VERSION
from tabletape.replay.fold import fold_records
from tests.queries.conftest import bot_games, record, start_game
from tests.queries.duelgame import Attacked

TEAMS = {"olga": "autobots", "patrick": "decepticons"}
MIX = [8, 6, 6]
"""A leader's d8 beside two d6: the attacker's dice of one battle."""


def rows(con: duckdb.DuckDBPyConnection, query: str) -> list[dict[str, object]]:
    relation = con.sql(query)
    return [dict(zip(relation.columns, row, strict=True)) for row in relation.fetchall()]


def test_each_player_has_a_team_and_games_the_winning_team(ledger: Ledger) -> None:
    games = bot_games(ledger, "duel", 3, seed=5, options={"teams": TEAMS})
    with connect(ledger) as con:
        players = rows(con, "SELECT game, name, team, won FROM players")
        finished = {r["game"]: r["team"] for r in rows(con, "SELECT game, team FROM games")}
        results = rows(con, "SELECT player, player_team, team FROM results")
    assert {(r["name"], r["team"]) for r in players} == set(TEAMS.items())
    for game in games:
        folded = fold_records(game, ledger.records(game))
        (winner,) = folded.rules.result(folded.state).winners  # type: ignore[union-attr]
        assert finished[game] == TEAMS[winner]
    assert all(r["player_team"] == TEAMS[r["player"]] for r in results)  # type: ignore[index]


def test_a_game_without_teams_has_none(ledger: Ledger) -> None:
    bot_games(ledger, "duel", 1, seed=6)
    with connect(ledger) as con:
        assert con.execute("SELECT count(*) FROM players WHERE team IS NOT NULL").fetchone() == (0,)
        assert con.execute("SELECT count(*) FROM games WHERE team IS NOT NULL").fetchone() == (0,)


def test_marvel_united_players_are_all_heroes_and_a_win_is_a_side(ledger: Ledger) -> None:
    """Rulebook, "Objective": the heroes win together or all lose to the villain."""
    games = bot_games(ledger, "marvel-united", 3, seed=2)
    with connect(ledger) as con:
        teams = {r["team"] for r in rows(con, "SELECT team FROM players")}
        winners = {r["game"]: r["team"] for r in rows(con, "SELECT game, team FROM games")}
        results = rows(con, "SELECT game, won, player_team, team FROM results")
    assert teams == {"heroes"}
    assert set(winners) == set(games) and set(winners.values()) <= {"heroes", "villain"}
    assert all(r["won"] == (r["team"] == r["player_team"]) for r in results)


def mixed_battle(ledger: Ledger) -> str:
    """olga attacks with a d8 (7, a card adds 1) and a d6 (2) against patrick's d6s (5, 3)."""
    game = start_game(ledger, "duel", ("olga", "patrick"), seed=1, game_id="du-mixed",
                      options={"attacker_mix": MIX})
    record(ledger, game, [("olga", Attacked(count=2, attacker=(7, 2), defender=(5, 3),
                                            boost=1))])
    return game


def test_dice_rows_hold_each_dies_sides_and_modifier(ledger: Ledger) -> None:
    mixed_battle(ledger)
    with connect(ledger) as con:
        dice = rows(con, "SELECT role, die, sides, face, value, modifier FROM dice ORDER BY ALL")
    assert dice == [
        {"role": "attacker", "die": 1, "sides": 8, "face": 7, "value": 8, "modifier": 1},
        {"role": "attacker", "die": 2, "sides": 6, "face": 2, "value": 2, "modifier": 0},
        {"role": "defender", "die": 1, "sides": 6, "face": 5, "value": 5, "modifier": 0},
        {"role": "defender", "die": 2, "sides": 6, "face": 3, "value": 3, "modifier": 0},
    ]


def test_battle_rows_hold_mixed_sides_and_a_modified_die(ledger: Ledger) -> None:
    mixed_battle(ledger)
    with connect(ledger) as con:
        (battle,) = rows(con, "SELECT * EXCLUDE (game, kind, battle, seq, turn, source, target) "
                          "FROM battles")
    assert battle == {
        "attacker": "olga", "defender": "patrick", "attacker_dice": 2, "defender_dice": 2,
        "attacker_sides": None, "defender_sides": 6, "attacker_faces": [7, 2],
        "defender_faces": [5, 3], "attacker_die_sides": [8, 6], "defender_die_sides": [6, 6],
        "attacker_modifiers": [1, 0], "defender_modifiers": [0, 0], "attacker_bonus_each": 0,
        "attacker_bonus_one": 0, "defender_bonus_each": 0, "defender_bonus_one": 0,
        "modified": True,
        "attacker_losses": 1, "defender_losses": 1,
    }


def test_the_battle_report_gives_mixed_dice_their_exact_odds(ledger: Ledger) -> None:
    bot_games(ledger, "duel", 40, seed=8, options={"attacker_mix": MIX})
    with connect(ledger) as con:
        (table,) = run_reports(con, ["battles"])
        mixed = con.execute("SELECT count(*) FROM battles WHERE NOT modified AND "
                            "attacker_die_sides = [8, 6, 6] AND defender_dice = 2").fetchone()
    found = {(r["matchup"], r["attacker_losses"]): r for r in table.records() if not r["bonus"]}
    odds = dice_odds((8, 6, 6), (6, 6))
    assert [found[("d8+2d6 v 2d6", k)]["exact_fraction"] for k in range(3)] == [
        f"{q * 10368}/10368" for q in odds.values()]  # 8 * 6**4 rolls
    assert found[("d8+2d6 v 2d6", 0)]["battles"] == mixed[0]  # type: ignore[index]
    assert ("1v1 d8/d6", 0) in found  # a d8 alone: all of one size, named as before


def make_version_3(ledger: Ledger) -> None:
    """Mark the catalog as one made by catalog version 3 (the version before bonus kinds)."""
    with duckdb.connect(str(catalog_path(ledger))) as con:
        con.execute("UPDATE _meta SET value = '3' WHERE key = 'catalog_version'")
        con.execute("DELETE FROM all_games")


def test_a_version_3_catalog_is_rebuilt_and_people_told_once(ledger: Ledger) -> None:
    assert CATALOG_VERSION == "10"  # 10: games.demo (issue 27)
    bot_games(ledger, "duel", 2, seed=9)
    sync(ledger)
    make_version_3(ledger)
    report = sync(ledger)
    assert report.rebuilt and report.loaded == 2 and "catalog version 3" in report.outdated
    again = sync(ledger)
    assert not again.rebuilt and again.outdated == ""
    with connect(ledger, sync_first=False) as con:
        assert con.execute("SELECT count(*) FROM games").fetchone() == (2,)


def test_the_cli_and_connect_say_a_rebuild_once(ledger: Ledger) -> None:
    bot_games(ledger, "duel", 1, seed=10)
    sync(ledger)
    make_version_3(ledger)
    app = tabletape.build_app()
    runner = CliRunner()
    told = runner.invoke(app, ["sql", "SELECT count(*) AS n FROM games", "--ledger",
                               str(ledger.root)])
    assert told.exit_code == 0 and "catalog version 3" in told.stderr
    quiet = runner.invoke(app, ["sync", "--ledger", str(ledger.root)])
    assert quiet.exit_code == 0 and "catalog version" not in quiet.output
    make_version_3(ledger)
    with pytest.warns(CatalogRebuiltWarning, match="rebuilt from the logs"), connect(ledger):
        pass


def test_the_sides_report_counts_a_team_once_per_game(ledger: Ledger) -> None:
    """Marvel United's heroes win or lose together: the ``heroes`` team has one game per game,
    however many heroes played it, and the games the rules' result says they won."""
    games = bot_games(ledger, "marvel-united", 3, seed=2)
    won = 0
    for game in games:
        folded = fold_records(game, ledger.records(game))
        won += folded.rules.result(folded.state).team == "heroes"  # type: ignore[union-attr]
    with connect(ledger) as con:
        (table,) = run_reports(con, ["sides"])
        (seated,) = con.execute("SELECT count(*) FROM results").fetchone()  # type: ignore[misc]
    teams = {r["name"]: r for r in table.records() if r["side"] == "team"}
    assert set(teams) == {"heroes"} and seated > len(games)
    assert (teams["heroes"]["played"], teams["heroes"]["won"]) == (len(games), won)
