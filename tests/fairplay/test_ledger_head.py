"""Issue 18, third round of hostile testing: ledger heads that cover the games they left out,
remembered heads compared whole, signatures' names and keys across ledgers, receipts that stay
with their ledger, and `sync` under a moved log (README "Fair play: heads no one can rewrite
unnoticed")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tabletape.ledger import Ledger, Noted
from tabletape.ledger import heads as heads_module
from tabletape.ledger.heads import check_ledger, ledger_head, merkle_root
from tests.fairplay.test_heads import key_dir, lines_of, sign, store, tiny_game, truncate
from tests.support.cli import run, said

__all__ = ["key_dir", "store"]  # fixtures used here


def verify_json(store: Ledger, *args: str) -> tuple[int, list[dict]]:
    code, output = run("verify", *args, "--ledger", str(store.root), "--json")
    return code, json.loads(output)


def ledger_head_of(store: Ledger) -> tuple[int, dict]:
    code, output = run("head", "--all", "--ledger", str(store.root), "--json")
    return code, json.JSONDecoder().raw_decode(output)[0]  # warnings follow, as JSON lines


def damage(store: Ledger, game: str, line: int) -> bytes:
    """Change one byte of line ``line`` (1-based); the log as it was is returned."""
    path = store.path(game)
    before = path.read_bytes()
    lines = before.splitlines()
    lines[line - 1] = lines[line - 1].replace(b'"n":1', b'"n":2', 1)
    path.write_bytes(b"".join(x + b"\n" for x in lines))
    return before


# -- 1. a game left out of the ledger head is covered by it --------------------------------------


def test_a_game_left_out_and_later_replaced_is_unvouched(store: Ledger) -> None:
    """Tester: "A game left out of `head --all` (damaged) can later be replaced by a shorter,
    valid log, and `verify --all --head` passes it (exit 0)"."""
    tiny_game(store, 6, game_id="ty-h1")
    h2 = tiny_game(store, 8, game_id="ty-h2")
    intact = damage(store, h2, 6)
    code, head = ledger_head_of(store)
    assert code == 1 and h2 in head["left_out"], head
    store.path(h2).write_bytes(b"".join(x + b"\n" for x in intact.splitlines()[:5]))
    code, results = verify_json(store, "--all", "--head", head["fingerprint"])
    by_game = {r["game"]: r for r in results}
    assert code == 1 and by_game[h2]["noted_head"]["verdict"] == "unvouched", results
    assert "nothing vouches for it" in by_game[h2]["problem"]


def test_a_history_that_drops_a_left_out_game_no_longer_proves_itself(store: Ledger) -> None:
    tiny_game(store, 6, game_id="ty-h1")
    h2 = tiny_game(store, 8, game_id="ty-h2")
    intact = damage(store, h2, 6)
    _, head = ledger_head_of(store)
    store.path(h2).write_bytes(b"".join(x + b"\n" for x in intact.splitlines()[:5]))
    history = store.root / "private" / "ledger-heads.jsonl"
    entry = json.loads(history.read_bytes().splitlines()[-1])
    entry["left_out"] = []
    history.write_text(json.dumps(entry) + "\n")
    code, output = run("verify", "--all", "--head", head["fingerprint"], "--ledger",
                       str(store.root))
    assert code == 1 and "history does not hold it" in said(output), output


def test_a_ledger_with_no_game_left_out_keeps_its_fingerprint() -> None:
    heads = {"a": (3, "ab" * 32), "b": (5, "cd" * 32)}
    root = merkle_root({g: h for g, (_, h) in heads.items()})
    assert ledger_head(heads).root == root
    assert ledger_head(heads).fingerprint == str(heads_module.ledger_fingerprint(root, 2))
    assert ledger_head(heads, ["c"]).fingerprint.startswith("L3:")


# -- 2. a remembered head is compared whole --------------------------------------------------------


