"""Stand-ins for parts A and B until they land on main (then this module goes).

``game_page`` and ``shell`` stand for :mod:`tabletape.replay.page`'s; ``bars`` and
``bars_against`` for :mod:`tabletape.replay.charts`'.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from tabletape.ledger import Record
from tabletape.replay.narrate import narrate_game


def shell(title: str, body: str, *, script: str = "", style: str = "") -> str:
    """A whole HTML document around ``body``."""
    tail = f"<script>{script}</script>" if script else ""
    return ("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{escape(title)}</title><style>{style}</style></head><body>{body}{tail}"
            "</body></html>\n")


def game_page(game: str, records: Sequence[Record], *, at: str | None = None) -> str:
    """A game's narration as a page."""
    lines = "".join(f"<li>{escape(' '.join(line.sentences))}</li>"
                    for line in narrate_game(game, list(records)))
    return shell(game, f"<main><h1>{escape(game)}</h1><ol>{lines}</ol></main>")


def bars(title: str, bars: Sequence[tuple[str, float]], *, value_label: str,
         percent: bool = False) -> str:
    """Bars as an SVG list of labelled rectangles."""
    return bars_against(title, [(label, value, value) for label, value in bars],
                        value_label=value_label, percent=percent)


def bars_against(title: str, bars: Sequence[tuple[str, float, float]], *, value_label: str,
                 percent: bool = False) -> str:
    """Bars with the expected value as a tick."""
    top = max([1.0, *(max(v, e) for _, v, e in bars)])
    rows = "".join(
        f'<g><text x="0" y="{20 * n + 34}">{escape(label)}</text>'
        f'<rect class="bar" x="120" y="{20 * n + 22}" width="{260 * value / top:.1f}" '
        f'height="14" fill="#56B4E9"/><line class="expected" x1="{120 + 260 * e / top:.1f}" '
        f'x2="{120 + 260 * e / top:.1f}" y1="{20 * n + 20}" y2="{20 * n + 38}" '
        f'stroke="currentColor"/></g>' for n, (label, value, e) in enumerate(bars))
    return (f'<svg viewBox="0 0 400 {20 * len(bars) + 40}" role="img" '
            f'xmlns="http://www.w3.org/2000/svg"><title>{escape(title)}</title>'
            f'<text x="0" y="14">{escape(title)} ({escape(value_label)})</text>{rows}</svg>')
