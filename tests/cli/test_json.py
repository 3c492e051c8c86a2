"""Issue 15 (J): ``--json`` everywhere a script reads, errors as JSON on standard error with the
exit statuses people get, JSON Lines where rows stream, UTC times ending in ``Z``, and ``-`` for
standard input/output wherever a file is taken."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from tabletape import build_app

pytestmark = pytest.mark.smoke  # also run on the declared minimum versions (.ci/minimums)

APP = build_app()
GAME = "rs-k7pq"
ERROR_KEYS = {"error", "exit_code", "kind"}


def run(ledger: Path, *args: str, stdin: bytes | None = None) -> Result:
    """``tabletape ARGS --ledger LEDGER`` in this process; never a traceback."""
    result = CliRunner().invoke(APP, [*args, "--ledger", str(ledger)], input=stdin,
                                env={"COLUMNS": "200", "NO_COLOR": "1"})
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result


def process(ledger: Path, *args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    """``tabletape ARGS`` as a whole process (through ``main``: the fast record path, typer's own
    errors), on ``ledger``."""
    env = {**os.environ, "TABLETAPE_LEDGER": str(ledger), "COLUMNS": "200"}
    return subprocess.run([sys.executable, "-m", "tabletape", *args], input=stdin,
                          capture_output=True, env=env, check=False)


def json_error(stderr: str | bytes) -> dict[str, object]:
    """The one JSON error on standard error (and nothing else there)."""
    lines = [line for line in (stderr.decode() if isinstance(stderr, bytes) else stderr)
             .splitlines() if line.strip()]
    assert len(lines) == 1, lines
    error = json.loads(lines[0])
    assert isinstance(error, dict) and set(error) >= ERROR_KEYS, error
    return error


@pytest.fixture
def ledger(tmp_path: Path) -> Path:
    """A ledger holding one Risk Strike game, rs-k7pq, one deal recorded."""
    root = tmp_path / "ledger"
    assert run(root, "new", "risk-strike", "-p", "Olga", "-p", "Patrick", "--id", GAME,
               "--seed", "7").exit_code == 0
    assert run(root, "record", GAME, "deal", "player=olga",
               "continents=asia,asia,europe").exit_code == 0
    return root


# -- errors under --json -------------------------------------------------------------------------


@pytest.mark.parametrize(("args", "code", "kind"), [
    (["status", "rs-nope"], 2, "UnknownGameId"),
    (["record", GAME, "fly"], 2, "ActionSyntaxError"),
    (["record", GAME, "deal", "player=patrick", "continents=asia"], 1, "IllegalAction"),
    (["sql", "SELECT nope FROM games"], 2, "UsageError"),
    (["stats", "nope"], 2, "QueryRefused"),
    (["verify"], 2, "UsageError"),
])
def test_an_error_under_json_is_one_json_object_on_stderr_with_the_same_exit_status(
        ledger: Path, args: list[str], code: int, kind: str) -> None:
    before = (ledger / "games" / f"{GAME}.jsonl").read_bytes()
    person = run(ledger, *args)
    script = run(ledger, *args, "--json")
    assert person.exit_code == script.exit_code == code
    assert person.stderr.startswith("error: ")
    error = json_error(script.stderr)
    assert error["exit_code"] == code and error["kind"] == kind
    assert " ".join(person.stderr.split()) == "error: " + " ".join(str(error["error"]).split())
    assert script.stdout == ""
    assert (ledger / "games" / f"{GAME}.jsonl").read_bytes() == before


def test_after_a_json_command_errors_are_lines_for_people_again(ledger: Path) -> None:
    assert json_error(run(ledger, "status", "rs-nope", "--json").stderr)["exit_code"] == 2
    assert run(ledger, "status", "rs-nope").stderr.startswith("error: no game 'rs-nope'")


@pytest.mark.parametrize(("args", "kind"), [
    (["status", "--json"], "MissingParameter"),
    (["status", GAME, "--json", "--bogus"], "NoSuchOption"),
    (["log", GAME, "--json", "--last", "many"], "BadParameter"),
])
def test_errors_typer_finds_in_the_command_line_are_json_too(ledger: Path, args: list[str],
                                                             kind: str) -> None:
    done = process(ledger, *args)
    assert done.returncode == 2
    error = json_error(done.stderr)
    assert error == {"error": error["error"], "exit_code": 2, "kind": kind}
    assert b"Traceback" not in done.stderr and done.stdout == b""


@pytest.mark.parametrize("command", ["record", "status", "actions", "log", "undo"])
def test_each_command_a_table_types_answers_json_errors_as_a_whole_process(
        ledger: Path, command: str) -> None:
    args = [command, "rs-nope", *(["deal"] if command == "record" else []), "--json"]
    done = process(ledger, *args)
    assert done.returncode == 2 and done.stdout == b""
    assert json_error(done.stderr)["kind"] == "UnknownGameId"


def test_the_fast_record_path_answers_json_errors_alike(ledger: Path) -> None:
    slow = run(ledger, "record", GAME, "deal", "player=patrick", "continents=asia", "--json")
    fast = process(ledger, "record", GAME, "deal", "player=patrick", "continents=asia", "--json")
    assert fast.returncode == slow.exit_code == 1
    assert json_error(fast.stderr) == json_error(slow.stderr)


# -- sql, stats: --json, jsonl, times in UTC -----------------------------------------------------


def test_sql_json_is_format_json_and_times_end_in_z(ledger: Path) -> None:
    query = "SELECT game, started, recorded_at FROM games JOIN events USING (game) ORDER BY seq"
    as_json = run(ledger, "sql", query, "--json")
    assert as_json.exit_code == 0, as_json.output
    rows = json.loads(as_json.stdout)
    assert rows == json.loads(run(ledger, "sql", query, "--format", "json").stdout)
    assert [row["game"] for row in rows] == [GAME, GAME]
    assert all(row["started"].endswith("Z") and row["recorded_at"].endswith("Z") for row in rows)


def test_a_moment_in_another_zone_is_given_in_utc(ledger: Path) -> None:
    query = "SELECT TIMESTAMPTZ '2026-01-01 10:00:00+02' AS moment"
    assert json.loads(run(ledger, "sql", query, "--json").stdout) == [
        {"moment": "2026-01-01T08:00:00Z"}]


def test_sql_jsonl_is_one_row_object_a_line(ledger: Path) -> None:
    query = "SELECT seq, type, recorded_at FROM events ORDER BY seq"
    lines = run(ledger, "sql", query, "--format", "jsonl").stdout.splitlines()
    assert [json.loads(line) for line in lines] == json.loads(
        run(ledger, "sql", query, "--json").stdout)
    assert [json.loads(line)["type"] for line in lines] == ["game-started", "deal"]


def test_json_and_another_format_are_refused_as_json(ledger: Path) -> None:
    result = run(ledger, "sql", "SELECT 1", "--json", "--format", "csv")
    assert result.exit_code == 2
    assert "--format csv" in str(json_error(result.stderr)["error"])


def test_stats_json_is_format_json(ledger: Path) -> None:
    as_json = run(ledger, "stats", "lengths", "--json")
    assert as_json.exit_code == 0, as_json.output
    assert json.loads(as_json.stdout) == json.loads(
        run(ledger, "stats", "lengths", "--format", "json").stdout)
    assert json.loads(as_json.stdout)["report"] == "lengths"


def test_times_a_script_reads_end_in_z(ledger: Path) -> None:
    listed = json.loads(run(ledger, "list", "--json").stdout)
    assert listed[0]["started"].endswith("Z") and listed[0]["updated"].endswith("Z")
    assert all(row["at"].endswith("Z") for row in json.loads(run(ledger, "log", GAME,
                                                                 "--json").stdout))


def test_catalog_warnings_under_json_are_json(ledger: Path) -> None:
    other = ledger / "games" / "rs-bbbb.jsonl"
    other.write_bytes((ledger / "games" / f"{GAME}.jsonl").read_bytes().replace(b"Olga", b"Olgb"))
    result = run(ledger, "sql", "SELECT count(*) AS n FROM games", "--json")
    assert result.exit_code == 0
    warning = json.loads(result.stderr)
    assert set(warning["left_out"]) == {"rs-bbbb"} and "left out" in warning["warning"]
    assert json.loads(result.stdout) == [{"n": 1}]


# -- "-" for standard input and output ----------------------------------------------------------


def test_export_jsonl_to_stdout_is_the_log_byte_for_byte(ledger: Path) -> None:
    result = process(ledger, "export", GAME, "--jsonl", "-")
    assert result.returncode == 0
    assert result.stdout == (ledger / "games" / f"{GAME}.jsonl").read_bytes()
    assert b"Exported" in result.stderr


def test_import_from_stdin_needs_an_id_and_then_imports_the_log(ledger: Path,
                                                                tmp_path: Path) -> None:
    log = (ledger / "games" / f"{GAME}.jsonl").read_bytes()
    other = tmp_path / "other"
    refused = run(other, "import", "-", stdin=log)
    assert refused.exit_code == 2 and "--as" in refused.stderr
    done = run(other, "import", "-", "--as", "rs-copy", "--json", stdin=log)
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout)["imported"][0]["game"] == "rs-copy"
    assert (other / "games" / "rs-copy.jsonl").read_bytes() == log


def test_a_damaged_log_on_stdin_is_named_as_standard_input(ledger: Path, tmp_path: Path) -> None:
    result = run(tmp_path / "other", "import", "-", "--as", "rs-copy", stdin=b"not a log\n")
    assert result.exit_code == 1
    assert "standard input" in result.stderr
    assert not (tmp_path / "other" / "games" / "rs-copy.jsonl").exists()


def test_sql_output_dash_is_stdout(ledger: Path) -> None:
    result = run(ledger, "sql", "SELECT 1 AS one", "--format", "csv", "--output", "-")
    assert result.exit_code == 0 and result.stdout == "one\n1\n"
    assert not Path("-").exists()


def test_parquet_to_a_pipe(ledger: Path) -> None:
    result = process(ledger, "sql", "SELECT 1 AS one", "--format", "parquet", "--output", "-")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(b"PAR1") and result.stdout.endswith(b"PAR1")


@pytest.mark.parametrize("args", [
    ["export", "--parquet", "-"],
    ["export", GAME, "--jsonl", "-", "--json"],
])
def test_what_stdout_cannot_hold_is_refused(ledger: Path, args: list[str]) -> None:
    result = run(ledger, *args)
    assert result.exit_code == 2 and result.stdout == ""


def test_a_reader_that_goes_away_is_no_error(ledger: Path) -> None:
    env = {**os.environ, "TABLETAPE_LEDGER": str(ledger)}
    with subprocess.Popen([sys.executable, "-m", "tabletape", "sql",
                           "SELECT * FROM range(200000)", "--format", "jsonl"],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env) as child:
        assert child.stdout is not None and child.stderr is not None
        assert json.loads(child.stdout.readline()) == {"range": 0}
        child.stdout.close()
        stderr = child.stderr.read()
    assert b"Traceback" not in stderr and b"error" not in stderr.lower()


# -- the commands that printed only words --------------------------------------------------------


def test_repair_json_says_what_it_cut_and_where_the_backup_is(ledger: Path) -> None:
    log = ledger / "games" / f"{GAME}.jsonl"
    whole = log.read_bytes()
    log.write_bytes(whole + b'{"seq":3,"at')  # a crash mid-write: a torn last line
    cut = json.loads(run(ledger, "repair", GAME, "--json").stdout)
    assert cut["repaired"] is True and cut["events"] == 2
    assert Path(cut["backup"]).read_bytes() == whole + b'{"seq":3,"at'
    assert log.read_bytes() == whole
    again = json.loads(run(ledger, "repair", GAME, "--json").stdout)
    assert again == {"game": GAME, "repaired": False, "backup": None, "events": 2}


def test_demo_json_prints_the_game_id_only(tmp_path: Path) -> None:
    result = run(tmp_path / "ledger", "demo", "--json")
    assert result.exit_code == 0
    game = json.loads(result.stdout)["game"]
    assert (tmp_path / "ledger" / "games" / f"{game}.jsonl").exists()


def test_every_command_but_the_prompt_takes_json() -> None:
    import typer.main

    commands = typer.main.get_command(APP).commands  # type: ignore[attr-defined]
    leaves = {f"{name} {sub}": command for name, group in commands.items()
              for sub, command in getattr(group, "commands", {}).items()}  # `spark build-catalog`
    leaves.update({name: command for name, command in commands.items()
                   if not hasattr(command, "commands")})
    assert [name for name, command in leaves.items()
            if not any("--json" in param.opts for param in command.params)] == ["play"]


def test_replay_html_to_stdout_and_with_json(ledger: Path, tmp_path: Path) -> None:
    page = run(ledger, "replay", GAME, "--html", "-")
    assert page.exit_code == 0 and page.stdout.startswith("<!DOCTYPE html>")
    target = tmp_path / "game.html"
    written = run(ledger, "replay", GAME, "--html", str(target), "--json")
    assert json.loads(written.stdout) == {"game": GAME, "file": str(target)}
    assert target.read_text(encoding="utf-8") == page.stdout


def test_a_batch_under_json_names_its_refused_line_in_the_json_error(ledger: Path) -> None:
    before = (ledger / "games" / f"{GAME}.jsonl").read_bytes()
    lines = b"deal player=patrick continents=europe,europe,africa\nfly\ndeal player=olga\n"
    done = process(ledger, "record", GAME, "-", "--json", stdin=lines)
    assert done.returncode == 2
    error = json_error(done.stderr)
    assert (error["kind"], error["line"], error["recorded"]) == ("ActionSyntaxError", 2, 1)
    assert str(error["error"]).startswith("line 2: ")
    assert [json.loads(line)["line"] for line in done.stdout.splitlines()] == [1]
    assert (ledger / "games" / f"{GAME}.jsonl").read_bytes().startswith(before)
