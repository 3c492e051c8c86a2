"""Issue 16 (F): ``tabletape schema`` publishes JSON Schema for the log line, each game's event
payloads and every ``--json`` output; real logs and the real output of every command validate
against them, and what is not our shape does not."""

from __future__ import annotations

import copy
import errno
import functools
import io
import json
import os
import subprocess
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
import typer.main
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from rich.console import Console
from typer.testing import CliRunner, Result

from tabletape import build_app
from tabletape.ledger import Ledger
from tabletape.queries.json_schemas import build, dumps, schema_file, schema_names
from tabletape.queries.shapes import commands_described
from tabletape.replay.demo import run_demo
from tabletape.replay.parts import game_part
from tabletape.rules.registry import manifests

APP = build_app()
GAME = "rs-k7pq"
KINDS = ("risk-strike", "marvel-united", "risk-deep-space", "risk-transformers")


def run(ledger: Path | None, *args: str, stdin: str | None = None) -> Result:
    """``tabletape ARGS [--ledger LEDGER]`` in this process; never a traceback."""
    where = ["--ledger", str(ledger)] if ledger is not None else []
    result = CliRunner().invoke(APP, [*args, *where], input=stdin,
                                env={"COLUMNS": "200", "NO_COLOR": "1"})
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result


@functools.cache
def validator(name: str) -> Draft202012Validator:
    """A validator of schema ``name`` (checked to be a valid schema), checking formats too."""
    schema = build(name)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)


def problems(name: str, document: Any) -> list[str]:
    """Why ``document`` does not fit schema ``name`` (empty when it does), with the reasons
    each branch of a ``oneOf`` gave."""
    return [f"{list(error.absolute_path)}: {error.message}"
            for error in flat(validator(name).iter_errors(document))]


def flat(errors: Iterable[ValidationError]) -> Iterator[ValidationError]:
    """Each error and, depth first, those of its ``oneOf`` branches."""
    for error in errors:
        yield error
        yield from flat(error.context or ())


def output(name: str, result: Result, *, code: int = 0) -> Any:
    """The ``--json`` output of ``result``, checked against ``outputs/<name>``."""
    assert result.exit_code == code, result.output
    document = json.loads(result.stdout)
    assert problems(f"outputs/{name}", document) == []
    return document


def error_line(result: Result, code: int) -> dict[str, Any]:
    """The JSON error on standard error, checked against ``outputs/error``."""
    assert result.exit_code == code
    (line,) = [line for line in result.stderr.splitlines() if line.strip()]
    document = json.loads(line)
    assert problems("outputs/error", document) == []
    return dict(document)


# -- real logs -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A ledger with every shipped game's demo and seeded bot games of every kind (2 and 3
    players), and the test game's bot games."""
    root = tmp_path_factory.mktemp("world") / "ledger"
    for kind in KINDS:  # the demos recorded as played games (`demo`'s own are not exported)
        run_demo(Ledger(root), Console(file=io.StringIO()), kind, marked=False)
        for players in ("2", "3"):
            assert run(root, "simulate", kind, "--games", "2", "--seed", f"16{players}",
                       "--players", players, "--json").exit_code == 0
    assert run(root, "simulate", "tiny", "--games", "2", "--json").exit_code == 0
    return root


def log_lines(ledger: Path) -> list[tuple[str, dict[str, Any]]]:
    """Every line of every log in ``ledger``, with its game's kind."""
    lines = []
    for path in sorted((ledger / "games").glob("*.jsonl")):
        records = [json.loads(line) for line in path.read_bytes().splitlines()]
        lines += [(records[0]["payload"]["kind"], record) for record in records]
    return lines


@pytest.mark.slow
def test_every_line_of_demo_and_simulated_logs_fits_the_envelope_and_its_games_events(
        world: Path) -> None:
    lines = log_lines(world)
    kinds = {kind for kind, _ in lines}
    assert kinds == {*KINDS, "tiny"}
    types = {(kind, line["type"]) for kind, line in lines}
    assert len(types) > 40  # many event types of every game were seen, not one per game
    for kind, line in lines:
        assert problems("log-line", line) == [], line
        assert problems(f"events/{kind}", line) == [], line


@pytest.mark.slow  # the world of every game's demo and bot games
def test_every_game_with_a_demo_has_one_in_the_world(world: Path) -> None:
    demos = {kind for kind in manifests() if game_part(kind, "demo") is not None}
    assert demos <= set(KINDS)


