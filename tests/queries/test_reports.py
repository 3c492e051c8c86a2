"""``tabletape stats``: win rates, lengths, dice luck and battle odds on many seeded bot games.

Tolerances: the fair-dice checks allow a p-value down to 1e-9 per test and |z| up to 6.5 per
count, so a correct implementation fails them far less than once in a million runs (about 40
comparisons); a loaded die gives p-values below 1e-20.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest
from typer.testing import CliRunner

import tabletape
from tabletape.ledger import Ledger
from tabletape.queries.catalog import connect
from tabletape.queries.reports import REPORTS, SUSPICIOUS_P, run_reports
from tabletape.replay.fold import fold_records
from tests.queries.conftest import bot_games

MIN_P = 1e-9
MAX_Z = 6.5


@pytest.fixture(scope="module")
def many(tmp_path_factory: pytest.TempPathFactory) -> Ledger:
    ledger = Ledger(tmp_path_factory.mktemp("stats") / "ledger")
    bot_games(ledger, "duel", 260, seed=11)
    bot_games(ledger, "duel", 140, seed=12, options={"attacker_sides": 8}, prefix="d8")
    bot_games(ledger, "duel", 60, seed=13, players=("cheat", "honest"),
              options={"bias": 3, "cheat": "cheat"}, prefix="loaded")
    return ledger


def report(ledger: Ledger, name: str) -> list[dict[str, object]]:
    with connect(ledger) as con:
        return run_reports(con, [name])[0].records()


def test_battle_outcomes_match_the_exact_odds(many: Ledger) -> None:
    rows = report(many, "battles")
    matchups = {r["matchup"] for r in rows}
    assert {"3v2 d6", "3v1 d6", "2v2 d6", "2v1 d6", "1v2 d6", "1v1 d6", "3v2 d8/d6",
            "1v1 d8/d6"} <= matchups
    checked = 0
    for row in rows:
        if row["battles"] >= 30:  # type: ignore[operator]
            checked += 1
            assert abs(row["z"]) <= MAX_Z, row  # type: ignore[arg-type]
            assert row["p_value"] >= MIN_P, row  # type: ignore[operator]
    assert checked >= 12
    three_two = {r["attacker_losses"]: r for r in rows
                 if r["matchup"] == "3v2 d6" and r["bonus"] == ""}
    assert [three_two[k]["exact_fraction"] for k in range(3)] == [
        "2890/7776", "2611/7776", "2275/7776"]


def test_battle_report_counts_battles_whose_only_modifier_is_a_bonus(many: Ledger) -> None:
    """The duel bot's "+1 to each die" is a bonus the report knows the odds of: every battle is
    counted, the bonused ones in matchups of their own."""
    with connect(many) as con:
        (battles,) = con.execute("SELECT count(*) FROM battles").fetchone()  # type: ignore[misc]
        (bonused,) = con.execute(  # type: ignore[misc]
            "SELECT count(*) FROM battles WHERE modified AND attacker_bonus_each = 1").fetchone()
    rows = report(many, "battles")
    assert sum(r["observed"] for r in rows) == battles  # type: ignore[misc]
    assert sum(r["observed"] for r in rows if r["bonus"] == "attacker +1 each die") == bonused
    assert bonused > 0


def test_fair_dice_are_fair_and_a_loaded_die_is_caught(many: Ledger) -> None:
    rows = {(r["player"], r["sides"]): r for r in report(many, "dice")}
    assert rows[("cheat", 6)]["verdict"] == "suspicious"
    assert rows[("cheat", 6)]["p_value"] < 1e-20  # type: ignore[operator]
    assert rows[("cheat", 6)]["mean"] > 3.8  # type: ignore[operator]
    for key in [("olga", 6), ("patrick", 6), ("olga", 8), ("patrick", 8), ("honest", 6)]:
        assert rows[key]["p_value"] >= MIN_P, rows[key]  # type: ignore[operator]
        assert abs(rows[key]["mean"] - rows[key]["fair_mean"]) < 0.3  # type: ignore[operator]
    assert SUSPICIOUS_P < 0.01


def test_win_rates_match_the_folds(many: Ledger) -> None:
    wins: Counter[str] = Counter()
    played: Counter[str] = Counter()
    first_wins = 0
    games = many.game_ids()
    for game in games:
        folded = fold_records(game, many.records(game))
        result = folded.rules.result(folded.state)
        assert result is not None
        played.update(folded.started.players)
        wins.update(result.winners)
        first_wins += folded.started.players[0] in result.winners
    rows = {r["player"]: r for r in report(many, "players")}
    for player, n in played.items():
        assert (rows[player]["games"], rows[player]["wins"]) == (n, wins[player])
    seats = [r for r in report(many, "seats") if r["position_by"] == "seat"]
    assert sum(r["wins"] for r in seats if r["position"] == 1) == first_wins  # type: ignore[misc]
    sides = {r["name"]: r for r in report(many, "sides")}
    assert sides["red"]["played"] == len(games)


def test_lengths(many: Ledger) -> None:
    (row,) = report(many, "lengths")
    with connect(many) as con:
        turns = con.execute("SELECT avg(turns), max(minutes) FROM games").fetchone()
    assert row["games"] == 460 and row["turns_mean"] == round(turns[0], 1)
    assert row["seconds_per_turn"] == 30.0 and row["minutes_max"] == round(turns[1], 1)


def test_stats_command_json_and_table(many: Ledger) -> None:
    app = tabletape.build_app()
    result = CliRunner().invoke(app, ["stats", "--format", "json", "--ledger", str(many.root)])
    assert result.exit_code == 0
    shaped = json.loads(result.stdout)
    assert [r["report"] for r in shaped] == list(REPORTS)
    assert set(shaped[0]) == {"report", "title", "columns", "rows", "notes"}
    result = CliRunner().invoke(app, ["stats", "dice", "--ledger", str(many.root)])
    assert result.exit_code == 0 and "suspicious" in result.stdout
    result = CliRunner().invoke(app, ["stats", "dise", "--ledger", str(many.root)])
    assert result.exit_code == 2 and "did you mean 'dice'" in result.output


def test_a_games_own_report_is_found_by_name_before_any_sync(tmp_path) -> None:
    """``stats villains`` works on a fresh process: game plug-ins register their reports first."""
    import subprocess
    import sys

    code = ("from tabletape.queries.reports import all_reports; "
            "print(sorted(set(all_reports()) & {'villains', 'losses', 'hero-teams'}))")
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True).stdout
    assert shown.strip() == "['hero-teams', 'losses', 'villains']"
