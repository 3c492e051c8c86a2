"""Issue 15, output that explains: what `record` says happened, the finished game's refusal,
`status` at a glance, `log --last --json`, the pager, `list` in 80 columns, and grammar.

Games are set up through the library (the demos' typed lines, appended as `record` appends
them); what a person reads is checked through the command line, at 80 columns.
"""

from __future__ import annotations

import importlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

from tabletape.ledger import GameStarted, Ledger
from tabletape.replay.recording import open_game, record_action
from tabletape.replay.render import echo_text, tail
from tabletape.rules.registry import find_game

ROOT = Path(__file__).resolve().parents[2]
CODE = "from tabletape import main; main()"
TIMEOUT = 60


def flat(text: str) -> str:
    """Output with rich's line wrapping undone."""
    return " ".join(text.split())


def env_for(ledger: Path, **extra: str) -> dict[str, str]:
    settings = {name: value for name, value in os.environ.items() if name != "TABLETAPE_NO_PAGER"}
    return {**settings, "TABLETAPE_LEDGER": str(ledger), "COLUMNS": "80", "NO_COLOR": "1",
            "PYTHONIOENCODING": "utf-8", **extra}


def tabletape(ledger: Path, *args: str, **extra: str) -> subprocess.CompletedProcess[str]:
    """Run the whole command line (the fast `record` path included), output piped."""
    done = subprocess.run([sys.executable, "-c", CODE, *args], env=env_for(ledger, **extra),
                          capture_output=True, text=True, timeout=TIMEOUT, cwd=ROOT)
    assert "Traceback" not in done.stdout + done.stderr, done.stderr
    return done


def demo_game(ledger: Path, kind: str, game: str, upto: int | None = None) -> list[str]:
    """Start ``kind`` with its demo's players and record its demo's first ``upto`` lines;
    return the lines not recorded."""
    demo = importlib.import_module(f"tabletape.rules.{kind.replace('-', '_')}.demo")
    rules = find_game(kind)
    players = demo.DEMO_PLAYERS
    started = GameStarted(kind=rules.name, rules_version=rules.rules_version,
                          tabletape_version="test", players=players,
                          options=rules.options({}, players), seed=1)
    store = Ledger(ledger)
    store.create(started, game_id=game, prefix=rules.short)
    lines = demo.demo_actions()
    for line in lines[:upto]:
        record_action(store, game, line)
    return lines[len(lines[:upto]):]


# -- what record says happened -------------------------------------------------------------------


def test_record_says_the_result_of_a_resolve(tmp_path: Path) -> None:
    """Risk Strike's demo raid: the `resolve` line says who lost what, not only "resolve"."""
    rest = demo_game(tmp_path, "risk-strike", "rs-out", upto=14)
    assert rest[0] == "resolve"
    done = tabletape(tmp_path, "record", "rs-out", "resolve")
    assert done.returncode == 0, done.stderr
    told = flat(done.stdout)
    assert "16 Patrick: resolve" in told
    assert ("The roll is resolved: Patrick wins 0 pairs, Olga 1. Patrick surrenders an Africa "
            "card to the lineup.") in told
    assert "Risk Strike · rs-out · turn 2, round 1" in told  # the situation still follows


def test_record_says_who_goes_first_after_a_roll_off(tmp_path: Path) -> None:
    """Risk Strike Game Setup: "the player who rolls highest goes first"; a tie rolls again;
    Game Setup 6: "All players except the player going first draw an additional tactics card"."""
    demo_game(tmp_path, "risk-strike", "rs-roll", upto=2)
    tie = flat(tabletape(tmp_path, "record", "rs-roll", "roll-off", "dice=4,4").stdout)
    assert "Olga and Patrick tie for the highest and roll again" in tie
    first = flat(tabletape(tmp_path, "record", "rs-roll", "roll-off", "dice=6,2").stdout)
    assert ("Olga 6, Patrick 2. Olga plays first. Patrick draws an additional tactics card "
            "face down.") in first


