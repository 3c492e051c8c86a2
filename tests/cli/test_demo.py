"""``tabletape demo``: every shipped game's example records a verified game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tabletape import build_app
from tests.rules.test_registry import KINDS

pytestmark = pytest.mark.smoke  # also run on the declared minimum versions (.ci/minimums)


@pytest.mark.parametrize("kind", KINDS)
def test_each_games_demo_records_a_verified_game(kind: str, tmp_path: Path) -> None:
    runner, app = CliRunner(), build_app()
    ledger = ["--ledger", str(tmp_path)]
    result = runner.invoke(app, ["demo", "--game", kind, *ledger])
    assert result.exit_code == 0, result.output
    (game,) = [row["game"] for row in json.loads(runner.invoke(app, ["list", "--json",
                                                                     *ledger]).output)]
    assert runner.invoke(app, ["verify", game, *ledger]).exit_code == 0
    status = json.loads(runner.invoke(app, ["status", game, "--json", *ledger]).output)
    assert status["kind"] == kind and status["seq"] > 10


def test_demo_of_an_unknown_game_names_the_known_ones(tmp_path: Path) -> None:
    result = CliRunner().invoke(build_app(), ["demo", "--game", "chess", "--ledger",
                                              str(tmp_path)])
    assert result.exit_code == 2 and "risk-strike" in result.output
