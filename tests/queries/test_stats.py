"""Issue 15 (H): ``stats --kind/--player/--since``, ``stats sides`` saying whose win rate a row
shows, and ``stats`` within 80 columns without cutting a word or a number."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import tabletape
from tabletape.ledger import Ledger
from tabletape.queries.catalog import connect
from tabletape.queries.layout import cell_text, drawn_in_place
from tabletape.replay.fold import fold_records
from tabletape.replay.simulate import simulate
from tabletape.rules.bot_games import bot_game
from tabletape.rules.registry import find_game
from tests.queries.conftest import bot_games, record, start_game

APP = tabletape.build_app()
MARCH = datetime(2026, 3, 14, 19, 0, tzinfo=UTC)


def played_on(ledger: Ledger, kind: str, game: str, players: tuple[str, ...], at: datetime,
              seed: int) -> None:
    """A whole bot game of ``kind`` recorded on the evening of ``at``."""
    start_game(ledger, kind, players, seed=seed, game_id=game, at=at)
    record(ledger, game, bot_game(find_game(kind), ledger.started(game), random.Random(seed)),
           start=at)


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Ledger:
    """Duel games of olga and patrick (January), olga and Zoë (March); tiny games in January."""
    ledger = Ledger(tmp_path_factory.mktemp("stats-scope") / "ledger")
    bot_games(ledger, "duel", 6, seed=1)
    bot_games(ledger, "tiny", 3, seed=2)
    for n in range(4):
        played_on(ledger, "duel", f"du-march-{n}", ("Olga", "Zoë"), MARCH, seed=70 + n)
    return ledger


def run(ledger: Ledger, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(APP, [*args, "--ledger", str(ledger.root)])
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


def stats(ledger: Ledger, report: str, *options: str) -> list[dict[str, Any]]:
    code, output = run(ledger, "stats", report, "--format", "json", *options)
    assert code == 0, output
    rows: list[dict[str, Any]] = json.loads(output)["rows"]
    return rows


def count(ledger: Ledger, query: str) -> int:
    with connect(ledger) as con:
        ((n,),) = con.execute(query).fetchall()
    return int(n)


def test_kind_counts_one_game_kind(table: Ledger) -> None:
    rows = stats(table, "lengths", "--kind", "tiny")
    assert [(r["kind"], r["games"]) for r in rows] == [("tiny", 3)]
    assert {r["kind"] for r in stats(table, "players", "--kind", "duel")} == {"duel"}


def test_player_matches_any_case_and_keeps_her_own_rows(table: Ledger) -> None:
    players = stats(table, "players", "--player", "OLGA", "--kind", "duel")
    assert {r["player"] for r in players} == {"olga", "Olga"}
    assert sum(r["games"] for r in players) == 10
    dice = stats(table, "dice", "--player", "olga")
    assert {r["player"] for r in dice} == {"olga", "Olga"}
    assert sum(r["dice"] for r in dice) == count(
        table, "SELECT count(*) FROM dice WHERE lower(player) = 'olga'")
    battles = stats(table, "battles", "--player", "zoë")
    assert sum(r["observed"] for r in battles) == count(
        table, "SELECT count(*) FROM battles WHERE 'Zoë' IN (attacker, defender)")
    assert sum(r["observed"] for r in battles) < sum(r["observed"] for r in stats(table, "battles"))
    assert stats(table, "lengths", "--player", "ZOË") == [
        {**stats(table, "lengths", "--since", "2026-03-01")[0]}]


def test_since_counts_games_started_on_or_after_a_date(table: Ledger) -> None:
    assert [r["games"] for r in stats(table, "lengths", "--since", "2026-03-14")] == [4]
    assert [r["games"] for r in stats(table, "lengths", "--since", "2026-03-15")] == []
    january = stats(table, "lengths", "--since", "2026-01-01", "--kind", "duel")
    assert [r["games"] for r in january] == [10]
    assert [r["games"] for r in stats(table, "lengths", "--since", "2026-03-14T20:00Z")] == []


@pytest.mark.parametrize(("options", "says"), [
    (("--since", "14/03/2026"), "--since takes a date as YYYY-MM-DD"),
    (("--since", "2026-02-30"), "not '2026-02-30'"),
    (("--player", "olgga"), "no player 'olgga' in the games counted (did you mean 'olga'?)"),
    (("--kind", "chess"), "unknown game kind 'chess'"),
    (("--player", "patrick", "--since", "2026-03-01"), "players: Olga, Zoë"),
])
def test_a_scope_not_understood_is_one_message_and_exit_2(table: Ledger, options: tuple[str, ...],
                                                           says: str) -> None:
    code, output = run(table, "stats", *options)
    assert code == 2
    assert output.startswith("error: ") and says in " ".join(output.split())
    assert "Traceback" not in output


def test_sides_rows_are_the_named_sides_own_record(tmp_path: Path) -> None:
    """Marvel United: the villain's row counts the games the villain won; the heroes' team row
    the games the heroes won; each hero once per player who played it."""
    ledger = Ledger(tmp_path / "ledger")
    games = bot_games(ledger, "marvel-united", 4, seed=3)
    results = [fold_records(g, ledger.records(g)) for g in games]
    villain_won = sum(f.rules.result(f.state).team == "villain" for f in results)  # type: ignore[union-attr]
    rows = stats(ledger, "sides")
    assert set(rows[0]) == {"kind", "side", "name", "per", "played", "won", "win_rate"}
    villains = [r for r in rows if r["side"] == "villain"]
    assert sum(r["won"] for r in villains) == villain_won
    assert sum(r["played"] for r in villains) == len(games)
    (heroes,) = [r for r in rows if r["side"] == "team"]
    assert (heroes["per"], heroes["won"]) == ("game", len(games) - villain_won)
    hero_rows = [r for r in rows if r["side"] == "hero"]
    assert {r["per"] for r in hero_rows} == {"player"}
    assert sum(r["played"] for r in hero_rows) == 2 * len(games)


@pytest.fixture(scope="module")
def every_game(tmp_path_factory: pytest.TempPathFactory) -> Ledger:
    """Two simulated games of each shipped game (the longest names and the widest reports)."""
    ledger = Ledger(tmp_path_factory.mktemp("stats-width") / "ledger")
    simulate(ledger, "risk-strike", games=2, seed=1)
    simulate(ledger, "risk-transformers", games=2, seed=1, players=3)
    simulate(ledger, "risk-deep-space", games=2, seed=1)
    simulate(ledger, "marvel-united", games=2, seed=1)
    return ledger


def cli(ledger: Ledger, *args: str) -> str:
    """``tabletape`` as a process in an 80-column terminal."""
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-m", "tabletape", *args, "--ledger", str(ledger.root)],
        cwd=root, capture_output=True, text=True, env={**os.environ, "COLUMNS": "80"})
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_stats_fits_80_columns_and_cuts_no_word_or_number(every_game: Ledger) -> None:
    shown = cli(every_game, "stats", "--include-simulated")
    assert max(len(line) for line in shown.splitlines()) <= 80
    words = set(shown.split())
    reports = json.loads(cli(every_game, "stats", "--include-simulated", "--format", "json"))
    for report in reports:
        assert report["title"] in " ".join(shown.split())
        for row in report["rows"]:
            for column, value in row.items():
                if column in ("exact_fraction", "kind") or value in (None, ""):
                    continue
                if drawn_in_place(column, report["columns"]):
                    continue  # a bar stands in its place (issue 16: battles' share v exact)
                assert set(cell_text(value).split()) <= words, (report["report"], column, value)
        for column in report["columns"]:
            if column not in ("exact_fraction", "kind"):
                assert set(column.split("_")) <= words, (report["report"], column)
    for kind in ("risk-strike", "risk-transformers", "risk-deep-space", "marvel-united"):
        assert f"Win rate by player: {kind}" in shown
