"""Reports as rich tables for people, within 80 columns, never cutting a word or a number.

A report's rows come one table per game kind (the kind in the title, not in a column); a
header wraps at its words (``attacker losses`` on two lines); a number or a name is never folded
in the middle: every column is at least as wide as the longest word it shows, and numbers do not
wrap at all. ``stats --format json`` keeps every column; only this view reshapes, and draws
win rates and battle outcomes as bars (:mod:`tabletape.queries.bars`).

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
from typing import Any, NamedTuple

from rich import box
from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from tabletape.queries.bars import MARK, Bar, Spark, Words, histogram
from tabletape.queries.reports import ReportTable
from tabletape.queries.series import DiceFaces, LeagueSeries

NO_ROWS = "no games with this yet"

MERGED = {"bonus": "matchup"}
"""Columns shown under another column's value, on its own line (``3v1 d6`` / ``attacker +1
each die``), so the table keeps its width."""
HIDDEN = frozenset({"exact_fraction"})
"""Columns left out of the table (``--format json`` has them)."""


class Drawn(NamedTuple):
    """A report column drawn as a bar from 0 to 1 in the table people read."""

    mark: str | None
    """The column marked on the bar when the report has it (fair, the exact odds)."""
    legend: str
    """What the bar shows, for the line under the report."""
    replaces: bool = False
    """The bar stands in the column's place when the mark is shown beside it (the number stays
    in ``--format json``): the battles' share against the exact odds, in 80 columns."""


BARS = {
    "win_rate": Drawn("fair", f"win rate from 0 to 1; {MARK} marks fair"),
    "hero_win_rate": Drawn(None, "hero win rate from 0 to 1"),
    "share": Drawn("exact", f"share from 0 to 1; {MARK} marks the exact odds", replaces=True),
}
"""The columns drawn as bars, wherever a report has them."""
BAR_WIDTH = 10
LEGENDS = {
    "dice": f"Faces: how often each face landed; {MARK} marks fair (every face alike).",
    "lengths": "Turns per game: how many finished games took each number of turns, fewest "
               "to most.",
}
"""What the league's pictures under a report show."""


def report_blocks(report: ReportTable, league: LeagueSeries | None = None
                  ) -> list[RenderableType]:
    """What ``stats`` prints for ``report``: per game kind a heading and a table (bars beside
    win rates and battle outcomes; with ``league``, each kind's turns per game under the
    ``lengths`` table and the faces of every die size under the ``dice`` table); then the notes
    (or that no game has this yet), wrapped to the terminal."""
    blocks: list[RenderableType] = []
    for title, columns, rows in by_kind(report):
        blocks.append(Text(title, style="bold"))
        blocks.append(table_of(*with_bars(columns, rows, *shown(columns, rows))))
        if league is not None and report.report == "lengths" and rows:
            blocks.extend(lengths_line(league.lengths.get(title.rpartition(": ")[2], [])))
    if league is not None and report.report == "dice":
        for faces in league.dice:
            blocks.extend(faces_blocks(faces))
    notes = [*report.notes, *legends(report, league is not None)] if report.rows else [NO_ROWS]
    blocks.append(Words(" ".join(notes), style="dim"))
    return blocks


def legends(report: ReportTable, pictured: bool) -> list[str]:
    """What the bars of ``report``'s table show (and its league pictures, when ``pictured``).

    >>> legends(ReportTable(report="players", title="", columns=["win_rate"], rows=[]), False)
    ['Bars: win rate from 0 to 1.']
    """
    said = [drawn.legend if drawn.mark in report.columns else drawn.legend.partition(";")[0]
            for column, drawn in BARS.items() if column in report.columns]
    found = [f"Bars: {'; '.join(said)}."] if said else []
    if pictured and report.report in LEGENDS:
        found.append(LEGENDS[report.report])
    return found


Cell = str | RenderableType


