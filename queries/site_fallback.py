"""Stand-ins for part A until it lands on main (then this module goes): ``game_page`` and
``shell`` stand for :mod:`tabletape.replay.page`'s.
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
