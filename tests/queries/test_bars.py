"""Issue 16 (D): bars and sparklines are as long as their values, fall back to ASCII where the
output cannot show blocks, and ``stats`` draws them within 80 columns (``--format json``
unchanged)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console

from tabletape.ledger import Ledger
from tabletape.queries.bars import (
    ASCII_LEVELS,
    BLOCKS,
    LEVELS,
    MARK,
    Bar,
    Spark,
    Timeline,
    bar_text,
    buckets,
    histogram,
)
from tabletape.replay.simulate import simulate

ROOT = Path(__file__).resolve().parents[2]


def eighths(text: str) -> int:
    """How many eighths of a cell a drawn bar fills (its mark counted as empty)."""
    return sum(BLOCKS.index(char) for char in text if char in BLOCKS)


@given(st.floats(0, 1), st.integers(1, 40))
def test_a_bar_is_as_long_as_its_fraction_to_an_eighth_of_a_cell(fraction: float,
                                                                width: int) -> None:
    text = bar_text(fraction, width)
    assert len(text) == width
    assert eighths(text) == round(fraction * width * 8)


@given(st.floats(0, 1), st.floats(0, 1), st.integers(2, 40))
def test_the_mark_sits_in_the_cell_of_its_value(fraction: float, mark: float,
                                                width: int) -> None:
    text = bar_text(fraction, width, mark=mark)
    assert text.count(MARK) == 1
    assert text.index(MARK) == min(width - 1, int(mark * width))
    plain = bar_text(fraction, width)
    assert [a for n, a in enumerate(plain) if n != text.index(MARK)] == [
        b for n, b in enumerate(text) if n != text.index(MARK)]


@given(st.floats(0, 1), st.integers(1, 40))
def test_an_ascii_bar_is_whole_cells_of_hashes(fraction: float, width: int) -> None:
    text = bar_text(fraction, width, ascii=True)
    assert set(text) <= {"#", " "} and text.count("#") == round(fraction * width)


def render(renderable: object, encoding: str = "utf-8", width: int = 80) -> str:
    """What a console writing to a file of ``encoding`` prints."""
    raw = io.BytesIO()
    file = io.TextIOWrapper(raw, encoding=encoding, errors="strict", write_through=True)
    Console(file=file, width=width, color_system=None).print(renderable)
    return raw.getvalue().decode(encoding)


def test_blocks_become_ascii_when_the_output_cannot_show_them() -> None:
    for drawn in (Bar(0.55, 10, mark=0.5), Spark([0, 1, 2, 3], 0, 3),
                  Timeline([(0, 1.0), (1, 5.0), (2, 3.0)], 0, 2, 1.0, 5.0)):
        unicode, ascii = render(drawn), render(drawn, "ascii")
        assert any(ord(char) > 127 for char in unicode)
        assert ascii.isascii() and len(ascii) == len(unicode)
    assert render(Spark([0, 7], 0, 7), "ascii").strip() == ASCII_LEVELS[0] + ASCII_LEVELS[-1]


def test_a_sparkline_rises_with_its_values() -> None:
    line = render(Spark([0, 1, 2, 3, 4, 5, 6, 7], 0, 7)).strip()
    assert line == LEVELS
    assert render(Spark([5, 5], 5, 5)).strip() == LEVELS[0] * 2  # flat: the baseline


@given(st.lists(st.tuples(st.integers(0, 300), st.floats(-5, 5)), min_size=1, max_size=60),
       st.integers(1, 100))
def test_buckets_keep_the_last_value_of_each_run_of_turns(points: list[tuple[int, float]],
                                                          width: int) -> None:
    points = sorted(dict(points).items())
    first, last = points[0][0], points[-1][0]
    cells = buckets(points, first, last, width)
    assert len(cells) <= max(width, 1)
    assert cells[-1] == points[-1][1]  # the last turn is at the right edge, always drawn


@given(st.lists(st.integers(0, 500), min_size=1, max_size=100), st.integers(1, 30))
def test_a_histogram_counts_every_value_once(values: list[int], bins: int) -> None:
    counts, low, high = histogram(values, bins)
    assert sum(counts) == len(values) and (low, high) == (min(values), max(values))
    assert len(counts) <= max(bins, 1) or len(counts) == 1


# -- stats ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> Ledger:
    ledger = Ledger(tmp_path_factory.mktemp("bars") / "ledger")
    simulate(ledger, "risk-strike", games=4, seed=2)
    simulate(ledger, "risk-transformers", games=2, seed=2, players=3)
    return ledger


def cli(ledger: Ledger, *args: str, **env: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "tabletape", *args, "--ledger", str(ledger.root)], cwd=ROOT,
        capture_output=True, env={**os.environ, "COLUMNS": "80", **env})
    assert done.returncode == 0, done.stderr
    return done.stdout.decode(env.get("PYTHONIOENCODING", "utf-8"))


def bars_of(shown: str, title: str, count: int) -> list[str]:
    """The bar column of the first ``count`` rows of the table under ``title``."""
    lines = shown.splitlines()
    at = lines.index(title) + 3  # title, header, rule
    return [line for line in lines[at:at + count]]


@pytest.mark.slow
def test_win_rates_are_drawn_as_long_as_they_are(league: Ledger) -> None:
    shown = cli(league, "stats", "players", "--include-simulated")
    (report,) = [json.loads(cli(league, "stats", "players", "--include-simulated", "--json"))]
    rows = [row for row in report["rows"] if row["kind"] == "risk-strike"]
    lines = bars_of(shown, "Win rate by player: risk-strike", len(rows))
    for row, line in zip(rows, lines, strict=True):
        assert line.split()[0] == row["player"]
        assert abs(eighths(line) - round(row["win_rate"] * 10 * 8)) <= 0, line


@pytest.mark.slow
def test_seats_mark_fair_and_battles_mark_the_exact_odds(league: Ledger) -> None:
    seats = cli(league, "stats", "seats", "--include-simulated")
    report = json.loads(cli(league, "stats", "seats", "--include-simulated", "--json"))
    rows = [row for row in report["rows"] if row["kind"] == "risk-strike"]
    lines = bars_of(seats, "Win rate by seat and by play order (first-player advantage): "
                           "risk-strike", len(rows))
    for row, line in zip(rows, lines, strict=True):
        bar = line[line.rindex(str(row["fair"])) + len(str(row["fair"])):].strip("\n")[2:]
        assert bar.index(MARK) == min(9, int(row["fair"] * 10)), line
    battles = cli(league, "stats", "battles", "--include-simulated")
    report = json.loads(cli(league, "stats", "battles", "--include-simulated", "--json"))
    assert report["rows"] and battles.count(MARK) >= len(report["rows"])
    assert "marks the exact odds" in " ".join(battles.split())


@pytest.mark.slow
def test_stats_draws_faces_against_fair_and_turns_per_game(league: Ledger) -> None:
    shown = cli(league, "stats", "dice", "--include-simulated")
    dice = json.loads(cli(league, "sql", "SELECT sides, count(*) AS n FROM dice GROUP BY ALL "
                                         "ORDER BY sides", "--include-simulated", "--json"))
    for size in dice:
        assert f"Faces of every d{size['sides']} against fair: {size['n']} dice" in shown
    lengths = cli(league, "stats", "lengths", "--include-simulated")
    assert lengths.count("turns per game") == 2  # one line per kind
    assert max(len(line) for line in (shown + lengths).splitlines()) <= 80


@pytest.mark.slow
def test_stats_json_carries_no_bars(league: Ledger) -> None:
    text = cli(league, "stats", "--include-simulated", "--json")
    assert not set(text) & (set(BLOCKS.strip()) | set(LEVELS) | {MARK})


@pytest.mark.slow
def test_stats_in_ascii_when_the_output_is_ascii(league: Ledger) -> None:
    shown = cli(league, "stats", "--include-simulated", PYTHONIOENCODING="ascii")
    assert shown.isascii() and "#" in shown and "+ marks fair" in " ".join(shown.split())
