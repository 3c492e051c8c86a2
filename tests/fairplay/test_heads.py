"""Issue 18, a record no one can rewrite unnoticed: head fingerprints (``head``, ``status``,
``verify --head``), the ledger's head (``head --all``, ``verify --all --head``), signatures
(``key new``, ``sign``, ``verify``), the fork point's hash, and the catalog's memory of heads.

A truncation at a line end and a whole log rewritten with every hash recomputed both keep an
intact chain: the plain chain check passes them; a noted head and a signature do not."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletape.ledger import GameStarted, Ledger, Noted
from tabletape.ledger.codec import GENESIS_HASH, decode_line, sealed_record
from tabletape.ledger.fingerprints import ALPHABET, BadFingerprint, fingerprint, parse_fingerprint
from tabletape.ledger.heads import merkle_root
from tabletape.ledger.identity import uuid7
from tests.support.cli import run, said
from tests.support.tinygame import Added


@pytest.fixture(autouse=True)
def key_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Keys (and receipts) of the test in its own folder, never the user's."""
    folder = tmp_path / "keys"
    monkeypatch.setenv("TABLETAPE_KEY_DIR", str(folder))
    return folder


@pytest.fixture
def store(tmp_path: Path) -> Ledger:
    return Ledger(tmp_path / "ledger")


def tiny_game(store: Ledger, events: int = 12, game_id: str = "ty-game") -> str:
    """A tiny game of ``events`` events (turns alternate between olga and patrick), its
    identity fixed by its id (two games, two identities)."""
    uid = uuid7(ms=1_700_000_000_000, rand=hashlib.sha256(game_id.encode()).digest()[:10])
    started = GameStarted(kind="tiny", rules_version="1", tabletape_version="0",
                          players=("olga", "patrick"), options={"target": 1000}, uid=uid)
    game = store.create(started, game_id=game_id)
    for seq in range(1, events):
        actor = ("olga", "patrick")[(seq - 1) % 2]
        store.append(game, [(actor, Added(n=1))], expected_seq=seq)
    return game


def lines_of(store: Ledger, game: str) -> list[bytes]:
    return store.path(game).read_bytes().splitlines()


def truncate(store: Ledger, game: str, keep: int) -> None:
    """Cut the log off at a line end, after ``keep`` events."""
    path = store.path(game)
    path.write_bytes(b"".join(line + b"\n" for line in lines_of(store, game)[:keep]))


def rewrite(store: Ledger, game: str, keep: int, rename: tuple[str, str]) -> None:
    """Rewrite the whole log: a player renamed, only the first ``keep`` events, every hash
    recomputed (the chain is intact)."""
    prev, out = GENESIS_HASH, []
    for line in lines_of(store, game)[:keep]:
        record = decode_line(line)
        payload = bytes(record.payload).replace(rename[0].encode(), rename[1].encode())
        actor = record.actor.replace(*rename)
        sealed, new = sealed_record(record.seq, record.at, actor, record.type, payload, prev)
        out.append(sealed + b"\n")
        prev = new.hash
    store.path(game).write_bytes(b"".join(out))


def verify_json(store: Ledger, *args: str) -> tuple[int, list[dict]]:
    code, output = run("verify", *args, "--ledger", str(store.root), "--json")
    return code, json.loads(output)


def head_of(store: Ledger, game: str) -> str:
    code, output = run("head", game, "--ledger", str(store.root), "--json")
    assert code == 0, output
    return str(json.loads(output)["fingerprint"])


# -- fingerprints --------------------------------------------------------------------------------


hashes = st.binary(min_size=32, max_size=32).map(bytes.hex)


@given(seq=st.integers(1, 10**9), head_hash=hashes)
def test_a_fingerprint_round_trips_however_it_is_typed(seq: int, head_hash: str) -> None:
    text = fingerprint(seq, head_hash)
    parsed = parse_fingerprint(text)
    assert str(parsed) == text and parsed.seq == seq
    code = text.split(":")[1]
    assert len(code.replace("-", "")) == 12
    for typed in (text.lower(), f"seq {seq} · {code}", f"{seq} {code.replace('-', ' ')}",
                  f"{seq}:" + code.replace("0", "o").replace("1", "l")):
        assert parse_fingerprint(typed) == parsed


@given(seq=st.integers(1, 10**6), head_hash=hashes, where=st.integers(0, 11),
       other=st.sampled_from(ALPHABET))
