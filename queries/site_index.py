"""The site's ``index.html``: every game with its result, linked to its page, then the league
tables ``stats`` prints (the same reports, the same SQL) as HTML tables with charts.

Everything shown is escaped here (names, reasons, problems, report cells); charts come from
:mod:`tabletape.replay.charts` and pages are wrapped by :func:`tabletape.replay.page.shell`.

>>> length_text(IndexGame(game="rs-1", kind="risk-strike", players=["a"], turns=3, events=30,
...                       minutes=75.5))
'3 turns · 30 events · 76 min'
>>> result_text(IndexGame(game="mu-1", kind="marvel-united", players=["a"], finished=True,
...                       team="villain", reason="a hero starts a turn with no cards"))
'the villain won · a hero starts a turn with no cards'
"""

from __future__ import annotations

import datetime
import urllib.parse
from collections import defaultdict
from collections.abc import Callable, Sequence
from html import escape
from typing import TYPE_CHECKING

import msgspec

from tabletape.ledger.text import plural
from tabletape.queries import series_charts
from tabletape.queries.layout import by_kind, is_number, shown
from tabletape.queries.reports import ReportTable
from tabletape.queries.series import LeagueSeries, league_series
from tabletape.replay.charts import bars
from tabletape.replay.page import shell
from tabletape.rules.kernel import Result, won_words

if TYPE_CHECKING:
    import duckdb

TITLE = "Games recorded with tabletape"

BATTLE_CHARTS = 6
"""Matchups drawn as charts (those fought most); the table has every one."""


class IndexGame(msgspec.Struct, kw_only=True):
    """One game as the index lists it: a row of the catalog's ``games``."""

    game: str
    kind: str
    players: list[str]
    started: datetime.datetime | None = None
    finished: bool = False
    winners: list[str] = []
    team: str | None = None
    reason: str | None = None
    turns: int | None = None
    events: int = 0
    minutes: float | None = None
    simulated: bool = False


GAME_COLUMNS = ", ".join(IndexGame.__struct_fields__)

PAGES = "games"
"""The folder of the game pages, beside the index."""


def page_path(game: str) -> str:
    """Where ``game``'s page is, relative to the site's folder.

    >>> page_path("rs-k7pq")
    'games/rs-k7pq.html'
    """
    return f"{PAGES}/{game}.html"


def listed_games(con: duckdb.DuckDBPyConnection) -> list[IndexGame]:
    """The games ``con``'s ``games`` view shows, newest first."""
    rows = con.execute(f"SELECT {GAME_COLUMNS} FROM games ORDER BY started DESC, game").fetchall()
    return [IndexGame(**dict(zip(IndexGame.__struct_fields__, row, strict=True)))
            for row in rows]


def index_page(games: Sequence[IndexGame], reports: Sequence[ReportTable],
               con: duckdb.DuckDBPyConnection, *, left_out: dict[str, str], scope: str = "",
               set_aside: str = "") -> str:
    """The whole ``index.html``."""
    body = "".join([
        "<main class=\"site-index\">",
        heading(games, scope, set_aside),
        left_out_section(left_out),
        games_section(games),
        league_section(reports, league_series(con)),
        "</main>",
    ])
    return shell(TITLE, body, style=STYLE)


# -- games ---------------------------------------------------------------------------------------


def heading(games: Sequence[IndexGame], scope: str, set_aside: str) -> str:
    """The title and what the site counts (and ``set_aside``, the demo and simulated games it
    leaves out, in words)."""
    counted = f"{plural(len(games), 'game')}" + (f": {scope}" if scope else "")
    simulated = (f" {escape(set_aside)} left out (export with "
                 "<code>--include-simulated</code> to add them)." if set_aside else "")
    return (f"<header><h1>{escape(TITLE)}</h1><p>{escape(counted)}, newest first; each links to "
            f"its replay.{simulated}</p><nav><a href=\"#games\">Games</a> · "
            "<a href=\"#league\">League tables</a></nav></header>")


def left_out_section(left_out: dict[str, str]) -> str:
    """Every game left out, and why; nothing when none is."""
    if not left_out:
        return ""
    items = "".join(f"<li>left out: <code>{escape(game)}</code>: {escape(problem)}</li>"
                    for game, problem in sorted(left_out.items()))
    return (f"<section class=\"left-out\" id=\"left-out\" role=\"alert\"><h2>Left out</h2>"
            f"<p>{plural(len(left_out), 'log')} did not verify or did not fold: no page, and not "
            "counted below (<code>tabletape verify --all</code> says more).</p>"
            f"<ul>{items}</ul></section>")


