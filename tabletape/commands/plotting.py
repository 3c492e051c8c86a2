"""``tabletape plot GAME``: a game's standings over time, in the terminal.

One small chart per figure of the game's ``standings`` (bases, coins, zones, health...): a line
per player, a sparkline over the turns with its first, last, least and greatest value, and the turn
axis under them. It reads the game's log (verified) through the catalog's own projections
(:func:`tabletape.queries.series.game_series`), so it needs no sync and shows a game in progress
as far as it has gone.

>>> from tabletape.queries.series import GameSeries
>>> series = GameSeries(game="rs-k7pq", kind="risk-strike", players=["ann", "bob"],
...                     finished=False, standings={"coins": {"ann": [(1, 0.0), (2, 3.0)]},
...                                                "first": {"ann": [(1, 1.0), (2, 1.0)]}})
>>> chosen_figures(series, None)
['coins']
>>> chosen_figures(series, ["Coins", "first"])
['coins', 'first']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated, Any

import msgspec
import typer
from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from tabletape.cli import (
    USAGE_EXIT,
    GameArgument,
    JsonOption,
    LedgerOption,
    open_ledger,
    out,
    people_errors,
    print_json,
)
from tabletape.commands.recording import NoPagerOption
from tabletape.ledger.errors import TabletapeError
from tabletape.queries.bars import Axis, Timeline, Words

if TYPE_CHECKING:
    from tabletape.queries.series import GameSeries, Series

app = typer.Typer(add_completion=False, rich_markup_mode="rich")


class UnknownFigure(TabletapeError):
    """A ``--figure`` the game's standings do not have (exit 2, with the figures there are)."""

    exit_code = USAGE_EXIT


@app.command("plot")
def plot_command(
    game: GameArgument,
    figure: Annotated[list[str] | None, typer.Option(
        "--figure", "-f", help="Only this figure (repeat for more); any case. Default: every "
                               "figure that changed during the game.")] = None,
    ledger: LedgerOption = None,
    as_json: JsonOption = False,
    no_pager: NoPagerOption = False,
) -> None:
    """Standings over time for one game: a small chart per figure, a line per player.

    Reads the game's log (no sync needed); works on a game in progress.
    With --json: the game's standings, dice faces and battles (docs/reference/json.md).
    """
    from tabletape.queries.series import game_series  # the catalog's pieces: not at startup
    from tabletape.replay.render import paged

    with people_errors():
        records = open_ledger(ledger).records(game)
        series = game_series(game, records)
        figures = chosen_figures(series, figure)
    if as_json:
        print_json(series_json(series, figures if figure else list(series.standings)))
        return
    with paged(out, pager=not no_pager):
        out.print(plot_view(series, figures, shown_all=not figure))


def chosen_figures(series: GameSeries, asked: Sequence[str] | None) -> list[str]:
    """The figures to draw: those asked for (any case; a name the game lacks is
    :class:`UnknownFigure`, with a did-you-mean), else every one that changed (every one when
    none did yet: a game of one turn)."""
    if not asked:
        from tabletape.queries.series import changing_figures

        return changing_figures(series) or list(series.standings)
    by_folded = {name.casefold(): name for name in series.standings}
    chosen = []
    for name in asked:
        found = by_folded.get(name.casefold())
        if found is None:
            from tabletape.rules.kernel import unknown_name_message

            raise UnknownFigure(unknown_name_message(
                "figure", name, list(series.standings)))
        if found not in chosen:
            chosen.append(found)
    return chosen


def series_json(series: GameSeries, figures: Sequence[str]) -> dict[str, Any]:
    """``plot --json``: the series with the standings of ``figures`` only."""
    data: dict[str, Any] = msgspec.to_builtins(series)
    data["standings"] = {name: data["standings"][name] for name in figures}
    return data


def plot_view(series: GameSeries, figures: Sequence[str], *,
              shown_all: bool = True) -> RenderableType:
    """The game's headline, a chart per figure, and (when every changing figure is shown) the
    figures that never changed."""
    from tabletape.rules.registry import find_game

    title = find_game(series.kind).title
    state = "finished" if series.finished else "in progress"
    parts: list[RenderableType] = [Words(f"{title} · {series.game} · "
                                         f"{', '.join(series.players)} · {state}", style="bold")]
    if not series.standings:
        parts.append(Text("No standings yet: the game has no turn played.", style="dim"))
    for name in figures:
        parts.append(figure_chart(name, series.standings[name], series.players))
    still = [name for name in series.standings if name not in figures]
    if shown_all and still:
        when = "all game" if series.finished else "so far"
        parts.append(Text(f"Unchanged {when}: {', '.join(still)} (--figure NAME shows one).",
                          style="dim"))
    return Group(*parts)


def figure_chart(name: str, players: dict[str, Series], seats: Sequence[str]) -> Table:
    """One figure: a row per player (seat order) with its sparkline, first, last, least and
    greatest value; the turn axis under the sparklines."""
    turns = [turn for points in players.values() for turn, _ in points]
    values = [value for points in players.values() for _, value in points]
    first, last, low, high = min(turns), max(turns), min(values), max(values)
    table = Table(title=Text(name), title_justify="left", title_style="bold", box=box.SIMPLE_HEAD,
                  show_edge=False, padding=(0, 1, 0, 0))
    table.add_column("player", no_wrap=True)
    scale = f"{low:g} to {high:g}" if high > low else f"{low:g}"
    table.add_column(scale)  # wraps: the one column that gives way to the others
    for heading in ("first", "last", "min", "max"):
        table.add_column(heading, justify="right", no_wrap=True)
    for player in [seat for seat in seats if seat in players] + sorted(set(players) - set(seats)):
        points = players[player]
        numbers = [value for _, value in points]
        table.add_row(Text(player), Timeline(points, first, last, low, high),
                      *(f"{value:g}" for value in (numbers[0], numbers[-1], min(numbers),
                                                   max(numbers))))
    table.add_row(Text("turn", style="dim"), Axis(first, last))
    return table
