"""Risk: Deep Space in the catalog: its ``dice``, ``battles`` and ``standings`` rows against the
fold of the very games they come from (seeded bot games, the demo, and a game with an undo)."""

from __future__ import annotations

from collections import defaultdict
from io import StringIO
from typing import Any

import pytest
from rich.console import Console

from tabletape.ledger import Ledger
from tabletape.queries.catalog import connect
from tabletape.replay.demo import run_demo
from tabletape.replay.recording import record_action
from tabletape.replay.simulate import simulate
from tabletape.replay.undo import undo
from tabletape.replay.visitor import GameInfo, Visit, Visitor, walk
from tabletape.rules.risk_deep_space import RULES
from tabletape.rules.risk_deep_space.demo import DEMO_PLAYERS, demo_actions
from tabletape.rules.risk_deep_space.events import Battled, RolledOff
from tabletape.rules.risk_deep_space.state import State, on_board
from tests.queries.conftest import start_game

FIGURES = ("bases", "recruits", "gems", "ore")
UNDONE = "ds-undone"


def record_with_an_undo(ledger: Ledger) -> str:
    """The demo game, with its first battle exchange recorded wrong, undone and recorded again."""
    start_game(ledger, "risk-deep-space", DEMO_PLAYERS, seed=11, game_id=UNDONE)
    for line in demo_actions():
        if line == "battle attacker=5 defender=5":
            record_action(ledger, UNDONE, "battle attacker=1 defender=6")
            undo(ledger, UNDONE)
        record_action(ledger, UNDONE, line)
    return UNDONE


@pytest.fixture(scope="module")
def deep_space(tmp_path_factory: pytest.TempPathFactory) -> Ledger:
    ledger = Ledger(tmp_path_factory.mktemp("deep-space") / "ledger")
    simulate(ledger, "risk-deep-space", games=10, seed=3)
    simulate(ledger, "risk-deep-space", games=6, seed=4, players=3)
    simulate(ledger, "risk-deep-space", games=4, seed=5, players=4)
    run_demo(ledger, Console(file=StringIO()), kind="risk-deep-space")
    record_with_an_undo(ledger)
    return ledger


class Fold(Visitor):
    """What the fold says of every exchange, roll-off and turn, independently of the projections:
    losses from the Recruits and Space Dogs each side has before and after the exchange."""

    def begin_game(self, info: GameInfo) -> None:
        self.battles: dict[int, tuple[Any, ...]] = {}
        self.dice: dict[tuple[int, str, int], tuple[str, int, int]] = {}
        self.ends: dict[int, State] = {}
        self.retracted_dice = 0

    def visit_event(self, visit: Visit) -> None:
        event, before, after, seq = visit.event, visit.before, visit.after, visit.record.seq
        if not visit.effective:
            self.retracted_dice += 2 * (isinstance(event, Battled) and visit.record.seq != 1)
            return
        self.ends[visit.turn.turn] = after
        if isinstance(event, RolledOff):
            for die, (seat, face) in enumerate(zip(before.contenders, event.dice, strict=True), 1):
                self.dice[seq, "roll-off", die] = (before.name(seat), face, face)
        if not isinstance(event, Battled):
            return
        fight = before.battle
        assert fight is not None
        a, d = fight.attacker, fight.defender
        dog_a = sum(dog.owner == a and dog.space == fight.target for dog in before.dogs)
        dog_d = sum(dog.owner == d and dog.space == fight.target for dog in before.dogs)
        lost_a = on_board(before, a) - on_board(after, a) + dog_a - sum(
            dog.owner == a and dog.space == fight.target for dog in after.dogs)
        lost_d = on_board(before, d) - on_board(after, d) + dog_d - sum(
            dog.owner == d and dog.space == fight.target for dog in after.dogs)
        assert sorted((lost_a, lost_d)) == [0, 1], (seq, lost_a, lost_d)
        self.battles[seq] = (before.name(a), before.name(d), before.space(fight.source),
                             before.space(fight.target), [event.attacker], [event.defender],
                             bool(dog_a or dog_d), lost_a, lost_d)
        self.dice[seq, "attacker", 1] = (before.name(a), event.attacker,
                                         event.attacker + min(dog_a, 1))
        self.dice[seq, "defender", 1] = (before.name(d), event.defender,
                                         event.defender + min(dog_d, 1))

    def result(self) -> Fold:
        return self


