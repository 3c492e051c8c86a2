"""Pictures made of text for rich tables: bars, sparklines and a turn axis.

Each is a renderable that draws itself when printed: in Unicode block characters, or in ASCII
when the console cannot show them (rich's ``options.ascii_only``: an output whose encoding is not
UTF, a legacy Windows console). Bars and sparklines are plain text, so they read as well in a
pipe or a file as in a terminal; ``--json`` never carries them.

>>> bar_text(0.5, 4), bar_text(0.5, 4, mark=0.25), bar_text(0.3, 4, ascii=True)
('██  ', '█│  ', '#   ')
>>> spark_text([0, 1, 2, 3, None, 7], low=0, high=7)
'▁▂▃▄ █'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.style import Style
from rich.text import Text

BLOCKS = " ▏▎▍▌▋▊▉█"
"""A cell filled by 0 to 8 eighths, left to right."""
LEVELS = "▁▂▃▄▅▆▇█"
"""A sparkline's eight heights."""
ASCII_LEVELS = "_.-~=+*#"
"""The same heights in ASCII."""
MARK, ASCII_MARK = "│", "+"
"""The mark a bar puts at a reference value (fair, the exact odds); in ASCII not ``|``, which
rich draws between the columns of an ASCII table."""


ASCII_FOR = str.maketrans({MARK: ASCII_MARK, "·": "-", "…": "..."})
"""What the words around the pictures (legends, titles) put for their own non-ASCII signs."""


class Words:
    """Text that says :data:`MARK` (and ``·``) in ASCII on a console that cannot show them."""

    def __init__(self, text: str, style: str = "") -> None:
        self.text, self.style = text, style

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield Text(self.text.translate(ASCII_FOR) if options.ascii_only else self.text,
                   style=self.style)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, Text(self.text))


def bar_text(fraction: float, width: int, *, mark: float | None = None,
             ascii: bool = False) -> str:
    """A bar ``width`` cells long filled ``fraction`` of the way (eighths of a cell in Unicode,
    whole cells in ASCII), and a mark in the cell where ``mark`` falls.

    >>> bar_text(1.0, 3), bar_text(0.0, 3), bar_text(0.51, 2), bar_text(0.7, 4, mark=1.0)
    ('███', '   ', '█ ', '██▊│')
    """
    fraction = min(max(fraction, 0.0), 1.0)
    if ascii:
        text = "#" * round(fraction * width)
    else:
        full, eighths = divmod(round(fraction * width * 8), 8)
        text = BLOCKS[8] * full + (BLOCKS[eighths] if eighths else "")
    cells = list(text.ljust(width))
    if mark is not None and width:
        cells[min(width - 1, int(min(max(mark, 0.0), 1.0) * width))] = (ASCII_MARK if ascii
                                                                        else MARK)
    return "".join(cells)


def level(value: float, low: float, high: float) -> int:
    """Which of the eight heights ``value`` gets between ``low`` and ``high`` (0: the lowest).

    >>> level(5, 0, 10), level(10, 0, 10), level(3, 3, 3)
    (4, 7, 0)
    """
    if high <= low:
        return 0
    return min(7, max(0, round((value - low) / (high - low) * 7)))


def spark_text(values: Iterable[float | None], *, low: float, high: float, ascii: bool = False,
               blank_low: bool = False) -> str:
    """One character per value, its height between ``low`` and ``high``; a blank for None (and
    for ``low`` itself with ``blank_low``: a histogram's empty bins).

    >>> spark_text([0, 2, 4], low=0, high=4, ascii=True), spark_text([0, 4], low=0, high=4,
    ...                                                                 blank_low=True)
    ('_=#', ' █')
    """
    levels = ASCII_LEVELS if ascii else LEVELS
    return "".join(" " if value is None or (blank_low and value <= low)
                   else levels[level(value, low, high)] for value in values)


class Bar:
    """A bar in a table cell: ``fraction`` of ``width`` cells, a mark at ``mark`` (a fraction of
    the same scale) if given."""

    def __init__(self, fraction: float, width: int = 10, mark: float | None = None,
                 style: str = "cyan") -> None:
        self.fraction, self.width, self.mark, self.style = fraction, width, mark, style

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        text = bar_text(self.fraction, min(self.width, options.max_width), mark=self.mark,
                        ascii=options.ascii_only)
        yield Segment(text, Style.parse(self.style))

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(self.width, self.width)


