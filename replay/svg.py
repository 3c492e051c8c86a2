"""A tiny SVG builder: escaped text, attributes, elements and a self-describing document.

Text is escaped unless it is already :class:`Markup` (what :func:`element` returns), so a
player named ``<script>`` is drawn as text and never becomes markup.

>>> element("text", {"x": 1.5, "y": 2}, "Tom & <Jerry>")
'<text x="1.5" y="2">Tom &amp; &lt;Jerry&gt;</text>'
>>> element("g", {"class": "bar"}, element("rect", {"width": 3}))
'<g class="bar"><rect width="3"/></g>'
>>> doc = document("Dice", "Six faces.", 100, 50, element("rect", {"width": 10}))
>>> doc.startswith('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 50" role="img"')
True

The picture has no fixed pixel size (only a ``viewBox``), so it scales to its container; its
``<title>`` and ``<desc>`` are named by ``aria-labelledby`` for screen readers. Colours are
presentation attributes, so a page's CSS can restyle them; text is drawn in ``currentColor``.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from pathlib import Path

from tabletape.ledger.errors import TabletapeError
from tabletape.ledger.store import write_atomic

SVG_NS = "http://www.w3.org/2000/svg"
FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"
"""The font stack of every picture: the reader's own interface font, nothing to download."""


class Markup(str):
    """A string that is already SVG markup: :func:`element` inserts it as it is."""


def escape(text: str) -> str:
    """Text safe inside an element or a quoted attribute.

    >>> escape('a<b & "c" \\'d\\'')
    'a&lt;b &amp; &quot;c&quot; &#39;d&#39;'
    """
    return (
        text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("'", "&#39;")
    )


def number(value: float) -> str:
    """A coordinate, short: at most two decimals, no trailing zeros.

    >>> number(3.0), number(2.456), number(-0.001)
    ('3', '2.46', '0')
    """
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def attributes(attrs: Mapping[str, object]) -> str:
    """``name="value"`` pairs (numbers shortened, text escaped); ``None`` values left out.

    >>> attributes({"x": 2.0, "class": "a&b", "fill": None})
    ' x="2" class="a&amp;b"'
    """
    parts = []
    for name, value in attrs.items():
        if value is None:
            continue
        shown = number(value) if isinstance(value, float) else str(value)
        parts.append(f' {name}="{escape(shown)}"')
    return "".join(parts)


def element(tag: str, attrs: Mapping[str, object] | None = None, *children: str) -> Markup:
    """One element; ``children`` that are not :class:`Markup` are escaped as text."""
    inner = "".join(child if isinstance(child, Markup) else escape(child) for child in children)
    opened = f"<{tag}{attributes(attrs or {})}"
    return Markup(f"{opened}>{inner}</{tag}>" if inner else f"{opened}/>")


def group(*children: str, **attrs: object) -> Markup:
    """A ``<g>`` of children (attribute names with ``_`` for ``-``: ``font_size``)."""
    return element("g", {name.replace("_", "-"): value for name, value in attrs.items()}, *children)


def shorten(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis.

    >>> shorten("Optimus Prime", 8), shorten("Ann", 8)
    ('Optimus…', 'Ann')
    """
    return text if len(text) <= limit else text[: max(limit - 1, 1)].rstrip() + "…"


def document(title: str, desc: str, width: float, height: float, *children: str,
             root: Mapping[str, object] | None = None) -> Markup:
    """A whole ``<svg>``: viewBox ``0 0 width height``, a title and description for screen
    readers (ids unique per content, so several pictures can sit inline in one page), and
    ``root``'s attributes (a class, data attributes) first on the ``<svg>`` element."""
    body = "".join(children)
    key = hashlib.sha1(f"{title}\n{desc}\n{body}".encode()).hexdigest()[:10]
    title_id, desc_id = f"t{key}", f"d{key}"
    return element(
        "svg",
        {
            **(root or {}),
            "xmlns": SVG_NS,
            "viewBox": f"0 0 {number(width)} {number(height)}",
            "role": "img",
            "aria-labelledby": f"{title_id} {desc_id}",
            "font-family": FONT,
            "font-size": 13,
            "fill": "currentColor",
        },
        element("title", {"id": title_id}, title),
        element("desc", {"id": desc_id}, desc),
        Markup(body),
    )


def unique(svg: str, suffix: str) -> str:
    """``svg`` with its title and description ids made unique by ``suffix``: a page that shows
    the same picture twice (the board at two steps where nothing moved) keeps its ids distinct.

    >>> doc = document("A", "b", 10, 10)
    >>> 'aria-labelledby="t' in unique(doc, "s2") and unique(doc, "s2").count("-s2") == 4
    True
    """
    found = re.search(r'aria-labelledby="(t[0-9a-f]+) (d[0-9a-f]+)"', svg)
    if found is None:
        return svg
    suffix = re.sub(r"[^A-Za-z0-9_-]", "-", suffix)
    title, desc = found.groups()
    return (svg.replace(found.group(0), f'aria-labelledby="{title}-{suffix} {desc}-{suffix}"', 1)
            .replace(f'id="{title}"', f'id="{title}-{suffix}"', 1)
            .replace(f'id="{desc}"', f'id="{desc}-{suffix}"', 1))


def save(target: Path, text: str) -> None:
    """Write ``text`` to ``target`` whole or not at all (:func:`~tabletape.ledger.store.
    write_atomic`); :class:`~tabletape.ledger.errors.TabletapeError` (exit 1) says why it cannot
    be written."""
    try:
        write_atomic(target, text)
    except OSError as error:
        raise TabletapeError(f"cannot write {target}: {error.strerror or error}") from None
