"""Game data as options: continent sizes, domination numbers and the map."""

from __future__ import annotations

import pytest

from tabletape.rules.kernel import BadOptions
from tabletape.rules.risk_strike import RULES
from tabletape.rules.risk_strike.data import DOMINATION, LINKS, SIZES
from tabletape.rules.risk_strike.state import CONTINENTS

from .helpers import dealt, play, start

PLAYERS = ("Olga", "Patrick")


def test_defaults_are_filled_in_and_recorded() -> None:
    """Contents: 'Domination number — the number of cards needed to claim the domination coin';
    the values in force (defaults included) go into the game-started event."""
    options = RULES.options({}, PLAYERS)
    assert options["domination.asia"] == 8 and options["sizes.asia"] == 12
    assert options["links.africa"] == ("south-america", "europe", "asia")
    assert options["reshuffle"] == "at-draw" and options["expand-cards"] == "inactive"
    assert options["after-win"] == "resolve"
    assert len(options) == 18 + 3
    assert sum(options[f"sizes.{c}"] for c in CONTINENTS) == 42


def test_marks_say_where_values_come_from() -> None:
    """Game data beyond the rulebook is labelled: R rulebook, V official, I inference."""
    assert DOMINATION["south-america"].mark == "V" and DOMINATION["europe"].mark == "I"
    assert LINKS["africa"].mark == "R" and SIZES["asia"].mark == "I"
    data = RULES.extra(start(PLAYERS, **{"domination.europe": "6"}))["continents"]
    assert data["europe"]["domination_mark"] == "table"
    assert data["asia"]["domination_mark"] == "V" and data["asia"]["cards_mark"] == "I"


def test_options_override_text_values() -> None:
    """A table overrides a default with --option KEY=VALUE (text converted)."""
    options = RULES.options(
        {
            "domination.europe": "6",
            "links.australia": "asia,africa",
            "links.africa": "south-america,europe,asia,australia",
        },
        PLAYERS,
    )
    assert options["domination.europe"] == 6
    state = dealt(
        PLAYERS,
        "continents=australia,asia,asia",
        "continents=africa,europe,europe",
        **{"links.australia": "asia,africa", "links.africa": "south-america,europe,asia,australia"},
    )
    state = play(state, "draw tactics=2", "attack from=australia target=africa defender=patrick")
    assert state.battle is not None


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"sizes.asia": "11"}, "add up to the 42 continent cards, not 41"),
        ({"domination.australia": "4"}, "domination.australia must be from 1 to 3"),
        ({"links.australia": "asia,africa"}, "links.africa must list australia"),
        ({"links.asia": "mars"}, "unknown continent 'mars'"),
        ({"domination.mars": "3"}, "unknown option 'domination.mars'"),
        ({"domination.asia": "many"}, "bad option"),
        ({"reshuffle": "sometimes"}, "reshuffle is at-draw or when-empty .default at-draw., not"),
        ({"after-win": "maybe"}, "after-win is resolve or stop"),
    ],
)
def test_bad_options_are_refused(raw: dict[str, str], message: str) -> None:
    """Dominating: 'each continent has more continent cards than its domination number';
    Contents: 42 continent cards; the map connects continents both ways."""
    with pytest.raises(BadOptions, match=message):
        RULES.options(raw, PLAYERS)


def test_player_count() -> None:
    """Contents: '2-5 players'."""
    with pytest.raises(BadOptions, match="2 to 5 players"):
        RULES.options({}, ("Olga",))
    with pytest.raises(BadOptions, match="2 to 5 players"):
        RULES.options({}, tuple("ABCDEF"))
