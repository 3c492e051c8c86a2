"""Names and input (issue 15): one player-name rule at ``new`` and wherever a name is typed,
names quoted in the action syntax (``by="Mary Ann"``) and shown so they can be typed back, the
``--id`` alphabet, ``-o`` mistakes, and a field with only one legal value left out. Through the
command line, as a table uses it; every refusal exits 2 and writes nothing."""

from __future__ import annotations

import os
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

from tabletape.ledger import GameStarted, Ledger
from tabletape.rules.registry import find_game
from tests.cli.test_recording import MAIN, ROOT, Cli, fails, flat, run_main

NAMES = ("O'Brien", "Zoë", "李雷", "Mary Ann")
"""What people are called (issue 15): an apostrophe, an accent, another script, a space."""

STRIKE = "risk-strike"


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    return Cli(tmp_path / "ledger")


def started(cli: Cli, kind: str, *players: str, extra: tuple[str, ...] = ()) -> str:
    args = [part for name in players for part in ("--player", name)]
    created = cli.json("new", kind, *args, *extra)
    assert isinstance(created, dict)
    return str(created["game"])


def players_of(cli: Cli, game: str) -> list[str]:
    status = cli.json("status", game)
    assert isinstance(status, dict)
    return [figure["name"] for figure in status["players"]]


def no_game_made(cli: Cli, *args: str) -> str:
    """``new ARGS`` refused (exit 2), with no game left in the ledger."""
    output = fails(cli, 2, "new", *args)
    assert not Ledger(cli.root).game_ids()
    return output


# -- the name rule at `new` ----------------------------------------------------------------------


def test_new_takes_what_people_are_called(cli: Cli) -> None:
    game = started(cli, STRIKE, *NAMES)
    assert players_of(cli, game) == list(NAMES)


def test_a_name_is_kept_in_one_unicode_form(cli: Cli) -> None:
    """``Zoë`` typed as e + combining diaeresis is the same name as the one-character ë."""
    decomposed = unicodedata.normalize("NFD", "Zoë")
    game = started(cli, STRIKE, decomposed, "Olga")
    assert players_of(cli, game) == ["Zoë", "Olga"]
    cli.ok("record", game, "deal", f"player={decomposed}", "continents=asia,asia,europe")
    assert "player=Zoë" in flat(cli.ok("log", game).output)


@pytest.mark.parametrize(("name", "why"), [
    ("a=b", "holds '='"),
    ("a,", "holds an empty name"),
    ("", "holds an empty name"),
    ("   ", "holds an empty name"),
    ('say"hi', "holds '\"'"),
    ("[b]x", "holds '['"),
    ("🙂", "holds '🙂'"),
    ("tab\there", "control character"),
    ("a" * 33, "has 33 characters"),
    (".x", "starts with '.'"),
    ("Mary  Ann", "spaces in a row"),
    ("Table", "names the table itself"),
])
def test_new_refuses_a_name_that_breaks_the_rule(cli: Cli, name: str, why: str) -> None:
    output = no_game_made(cli, STRIKE, "--player", name, "--player", "Olga")
    assert why in output
    if "table" not in why and "empty" not in why:  # the refusal says what a name may hold
        assert "letters, digits, single spaces" in output and "at most 32" in output


def test_the_longest_name_is_accepted(cli: Cli) -> None:
    game = started(cli, STRIKE, "a" * 32, "Olga")
    assert players_of(cli, game)[0] == "a" * 32


def test_names_that_differ_only_in_case_are_refused(cli: Cli) -> None:
    output = no_game_made(cli, STRIKE, "--player", "Zoë", "--player", "ZOË")
    assert "'Zoë' and 'ZOË' differ only in case" in output


def test_commas_separate_players_in_one_option(cli: Cli) -> None:
    """Documented: ``--player Olga,Patrick`` seats two players (a name never holds a comma)."""
    game = started(cli, STRIKE, "Olga,Patrick", "Mary Ann")
    assert players_of(cli, game) == ["Olga", "Patrick", "Mary Ann"]
    assert "for Olga, Patrick" in flat(cli.ok("new", STRIKE, "-p", "Olga,Patrick").output)


# -- `--id` and `-o` -----------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", ["My Game!", "RS-K7PQ", "rs--x", "rs-", "zoë-1", "a" * 41])
def test_a_chosen_id_follows_the_alphabet_of_drawn_ids(cli: Cli, game_id: str) -> None:
    output = no_game_made(cli, STRIKE, "-p", "Olga", "-p", "Patrick", "--id", game_id)
    assert "lowercase letters a-z and digits" in output and "like rs-k7pq" in output


