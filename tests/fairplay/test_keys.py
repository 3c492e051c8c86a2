"""Issue 18, second round: signing keys and receipts against hostile testers. README "Fair play:
heads no one can rewrite unnoticed": "each `sign` keeps a receipt beside your keys, so `verify`
on your machine names a log cut back, rewritten or deleted"; a signature covers the signer's name
and the game; "a key file is read only when it is a small regular file"."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tabletape.ledger import Ledger
from tabletape.ledger.codec import decode_line, sealed_record
from tabletape.ledger.events import Signed
from tests.fairplay.test_heads import key_dir, lines_of, rewrite, sign, store, tiny_game
from tests.support.cli import run, said

pytestmark = pytest.mark.smoke  # also run on the declared minimum versions (.ci/minimums)

__all__ = ["key_dir", "store"]  # fixtures used here

OTHER_UID = "018bcfe5-6800-7000-8000-0000000000ff"


def verify(store: Ledger, *args: str) -> tuple[int, str]:
    return run("verify", *args, "--ledger", str(store.root))


def verify_json(store: Ledger, *args: str) -> tuple[int, list[dict]]:
    code, output = run("verify", *args, "--ledger", str(store.root), "--json")
    return code, json.loads(output)


def flat(output: str) -> str:
    """The output without any white space: a long path wrapped is whole again."""
    return "".join(output.split())


def signed_game(store: Ledger, events: int = 6) -> str:
    game = tiny_game(store, events)
    assert run("key", "new", "olga")[0] == 0
    sign(store, game, "olga")
    return game


# -- 1. receipts belong to a game by uid or by its id in this ledger ----------------------------


@pytest.mark.parametrize("new_uid", [OTHER_UID, ""])
def test_a_rewrite_under_another_uid_is_caught_by_the_receipt(store: Ledger,
                                                              new_uid: str) -> None:
    game = signed_game(store)
    uid = store.started(game).uid
    # the whole log rewritten without the signature event, the uid changed (or deleted)
    rewrite(store, game, keep=6, rename=(f'"uid":"{uid}"', f'"uid":"{new_uid}"'))
    assert uid.encode() not in store.path(game).read_bytes()
    for args in ((game,), ("--all",)):
        code, output = verify(store, *args)
        assert code == 1 and "rewritten (its identity changed)" in said(output), output


def test_a_receipt_of_another_ledgers_game_of_the_same_id_is_not_applied(
        store: Ledger, tmp_path: Path) -> None:
    signed_game(store)
    other = Ledger(tmp_path / "other")
    game = tiny_game(other, 6)
    rewrite(other, game, keep=6, rename=(other.started(game).uid, OTHER_UID))  # the same id
    code, output = verify(other, game)
    assert code == 0, output


# -- 2. a deleted log -------------------------------------------------------------------------


@pytest.mark.slow
def test_verify_all_names_a_signed_game_whose_log_is_gone(store: Ledger) -> None:
    game = signed_game(store)
    tiny_game(store, 3, game_id="ty-kept")
    store.path(game).unlink()
    code, results = verify_json(store, "--all")
    gone = [r for r in results if r["game"] == game]
    assert code == 1 and gone and "gone from the ledger" in gone[0]["problem"], results
    assert gone[0]["signatures"][0]["from_receipt"] is True


# -- 3. the signer's name is covered --------------------------------------------------------------


def test_a_relabelled_signer_is_forged(store: Ledger) -> None:
    game = signed_game(store)
    rewrite(store, game, keep=7, rename=('"signer":"olga"', '"signer":"referee"'))
    code, results = verify_json(store, game)
    assert code == 1 and "forged" in results[0]["problem"], results
    assert not results[0]["signatures"][0]["ok"]


def test_an_older_signature_still_holds_noting_the_name_is_not_covered(store: Ledger,
                                                                      key_dir: Path) -> None:
    from tabletape.ledger.keys import load_private, raw_public
    from tabletape.ledger.signatures import signed_bytes_v1

    game = tiny_game(store, 4)
    run("key", "new", "olga")
    private = load_private(key_dir / "olga.key")
    last = store.records(game)[-1]
    signature = private.sign(signed_bytes_v1(last.seq, last.hash)).hex()  # type: ignore[attr-defined]
    store.append(game, [("table", Signed(signer="olga", public_key=raw_public(private),
                                         seq=last.seq, hash=last.hash, signature=signature))],
                 expected_seq=last.seq)
    code, results = verify_json(store, game)
    assert code == 0, results
    assert "name not covered (an older signature)" in results[0]["signatures"][0]["note"]
    code, output = verify(store, game)
    assert "warning: name not covered" in said(output)


# -- 4. a name with two keys ----------------------------------------------------------------------


def test_a_second_key_under_a_known_name_is_warned_of(store: Ledger, tmp_path: Path) -> None:
    game = signed_game(store)
    elsewhere = str(tmp_path / "mallory-keys")
    run("key", "new", "olga", "--key-dir", elsewhere)
    sign(store, game, "olga", "--key-dir", elsewhere, "--new-key")
    code, output = verify(store, game)
    assert code == 0 and "olga has signed with 2 keys" in said(output), output
    assert "--new-key" in said(output)
    code, output = run("key", "list", "--ledger", str(store.root))
    assert code == 0 and "olga has more than one key" in said(output), output
    assert f"{game}:7" in output and f"{game}:8" in output
    code, output = run("key", "list", "--ledger", str(store.root), "--json")
    rows, _ = json.JSONDecoder().raw_decode(output[output.index("["):])
    assert sorted((r["name"], r["registered"], r["keys_of_name"]) for r in rows) == [
        ("olga", True, 2), ("olga", True, 2)]


# -- 5. half-done writes --------------------------------------------------------------------------


def test_sign_refused_for_its_receipts_file_changes_nothing(store: Ledger,
                                                            key_dir: Path) -> None:
    game = tiny_game(store, 3)
    run("key", "new", "olga")
    (key_dir / "receipts.jsonl").mkdir()
    code, output = run("sign", game, "--key", "olga", "--ledger", str(store.root))
    assert code == 1 and "nothing was signed" in said(output), output
    assert len(lines_of(store, game)) == 3 and not (store.root / "keys").exists()


def test_a_refused_sign_registers_no_key(store: Ledger, monkeypatch: pytest.MonkeyPatch) -> None:
    game = tiny_game(store, 3)
    run("key", "new", "olga")

    def read_only(*_: object, **__: object) -> None:
        raise PermissionError(13, "Permission denied", str(store.path(game)))

    monkeypatch.setattr(Ledger, "append", read_only)  # a read-only log, even for root
    code, output = run("sign", game, "--key", "olga", "--ledger", str(store.root))
    assert code != 0 and not (store.root / "keys" / "olga.pub").exists(), output


@pytest.mark.parametrize("case", ["folder", "link", "stale"])
def test_key_new_writes_both_files_or_neither_never_through_a_link(
        key_dir: Path, tmp_path: Path, case: str) -> None:
    key_dir.mkdir()
    target = tmp_path / "target"
    target.write_text("precious\n")
    public = key_dir / "half.pub"
    if case == "folder":
        public.mkdir()
    elif case == "link":
        public.symlink_to(target)
    else:
        public.write_text("stale\n")
    code, output = run("key", "new", "half")
    assert code == 2 and "half" in said(output), output
    assert not (key_dir / "half.key").exists()
    assert target.read_text() == "precious\n"
    assert case != "stale" or public.read_text() == "stale\n"


# -- 6. hostile files ------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["zero", "fifo"])
def test_a_hostile_ledger_key_file_is_named_never_read(store: Ledger, kind: str) -> None:
    game = signed_game(store)
    bad = store.root / "keys" / "zz.pub"
    if kind == "zero":
        bad.symlink_to("/dev/zero")
    else:
        os.mkfifo(bad)
    code, output = verify(store, game)
    assert code == 0 and "zz.pub" in flat(output) and "warning" in output, output
    code, output = run("sign", game, "--key", "olga", "--ledger", str(store.root))
    assert code == 0 and "zz.pub" in flat(output), output


@pytest.mark.parametrize("kind", ["zero", "fifo", "big"])
def test_a_hostile_private_key_file_is_named_never_read(key_dir: Path, kind: str) -> None:
    run("key", "new", "olga")
    bad = key_dir / "z.key"
    if kind == "zero":
        bad.symlink_to("/dev/zero")
    elif kind == "fifo":
        os.mkfifo(bad)
    else:
        bad.write_bytes(b"x" * 10_000)
    code, output = run("key", "list")
    assert code == 0 and "z.key" in flat(output) and "olga" in output, output


def test_a_hostile_receipts_file_is_named(store: Ledger, key_dir: Path) -> None:
    game = tiny_game(store, 3)
    key_dir.mkdir()
    os.mkfifo(key_dir / "receipts.jsonl")
    code, output = verify(store, game)
    assert code == 0 and "receipts.jsonl" in flat(output), output


def test_receipts_written_over_are_named_not_passed_silently(store: Ledger, key_dir: Path
                                                            ) -> None:
    """A receipts file clobbered (`sql … --output keys/receipts.jsonl --force`) let a log cut
    back past a signature verify clean: lines that are not receipts are named in a warning."""
    game = signed_game(store)
    (key_dir / "receipts.jsonl").write_text("x\n1\n")
    code, output = verify(store, game)
    assert code == 0 and "2 lines of your receipts file" in said(output), output


# -- 7. log with an event that does not decode ----------------------------------------------------


@pytest.mark.parametrize(("kind", "payload"), [("sign", b'{"signer":5}'), ("note", b'{"text":5}')])
def test_log_names_an_event_that_does_not_decode(store: Ledger, kind: str,
                                                 payload: bytes) -> None:
    game = tiny_game(store, 3)
    last = decode_line(lines_of(store, game)[-1])
    line, _ = sealed_record(4, last.at, "table", kind, payload, last.hash)
    with store.path(game).open("ab") as handle:
        handle.write(line + b"\n")
    code, output = run("log", game, "--ledger", str(store.root), "--no-pager")
    assert code == 1 and "event 4" in said(output), output


# -- 8. where keys are, and who may read them -----------------------------------------------------


def test_no_home_folder_asks_for_a_key_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("TABLETAPE_KEY_DIR", "XDG_CONFIG_HOME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", "")
    code, output = run("key", "new", "olga")
    assert code == 2 and "--key-dir" in said(output) and "TABLETAPE_KEY_DIR" in said(output)


def test_weak_permissions_are_warned_of(key_dir: Path) -> None:
    run("key", "new", "olga")
    (key_dir / "olga.key").chmod(0o644)
    key_dir.chmod(0o755)
    code, output = run("key", "list")
    assert code == 0 and "chmod 600" in said(output) and "chmod 700" in said(output), output


# -- 9. messages ----------------------------------------------------------------------------------


def test_key_new_refusal_names_new_key_and_another_name(key_dir: Path) -> None:
    run("key", "new", "olga")
    code, output = run("key", "new", "olga")
    assert code == 2 and "--new-key" in said(output) and "another name" in said(output)


def test_key_new_with_a_file_in_the_way_is_bad_input(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    code, output = run("key", "new", "olga", "--key-dir", str(tmp_path / "file" / "keys"))
    assert code == 2 and output.startswith("error: "), output


def test_a_receipt_in_verify_json_says_so(store: Ledger) -> None:
    game = signed_game(store)
    rewrite(store, game, keep=6, rename=("patrick", "mallory"))
    code, results = verify_json(store, game)
    receipts = [v for v in results[0]["signatures"] if v["from_receipt"]]
    assert code == 1 and receipts and receipts[0]["at_seq"] == 0, results



def test_a_key_name_may_be_any_alphabets_letters(store: Ledger) -> None:
    """Players are Zoë or 李雷: a key may be named as the player is (one spelling, NFC)."""
    game = tiny_game(store, 4)
    for name in ("zoë", "李雷"):
        code, output = run("key", "new", name)
        assert code == 0, output
        assert sign(store, game, name)["signer"] == name
    assert run("key", "new", "zoe\u0308")[0] != 0  # zoë again, typed decomposed: there already
    code, output = verify(store, game)
    assert code == 0 and "zoë vouched" in said(output) and "李雷 vouched" in said(output)
    for bad in ("_x", "a/b", "a b", ".x"):
        code, output = run("key", "new", bad)
        assert code == 2 and "is not a key name" in said(output), (bad, output)


def test_a_key_name_in_another_case_is_one_name(store: Ledger) -> None:
    """Round 3: only Patrick.key was there; `sign --key patrick` sent the player to make a
    second key the ledger then refused. It says which key is meant; `key new` refuses the twin."""
    game = tiny_game(store, 4)
    assert run("key", "new", "Patrick")[0] == 0
    code, output = run("sign", game, "--key", "patrick", "--ledger", str(store.root))
    assert code == 2 and "did you mean Patrick?" in said(output), output
    code, output = run("key", "new", "patrick")
    assert code == 2 and "there is a key named Patrick already" in said(output), output