def a_line(world: Path, kind: str, type_: str) -> dict[str, Any]:
    """A copy of the first stored line of ``type_`` in a ``kind`` game."""
    return copy.deepcopy(next(line for k, line in log_lines(world) if k == kind
                              and line["type"] == type_))


@pytest.mark.parametrize(("change", "why"), [
    (lambda line: line.pop("prev"), "'prev' is a required property"),
    (lambda line: line.pop("hash"), "'hash' is a required property"),
    (lambda line: line.update(seq="2"), "is not of type 'integer'"),
    (lambda line: line.update(seq=0), "less than the minimum of 1"),
    (lambda line: line.update(at="2026-11-29 14:57"), "does not match"),
    (lambda line: line.update(hash="abc"), "does not match"),
    (lambda line: line.update(more=0), "less than the minimum of 1"),
    (lambda line: line.update(signed="olga"), "Additional properties"),
    (lambda line: line.update(payload=[]), "is not of type 'object'"),
])
@pytest.mark.slow
def test_a_line_that_is_not_a_log_line_fails_both_schemas(world: Path, change: Any,
                                                          why: str) -> None:
    line = a_line(world, "risk-strike", "attack")
    change(line)
    for name in ("log-line", "events/risk-strike"):
        found = problems(name, line)
        assert found and any(why in problem for problem in found), found


@pytest.mark.parametrize(("change", "why"), [
    (lambda line: line.update(type="fly"), "'fly' is not one of"),
    (lambda line: line["payload"].pop("target"), "'target' is a required property"),
    (lambda line: line["payload"].update(target=3), "3 is not of type 'string'"),
    (lambda line: line["payload"].update(dice=[6]), "Additional properties"),
    (lambda line: line.update(type="roll"), "is not valid under any"),  # an attack's payload
])
def test_a_payload_that_is_not_its_events_fails_the_games_schema(world: Path, change: Any,
                                                                 why: str) -> None:
    line = a_line(world, "risk-strike", "attack")
    change(line)
    found = problems("events/risk-strike", line)
    assert any(why in text for text in found), found


def test_the_first_lines_payload_is_described_field_by_field(world: Path) -> None:
    line = a_line(world, "marvel-united", "game-started")
    line["payload"]["players"] = "Olga, Patrick"
    assert any("is not of type 'array'" in p for p in problems("events/marvel-united", line))
    schema = build("events/marvel-united")
    started = schema["$defs"]["GameStarted"]["properties"]
    assert "seat order" in started["players"]["description"]  # from the attribute docstring


# -- every --json output ---------------------------------------------------------------------------


@pytest.fixture
def game(tmp_path: Path) -> Path:
    """A ledger with one Risk Strike game, rs-k7pq, into its first turn."""
    root = tmp_path / "ledger"
    assert run(root, "new", "risk-strike", "-p", "Olga", "-p", "Patrick", "--id", GAME,
               "--seed", "7").exit_code == 0
    for action in ("deal player=olga continents=asia,asia,europe",
                   "deal player=patrick continents=europe,europe,africa",
                   "roll-off dice=6,2", "deal player=patrick continents=africa",
                   "draw continents=asia tactics=1"):
        assert run(root, "record", GAME, *action.split()).exit_code == 0
    return root


def test_recording_outputs_fit_their_schemas(tmp_path: Path, game: Path) -> None:
    made = output("new", run(tmp_path / "other", "new", "marvel-united", "-p", "Olga", "-p",
                                 "Patrick", "--json"))
    assert made["game"].startswith("mu-")
    recorded = output("record", run(game, "record", GAME, "attack", "from=asia",
                                     "target=europe", "--json"))
    assert recorded["type"] == "attack" and recorded["status"]["players"]
    undone = output("undo", run(game, "undo", GAME, "by=olga", "--json"))
    assert undone["undone"] == recorded["seq"]
    redone = output("redo", run(game, "redo", GAME, "--json"))
    assert redone["redone"] == recorded["seq"]
    output("actions", run(game, "actions", GAME, "--json"))
    output("note", run(game, "note", GAME, "a call", "--at", "seq=3", "--json"))
    status = output("status", run(game, "status", GAME, "--json"))
    assert {"coins", "lineup"} <= set(status)  # the game's own keys: allowed by the open shape
    output("log", run(game, "log", GAME, "--json"))
    output("log", run(game, "log", GAME, "--last", "2", "--json"))