def test_one_character_mistyped_is_a_typo_not_another_head(seq: int, head_hash: str, where: int,
                                                          other: str) -> None:
    code = str(parse_fingerprint(fingerprint(seq, head_hash))).split(":")[1].replace("-", "")
    if code[where] == other:
        return
    typo = code[:where] + other + code[where + 1:]
    with pytest.raises(BadFingerprint, match="typo"):
        parse_fingerprint(f"{seq}:{typo}")


@pytest.mark.parametrize(("typed", "words"), [
    ("nonsense", "is not a fingerprint"),
    ("12:ABCD-EFGH", "has 8 characters"),
    ("12:ABCD-EFGH-JKMU", "holds U"),
    ("", "is not a fingerprint"),
    ("0:F1W7-GY3R-F1WC", "events start at seq 1"),
])
def test_a_bad_fingerprint_is_one_clear_message(store: Ledger, typed: str, words: str) -> None:
    game = tiny_game(store, 3)
    code, output = run("verify", game, "--head", typed, "--ledger", str(store.root))
    assert code == 2 and output.startswith("error: ") and words in said(output), output
    assert "Traceback" not in output


def test_a_ledger_fingerprint_for_a_game_is_refused_saying_which(store: Ledger) -> None:
    game = tiny_game(store, 3)
    code, output = run("head", "--all", "--ledger", str(store.root), "--json")
    ledger_head = json.loads(output)["fingerprint"]
    code, output = run("verify", game, "--head", ledger_head, "--ledger", str(store.root))
    assert code == 2 and "verify --all --head" in said(output), output


def test_status_shows_the_head(store: Ledger) -> None:
    game = tiny_game(store, 5)
    code, output = run("status", game, "--ledger", str(store.root), "--json")
    assert code == 0 and json.loads(output)["head"] == head_of(store, game)
    code, output = run("status", game, "--ledger", str(store.root))
    assert head_of(store, game) in output


# -- a noted head ----------------------------------------------------------------------------------


def test_verify_head_says_extends_after_more_events(store: Ledger) -> None:
    game = tiny_game(store, 6)
    noted = head_of(store, game)
    store.append(game, [("table", Noted(text="later"))], expected_seq=6)
    code, results = verify_json(store, game, "--head", noted)
    assert code == 0 and results[0]["noted_head"]["verdict"] == "extends"


def test_a_truncation_passes_the_chain_but_not_the_noted_head(store: Ledger) -> None:
    game = tiny_game(store, 12)
    noted = head_of(store, game)
    truncate(store, game, 9)
    code, results = verify_json(store, game)
    assert code == 0 and results[0]["chain_ok"], results  # the chain alone cannot tell
    code, results = verify_json(store, game, "--head", noted)
    assert code == 1
    check = results[0]["noted_head"]
    assert check["verdict"] == "truncated" and "ends at seq 9" in check["explanation"]
    code, output = run("verify", game, "--head", noted, "--ledger", str(store.root))
    assert code == 1 and "truncated" in output and "Traceback" not in output


def test_a_rewrite_with_hashes_recomputed_passes_the_chain_but_not_the_noted_head(
        store: Ledger) -> None:
    game = tiny_game(store, 30)
    noted = head_of(store, game)
    rewrite(store, game, keep=30, rename=("patrick", "mallory"))
    code, results = verify_json(store, game)
    assert code == 0 and results[0]["chain_ok"]
    code, results = verify_json(store, game, "--head", noted)
    assert code == 1 and results[0]["noted_head"]["verdict"] == "rewritten"
    rewrite(store, game, keep=10, rename=("olga", "olgb"))  # and the last 20 dropped
    code, results = verify_json(store, game, "--head", noted)
    assert code == 1 and results[0]["noted_head"]["verdict"] == "truncated"


# -- signatures ------------------------------------------------------------------------------------


def sign(store: Ledger, game: str, key: str, *extra: str) -> dict:
    code, output = run("sign", game, "--key", key, "--ledger", str(store.root), "--json", *extra)
    assert code == 0, output
    return dict(json.loads(output))


