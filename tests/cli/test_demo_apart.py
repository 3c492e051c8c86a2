"""``tabletape demo`` keeps out of the way: its game is marked a demo game, left out of
``stats``, ``sql``'s tables, the exports and the site unless ``--include-simulated`` asks for it,
and the demo says so, with commands that work as printed."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from tests.support.cli import run, said


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, str], str, str]:
    """A ledger holding only the demo game: its environment, the game and what the demo said."""
    env = {"TABLETAPE_LEDGER": str(tmp_path_factory.mktemp("demo") / "ledger"),
           "COLUMNS": "200"}
    code, output = run("demo", env=env)
    assert code == 0, output
    (game,) = re.findall(r"as demo game (\S+) in", output)
    return env, game, output


def test_the_demo_says_its_game_is_kept_out_and_how(demo: tuple[dict[str, str], str, str]
                                                    ) -> None:
    _, game, output = demo
    words = said(output)
    assert "A demo game stays out of stats, sql, the exports and the site" in words
    assert "--include-simulated brings it in" in words
    for command in (f"tabletape log {game}", f"tabletape replay {game}",
                    f"tabletape verify {game}", "tabletape stats --include-simulated",
                    f"tabletape delete {game} --yes"):
        assert command in words


def test_the_commands_the_demo_suggests_work_as_printed(tmp_path: Path) -> None:
    env = {"TABLETAPE_LEDGER": str(tmp_path / "ledger"), "COLUMNS": "200"}
    code, output = run("demo", env=env)
    assert code == 0, output
    (game,) = re.findall(r"as demo game (\S+) in", output)
    commands = re.findall(r"(tabletape [a-z][^·\n]*?)\s*(?:·|\n|$)", output)
    assert len(commands) >= 6, commands
    delete = [c for c in commands if " delete " in c]
    for command in [c for c in commands if c not in delete] + delete:  # delete last
        code, said_back = run(*shlex.split(command)[1:], env=env)
        assert code == 0, (command, said_back)
    code, output = run("list", "--json", env=env)
    assert [row["players"] for row in json.loads(output)] == [["ann", "bob"]]  # `new`'s game
    assert game not in output  # deleted


def test_stats_leave_the_demo_out_and_say_so(demo: tuple[dict[str, str], str, str]) -> None:
    env, _, _ = demo
    code, output = run("stats", "players", env=env)
    assert code == 0, output
    assert "1 demo game left out: --include-simulated counts it too." in said(output)
    assert "Olga" not in output
    code, output = run("stats", "players", "--include-simulated", env=env)
    assert code == 0 and "Olga" in output and "left out" not in output


def test_sql_tables_leave_the_demo_out(demo: tuple[dict[str, str], str, str]) -> None:
    env, game, _ = demo
    code, output = run("sql", "SELECT game FROM games", "--json", env=env)
    assert code == 0 and json.loads(output) == []
    code, output = run("sql", "SELECT count(*) AS n FROM players", "--json", env=env)
    assert json.loads(output) == [{"n": 0}]
    code, output = run("sql", "SELECT game, demo, simulated FROM games", "--json",
                       "--include-simulated", env=env)
    assert json.loads(output) == [{"game": game, "demo": True, "simulated": False}]
    code, output = run("sql", "SELECT game FROM all_games", "--json", env=env)
    assert json.loads(output) == [{"game": game}]


def test_exports_leave_the_demo_out(demo: tuple[dict[str, str], str, str],
                                    tmp_path: Path) -> None:
    env, game, _ = demo
    code, output = run("export", "--parquet", str(tmp_path / "pq"), env=env)
    assert code == 0, output
    assert "(0 rows)" in output
    assert "1 demo game left out: --include-simulated exports it too." in said(output)
    code, output = run("export", "--parquet", str(tmp_path / "pq2"), "--include-simulated",
                       "--json", env=env)
    assert code == 0 and json.loads(output)["tables"]["games"] == 1
    code, output = run("export", "--bgstats", str(tmp_path / "plays.json"), env=env)
    assert code == 1 and "1 demo (--include-simulated)" in said(output)
    code, output = run("export", game, "--bgg-xml", "-", env=env)
    assert code == 1 and "is a demo game" in said(output)
    code, output = run("export", "--bgstats", str(tmp_path / "plays.json"),
                       "--include-simulated", env=env)
    assert code == 0, output
    code, output = run("export", "--html", str(tmp_path / "site"), "--json", env=env)
    assert code == 0 and json.loads(output)["games"] == 0
    index = (tmp_path / "site" / "index.html").read_text()
    assert "1 demo game left out" in index and "--include-simulated" in index


def test_simulated_games_left_out_are_said_by_export_parquet(tmp_path: Path) -> None:
    where = ["--ledger", str(tmp_path / "ledger")]
    code, output = run("simulate", "risk-strike", "--games", "1", "--seed", "1", *where)
    assert code == 0, output
    code, output = run("export", "--parquet", str(tmp_path / "pq"), *where)
    assert code == 0 and "1 simulated game left out: --include-simulated exports it too." in \
        said(output)
    code, output = run("stats", "players", *where)
    assert "1 simulated game left out: --include-simulated counts it too." in said(output)
