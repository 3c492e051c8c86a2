"""Reports as rich tables for people, within 80 columns, never cutting a word or a number.

A report's rows come one table per game kind (the kind in the title, not in a column); a
header wraps at its words (``attacker losses`` on two lines); a number or a name is never folded
in the middle: every column is at least as wide as the longest word it shows, and numbers do not
wrap at all. ``stats --format json`` keeps every column; only this view reshapes.

>>> from tabletape.queries.reports import ReportTable
>>> table = ReportTable(report="players", title="Win rate by player",
...                     columns=["kind", "player", "win_rate"],
...                     rows=[["risk-strike", "ann", 0.5], ["marvel-united", "bob", 1.0]])
>>> [(title, rows) for title, _, rows in by_kind(table)][0]
('Win rate by player: risk-strike', [['ann', 0.5]])
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from typing import Any

from rich import box
from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from tabletape.queries.reports import ReportTable

NO_ROWS = "no games with this yet"

MERGED = {"bonus": "matchup"}
"""Columns shown under another column's value, on its own line (``3v1 d6`` / ``attacker +1
each die``), so the table keeps its width."""
HIDDEN = frozenset({"exact_fraction"})
"""Columns left out of the table (``--format json`` has them)."""


def report_blocks(report: ReportTable) -> list[RenderableType]:
    """What ``stats`` prints for ``report``: per game kind a heading and a table; then the
    notes (or that no game has this yet), wrapped to the terminal."""
    blocks: list[RenderableType] = []
    for title, columns, rows in by_kind(report):
        blocks.append(Text(title, style="bold"))
        blocks.append(table_of(*shown(columns, rows)))
    notes = " ".join(report.notes) if report.rows else NO_ROWS
    blocks.append(Text(notes, style="dim"))
    return blocks


def shown(columns: Sequence[str], rows: Sequence[Sequence[Any]]
          ) -> tuple[list[str], list[list[str]]]:
    """The columns and cells people see: :data:`HIDDEN` left out, :data:`MERGED` folded in,
    and a value equal to the one above it blank while every value left of it is too.

    >>> shown(["matchup", "bonus", "n"], [["1v1 d6", "", 3], ["1v1 d6", "", 4]])
    (['matchup', 'n'], [['1v1 d6', '3'], ['', '4']])
    """
    keep = [n for n, name in enumerate(columns) if name not in HIDDEN and name not in MERGED]
    under = {columns.index(host): columns.index(name) for name, host in MERGED.items()
             if name in columns and host in columns}
    cells = []
    for row in rows:
        cells.append([cell_text(row[n]) + (f"\n{cell_text(row[under[n]])}"
                                           if n in under and row[under[n]] else "")
                      for n in keep])
    for previous, row in reversed(list(itertools.pairwise(cells))):
        for n, value in enumerate(row):
            if value != previous[n]:
                break
            row[n] = ""
    return [columns[n] for n in keep], cells


def by_kind(report: ReportTable) -> Iterator[tuple[str, list[str], list[list[Any]]]]:
    """``(title, columns, rows)`` per game kind, without the ``kind`` column; the report as it
    is when it has no such column or no rows."""
    if "kind" not in report.columns or not report.rows:
        yield report.title, report.columns, report.rows
        return
    at = report.columns.index("kind")
    columns = [c for n, c in enumerate(report.columns) if n != at]
    kinds: dict[str, list[list[Any]]] = {}
    for row in report.rows:
        kinds.setdefault(str(row[at]), []).append([v for n, v in enumerate(row) if n != at])
    for kind, rows in kinds.items():
        yield f"{report.title}: {kind}", columns, rows


def table_of(columns: Sequence[str], cells: Sequence[Sequence[str]]) -> Table:
    """One rich table: headers wrapping at words, no cell narrower than its longest word."""
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, padding=(0, 1, 0, 0))
    for index, name in enumerate(columns):
        shown = [row[index] for row in cells]
        numeric = bool(cells) and all(is_number(cell) for cell in shown if cell)
        header = name.replace("_", " ")
        table.add_column(header, justify="right" if numeric else "left", overflow="fold",
                         min_width=longest_word([header, *shown]))
    for row in cells:  # cells as Text: data is shown as it is, never read as rich markup
        table.add_row(*(Text(cell) for cell in row))
    return table


def cell_text(value: Any) -> str:
    """A cell as people read it: nothing for NULL, lists joined with commas.

    >>> cell_text(None), cell_text([8, 6]), cell_text(0.5)
    ('', '8, 6', '0.5')
    """
    if value is None:
        return ""
    if isinstance(value, list | tuple):
        return ", ".join(map(str, value))
    return str(value)


def is_number(text: str) -> bool:
    """Whether a cell shows a number (right-aligned, never wrapped).

    >>> is_number("0.25"), is_number("-3"), is_number("3v2 d6")
    (True, True, False)
    """
    try:
        float(text)
    except ValueError:
        return False
    return True


def longest_word(texts: Sequence[str]) -> int:
    """The width of the longest word among ``texts``.

    >>> longest_word(["attacker losses", "12"])
    8
    """
    return max((len(word) for text in texts for word in text.split()), default=1)