def test_sign_then_verify_names_who_vouched(store: Ledger, key_dir: Path) -> None:
    game = tiny_game(store, 8)
    code, output = run("key", "new", "olga", "--ledger", str(store.root))
    assert code == 0, output
    private = key_dir / "olga.key"
    assert private.exists() and (private.stat().st_mode & 0o777) == 0o600
    assert not any(store.root.rglob("*.key"))  # never inside the ledger
    signed = sign(store, game, "olga")
    assert signed["signed_seq"] == 8 and signed["seq"] == 9
    code, output = run("verify", game, "--ledger", str(store.root))
    assert code == 0 and "olga vouched for seq 8" in said(output), output
    status = run("status", game, "--ledger", str(store.root), "--json")
    assert json.loads(status[1])["seq"] == 9  # the signature changes nothing in the game
    code, output = run("key", "list", "--json")
    assert [k["name"] for k in json.loads(output)] == ["olga"]
    code, output = run("log", game, "--ledger", str(store.root), "--last", "1")
    assert code == 0 and f"sign: olga vouched for seq 8 ({signed['fingerprint']}" in said(output)
    assert "public_key=" not in output  # people read who vouched, not hex


def test_signatures_catch_a_truncation_and_a_rewrite(store: Ledger, tmp_path: Path) -> None:
    game = tiny_game(store, 12)
    run("key", "new", "olga")
    sign(store, game, "olga")  # seq 13 vouches for seq 12
    kept = store.path(game).read_bytes()
    truncate(store, game, 12)  # only the signature event cut off: the head itself stays
    code, results = verify_json(store, game)
    assert code == 1 and results[0]["chain_ok"]
    assert any("receipt" in v["problem"] for v in results[0]["signatures"]), results
    truncate_to = 10
    store.path(game).write_bytes(kept)
    truncate(store, game, truncate_to)
    code, results = verify_json(store, game)
    assert code == 1 and "cut short" in results[0]["problem"], results
    store.path(game).write_bytes(kept)
    rewrite(store, game, keep=13, rename=("patrick", "mallory"))  # the signature line kept
    code, results = verify_json(store, game)
    assert code == 1 and results[0]["chain_ok"]
    assert "another head at seq 12" in results[0]["problem"], results
    # elsewhere, without olga's receipts, the signature event itself still catches it
    code, results = verify_json(store, game, "--key-dir", str(tmp_path / "elsewhere"))
    assert code == 1 and "another head" in results[0]["problem"]


def forge(store: Ledger, game: str, change: dict[str, object]) -> None:
    """Append a copy of the game's last signature event with ``change`` in its payload (a
    sound chain: what a cheater writes through the ledger)."""
    last = [decode_line(line) for line in lines_of(store, game) if b'"type":"sign"' in line][-1]
    payload = msgspec.json.decode(last.payload)
    payload.update(change)
    from tabletape.ledger.events import Signed

    head = store.head(game)
    store.append(game, [("table", Signed(**payload))], expected_seq=head.seq)


def test_a_forged_signature_is_caught(store: Ledger, tmp_path: Path) -> None:
    game = tiny_game(store, 5)
    run("key", "new", "olga")
    sign(store, game, "olga")
    signature = msgspec.json.decode(
        [decode_line(line) for line in lines_of(store, game)][-1].payload)["signature"]
    flipped = ("0" if signature[0] != "0" else "1") + signature[1:]
    forge(store, game, {"signature": flipped})
    code, results = verify_json(store, game, "--key-dir", str(tmp_path / "other"))
    assert code == 1 and "forged" in results[0]["problem"]


def test_a_signature_over_a_different_head_is_caught(store: Ledger, tmp_path: Path) -> None:
    other = tiny_game(store, 5, game_id="ty-other")
    game = tiny_game(store, 5)
    run("key", "new", "olga")
    sign(store, other, "olga")  # olga vouched for ty-other's seq 5 ...
    last = [decode_line(line) for line in lines_of(store, other)][-1]
    payload = msgspec.json.decode(last.payload)
    from tabletape.ledger.events import Signed

    store.append(game, [("table", Signed(**payload))], expected_seq=5)  # ... copied here
    code, results = verify_json(store, game, "--key-dir", str(tmp_path / "other"))
    assert code == 1 and "copied from another game" in results[0]["problem"]  # it covers the uid


def test_a_key_the_ledger_does_not_know_for_that_name(store: Ledger, tmp_path: Path) -> None:
    game = tiny_game(store, 5)
    run("key", "new", "olga")
    sign(store, game, "olga")
    elsewhere = tmp_path / "mallory-keys"
    run("key", "new", "olga", "--key-dir", str(elsewhere))  # mallory makes a key named olga
    code, output = run("sign", game, "--key", "olga", "--key-dir", str(elsewhere),
                       "--ledger", str(store.root))
    assert code == 1 and "knows another key for olga" in said(output)