def with_bars(columns: Sequence[str], rows: Sequence[Sequence[Any]], names: list[str],
              cells: list[list[str]]) -> tuple[list[str], list[list[Cell]]]:
    """``names`` and ``cells`` (from :func:`shown`) with a bar column after each pair of
    :data:`BARS` the report has, drawn from the raw ``rows``.

    >>> names, cells = with_bars(["p", "win_rate"], [["ann", 0.5]], ["p", "win_rate"],
    ...                          [["ann", "0.5"]])
    >>> names, cells[0][2].fraction
    (['p', 'win_rate', ''], 0.5)
    """
    drawn: list[list[Cell]] = [list(row) for row in cells]
    names = list(names)
    for value, how in BARS.items():
        if value not in columns or value not in names:
            continue
        at = columns.index(value)
        mark = columns.index(how.mark) if how.mark in columns else None
        if drawn_in_place(value, columns):
            place = names.index(value)
            for row in drawn:
                del row[place]
        else:
            place = max(names.index(value), names.index(str(how.mark))
                        if how.mark in names else -1) + 1
            names.insert(place, "")
        for row, raw in zip(drawn, rows, strict=True):
            marked = raw[mark] if mark is not None else None
            row.insert(place, "" if raw[at] is None else Bar(
                float(raw[at]), BAR_WIDTH, mark=None if marked is None else float(marked)))
    return names, drawn


def drawn_in_place(column: str, columns: Sequence[str]) -> bool:
    """Whether the table shows ``column`` as a bar in its place (its number is in ``--format
    json``): a :data:`BARS` column that ``replaces`` when its mark is shown beside it.

    >>> drawn_in_place("share", ["share", "exact"]), drawn_in_place("share", ["share"])
    (True, False)
    """
    how = BARS.get(column)
    return how is not None and how.replaces and how.mark in columns


def lengths_line(turns: Sequence[int]) -> list[RenderableType]:
    """``turns per game  3 ▂▅█▃▁ 12`` for one kind's finished games (nothing for none): how
    many games took each number of turns, fewest to most."""
    if not turns:
        return []
    counts, low, high = histogram(turns)
    line = Table.grid(padding=(0, 1))
    if high == low:
        line.add_row(Text(f"turns per game: all {low:g}", style="dim"))
    else:
        line.add_row(Text("turns per game", style="dim"), f"{low:g}",
                     Spark(counts, 0, max(counts), blank_low=True), f"{high:g}")
    return [line]


def faces_blocks(faces: DiceFaces) -> list[RenderableType]:
    """A die size's faces against fair: per face, the landings, fair and a bar marked at fair."""
    scale = max(*faces.counts, faces.expected) or 1
    title = (f"Faces of every d{faces.sides} against fair: {faces.total} dice, "
             f"p-value {faces.p_value:g}")
    table = table_of(["face", "landed", "fair", ""], [
        [str(face), str(count), f"{faces.expected:.1f}",
         Bar(count / scale, 2 * BAR_WIDTH, mark=faces.expected / scale)]
        for face, count in enumerate(faces.counts, start=1)])
    return [Text(title, style="bold"), table]


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


def table_of(columns: Sequence[str], cells: Sequence[Sequence[Cell]]) -> Table:
    """One rich table: headers wrapping at words, no cell narrower than its longest word;
    a cell that is not text (a bar) drawn as it is."""
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, padding=(0, 1, 0, 0))
    for index, name in enumerate(columns):
        shown = [cell for row in cells if isinstance(cell := row[index], str)]
        numeric = any(shown) and all(is_number(cell) for cell in shown if cell)
        header = name.replace("_", " ")
        table.add_column(header, justify="right" if numeric else "left", overflow="fold",
                         min_width=longest_word([header, *shown]))
    for row in cells:  # cells as Text: data is shown as it is, never read as rich markup
        table.add_row(*(Text(cell) if isinstance(cell, str) else cell for cell in row))
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
