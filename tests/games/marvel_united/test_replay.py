"""Marvel United in replay, audit and the catalog: the demo, bot games, status, stats."""

from __future__ import annotations

import io
import json
import random

import pytest
from rich.console import Console

from tabletape import ledger as ledger_pkg
from tabletape.ledger import GameStarted, Ledger
from tabletape.queries.catalog import connect
from tabletape.queries.reports import REPORTS, run_reports
from tabletape.replay.audit import audit_game
from tabletape.replay.demo import run_demo
from tabletape.replay.engine import open_replay
from tabletape.replay.narrate import FAILED_MARK, narrate_game
from tabletape.replay.recording import open_game
from tabletape.replay.render import status_json, status_view
from tabletape.rules.bot_games import bot_game
from tabletape.rules.registry import find_game
from tests.replay.conftest import assert_steps_back_to_start

MU = find_game("marvel-united")
NAMES = ("Olga", "Patrick", "Quinn", "Rosa")
VILLAINS = ("red-skull", "ultron", "taskmaster")


def rendered(renderable: object) -> str:
    console = Console(file=io.StringIO(), width=120)
    console.print(renderable)
    return console.file.getvalue()  # type: ignore[attr-defined]


def bot_log(store: Ledger, seed: int, villain: str, players: int) -> str:
    names = NAMES[:players]
    started = GameStarted(kind=MU.name, rules_version=MU.rules_version,
                          tabletape_version=ledger_pkg.__version__, players=names,
                          options=MU.options({"villain": villain}, names), seed=seed)
    game = store.create(started, game_id=f"mu-{villain}-{seed}")
    store.append(game, bot_game(MU, started, random.Random(seed)), expected_seq=1)
    return game


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Ledger:
    ledger = Ledger(tmp_path_factory.mktemp("mu") / "ledger")
    for seed in range(12):
        bot_log(ledger, seed, VILLAINS[seed % 3], 2 + seed % 3)
    return ledger


def test_the_demo_records_and_status_shows_the_ring(tmp_path) -> None:
    """status renders the ring (tokens, Threat, villain, heroes), the Storyline, the Missions,
    health and each hero's hand size."""
    ledger = Ledger(tmp_path / "ledger")
    game = run_demo(ledger, Console(file=io.StringIO()), kind="marvel-united")
    folded = open_game(ledger, game)
    text = rendered(status_view(folded))
    for words in ("The ring, clockwise", "Times Square", "Madame Hydra", "Red Skull",
                  "Storyline:", "Missions: Rescue Civilians", "health 4/4 [C]", "Fear 3/20",
                  "Captain America"):
        assert words in text, words
    shape = status_json(folded)
    assert [p["name"] for p in shape["players"]] == ["Olga", "Patrick"]
    assert [p["hero"] for p in shape["players"]] == ["iron-man", "captain-america"]
    assert shape["villain"] == "red-skull" and len(shape["ring"]) == 6
    json.dumps(shape)


def test_the_demo_narrates_in_table_words(tmp_path) -> None:
    ledger = Ledger(tmp_path / "ledger")
    game = run_demo(ledger, Console(file=io.StringIO()), kind="marvel-united")
    told = [" ".join(line.sentences) for line in narrate_game(game, ledger.records(game))]
    story = "\n".join(told)
    assert "Red Skull moves to Times Square." in story
    assert "Now resolving the Threat's movement effect." in story
    assert "Placed at Central Park: 1 Thug and no Civilians." in story
    assert "Now resolving the overflow effect at central-park (1 token not placed)." in story
    assert FAILED_MARK not in story


def test_bot_games_narrate_replay_and_audit_clean(store: Ledger) -> None:
    for game in store.game_ids():
        records = store.records(game)
        for line in narrate_game(game, records):
            assert line.sentences and not any(FAILED_MARK in s for s in line.sentences)
        replay = open_replay(store, game)
        assert status_json(replay.folded_at(replay.last)) == status_json(open_game(store, game))
        assert_steps_back_to_start(replay, replay.last // 2, 5)
        report = audit_game(store, game)
        assert report.problems == [] and report.conservation_checked


def test_the_catalog_knows_villains_heroes_and_the_storyline(store: Ledger) -> None:
    with connect(store) as con:
        rows = con.execute("SELECT villain, team, reason FROM games").fetchall()
        heroes = con.execute("SELECT DISTINCT hero FROM players").fetchall()
        story = con.execute("SELECT side, count(*) FROM storyline GROUP BY side").fetchall()
        tables = run_reports(con, ["villains", "hero-teams", "losses"])
    assert {v for v, _, _ in rows} == set(VILLAINS)
    assert all(team in ("heroes", "villain") and reason for _, team, reason in rows)
    assert {h for (h,) in heroes} >= {"iron-man", "captain-america"}
    assert dict(story)["villain"] >= 12
    villains, teams, losses = tables
    assert sum(r["games"] for r in villains.records()) == 12
    assert sum(r["games"] for r in teams.records()) == 12
    assert {r["villain"] for r in losses.records()} <= set(VILLAINS)
    assert {"villains", "hero-teams", "losses"} <= set(REPORTS)