def test_each_line_of_a_batch_fits_the_record_lines_schema(game: Path) -> None:
    lines = "attack from=asia target=europe\nundo\nredo\n"
    result = run(game, "record", GAME, "-", "--json", stdin=lines)
    assert result.exit_code == 0, result.output
    shown = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["line"] for line in shown] == [1, 2, 3]
    for line in shown:
        assert problems("outputs/record-lines", line) == []
    refused = run(game, "record", GAME, "-", "--json", stdin="deploy troops=0\nfly\n")
    error = error_line(refused, 2)
    assert (error["line"], error["recorded"]) == (2, 1)


def test_replay_outputs_fit_their_schemas(game: Path, tmp_path: Path) -> None:
    output("replay", run(game, "replay", GAME, "--at", "seq=3", "--json"))
    output("replay-narrate", run(game, "replay", GAME, "--narrate", "--json"))
    output("replay-html", run(game, "replay", GAME, "--html", str(tmp_path / "g.html"),
                              "--json"))
    output("diff", run(game, "diff", GAME, "--from", "start", "--to", "end", "--json"))
    forked = output("fork", run(game, "fork", GAME, "--at", "seq=4", "--json"))
    assert forked["parent"] == GAME
    output("audit", run(game, "audit", GAME, "--json"))
    audits = output("audit", run(game, "audit", "--all", "--json"))
    assert isinstance(audits, list) and len(audits) == 2


@pytest.mark.slow
def test_ledger_outputs_fit_their_schemas(world: Path, tmp_path: Path) -> None:
    kinds = output("games", run(None, "games", "--json"))
    assert {kind["kind"] for kind in kinds} >= set(KINDS)
    output("list", run(world, "list", "--json"))
    output("verify", run(world, "verify", "--all", "--json"))
    output("audit", run(world, "audit", "--all", "--json"))
    scratch = tmp_path / "scratch"
    output("demo", run(scratch, "demo", "--game", "deep-space", "--json"))
    simulated = output("simulate", run(scratch, "simulate", "rs", "--games", "2", "--json"))
    assert len(simulated["games"]) == 2


@pytest.mark.slow
def test_query_outputs_fit_their_schemas(world: Path, tmp_path: Path) -> None:
    output("sync", run(world, "sync", "--json"))
    output("sql", run(world, "sql", "SELECT * FROM all_games", "--json"))
    rows = run(world, "sql", "SELECT game, players, started FROM all_games", "--format",
               "jsonl")
    assert rows.exit_code == 0 and rows.stdout.count("\n") > 10
    for row in rows.stdout.splitlines():
        assert problems("outputs/sql-jsonl", json.loads(row)) == []
    every = output("stats", run(world, "stats", "--include-simulated", "--json"))
    assert isinstance(every, list) and len(every) > 3
    output("stats", run(world, "stats", "dice", "--include-simulated", "--format", "json"))
    game_id = json.loads(run(world, "list", "--json").stdout)[0]["game"]
    log = tmp_path / "one.jsonl"
    output("export", run(world, "export", game_id, "--jsonl", str(log), "--json"))
    output("export", run(world, "export", "--parquet", str(tmp_path / "pq"), "--json"))
    imported = output("import", run(tmp_path / "other", "import", str(log), "--json"))
    assert imported["imported"][0]["events"] > 1
    again = output("import", run(tmp_path / "other", "import", str(log), "--json"), code=1)
    assert str(log) in again["refused"]


def warnings(result: Result) -> list[dict[str, Any]]:
    """The JSON warnings on standard error, each checked against ``outputs/warning``."""
    found = [json.loads(line) for line in result.stderr.splitlines() if line.strip()]
    for warning in found:
        assert problems("outputs/warning", warning) == []
    return found


@pytest.mark.slow
def test_apps_exports_fit_the_export_schema(world: Path, tmp_path: Path) -> None:
    finished = [row["game"] for row in json.loads(run(world, "list", "--json").stdout)
                if json.loads(run(world, "status", row["game"], "--json").stdout)["finished"]
                and not row["game"].split("-")[-1].isdigit()]  # a demo, not a bot game
    assert finished
    plays = run(world, "export", "--bgstats", str(tmp_path / "plays.bgsplay"), "--json")
    written = output("export", plays)
    assert set(written["plays"]) == set(finished) and written["left_out"]
    assert warnings(plays) and all("warning" in warning for warning in warnings(plays))
    output("export", run(world, "export", finished[0], "--bgg-xml", str(tmp_path / "p.xml"),
                         "--json"))
    link = output("export", run(world, "export", finished[0], "--bgstats-link", "--json"))
    assert link["app_link"].startswith("bgstats://")  # was `link`: now the https form (issue 27)
    assert link["link"].startswith("https://app.bgstatsapp.com/createPlay.html?data=")