def games_section(games: Sequence[IndexGame]) -> str:
    """The games as a table: a card per game on a phone."""
    if not games:
        return ("<section id=\"games\"><h2>Games</h2><p>No games yet: record one "
                "(<code>tabletape new</code>) or try <code>tabletape demo</code>.</p></section>")
    rows = "".join(game_row(game) for game in games)
    head = "".join(f"<th scope=\"col\">{name}</th>" for name in GAME_HEADERS)
    return (f"<section id=\"games\"><h2>Games</h2><table class=\"games\"><thead><tr>{head}"
            f"</tr></thead><tbody>{rows}</tbody></table></section>")


GAME_HEADERS = ("Game", "Players", "Date (UTC)", "Length", "Result")


def game_row(game: IndexGame) -> str:
    """One game's row, linked to its page."""
    from tabletape.rules.registry import find_game

    link = urllib.parse.quote(page_path(game.game))
    cells = (f"<a href=\"{escape(link)}\"><strong>{escape(find_game(game.kind).title)}</strong> "
             f"<code>{escape(game.game)}</code></a>",
             escape(", ".join(game.players)), escape(date_text(game)),
             escape(length_text(game)), result_html(game))
    return "<tr>" + "".join(f"<td data-label=\"{name}\">{cell}</td>"
                            for name, cell in zip(GAME_HEADERS, cells, strict=True)) + "</tr>"


def date_text(game: IndexGame) -> str:
    """When the game started, in UTC; a simulated game has no real date."""
    if game.simulated:
        return "simulated"
    return f"{game.started:%Y-%m-%d %H:%M}" if game.started else ""


def length_text(game: IndexGame) -> str:
    """Turns, events, and minutes (when known: a game people recorded)."""
    parts = [plural(game.turns or 0, "turn"), plural(game.events, "event")]
    if game.minutes is not None and not game.simulated:
        parts.append("under 1 min" if game.minutes < 1 else f"{game.minutes:.0f} min")
    return " · ".join(parts)


def result_text(game: IndexGame) -> str:
    """Who won and why, or that the game goes on."""
    if not game.finished:
        return "in progress"
    said = won_words(Result(winners=tuple(game.winners), team=game.team))
    return f"{said} · {game.reason}" if game.reason else said


def result_html(game: IndexGame) -> str:
    finished = "true" if game.finished else "false"
    return (f"<span class=\"result\" data-finished=\"{finished}\">"
            f"{escape(result_text(game))}</span>")


# -- league tables -------------------------------------------------------------------------------


def league_section(reports: Sequence[ReportTable], league: LeagueSeries) -> str:
    """Every ``stats`` report as tables (one per game kind, as ``stats`` prints them), its
    charts (from ``league``: the dice, battles and lengths of the same games) and its notes."""
    parts = ["<section id=\"league\"><h2>League tables</h2>"]
    for report in reports:
        parts.append(f"<section class=\"report\" id=\"report-{escape(report.report)}\">"
                     f"<h3>{escape(report.title)}</h3>")
        if not report.rows:
            parts.append("<p class=\"report-notes\">No games with this yet.</p></section>")
            continue
        for title, columns, rows in by_kind(report):
            parts.append(report_table(title, *shown(columns, rows)))
        charts = CHARTS.get(report.report, no_charts)(report, league)
        if charts:
            parts.append("<div class=\"charts\">" + "".join(
                f"<figure>{chart}</figure>" for chart in charts) + "</div>")
        parts.extend(f"<p class=\"report-notes\">{escape(note)}</p>" for note in report.notes)
        parts.append("</section>")
    parts.append("</section>")
    return "".join(parts)


def report_table(title: str, columns: Sequence[str], cells: Sequence[Sequence[str]]) -> str:
    """One table of a report under its title, in a box that scrolls on its own when wider
    than the screen (the title stays in view)."""
    numeric = [bool(cells) and all(is_number(row[n]) for row in cells if row[n])
               for n in range(len(columns))]
    head = "".join(f"<th scope=\"col\"{NUMBER if number else ''}>"
                   f"{escape(name.replace('_', ' '))}</th>"
                   for name, number in zip(columns, numeric, strict=True))
    body = "".join("<tr>" + "".join(f"<td{NUMBER if number else ''}>"
                                    f"{escape(cell).replace(chr(10), '<br>')}</td>"
                                    for cell, number in zip(row, numeric, strict=True))
                   + "</tr>" for row in cells)
    return (f"<h4>{escape(title)}</h4><div class=\"scroll\" role=\"region\" tabindex=\"0\" "
            f"aria-label=\"{escape(title)}\"><table class=\"report\"><thead><tr>{head}</tr>"
            f"</thead><tbody>{body}</tbody></table></div>")