def test_a_chosen_id_like_the_drawn_ones_is_used(cli: Cli) -> None:
    game = started(cli, STRIKE, "Olga", "Patrick", extra=("--id", "friday-2"))
    assert game == "friday-2" and Ledger(cli.root).game_ids() == ["friday-2"]


@pytest.mark.parametrize(("options", "why"), [
    (("reshuffle=yes", "reshuffle=no"), "option 'reshuffle' is given twice (yes, no)"),
    (("reshuffle=",), "option 'reshuffle' has no value"),
])
def test_an_option_given_twice_or_empty_is_refused(cli: Cli, options: tuple[str, ...],
                                                   why: str) -> None:
    args = [part for option in options for part in ("-o", option)]
    assert why in no_game_made(cli, STRIKE, "-p", "Olga", "-p", "Patrick", *args)


def test_an_empty_board_option_is_refused_not_the_default_board(cli: Cli) -> None:
    output = no_game_made(cli, "risk-deep-space", "-p", "Olga", "-p", "Patrick", "-o", "board=")
    assert "option 'board' has no value" in output and "leave the option out" in output


# -- names typed back: quoting -------------------------------------------------------------------


def test_actions_and_the_echo_show_names_as_they_are_typed(cli: Cli) -> None:
    game = started(cli, STRIKE, "Mary Ann", "O'Brien")
    assert 'deal player="Mary Ann"|"O\'Brien"' in flat(cli.ok("actions", game).output)
    recorded = cli.ok("record", game, "deal", "player=Mary Ann", "continents=asia,asia,europe")
    assert 'table: deal player="Mary Ann" continents=asia,asia,europe' in flat(recorded.output)


def test_a_quoted_name_at_the_prompt_and_on_the_fast_path(cli: Cli) -> None:
    """``by="Mary Ann"`` typed at the ``play`` prompt, and a shell's word ``player=Mary Ann``
    given to ``record`` (its fast path); ``O'Brien`` needs no quotes at the prompt."""
    game = started(cli, STRIKE, "Mary Ann", "O'Brien")
    lines = ('deal player="mary ann" continents=asia,asia,europe\n'
             "deal player=O'Brien continents=europe,europe,africa\n")
    env = {**os.environ, "TABLETAPE_LEDGER": str(cli.root), "NO_COLOR": "1", "COLUMNS": "200"}
    played = subprocess.run([sys.executable, "-c", MAIN, "play", game], input=lines, env=env,
                            cwd=ROOT, capture_output=True, text=True, timeout=60, check=False)
    assert "Traceback" not in played.stdout + played.stderr
    log = flat(cli.ok("log", game).output)
    assert 'deal player="Mary Ann"' in log and 'deal player="O\'Brien"' in log
    rolled = run_main("record", game, "roll-off", "dice=2,6", ledger=cli.root)
    assert rolled.returncode == 0, rolled.stderr
    dealt = run_main("record", game, "deal", "player=Mary Ann", "continents=africa",
                     ledger=cli.root)
    assert dealt.returncode == 0, dealt.stderr
    assert 'deal player="Mary Ann" continents=africa' in flat(dealt.stdout)


def test_an_unclosed_quote_is_input_not_understood(cli: Cli) -> None:
    game = started(cli, STRIKE, "Mary Ann", "Olga")
    env = {**os.environ, "TABLETAPE_LEDGER": str(cli.root), "NO_COLOR": "1", "COLUMNS": "200"}
    before = cli.log_bytes(game)
    played = subprocess.run([sys.executable, "-c", MAIN, "play", game],
                            input='deal player="Mary Ann continents=asia,asia,europe\n', env=env,
                            cwd=ROOT, capture_output=True, text=True, timeout=60, check=False)
    assert "quote is not closed" in flat(played.stdout + played.stderr)
    assert "Traceback" not in played.stdout + played.stderr
    assert cli.log_bytes(game) == before


# -- one way to read a typed player, in every field ----------------------------------------------

@pytest.mark.parametrize("field", ["player"])
def test_risk_strike_deal_reads_names_one_way(cli: Cli, field: str) -> None:
    game = started(cli, STRIKE, "Mary Ann", "Marge")
    output = fails(cli, 2, "record", game, "deal", f"{field}=mar", "continents=asia,asia,europe",
                   game=game)
    assert "'mar' begins more than one player's name" in output
    assert "Allowed: Mary Ann, Marge." in output
    cli.ok("record", game, "deal", f"{field}=MARY ANN", "continents=asia,asia,europe")
    cli.ok("record", game, "deal", f"{field}=marg", "continents=europe,europe,africa")


