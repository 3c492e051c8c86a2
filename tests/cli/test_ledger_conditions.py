"""Issue 15: a ledger that never surprises.

Every command, run against a read-only ledger, a ``--ledger`` that is a file, a ledger folder
that does not exist and a full disk, ends in one clear line (or works, for what only reads),
never a traceback, and changes nothing. Read commands never create a ledger; ``sql`` and
``stats`` answer from a catalog they cannot sync, saying so.

The read-only and full-disk cases run as the tests in ``test_os_conditions.py`` do: in a private
mount namespace (a read-only bind mount, a small tmpfs), which root can make here.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.cli.test_os_conditions import (
    in_namespace,
    one_message,
    snapshot,
    started_game,
    tabletape,
)

READ_COMMANDS = (
    ("list",), ("status", "{game}"), ("log", "{game}"), ("actions", "{game}"),
    ("verify", "{game}"), ("verify", "--all"), ("audit", "{game}"), ("audit", "--all"),
    ("replay", "{game}"), ("diff", "{game}", "--from", "seq=1", "--to", "seq=2"),
    ("export", "{game}", "--jsonl", "{out}/copy.jsonl"), ("repair", "{game}"),
)
"""Commands that only read the ledger (``{game}``: a game in it, ``{out}``: a writable folder)."""

WRITE_COMMANDS = (
    ("record", "{game}", "add", "n=1"), ("undo", "{game}"), ("redo", "{game}"),
    ("note", "{game}", "hello"), ("new", "tiny", "--player", "ann", "--player", "bob"),
    ("demo",), ("simulate", "tiny", "-n", "1", "--seed", "7"),
    ("fork", "{game}", "--at", "seq=2"), ("import", "{out}/other.jsonl", "--as", "ty-copy"),
)
"""Commands that append to a log or add a game."""

CATALOG_COMMANDS = (("sql", "SELECT count(*) AS n FROM games", "--format", "csv"),
                    ("stats", "players"), ("export", "--parquet", "{out}/parquet"))
"""Commands that read the catalog, synced first."""


def filled(command: tuple[str, ...], game: str, out: Path) -> list[str]:
    return [word.format(game=game, out=out) for word in command]


@pytest.fixture
def ledger(tmp_path: Path) -> tuple[Path, str]:
    """A ledger with a game of two actions (the second undone) and a synced catalog, plus a log
    to import in ``tmp_path/out``."""
    root = tmp_path / "ledger"
    game = started_game(root)
    for action in (["add", "n=2"], ["add", "n=1"]):
        assert tabletape("record", game, *action, ledger=root).returncode == 0
    assert tabletape("undo", game, ledger=root).returncode == 0
    assert tabletape("sync", ledger=root).returncode == 0
    out = tmp_path / "out"
    other = started_game(tmp_path / "other")
    out.mkdir()
    (out / "other.jsonl").write_bytes((tmp_path / "other" / "games" / f"{other}.jsonl")
                                      .read_bytes())
    return root, game


READ_ONLY = "mount --bind {root} {root}; mount -o remount,bind,ro {root}"


@pytest.mark.slow
def test_every_command_on_a_read_only_ledger(ledger: tuple[Path, str]) -> None:
    """What only reads works; what writes says the file system is read-only, exit 1."""
    root, game = ledger
    out = root.parent / "out"
    before = snapshot(root)
    read_only = READ_ONLY.format(root=root)
    for command in READ_COMMANDS + CATALOG_COMMANDS:
        completed = in_namespace(read_only, *filled(command, game, out), ledger=root)
        assert completed.returncode == 0, (command, completed.stderr)
    for command in WRITE_COMMANDS:
        completed = in_namespace(read_only, *filled(command, game, out), ledger=root)
        message = one_message(completed, 1, "read-only", "nothing was changed", "--ledger")
        assert ".creating" not in message and ".importing" not in message  # no scratch names
    elsewhere = in_namespace(f"{read_only}; {READ_ONLY.format(root=out)}", "export", game,
                             "--jsonl", str(out / "copy.jsonl"),
                             ledger=root)  # a file outside the ledger: no --ledger advice
    message = one_message(elsewhere, 1, "copy.jsonl", "read-only", "somewhere writable")
    assert "--ledger" not in message
    assert snapshot(root) == before


@pytest.mark.slow
def test_a_read_only_ledger_whose_catalog_is_behind_is_queried_as_it_is(
        ledger: tuple[Path, str]) -> None:
    """``sql`` and ``stats`` answer from the last sync and say so; ``sync`` says it cannot."""
    root, _game = ledger
    started_game(root)  # a game the catalog has not loaded
    before = snapshot(root)
    read_only = READ_ONLY.format(root=root)
    answered = in_namespace(read_only, "sql", "SELECT count(*) AS n FROM games", "--format",
                            "csv", ledger=root)
    assert (answered.returncode, answered.stdout) == (0, "n\n1\n"), answered.stderr
    note = " ".join(answered.stderr.split())
    assert "could not be synced (the file system is read-only)" in note
    assert "as of its last sync; 1 game changed since" in note
    stats = in_namespace(read_only, "stats", "players", ledger=root)
    assert stats.returncode == 0 and "could not be synced" in " ".join(stats.stderr.split())
    as_json = in_namespace(read_only, "sql", "SELECT count(*) AS n FROM games", "--json",
                           ledger=root)  # a script reads standard error as JSON lines too
    assert as_json.returncode == 0 and json.loads(as_json.stdout) == [{"n": 1}], as_json.stderr
    (warning,) = [json.loads(line) for line in as_json.stderr.splitlines()]
    assert "could not be synced" in warning["warning"]
    refused = one_message(in_namespace(read_only, "sync", ledger=root), 1,
                          "cannot write the catalog", "read-only", "the logs are untouched")
    assert "delete it" not in refused
    assert snapshot(root) == before


@pytest.mark.slow
def test_a_full_disk_leaves_no_half_made_catalog(ledger: tuple[Path, str], tmp_path: Path
                                                 ) -> None:
    """The catalog is built on a full disk: one line, exit 1, and no catalog file is left."""
    root, _game = ledger
    (root / "catalog.duckdb").unlink()
    mount, saved = tmp_path / "small", tmp_path / "after"
    mount.mkdir()
    saved.mkdir()
    fill = (f"mount -t tmpfs -o size=512k tmpfs {mount}; cp -a {root}/. {mount}/; "
            f"head -c 10000000 /dev/zero > {mount}/filler 2>/dev/null || true")
    keep = f"rm {mount}/filler; cp -a {mount}/. {saved}/"
    for command in (("sql", "SELECT 1"), ("stats",), ("sync",)):
        message = one_message(in_namespace(fill, *command, ledger=mount, after=keep), 1,
                              "cannot write the catalog", "the disk is full",
                              "the logs are untouched")
        assert "delete it" not in message
        assert sorted(p.name for p in saved.iterdir()) == ["games", "private"], command
        assert snapshot(saved / "games") == snapshot(root / "games")
        shutil.rmtree(saved)
        saved.mkdir()


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["missing", "file"])
def test_read_commands_never_make_a_ledger(tmp_path: Path, kind: str) -> None:
    """A mistyped ``--ledger`` is said, exit 2, and no folder appears; ``new`` makes one."""
    root = tmp_path / "ledgr"
    if kind == "file":
        root.write_text("my notes")
    says = "does not exist" if kind == "missing" else "is a file, not a ledger folder"
    out = tmp_path
    listed = tabletape("list", "--json", ledger=root)  # no games: said, not an error
    assert (listed.returncode, listed.stdout.strip()) == (0, "[]")
    assert says in " ".join(listed.stderr.split()) and str(root) in listed.stderr
    for command in READ_COMMANDS[1:] + CATALOG_COMMANDS + (("sync",),):
        words = filled(command, "ty-abcd", out)
        message = one_message(tabletape(*words, ledger=root), 2, str(root), says)
        assert ("no game 'ty-abcd'" in message) == ("ty-abcd" in words), command
    if kind == "missing":
        assert not root.exists()
        started_game(root)
        assert (root / "games").is_dir()
    else:
        assert root.read_text() == "my notes"
