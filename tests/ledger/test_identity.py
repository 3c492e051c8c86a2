"""Issue 17, identity: every game has a global identity (a UUIDv7 in its first event) besides
its handle; old logs get one derived from their first hash; import tells the same game again
(refused) from another game with the same handle (imported under a new handle)."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

import tabletape
from tabletape.ledger import GameStarted, Ledger
from tabletape.ledger.codec import GENESIS_HASH, encode_body, encode_payload, seal
from tabletape.ledger.identity import is_uuid7, legacy_uid, uuid7
from tabletape.queries.catalog import connect
from tabletape.rules.registry import find_game

APP = tabletape.build_app()


def run(ledger: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(APP, [*args, "--ledger", str(ledger)])
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert "Traceback" not in result.output
    return result.exit_code, result.output


def run_json(ledger: Path, *args: str) -> object:
    code, output = run(ledger, *args, "--json")
    assert code == 0, output
    return json.loads(output)


def new_game(ledger: Path, game_id: str | None = None) -> str:
    extra = ("--id", game_id) if game_id else ()
    answer = run_json(ledger, "new", "risk-strike", "-p", "ann,bob", *extra)
    assert isinstance(answer, dict)
    return str(answer["game"])


def status_uid(ledger: Path, game: str) -> str:
    answer = run_json(ledger, "status", game)
    assert isinstance(answer, dict)
    return str(answer["uid"])


def catalog_uids(ledger: Path) -> dict[str, str]:
    with connect(Ledger(ledger)) as con:
        return dict(con.sql("SELECT game, uid FROM games").fetchall())


def uid_ms(uid: str) -> int:
    return uuid.UUID(uid).int >> 80


def test_new_games_get_time_ordered_uuid7_identities_that_stay_put(tmp_path: Path) -> None:
    ledger = tmp_path / "l"
    first, second = new_game(ledger), new_game(ledger)
    uids = [status_uid(ledger, first), status_uid(ledger, second)]
    assert all(is_uuid7(uid) for uid in uids) and uids[0] != uids[1]
    assert uid_ms(uids[0]) <= uid_ms(uids[1])  # time-ordered: the later game's time is later
    stored = Ledger(ledger).started(first).uid
    assert stored == uids[0] == status_uid(ledger, first)  # in the log, the same on every read
    listed = run_json(ledger, "list")
    assert isinstance(listed, list)
    assert {row["game"]: row["uid"] for row in listed} == {first: uids[0], second: uids[1]}
    assert catalog_uids(ledger) == {first: uids[0], second: uids[1]}


def test_uuid7_layout_follows_rfc_9562() -> None:
    """RFC 9562 §5.7: unix_ts_ms (48 bits), ver = 0b0111, rand_a (12), var = 0b10, rand_b (62)."""
    value = uuid.UUID(uuid7(ms=0x0123_4567_89AB, rand=b"\xff" * 10))
    assert value.version == 7 and value.variant == uuid.RFC_4122
    assert value.int >> 80 == 0x0123_4567_89AB
    assert value.int & (1 << 62) - 1 == (1 << 62) - 1  # rand_b kept whole


@given(st.integers(0, (1 << 48) - 1), st.binary(min_size=10, max_size=10))
def test_uuid7_keeps_its_time_and_shape(ms: int, rand: bytes) -> None:
    uid = uuid7(ms=ms, rand=rand)
    assert is_uuid7(uid) and uid_ms(uid) == ms


@pytest.mark.slow
@given(st.text(min_size=1, max_size=40), st.integers(0, 2**63 - 1))
def test_game_started_round_trips_its_identity(kind: str, seed: int) -> None:
    started = GameStarted(kind=kind, rules_version="1", tabletape_version="0", players=("a",),
                          seed=seed, uid=uuid7())
    payload = encode_payload(started)
    assert msgspec.json.decode(payload, type=GameStarted) == started


def test_a_fork_is_a_new_game_with_a_new_identity(tmp_path: Path) -> None:
    ledger = tmp_path / "l"
    parent = new_game(ledger)
    forked = run_json(ledger, "fork", parent, "--at", "start")
    assert isinstance(forked, dict)
    child = str(forked["game"])
    assert is_uuid7(status_uid(ledger, child))
    assert status_uid(ledger, child) != status_uid(ledger, parent)
    assert Ledger(ledger).started(child).parent == parent


def old_format_log(ledger: Path, game: str) -> bytes:
    """A log as tabletape wrote it before identities: no ``uid`` in its game-started event."""
    rules = find_game("risk-strike")
    started = GameStarted(kind=rules.name, rules_version=rules.rules_version,
                          tabletape_version="0.1.0", players=("ann", "bob"),
                          options=rules.options({}, ("ann", "bob")), seed=11)
    fields = json.loads(encode_payload(started))
    assert fields.pop("uid") == ""
    fields.pop("commitment")  # nor a commitment (a log from before them too)
    fields.pop("fork_hash")  # nor a fork hash
    payload = json.dumps(fields, separators=(",", ":")).encode()
    line = seal(encode_body(1, "2025-03-01T20:00:00.000000Z", "table", "game-started", payload,
                            GENESIS_HASH))
    path = ledger / "games" / f"{game}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(line + b"\n")
    return line


def test_a_log_from_before_identities_folds_and_gets_the_derived_identity(
        tmp_path: Path) -> None:
    ledger = tmp_path / "l"
    line = old_format_log(ledger, "rs-oldy")
    before = (ledger / "games" / "rs-oldy.jsonl").read_bytes()
    assert b'"uid"' not in line and Ledger(ledger).verify("rs-oldy").ok
    first_hash = json.loads(line)["hash"]
    expected = legacy_uid(first_hash)
    assert expected == str(uuid.uuid5(uuid.UUID("6f1c1c1e-4b7a-5d2e-9a43-7461626c6574"),
                                      first_hash))
    assert status_uid(ledger, "rs-oldy") == expected == status_uid(ledger, "rs-oldy")
    assert catalog_uids(ledger) == {"rs-oldy": expected}
    assert (ledger / "games" / "rs-oldy.jsonl").read_bytes() == before  # never rewritten


def snapshot(ledger: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted((ledger / "games").iterdir())}


def test_importing_the_same_game_again_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    source, target = tmp_path / "source", tmp_path / "target"
    game = new_game(source)
    exported = tmp_path / f"{game}.jsonl"
    assert run(source, "export", game, "--jsonl", str(exported))[0] == 0
    assert run(target, "import", str(exported))[0] == 0
    before = snapshot(target)
    renamed = tmp_path / "renamed.jsonl"  # the same game under another handle is still itself
    renamed.write_bytes(exported.read_bytes())
    for path in (exported, renamed):
        code, output = run(target, "import", str(path), "--json")
        assert code == 1
        assert "already in ledger" in json.loads(output)["refused"][str(path)]
        assert snapshot(target) == before


def test_a_longer_copy_of_a_stored_game_is_refused_and_said_so(tmp_path: Path) -> None:
    source, target = tmp_path / "source", tmp_path / "target"
    game = new_game(source)
    exported = tmp_path / f"{game}.jsonl"
    run(source, "export", game, "--jsonl", str(exported))
    run(target, "import", str(exported))
    assert run(source, "note", game, "later")[0] == 0
    run(source, "export", game, "--jsonl", str(exported))
    before = snapshot(target)
    code, output = run(target, "import", str(exported))
    assert code == 1 and "longer version" in " ".join(output.split())
    assert snapshot(target) == before


def test_a_copy_claiming_a_stored_identity_with_another_chain_is_refused(
        tmp_path: Path) -> None:
    ledger = tmp_path / "l"
    game = new_game(ledger)
    first = (ledger / "games" / f"{game}.jsonl").read_bytes().split(b"\n")[0]
    record = json.loads(first)
    payload = json.dumps(record["payload"], separators=(",", ":")).encode()
    assert b'"seed":' in payload
    altered = payload.replace(b'"seed":', b'"seed":1', 1)  # same uid, another first event
    line = seal(encode_body(1, record["at"], "table", "game-started", altered, GENESIS_HASH))
    forged = tmp_path / "rs-forged.jsonl"
    forged.write_bytes(line + b"\n")
    before = snapshot(ledger)
    code, output = run(ledger, "import", str(forged))
    assert code == 1 and "identity" in output and "altered copy" in " ".join(output.split())
    assert snapshot(ledger) == before


def test_another_game_with_a_taken_handle_is_imported_under_a_new_one(tmp_path: Path) -> None:
    club_a, club_b = tmp_path / "a", tmp_path / "b"
    new_game(club_a, "rs-k7pq")
    new_game(club_b, "rs-k7pq")  # another club drew the same handle for another game
    exported = tmp_path / "rs-k7pq.jsonl"
    run(club_b, "export", "rs-k7pq", "--jsonl", str(exported))
    code, output = run(club_a, "import", str(exported), "--json")
    assert code == 0, output
    done = json.loads(output)["imported"][0]
    assert done["renamed_from"] == "rs-k7pq" and done["game"] != "rs-k7pq"
    assert done["game"].startswith("rs-") and done["uid"] == status_uid(club_b, "rs-k7pq")
    assert (club_a / "games" / f"{done['game']}.jsonl").read_bytes() == exported.read_bytes()
    uids = catalog_uids(club_a)
    assert set(uids) == {"rs-k7pq", done["game"]} and len(set(uids.values())) == 2
    third = tmp_path / "c"
    new_game(third, "rs-k7pq")
    again = tmp_path / "again" / "rs-k7pq.jsonl"
    again.parent.mkdir()
    run(third, "export", "rs-k7pq", "--jsonl", str(again))
    code, output = run(club_a, "import", str(again))  # what people read says so too
    text = " ".join(output.split())
    assert code == 0 and "rs-k7pq is another game here" in text and "identity" in text


def test_simulated_games_keep_byte_identical_logs_with_identities(tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    for ledger in (one, two):
        assert run(ledger, "simulate", "risk-strike", "-n", "2", "--seed", "3")[0] == 0
    assert snapshot(one) == snapshot(two)
    uids = [Ledger(one).started(game).uid for game in Ledger(one).game_ids()]
    assert all(is_uuid7(uid) for uid in uids) and len(set(uids)) == 2
    assert run(tmp_path / "three", "simulate", "risk-strike", "-n", "2", "--seed", "4")[0] == 0
    three = Ledger(tmp_path / "three")
    other = {three.started(game).uid for game in three.game_ids()}
    assert other.isdisjoint(uids)


def test_the_demo_game_has_an_identity_of_its_own(tmp_path: Path) -> None:
    ledger = tmp_path / "l"
    assert run(ledger, "demo")[0] == 0
    assert run(ledger, "demo")[0] == 0
    listed = run_json(ledger, "list")
    assert isinstance(listed, list) and len(listed) == 2
    uids = [row["uid"] for row in listed]
    assert all(is_uuid7(uid) for uid in uids) and uids[0] != uids[1]
