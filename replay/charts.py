"""Charts as inline SVG strings: lines over time, bars, and bars against what was expected.

Hand-written SVG, no chart library: a handful of simple charts does not justify ~60 MB of
Vega-Lite and a JS runtime; plain SVG is small, offline, testable as text and styleable by the
page's CSS (every element has a class; text is ``currentColor``). Each chart is a pure function
of its data, scales to its container (``viewBox`` only) and never tells series apart by colour
alone: lines also differ by marker shape and dash, and are named in a legend; bars carry their
label and value as text, the expected value is a black tick with its number.

>>> svg = line_chart("Bases", {"Ann": [(1, 2), (2, 3)], "Bob": [(1, 2), (2, 1)]},
...                  x_label="turn", y_label="bases")
>>> svg.count('class="series"')
2
>>> svg = bars_against("Dice faces", [("1", 9, 10.0), ("6", 14, 10.0)], value_label="rolls")
>>> svg.count('class="bar"'), svg.count('class="expected"')
(2, 2)
>>> "No data yet" in bars_against("Battles", [], value_label="share")
True
>>> bars("Wins", [("Ann", 3), ("Bob", 1)], value_label="games").count('class="bar"')
2
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

from tabletape.replay.svg import Markup, document, element, group, number, shorten

WIDTH = 400.0
"""Every chart is drawn 400 units wide: on a 360 px phone its 13-unit text is ~12 px."""
LEFT, RIGHT = 46.0, 14.0
TITLE_BASE = 22.0

COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000")
"""Okabe-Ito colours, readable by colour-blind eyes; never the only difference (see MARKERS)."""
MARKERS = ("circle", "square", "triangle", "diamond", "plus", "cross")
"""Marker shapes, cycled with a different period from the colours and DASHES."""
DASHES = ("", "6 3", "2 3", "9 3 2 3")
BAR_FILL = "#56B4E9"
EMPTY = "No data yet."


def nice_ticks(low: float, high: float, count: int = 5, *, whole: bool = False) -> list[float]:
    """Round tick values covering ``low..high``: steps of 1, 2 or 5 times a power of ten
    (at least 1 when ``whole``); an empty range is widened.

    >>> nice_ticks(0, 17)
    [0.0, 5.0, 10.0, 15.0, 20.0]
    >>> nice_ticks(3, 3)
    [2.0, 2.5, 3.0, 3.5, 4.0]
    >>> nice_ticks(1, 3, whole=True)
    [1.0, 2.0, 3.0]
    >>> nice_ticks(0, 0.34)
    [0.0, 0.1, 0.2, 0.3, 0.4]
    """
    if high < low:
        low, high = high, low
    if high == low:
        low, high = low - 1, high + 1
    raw = (high - low) / max(count - 1, 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    if whole:
        step = max(step, 1.0)
    first, last = math.floor(low / step + 1e-9), math.ceil(high / step - 1e-9)
    return [float(round(i * step, 10)) for i in range(first, last + 1)]


def value_text(value: float, *, percent: bool = False) -> str:
    """A value as people read it: whole numbers plain, others to three figures.

    >>> value_text(12.0), value_text(10 / 3), value_text(0.3472, percent=True)
    ('12', '3.33', '34.7%')
    """
    if percent:
        return f"{value * 100:.3g}%"
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.3g}"


def _title(title: str) -> Markup:
    return element(
        "text", {"class": "chart-title", "x": 8, "y": TITLE_BASE, "font-size": 15,
                 "font-weight": "bold"}, shorten(title, 48)
    )


def empty_chart(title: str, sentence: str = EMPTY) -> Markup:
    """The picture of a chart with nothing to show: its title and a sentence saying so."""
    body = element("text", {"class": "empty", "x": WIDTH / 2, "y": 64, "text-anchor": "middle"},
                   sentence)
    return document(title, sentence, WIDTH, 90, _title(title), body)


class Scale:
    """A linear map from data values onto a span of the picture."""

    def __init__(self, ticks: Sequence[float], start: float, end: float) -> None:
        self.low, self.high = ticks[0], ticks[-1]
        self.start, self.end = start, end

    def __call__(self, value: float) -> float:
        share = (value - self.low) / (self.high - self.low)
        return self.start + share * (self.end - self.start)


# --- line charts --------------------------------------------------------------------------

PLOT_TOP, PLOT_HEIGHT = 48.0, 190.0
LEGEND_ROW = 20.0


def marker(shape: str, x: float, y: float, colour: str) -> Markup:
    """A small shape centred on ``(x, y)``; the shape tells series apart without colour."""
    r = 4.0
    filled = {"fill": colour, "stroke": colour}
    if shape == "circle":
        return element("circle", {"cx": x, "cy": y, "r": r, **filled})
    if shape == "square":
        return element("rect", {"x": x - r, "y": y - r, "width": 2 * r, "height": 2 * r, **filled})
    outline = {
        "triangle": f"M{number(x)} {number(y - r - 1)}L{number(x + r + 1)} {number(y + r)}"
                    f"L{number(x - r - 1)} {number(y + r)}Z",
        "diamond": f"M{number(x)} {number(y - r - 1)}L{number(x + r + 1)} {number(y)}"
                   f"L{number(x)} {number(y + r + 1)}L{number(x - r - 1)} {number(y)}Z",
        "plus": f"M{number(x - r)} {number(y)}H{number(x + r)}M{number(x)} {number(y - r)}"
                f"V{number(y + r)}",
        "cross": f"M{number(x - r)} {number(y - r)}L{number(x + r)} {number(y + r)}"
                 f"M{number(x - r)} {number(y + r)}L{number(x + r)} {number(y - r)}",
    }[shape]
    fill = colour if shape in ("triangle", "diamond") else "none"
    return element("path", {"d": outline, "fill": fill, "stroke": colour, "stroke-width": 2})


MOST_MARKERS = 12
"""Markers drawn on one line at most: more would hide the line (the last point always has one)."""


def marked(points: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    """The points of a line that get a marker: all of a short line, every k-th of a long one
    and its last.

    >>> marked([(x, 0) for x in range(30)])[:3], len(marked([(x, 0) for x in range(30)]))
    ([(0, 0), (3, 0), (6, 0)], 11)
    """
    step = math.ceil(len(points) / MOST_MARKERS)
    chosen = list(points[::step])
    if points and chosen[-1] != points[-1]:
        chosen.append(points[-1])
    return chosen


def series_style(index: int) -> tuple[str, str, str]:
    """Colour, marker and dash of the ``index``-th series (distinct for the first 12)."""
    return COLOURS[index % len(COLOURS)], MARKERS[index % len(MARKERS)], DASHES[index % len(DASHES)]


def _axes(
    xs: Scale, ys: Scale, x_ticks: Sequence[float], y_ticks: Sequence[float]
) -> list[Markup]:
    bottom = PLOT_TOP + PLOT_HEIGHT
    parts = []
    for tick in y_ticks:
        y = ys(tick)
        parts.append(element("line", {"class": "grid", "x1": LEFT, "x2": WIDTH - RIGHT, "y1": y,
                                      "y2": y, "stroke": "#999", "stroke-opacity": 0.4}))
        parts.append(element("text", {"class": "tick", "x": LEFT - 6, "y": y + 4,
                                      "text-anchor": "end"}, value_text(tick)))
    for tick in x_ticks:
        x = xs(tick)
        parts.append(element("line", {"class": "axis", "x1": x, "x2": x, "y1": bottom,
                                      "y2": bottom + 4, "stroke": "currentColor"}))
        parts.append(element("text", {"class": "tick", "x": x, "y": bottom + 18,
                                      "text-anchor": "middle"}, value_text(tick)))
    parts.append(element("line", {"class": "axis", "x1": LEFT, "x2": WIDTH - RIGHT, "y1": bottom,
                                  "y2": bottom, "stroke": "currentColor"}))
    return parts


def _legend(names: Sequence[str], top: float) -> tuple[list[Markup], float]:
    """Legend entries (a line sample with its marker, then the name): two columns when the
    names are short, one otherwise; returns the entries and the height they take."""
    columns = 2 if all(len(name) <= 20 for name in names) and len(names) > 1 else 1
    column_width = (WIDTH - 16) / columns
    limit = int(column_width / 7.2) - 5
    parts = []
    for index, name in enumerate(names):
        colour, shape, dash = series_style(index)
        x = 8 + (index % columns) * column_width
        y = top + (index // columns) * LEGEND_ROW
        sample = element("line", {"x1": x, "x2": x + 26, "y1": y, "y2": y, "stroke": colour,
                                  "stroke-width": 2.5, "stroke-dasharray": dash or None})
        label = element("text", {"x": x + 32, "y": y + 4.5}, shorten(name, limit))
        parts.append(group(sample, marker(shape, x + 13, y, colour), label, element(
            "title", None, name), **{"class": "legend-entry", "data-series": name}))
    rows = math.ceil(len(names) / columns)
    return parts, rows * LEGEND_ROW


def line_chart(
    title: str,
    series: Mapping[str, Sequence[tuple[float, float]]],
    *,
    x_label: str,
    y_label: str,
) -> str:
    """One line per series over ``(x, y)`` points (drawn in x order), e.g. each player's
    standing by turn; a legend names every series; the y axis starts at 0 for counts."""
    finite = {name: sorted((x, y) for x, y in values if math.isfinite(x) and math.isfinite(y))
              for name, values in series.items()}
    points = {name: values for name, values in finite.items() if values}
    if not points:
        return empty_chart(title)
    all_x = [x for values in points.values() for x, _ in values]
    all_y = [y for values in points.values() for _, y in values]
    whole_x = all(float(x).is_integer() for x in all_x)
    x_low, x_high = min(all_x), max(all_x)
    if x_low == x_high:
        x_low, x_high = x_low - 1, x_high + 1
    x_ticks = [tick for tick in nice_ticks(x_low, x_high, 6, whole=whole_x)
               if x_low <= tick <= x_high]
    y_low = min(0.0, min(all_y))
    y_ticks = nice_ticks(y_low, max(all_y), 5, whole=all(float(y).is_integer() for y in all_y))
    xs = Scale([x_low, x_high], LEFT + 8, WIDTH - RIGHT - 8)
    ys = Scale(y_ticks, PLOT_TOP + PLOT_HEIGHT, PLOT_TOP)
    bottom = PLOT_TOP + PLOT_HEIGHT
    labels = [
        element("text", {"class": "axis-label", "x": (LEFT + WIDTH - RIGHT) / 2, "y": bottom + 36,
                         "text-anchor": "middle"}, x_label),
        element("text", {"class": "axis-label", "x": 8, "y": PLOT_TOP - 10}, y_label),
    ]
    lines = []
    for index, (name, values) in enumerate(points.items()):
        colour, shape, dash = series_style(index)
        coords = " ".join(f"{number(xs(x))},{number(ys(y))}" for x, y in values)
        line = element("polyline", {"class": "series", "data-series": name, "points": coords,
                                    "fill": "none", "stroke": colour, "stroke-width": 2.5,
                                    "stroke-dasharray": dash or None,
                                    "stroke-linejoin": "round"})
        marks = [marker(shape, xs(x), ys(y), colour) for x, y in marked(values)]
        lines.append(group(line, *marks, element("title", None, name),
                           **{"class": "line", "data-series": name}))
    legend, legend_height = _legend(list(points), bottom + 60)
    height = bottom + 52 + legend_height
    desc = (f"{y_label} by {x_label} for {', '.join(points)}: "
            + "; ".join(f"{name} ends at {value_text(values[-1][1])}"
                        for name, values in points.items()) + ".")
    return document(title, desc, WIDTH, height, _title(title), *labels,
                    *_axes(xs, ys, x_ticks, y_ticks), *lines, *legend)


# --- bar charts ---------------------------------------------------------------------------

ROW = 40.0
BAR_HEIGHT = 14.0


def _bar_rows(
    title: str,
    rows: Sequence[tuple[str, float, float | None]],
    *,
    value_label: str,
    percent: bool,
    describe: Callable[[str, float, float | None], str],
) -> str:
    """Horizontal bars, one row each: the label and its value(s) as text above the bar, the
    expected value (when given) as a black tick across the bar; a value axis underneath."""
    if not rows:
        return empty_chart(title)
    top = PLOT_TOP + (18 if any(row[2] is not None for row in rows) else 0)
    high = max(max(value, expected or 0.0) for _, value, expected in rows)
    ticks = nice_ticks(0.0, high if high > 0 else 1.0, 5)
    xs = Scale(ticks, 16.0, WIDTH - RIGHT - 6)
    parts: list[Markup] = [_title(title)]
    if top > PLOT_TOP:
        parts.append(_bar_legend(PLOT_TOP + 2))
    for index, (label, value, expected) in enumerate(rows):
        parts.append(_bar_row(label, value, expected, xs, top + index * ROW, percent, describe))
    bottom = top + len(rows) * ROW
    for tick in ticks:
        x = xs(tick)
        parts.append(element("line", {"class": "axis", "x1": x, "x2": x, "y1": bottom - 4,
                                      "y2": bottom, "stroke": "currentColor"}))
        parts.append(element("text", {"class": "tick", "x": x, "y": bottom + 14,
                                      "text-anchor": "middle"}, value_text(tick, percent=percent)))
    parts.append(element("line", {"class": "axis", "x1": xs.start, "x2": xs.end, "y1": bottom - 4,
                                  "y2": bottom - 4, "stroke": "currentColor"}))
    parts.append(element("text", {"class": "axis-label", "x": (xs.start + xs.end) / 2,
                                  "y": bottom + 32, "text-anchor": "middle"}, value_label))
    desc = "; ".join(describe(label, value, expected) for label, value, expected in rows) + "."
    return document(title, f"{value_label}: {desc}", WIDTH, bottom + 42, *parts)


def _bar_legend(y: float) -> Markup:
    swatch = element("rect", {"x": 8, "y": y, "width": 16, "height": 10, "fill": BAR_FILL})
    tick = element("line", {"x1": 110, "x2": 110, "y1": y - 3, "y2": y + 13,
                            "stroke": "currentColor", "stroke-width": 3})
    return group(swatch, element("text", {"x": 30, "y": y + 9.5}, "observed"), tick,
                 element("text", {"x": 118, "y": y + 9.5}, "expected"), **{"class": "legend"})


def _bar_row(
    label: str,
    value: float,
    expected: float | None,
    xs: Scale,
    top: float,
    percent: bool,
    describe: Callable[[str, float, float | None], str],
) -> Markup:
    shown = value_text(value, percent=percent)
    if expected is not None:
        shown += f" (expected {value_text(expected, percent=percent)})"
    room = int((xs.end - xs.start) / 7.2) - len(shown) - 2
    base = top + 13
    parts = [
        element("text", {"class": "bar-label", "x": xs.start, "y": base}, shorten(label, room)),
        element("text", {"class": "bar-value", "x": xs.end, "y": base, "text-anchor": "end"},
                shown),
        element("rect", {"class": "bar", "data-label": label, "data-value": value_text(value),
                         "x": xs.start, "y": top + 18, "width": max(xs(value) - xs.start, 0.0),
                         "height": BAR_HEIGHT, "fill": BAR_FILL}),
    ]
    if expected is not None:
        x = xs(expected)
        parts.append(element("line", {"class": "expected", "data-value": value_text(expected),
                                      "x1": x, "x2": x, "y1": top + 15, "y2": top + 21 + BAR_HEIGHT,
                                      "stroke": "currentColor", "stroke-width": 3}))
    return group(*parts, element("title", None, describe(label, value, expected)),
                 **{"class": "bar-row"})


def bars_against(
    title: str,
    bars: Sequence[tuple[str, float, float]],
    *,
    value_label: str,
    percent: bool = False,
) -> str:
    """Observed bars, each with the value expected marked across it: dice faces against a fair
    die (``("1", 9, 10.0)``), battle outcomes against exact odds (shares with ``percent``)."""

    def describe(label: str, value: float, expected: float | None) -> str:
        return (f"{label}: {value_text(value, percent=percent)}, expected "
                f"{value_text(expected or 0.0, percent=percent)}")

    rows = [(label, float(value), float(expected)) for label, value, expected in bars]
    return _bar_rows(title, rows, value_label=value_label, percent=percent, describe=describe)


def bars(
    title: str,
    bars: Sequence[tuple[str, float]],
    *,
    value_label: str,
    percent: bool = False,
) -> str:
    """Plain bars, one per label: win rates by player (``percent``), game lengths by kind."""

    def describe(label: str, value: float, expected: float | None) -> str:
        return f"{label}: {value_text(value, percent=percent)}"

    rows = [(label, float(value), None) for label, value in bars]
    return _bar_rows(title, rows, value_label=value_label, percent=percent, describe=describe)
