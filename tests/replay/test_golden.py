"""Golden renderings: what people read, compared with files checked by eye.

Regenerate after an intended change with
``TABLETAPE_UPDATE_GOLDEN=1 pytest tests/replay tests/games`` and read the diff before committing
it. A game's goldens sit in ``tests/games/<game>/golden``.
"""

from __future__ import annotations

import os
from io import StringIO
from pathlib import Path

import pytest
from rich.console import Console, RenderableType

from tabletape.ledger import Ledger
from tabletape.replay.audit import audit_game, audit_view
from tabletape.replay.diff import changes, diff_table
from tabletape.replay.engine import open_replay
from tabletape.replay.narrate import Narrator, narrate_game, narration_view
from tabletape.replay.render import status_json
from tabletape.replay.stepper import frame
from tests.replay.test_audit import dice_log, rule_breaking_log

GOLDEN = Path(__file__).parent / "golden"


def rendered(renderable: RenderableType) -> str:
    console = Console(file=StringIO(), width=100)
    console.print(renderable)
    return console.file.getvalue()  # type: ignore[attr-defined]


def check(name: str, text: str, folder: Path = GOLDEN) -> None:
    """``text`` is the golden file ``folder/name.txt`` (a game's goldens sit with its tests)."""
    path = folder / f"{name}.txt"
    if os.environ.get("TABLETAPE_UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    if not path.exists():
        pytest.fail(f"no golden file {path.name}; run with TABLETAPE_UPDATE_GOLDEN=1 and check it")
    assert text == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("point", ["seq=5", "seq=7", "end"])
def test_replay_frame(store: Ledger, story: str, point: str) -> None:
    replay = open_replay(store, story)
    narrator = Narrator(replay.rules, replay.records)
    check(f"frame-{point.replace('=', '')}",
          rendered(frame(replay, replay.position(point), narrator, keys=point == "seq=5")))


def test_narration(store: Ledger, story: str) -> None:
    check("narration", rendered(narration_view("Tiny · ty-story · olga, patrick",
                                               narrate_game(story, store.records(story)))))


def test_audit_of_a_clean_game(store: Ledger, story: str) -> None:
    check("audit-clean", rendered(audit_view(audit_game(store, story))))


def test_audit_of_a_bad_game(store: Ledger) -> None:
    check("audit-refused", rendered(audit_view(audit_game(store, rule_breaking_log(store)))))


def test_audit_of_loaded_dice(store: Ledger) -> None:
    faces = [6] * 40 + [1, 2, 3, 4, 5] * 2
    check("audit-loaded", rendered(audit_view(audit_game(store, dice_log(store, "ty-ld", faces)))))


def test_diff(store: Ledger, story: str) -> None:
    replay = open_replay(store, story)
    before = status_json(replay.folded_at(replay.position("turn=2")))
    after = status_json(replay.folded_at(replay.position("end")))
    check("diff", rendered(diff_table(changes(before, after))))