def folds(ledger: Ledger) -> dict[str, Fold]:
    return {game: walk(game, ledger.records(game), Fold())[0] for game in ledger.game_ids()}


def test_battles_rows_match_the_fold(deep_space: Ledger) -> None:
    """Battle: "each roll one die ... For every loss, you must remove one of your Recruits"
    (or the Space Dog, "On your first defeat"): one ``battles`` row per exchange, its faces, its
    Space Dog modifier and its loser as the fold has them."""
    modified = 0
    with connect(deep_space, include_simulated=True) as con:
        for game, fold in folds(deep_space).items():
            rows = {row[0]: row[1:] for row in con.execute(
                "SELECT seq, attacker, defender, source, target, attacker_faces, defender_faces, "
                "modified, attacker_losses, defender_losses FROM battles WHERE game = ?",
                [game]).fetchall()}
            assert rows == fold.battles, game
            assert con.execute("SELECT count(*) FROM battles WHERE game = ? AND (attacker_dice, "
                               "defender_dice, attacker_sides, defender_sides) <> (1, 1, 6, 6)",
                               [game]).fetchone() == (0,)
            modified += sum(row[6] for row in rows.values())
        total = con.execute("SELECT count(*) FROM battles").fetchone()[0]
    assert total > 50 and modified > 5


def test_dice_rows_match_the_fold(deep_space: Ledger) -> None:
    """Battle: "The higher roller wins the dispute. If there's a tie, victory goes to the
    defending Crew", with Space Dog's "+1 to your dice rolls": two ``dice`` rows per exchange
    whose values decide the loser, the roll-off dice too, and no die of an undone exchange."""
    with connect(deep_space, include_simulated=True) as con:
        for game, fold in folds(deep_space).items():
            rows = {(seq, role, die): (player, face, value)
                    for seq, role, die, player, face, value in con.execute(
                        "SELECT seq, role, die, player, face, value FROM dice WHERE game = ? "
                        "AND sides = 6", [game]).fetchall()}
            assert rows == fold.dice, game
            assert con.execute("SELECT count(*) FROM dice WHERE game = ?",
                               [game]).fetchone() == (len(rows),)
            for seq, (*_, lost_a, lost_d) in fold.battles.items():
                attack, defend = rows[seq, "attacker", 1][2], rows[seq, "defender", 1][2]
                assert (lost_d, lost_a) == ((1, 0) if attack > defend else (0, 1)), (game, seq)
        undone = folds(deep_space)[UNDONE]
        assert undone.retracted_dice == 2
        assert con.execute("SELECT count(*) FROM dice WHERE game = ? AND role <> 'roll-off'",
                           [UNDONE]).fetchone() == (2 * len(undone.battles),)


def test_standings_hold_bases_recruits_gems_and_ore_per_player_per_turn(
        deep_space: Ledger) -> None:
    """``standings``: every player's bases, recruits, gems and ore at the end of every turn,
    as the fold has them then."""
    checked = 0
    with connect(deep_space, include_simulated=True) as con:
        for game, fold in folds(deep_space).items():
            found: dict[tuple[int, str], dict[str, float]] = defaultdict(dict)
            for turn, player, figure, value in con.execute(
                    "SELECT turn, player, figure, value FROM standings WHERE game = ? AND figure "
                    "IN ('bases', 'recruits', 'gems', 'ore')", [game]).fetchall():
                found[turn, player][figure] = value
            players = deep_space.started(game).players
            turns = {turn for (turn,) in con.execute(
                "SELECT turn FROM turns WHERE game = ?", [game]).fetchall()}
            assert turns == set(fold.ends) and {t for t, _ in found} == turns, game
            for turn, state in fold.ends.items():
                for figures in RULES.figures(state):
                    assert figures["name"] in players
                    expected = {name: float(figures[name]) for name in FIGURES}
                    assert found[turn, figures["name"]] == expected, (game, turn)
                    checked += 1
    assert checked > 500
