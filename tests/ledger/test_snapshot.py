"""The ledger's snapshot read (``Ledger.verified``, ``Ledger.log_files``): what the catalog reads.

A snapshot is the whole log, its chain verified (or only past a head trusted before), with the
head it ends at; a log that no longer holds a trusted head is :class:`Rewritten`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tabletape.ledger import Damaged, GameStarted, Head, Ledger, Noted, Rewritten

STARTED = GameStarted(kind="tiny", rules_version="1", tabletape_version="0",
                      players=("olga", "patrick"))


@pytest.fixture
def store(tmp_path: Path) -> Ledger:
    return Ledger(tmp_path / "ledger")


def noted(store: Ledger, game: str, *texts: str) -> None:
    head = store.head(game)
    store.append(game, [("olga", Noted(text=text)) for text in texts], expected_seq=head.seq)


def flip_payload(store: Ledger, game: str, seq: int) -> None:
    """Change one letter of a note's text on line ``seq`` (its stated hash left as it was)."""
    path = store.path(game)
    lines = path.read_bytes().split(b"\n")
    lines[seq - 1] = lines[seq - 1].replace(b'"text":"a', b'"text":"A', 1)
    path.write_bytes(b"\n".join(lines))


def test_a_snapshot_is_the_verified_log_and_its_head(store: Ledger) -> None:
    game = store.create(STARTED)
    noted(store, game, "a1", "a2")
    snapshot = store.verified(game)
    assert snapshot.records == store.records(game)
    last = snapshot.records[-1]
    assert snapshot.head == Head(last.seq, last.hash, last.at) == store.head(game)
    assert snapshot.after(None) == snapshot.records


def test_a_snapshot_after_a_trusted_head_adds_only_the_new_records(store: Ledger) -> None:
    game = store.create(STARTED)
    noted(store, game, "a1")
    trusted = store.verified(game).head
    noted(store, game, "b1", "b2")
    snapshot = store.verified(game, holding=trusted, checked_after=True)
    assert [r.seq for r in snapshot.after(trusted)] == [3, 4]
    assert snapshot.head.seq == 4


def test_a_log_that_lost_the_trusted_head_is_rewritten(store: Ledger) -> None:
    game = store.create(STARTED)
    noted(store, game, "a1")
    gone = Head(2, "0" * 64, "")
    for checked_after in (False, True):
        with pytest.raises(Rewritten, match="no longer begins with the 2 events"):
            store.verified(game, holding=gone, checked_after=checked_after)
    with pytest.raises(Rewritten):
        store.verified(game, holding=Head(5, store.head(game).hash, ""))


def test_checked_after_trusts_the_lines_up_to_the_head_and_checks_the_rest(store: Ledger) -> None:
    game = store.create(STARTED)
    noted(store, game, "a1", "a2")
    trusted = store.verified(game).head
    noted(store, game, "b1")
    flip_payload(store, game, 2)
    with pytest.raises(Damaged, match="at event 2"):
        store.verified(game, holding=trusted)
    assert store.verified(game, holding=trusted, checked_after=True).head.seq == 4
    noted_path = store.path(game)
    noted_path.write_bytes(noted_path.read_bytes().replace(b'"text":"b1', b'"text":"B1'))
    with pytest.raises(Damaged):  # named as verify names it: the first bad line of the file
        store.verified(game, holding=trusted, checked_after=True)


def test_log_files_lists_every_log_with_its_size(store: Ledger) -> None:
    assert store.log_files() == {}
    first, second = store.create(STARTED), store.create(STARTED)
    noted(store, first, "a1")
    files = store.log_files()
    assert set(files) == {first, second}
    assert files[first].size == store.path(first).stat().st_size
    assert files[second].path == store.path(second)
