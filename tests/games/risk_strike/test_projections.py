"""Risk Strike in the catalog: its dice and battles rows against the rules' own resolution."""

from __future__ import annotations

import pytest

from tabletape.ledger import Ledger
from tabletape.queries.catalog import connect
from tabletape.queries.reports import run_reports
from tabletape.replay.visitor import Visit, Visitor, walk
from tabletape.rules import dice
from tabletape.rules.risk_strike.events import Rolled
from tests.queries.conftest import bot_games


@pytest.fixture(scope="module")
def strike(tmp_path_factory: pytest.TempPathFactory) -> Ledger:
    ledger = Ledger(tmp_path_factory.mktemp("strike") / "ledger")
    bot_games(ledger, "risk-strike", 24, seed=5, players=("olga", "patrick", "ann"))
    bot_games(ledger, "risk-strike", 16, seed=6, players=("olga", "patrick"), prefix="rs2")
    return ledger


class Resolutions(Visitor):
    """Every resolved roll that leaves the battle going, as the rules record it (battle.last)."""

    def __init__(self) -> None:
        self.found: dict[int, tuple[int, int]] = {}
        self.roll_seqs: list[int] = []

    def visit_event(self, visit: Visit) -> None:
        if not visit.effective:
            return
        if isinstance(visit.event, Rolled):
            self.roll_seqs.append(visit.record.seq)
        before, after = visit.before.battle, visit.after.battle
        if after is not None and after.last is not None and (
                before is None or before.last is not after.last):
            self.found[self.roll_seqs[-1 if before is None or before.roll is None else -2]
                       if isinstance(visit.event, Rolled) else self.roll_seqs[-1]] = (
                dice.losses(after.last.winners))


def test_battles_match_the_rules_resolution(strike: Ledger) -> None:
    checked = 0
    with connect(strike) as con:
        for game in strike.game_ids():
            seen = Resolutions()
            walk(game, strike.records(game), seen)
            rows = {seq: (a, d) for seq, a, d in con.execute(
                "SELECT seq, attacker_losses, defender_losses FROM battles WHERE game = ?",
                [game]).fetchall()}
            assert set(rows) <= set(seen.roll_seqs)
            assert len(rows) >= len(seen.roll_seqs) - 1  # the last roll may still be open
            for seq, losses in seen.found.items():
                assert rows[seq] == losses, (game, seq)
                checked += 1
    assert checked > 100


def test_dice_rows_cover_every_battle_die(strike: Ledger) -> None:
    with connect(strike) as con:
        battle_dice = con.execute(
            "SELECT sum(attacker_dice), sum(defender_dice) FROM battles").fetchone()
        die_rows = con.execute(
            "SELECT count(*) FILTER (role = 'attacker'), count(*) FILTER (role = 'defender') "
            "FROM dice d WHERE EXISTS (SELECT 1 FROM battles b WHERE b.game = d.game "
            "AND b.seq = d.seq)").fetchone()
        roll_offs = con.execute("SELECT count(*) FROM dice WHERE role = 'roll-off'").fetchone()
    assert die_rows == battle_dice
    assert roll_offs[0] >= len(strike.game_ids()) * 2


def test_unmodified_battles_match_the_exact_odds(strike: Ledger) -> None:
    with connect(strike) as con:
        (battles,) = run_reports(con, ["battles"])
    rows = battles.records()
    assert sum(r["observed"] for r in rows) > 300
    for row in rows:
        if row["battles"] >= 30:
            assert abs(row["z"]) <= 6.5 and row["p_value"] >= 1e-9, row
