"""Narration of Risk: Deep Space games: the demo (a golden file) and games its bot plays."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from rich.console import Console

from tabletape.ledger import Ledger
from tabletape.replay.demo import run_demo
from tabletape.replay.narrate import FAILED_MARK, narrate_game, narration_view
from tabletape.replay.simulate import simulate
from tests.replay.test_golden import check, rendered

GOLDEN = Path(__file__).parent / "golden"


@pytest.fixture
def demo(store: Ledger) -> str:
    return run_demo(store, Console(file=StringIO()), kind="risk-deep-space")


def test_demo_narration(store: Ledger, demo: str) -> None:
    lines = narrate_game(demo, store.records(demo))
    told = [" ".join(line.sentences) for line in lines]
    assert "Battle on Inner South: Olga's 4 against Patrick's 5." in " ".join(told)
    assert any("Passing through the centre costs a Gem." in text for text in told)
    assert any("A Space Dog absorbs the defeat" in text for text in told)
    assert any(text.startswith("Patrick plays Air Leak.") for text in told)
    assert any(text.startswith("Olga plays Mail from Mom and takes Energy Boost.") for text in told)
    assert not any(FAILED_MARK in text for text in told)
    body = [line for line in lines if line.seq > 1]  # the game id is random
    check("risk-deep-space-demo-narration",
          rendered(narration_view("Risk: Deep Space demo", body)), GOLDEN)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_bot_games_narrate_in_words(tmp_path_factory: pytest.TempPathFactory,
                                    players: int) -> None:
    """30 seeded bot games (10 per player count): every event is told in table words, never the
    action syntax and never a narrator failure, and each game tells its winner once."""
    store = Ledger(tmp_path_factory.mktemp(f"ds{players}") / "ledger")
    for game in simulate(store, "risk-deep-space", games=10, seed=40 + players, players=players):
        lines = narrate_game(game, store.records(game))
        for line in lines:
            assert line.sentences and all(line.sentences), (game, line)
            assert not any(FAILED_MARK in sentence for sentence in line.sentences), (game, line)
            if line.effective and line.seq > 1:
                assert not line.sentences[0].startswith(f"{line.actor}: "), (game, line)
        wins = [line for line in lines if any("Bases and wins!" in s for s in line.sentences)]
        last = [line for line in lines if line.effective][-1]  # the reveal follows it
        assert len(wins) == 1 and wins[0].seq == last.seq, game


def test_a_deal_is_told_to_the_player_the_rules_dealt_to() -> None:
    """``deal player=yellow`` deals to the player of that colour: the narration names them."""
    from tabletape.replay.games.risk_deep_space import recorded
    from tabletape.rules.risk_deep_space.events import Dealt
    from tests.games.risk_deep_space.helpers import start

    state = start(("Olga", "Red"))
    told = recorded(state, "table", Dealt(player="yellow", cards=("air-leak", "air-leak")))
    assert told == "The table deals Red Air Leak and Air Leak, face up."
    told = recorded(state, "table", Dealt(player="red", cards=("air-leak", "air-leak")))
    assert told.startswith("The table deals Red ")


def test_recruiting_without_gems_through_the_cli_names_the_gems_rule(store: Ledger) -> None:
    """Recruit: "You may pay one Gem to gain a single Recruit." ``record GAME recruit`` without
    ``by=`` when the player whose turn it is has no Gem says so, not "nobody may recruit"."""
    from tests.replay.conftest import run

    code, _ = run(store, "new", "risk-deep-space", "-p", "Olga,Patrick", "--id", "ds-gems")
    assert code == 0
    for line in ("deal player=olga cards=air-leak,energy-boost",
                 "deal player=patrick cards=air-leak,energy-boost",
                 "cover planets=nw-corner,se-corner", "roll-off dice=6,1", "recruit count=2"):
        code, output = run(store, "record", "ds-gems", *line.split())
        assert code == 0, output
    code, output = run(store, "record", "ds-gems", "recruit", "count=1")
    assert code != 0 and "each Recruit costs a Gem; Olga has 0" in output
