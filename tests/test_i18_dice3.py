"""Issue 18, third look at the dice (README "Fair play: dice no one can foresee"): marks tabletape
never writes, typed dice after seen ones, typed cards as chance, Masterplan faces, ``record``'s
``drawn``, and the messages around typed dice.

The testers' game: Risk Strike, Olga and Patrick, dealt, ``roll-off dice=6,1``, Olga attacks
Patrick's Africa from Asia, both deploy nothing, then the battle's roll (seq 10).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import msgspec
import pytest

from tabletape.ledger import Ledger
from tabletape.ledger.codec import decode_line, encode_body, seal
from tabletape.ledger.events import Drawn
from tests.cli import run, said

BATTLE = ("deal player=Olga continents=asia,asia,europe tactics=3",
          "deal player=Patrick continents=europe,africa,africa tactics=3", "roll-off dice=6,1",
          "deal player=Patrick continents=asia", "draw continents=asia tactics=1",
          "attack from=asia target=africa", "deploy troops=0", "deploy troops=0")
"""From a new game to Olga's battle roll (seq 10 is the roll)."""

ROLL = 10


class Table:
    """``tabletape`` on one ledger, as the testers typed it."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def __call__(self, *args: str, code: int | None = 0) -> str:
        """The output (``code``: the exit status expected, None: any)."""
        status, output = run(*args, "--ledger", str(self.root), env={"COLUMNS": "200"})
        assert code is None or status == code, output
        return output

    def json(self, *args: str, code: int | None = 0) -> dict:  # type: ignore[type-arg]
        found = json.loads(self(*args, "--json", code=code))
        assert isinstance(found, dict)
        return found

    def new(self, kind: str = "risk-strike", *options: str) -> str:
        self("new", kind, "--player", "Olga", "--player", "Patrick", "--id", "g", *options)
        return "g"

    def record(self, game: str, line: str, code: int = 0) -> str:
        return self("record", game, *line.split(), code=code)

    def battle(self) -> str:
        """A game at Olga's battle roll."""
        game = self.new()
        for line in BATTLE:
            self.record(game, line)
        return game

    def fair(self, game: str) -> dict:  # type: ignore[type-arg]
        return self.json("audit", game, code=None)["fair_play"]  # type: ignore[no-any-return]


@pytest.fixture
def table(tmp_path: Path) -> Table:
    return Table(tmp_path / "ledger")


def rewrite(ledger: Ledger, game: str, seq: int, payload: dict, drawn: Drawn | None) -> None:  # type: ignore[type-arg]
    """A forger's rewrite: event ``seq`` gets ``payload`` and the mark ``drawn``, and every hash
    from it on is recomputed."""
    path = ledger.path(game)
    lines = path.read_bytes().splitlines()
    prev = decode_line(lines[seq - 2]).hash
    out = lines[:seq - 1]
    for line in lines[seq - 1:]:
        record = decode_line(line)
        body = (json.dumps(payload, separators=(",", ":")).encode(), drawn) \
            if record.seq == seq else (bytes(record.payload), record.drawn)
        out.append(seal(encode_body(record.seq, record.at, record.actor, record.type, body[0],
                                    prev, record.more, body[1])))
        prev = decode_line(out[-1]).hash
    path.write_bytes(b"\n".join(out) + b"\n")


# -- 1. a mark tabletape never writes ----------------------------------------------------------


@pytest.mark.parametrize(("filled", "dice"), [
    ((), {}), (("bogus",), {}), (("attacker", "attacker"), {}),
    (("attacker", "defender"), {"defender": []}),  # marked filled, left at its default
])
def test_a_mark_tabletape_never_writes_fails_audit_and_verify(
        table: Table, filled: tuple[str, ...], dice: dict) -> None:  # type: ignore[type-arg]
    """Issue 18 (second round): "a rewritten tabletape roll passes audit and verify as derived
    · re-derived when its `drawn.filled` is emptied or names no real field" — a mark tabletape
    never writes (no field, an unknown one, one twice, a filled field still at its default) is a
    fair-play problem."""
    game = table.battle()
    stored = table.json("record", game, "roll")
    table("reveal", game)
    payload = {**stored["payload"], "attacker": [6, 6, 6], **dice}
    rewrite(Ledger(table.root), game, ROLL, payload, Drawn(roll=0, filled=filled))
    assert Ledger(table.root).verify(game).ok  # the chain holds: only fair play can tell
    fair = table.fair(game)
    row = next(row for row in fair["rolls"] if row["seq"] == ROLL)
    assert row["provenance"] == "derived" and row["check"].startswith("not tabletape's mark")
    assert any(problem.startswith(f"seq {ROLL}: not tabletape's mark")
               for problem in fair["problems"])
    assert "fair play: seq 10: not tabletape's mark" in said(table("verify", game, code=1))
    assert "not tabletape's mark" in said(table("audit", game, code=1))


def test_a_bad_mark_is_found_before_the_reveal_too(table: Table) -> None:
    game = table.battle()
    stored = table.json("record", game, "roll")
    rewrite(Ledger(table.root), game, ROLL, stored["payload"], Drawn(roll=0, filled=()))
    fair = table.fair(game)
    assert fair["problems"] == [f"seq {ROLL}: not tabletape's mark: it names no filled field"]
