"""Issue 18, second round: what the audit's fair-play section, ``log``, ``actions`` and the dice
refusals show (README "Fair play: dice no one can foresee").

The testers' game: Risk Strike, Olga and Patrick, dealt, ``roll-off dice=6,2``, Olga attacks
Patrick's Europe from Asia, both deploy nothing, then the battle's roll.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tabletape.ledger import Ledger
from tests.support.cli import run, said

BATTLE = ("deal player=olga continents=asia,asia,europe", "deal continents=europe,europe,africa",
          "roll-off dice=6,2", "deal continents=africa", "draw continents=asia tactics=1",
          "attack from=asia target=europe defender=patrick", "deploy troops=0",
          "deploy troops=0")
"""From a new game to Olga's battle roll (seq 10 is the roll)."""


class Table:
    """``tabletape`` on one ledger, as the testers typed it."""

    BATTLE_LINES = BATTLE
    """What :meth:`battle` records."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def __call__(self, *args: str, code: int | None = 0) -> str:
        """The output (``code``: the exit status expected, None: any)."""
        status, output = run(*args, "--ledger", str(self.root), env={"COLUMNS": "200"})
        assert code is None or status == code, output
        return output

    def json(self, *args: str, code: int | None = 0) -> dict:  # type: ignore[type-arg]
        found = json.loads(self(*args, "--json", code=code))
        assert isinstance(found, dict | list)
        return found  # type: ignore[return-value]

    def new(self, kind: str = "risk-strike", game: str = "g", *options: str) -> str:
        self("new", kind, "--player", "Olga", "--player", "Patrick", "--id", game, *options)
        return game

    def record(self, game: str, line: str, code: int = 0) -> str:
        return self("record", game, *line.split(), code=code)

    def battle(self) -> str:
        """A game at Olga's battle roll."""
        game = self.new()
        for line in self.BATTLE_LINES:
            self.record(game, line)
        return game

    def fair(self, game: str, *options: str) -> dict:  # type: ignore[type-arg]
        report = self.json("audit", game, *options)
        assert isinstance(report, dict)
        return report["fair_play"]  # type: ignore[no-any-return]


@pytest.fixture
def table(tmp_path: Path) -> Table:
    return Table(tmp_path / "ledger")


# -- 1. a roll undone together with its battle ---------------------------------------------------


def test_a_typed_roll_undone_with_its_battle_is_still_a_retracted_roll(table: Table) -> None:
    """README: "`audit` lists every retracted roll: who rolled, what was retracted, who undid
    it" — also when the undos go on past the roll to the attack that started its battle (the
    fold's state then has no battle: the roll is judged in the state it was recorded in)."""
    game = table.battle()
    table.record(game, "roll attacker=1,1,1 defender=6,6")
    for _ in range(4):  # the roll, both deploys, the attack
        table("undo", game, "by=Olga")
    fair = table.fair(game, "--undone-rolls", "0")
    assert fair["entered"] == 2  # the roll-off and the undone roll
    assert [(r["seq"], r["actor"], r["provenance"], r["undone_at"], r["by"])
            for r in fair["retracted_rolls"]] == [(10, "Olga", "entered", 11, "Olga")]
    assert fair["flagged"] == [{"player": "Olga", "undone": 1, "limit": 0}]
    shown = said(table("audit", game, "--undone-rolls", "0"))
    assert "retracted rolls: 1" in shown and "Olga: 1 roll undone (more than 0)" in shown


@pytest.mark.slow
def test_a_fork_lists_the_rolls_its_parent_undid(table: Table) -> None:
    """A fork repeats its parent's undos: its fair-play list has the parent's undone roll."""
    game = table.battle()
    table.record(game, "roll attacker=1,1,1 defender=6,6")
    for _ in range(4):
        table("undo", game, "by=Olga")
    table("fork", game, "--at", "end", "--id", "what-if")
    assert [r["seq"] for r in table.fair("what-if")["retracted_rolls"]] == [10]


# -- 2. each roll marked in the audit people read --------------------------------------------------


def test_the_human_audit_marks_each_roll_and_says_why_one_is_not_checked(table: Table) -> None:
    """README: "`audit` marks each roll `derived` … or `entered`", with its check, and says why
    a derived roll is awaiting the reveal."""
    game = table.battle()
    table.record(game, "roll")  # tabletape's dice
    shown = said(table("audit", game))
    assert "2 rolls: 1 derived by tabletape (1 awaiting reveal), 1 entered at the table" in shown
    roll_off = re.search(r"4 table roll-off dice=6,2 entered", shown)
    roll = re.search(r"10 Olga roll attacker=\S+ defender=\S+ derived attacker, defender "
                     r"awaiting reveal", shown)
    assert roll_off and roll, shown
    assert "the dice secret is not revealed yet: derived rolls are checked once it is" in shown
    table("reveal", game)
    assert re.search(r"derived attacker, defender re-derived", said(table("audit", game)))


@pytest.mark.slow
def test_a_long_run_of_alike_rolls_is_one_line(table: Table) -> None:
    """A 100-roll game stays readable: neighbouring rolls with the same mark and check share one
    line, their seqs from–to and their count; ``--json`` still lists each."""
    game = table.new("tiny", "g", "--option", "target=1000")
    for face in range(30):
        table.record(game, f"roll dice={face % 6 + 1}")  # fair dice: the audit is clean
    shown = said(table("audit", game))
    assert "2–31 Olga, Patrick 30 rolls: roll entered" in shown
    assert len(table.fair(game)["rolls"]) == 30


# -- 3. the undone-rolls flag ---------------------------------------------------------------------