def test_damaged_logs_are_said_in_shapes_that_fit(game: Path) -> None:
    path = game / "games" / f"{GAME}.jsonl"
    path.write_bytes(path.read_bytes().replace(b'"europe","europe"', b'"europe","asia"', 1))
    listed = output("list", run(game, "list", "--json"))
    assert listed[0]["damaged"] and listed[0]["first_bad_seq"] == 3
    output("verify", run(game, "verify", GAME, "--json"), code=1)
    rows = output("log", run(game, "log", GAME, "--json"), code=1)
    assert [row["verified"] for row in rows][2:] == [False] * (len(rows) - 2)
    output("audit", run(game, "audit", GAME, "--json"), code=1)
    warned = run(game, "sql", "SELECT count(*) AS n FROM games", "--json")
    assert warned.exit_code == 0
    assert set(warnings(warned)[0]["left_out"]) == {GAME}
    assert error_line(run(game, "repair", GAME, "--json"), 1)["kind"] == "Refused"


def test_repair_output_fits_its_schema(game: Path) -> None:
    path = game / "games" / f"{GAME}.jsonl"
    path.write_bytes(path.read_bytes() + b'{"seq":9,"a')  # a torn last line
    assert output("repair", run(game, "repair", GAME, "--json"))["repaired"] is True
    assert output("repair", run(game, "repair", GAME, "--json"))["repaired"] is False


@pytest.mark.parametrize(("args", "code"), [
    (["status", "rs-nope"], 2),
    (["record", GAME, "fly"], 2),
    (["record", GAME, "attack", "from=europe", "target=asia"], 1),
    (["sql", "DROP TABLE games"], 2),
    (["verify"], 2),
])
def test_errors_under_json_fit_the_error_schema(game: Path, args: list[str], code: int) -> None:
    result = run(game, *args, "--json")
    assert result.stdout == ""
    error_line(result, code)


def test_the_schema_commands_own_errors_fit_the_error_schema() -> None:
    assert error_line(run(None, "schema", "stauts", "--json"), 2)["kind"] == "UnknownSchema"


@pytest.mark.slow
def test_every_status_and_plot_of_every_game_fits_its_shape(world: Path) -> None:
    for row in json.loads(run(world, "list", "--json").stdout):
        status = output("status", run(world, "status", row["game"], "--json"))
        assert status["kind"] == row["kind"]
        series = output("plot", run(world, "plot", row["game"], "--json"))
        assert series["game"] == row["game"]


def test_a_board_picture_written_fits_its_schema(world: Path, tmp_path: Path) -> None:
    games = [row["game"] for row in json.loads(run(world, "list", "--json").stdout)
             if row["kind"] == "risk-deep-space"]
    picture = tmp_path / "board.svg"
    written = output("status-picture", run(world, "status", games[0], "--picture",
                                           str(picture), "--json"))
    assert written == {"game": games[0], "file": str(picture)} and picture.exists()


def test_closed_shapes_refuse_a_key_they_do_not_list_and_open_ones_take_it(game: Path) -> None:
    recorded = json.loads(run(game, "record", GAME, "pass", "--json").stdout)
    assert problems("outputs/record", {**recorded, "extra": 1})
    assert problems("outputs/record", {k: v for k, v in recorded.items() if k != "records"})
    assert problems("outputs/status", {**recorded["status"], "house_rule": 1}) == []
    assert problems("outputs/status", {**recorded["status"], "turn": "one"})
    assert problems("outputs/error", {"error": "x", "exit_code": 2, "kind": "K", "why": 1})
    assert problems("outputs/error", {"error": "x", "exit_code": 2, "kind": "K"}) == []


# -- every command is described --------------------------------------------------------------------


def json_commands() -> set[str]:
    """The commands of the app that take ``--json`` or ``--format`` (JSON output)."""
    commands = typer.main.get_command(APP).commands  # type: ignore[attr-defined]
    return {name for name, command in commands.items()
            if any({"--json", "--format"} & set(param.opts) for param in command.params)}


