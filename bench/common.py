"""Shared pieces of the benchmarks: side-by-side timing and the result table.

Every figure is a ratio of two things measured in the same run, interleaved in rounds, so that a
busy machine slows both sides alike and the verdict does not move.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

import msgspec


class Figure(msgspec.Struct, kw_only=True):
    """One benchmark verdict: ``ours / theirs`` (or the reverse), with its target."""

    key: str
    ours: float
    theirs: float
    unit: str
    target: float
    higher_is_better: bool = True
    note: str = ""

    @property
    def ratio(self) -> float:
        return self.ours / self.theirs if self.theirs else float("inf")

    @property
    def met(self) -> bool:
        return self.ratio >= self.target if self.higher_is_better else self.ratio <= self.target

    def as_json(self) -> dict[str, Any]:
        return {"ratio": round(self.ratio, 4), "ours": self.ours, "theirs": self.theirs,
                "unit": self.unit, "target": self.target,
                "higher_is_better": self.higher_is_better, "met": self.met, "note": self.note}


def side_by_side(ours: Callable[[], float], theirs: Callable[[], float],
                 rounds: int = 5) -> tuple[float, float]:
    """Run both measurements alternately ``rounds`` times; return the median of each.

    Each callable runs one batch and returns its figure (a rate or a duration).
    """
    mine: list[float] = []
    other: list[float] = []
    for _ in range(rounds):
        mine.append(ours())
        other.append(theirs())
    return statistics.median(mine), statistics.median(other)


def rate(count: int, work: Callable[[], object]) -> float:
    """``count / seconds`` taken by ``work()``."""
    start = time.perf_counter()
    work()
    return count / (time.perf_counter() - start)


def seconds(work: Callable[[], object]) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def figures_table(figures: list[Figure], title: str = "tabletape benchmarks") -> Any:
    """A rich table of figures: ours, theirs, ratio, target, verdict."""
    from rich import box
    from rich.table import Table

    table = Table(box=box.SIMPLE_HEAD, title=title, title_justify="left")
    for column in ("key", "ours", "theirs", "unit", "ratio", "target", "met", "note"):
        numeric = column in ("ours", "theirs", "ratio")
        table.add_column(column, justify="right" if numeric else "left")
    for figure in figures:
        sign = ">=" if figure.higher_is_better else "<="
        table.add_row(figure.key, f"{figure.ours:,.4g}", f"{figure.theirs:,.4g}", figure.unit,
                      f"{figure.ratio:.3f}", f"{sign} {figure.target}",
                      "[green]yes[/]" if figure.met else "[red]no[/]", figure.note)
    return table
