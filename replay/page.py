"""The replay page: one game as a self-contained HTML file to share (``replay GAME --html FILE``).

Everything the page shows is computed here, at export time: each step (one stored event) carries
its narration, where the game stood after it, its notes, whether it was undone, the game's view
of the table then (rendered by the game's own rich view, as HTML lines) and, for map games, a
picture of the board. The script only moves between steps; it never recomputes a view.

Views and pictures of neighbouring steps share most of their lines, so each distinct line is
stored once (:class:`LineTable`) and a step names its lines by number: a 600-event Deep Space
game with its board pictures is about 1 MB instead of more than 8.

:func:`shell` is the document around any page (the shared stylesheet), so the ledger's index
page looks the same.

>>> print(shell("A & B", "<p>hi</p>").splitlines()[0])
<!DOCTYPE html>
>>> "<title>A &amp; B</title>" in shell("A & B", "")
True
"""

from __future__ import annotations

import html
import io
import json
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from importlib import resources
from typing import Any, NamedTuple

from rich.console import Console, RenderableType
from rich.segment import Segment
from rich.style import Style
from rich.terminal_theme import DEFAULT_TERMINAL_THEME

from tabletape.ledger import Record
from tabletape.replay.engine import Replay, parse_point
from tabletape.replay.narrate import (
    NarratedEvent,
    join_sentences,
    narrate_game,
    turn_group,
    turn_heading,
)
from tabletape.replay.parts import game_part
from tabletape.replay.render import format_value, game_view, status_json
from tabletape.replay.stepper import notes_about, where_line
from tabletape.rules.facts import MARK_WORDS
from tabletape.rules.kernel import Rules, won_words

VIEW_WIDTH = 80
"""Columns the game's view is rendered at: the width the views are made for (a terminal's); a
desktop shows it beside the narration, a phone at a small size, scrolling inside its own box."""

SETUP_WIDTH = 1000
"""Columns the setup notes (sentences, no tables) are rendered at: no line is cut by rich, the
browser wraps them to the page."""

PRINTED = ("R", "V", "")
"""Marks that need no comment in the Data section: printed in the rulebook or official."""


OFFLINE_POLICY = ("default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
                  "img-src data:")
"""The page's Content-Security-Policy: the browser itself refuses to fetch anything (a page is
read offline; nothing in it may reach the network), only the inline style and script run."""


# -- the document --------------------------------------------------------------------------------


def asset(name: str) -> str:
    """A file shipped beside this module (``page.css``, ``page.js``), as text."""
    return (resources.files("tabletape.replay") / name).read_text(encoding="utf-8")


def shell(title: str, body: str, *, script: str = "", style: str = "") -> str:
    """An HTML5 document: ``title`` (plain text, escaped here), ``body`` (HTML), the shared
    stylesheet plus ``style`` (CSS), and ``script`` (JavaScript, run at the end of the body).
    Nothing is loaded from anywhere: the file works offline."""
    script_element = f"<script>\n{script}\n</script>\n" if script else ""
    return ("<!DOCTYPE html>\n"
            '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            '<meta name="generator" content="tabletape">\n'
            f'<meta http-equiv="Content-Security-Policy" content="{OFFLINE_POLICY}">\n'
            f"<title>{html.escape(title)}</title>\n"
            f"<style>\n{asset('page.css')}{style}</style>\n</head>\n<body>\n"
            f"{body}\n{script_element}</body>\n</html>\n")


def json_for_script(data: Any) -> str:
    """``data`` as JSON safe inside a ``<script>`` element: no ``<``, ``>`` or ``&`` survives
    (so a ``</script>`` in a player's name cannot end the element), nor a line separator.

    >>> json_for_script({"name": "</script><b>&"})
    '{"name":"\\\\u003c/script\\\\u003e\\\\u003cb\\\\u003e\\\\u0026"}'
    """
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    for char, code in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"),
                       ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(char, code)
    return text