def test_every_command_with_json_output_has_a_schema() -> None:
    missing = json_commands() - commands_described()
    assert not missing, f"describe their --json output in queries/shapes.py: {missing}"


def test_every_described_command_exists() -> None:
    commands = typer.main.get_command(APP).commands  # type: ignore[attr-defined]
    assert commands_described() <= set(commands)
    assert {"record", "stats", "schema"} <= json_commands()


# -- the schema command ----------------------------------------------------------------------------


@pytest.mark.slow
def test_output_dir_holds_valid_schemas_equal_to_the_printed_ones(tmp_path: Path) -> None:
    target = tmp_path / "schemas"
    written = output("schema-output", run(None, "schema", "--output", str(target), "--json"))
    files = {path.relative_to(target).as_posix() for path in target.rglob("*") if path.is_file()}
    assert set(written["files"]) == files
    printed = json.loads(run(None, "schema").stdout)
    Draft202012Validator.check_schema(printed)
    index = json.loads((target / "index.json").read_text(encoding="utf-8"))
    assert set(index["schemas"]) == set(printed["$defs"]) == set(schema_names())
    for name, listed in index["schemas"].items():
        text = (target / listed["file"]).read_text(encoding="utf-8")
        document = json.loads(text)
        Draft202012Validator.check_schema(document)
        assert document == printed["$defs"][name]
        assert text == run(None, "schema", name).stdout  # byte for byte: sorted keys
        assert listed["file"] == schema_file(name) and document["$id"].endswith(listed["file"])
    assert {"outputs/status.schema.json", "events/risk-strike.schema.json",
            "log-line.schema.json"} <= files


def test_the_bundle_finds_each_schema_by_its_ref(world: Path) -> None:
    bundle = json.loads(run(None, "schema").stdout)
    line = a_line(world, "risk-deep-space", "battle")
    by_ref = Draft202012Validator({"$ref": "#/$defs/events~1risk-deep-space", **bundle})
    assert list(by_ref.iter_errors(line)) == []
    line["payload"]["attacker"] = "six"
    assert list(by_ref.iter_errors(line))


@pytest.mark.parametrize(("typed", "name"), [
    ("status", "outputs/status"), ("outputs/log", "outputs/log"), ("rs", "events/risk-strike"),
    ("Deep-Space", "events/risk-deep-space"), ("log-line", "log-line"),
])
def test_a_schema_is_named_by_output_kind_alias_or_full_name(typed: str, name: str) -> None:
    assert run(None, "schema", typed).stdout == dumps(build(name))


def test_a_mistyped_name_gets_did_you_mean_and_exit_2() -> None:
    result = run(None, "schema", "risk-strik")
    assert result.exit_code == 2 and result.stdout == ""
    assert "did you mean 'risk-strike'?" in " ".join(result.stderr.split())
    assert "Traceback" not in result.stderr


def test_schema_output_is_deterministic_and_the_schema_of_a_schema_is_the_metaschema() -> None:
    first, second = run(None, "schema").stdout, run(None, "schema").stdout
    assert first == second
    assert json.loads(run(None, "schema", "schema").stdout)["$ref"] == (
        "https://json-schema.org/draft/2020-12/schema")


def test_output_into_a_file_is_refused_and_nothing_is_left_behind(tmp_path: Path) -> None:
    blocker = tmp_path / "taken"
    blocker.write_text("mine")
    result = run(None, "schema", "--output", str(blocker))
    assert result.exit_code == 2 and "not a folder" in result.stderr
    assert blocker.read_text() == "mine" and sorted(tmp_path.iterdir()) == [blocker]


@pytest.fixture
def disk_full_after_ten_files(monkeypatch: pytest.MonkeyPatch) -> None:
    """Writing a text file fails as on a full disk once ten have been written."""
    real_write_text, written = Path.write_text, []

    def write_text(self: Path, data: str, *args: Any, **kwargs: Any) -> int:
        if len(written) >= 10:
            raise OSError(errno.ENOSPC, "No space left on device", str(self))
        written.append(self)
        return real_write_text(self, data, *args, **kwargs)

    monkeypatch.setattr(Path, "write_text", write_text)


