"""The charts of a game and of a ledger, from the numbers :mod:`tabletape.queries.series` takes
out of the logs: standings over time, dice faces against fair, battle outcomes against the
exact odds, game lengths. One piece for every page that shows them (a replay page, the
ledger's index), so they never draw the same numbers two ways.

>>> outcome_words(2, 2), outcome_words(0, 2), outcome_words(1, 2), outcome_words(1, 3)
('attacker loses 2', 'defender loses 2', 'each loses 1', 'attacker loses 1, defender 2')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tabletape.ledger import Record
from tabletape.queries.series import (
    BattleOutcome,
    DiceFaces,
    GameSeries,
    LeagueSeries,
    changing_figures,
    game_series,
)
from tabletape.replay.charts import bars, bars_against, line_chart


def outcome_words(attacker_losses: int, pairs: int) -> str:
    """One battle outcome in table words, from the pairs the attacker lost of ``pairs``."""
    defender_losses = pairs - attacker_losses
    if defender_losses == 0:
        return f"attacker loses {attacker_losses}"
    if attacker_losses == 0:
        return f"defender loses {defender_losses}"
    if attacker_losses == defender_losses:
        return f"each loses {attacker_losses}"
    return f"attacker loses {attacker_losses}, defender {defender_losses}"


def figure_title(figure: str) -> str:
    """A standings figure as a chart's title.

    >>> figure_title("continents.north-america"), figure_title("bases")
    ('Continents: north america by turn', 'Bases by turn')
    """
    words = figure.replace("-", " ").replace("_", " ").split(".")
    return ": ".join([words[0].capitalize(), *words[1:]]) + " by turn"


def standings_charts(series: GameSeries, figures: Sequence[str] | None = None) -> list[str]:
    """One line chart per figure of the game's ``standings`` (bases, coins, zones, health...),
    a line per player in seat order, x the turn: ``figures``, else those that changed during
    the game (as ``tabletape plot`` chooses them)."""
    charts = []
    for figure in changing_figures(series) if figures is None else figures:
        by_player = series.standings[figure]
        ordered = {player: by_player[player] for player in series.players if player in by_player}
        ordered |= {player: points for player, points in by_player.items() if player not in ordered}
        charts.append(line_chart(figure_title(figure), ordered, x_label="turn", y_label=figure))
    return charts


def dice_charts(dice: Sequence[DiceFaces]) -> list[str]:
    """Per die size, each face's landings against what fair dice give."""
    return [bars_against(f"d{faces.sides} faces against fair ({faces.total} rolls)",
                         [(str(face), count, faces.expected)
                          for face, count in enumerate(faces.counts, 1)],
                         value_label=f"rolls (p = {faces.p_value:.3g} for fair dice)")
            for faces in dice]


def battle_charts(battles: Sequence[BattleOutcome]) -> list[str]:
    """Per matchup, the share of each outcome against its exact probability."""
    charts = []
    for matchup in battles:
        pairs = min(len(matchup.attacker_sides), len(matchup.defender_sides))
        bonus = f", {matchup.bonus}" if matchup.bonus else ""
        rows = [(outcome_words(outcome.attacker_losses, pairs), outcome.share, outcome.exact)
                for outcome in matchup.outcomes]
        charts.append(bars_against(
            f"Battles {matchup.matchup}{bonus} ({matchup.battles}) against exact odds", rows,
            value_label="share of battles", percent=True))
    return charts


def length_chart(lengths: Mapping[str, Sequence[int]]) -> str:
    """The average length, in turns, of each kind's finished games."""
    rows = [(f"{kind} ({len(turns)} game{'s' if len(turns) != 1 else ''})",
             sum(turns) / len(turns)) for kind, turns in sorted(lengths.items()) if turns]
    return bars("Average game length", rows, value_label="turns")


def game_charts(series: GameSeries) -> list[str]:
    """Every chart of one game: standings, dice, battles (those it has data for)."""
    return [*standings_charts(series), *dice_charts(series.dice), *battle_charts(series.battles)]


def log_charts(game: str, records: Sequence[Record]) -> list[str]:
    """Every chart of one game from its verified log: what its replay page shows (``replay
    --html`` and each page of ``export --html``)."""
    return game_charts(game_series(game, records))


def league_charts(league: LeagueSeries) -> list[str]:
    """Every chart of a ledger: game lengths, dice, battles."""
    return [length_chart(league.lengths), *dice_charts(league.dice),
            *battle_charts(league.battles)]
