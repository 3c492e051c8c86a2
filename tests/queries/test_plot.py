"""Issue 16 (D): ``tabletape plot GAME`` draws a game's standings over time from its log: on
every game kind, in 80 columns, a game in progress or without a turn, ``--figure`` (with a
did-you-mean), ``--json``, and a damaged log refused in one line."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import tabletape
from tabletape import help as command_help
from tabletape.ledger import Ledger
from tabletape.queries.bars import LEVELS, level
from tabletape.queries.series import changed, game_series
from tabletape.replay.simulate import simulate
from tabletape.rules.bot_games import bot_game
from tabletape.rules.registry import find_game
from tests.queries.conftest import record, start_game

ROOT = Path(__file__).resolve().parents[2]
APP = tabletape.build_app()
KINDS = {"risk-strike": 2, "marvel-united": 2, "risk-deep-space": 2, "risk-transformers": 3}
"""Each shipped kind, with a player count."""


@pytest.fixture(scope="module")
def ledger(tmp_path_factory: pytest.TempPathFactory) -> Ledger:
    store = Ledger(tmp_path_factory.mktemp("plot") / "ledger")
    for kind, players in KINDS.items():
        simulate(store, kind, games=1, seed=4, players=players)
    return store


def games(ledger: Ledger) -> list[str]:
    return sorted(path.stem for path in (ledger.root / "games").glob("*.jsonl"))


def run(ledger: Ledger, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(APP, [*args, "--ledger", str(ledger.root)])
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def cli(ledger: Ledger, *args: str) -> str:
    """``tabletape`` as a process in an 80-column terminal."""
    done = subprocess.run([sys.executable, "-m", "tabletape", *args, "--ledger",
                           str(ledger.root)], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, "COLUMNS": "80"})
    assert done.returncode == 0, done.stderr
    return done.stdout


def chart_rows(shown: str, figure: str) -> dict[str, list[str]]:
    """The rows of one figure's chart: name -> the cells after it (the sparkline first)."""
    lines = shown.splitlines()
    at = [line.strip() for line in lines].index(figure) + 3  # title, header, rule
    rows: dict[str, list[str]] = {}
    for line in lines[at:]:
        if not line.strip():
            break
        name, *cells = line.split()
        rows[name] = cells
        if name == "turn":
            break
    return rows


def axis_lines(shown: str) -> list[str]:
    """The turn axes under the charts (not the title of a figure called ``turn``)."""
    return [line for line in shown.splitlines() if line.split()[:1] == ["turn"]
            and len(line.split()) > 1]


def test_plot_is_a_command_people_find() -> None:
    assert tabletape.COMMAND_HOMES["plot"] == "tabletape.commands.plotting"
    assert command_help.COMMANDS["plot"].group == "Replay"


@pytest.mark.slow
def test_plot_draws_every_changing_figure_of_every_kind_in_80_columns(ledger: Ledger) -> None:
    for game in games(ledger):
        series = game_series(game, ledger.records(game))
        shown = cli(ledger, "plot", game)
        assert max(len(line) for line in shown.splitlines()) <= 80, game
        drawn = [name for name, players in series.standings.items() if changed(players)]
        assert drawn, game
        for figure in drawn:
            rows = chart_rows(shown, figure)
            assert rows["turn"][0] == str(min(t for p in series.standings[figure].values()
                                              for t, _ in p))
            for player, points in series.standings[figure].items():
                values = [value for _, value in points]
                assert rows[player][1:] == [f"{v:g}" for v in (values[0], values[-1],
                                                               min(values), max(values))]
        for figure in set(series.standings) - set(drawn):
            assert figure in " ".join(shown.split()).split("Unchanged all game: ")[1]


def test_a_sparkline_ends_at_the_height_of_the_last_value(ledger: Ledger) -> None:
    game = games(ledger)[0]
    series = game_series(game, ledger.records(game))
    figure = next(name for name, players in series.standings.items() if changed(players))
    shown = cli(ledger, "plot", game, "--figure", figure)
    players = series.standings[figure]
    values = [value for points in players.values() for _, value in points]
    low, high = min(values), max(values)
    rows = chart_rows(shown, figure)
    for player, points in players.items():
        line = rows[player][0]
        assert set(line) <= set(LEVELS)
        assert line[-1] == LEVELS[level(points[-1][1], low, high)]
        assert line[0] == LEVELS[level(points[0][1], low, high)]