def test_a_full_disk_is_one_line_exit_1_and_leaves_nothing(tmp_path: Path,
                                                           disk_full_after_ten_files: None
                                                           ) -> None:
    result = run(None, "schema", "--output", str(tmp_path / "schemas"))
    assert result.exit_code == 1 and "error:" in result.stderr
    assert list(tmp_path.iterdir()) == []  # no half-written folder, no scratch


def test_a_full_disk_changes_nothing_in_an_existing_folder(tmp_path: Path,
                                                           disk_full_after_ten_files: None
                                                           ) -> None:
    (tmp_path / "outputs").mkdir()
    (tmp_path / "outputs" / "status.schema.json").write_text("old")
    result = run(None, "schema", "--output", str(tmp_path), "--json")
    error_line(result, 1)
    assert (tmp_path / "outputs" / "status.schema.json").read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["outputs"]


def test_writing_into_an_existing_folder_replaces_its_files_and_keeps_others(
        tmp_path: Path) -> None:
    target = tmp_path / "schemas"
    (target / "outputs").mkdir(parents=True)
    (target / "outputs" / "status.schema.json").write_text("old")
    (target / "README").write_text("ours")
    assert run(None, "schema", "status", "--output", str(target)).exit_code == 0
    assert json.loads((target / "outputs" / "status.schema.json").read_text()) == build(
        "outputs/status")
    assert (target / "README").read_text() == "ours"
    assert sorted(p.name for p in target.iterdir()) == ["README", "outputs"]  # no scratch left


@pytest.mark.slow
def test_schema_names_complete(tmp_path: Path) -> None:
    from tests.cli.test_help import complete

    assert complete(tmp_path, "tabletape schema stat") == ["stats", "status", "status-picture"]
    assert complete(tmp_path, "tabletape schema risk-s") == ["risk-strike"]
    assert "log-line" in complete(tmp_path, "tabletape schema ")


def test_a_games_schema_names_the_older_shapes_its_upcasters_read(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The schema gives the current rules version's payloads and says which older ones a log
    may still hold; an old shape is not the current one (every reader upcasts it)."""
    from tabletape.ledger import Ledger
    from tabletape.rules import registry
    from tests.replay.test_upcast import NEW_LOG, OLD_LOG, UpcastTiny, create

    monkeypatch.setitem(registry.REGISTERED, UpcastTiny.name, registry.rules_manifest(UpcastTiny()))
    schema = build("events/upcast-tiny")
    assert "add (rules version 1), roll (rules version 1)" in schema["description"]
    store = Ledger(tmp_path)
    check = Draft202012Validator(schema)
    new = [json.loads(line) for line in store.path(create(store, "ut-new", "2", NEW_LOG))
           .read_bytes().splitlines()]
    assert all(check.is_valid(line) for line in new)
    old = [json.loads(line) for line in store.path(create(store, "ut-old", "1", OLD_LOG))
           .read_bytes().splitlines()]
    assert [line["type"] for line in old if not check.is_valid(line)] == ["add", "roll", "add"]


@pytest.mark.slow
def test_the_fast_path_of_the_commands_typed_at_the_table_prints_the_same_shapes(
        game: Path) -> None:
    """``record``, ``status``, ``actions``, ``undo`` and ``log`` skip typer when run as a whole
    process: what they print fits the same schemas."""
    env = {**os.environ, "TABLETAPE_LEDGER": str(game), "COLUMNS": "200"}
    for name, args in (("record", ["record", GAME, "pass"]), ("undo", ["undo", GAME]),
                       ("status", ["status", GAME]), ("actions", ["actions", GAME]),
                       ("log", ["log", GAME])):
        done = subprocess.run([sys.executable, "-m", "tabletape", *args, "--json"],
                              capture_output=True, env=env, check=False)
        assert done.returncode == 0, done.stderr
        assert problems(f"outputs/{name}", json.loads(done.stdout)) == []


def test_a_game_whose_rules_cannot_load_is_left_out_with_a_warning(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from tabletape.rules import registry
    from tabletape.rules.manifest import GameManifest, GameNotLoaded

    broken = GameManifest(name="broken-game", title="Broken", short="bg",
                          rules="tabletape.no_such_module:Rules")
    monkeypatch.setitem(registry.REGISTERED, broken.name, broken)
    with pytest.warns(GameNotLoaded, match="broken-game"):
        names = schema_names()
    assert "events/risk-strike" in names and "events/broken-game" not in names