def test_risk_strike_turn_fields_read_names_one_way(cli: Cli) -> None:
    """``defender=``, ``target=`` and ``by=`` read a name as ``player=`` does: any case, a
    unique prefix, and an ambiguous one lists the candidates."""
    game = started(cli, STRIKE, "Mary Ann", "Marge")
    for line in ("deal player=mary continents=asia,asia,europe",
                 "deal player=marg continents=europe,europe,africa",
                 "roll-off dice=6,2", "deal player=marg continents=africa",
                 "draw continents=asia tactics=1"):
        cli.ok("record", game, *line.split())
    for typed in ("attack from=asia target=europe defender=ma",
                  "play card=spy target=ma", "pass by=ma"):
        output = fails(cli, 2, "record", game, *typed.split(), game=game)
        assert "'ma' begins more than one player's name" in output, typed
        assert "Mary Ann, Marge" in output
    recorded = cli.ok("record", game, "attack", "from=asia", "target=europe", "defender=MARGE",
                      "by=mary ann")
    assert "Mary Ann: attack from=asia target=europe defender=Marge" in flat(recorded.output)


def test_deep_space_and_marvel_united_deal_read_names_one_way(cli: Cli) -> None:
    space = started(cli, "risk-deep-space", "Mary Ann", "Marge")
    output = fails(cli, 2, "record", space, "deal", "player=mar",
                   "cards=tractor-beam,air-leak", game=space)
    assert "'mar' begins more than one player's name" in output
    cli.ok("record", space, "deal", "player=mary ann", "cards=tractor-beam,air-leak")
    marvel = started(cli, "marvel-united", "Mary Ann", "Marge")
    cli.ok("record", marvel, "setup", "locations=shield-hq,shield-helicarrier,times-square,"
           "avengers-mansion,central-park,police-hq", "start=central-park")
    output = fails(cli, 2, "record", marvel, "deal", "player=mar", "cards=aa,m,hh", game=marvel)
    assert "'mar' begins more than one player's name" in output
    assert "Mary Ann: " not in output
    cli.ok("record", marvel, "deal", "player=MARY ANN", "cards=aa,m,hh")


def test_transformers_by_reads_names_one_way(cli: Cli) -> None:
    game = started(cli, "risk-transformers", "Mary Ann", "Marge")
    output = fails(cli, 2, "record", game, "place", "zone=blue-1", "by=mar", game=game)
    assert "'mar' begins more than one player's name" in output
    recorded = cli.ok("record", game, "place", "zone=blue-1", "by=mary")
    assert "Mary Ann: place" in flat(recorded.output)


# -- a field with one legal value ----------------------------------------------------------------


def test_a_field_with_one_legal_value_may_be_left_out(cli: Cli) -> None:
    """The second ``deal`` names the one player still to be dealt; ``attack`` in a 2-player
    game, the one defender. The echo shows the value filled in (it is stored)."""
    game = started(cli, STRIKE, "Olga", "Patrick")
    output = fails(cli, 2, "record", game, "deal", "continents=asia,asia,europe", game=game)
    assert "deal needs player=" in output  # two players may still be dealt: no guess
    cli.ok("record", game, "deal", "player=olga", "continents=asia,asia,europe")
    dealt = cli.ok("record", game, "deal", "continents=europe,europe,africa")
    assert "deal player=Patrick continents=europe,europe,africa" in flat(dealt.output)
    for line in ("roll-off dice=6,2", "deal continents=africa", "draw continents=asia tactics=1"):
        cli.ok("record", game, *line.split())
    attack = cli.ok("record", game, "attack", "from=asia", "target=europe")
    assert "Olga: attack from=asia target=europe defender=Patrick" in flat(attack.output)
    status = cli.json("status", game)
    assert isinstance(status, dict) and "Patrick" in str(status)


def test_a_field_whose_legal_values_are_not_listed_stays_required(cli: Cli) -> None:
    """The test game's ``add n=`` lists no legal values: it is asked for, never guessed."""
    game = started(cli, "tiny", "Olga", "Patrick")
    output = fails(cli, 2, "record", game, "add", game=game)
    assert "add needs n=" in output


# -- old logs ------------------------------------------------------------------------------------


def test_a_log_with_a_name_the_rule_now_refuses_still_folds_and_records(cli: Cli) -> None:
    """A name recorded before the rule (an emoji, two spaces) still folds; it is typed back
    exactly, in quotes."""
    rules = find_game(STRIKE)
    started_event = GameStarted(kind=STRIKE, rules_version=rules.rules_version,
                                tabletape_version="0", players=("Ann  🙂", "Bob"),
                                options=rules.options({}, ("Ann", "Bob")), seed=1)
    game = Ledger(cli.root).create(started_event, game_id="rs-old")
    cli.ok("status", game)
    recorded = cli.ok("record", game, "deal", "player=Ann  🙂", "continents=asia,asia,europe")
    assert 'deal player="Ann  🙂"' in recorded.output
