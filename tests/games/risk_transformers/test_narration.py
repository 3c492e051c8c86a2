"""Narration of Risk: Transformers: the demo around the rulebook's Battle Example (a golden file),
and each event told in table words."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from rich.console import Console

from tabletape.ledger import Ledger
from tabletape.replay.demo import run_demo
from tabletape.replay.narrate import FAILED_MARK, NarratedEvent, narrate_game, narration_view
from tabletape.replay.simulate import simulate
from tests.replay.test_golden import check, rendered

GOLDEN = Path(__file__).parent / "golden"


@pytest.fixture
def demo(store: Ledger) -> str:
    return run_demo(store, Console(file=StringIO()), kind="transformers")


@pytest.fixture
def told(store: Ledger, demo: str) -> list[NarratedEvent]:
    return narrate_game(demo, store.records(demo))


def test_demo_narration_is_the_golden_file(told: list[NarratedEvent]) -> None:
    """The whole demo, as ``replay --narrate`` prints it (the game id left out: it is random)."""
    assert not any(FAILED_MARK in " ".join(line.sentences) for line in told)
    body = [line for line in told if line.seq > 1]
    check("risk-transformers-demo-narration",
          rendered(narration_view("Risk: Transformers demo", body)), GOLDEN)


def test_the_first_line_says_the_board_is_a_reconstruction(told: list[NarratedEvent]) -> None:
    """issue 14: the default board is "marked as a reconstruction everywhere a user sees it",
    narration included, with how to supply one."""
    first = " ".join(told[0].sentences)
    assert "[I]: a reconstruction, not the printed board" in first
    assert "--option board=FILE" in first


def test_the_battle_example_is_told_in_table_words(told: list[NarratedEvent]) -> None:
    """Battle Example: "Black attacks with 3 robots. Red defends with 2 robots – one normal
    robot and the leader (OPTIMUS PRIME)"; "Red uses OPTIMUS PRIME'S +1 defense bonus to
    increase his roll from 3 to 4"; "Black has captured the Launch Pad and now moves all 3
    attacking robots into the captured zone"."""
    text = " ".join(" ".join(line.sentences) for line in told)
    for words in (
        "Patrick attacks Launch Pad from Hexima State with 3 robots.",
        "Olga defends Launch Pad with 1 robot and Optimus Prime.",
        "Patrick rolls 6, 4 and 1; Olga rolls 4 and 3 on the d8.",
        "Optimus Prime's +1, best placed, makes the 3 a 4; 6 against 4: Patrick; 4 against 4: "
        "Olga.",
        "Olga puts Optimus Prime's +1 on the 3: it counts 4.",
        "Patrick exchanges 3 robots for a vehicle on Hexima State (with the scrapheap).",
        "Olga puts 1 robot on the scrapheap.",
        "Patrick chooses the casualties: a vehicle. Patrick exchanges a vehicle for 3 robots and "
        "puts one of them on the scrapheap.",
        "Patrick may continue the attack (continue) or stop.",
        "Optimus Prime goes to the scrapheap. Patrick captures Launch Pad: 3 robots move in.",
        "Patrick moves 1 robot more into Launch Pad.",
        "Patrick draws a card face down for capturing a zone.",
        "Olga calls for back-up: Optimus Prime from Autobase to Launch Pad.",
        "Patrick morphs Megatron into vehicle form.",
        "Olga pays 3 operational robots to bring Optimus Prime back on Kalis, in robot form.",
        "Olga receives 7 robots: 7 for 21 zones.",
        "Every zone holds a robot: the robots left are placed one at a time",
        "Day 1 of 6 begins. Turn 1: Olga to play.",
        "Day 1 is over: Patrick turns the AllSpark card (allspark).",
        "Patrick turns the top card of the draw pile face up for the AllSpark: Fusion Cannons. "
        "The AllSpark brings new life to Perihex: Olga adds 3 robots. Day 2 of 6 begins.",
    ):
        assert words in text, words


def test_every_event_is_told_in_words_not_syntax(told: list[NarratedEvent]) -> None:
    for line in told[1:]:
        assert line.sentences and not line.sentences[0].startswith(f"{line.actor}: "), line


@pytest.mark.parametrize("players", [2, 3, 4])
def test_bot_games_narrate_in_words(tmp_path_factory: pytest.TempPathFactory,
                                    players: int) -> None:
    """Seeded bot games (3 per player count, to the end): every event is told in table words,
    never the action syntax and never a narrator failure, and each game tells its end once, on
    its last event."""
    store = Ledger(tmp_path_factory.mktemp(f"rt{players}") / "ledger")
    for game in simulate(store, "risk-transformers", games=3, seed=70 + players,
                         players=players):
        lines = narrate_game(game, store.records(game))
        for line in lines[1:]:
            assert line.sentences and all(line.sentences), (game, line)
            assert not any(FAILED_MARK in sentence for sentence in line.sentences), (game, line)
            if line.effective:
                assert not line.sentences[0].startswith(f"{line.actor}: "), (game, line)
        ends = [line for line in lines if any(s.startswith("The game ends:")
                                              for s in line.sentences)]
        last = [line for line in lines if line.effective][-1]  # the reveal follows it
        assert len(ends) == 1 and ends[0].seq == last.seq, game
