"""Operating-system conditions: each ends in one line saying what failed and what to do, exit 1
(2 for a game id that could never be a file name), never a traceback, nothing changed.

The CLI runs as the console script does, in a subprocess, under real conditions: a size limit
(``RLIMIT_FSIZE``), another user (permissions), and, where the tests run as root, a private
mount namespace holding a small tmpfs (disk full) or a read-only bind mount (read-only ledger).
"""

from __future__ import annotations

import errno
import functools
import json
import os
import resource
import shlex
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tabletape.ledger import GameStarted, Ledger
from tests.cli.test_recording import MAIN, ROOT, flat
from tests.support.cli import process
from tests.support.tinygame import Cheered


def tabletape(*args: str, ledger: Path, **popen: object) -> subprocess.CompletedProcess[str]:
    """``tabletape ARGS`` with ``ledger`` as a person runs it; asserts no traceback."""
    return process(*args, ledger=ledger, **popen)


def one_message(completed: subprocess.CompletedProcess[str], code: int, *says: str) -> str:
    """The error output, checked: the exit code, one ``error:`` line, the words expected."""
    message = flat(completed.stderr)
    assert completed.returncode == code, (completed.returncode, completed.stderr)
    assert completed.stderr.count("error:") == 1, completed.stderr
    for words in says:
        assert words in message, message
    return message


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` and its bytes: "nothing changed" is this staying equal."""
    return {str(p.relative_to(root)): p.read_bytes()
            for p in sorted(root.rglob("*")) if p.is_file() and not p.is_symlink()}


def started_game(ledger: Path, *extra: str) -> str:
    created = tabletape("new", "tiny", "--player", "ann", "--player", "bob", *extra, "--json",
                        ledger=ledger)
    assert created.returncode == 0, created.stderr
    return json.loads(created.stdout)["game"]


# -- conditions any user can create ---------------------------------------------------------------


@pytest.mark.slow
def test_a_ledger_that_is_a_file(tmp_path: Path) -> None:
    ledger = tmp_path / "notes.txt"
    ledger.write_text("not a ledger")
    one_message(tabletape("new", "tiny", "--player", "ann", "--player", "bob", ledger=ledger),
                1, "notes.txt", "not a folder")
    one_message(tabletape("record", "ty-abcd", "add", "n=1", ledger=ledger), 2, "no game")
    assert ledger.read_text() == "not a ledger"


def test_a_game_id_longer_than_a_file_name_may_be(tmp_path: Path) -> None:
    message = one_message(tabletape("new", "tiny", "--player", "ann", "--player", "bob",
                                    "--id", "x" * 300, ledger=tmp_path), 2, "game id")
    assert "at most" in message and "x" * 300 not in message
    assert not (tmp_path / "games").exists() or not list((tmp_path / "games").iterdir())


@pytest.mark.slow
@pytest.mark.parametrize("intruder", ["folder", "dangling link"])
def test_a_stray_entry_in_games_names_itself_and_spoils_nothing_else(
        tmp_path: Path, intruder: str) -> None:
    game = started_game(tmp_path)
    stray = tmp_path / "games" / "zz-stray.jsonl"
    if intruder == "folder":
        stray.mkdir()
    else:
        stray.symlink_to(tmp_path / "gone.jsonl")
    listed = tabletape("list", "--json", ledger=tmp_path)
    assert listed.returncode == 0, listed.stderr
    rows = {row["game"]: row for row in json.loads(listed.stdout)}
    assert rows[game]["damaged"] == "" and rows[game]["events"] == 1
    assert "zz-stray" in rows and rows["zz-stray"]["damaged"]
    checked = tabletape("verify", "--all", "--json", ledger=tmp_path)
    assert checked.returncode == 1
    results = {row["game"]: row for row in json.loads(checked.stdout)}
    assert results[game]["ok"] and not results["zz-stray"]["ok"]
    assert intruder.split()[-1] in results["zz-stray"]["problem"]
    one_message(tabletape("record", "zz-stray", "cheer", "by=ann", ledger=tmp_path), 1,
                "zz-stray", intruder.split()[-1])


@pytest.mark.slow
def test_a_file_size_limit_refuses_the_append_and_changes_nothing(tmp_path: Path) -> None:
    game = started_game(tmp_path)
    log = tmp_path / "games" / f"{game}.jsonl"
    before = log.read_bytes()
    limit = len(before) + 20  # the next line is longer than this
    set_limit = functools.partial(resource.setrlimit, resource.RLIMIT_FSIZE, (limit, limit))
    one_message(tabletape("record", game, "add", "n=1", ledger=tmp_path, preexec_fn=set_limit),
                1, "size limit")
    assert log.read_bytes() == before


# -- conditions only root can create --------------------------------------------------------------


def without_file_permission_override(*args: str, ledger: Path
                                     ) -> subprocess.CompletedProcess[str]:
    """tabletape ARGS as root without the capabilities that let root ignore file permissions."""
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        pytest.skip("needs root and setpriv to drop the permission-override capabilities")
    caps = "-dac_override,-dac_read_search,-fowner"
    env = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1", "TABLETAPE_LEDGER": str(ledger)}
    completed = subprocess.run(["setpriv", "--bounding-set", caps, "--inh-caps", caps,
                                sys.executable, "-c", MAIN, *args], cwd=ROOT, env=env,
                               capture_output=True, text=True, timeout=60, check=False)
    assert "Traceback" not in completed.stdout + completed.stderr, completed.stderr
    return completed


@pytest.mark.slow
def test_a_ledger_without_write_permission_changes_nothing(tmp_path: Path) -> None:
    """As any user whose ledger folder and logs are read-only to them (chmod a-w)."""
    ledger = tmp_path / "ledger"
    game = started_game(ledger)
    log = ledger / "games" / f"{game}.jsonl"
    log.chmod(0o444)
    for folder in (ledger, ledger / "games"):
        folder.chmod(0o555)
    before = snapshot(ledger)
    try:
        one_message(without_file_permission_override("record", game, "add", "n=1",
                                                     ledger=ledger), 1, "permission", "--ledger")
        one_message(without_file_permission_override(
            "new", "tiny", "--player", "ann", "--player", "bob", ledger=ledger), 1, "permission")
        log.chmod(0o000)
        one_message(without_file_permission_override("status", game, ledger=ledger), 1,
                    "permission")
        log.chmod(0o444)
        assert snapshot(ledger) == before
    finally:
        for folder in (ledger, ledger / "games"):
            folder.chmod(0o755)


@functools.cache
def namespaces_work() -> str:
    """Why the mount tests cannot run here, or ``""``."""
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        return "needs root and unshare for a private tmpfs or read-only mount"
    probe = subprocess.run(["unshare", "-m", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt"],
                           capture_output=True, check=False)
    return "" if probe.returncode == 0 else "cannot mount in a private namespace here"


def in_namespace(setup: str, *args: str, ledger: Path, after: str = ""
                 ) -> subprocess.CompletedProcess[str]:
    """Run ``setup`` (shell) in a private mount namespace, then tabletape ARGS, then ``after``."""
    if namespaces_work():
        pytest.skip(namespaces_work())
    command = shlex.join([sys.executable, "-c", MAIN, *args])
    script = f"set -e; {setup}; set +e; {command}; status=$?; {after or 'true'}; exit $status"
    env = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1", "TABLETAPE_LEDGER": str(ledger)}
    completed = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c", script],
                               cwd=ROOT, env=env, capture_output=True, text=True, timeout=60,
                               check=False)
    assert "Traceback" not in completed.stdout + completed.stderr, completed.stderr
    return completed


@pytest.mark.slow
def test_a_full_disk_refuses_the_append_and_the_new_game(tmp_path: Path) -> None:
    source = tmp_path / "source"
    game = started_game(source)
    store = Ledger(source)  # the log's last page is nearly full: an append needs another page
    while 4096 - store.path(game).stat().st_size % 4096 > 150:
        store.append(game, [("ann", Cheered())], expected_seq=store.head(game).seq)
    store.close()
    mount, saved = tmp_path / "small", tmp_path / "after"
    mount.mkdir()
    saved.mkdir()
    fill = (f"mount -t tmpfs -o size=128k tmpfs {mount}; cp -a {source}/. {mount}/; "
            f"head -c 1000000 /dev/zero > {mount}/filler 2>/dev/null || true")
    keep = f"cp -a {mount}/games/. {saved}/"
    full = in_namespace(fill, "record", game, "add", "n=1", ledger=mount, after=keep)
    one_message(full, 1, "disk is full")
    assert (saved / f"{game}.jsonl").read_bytes() == (source / "games" / f"{game}.jsonl"
                                                       ).read_bytes()
    shutil.rmtree(saved)
    saved.mkdir()
    full = in_namespace(fill, "new", "tiny", "--player", "ann", "--player", "bob", "--id",
                        "ty-full", ledger=mount, after=keep)
    one_message(full, 1, "disk is full")
    assert sorted(p.name for p in saved.iterdir()) == [f"{game}.jsonl"]


@pytest.mark.slow
def test_a_read_only_ledger_changes_nothing(tmp_path: Path) -> None:
    ledger = tmp_path / "ledger"
    game = started_game(ledger)
    export = tmp_path / "copy.jsonl"
    shutil.copy(tmp_path / "other" / "games" / f"{started_game(tmp_path / 'other')}.jsonl",
                export)
    before = snapshot(ledger)
    read_only = f"mount --bind {ledger} {ledger}; mount -o remount,bind,ro {ledger}"
    for args in (["record", game, "add", "n=1"], ["undo", game],
                 ["new", "tiny", "--player", "ann", "--player", "bob"],
                 ["import", str(export), "--as", "ty-copy"], ["repair", game]):
        completed = in_namespace(read_only, *args, ledger=ledger)
        if args[0] == "undo":  # nothing to undo yet is said before anything is written
            assert completed.returncode == 1
            continue
        if args[0] == "repair":  # nothing to repair: a read-only ledger is fine to look at
            assert completed.returncode == 0, completed.stderr
            continue
        one_message(completed, 1, "read-only")
    assert snapshot(ledger) == before
    assert stat.S_ISDIR((ledger / "games").stat().st_mode)


@pytest.mark.slow
def test_queries_work_on_a_read_only_ledger_whose_catalog_is_current(tmp_path: Path) -> None:
    """Issue 12: ``sql`` and ``stats`` open the catalog for writing only when there is something
    to sync; on a read-only ledger whose catalog is current they answer, and change nothing."""
    ledger = tmp_path / "ledger"
    game = started_game(ledger)
    for _ in range(4):  # 12 of a target of 10: a finished game, so stats has a row
        assert tabletape("record", game, "add", "n=3", ledger=ledger).returncode == 0
    assert tabletape("sync", ledger=ledger).returncode == 0
    before = snapshot(ledger)
    read_only = f"mount --bind {ledger} {ledger}; mount -o remount,bind,ro {ledger}"
    answered = in_namespace(read_only, "sql", "SELECT count(*) AS n, max(head_seq) AS head "
                            "FROM games", "--format", "csv", ledger=ledger)
    # 5 events, then the table's secret-revealed (the game ended)
    assert (answered.returncode, answered.stdout) == (0, "n,head\n1,6\n"), answered.stderr
    stats = in_namespace(read_only, "stats", "players", ledger=ledger)
    assert stats.returncode == 0 and "bob" in stats.stdout, stats.stdout + stats.stderr
    assert snapshot(ledger) == before


# -- nothing half-made: a command that fails after starting a game leaves no game -----------------


@pytest.fixture
def full_disk_for_big_writes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Writes of more than one short line fail as on a full disk (a game-started line fits)."""
    real_write = os.write

    def write(fd: int, data: bytes) -> int:
        if len(data) > 1500:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", write)


def cli_run(root: Path, *args: str) -> tuple[int, str]:
    from typer.testing import CliRunner

    import tabletape as tabletape_module

    result = CliRunner().invoke(tabletape_module.build_app(), [*args, "--ledger", str(root)],
                                env={"COLUMNS": "200", "NO_COLOR": "1"})
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, flat(result.output)


def test_a_simulation_that_fails_leaves_no_game(tmp_path: Path,
                                                full_disk_for_big_writes: None) -> None:
    code, output = cli_run(tmp_path, "simulate", "tiny", "-n", "1", "-o", "target=60")
    assert code == 1 and "disk is full" in output
    assert Ledger(tmp_path).game_ids() == []
    assert not (tmp_path / "games").exists() or not list((tmp_path / "games").iterdir())


def test_a_fork_that_fails_leaves_no_game(tmp_path: Path, full_disk_for_big_writes: None
                                          ) -> None:
    store = Ledger(tmp_path)
    game = started_game(tmp_path, "--option", "target=60")
    for _ in range(8):
        store.append(game, [("ann", Cheered(words="hip hip " * 20))],
                     expected_seq=store.head(game).seq)
    store.close()
    code, output = cli_run(tmp_path, "fork", game, "--at", "seq=9", "--id", "ty-what-if")
    assert code == 1 and "disk is full" in output
    assert Ledger(tmp_path).game_ids() == [game]
    assert sorted(p.name for p in (tmp_path / "games").iterdir()) == [f"{game}.jsonl"]


def test_a_demo_that_fails_half_way_leaves_no_game(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The disk fills up after the demo's tenth write: no half-recorded demo game is left."""
    real_write, writes = os.write, []

    def write(fd: int, data: bytes) -> int:
        writes.append(len(data))
        if len(writes) >= 10:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", write)
    code, output = cli_run(tmp_path, "demo")
    assert code == 1 and "disk is full" in output
    assert Ledger(tmp_path).game_ids() == []


# -- a platform without POSIX file locks (Windows) ------------------------------------------------

HIDE_FCNTL = "import sys; sys.modules['fcntl'] = None; "
"""Put before :data:`MAIN`: ``import fcntl`` then fails as it does where there is none."""


STARTED = GameStarted(kind="tiny", rules_version="1", tabletape_version="0",
                      players=("ann", "bob"))


def without_fcntl(*args: str, ledger: Path) -> subprocess.CompletedProcess[str]:
    """``tabletape ARGS`` as on a platform with no ``fcntl``; asserts no traceback."""
    env = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1", "TABLETAPE_LEDGER": str(ledger)}
    completed = subprocess.run([sys.executable, "-c", HIDE_FCNTL + MAIN, *args], cwd=ROOT,
                               env=env, capture_output=True, text=True, timeout=60, check=False)
    assert "Traceback" not in completed.stdout + completed.stderr, completed.stderr
    return completed


def test_without_file_locks_the_ledger_refuses_instead_of_locking_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tabletape.ledger.store import NoFileLocks

    game = started_game(tmp_path)
    log = tmp_path / "games" / f"{game}.jsonl"
    before = log.read_bytes()
    monkeypatch.setitem(sys.modules, "fcntl", None)
    store = Ledger(tmp_path)
    with pytest.raises(NoFileLocks, match="no POSIX file locks"):
        store.append(game, [("ann", Cheered(words="hip"))], expected_seq=1)
    with pytest.raises(NoFileLocks):
        list(store.read(game))
    with pytest.raises(NoFileLocks):
        store.create(STARTED)
    store.close()
    assert log.read_bytes() == before


def test_without_file_locks_a_command_says_so_in_one_line(tmp_path: Path) -> None:
    game = started_game(tmp_path)
    log = tmp_path / "games" / f"{game}.jsonl"
    before = log.read_bytes()
    one_message(without_fcntl("record", game, "add", "n=1", ledger=tmp_path), 1,
                "no POSIX file locks (fcntl)", "Linux, macOS")
    one_message(without_fcntl("new", "tiny", "--player", "ann", "--player", "bob",
                              ledger=tmp_path), 1, "no POSIX file locks")
    assert log.read_bytes() == before
    assert sorted(p.name for p in (tmp_path / "games").iterdir()) == [f"{game}.jsonl"]