class Spark:
    """A sparkline of ``values`` (one character each, None blank) between ``low`` and
    ``high``."""

    def __init__(self, values: Sequence[float | None], low: float, high: float, *,
                 blank_low: bool = False, style: str = "cyan") -> None:
        self.values, self.low, self.high = values, low, high
        self.blank_low, self.style = blank_low, style

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        text = spark_text(self.values, low=self.low, high=self.high, ascii=options.ascii_only,
                          blank_low=self.blank_low)
        yield Segment(text[:options.max_width], Style.parse(self.style))

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(len(self.values), len(self.values))


def histogram(values: Sequence[float], bins: int = 20) -> tuple[list[int], float, float]:
    """Counts of ``values`` in at most ``bins`` equal bins from their least to their greatest
    (one bin per whole number when they are whole and few), and that range.

    >>> histogram([3, 3, 5])
    ([2, 0, 1], 3, 5)
    >>> histogram([0, 10, 100], bins=4)
    ([2, 0, 0, 1], 0, 100)
    """
    low, high = min(values), max(values)
    if high == low:
        return [len(values)], low, high
    if all(float(value).is_integer() for value in values) and high - low < bins:
        counts = [0] * (int(high - low) + 1)
        for value in values:
            counts[int(value - low)] += 1
        return counts, low, high
    width = (high - low) / bins
    counts = [0] * bins
    for value in values:
        counts[min(bins - 1, int((value - low) / width))] += 1
    return counts, low, high


def buckets(points: Sequence[tuple[int, float]], first: int, last: int,
            width: int) -> list[float | None]:
    """The values of ``(turn, value)`` points over turns ``first`` to ``last`` in at most
    ``width`` cells: up to :data:`CELLS_A_TURN` cells a turn when they fit, else equal runs of
    turns a cell, each showing the last value of its run (None where no point falls).

    >>> buckets([(0, 1.0), (1, 2.0), (3, 4.0)], 0, 3, 4)
    [1.0, 2.0, None, 4.0]
    >>> buckets([(0, 1.0), (1, 2.0)], 0, 1, 5)
    [1.0, 1.0, 2.0, 2.0]
    >>> buckets([(0, 1.0), (1, 2.0), (2, 3.0), (3, 4.0)], 0, 3, 2)
    [2.0, 4.0]
    """
    turns = last - first + 1
    each = max(1, min(CELLS_A_TURN, width // turns))
    cells = max(1, min(width, turns))
    found: list[float | None] = [None] * cells
    for turn, value in points:
        found[min(cells - 1, (turn - first) * cells // turns)] = value
    return [value for value in found for _ in range(each)]


CELLS_A_TURN = 3
"""The most cells a turn gets when a game has few turns (its line would be short otherwise)."""


class Timeline:
    """A sparkline of ``(turn, value)`` points on a turn axis from ``first`` to ``last``, as
    wide as its column lets it be (at most :data:`CELLS_A_TURN` cells a turn), heights between
    ``low`` and ``high``."""

    def __init__(self, points: Sequence[tuple[int, float]], first: int, last: int, low: float,
                 high: float, style: str = "cyan") -> None:
        self.points, self.first, self.last = points, first, last
        self.low, self.high, self.style = low, high, style

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        values = buckets(self.points, self.first, self.last, options.max_width)
        yield Segment(spark_text(values, low=self.low, high=self.high, ascii=options.ascii_only),
                      Style.parse(self.style))

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return axis_measure(self.first, self.last)


class Axis:
    """The turn axis under :class:`Timeline` rows of the same column: the first turn at the
    left, the last at the right."""

    def __init__(self, first: int, last: int) -> None:
        self.first, self.last = first, last

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield Segment(axis_text(self.first, self.last, options.max_width), Style.parse("dim"))

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return axis_measure(self.first, self.last)


def axis_measure(first: int, last: int) -> Measurement:
    """At least 8 cells (or as many as the turns take, when fewer), at most
    :data:`CELLS_A_TURN` a turn."""
    turns = last - first + 1
    widest = turns * CELLS_A_TURN
    return Measurement(min(8, widest), max(widest, len(axis_text(first, last, widest))))


def axis_text(first: int, last: int, width: int) -> str:
    """``0 ... 12`` over the cells :func:`buckets` draws in ``width``: the first turn left, the
    last right (just the first when they do not both fit).

    >>> axis_text(0, 12, 13), axis_text(5, 5, 4), axis_text(0, 120, 3), axis_text(0, 1, 6)
    ('0          12', '5', '0', '0    1')
    """
    turns = last - first + 1
    cells = max(1, min(width, turns)) * max(1, min(CELLS_A_TURN, width // turns))
    left, right = str(first), str(last)
    if first == last or len(left) + len(right) + 1 > max(cells, width):
        return left
    return left + right.rjust(max(cells, len(left) + len(right) + 1) - len(left))