# -- rich renderables as HTML lines --------------------------------------------------------------


class StyleSheet:
    """CSS classes for the rich styles a page uses, one class per distinct style."""

    def __init__(self) -> None:
        self.classes: dict[str, str] = {}

    def name(self, style: Style | None) -> str:
        """The class for ``style`` ("" for no style)."""
        css = style.get_html_style(DEFAULT_TERMINAL_THEME) if style else ""
        if not css:
            return ""
        return self.classes.setdefault(css, f"r{len(self.classes)}")

    def css(self) -> str:
        """The rules, scoped to views: ``.view .r0 {color: ...}``."""
        return "".join(f".view .{name} {{{css}}}\n" for css, name in self.classes.items())


def html_lines(renderable: RenderableType, sheet: StyleSheet, width: int = VIEW_WIDTH
               ) -> list[str]:
    """``renderable`` as rich draws it at ``width`` columns: one HTML string per line, text
    escaped, styles as classes of ``sheet``."""
    console = Console(width=width, file=io.StringIO(), force_terminal=True,
                      color_system="truecolor", legacy_windows=False)
    lines = console.render_lines(renderable, console.options, pad=False)
    return [segments_html(line, sheet) for line in lines]


def segments_html(line: Sequence[Segment], sheet: StyleSheet) -> str:
    parts = []
    for segment in line:
        if segment.control or not segment.text:
            continue
        text = html.escape(segment.text, quote=False)
        name = sheet.name(segment.style)
        parts.append(f'<span class="{name}">{text}</span>' if name else text)
    return "".join(parts).rstrip()


