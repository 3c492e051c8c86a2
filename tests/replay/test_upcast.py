"""The upcaster hook: a log written by an older (synthetic) rules version folds as the current one.

The test game is :mod:`tests.support.tinygame`'s Tiny at rules version 2, whose version 1 stored
``add`` as ``{"amount": N}`` and ``roll`` as ``{"face": F}``; its ``upcasters`` map those shapes to
the current ones.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any, ClassVar

import msgspec
import pytest
from rich.console import Console

from tabletape.ledger import Event, GameStarted, Ledger
from tabletape.replay import render
from tabletape.replay.audit import audit_game
from tabletape.replay.engine import open_replay
from tabletape.replay.fold import RefusedEvent, decode_event
from tabletape.replay.recording import open_game
from tabletape.replay.visitor import Visitor, walk
from tabletape.rules import registry
from tabletape.rules.kernel import Upcaster
from tests.support.tinygame import Added, Cheered, Rolled, Tiny


class AddedV1(Event, tag="add"):
    """``add`` as version 1 stored it."""

    amount: int


class RolledV1(Event, tag="roll"):
    """``roll`` as version 1 stored it: one die."""

    face: int


class UpcastTiny(Tiny):
    name = "upcast-tiny"
    title = "Upcast Tiny"
    aliases = ()
    short = "ut"
    rules_version = "2"
    upcasters: ClassVar[Mapping[tuple[str, str], Upcaster]] = {
        ("add", "1"): lambda old: {"n": old["amount"]},
        ("roll", "1"): lambda old: {"dice": [old["face"]]},
    }


OLD_LOG = [("ann", AddedV1(amount=3)), ("bob", RolledV1(face=5)), ("ann", Cheered()),
           ("ann", AddedV1(amount=2))]
NEW_LOG = [("ann", Added(n=3)), ("bob", Rolled(dice=(5,))), ("ann", Cheered()),
           ("ann", Added(n=2))]


@pytest.fixture
def ledger(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> Ledger:
    monkeypatch.setitem(registry.REGISTERED, UpcastTiny.name, registry.rules_manifest(UpcastTiny()))
    return Ledger(str(tmp_path / "ledger"))


def create(ledger: Ledger, game: str, version: str, drafts: list[tuple[str, Event]]) -> str:
    started = GameStarted(kind=UpcastTiny.name, rules_version=version, tabletape_version="0",
                          players=("ann", "bob"), options={"target": 30}, seed=1)
    return ledger.create(started, game_id=game, then=drafts)


def test_an_older_versions_log_folds_to_the_state_of_the_current_shape(ledger: Ledger) -> None:
    old = open_game(ledger, create(ledger, "ut-old", "1", OLD_LOG))
    new = open_game(ledger, create(ledger, "ut-new", "2", NEW_LOG))
    assert old.state == new.state
    assert [step.event for step in old.steps] == [step.event for step in new.steps]


def test_the_stored_bytes_keep_the_old_shape_and_verify(ledger: Ledger) -> None:
    game = create(ledger, "ut-old", "1", OLD_LOG)
    assert ledger.verify(game).ok
    records = ledger.records(game)
    assert msgspec.json.decode(records[1].payload) == {"amount": 3}
    assert decode_event(UpcastTiny(), records[1], game, "1") == Added(n=3)


def test_visitors_replay_and_audit_read_the_upcast_events(ledger: Ledger) -> None:
    game = create(ledger, "ut-old", "1", OLD_LOG)
    records = ledger.records(game)

    class Events(Visitor):
        def begin_game(self, info: Any) -> None:
            self.events: list[Event] = []

        def visit_event(self, visit: Any) -> None:
            self.events.append(visit.event)

        def result(self) -> list[Event]:
            return self.events

    (seen,) = walk(game, records, Events(), check=True)
    assert seen[1:] == [event for _, event in NEW_LOG]
    assert open_replay(ledger, game).state_at(4).total == 10
    assert audit_game(ledger, game).refused == []
    console = Console(width=120, record=True, file=io.StringIO())
    console.print(render.log_table(open_game(ledger, game)))
    assert "add n=3" in console.export_text()


def test_the_upcaster_applies_only_to_logs_of_its_version(ledger: Ledger) -> None:
    game = create(ledger, "ut-mixed", "2", OLD_LOG)
    with pytest.raises(RefusedEvent, match=r"event 2 of game ut-mixed .*add payload is not valid"):
        open_game(ledger, game)


def test_a_payload_the_upcaster_cannot_read_is_refused_saying_why(ledger: Ledger) -> None:
    game = create(ledger, "ut-bad", "1", [("ann", Added(n=3))])
    with pytest.raises(RefusedEvent, match=r"not a payload of rules version 1 .*KeyError"):
        open_game(ledger, game)
