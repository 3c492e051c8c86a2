"""``tabletape archive`` and ``tabletape delete``: a game put away stays verifiable and comes
back; a game deleted by mistake goes after a confirmation, and the ledger's head history says so."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

from tabletape.ledger import Ledger
from tests.support.cli import run, said

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def ledger(tmp_path: Path) -> list[str]:
    """A ledger of two games, ``rs-aaaa`` and ``rs-bbbb``."""
    where = ["--ledger", str(tmp_path / "ledger")]
    for game in ("rs-aaaa", "rs-bbbb"):
        code, output = run("new", "risk-strike", "--player", "ann", "--player", "bob",
                           "--id", game, *where)
        assert code == 0, output
    return where


def listed(ledger: list[str], *more: str) -> list[str]:
    code, output = run("list", "--json", *more, *ledger)
    assert code == 0, output
    return [row["game"] for row in json.loads(output)]


def in_catalog(ledger: list[str]) -> list[str]:
    code, output = run("sql", "SELECT game FROM all_games ORDER BY game", "--json", *ledger)
    assert code == 0, output
    return [row["game"] for row in json.loads(output)]


def ledger_head(ledger: list[str]) -> str:
    code, output = run("head", "--all", "--json", *ledger)
    assert code == 0, output
    return str(json.loads(output)["fingerprint"])


def test_archive_takes_a_game_out_and_restore_brings_it_back(ledger: list[str]) -> None:
    log = Path(ledger[1]) / "games" / "rs-aaaa.jsonl"
    before, head = log.read_bytes(), ledger_head(ledger)
    assert in_catalog(ledger) == ["rs-aaaa", "rs-bbbb"]
    code, output = run("archive", "rs-aaaa", "--json", *ledger)
    assert code == 0, output
    archived = json.loads(output)
    assert archived["game"] == "rs-aaaa" and archived["archived"] is True
    assert archived["seq"] == 1 and archived["head"].startswith("1:")
    assert listed(ledger) == ["rs-bbbb"]
    assert in_catalog(ledger) == ["rs-bbbb"]  # the catalog (sync) dropped it
    code, output = run("sql", "SELECT count(*) AS n FROM players", "--json", *ledger)
    assert json.loads(output) == [{"n": 2}]
    assert log.read_bytes() == before  # the log is never edited
    assert ledger_head(ledger) == head  # heads cover archived games: archiving changes none
    code, output = run("verify", "rs-aaaa", *ledger)
    assert code == 0, output
    code, output = run("verify", "--all", "--json", *ledger)
    assert code == 0 and {r["game"] for r in json.loads(output)} == {"rs-aaaa", "rs-bbbb"}
    code, output = run("list", "--archived", *ledger)
    assert code == 0 and "rs-aaaa" in output and "(archived)" in output
    rows = {row["game"]: row for row in json.loads(run("list", "--archived", "--json",
                                                       *ledger)[1])}
    assert rows["rs-aaaa"]["archived"] == archived["at"] and "archived" not in rows["rs-bbbb"]
    code, output = run("sync", *ledger)
    assert code == 0 and "gone" not in output

    code, output = run("archive", "rs-aaaa", "--restore", "--json", *ledger)
    assert code == 0, output
    assert json.loads(output)["archived"] is False
    assert listed(ledger) == ["rs-aaaa", "rs-bbbb"]
    assert in_catalog(ledger) == ["rs-aaaa", "rs-bbbb"]  # taken back by the next sync


def test_archive_errors_are_one_clear_line(ledger: list[str]) -> None:
    code, output = run("archive", "rs-aaab", *ledger)
    assert code == 2 and "did you mean 'rs-aaaa'" in said(output)
    assert run("archive", "rs-aaaa", *ledger)[0] == 0
    code, output = run("archive", "rs-aaaa", *ledger)
    assert code == 1 and "archived already" in said(output)
    assert "tabletape archive rs-aaaa --restore" in said(output)
    code, output = run("archive", "rs-aaab", "--restore", *ledger)
    assert code == 2 and "no archived game 'rs-aaab' (did you mean 'rs-aaaa'?)" in said(output)
    code, output = run("archive", "rs-bbbb", "--restore", *ledger)
    assert code == 2 and "rs-bbbb is not archived" in said(output)


def test_archived_games_stay_out_of_stats_and_exports(ledger: list[str], tmp_path: Path
                                                      ) -> None:
    assert run("archive", "rs-aaaa", *ledger)[0] == 0
    code, output = run("export", "--parquet", str(tmp_path / "pq"), "--json", *ledger)
    assert code == 0 and json.loads(output)["tables"]["games"] == 1
    code, output = run("export", "--html", str(tmp_path / "site"), "--json", *ledger)
    assert code == 0 and json.loads(output)["games"] == 1
    code, output = run("stats", "players", "--json", *ledger)
    assert code == 0 and "rs-aaaa" not in output


def test_delete_asks_and_refuses_without_a_terminal(ledger: list[str]) -> None:
    code, output = run("delete", "rs-aaaa", *ledger)  # CliRunner's stdin is no terminal
    assert code == 2 and "pass --yes" in said(output)
    assert listed(ledger) == ["rs-aaaa", "rs-bbbb"]
    code, output = run("delete", "rs-aaab", "--yes", *ledger)
    assert code == 2 and "did you mean 'rs-aaaa'" in said(output)


def test_delete_is_said_by_the_head_history(ledger: list[str]) -> None:
    assert run("archive", "rs-aaaa", *ledger)[0] == 0  # an archived game can be deleted too
    old = ledger_head(ledger)
    assert in_catalog(ledger) == ["rs-bbbb"]
    code, output = run("delete", "rs-aaaa", "--yes", "--json", *ledger)
    assert code == 0, output
    deleted = json.loads(output)
    assert deleted["game"] == "rs-aaaa" and deleted["events"] == 1
    assert deleted["ledger_head"].startswith("L1:") and deleted["ledger_head"] == ledger_head(
        ledger)
    assert listed(ledger, "--archived") == ["rs-bbbb"]
    assert not (Path(ledger[1]) / "games" / "rs-aaaa.jsonl").exists()
    assert "rs-aaaa" not in json.loads((Path(ledger[1]) / "archived.json").read_text()
                                       if (Path(ledger[1]) / "archived.json").exists() else "{}")

    code, output = run("verify", "--all", "--head", old, *ledger)
    assert code == 0, output
    assert "deleted at " + deleted["at"] in said(output) and "by this ledger" in said(output)
    assert "rewritten" not in output and "gone" not in output
    code, output = run("verify", "--all", "--head", old, "--json", *ledger)
    checks = {r["game"]: r for r in json.loads(output)}
    assert checks["rs-aaaa"]["noted_head"]["verdict"] == "deleted"
    assert checks["rs-bbbb"]["noted_head"]["verdict"] == "extends"
    code, output = run("sync", "--json", *ledger)
    assert code == 0 and json.loads(output)["gone"] == {}


def test_a_game_gone_without_delete_is_still_gone(ledger: list[str]) -> None:
    old = ledger_head(ledger)
    (Path(ledger[1]) / "games" / "rs-aaaa.jsonl").unlink()  # removed by hand: nothing says why
    code, output = run("verify", "--all", "--head", old, "--json", *ledger)
    assert code == 1
    assert {r["game"]: r["noted_head"]["verdict"] for r in json.loads(output)}["rs-aaaa"] == "gone"


def test_a_deleted_games_id_can_be_used_again(ledger: list[str]) -> None:
    assert in_catalog(ledger) == ["rs-aaaa", "rs-bbbb"]  # the catalog saw its head
    assert run("delete", "rs-aaaa", "--yes", *ledger)[0] == 0
    code, output = run("new", "risk-strike", "--player", "cat", "--player", "dan", "--id",
                       "rs-aaaa", *ledger)
    assert code == 0, output
    code, output = run("sync", "--json", *ledger)
    report = json.loads(output)
    assert code == 0 and report["problems"] == {} and report["gone"] == {}, report
    code, output = run("sql", "SELECT players FROM games WHERE game = 'rs-aaaa'", "--json",
                       *ledger)
    assert json.loads(output) == [{"players": ["cat", "dan"]}]


@pytest.mark.parametrize("stdin", ["< /dev/null", "<&-"])
def test_delete_with_no_stdin_refuses_clearly(ledger: list[str], stdin: str) -> None:
    """A script with standard input from /dev/null, or closed: one line, exit 2, no traceback."""
    command = (f"{shlex.quote(sys.executable)} -c 'import tabletape; tabletape.main()' delete "
               f"rs-aaaa --ledger {shlex.quote(ledger[1])} {stdin}")
    done = subprocess.run(["bash", "-c", command], cwd=str(ROOT), capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    assert "pass --yes" in said(done.stderr) and "Traceback" not in done.stderr
    assert "rs-aaaa" in Ledger(ledger[1]).game_ids()


@pytest.mark.parametrize(("answer", "kept"), [("n", True), ("y", False)])
def test_delete_asks_at_a_terminal(ledger: list[str], answer: str, kept: bool) -> None:
    env = {**os.environ, "TERM": "dumb", "COLUMNS": "120", "NO_COLOR": "1"}
    child = pexpect.spawn(sys.executable, ["-c", "import tabletape; tabletape.main()", "delete",
                                           "rs-aaaa", *ledger],
                          env=env, cwd=str(ROOT), encoding="utf-8", timeout=30,
                          dimensions=(40, 120))
    child.expect_exact("Delete game rs-aaaa (1 events)")
    child.expect_exact("[y/N]")
    child.sendline(answer)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == (1 if kept else 0)
    assert ("rs-aaaa" in Ledger(ledger[1]).game_ids()) is kept


def test_a_delete_killed_before_the_log_goes_leaves_the_game_whole(
        ledger: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Killed after the history says so, before the log goes: the game is all there, the
    catalog keeps it, and deleting again finishes the job."""
    log = Path(ledger[1]) / "games" / "rs-aaaa.jsonl"
    assert in_catalog(ledger) == ["rs-aaaa", "rs-bbbb"]
    unlink = Path.unlink

    def killed(path: Path, missing_ok: bool = False) -> None:
        if path == log:
            raise KeyboardInterrupt
        unlink(path, missing_ok=missing_ok)

    monkeypatch.setattr(Path, "unlink", killed)
    code, _ = run("delete", "rs-aaaa", "--yes", *ledger)  # click: Ctrl-C is "Aborted!"
    monkeypatch.undo()
    assert code != 0
    assert log.exists() and run("verify", "rs-aaaa", *ledger)[0] == 0
    assert in_catalog(ledger) == ["rs-aaaa", "rs-bbbb"]
    assert listed(ledger) == ["rs-aaaa", "rs-bbbb"]
    assert run("delete", "rs-aaaa", "--yes", *ledger)[0] == 0
    assert in_catalog(ledger) == ["rs-bbbb"]
