"""Issue 15 (H): simulated games are marked in the log and the catalog, never dated like real
ones, and left out of ``sql`` and ``stats`` unless ``--include-simulated``; battles have an id;
``dice`` has the game kind."""

from __future__ import annotations

import json
from collections import defaultdict

import msgspec
import pytest
from typer.testing import CliRunner

import tabletape
from tabletape.ledger import GameStarted, Ledger
from tabletape.queries.catalog import connect
from tabletape.replay.simulate import simulate
from tests.queries.conftest import bot_games

APP = tabletape.build_app()


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Ledger, list[str], list[str]]:
    """Four duel games people recorded and three the bots simulated."""
    ledger = Ledger(tmp_path_factory.mktemp("simulated") / "ledger")
    real = bot_games(ledger, "duel", 4, seed=3)
    simulated = simulate(ledger, "duel", games=3, seed=5)
    return ledger, real, simulated


def run(ledger: Ledger, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(APP, [*args, "--ledger", str(ledger.root)])
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


def sql(ledger: Ledger, query: str, *more: str) -> list[dict[str, object]]:
    code, output = run(ledger, "sql", query, "--format", "json", *more)
    assert code == 0, output
    rows: list[dict[str, object]] = json.loads(output)
    return rows


def test_a_simulated_game_says_so_and_is_never_dated_like_a_real_one(
        mixed: tuple[Ledger, list[str], list[str]]) -> None:
    ledger, real, simulated = mixed
    for game in simulated:
        assert ledger.started(game).simulated
        assert {record.at[:3] for record in ledger.records(game)} == {"197"}  # 1970s: no evening
    for game in real:
        assert not ledger.started(game).simulated
        assert ledger.records(game)[0].at.startswith("2026-")


def test_a_log_written_before_the_mark_still_reads_as_real() -> None:
    """An added field with a default: an old game-started payload, without it, is a real game."""
    old = (b'{"type":"game-started","kind":"duel","rules_version":"1","tabletape_version":"0.1",'
           b'"players":["olga","patrick"],"options":{},"seed":4,"parent":null,"fork_seq":null}')
    assert msgspec.json.decode(old, type=GameStarted).simulated is False


def test_sql_shows_real_games_unless_asked(mixed: tuple[Ledger, list[str], list[str]]) -> None:
    ledger, real, simulated = mixed
    assert [r["game"] for r in sql(ledger, "SELECT game FROM games ORDER BY game")] == sorted(real)
    every = sql(ledger, "SELECT game, simulated FROM games ORDER BY game", "--include-simulated")
    assert every == [{"game": g, "simulated": g in simulated} for g in sorted(real + simulated)]
    assert sql(ledger, "SELECT count(*) AS n FROM all_games") == [{"n": 7}]
    for table in ("players", "events", "turns", "dice", "battles", "results"):
        games = {r["game"] for r in sql(ledger, f"SELECT DISTINCT game FROM {table}")}
        assert games and games <= set(real), table
        every_game = {r["game"] for r in sql(ledger, f"SELECT DISTINCT game FROM {table}",
                                             "--include-simulated")}
        assert every_game & set(simulated), table


def test_connect_leaves_simulated_games_out_unless_asked(
        mixed: tuple[Ledger, list[str], list[str]]) -> None:
    ledger, real, simulated = mixed
    with connect(ledger) as con:
        assert con.execute("SELECT count(*) FROM games").fetchall() == [(len(real),)]
    with connect(ledger, include_simulated=True) as con:
        assert con.execute("SELECT count(*) FROM games").fetchall() == [
            (len(real) + len(simulated),)]


def test_stats_counts_real_games_and_says_how_many_it_left_out(
        mixed: tuple[Ledger, list[str], list[str]]) -> None:
    ledger, real, simulated = mixed
    code, output = run(ledger, "stats", "players", "--format", "json")
    assert code == 0
    assert sum(r["games"] for r in json.loads(output)["rows"]) == 2 * len(real)
    code, output = run(ledger, "stats", "players", "--format", "json", "--include-simulated")
    assert sum(r["games"] for r in json.loads(output)["rows"]) == 2 * (len(real) + len(simulated))
    code, output = run(ledger, "stats", "players")
    assert code == 0 and "3 simulated games left out: --include-simulated" in output


def test_every_battle_has_an_id_in_its_game(mixed: tuple[Ledger, list[str], list[str]]) -> None:
    ledger, _, _ = mixed
    rows = sql(ledger, "SELECT game, battle, seq FROM battles ORDER BY game, battle",
               "--include-simulated")
    by_game: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for row in rows:
        by_game[str(row["game"])].append((int(row["battle"]), int(row["seq"])))  # type: ignore[call-overload]
    for game, battles in by_game.items():
        assert [n for n, _ in battles] == list(range(1, len(battles) + 1)), game
        assert [seq for _, seq in battles] == sorted(seq for _, seq in battles), game


def test_dice_and_battles_have_the_game_kind(mixed: tuple[Ledger, list[str], list[str]]) -> None:
    ledger, _, _ = mixed
    for table in ("dice", "battles"):
        rows = sql(ledger, f"SELECT DISTINCT t.kind, g.kind AS game_kind FROM {table} t "
                           "JOIN games g USING (game)")
        assert rows == [{"kind": "duel", "game_kind": "duel"}], table
