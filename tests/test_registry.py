"""The game registry: names, aliases, prefixes, and the static table that keeps lookups lazy."""

import importlib

import pytest

from rules.kernel import BUILTIN_GAMES, UnknownGame, find_game, registered


@pytest.mark.parametrize("module", sorted(BUILTIN_GAMES))
def test_the_static_names_match_what_each_game_registers(module: str) -> None:
    """find_game resolves shipped games without importing them all: its table must not drift."""
    names = BUILTIN_GAMES[module]
    rules = find_game(names[0])
    assert importlib.import_module(module)
    assert (rules.name, *rules.aliases) == names


def test_names_aliases_and_unique_prefixes_find_a_game() -> None:
    assert find_game("Risk Strike").name == "risk-strike"
    assert find_game("strike").name == "risk-strike"
    assert find_game("risk-st").name == "risk-strike"


def test_an_unknown_kind_names_the_known_ones_with_a_guess() -> None:
    with pytest.raises(UnknownGame, match=r"did you mean 'risk-strike'\?.*allowed: .*risk-strike"):
        find_game("risk-strik3")


def test_registered_lists_every_shipped_game() -> None:
    names = {rules.name for rules in registered()}
    assert {kinds[0] for kinds in BUILTIN_GAMES.values()} <= names
