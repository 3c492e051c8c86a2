"""Risk: Transformers options: the board stored whole, and the readings a table may change."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tabletape.rules.kernel import BadOptions
from tabletape.rules.risk_transformers.board import default_board_data, load_cybertron
from tabletape.rules.risk_transformers.options import readings
from tabletape.rules.risk_transformers.state import invariant_errors
from tests.games.risk_transformers.helpers import GAME, NAMES, started


def board_without_closed_pion_tower() -> dict[str, Any]:
    board = default_board_data()
    for turning in board["turning"]:
        if turning["space"] == "pion-tower":
            del turning["positions"]["closed"]
            turning["start"] = "west"
    return board


def test_a_board_file_is_stored_whole(tmp_path: Path) -> None:
    """Issue 14: "``--option board=FILE`` stores the whole board in the first event, as Deep
    Space does", so a log replays without the file."""
    path = tmp_path / "our-box.json"
    path.write_text(json.dumps(default_board_data()), encoding="utf-8")
    given = GAME.options({"board": str(path)}, NAMES[:2])
    assert given["board"] == load_cybertron(path).to_data()
    assert GAME.options({}, NAMES[:2])["board"] == given["board"]


def test_spinning_zones_start_closed_by_default() -> None:
    """Reading A2: "Spinning zones start closed." (Setup 1 prints only that sliding zones
    "should be closed at the start of the game".)"""
    state = started(2)
    assert set(state.standing.values()) == {"closed"}
    assert state.open_factories == ()


def test_spinning_zones_may_start_where_the_board_puts_them() -> None:
    """Reading A2 changed: ``spinning-start=board``."""
    state = started(2, board=board_without_closed_pion_tower(), **{"spinning-start": "board"})
    assert state.standing["pion-tower"] == "west"
    assert invariant_errors(state) == []


def test_a_board_with_no_closed_position_needs_spinning_start_board() -> None:
    """Reading A2 needs a closed position (one that opens no link): one clear message."""
    with pytest.raises(BadOptions, match="pion-tower has no closed position"):
        GAME.options({"board": board_without_closed_pion_tower()}, NAMES[:2])


def test_readings_name_the_table_s_choice() -> None:
    """Each reading shows whether it is our default (mark I) or the table's choice."""
    rows = readings(started(3, casualties="rolled", **{"gift-jump": "false"}).settings)
    chosen = {row["option"]: row["value"] for row in rows if not row["default"]}
    assert chosen == {"casualties": "rolled", "gift-jump": False}

