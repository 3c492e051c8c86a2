"""Ledger heads and noted heads (README "Fair play: heads no one can rewrite unnoticed"): a ledger
head covers the games it left out, a remembered head is compared whole, a fingerprint pasted with
the words around it is read, and what ``head`` and ``verify`` say of a short log.

First written as issue 18's third round of hostile testing; its signers, receipts and key tests
are in ``test_signers.py``, its ``sync`` test in ``test_sync_heads.py``."""

from __future__ import annotations

import json

import pytest

from tabletape.ledger import Ledger, Noted
from tabletape.ledger import heads as heads_module
from tabletape.ledger.fingerprints import parse_fingerprint
from tabletape.ledger.heads import check_ledger, ledger_head, merkle_root
from tests.fairplay.test_heads import lines_of, store, tiny_game, truncate
from tests.support.cli import run, said

__all__ = ["store"]  # fixtures used here


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


# -- 1. a game left out of the ledger head is covered by it ----------------------------------------


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
    noted = parse_fingerprint(head["fingerprint"])
    lines = lines_of(store, game)
    store.path(game).write_bytes(b"".join(x + b"\n" for x in lines[:5]))
    store.append(game, [("olga", Noted(text="other"))], expected_seq=5)
    real = heads_module.game_fingerprint
    monkeypatch.setattr(heads_module, "game_fingerprint",
                        lambda seq, _hash: real(seq, "00" * 32))
    results, unknown = check_ledger(store, noted, {})
    assert not unknown and results[0].noted_head is not None
    assert results[0].noted_head.verdict == "rewritten", results[0]


# -- 3. fingerprints pasted with the words around them ---------------------------------------------


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


# -- 4. wording of heads ---------------------------------------------------------------------------


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