def test_the_table_is_not_flagged_and_flags_are_structured(table: Table) -> None:
    """The table is no player: its undone roll-offs are listed, not flagged."""
    game = table.new()
    for line in BATTLE[:2]:
        table.record(game, line)
    for _ in range(2):
        table.record(game, "roll-off dice=6,2")
        table("undo", game)
    fair = table.fair(game, "--undone-rolls", "0")
    assert [r["actor"] for r in fair["retracted_rolls"]] == ["table", "table"]
    assert fair["flagged"] == [] and fair["typed_over"] == []
    assert "⚠" not in table("audit", game, "--undone-rolls", "0")


def test_tabletape_dice_undone_and_replaced_by_typed_ones_are_named(table: Table) -> None:
    """The obvious cheat: tabletape rolls, the roll is undone, typed dice go in instead."""
    game = table.battle()
    table.record(game, "roll")
    table("undo", game, "by=Olga")
    table.record(game, "roll attacker=6,6,6 defender=1,1")
    report = table.json("audit", game)
    assert isinstance(report, dict)
    assert report["fair_play"]["typed_over"] == [{
        "seq": 10, "actor": "Olga", "undone_at": 11, "by": "Olga", "typed_seq": 12,
        "typed_actor": "Olga", "typed_action": "roll attacker=6,6,6 defender=1,1",
        "typed": ["attacker", "defender"]}]
    assert report["ok"] and len(report["warnings"]) == 1  # a warning, not a failure
    shown = said(table("audit", game))
    assert ("Olga's roll at seq 10 (tabletape's dice) was undone by Olga at seq 11, then Olga "
            "typed other dice at seq 12") in shown
    assert "12 Olga typed: roll attacker=6,6,6 defender=1,1" in shown
    assert "clean · 1 fair-play warning" in shown  # the footer a table skims says it too


def test_the_same_dice_rolled_again_is_no_typed_over(table: Table) -> None:
    game = table.battle()
    table.record(game, "roll")
    table("undo", game, "by=Olga")
    table.record(game, "roll")
    fair = table.fair(game)
    assert fair["typed_over"] == [] and fair["retracted_rolls"][0]["then_seq"] == 12


# -- 4. log --json ---------------------------------------------------------------------------------


def test_log_json_gives_the_drawn_mark(table: Table) -> None:
    """README "JSON output": `log --json` rows hold `drawn`, tabletape's mark, else null."""
    game = table.battle()
    table.record(game, "roll")
    rows = table.json("log", game)
    assert isinstance(rows, list)
    assert rows[9]["drawn"] == {"roll": 0, "filled": ["attacker", "defender"]}
    assert all(row["drawn"] is None for row in rows[:9])


# -- 5. actions when tabletape may not roll --------------------------------------------------------


def test_actions_shows_the_dice_required_after_the_reveal(table: Table) -> None:
    """README: "leaving them out is then refused": `actions` says they are required."""
    game = table.battle()
    assert "roll [attacker=list[int]] [defender=list[int]]" in table("actions", game)
    table("reveal", game)
    shown = said(table("actions", game))
    assert "roll attacker=list[int] defender=list[int]" in shown
    assert "Dice are required: the dice secret of game g was revealed" in shown
    specs = table.json("actions", game)
    assert isinstance(specs, list)
    roll = next(spec for spec in specs if spec["type"] == "roll")
    assert all(field["required"] and "revealed" in field["doc"] for field in roll["fields"])
    play = next(spec for spec in specs if spec["type"] == "play")
    assert not any(field["required"] for field in play["fields"][1:])  # no dice of tabletape's


def test_actions_shows_the_dice_required_without_the_secret(table: Table) -> None:
    game = table.battle()
    Ledger(table.root).secret_path(Ledger(table.root).started(game).uid).unlink()
    assert "roll attacker=list[int] defender=list[int]" in table("actions", game)


# -- 6. messages -----------------------------------------------------------------------------------


def test_deep_space_is_not_told_to_type_risk_strike_dice(table: Table) -> None:
    game = table.new("risk-deep-space")
    table("reveal", game)
    refused = said(table.record(game, "roll-off", code=1))
    assert "attacker=" not in refused and f"`tabletape actions {game}`" in refused
    assert "roll-off dice=list[int]" in table("actions", game)


def test_a_damaged_secret_file_is_called_damaged(table: Table) -> None:
    game = table.new()
    Ledger(table.root).secret_path(Ledger(table.root).started(game).uid).write_text("zz\n")
    for line in BATTLE[:2]:
        table.record(game, line)
    refused = said(table.record(game, "roll-off", code=1))
    assert "is damaged" in refused and "not in this ledger" not in refused


def test_a_file_where_the_private_folder_belongs_is_named(table: Table) -> None:
    table.new()
    private = table.root / "private"
    for path in sorted(private.rglob("*"), reverse=True):
        path.unlink() if path.is_file() else path.rmdir()
    private.rmdir()
    private.touch()
    refused = said(table("new", "risk-strike", "--player", "a,b", code=1))
    assert f"{private} must be a folder" in refused and "--ledger must" not in refused


# -- 7. simulated games ----------------------------------------------------------------------------


def test_a_simulated_game_says_its_bots_entered_the_dice(table: Table) -> None:
    simulated = table.json("simulate", "risk-strike", "--games", "1", "--seed", "3")
    assert isinstance(simulated, dict)
    game = simulated["games"][0]
    shown = said(table("audit", game))
    assert "entered by the bots" in shown and "at the table" not in shown
    report = table.json("audit", game)
    assert isinstance(report, dict) and report["simulated"] is True
