"""``sql``'s table for people: no word split across lines (a column wraps between words, or the
table widens), numbers rounded for reading; ``--json`` and ``--format csv`` keep them whole."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.support.cli import process

ROOT = Path(__file__).resolve().parents[2]
QUERY = ("SELECT kind, game, uid, 2/3 AS third, 1/7 AS seventh, players, 'one two three four "
         "five six seven eight nine ten' AS words FROM games ORDER BY game")


def tabletape(ledger: Path, *args: str, columns: int = 50) -> subprocess.CompletedProcess[str]:
    return process(*args, ledger=ledger, columns=columns, timeout=120)


@pytest.fixture(scope="module")
def ledger(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("sql") / "ledger"
    done = tabletape(where, "simulate", "risk-transformers", "--games", "1", "--seed", "3")
    assert done.returncode == 0, done.stderr
    return where


@pytest.mark.parametrize("columns", [pytest.param(50, marks=pytest.mark.slow), 80,
                                     pytest.param(200, marks=pytest.mark.slow)])
def test_no_word_is_split_and_numbers_are_rounded(ledger: Path, columns: int) -> None:
    done = tabletape(ledger, "sql", QUERY, "--include-simulated", columns=columns)
    assert done.returncode == 0, done.stderr
    words = done.stdout.split()
    assert "risk-transformers" in words and "rt-s3-1" in words
    (row,) = json.loads(tabletape(ledger, "sql", QUERY, "--include-simulated", "--json").stdout)
    assert row["uid"] in words  # an id never breaks
    assert "0.667" in words and "0.143" in words
    assert "0.6666666666666666" not in done.stdout and "0.14285" not in done.stdout
    assert row["third"] == 2 / 3 and row["seventh"] == 1 / 7  # JSON keeps full precision
    for word in ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]:
        assert word in words


def test_csv_keeps_full_precision(ledger: Path) -> None:
    done = tabletape(ledger, "sql", "SELECT 2/3 AS third", "--format", "csv")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["third", "0.6666666666666666"]