@pytest.mark.parametrize("case", ["missing", "unreadable", "garbage", "bad-name", "in-ledger"])
def test_key_problems_are_one_message(store: Ledger, key_dir: Path, case: str) -> None:
    game = tiny_game(store, 3)
    key = "olga"
    extra: list[str] = []
    if case in ("unreadable", "garbage"):
        run("key", "new", "olga")
        path = key_dir / "olga.key"
        if case == "garbage":
            path.write_text("not a key")
        else:
            path.chmod(0)
            if os.access(path, os.R_OK):  # root reads anything
                pytest.skip("running as root: a file without permissions is still readable")
    elif case == "bad-name":
        key = "../olga"
    elif case == "in-ledger":
        extra = ["--key-dir", str(store.root / "keys")]
    code, output = run("sign", game, "--key", key, "--ledger", str(store.root), *extra)
    assert code == 2 and output.startswith("error: ") and "Traceback" not in output, output
    assert len(lines_of(store, game)) == 3  # nothing recorded


# -- the ledger's head ---------------------------------------------------------------------------


def test_verify_all_head_names_the_games_changed(store: Ledger) -> None:
    games = [tiny_game(store, 6, game_id=f"ty-g{n}") for n in range(4)]
    code, output = run("head", "--all", "--ledger", str(store.root), "--json")
    assert code == 0, output
    noted = json.loads(output)["fingerprint"]
    assert noted.startswith("L4:")
    store.append(games[0], [("table", Noted(text="more"))], expected_seq=6)  # grew: fine
    code, results = verify_json(store, "--all", "--head", noted)
    assert code == 0, results
    truncate(store, games[1], 4)
    rewrite(store, games[2], keep=6, rename=("olga", "olgb"))
    store.path(games[3]).unlink()
    code, results = verify_json(store, "--all", "--head", noted)
    verdicts = {r["game"]: (r["noted_head"] or {}).get("verdict") for r in results}
    assert code == 1 and verdicts == {games[0]: "extends", games[1]: "truncated",
                                      games[2]: "rewritten", games[3]: "gone"}, verdicts


def test_an_unknown_ledger_head_says_it_cannot_name_games(store: Ledger) -> None:
    tiny_game(store, 3)
    code, output = run("verify", "--all", "--head", "L9:0000-0000-000" + "0",
                       "--ledger", str(store.root))
    assert code in (1, 2) and "Traceback" not in output


def test_a_doctored_history_does_not_make_a_rewritten_ledger_pass(store: Ledger) -> None:
    """The history sits in the ledger: a cheater who rewrites a game and then writes its new
    head into the remembered entry (keeping the fingerprint people noted) is still caught."""
    games = [tiny_game(store, 6, game_id=f"ty-g{n}") for n in range(3)]
    code, output = run("head", "--all", "--ledger", str(store.root), "--json")
    noted = json.loads(output)["fingerprint"]
    rewrite(store, games[1], keep=6, rename=("olga", "olgb"))
    history = store.root / "private" / "ledger-heads.jsonl"
    entry = json.loads(history.read_bytes().splitlines()[-1])
    entry["games"][games[1]] = [6, lines_of(store, games[1])[-1].split(b'"hash":"')[1][:64]
                                .decode()]
    history.write_text(json.dumps(entry) + "\n")
    code, output = run("verify", "--all", "--head", noted, "--ledger", str(store.root))
    assert code == 1 and "history does not hold it" in said(output), output


def test_merkle_root_depends_on_every_game() -> None:
    heads = {f"g{n}": "a" * 64 for n in range(5)}
    root = merkle_root(heads)
    for game in heads:
        assert merkle_root({**heads, game: "b" * 64}) != root
    assert merkle_root({k: v for k, v in heads.items() if k != "g4"}) != root


# -- forks -----------------------------------------------------------------------------------------


def test_a_fork_records_the_parents_hash_and_verify_checks_it(store: Ledger) -> None:
    game = tiny_game(store, 10)
    code, output = run("fork", game, "--at", "seq=6", "--ledger", str(store.root), "--json")
    assert code == 0, output
    fork = json.loads(output)["game"]
    started = store.started(fork)
    assert started.fork_hash == decode_line(lines_of(store, game)[5]).hash
    assert verify_json(store, fork)[0] == 0
    rewrite(store, game, keep=10, rename=("patrick", "mallory"))
    code, results = verify_json(store, fork)
    assert code == 1 and "rewritten since" in results[0]["fork"]
    code, output = run("audit", fork, "--ledger", str(store.root), "--json")
    assert code == 1 and "rewritten since" in output