def test_figure_picks_charts_in_any_case_and_a_typo_is_refused_with_a_hint(
        ledger: Ledger) -> None:
    game = next(g for g in games(ledger) if g.startswith("ds-"))
    code, shown, _ = run(ledger, "plot", game, "--figure", "BASES", "-f", "ore", "--no-pager")
    assert code == 0
    titles = [line.strip() for line in shown.splitlines()]
    assert "bases" in titles and "ore" in titles and "recruits" not in titles
    code, shown, error = run(ledger, "plot", game, "--figure", "bsaes")
    assert code == 2 and not shown
    assert "unknown figure 'bsaes' (did you mean 'bases'?)" in " ".join(error.split())
    assert "Traceback" not in error


def test_plot_json_is_the_series_of_the_game(ledger: Ledger) -> None:
    for game in games(ledger):
        series = game_series(game, ledger.records(game))
        code, shown, _ = run(ledger, "plot", game, "--json")
        assert code == 0
        data = json.loads(shown)
        assert set(data) == {"game", "kind", "players", "finished", "standings", "dice",
                             "battles"}
        assert (data["game"], data["kind"], data["players"]) == (game, series.kind,
                                                                  series.players)
        assert data["standings"] == {figure: {player: [list(point) for point in points]
                                              for player, points in players.items()}
                                     for figure, players in series.standings.items()}
        for die in data["dice"]:
            assert set(die) == {"sides", "counts", "total", "expected", "chi_square",
                                "p_value"}
        for battle in data["battles"]:
            assert {"matchup", "bonus", "battles", "outcomes", "p_value"} <= set(battle)
    game = games(ledger)[0]
    figure = next(iter(game_series(game, ledger.records(game)).standings))
    code, shown, _ = run(ledger, "plot", game, "--json", "--figure", figure)
    assert list(json.loads(shown)["standings"]) == [figure]


def test_a_game_in_progress_is_drawn_as_far_as_it_has_gone(tmp_path: Path) -> None:
    store = Ledger(tmp_path / "ledger")
    rules = find_game("risk-strike")
    game = start_game(store, "risk-strike", ("olga", "patrick"), seed=8, game_id="rs-half")
    code, shown, _ = run(store, "plot", game, "--no-pager")
    assert code == 0 and "no turn played" in shown and "in progress" in shown
    drafts = bot_game(rules, store.started(game), random.Random(8))
    record(store, game, drafts[:2])  # the deal: one turn (0) so far, nothing changed yet
    series = game_series(game, store.records(game))
    code, shown, _ = run(store, "plot", game, "--no-pager")
    assert code == 0 and series.standings
    axes = axis_lines(shown)
    assert axes and all(axis.split() == ["turn", "0"] for axis in axes)
    titles = {line.strip() for line in shown.splitlines()}
    assert set(series.standings) <= titles  # none changed: every figure drawn
    record(store, game, drafts[2: len(drafts) // 2])
    series = game_series(game, store.records(game))
    assert not series.finished
    code, shown, _ = run(store, "plot", game, "--no-pager")
    assert code == 0 and "in progress" in shown
    last = max(turn for players in series.standings.values() for points in players.values()
               for turn, _ in points)
    ends = [int(axis.split()[-1]) for axis in axis_lines(shown)]
    assert ends and max(ends) == last


def test_a_damaged_log_is_refused_in_one_line(tmp_path: Path) -> None:
    store = Ledger(tmp_path / "ledger")
    (game,) = simulate(store, "risk-strike", games=1, seed=6)
    path = store.path(game)
    lines = path.read_bytes().split(b"\n")
    lines[3] = lines[3].replace(b'"seq":4', b'"seq":5')
    path.write_bytes(b"\n".join(lines))
    for args in ((), ("--json",)):
        code, shown, error = run(store, "plot", game, *args)
        assert code == 1 and not shown
        assert game in error and "verification" in error and "Traceback" not in error
    code, _, error = run(store, "plot", "rs-nope")
    assert code != 0 and "no game 'rs-nope'" in error
