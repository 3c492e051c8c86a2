"""The game registry: names, aliases, prefixes, and the static table that keeps lookups lazy."""

import importlib
import io
import json

import pytest
from rich.console import Console
from typer.testing import CliRunner

from tabletape import build_app
from tabletape.ledger import GameStarted, Ledger
from tabletape.replay.demo import run_demo
from tabletape.rules.kernel import BUILTIN_GAMES, UnknownGame, find_game, registered


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


@pytest.mark.parametrize("kind", sorted(names[0] for names in BUILTIN_GAMES.values()))
def test_new_games_and_the_demo_record_the_current_rules_version(kind: str, tmp_path) -> None:
    """The first event names the rules version (DESIGN: every log is self-describing)."""
    rules = find_game(kind)
    store = Ledger(tmp_path / "ledger")
    game = run_demo(store, Console(file=io.StringIO()), kind)
    assert store.started(game).rules_version == rules.rules_version
    players = ",".join(("Olga", "Patrick", "Quinn")[:max(2, rules.min_players)])
    result = CliRunner().invoke(build_app(), ["new", kind, "-p", players, "--ledger",
                                              str(store.root), "--json"])
    assert result.exit_code == 0, result.output
    assert store.started(json.loads(result.stdout)["game"]).rules_version == rules.rules_version


@pytest.mark.parametrize("kind", sorted(names[0] for names in BUILTIN_GAMES.values()))
def test_a_log_from_a_newer_rules_version_is_refused_with_a_clear_message(kind: str) -> None:
    """A version this tabletape does not know may mean something else: never folded by guess."""
    rules = find_game(kind)
    players = ("Olga", "Patrick")
    started = GameStarted(kind=kind, rules_version="99", tabletape_version="0",
                          players=players, options=rules.options({}, players), seed=1)
    with pytest.raises(UnknownGame, match=r"rules version '99' is not known.*upgrade"):
        rules.start(started)