def test_a_forks_copy_of_a_signature_is_a_note(store: Ledger) -> None:
    game = tiny_game(store, 6)
    run("key", "new", "olga")
    sign(store, game, "olga")
    store.append(game, [("patrick", Added(n=1))], expected_seq=7)
    code, output = run("fork", game, "--at", "seq=8", "--ledger", str(store.root), "--json")
    assert code == 0, output
    fork = json.loads(output)["game"]
    assert b"signed the parent's head at seq 6" in store.path(fork).read_bytes()
    assert b'"type":"sign"' not in store.path(fork).read_bytes()
    assert verify_json(store, fork)[0] == 0


# -- the catalog's memory of heads ---------------------------------------------------------------


def sync_json(store: Ledger, *extra: str) -> dict:
    code, output = run("sync", "--ledger", str(store.root), "--json", *extra)
    assert code == 0, output
    return dict(json.loads(output))


def seen(store: Ledger) -> list[tuple]:
    code, output = run("sql", "SELECT game, seq FROM heads_seen ORDER BY game, seq",
                       "--ledger", str(store.root), "--json")
    assert code == 0, output
    return [(row["game"], row["seq"]) for row in json.loads(output)]


@pytest.mark.slow
def test_sync_remembers_heads_and_names_a_vanished_one(store: Ledger) -> None:
    game = tiny_game(store, 10)
    other = tiny_game(store, 4, game_id="ty-other")
    assert sync_json(store)["problems"] == {}
    store.append(game, [("table", Noted(text="more"))], expected_seq=10)
    sync_json(store)
    assert seen(store) == [(game, 10), (game, 11), (other, 4)]
    truncate(store, game, 7)
    report = sync_json(store)
    assert "cut short" in report["problems"][game] and other not in report["problems"]
    assert sync_json(store)["problems"].keys() == {game}  # said by every sync after it
    _, output = run("sql", f"SELECT count(*) AS n FROM events WHERE game = '{game}'",
                       "--ledger", str(store.root), "--json")
    rows = json.JSONDecoder().raw_decode(output)[0]  # a warning names the game after the rows
    assert rows == [{"n": 0}] and f'"left_out": {{"{game}"' in output  # left out, and said


def test_a_catalog_rebuilt_for_a_new_version_still_knows_the_heads(store: Ledger) -> None:
    import duckdb

    game = tiny_game(store, 10)
    sync_json(store)
    with duckdb.connect(str(store.root / "catalog.duckdb")) as con:  # as an older tabletape
        con.execute("UPDATE _meta SET value = '6' WHERE key = 'catalog_version'")
    rewrite(store, game, keep=10, rename=("patrick", "mallory"))
    report = sync_json(store)
    assert report["rebuilt"] and report["vanished"] == 1
    assert "rewritten" in report["problems"][game]
    report = sync_json(store, "--rebuild")  # the table takes the log as it is now
    assert report["problems"] == {} and report["vanished"] == 0


def test_a_head_the_history_lost_still_matches_the_ledger_now(store: Ledger) -> None:
    """With no history (deleted, or noted elsewhere), a noted ledger head can only be compared
    with the ledger's head now: the same ledger passes, one game grown fails."""
    games = [tiny_game(store, 4, game_id=f"ty-g{n}") for n in range(3)]
    truncate(store, games[2], 3)
    (store.path(games[2])).write_bytes(lines_of(store, games[2])[0][:-5] + b"\n")  # damaged
    code, output = run("head", "--all", "--ledger", str(store.root), "--json")
    noted = json.JSONDecoder().raw_decode(output)[0]["fingerprint"]  # then the warning
    assert code == 1 and noted.startswith("L3:"), output  # two games and one left out
    (store.root / "private" / "ledger-heads.jsonl").unlink()
    code, results = verified(store, noted)
    assert all(r["noted_head"] is None or r["noted_head"]["verdict"] != "unknown"
               for r in results if r["game"] != games[2]), results
    store.append(games[0], [("table", Noted(text="more"))], expected_seq=4)
    code, results = verified(store, noted)
    assert code == 1 and all(r["noted_head"]["verdict"] == "unknown" for r in results), results


def verified(store: Ledger, noted: str) -> tuple[int, list[dict]]:
    """``verify --all --head noted --json``: its exit status and results (the JSON before any
    warning line, which the test runner mixes in)."""
    code, output = run("verify", "--all", "--head", noted, "--ledger", str(store.root), "--json")
    return code, json.JSONDecoder().raw_decode(output)[0]