def test_a_remembered_head_is_compared_by_its_whole_hash(store: Ledger,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Two logs whose fingerprints share a code (a birthday search finds one in ~2^28 tries)
    are told apart: the history keeps the whole hash. Here every code is made equal."""
    game = tiny_game(store, 6)
    _, head = ledger_head_of(store)
    noted = heads_module.parse_fingerprint(head["fingerprint"])
    lines = lines_of(store, game)
    store.path(game).write_bytes(b"".join(x + b"\n" for x in lines[:5]))
    store.append(game, [("olga", Noted(text="other"))], expected_seq=5)
    real = heads_module.game_fingerprint
    monkeypatch.setattr(heads_module, "game_fingerprint",
                        lambda seq, _hash: real(seq, "00" * 32))
    results, unknown = check_ledger(store, noted, {})
    assert not unknown and results[0].noted_head is not None
    assert results[0].noted_head.verdict == "rewritten", results[0]


# -- 3. an imported game's signers are known names -------------------------------------------------


def imported_signed_game(store: Ledger, tmp_path: Path) -> tuple[Ledger, str, dict]:
    """olga signs a game in ``store`` (ledger A); it is imported into ledger C."""
    game = tiny_game(store, 6, game_id="rs-s")
    assert run("key", "new", "olga")[0] == 0
    sign(store, game, "olga")
    other = Ledger(tmp_path / "c")
    copy = tmp_path / "rs-s.jsonl"
    copy.write_bytes(store.path(game).read_bytes())
    code, output = run("import", str(copy), "--ledger", str(other.root), "--json")
    assert code == 0, output
    return other, game, json.loads(output)


def test_import_registers_the_keys_of_its_signatures(store: Ledger, tmp_path: Path) -> None:
    other, _, imported = imported_signed_game(store, tmp_path)
    assert list(imported["registered_keys"]) == ["olga"], imported
    assert (other.root / "keys" / "olga.pub").read_text().strip() == \
        (tmp_path / "keys" / "olga.pub").read_text().strip()


def test_an_impostor_cannot_register_a_name_that_signed_the_imported_game(
        store: Ledger, tmp_path: Path) -> None:
    """Tester: "Importing a signed game lets an impostor's first signature register its key;
    the genuine signature is then the one that fails"."""
    other, game, _ = imported_signed_game(store, tmp_path)
    (other.root / "keys" / "olga.pub").unlink()  # even with no registry: the log knows olga
    mallory = tmp_path / "mallory"
    assert run("key", "new", "olga", "--key-dir", str(mallory))[0] == 0
    code, output = run("sign", game, "--key", "olga", "--key-dir", str(mallory), "--ledger",
                       str(other.root))
    assert code == 1 and "another key for olga" in said(output), output
    code, output = run("verify", game, "--ledger", str(other.root))
    assert code == 0 and "olga vouched for seq 6" in said(output), output


def test_import_warns_of_a_signature_that_does_not_hold_here(store: Ledger,
                                                            tmp_path: Path) -> None:
    """Round 3: a game signed by another club's "olga" imported where olga has another key
    imported silently, and failed the next verify: the import says so."""
    other = Ledger(tmp_path / "c")
    tiny_game(other, 3, game_id="rs-o")
    assert run("key", "new", "olga", "--key-dir", str(tmp_path / "ours"))[0] == 0
    assert run("sign", "rs-o", "--key", "olga", "--key-dir", str(tmp_path / "ours"),
               "--ledger", str(other.root))[0] == 0  # the ledger knows our olga's key
    game = tiny_game(store, 6, game_id="rs-s")
    assert run("key", "new", "olga")[0] == 0
    sign(store, game, "olga")  # another club's olga
    copy = tmp_path / "rs-s.jsonl"
    copy.write_bytes(store.path(game).read_bytes())
    code, output = run("import", str(copy), "--ledger", str(other.root))
    assert code == 0 and "imported game rs-s: olga vouched" in said(output), output
    assert "key the ledger does not know" in said(output), output


# -- 4. names are compared whatever their case ---------------------------------------------------


@pytest.mark.parametrize("where", ["ledger", "log"])
def test_a_name_in_another_case_is_a_known_name(store: Ledger, tmp_path: Path,
                                               where: str) -> None:
    """Tester: "Olga" signs next to "olga" with no --new-key and no warning."""
    game = tiny_game(store, 6)
    assert run("key", "new", "olga")[0] == 0
    sign(store, game, "olga")
    if where == "log":
        (store.root / "keys" / "olga.pub").unlink()
    mallory = str(tmp_path / "mallory")  # another machine's key folder
    assert run("key", "new", "Olga", "--key-dir", mallory)[0] == 0
    code, output = run("sign", game, "--key", "Olga", "--key-dir", mallory,
                       "--ledger", str(store.root))
    assert code == 1 and "another key for Olga (as olga)" in said(output), output
    signed = sign(store, game, "Olga", "--new-key", "--key-dir", mallory)  # spelling kept
    assert signed["signer"] == "Olga"


# -- 5. a receipt is applied in its own ledger only -----------------------------------------------


def test_a_receipt_from_another_ledger_does_not_fail_an_earlier_copy(store: Ledger,
                                                                     tmp_path: Path) -> None:
    """Tester: "ledger B holds an imported copy of A's game; olga signs in A; `verify G
    --ledger B` → ✗ "olga's receipt … cut short"."""
    game = tiny_game(store, 6, game_id="rs-s")
    copy = tmp_path / "rs-s.jsonl"
    copy.write_bytes(store.path(game).read_bytes())
    b = tmp_path / "b"
    assert run("import", str(copy), "--ledger", str(b))[0] == 0
    assert run("key", "new", "olga")[0] == 0
    sign(store, game, "olga")
    code, output = run("verify", game, "--ledger", str(b))
    assert code == 0 and "receipt" not in output, output
    assert run("verify", "--all", "--ledger", str(b))[0] == 0


def test_receipts_follow_a_moved_ledger(store: Ledger, tmp_path: Path) -> None:
    """Tester: "once the ledger folder is moved, receipts no longer catch a deleted signed
    game; a new ledger at the old path gets a false alarm"."""
    game = tiny_game(store, 6, game_id="rs-s")
    tiny_game(store, 3, game_id="rs-t")
    assert run("key", "new", "olga")[0] == 0
    sign(store, game, "olga")
    moved = tmp_path / "moved"
    store.root.rename(moved)
    (moved / "games" / f"{game}.jsonl").unlink()
    code, output = run("verify", "--all", "--ledger", str(moved))
    assert code == 1 and "gone from the ledger (deleted)" in said(output), output
    tiny_game(Ledger(store.root), 3, game_id="rs-u")  # a new ledger at the old path
    code, output = run("verify", "--all", "--ledger", str(store.root))
    # the folder's receipts still apply (else replacing private/ledger-id would turn them
    # off, round 3), and the warning says why a new ledger here is told of a gone game
    assert code == 1 and "another identity" in said(output), output
    assert "a new ledger made where the old one was" in said(output), output


def test_a_failing_signature_event_is_not_called_cut_short_by_its_receipt(
        store: Ledger) -> None:
    game = tiny_game(store, 6)
    assert run("key", "new", "olga")[0] == 0
    sign(store, game, "olga")
    (store.root / "keys" / "olga.pub").write_text("ab" * 32 + "\n")  # another key registered
    code, output = run("verify", game, "--ledger", str(store.root))
    assert code == 1 and "key the ledger does not know" in said(output), output
    assert "cut short" not in said(output), output


# -- 6. sync: a cut copy put back under the old id ------------------------------------------------


def sync_json(store: Ledger) -> dict:
    code, output = run("sync", "--ledger", str(store.root), "--json")
    assert code in (0, 1), output
    return dict(json.JSONDecoder().raw_decode(output)[0])


def test_a_cut_copy_under_the_old_id_does_not_drop_the_intact_log(store: Ledger) -> None:
    """Tester: "putting a cut-short copy back under a game's old id also drops the intact,
    loaded log from the catalog"."""
    game = tiny_game(store, 8, game_id="ty-h1")
    assert sync_json(store)["games"] == 1
    moved = store.path(game).with_name("ty-h1r.jsonl")
    store.path(game).rename(moved)
    report = sync_json(store)
    assert report["games"] == 1 and report["new"] == 1, report
    truncate_to = moved.read_bytes().splitlines()[:5]
    store.path(game).write_bytes(b"".join(x + b"\n" for x in truncate_to))
    report = sync_json(store)
    assert report["games"] == 1 and "ty-h1r" not in report["problems"], report
    assert "ty-h1" in report["problems"] and report["vanished"] == 1, report
    assert (report["loaded"], report["new"], report["unchanged"]) == (0, 0, 1), report


# -- 7. key list with TABLETAPE_LEDGER set ---------------------------------------------------------


def test_key_list_shows_your_keys_whatever_the_ledger_variable(store: Ledger) -> None:
    game = tiny_game(store, 4)
    assert run("key", "new", "olga")[0] == 0
    sign(store, game, "olga")
    code, output = run("key", "list", "--json", env={"TABLETAPE_LEDGER": str(store.root)})
    assert code == 0 and "path" in json.loads(output)[0], output  # yours: with their files
    code, output = run("key", "list", "--ledger", str(store.root), "--json")
    assert code == 0 and "registered" in json.loads(output)[0], output


# -- 8. fingerprints pasted with the words around them ---------------------------------------------


def head_line(store: Ledger, game: str) -> str:
    code, output = run("head", game, "--ledger", str(store.root))
    assert code == 0, output
    return output.splitlines()[0]


@pytest.mark.parametrize("how", ["status", "head", "dash", "minus"])
def test_a_fingerprint_pasted_with_its_words_is_read(store: Ledger, how: str) -> None:
    """Tester: "Pasting `status`'s own line `head 6:DKW0-4W87-EE0F`, or `head`'s whole line
    ... is refused; a Unicode hyphen (U+2010..U+2015, U+2212) is refused"."""
    game = tiny_game(store, 6)
    _, output = run("head", game, "--ledger", str(store.root), "--json")
    noted = json.loads(output)["fingerprint"]
    typed = {"status": f"head {noted}", "head": head_line(store, game),
             "dash": noted.replace("-", "\u2010"), "minus": noted.replace("-", "\u2212")}[how]
    code, output = run("verify", game, "--head", typed, "--ledger", str(store.root))
    assert code == 0 and "extends" in output, (typed, output)


def test_two_fingerprints_that_differ_are_refused_and_quotes_end_at_a_word(store: Ledger) -> None:
    game = tiny_game(store, 6)
    typed = "6:46WE-2VB0-4A4P 7:GBK0-DNJF-BBSF"
    code, output = run("verify", game, "--head", typed, "--ledger", str(store.root))
    assert code == 2 and "holds 2 fingerprints that differ" in said(output), output
    code, output = run("verify", game, "--head", "nonsense " * 12, "--ledger", str(store.root))
    assert code == 2 and "nonsense nonsense…' is not a fingerprint" in said(output), output


# -- 9. a signature over a head later undone -------------------------------------------------------


def test_a_signature_over_a_head_later_undone_says_so(store: Ledger) -> None:
    from tabletape.ledger.events import Retracted

    game = tiny_game(store, 6)
    assert run("key", "new", "olga")[0] == 0
    sign(store, game, "olga")
    store.append(game, [("olga", Retracted(seq=6))], expected_seq=7)
    code, output = run("verify", game, "--ledger", str(store.root))
    assert code == 0 and "seq 6 was undone at 8" in said(output), output


# -- 10. exit codes and wording ------------------------------------------------------------------


def test_a_read_only_key_folder_is_a_failed_write(store: Ledger, key_dir: Path) -> None:
    """A failed write exits 1 (bad input is 2)."""
    import os

    game = tiny_game(store, 3)
    assert run("key", "new", "olga")[0] == 0
    key_dir.chmod(0o500)
    try:
        if os.access(key_dir, os.W_OK):
            pytest.skip("running as a user who writes anywhere")
        code, output = run("sign", game, "--key", "olga", "--ledger", str(store.root))
        assert code == 1 and "cannot be written" in said(output), output
    finally:
        key_dir.chmod(0o700)


def test_one_event_short_is_said_in_the_singular(store: Ledger) -> None:
    game = tiny_game(store, 6)
    _, output = run("head", game, "--ledger", str(store.root), "--json")
    noted = json.loads(output)["fingerprint"]
    truncate(store, game, 5)
    code, output = run("verify", game, "--head", noted, "--ledger", str(store.root))
    assert code == 1 and "1 event was never recorded here" in said(output), output


def test_head_all_says_one_game(store: Ledger) -> None:
    tiny_game(store, 3)
    code, output = run("head", "--all", "--ledger", str(store.root))
    assert code == 0 and "(1 game)" in said(output), output


def test_replacing_the_ledger_identity_does_not_turn_receipts_off(store: Ledger) -> None:
    """Round 3: a cheater who replaced (or deleted and remade) `private/ledger-id` made a cut
    signed log verify clean. Receipts made in this folder still apply, and the change is said."""
    game = tiny_game(store, 5)
    assert run("key", "new", "olga")[0] == 0
    sign(store, game, "olga")
    truncate(store, game, 5)  # the signature event cut off
    identity = store.root / "private" / "ledger-id"
    identity.write_text("01a23620-0000-7000-8000-000000000000\n")
    code, output = run("verify", game, "--ledger", str(store.root))
    assert code == 1 and "receipt" in said(output) and "another identity" in said(output), output
    store.path(game).unlink()
    code, output = run("verify", "--all", "--ledger", str(store.root))
    assert code == 1 and game in said(output), output