def test_record_through_typer_and_the_prompt_share_the_echo(tmp_path: Path) -> None:
    """`record --expect-seq` goes through typer (not the fast path): the same consequences."""
    demo_game(tmp_path, "risk-strike", "rs-typer", upto=14)
    done = tabletape(tmp_path, "record", "rs-typer", "resolve", "--expect-seq", "15",
                     "--ledger", str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert "Patrick surrenders an Africa card to the lineup" in flat(done.stdout)


def test_the_last_line_of_a_game_says_who_won(tmp_path: Path) -> None:
    rest = demo_game(tmp_path, "risk-strike", "rs-end", upto=-1)
    done = tabletape(tmp_path, "record", "rs-end", *rest[0].split())
    told = flat(done.stdout)
    assert "Olga wins with the South America and Europe coins" in told
    assert "finished: Olga won" in told


def test_the_echo_shows_a_default_that_means_something() -> None:
    """`place zone=kalis` stores count=1 and says so; an unused `die=0` is not shown."""
    from tabletape.rules.risk_strike.events import Played
    from tabletape.rules.risk_transformers.events import Placed

    assert echo_text(Placed(zone="kalis")) == "place zone=kalis count=1"
    assert echo_text(Played(card="rally")) == "play card=rally"


def test_record_echoes_the_default_it_stored(tmp_path: Path) -> None:
    rest = demo_game(tmp_path, "risk-transformers", "rt-echo", upto=0)
    assert rest[0] == "place zone=kalis"
    done = tabletape(tmp_path, "record", "rt-echo", "place", "zone=kalis")
    assert "2 Olga: place zone=kalis count=1" in done.stdout
    assert "Olga places a robot on Kalis." in flat(done.stdout)


# -- a finished game -----------------------------------------------------------------------------


@pytest.mark.parametrize("action", [["pass"], ["draw", "by=Olga"], ["play", "card=rally",
                                                                    "by=Patrick"]])
def test_a_finished_game_says_it_is_over_and_who_won(tmp_path: Path, action: list[str]) -> None:
    demo_game(tmp_path, "risk-strike", "rs-over")
    log = Ledger(tmp_path).path("rs-over")
    before = log.read_bytes()
    done = tabletape(tmp_path, "record", "rs-over", *action)
    assert done.returncode == 1
    message = flat(done.stderr)
    assert "the game is over: Olga won (Olga holds two domination coins" in message
    assert "nobody may" not in message
    assert log.read_bytes() == before


# -- status at a glance --------------------------------------------------------------------------


def test_marvel_united_status_lists_hands_explains_codes_and_counts_hero_turns(
        tmp_path: Path) -> None:
    """Marvel United: the villain's opening turn, then "the heroes decide who will start": the
    first hero turn is turn 1, and a hand the table dealt is shown card by card, explained."""
    demo_game(tmp_path, "marvel-united", "mu-out", upto=6)  # Olga has drawn: her first turn
    status = json.loads(tabletape(tmp_path, "status", "mu-out", "--json").stdout)
    assert (status["turn"], status["round"], status["active"]) == (1, 1, ["Olga"])
    shown = flat(tabletape(tmp_path, "status", "mu-out", COLUMNS="120").stdout)
    assert "4: mh, ma, aa, h" in shown  # Olga's opening hand (ma, aa, h) and her draw (mh)
    assert "3: m, hh, w" in shown
    assert "Card codes: one letter per symbol" in shown and "m Move, a Attack" in shown
    assert "turn 1, round 1" in shown and "turn 2, round 1" not in shown


def test_the_view_is_titled_with_the_game_not_a_cryptic_turn(tmp_path: Path) -> None:
    demo_game(tmp_path, "risk-strike", "rs-title", upto=0)
    shown = tabletape(tmp_path, "status", "rs-title").stdout
    assert "turn 0, round 0" not in shown
    assert "setup · the table deals the starting cards" in flat(shown)


def test_status_fits_80_columns_without_cutting_words(tmp_path: Path) -> None:
    """Transformers' players table: factions and the scrapheap header are whole words."""
    demo_game(tmp_path, "risk-transformers", "rt-wide")
    shown = tabletape(tmp_path, "status", "rt-wide").stdout
    assert all(len(line) <= 80 for line in shown.splitlines())
    assert "…" not in shown
    assert "decepticon" in shown and "scrapheap" in shown


# -- log, pager, list, grammar -------------------------------------------------------------------


def test_log_last_applies_to_json(tmp_path: Path) -> None:
    demo_game(tmp_path, "risk-strike", "rs-log", upto=6)
    rows = json.loads(tabletape(tmp_path, "log", "rs-log", "--last", "2", "--json").stdout)
    assert [row["seq"] for row in rows] == [6, 7]
    assert json.loads(tabletape(tmp_path, "log", "rs-log", "--last", "0", "--json").stdout) == []
    everything = json.loads(tabletape(tmp_path, "log", "rs-log", "--json").stdout)
    assert [row["seq"] for row in everything] == list(range(1, 8))


def test_tail() -> None:
    assert tail(range(5), 2) == [3, 4]
    assert tail(range(5), 9) == [0, 1, 2, 3, 4]


def paged_output(ledger: Path, *args: str, **extra: str) -> str:
    """What a terminal shows for a command, with a pager that marks every line it gets."""
    settings = env_for(ledger, PAGER="sed s/^/PAGED:/", TERM="xterm", **extra)
    child = pexpect.spawn(sys.executable, ["-c", CODE, *args], env=settings, cwd=str(ROOT),
                          encoding="utf-8", timeout=TIMEOUT, dimensions=(24, 80))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    return str(child.before)


@pytest.mark.pty
@pytest.mark.parametrize("command", [["log", "rs-page"], ["replay", "rs-page", "--narrate"]])
def test_long_output_goes_through_the_pager_on_a_terminal_only(
        tmp_path: Path, command: list[str]) -> None:
    demo_game(tmp_path, "risk-strike", "rs-page", upto=8)
    assert "PAGED:" in paged_output(tmp_path, *command)
    assert "PAGED:" not in paged_output(tmp_path, *command, "--no-pager")
    assert "PAGED:" not in paged_output(tmp_path, *command, TABLETAPE_NO_PAGER="1")
    piped = tabletape(tmp_path, *command, PAGER="sed s/^/PAGED:/")
    assert piped.returncode == 0 and "PAGED:" not in piped.stdout and "Olga" in piped.stdout


def test_list_fits_80_columns_with_ids_and_kinds_whole(tmp_path: Path) -> None:
    for kind, game in (("risk-transformers", "rt-list"), ("marvel-united", "mu-list"),
                       ("risk-deep-space", "ds-list")):
        demo_game(tmp_path, kind, game, upto=1)
    tabletape(tmp_path, "fork", "rt-list", "--at", "seq=2", "--id", "rt-fork")
    shown = tabletape(tmp_path, "list").stdout
    assert all(len(line) <= 80 for line in shown.splitlines()), shown
    assert "…" not in shown
    for word in ("rt-list", "risk-transformers", "marvel-united", "risk-deep-space",
                 "from rt-list", "at seq 2"):
        assert word in shown
    assert re.search(r"\d{4}-\d\d-\d\d", shown)


def test_an_empty_ledger_lists_no_games_in_a_sentence(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    shown = flat(tabletape(tmp_path / "empty", "list").stdout)
    assert shown.startswith("No games in") and "tabletape demo" in shown


def test_one_movement_left_is_singular(tmp_path: Path) -> None:
    """Deep Space: "Each turn you may make two movements"; after one, 1 movement is left."""
    demo_game(tmp_path, "risk-deep-space", "ds-one", upto=9)  # Olga has moved once
    folded = open_game(Ledger(tmp_path), "ds-one")
    detail = folded.rules.turn(folded.state).detail
    assert "(1 movement left)" in detail
    shown = flat(tabletape(tmp_path, "status", "ds-one").stdout)
    assert "1 movements" not in shown and "1 movement left" in shown


def test_one_bot_game_is_singular(tmp_path: Path) -> None:
    done = tabletape(tmp_path, "simulate", "risk-strike", "-n", "1")
    assert done.returncode == 0, done.stderr
    assert "Recorded 1 bot game into" in flat(done.stdout)