class LineTable:
    """Distinct lines, each stored once; a block of lines is a list of their numbers."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.numbers: dict[str, int] = {}
        self.blocks: list[list[int]] = []
        self.block_numbers: dict[tuple[int, ...], int] = {}

    def block(self, lines: Sequence[str]) -> int:
        """The number of the block holding ``lines`` (stored once however often it is used).

        >>> table = LineTable()
        >>> table.block(["a", "b"]), table.block(["b", "c"]), table.block(["a", "b"])
        (0, 1, 0)
        >>> table.lines, table.blocks
        (['a', 'b', 'c'], [[0, 1], [1, 2]])
        """
        numbers = tuple(self.line_number(line) for line in lines)
        if numbers not in self.block_numbers:
            self.block_numbers[numbers] = len(self.blocks)
            self.blocks.append(list(numbers))
        return self.block_numbers[numbers]

    def line_number(self, line: str) -> int:
        if line not in self.numbers:
            self.numbers[line] = len(self.lines)
            self.lines.append(line)
        return self.numbers[line]

    def text(self, block: int, joint: str = "\n") -> str:
        """The lines of ``block`` joined again (by ``joint``: ``""`` for a picture's pieces)."""
        return joint.join(self.lines[number] for number in self.blocks[block])


# -- the steps -----------------------------------------------------------------------------------


class PageStep(NamedTuple):
    """One stored event as the page shows it."""

    seq: int
    kind: str
    """``start``, ``event``, ``note`` or ``undo``: notes and undos are shown as such."""
    turn: str
    """The turn heading it belongs to: ``Turn 3 · round 2 · Olga`` or ``Setup``."""
    where: str
    """The game after it, one line: ``Risk Strike · rs-k7pq · seq 5 of 36 · turn 3 ...``."""
    text: str
    """Its narration."""
    undone: str
    """``Undone by Olga at seq 14`` when an undo retracted it, else ``""``."""
    notes: tuple[str, ...]
    """Notes people added about it."""
    view: int
    """Block of the game's view of the table after it."""
    picture: int
    """Block of the board picture after it (-1: the game draws none)."""

    def data(self) -> dict[str, Any]:
        """The step as the page's script reads it."""
        return {"seq": self.seq, "kind": self.kind, "turn": self.turn, "where": self.where,
                "text": self.text, "undone": self.undone, "notes": list(self.notes),
                "view": self.view, "picture": self.picture}


PictureFunction = Callable[[Rules[Any], Any], "str | None"]


def picture_part(kind: str) -> PictureFunction | None:
    """The game's ``picture(rules, state) -> svg`` part, when its manifest names one."""
    return game_part(kind, "picture")


def step_kind(record: Record) -> str:
    if record.seq == 1:
        return "start"
    return {"note": "note", "sign": "note", "undo": "undo"}.get(record.type, "event")


def undone_words(undo: Record | None) -> str:
    """Who undid an event and where; ``""`` when it stands."""
    if undo is None:
        return ""
    by = "the table" if undo.actor == "table" else undo.actor
    return f"Undone by {by} at seq {undo.seq}"


def page_steps(replay: Replay, told: Sequence[NarratedEvent], table: LineTable,
               sheet: StyleSheet) -> list[PageStep]:
    """Every stored event as a step, its view and picture stored in ``table``."""
    undos = replay.info.retracted
    draw = picture_part(replay.rules.name)
    steps: list[PageStep] = []
    view = picture = -1
    headings = turn_headings(told)
    for position, line in enumerate(told):
        record = replay.records[position]
        if position == 0 or replay.effective[position]:
            state = replay.state_at(position)
            view = table.block(html_lines(game_view(replay.rules, state), sheet))
            picture = picture_block(draw, replay.rules, state, table)
        steps.append(PageStep(
            seq=record.seq, kind=step_kind(record), turn=headings[position],
            where=where_line(replay, position).plain, text=join_sentences(line.sentences),
            undone=undone_words(undos.get(record.seq)),
            notes=tuple(notes_about(replay, record.seq)),
            view=view, picture=picture))
    return steps


def turn_headings(told: Sequence[NarratedEvent]) -> list[str]:
    """Each event's turn heading as the narration groups them: one per turn and round (the
    setup is one), named by its first event (``Turn 3 · round 2 · olga``), so a battle where
    the defender acts stays in the attacker's turn."""
    headings: list[str] = []
    shown: tuple[int, int] | None = None
    for line in told:
        where = turn_group(line)
        if where != shown:
            headings.append(turn_heading(line))
            shown = where
        else:
            headings.append(headings[-1])
    return headings


def picture_block(draw: PictureFunction | None, rules: Rules[Any], state: Any,
                  table: LineTable) -> int:
    """The picture of ``state`` stored in ``table`` (-1 when there is none), cut between its
    elements (:func:`svg_pieces`) so the spaces and links that did not change are stored once."""
    svg = draw(rules, state) if draw is not None else None
    return table.block(svg_pieces(svg)) if svg else -1


def svg_pieces(svg: str) -> list[str]:
    """An SVG cut before each tag that follows a tag; joined with ``""`` it is the SVG again.

    >>> svg_pieces('<svg><g><text>a b</text></g></svg>')
    ['<svg>', '<g>', '<text>a b</text>', '</g>', '</svg>']
    """
    return re.split(r"(?<=>)(?=<)", svg)


# -- the page ------------------------------------------------------------------------------------


def game_page(game: str, records: Sequence[Record], *, at: str | None = None,
              charts: Sequence[str] = ()) -> str:
    """The replay page of ``game``: one offline HTML document, starting at ``at`` (a point,
    :data:`tabletape.replay.engine.POINT_SYNTAX`; default the end), with ``charts`` (inline SVG
    pictures of the whole game, made by the caller: the catalog's series live in
    :mod:`tabletape.queries`, which this package does not import)."""
    replay = Replay(game, records)
    start = replay.position(parse_point(at or "end"))
    told = narrate_game(game, records)
    table, sheet = LineTable(), StyleSheet()
    steps = page_steps(replay, told, table, sheet)
    final = replay.folded_at(replay.last)
    title = f"{replay.rules.title} · {game}"
    body = "\n".join([
        header_html(replay, title),
        '<main class="stage">',
        controls_html(steps[start], start, len(steps)),
        now_html(steps[start], table),
        '<div class="side">',
        turns_html(steps),
        log_html(steps, start),
        "</div>",
        "</main>",
        charts_html(charts),
        data_html(replay.rules, status_json(final), setup_lines(replay, sheet)),
        keys_html(),
        f'<script type="application/json" id="tabletape-data">'
        f"{json_for_script(page_data(steps, start, table))}</script>",
    ])
    return shell(title, body, script=asset("page.js"), style=sheet.css())


def page_data(steps: Sequence[PageStep], start: int, table: LineTable) -> dict[str, Any]:
    """What the script reads: the steps, the starting one, the shared lines and blocks."""
    return {"version": 1, "start": start, "steps": [step.data() for step in steps],
            "lines": table.lines, "blocks": table.blocks}


def setup_lines(replay: Replay, sheet: StyleSheet) -> list[str]:
    """What the game says of its setup (the board in force, readings and defaults), as HTML."""
    notes = game_part(replay.rules.name, "setup_notes")
    if notes is None:
        return []
    return html_lines(notes(replay.rules, replay.state_at(replay.last)), sheet, width=SETUP_WIDTH)


def header_html(replay: Replay, title: str) -> str:
    """The title, the players and the result (or ``in progress``)."""
    state = replay.state_at(replay.last)
    result = replay.rules.result(state)
    if result is None:
        outcome = "In progress"
    else:
        outcome = "Finished: " + won_words(result) + (f" · {result.reason}" if result.reason
                                                        else "")
    started = replay.started
    forked = (f'<p class="forked">A what-if game forked from {html.escape(started.parent)} after '
              f"seq {started.fork_seq}.</p>" if started.parent else "")
    return (f'<header class="top">\n<h1>{html.escape(title)}</h1>\n'
            f'<p class="players"><span class="label">Players</span> '
            f"{html.escape(', '.join(started.players))}</p>\n"
            f'<p class="result" data-finished="{str(result is not None).lower()}">'
            f'<span class="label">Result</span> {html.escape(outcome)}</p>\n{forked}'
            f'<p class="count">{len(replay)} events recorded</p>\n</header>')


BUTTONS = (("first", "|‹", "First event", "Home"),
           ("prev-turn", "«", "Previous turn", "p"),
           ("prev", "‹", "Previous event", "←"),
           ("next", "›", "Next event", "→"),
           ("next-turn", "»", "Next turn", "n"),
           ("last", "›|", "Last event", "End"))
"""The stepping buttons: action, symbol, words, key."""


def controls_html(step: PageStep, start: int, count: int) -> str:
    """The stepping buttons and where the page is."""
    buttons = "".join(
        f'<button type="button" data-go="{go}" title="{words} ({key})" aria-label="{words}">'
        f'<span aria-hidden="true">{symbol}</span><span class="words"> {words}</span></button>'
        for go, symbol, words, key in BUTTONS)
    return (f'<nav class="controls" aria-label="Step through the game">{buttons}'
            f'<span class="position" id="position">{start + 1} / {count}</span></nav>')


def now_html(step: PageStep, table: LineTable) -> str:
    """The current step: where the game is, what happened, notes, the table after it (the
    server draws the starting step; the script redraws it at each step)."""
    return ('<section class="now" aria-label="This step">\n'
            f'<div class="told" id="told" aria-live="polite" aria-atomic="true">'
            f"{told_html(step)}</div>\n"
            f'<figure class="board" id="board"{"" if step.picture >= 0 else " hidden"}>'
            f"{table.text(step.picture, '') if step.picture >= 0 else ''}</figure>\n"
            f'<pre class="view" id="view" aria-label="The table after this step">'
            f"{table.text(step.view)}</pre>\n</section>")


def told_html(step: PageStep) -> str:
    """One step in words; the script builds the same markup (keep page.js ``toldHtml`` in
    step)."""
    undone = (f'<p class="undone-by">{html.escape(step.undone)}</p>' if step.undone else "")
    notes = "".join(f'<p class="note">✎ {html.escape(note)}</p>' for note in step.notes)
    text_class = "text undone" if step.undone else "text"
    return (f'<p class="where">{html.escape(step.where)}</p>'
            f'<p class="{text_class}" data-kind="{step.kind}">'
            f'<span class="kind">seq {step.seq}</span> '
            f"{html.escape(step.text)}</p>{undone}{notes}")


def turn_starts(steps: Sequence[PageStep]) -> list[PageStep]:
    """The first step of each turn heading (the setup is one)."""
    return [step for index, step in enumerate(steps)
            if index == 0 or step.turn != steps[index - 1].turn]


def turns_html(steps: Sequence[PageStep]) -> str:
    """The turn list: each turn's first event, a link to it."""
    items = "".join(f'<li><a href="#seq-{step.seq}" data-seq="{step.seq}">'
                    f"{html.escape(step.turn)}</a></li>" for step in turn_starts(steps))
    return (f'<nav class="turns" aria-labelledby="turns-title"><h2 id="turns-title">Turns</h2>'
            f"<ol>{items}</ol></nav>")


def log_html(steps: Sequence[PageStep], current: int) -> str:
    """The whole game told, one item per event under its turn's heading; the current one
    marked (``aria-current`` and a ▶, not colour alone), undone ones struck through."""
    parts = ['<section class="log" aria-labelledby="log-title">'
             '<h2 id="log-title">The game, event by event</h2><div class="log-box" id="log">']
    for group in grouped(steps):
        parts.append(f"<h3>{html.escape(group[0].turn)}</h3><ol>")
        for step in group:
            parts.append(log_item(step, step.seq - 1 == current))
        parts.append("</ol>")
    parts.append("</div></section>")
    return "".join(parts)


def grouped(steps: Sequence[PageStep]) -> Iterator[list[PageStep]]:
    """Steps in runs of the same turn heading."""
    run: list[PageStep] = []
    for step in steps:
        if run and step.turn != run[-1].turn:
            yield run
            run = []
        run.append(step)
    if run:
        yield run


def log_item(step: PageStep, current: bool) -> str:
    undone = f' <span class="undone-by">({html.escape(step.undone)})</span>' if step.undone else ""
    notes = "".join(f'<span class="note">✎ {html.escape(note)}</span>' for note in step.notes)
    text = f"<s>{html.escape(step.text)}</s>" if step.undone else html.escape(step.text)
    mark = ' aria-current="step"' if current else ""
    return (f'<li data-seq="{step.seq}" data-kind="{step.kind}"{mark}>'
            f'<a href="#seq-{step.seq}" class="seq">{step.seq}</a> '
            f'<span class="text">{text}</span>{undone}{notes}</li>')


def charts_html(charts: Sequence[str]) -> str:
    """The Charts section (nothing when there are none)."""
    if not charts:
        return ""
    figures = "".join(f'<figure class="chart">{chart}</figure>' for chart in charts)
    return (f'<section class="charts" aria-labelledby="charts-title"><h2 id="charts-title">'
            f"Charts</h2>{figures}</section>")


# -- provenance ----------------------------------------------------------------------------------


class Marked(NamedTuple):
    """A value in force and where it comes from."""

    what: str
    value: str
    mark: str


def marked_values(shape: Mapping[str, Any], where: str = "") -> list[Marked]:
    """Every value of a ``status --json`` shape that carries a provenance mark: a ``mark`` key
    (the object's), a ``<name>_mark`` key (``<name>``'s), or a ``*marks`` object (one mark per
    key). Printed values (R, V) are left out: the Data section lists what is not printed.

    >>> marked_values({"continents": {"asia": {"cards": 12, "cards_mark": "I"}},
    ...                "board": {"name": "Ours", "mark": "V"}})
    [Marked(what='continents · asia · cards', value='12', mark='I')]
    """
    found: list[Marked] = []
    for key, value in shape.items():
        path = f"{where} · {key}" if where else key
        if isinstance(value, Mapping):
            if key.endswith("marks"):
                found += [Marked(f"{path} · {k}", "", str(m)) for k, m in value.items()
                          if isinstance(m, str) and m not in PRINTED]
            else:
                found += marked_values(value, path)
        elif isinstance(value, list):
            for index, item in enumerate(value):
                if isinstance(item, Mapping):
                    found += marked_values(item, f"{path} · {item_name(item, index)}")
        elif key == "mark" and isinstance(value, str) and value not in PRINTED:
            found.append(Marked(where, value_words(shape), value))
        elif key.endswith("_mark") and isinstance(value, str) and value not in PRINTED:
            name = key.removesuffix("_mark")
            found.append(Marked(f"{where} · {name}" if where else name,
                                format_value(shape.get(name, "")), value))
    return found


def item_name(item: Mapping[str, Any], index: int) -> str:
    """What a list item is called: its ``reading``, ``rule``, ``name`` or ``id``, else its
    number."""
    for key in ("reading", "rule", "name", "id"):
        if isinstance(item.get(key), str):
            return str(item[key])
    return str(index + 1)


def value_words(shape: Mapping[str, Any]) -> str:
    """The value an object carrying a ``mark`` stands for: its ``value`` or ``name``."""
    for key in ("value", "name"):
        if key in shape:
            return format_value(shape[key])
    return ""


def data_html(rules: Rules[Any], shape: Mapping[str, Any], setup: Sequence[str]) -> str:
    """The Data section: the provenance of the data in force (board, readings, defaults), each
    value with its mark, and what the marks mean."""
    table = marks_table(marked_values(shape))
    if not table and not setup:
        table = "<p>The game names no provenance for the data in force.</p>"
    setup_block = f'<div class="setup">{chr(10).join(setup)}</div>' if setup else ""
    legend = "".join(f"<dt>{mark}</dt><dd>{html.escape(words)}</dd>"
                     for mark, words in MARK_WORDS.items())
    return (f'<section class="data" aria-labelledby="data-title"><h2 id="data-title">Data</h2>'
            f"<p>Where the {html.escape(rules.title)} data in force comes from. "
            "“table” marks a value this game's options set.</p>"
            f'{setup_block}{table}<details><summary>What the marks mean</summary>'
            f'<dl class="legend">{legend}<dt>table</dt><dd>set by this game\'s options</dd>'
            "</dl></details></section>")


def marks_table(values: Sequence[Marked]) -> str:
    """The marked values as a table (``""`` when there are none)."""
    if not values:
        return ""
    rows = "".join(f'<tr><th scope="row">{html.escape(m.what)}</th>'
                   f"<td>{html.escape(m.value)}</td><td><abbr title=\""
                   f"{html.escape(MARK_WORDS.get(m.mark, m.mark))}\">{html.escape(m.mark)}</abbr>"
                   f"</td></tr>" for m in values)
    return ('<div class="scroll"><table class="marks"><caption>Values in force that the '
            'rulebook does not print</caption><thead><tr><th scope="col">what</th>'
            '<th scope="col">value</th><th scope="col">mark</th></tr></thead>'
            f"<tbody>{rows}</tbody></table></div>")


def keys_html() -> str:
    return ('<footer class="keys"><p>Keys: ← → events · n p (or Page Down, Page Up) turns · '
            "Home End first and last. A link to this page ending in <code>#seq-12</code> opens "
            "it at event 12.</p><noscript><p>Without JavaScript the page shows one step and "
            "the whole game as text.</p></noscript>"
            '<p class="made">Made by tabletape.</p></footer>')
