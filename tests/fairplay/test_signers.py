"""Signatures' names and keys across ledgers, and receipts that stay with their ledger (README
"Fair play: heads no one can rewrite unnoticed"): an imported game's signers become known names,
names compare whatever their case, a receipt applies in its own ledger only, ``key list`` shows
your keys, a signature over a head later undone says so, and key and identity mistakes.

Split from issue 18's third round of hostile testing (the rest is in ``test_ledger_head.py``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tabletape.ledger import Ledger
from tests.fairplay.test_heads import key_dir, sign, store, tiny_game, truncate
from tests.support.cli import run, said

__all__ = ["key_dir", "store"]  # fixtures used here


# -- 1. an imported game's signers are known names -------------------------------------------------


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


# -- 2. names are compared whatever their case -----------------------------------------------------


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


# -- 3. a receipt is applied in its own ledger only ------------------------------------------------


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


# -- 4. key list with TABLETAPE_LEDGER set ---------------------------------------------------------


def test_key_list_shows_your_keys_whatever_the_ledger_variable(store: Ledger) -> None:
    game = tiny_game(store, 4)
    assert run("key", "new", "olga")[0] == 0
    sign(store, game, "olga")
    code, output = run("key", "list", "--json", env={"TABLETAPE_LEDGER": str(store.root)})
    assert code == 0 and "path" in json.loads(output)[0], output  # yours: with their files
    code, output = run("key", "list", "--ledger", str(store.root), "--json")
    assert code == 0 and "registered" in json.loads(output)[0], output


# -- 5. a signature over a head later undone -------------------------------------------------------


def test_a_signature_over_a_head_later_undone_says_so(store: Ledger) -> None:
    from tabletape.ledger.events import Retracted

    game = tiny_game(store, 6)
    assert run("key", "new", "olga")[0] == 0
    sign(store, game, "olga")
    store.append(game, [("olga", Retracted(seq=6))], expected_seq=7)
    code, output = run("verify", game, "--ledger", str(store.root))
    assert code == 0 and "seq 6 was undone at 8" in said(output), output


# -- 6. key and identity mistakes ------------------------------------------------------------------


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
