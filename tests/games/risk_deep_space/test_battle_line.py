"""A Deep Space battle's exchanges in one line (issue 15): ``battle attacker=3,5,2
defender=4,1,6`` stores the very events the exchanges typed one by one store, or nothing.

Battle: "you must immediately stop and battle until just one player's Crew is left standing
... You and your opponent each roll one die. Attacking Crew rolls first. The higher roller wins
the dispute. If there's a tie, victory goes to the defending Crew."
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletape.ledger import Ledger, Record
from tabletape.quick import record_main
from tabletape.replay.recording import open_game, record_action, record_line
from tabletape.rules.actions import ActionSyntaxError
from tabletape.rules.kernel import IllegalAction, RulesError
from tabletape.rules.risk_deep_space.demo import DEMO_PLAYERS, demo_actions
from tests.queries.conftest import start_game

GAME = "ds-line"
FIRST_EXCHANGE = "battle attacker=5 defender=5"


@pytest.fixture(scope="module")
def invaded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A ledger whose game stands at the demo's first battle, before its first exchange."""
    folder = tmp_path_factory.mktemp("ds-line") / "ledger"
    ledger = Ledger(folder)
    start_game(ledger, "risk-deep-space", DEMO_PLAYERS, seed=11, game_id=GAME)
    lines = demo_actions()
    for line in lines[:lines.index(FIRST_EXCHANGE)]:
        record_action(ledger, GAME, line)
    return folder


def copied(folder: Path, into: Path) -> Ledger:
    shutil.copytree(folder, into)
    return Ledger(into)


def log_bytes(ledger: Ledger) -> bytes:
    (path,) = Path(ledger.root).rglob(f"{GAME}.jsonl")
    return path.read_bytes()


def stored(records: list[Record]) -> list[tuple[int, str, str, bytes]]:
    """What a record holds but its time: seq, actor, type, payload."""
    return [(r.seq, r.actor, r.type, bytes(r.payload)) for r in records]


def one_by_one(ledger: Ledger, attacker: list[int], defender: list[int]) -> Iterator[Record]:
    """Each exchange recorded as its own line, as a table types them, until one is refused."""
    for a, d in zip(attacker, defender, strict=True):
        _, record = record_action(ledger, GAME, f"battle attacker={a} defender={d}")
        yield record


def test_the_demo_battle_in_one_line_is_the_demo_battle(invaded: Path, tmp_path: Path) -> None:
    typed = copied(invaded, tmp_path / "typed")
    steps = list(one_by_one(typed, [5, 2, 3], [5, 4, 3]))
    line = copied(invaded, tmp_path / "line")
    folded, records = record_line(line, GAME, "battle attacker=5,2,3 defender=5,4,3")
    assert stored(records) == stored(steps)
    assert folded.state == open_game(typed, GAME).state
    assert folded.state.battle is None  # the tie of the third exchange ended it


def test_steps_may_be_split_with_a_slash_too(invaded: Path, tmp_path: Path) -> None:
    line = copied(invaded, tmp_path / "line")
    _, records = record_line(line, GAME, "battle attacker=5/2 defender=5/4")
    assert [json.loads(bytes(r.payload)) for r in records] == [
        {"attacker": 5, "defender": 5}, {"attacker": 2, "defender": 4}]


def test_a_refused_exchange_names_itself_and_stores_nothing(invaded: Path, tmp_path: Path) -> None:
    line = copied(invaded, tmp_path / "line")
    before = log_bytes(line)
    with pytest.raises(IllegalAction, match=r"exchange 4 of 4 \(attacker=6 defender=1\): there "
                       r"is no battle; nothing was recorded"):
        record_line(line, GAME, "battle attacker=5,2,3,6 defender=5,4,3,1")
    with pytest.raises(IllegalAction, match=r"exchange 2 of 2 \(attacker=7 defender=4\): one "
                       r"die each"):
        record_line(line, GAME, "battle attacker=5,7 defender=5,4")
    assert log_bytes(line) == before


@pytest.mark.parametrize(("text", "message"), [
    ("battle attacker=5,2,3 defender=5,4",
     "attacker= gives 3 exchanges and defender= gives 2 exchanges; give each field one value "
     "per exchange"),
    ("battle attacker=5 defender=5,4",
     "attacker= gives 1 exchange and defender= gives 2 exchanges"),
    ("battle attacker=5,x defender=5,4",
     r"exchange 2 of 2 \(attacker=x defender=4\): bad value for attacker: 'x'"),
    ("battle atacker=5,2 defender=5,4", r"unknown field of battle 'atacker' \(did you mean "
                                        r"'attacker'\?\)"),
])
def test_a_line_not_understood_stores_nothing(invaded: Path, tmp_path: Path, text: str,
                                              message: str) -> None:
    line = copied(invaded, tmp_path / "line")
    before = log_bytes(line)
    with pytest.raises(ActionSyntaxError, match=message) as refused:
        record_line(line, GAME, text)
    assert refused.value.exit_code == 2
    assert log_bytes(line) == before


def test_empty_dice_still_roll_one_exchange(invaded: Path, tmp_path: Path) -> None:
    """``battle`` alone: tabletape rolls one exchange, as before."""
    line = copied(invaded, tmp_path / "line")
    _, records = record_line(line, GAME, "battle")
    assert [r.type for r in records] == ["battle"]


def test_record_prints_every_exchange_and_json_lists_them(
        invaded: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "line"
    copied(invaded, folder)
    common = ["--ledger", str(folder), GAME, "battle", "attacker=5,2", "defender=5,4"]
    assert record_main([*common, "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert [r["payload"] for r in shown["records"]] == [
        {"attacker": 5, "defender": 5}, {"attacker": 2, "defender": 4}]
    assert shown["seq"] == shown["records"][-1]["seq"]
    assert record_main([*common[:3], "battle", "attacker=3", "defender=3"]) == 0
    assert "attacker=3 defender=3" in capsys.readouterr().out


dice = st.lists(st.tuples(st.integers(1, 6), st.integers(1, 6)), min_size=2, max_size=6)


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(exchanges=dice)
def test_one_line_stores_what_one_by_one_stores_or_nothing(
        invaded: Path, tmp_path_factory: pytest.TempPathFactory,
        exchanges: list[tuple[int, int]]) -> None:
    """Whatever the dice: the line stores exactly the events typed one by one store; when one
    by one refuses an exchange, the line is refused naming it and its log is unchanged."""
    attacker, defender = [a for a, _ in exchanges], [d for _, d in exchanges]
    room = tmp_path_factory.mktemp("example")
    typed, line = copied(invaded, room / "typed"), copied(invaded, room / "line")
    steps: list[Record] = []
    refusal: RulesError | None = None
    try:
        for record in one_by_one(typed, attacker, defender):
            steps.append(record)
    except IllegalAction as error:
        refusal = error
    before = log_bytes(line)
    text = f"battle attacker={','.join(map(str, attacker))} defender={','.join(map(str, defender))}"
    if refusal is None:
        _, records = record_line(line, GAME, text)
        assert stored(records) == stored(steps)
        assert log_bytes(line)[len(before):].count(b"\n") == len(exchanges)
    else:
        with pytest.raises(IllegalAction) as refused:
            record_line(line, GAME, text)
        assert f"exchange {len(steps) + 1} of {len(exchanges)}" in refused.value.reason
        assert refusal.reason in refused.value.reason
        assert log_bytes(line) == before