NUMBER = ' class="num"'
"""A cell of a column of numbers: right-aligned, as ``stats`` aligns it."""

ChartMaker = Callable[[ReportTable, LeagueSeries], list[str]]


def no_charts(report: ReportTable, league: LeagueSeries) -> list[str]:
    return []


def win_rate_charts(report: ReportTable, league: LeagueSeries) -> list[str]:
    """Win rate by player (and games played), one chart per game kind."""
    kinds: dict[str, list[tuple[str, float]]] = defaultdict(list)
    for row in report.records():
        kinds[row["kind"]].append((f"{row['player']} ({row['games']})", row["win_rate"]))
    return [bars(f"Win rate by player: {kind}", rates, value_label="win rate (games played)",
                 percent=True) for kind, rates in kinds.items()]


def length_charts(report: ReportTable, league: LeagueSeries) -> list[str]:
    """The average length of each kind's finished games."""
    return [series_charts.length_chart(league.lengths)]


def dice_charts(report: ReportTable, league: LeagueSeries) -> list[str]:
    """How often each face landed against a fair die, per die size (every counted die)."""
    return series_charts.dice_charts(league.dice)


def battle_charts(report: ReportTable, league: LeagueSeries) -> list[str]:
    """Battle outcomes against the exact odds, for the :data:`BATTLE_CHARTS` matchups fought
    most (the table above has every one)."""
    most = sorted(league.battles, key=lambda battle: -battle.battles)[:BATTLE_CHARTS]
    return series_charts.battle_charts(most)


CHARTS: dict[str, ChartMaker] = {
    "players": win_rate_charts,
    "lengths": length_charts,
    "dice": dice_charts,
    "battles": battle_charts,
}
"""The charts drawn beside each report's tables."""


STYLE = """
.site-index{max-width:72rem;margin:0 auto;padding:0 .75rem 2rem}
.site-index code{overflow-wrap:anywhere}
.site-index .left-out{border:2px solid #b00020;border-radius:.4rem;padding:.25rem .9rem;
  margin:1rem 0}
.site-index .left-out h2::before{content:"\\26A0\\FE0E  "}
.site-index table{border-collapse:collapse;width:100%}
.site-index th,.site-index td{text-align:left;padding:.35rem .5rem;vertical-align:top;
  border-bottom:1px solid var(--line, #ccc);overflow-wrap:anywhere}
.site-index .scroll{overflow-x:auto;max-width:100%;margin:.5rem 0 1rem}
.site-index table.report{width:auto;min-width:min(100%,36rem)}
.site-index table.games td:first-child{min-width:11rem}
.site-index table.report td{white-space:nowrap;overflow-wrap:normal}
.site-index table.report th{overflow-wrap:normal;min-width:3ch}
.site-index th.num,.site-index td.num{text-align:right;font-variant-numeric:tabular-nums}
.site-index th{overflow-wrap:normal}
.site-index h3{font-size:1rem;color:inherit;margin:1.5rem 0 .25rem}
.site-index h4{font-size:.9rem;margin:.75rem 0 .25rem}
.site-index .result[data-finished="false"]{font-style:italic}
.site-index .charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(18rem,1fr));
  gap:1rem}
.site-index figure{margin:0}
.site-index figure svg{width:100%;height:auto}
.site-index .report-notes{font-size:.9em;opacity:.8}
@media (max-width:40rem){
  .site-index table.games thead{display:none}
  .site-index table.games,.site-index table.games tbody,.site-index table.games tr,
  .site-index table.games td{display:block;width:auto}
  .site-index table.games tr{border:1px solid var(--line, #ccc);border-radius:.4rem;margin:.6rem 0;
    padding:.25rem .5rem}
  .site-index table.games td{border:0;padding:.15rem 0}
  .site-index table.games td::before{content:attr(data-label) ": ";font-weight:bold}
  .site-index table.games td:first-child::before{content:none}
}
"""
"""The index's own rules (CSS), on top of the pages' shared stylesheet."""

