"""The recording commands, driven through typer's CliRunner on ``tabletape.commands.recording.app``.

Every game is of the test-only kind "tiny" (tests/support/tinygame.py): players take turns adding
1 to 3 (or a die roll) to a total; ``cheer`` may be played by anyone any time.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

import tests.support.tinygame  # noqa: F401  (registers "tiny")
from tabletape.commands.recording import app
from tabletape.ledger import Ledger
from tabletape.ledger.store import ID_ALPHABET
from tests.support.cli import MAIN

pytestmark = pytest.mark.smoke  # also run on the declared minimum versions (.ci/minimums)

ROOT = Path(__file__).resolve().parents[2]
STATUS_KEYS = {"game", "kind", "turn", "round", "phase", "active", "finished", "winners",
               "players"}


def flat(text: str) -> str:
    """Output with rich's line wrapping undone, so a message can be matched whole."""
    return " ".join(text.split())


class Cli:
    """Runs ``tabletape`` commands on one ledger folder."""

    def __init__(self, root: Path, *, via_env: bool = False) -> None:
        self.root = root
        self.via_env = via_env
        self.runner = CliRunner()

    def __call__(self, *args: str, env: dict[str, str] | None = None) -> Result:
        settings = {"COLUMNS": "200", "NO_COLOR": "1", "TABLETAPE_LEDGER": None}
        if self.via_env or args[:1] == ("games",):  # `games` reads no ledger
            settings["TABLETAPE_LEDGER"] = str(self.root)
            argv = list(args)
        else:
            argv = [*args, "--ledger", str(self.root)]
        settings.update(env or {})
        result = self.runner.invoke(app, argv, env=settings)
        # never a traceback, whatever went wrong
        assert result.exception is None or isinstance(result.exception, SystemExit), (
            result.output, result.exception)
        assert "Traceback" not in result.output
        return result

    def ok(self, *args: str) -> Result:
        result = self(*args)
        assert result.exit_code == 0, result.output
        return result

    def json(self, *args: str) -> object:
        return json.loads(self.ok(*args, "--json").stdout)

    def new(self, *players: str, options: tuple[str, ...] = ()) -> str:
        argv = ["new", "tiny"]
        for player in players or ("ann", "bob"):
            argv += ["--player", player]
        for option in options:
            argv += ["--option", option]
        created = self.json(*argv)
        assert isinstance(created, dict)
        return created["game"]

    def log_bytes(self, game: str) -> bytes:
        return (self.root / "games" / f"{game}.jsonl").read_bytes()


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    return Cli(tmp_path / "ledger")


@pytest.fixture
def game(cli: Cli) -> str:
    return cli.new("ann", "bob")


def fails(cli: Cli, code: int, *args: str, game: str | None = None) -> str:
    """Run a command that must fail with ``code``, leaving ``game``'s log byte for byte as is."""
    before = cli.log_bytes(game) if game else None
    result = cli(*args)
    assert result.exit_code == code, result.output
    if game:
        assert cli.log_bytes(game) == before
    assert result.stderr.strip(), "the reason goes to stderr"
    return flat(result.output)


# -- games and new ---------------------------------------------------------------------------------


def test_games_lists_the_kinds(cli: Cli) -> None:
    assert "tiny" in cli.ok("games").output
    kinds = {row["kind"]: row for row in cli.json("games")}  # type: ignore[union-attr]
    assert kinds["tiny"]["players"] == [1, 4]
    assert kinds["tiny"]["aliases"] == ["tiny-test"]


def test_new_json_prints_the_game_id_only(cli: Cli) -> None:
    result = cli.ok("new", "tiny", "-p", "ann", "-p", "bob", "--json")
    created = json.loads(result.stdout)
    assert list(created) == ["game"]
    game = created["game"]
    assert re.fullmatch(rf"ty-[{ID_ALPHABET}]{{4,8}}", game)
    path = cli.root / "games" / f"{game}.jsonl"
    assert path.is_file()
    started = Ledger(cli.root).started(game)
    assert started.kind == "tiny" and started.players == ("ann", "bob")
    assert started.options == {"target": 10}


def test_new_without_json_tells_how_to_go_on(cli: Cli) -> None:
    output = flat(cli.ok("new", "tiny-test", "-p", "ann,bob", "-o", "target=4", "--seed", "7",
                         "--id", "ty-mine").output)
    assert "ty-mine" in output and "tabletape record ty-mine" in output
    started = Ledger(cli.root).started("ty-mine")
    assert started.players == ("ann", "bob") and started.options == {"target": 4}
    assert started.seed == 7


def test_the_status_panel_counts_events_as_people_write_them(cli: Cli) -> None:
    game = cli.ok("new", "risk-strike", "-p", "Olga,Patrick", "--json").output
    game = json.loads(game)["game"]
    assert "Olga, Patrick · 1 event" in flat(cli.ok("status", game).output)
    cli.ok("record", game, "deal", "player=olga", "continents=asia,asia,europe", "tactics=troop,2")
    assert "Olga, Patrick · 2 events" in flat(cli.ok("status", game).output)


def test_new_with_a_taken_id_fails_and_keeps_the_old_game(cli: Cli) -> None:
    cli.ok("new", "tiny", "-p", "ann", "--id", "ty-same")
    output = fails(cli, 1, "new", "tiny", "-p", "bob", "--id", "ty-same", game="ty-same")
    assert "already used" in output


def test_env_var_chooses_the_ledger(tmp_path: Path) -> None:
    cli = Cli(tmp_path / "from-env", via_env=True)
    game = cli.new("ann")
    assert (tmp_path / "from-env" / "games" / f"{game}.jsonl").is_file()
    assert game in cli.ok("list").output


def test_ledger_option_beats_the_env_var(tmp_path: Path) -> None:
    cli = Cli(tmp_path / "option")
    result = cli("new", "tiny", "-p", "ann", "--json",
                 env={"TABLETAPE_LEDGER": str(tmp_path / "env")})
    game = json.loads(result.stdout)["game"]
    assert (tmp_path / "option" / "games" / f"{game}.jsonl").is_file()
    assert not (tmp_path / "env").exists()


def test_new_with_an_unknown_kind(cli: Cli) -> None:
    output = fails(cli, 2, "new", "tinny", "-p", "ann")
    assert "unknown game kind 'tinny'" in output
    assert "did you mean 'tiny'?" in output
    assert "allowed:" in output and "tiny" in output.split("allowed:")[1]
    assert not (cli.root / "games").exists() or not list((cli.root / "games").iterdir())


@pytest.mark.parametrize(("args", "message"), [
    (["-p", "a", "-p", "b", "-p", "c", "-p", "d", "-p", "e"], "for 1 to 4 players, not 5"),
    (["-p", "ann", "-p", "ANN"], "player names must be different"),
    (["-p", "ann", "-o", "targt=3"], "unknown option 'targt' (did you mean 'target'?)"),
    (["-p", "ann", "-o", "target=high"], "target"),
    (["-p", "ann", "-o", "target"], "not KEY=VALUE"),
])
def test_new_with_bad_players_or_options(cli: Cli, args: list[str], message: str) -> None:
    output = fails(cli, 2, "new", "tiny", *args)
    assert message in output
    assert not (cli.root / "games").exists() or not list((cli.root / "games").iterdir())


def test_bad_option_value_names_the_type(cli: Cli) -> None:
    output = fails(cli, 2, "new", "tiny", "-p", "ann", "-o", "target=high")
    assert "int" in output and "target" in output


# -- record ----------------------------------------------------------------------------------------


def test_record_appends_one_checked_action(cli: Cli, game: str) -> None:
    output = flat(cli.ok("record", game, "add", "n=2").output)
    assert "2 ann: add n=2" in output
    assert "bob to act" in output
    records = Ledger(cli.root).records(game)
    assert [(r.seq, r.actor, r.type, bytes(r.payload)) for r in records[1:]] == [
        (2, "ann", "add", b'{"n":2}')]


def test_record_json(cli: Cli, game: str) -> None:
    recorded = cli.json("record", game, "cheer", "by=bob", "words=go go")
    assert isinstance(recorded, dict)
    assert (recorded["seq"], recorded["actor"], recorded["type"]) == (2, "bob", "cheer")
    assert recorded["payload"] == {"words": "go go"}
    assert set(recorded["status"]) >= STATUS_KEYS


def test_record_rolls_dice_when_none_are_given(cli: Cli, game: str) -> None:
    recorded = cli.json("record", game, "roll")
    assert isinstance(recorded, dict)
    (face,) = recorded["payload"]["dice"]
    assert 1 <= face <= 6


def test_anyone_re_derives_the_dice_tabletape_rolled(cli: Cli) -> None:
    """README: with a public ``--seed`` the dice are re-derived from the seed and the event's seq
    (``roll_dice``); games without one commit to a secret (tests/fairplay/test_dice.py)."""
    from tabletape.rules.fair_dice import roll_dice

    game = cli.json("new", "tiny", "-p", "ann,bob", "--seed", "7")["game"]  # type: ignore[index]
    seed = Ledger(cli.root).started(game).seed
    rolls = [cli.json("record", game, *action) for action in (("roll",), ("add", "n=1"), ("roll",))]
    for recorded in rolls[0], rolls[2]:
        assert isinstance(recorded, dict)
        assert tuple(recorded["payload"]["dice"]) == roll_dice(seed, recorded["seq"], 1)


@pytest.mark.parametrize(("action", "message"), [
    (["ad", "n=2"],
     "unknown action 'ad' (did you mean 'add'?); the game's actions: add, cheer, roll"),
    (["add", "m=2"], "'m'"),
    (["add", "n=two"], "bad value for n: 'two'"),
    (["add", "n=2.5"], "n takes a whole number"),
    (["add"], "add needs n="),
    (["add", "n"], "'n' is not key=value"),
    (["add", "n=1", "by=zed"], "unknown player 'zed'"),
    (["undo"], "tabletape undo"),
])
def test_record_mistakes_exit_2_and_write_nothing(cli: Cli, game: str, action: list[str],
                                                  message: str) -> None:
    cli.ok("record", game, "add", "n=1")
    output = fails(cli, 2, "record", game, *action, game=game)
    assert message in output
    assert output.count("error:") == 1  # one message


def test_unknown_field_lists_the_fields_allowed(cli: Cli, game: str) -> None:
    output = fails(cli, 2, "record", game, "add", "m=2", game=game)
    assert "unknown field" in output and "allowed: n, by" in output


def test_an_action_several_players_may_take_is_never_credited_by_guess(cli: Cli,
                                                                        game: str) -> None:
    """Anyone may cheer: without ``by=`` the player expected to act (ann) is not assumed."""
    output = fails(cli, 2, "record", game, "cheer", game=game)
    assert "several players may cheer now; say who with by=NAME (one of: ann, bob)" in output


def test_without_by_a_refusal_gives_the_reason_of_the_player_expected_to_act(cli: Cli,
                                                                            game: str) -> None:
    """When the rules list nobody for an action, the active player's own reason is given."""
    for _ in range(4):  # 12 reaches the target of 10: the game is over, nobody may add
        cli.ok("record", game, "add", "n=3")
    output = fails(cli, 1, "record", game, "add", "n=1", game=game)
    assert "the game is over" in output and "nobody may" not in output


@pytest.mark.parametrize(("action", "reason"), [
    (["add", "n=7"], "you may add 1 to 3, not 7. Allowed: 1, 2, 3."),
    (["add", "n=1", "by=bob"], "it is ann's turn, not bob's"),
    (["roll", "dice=9"], "roll one six-sided die"),
])
def test_illegal_action_exits_1_with_the_rules_reason(cli: Cli, game: str, action: list[str],
                                                      reason: str) -> None:
    output = fails(cli, 1, "record", game, *action, game=game)
    assert "illegal:" in output and reason in output


def test_record_after_the_game_ended_is_illegal(cli: Cli) -> None:
    game = cli.new("ann", "bob", options=("target=3",))
    output = flat(cli.ok("record", game, "add", "n=3").output)
    assert "finished: ann won" in output
    output = fails(cli, 1, "record", game, "add", "n=1", game=game)
    assert "illegal" in output


# -- undo ------------------------------------------------------------------------------------------


def test_undo_retracts_the_latest_action(cli: Cli, game: str) -> None:
    cli.ok("record", game, "add", "n=2")
    cli.ok("record", game, "add", "n=3")
    before = cli.log_bytes(game)
    output = flat(cli.ok("undo", game).output)
    assert "Undid 3: bob: add n=3" in output
    after = cli.log_bytes(game)
    assert after.startswith(before)  # appended, nothing rewritten
    status = cli.json("status", game)
    assert isinstance(status, dict)
    assert status["total"] == 2 and status["active"] == ["bob"]


def test_undo_twice_retracts_two(cli: Cli, game: str) -> None:
    for n in ("1", "2", "3"):
        cli.ok("record", game, "add", f"n={n}")
    undone = [cli.json("undo", game), cli.json("undo", game)]
    assert [u["undone"] for u in undone] == [4, 3]  # type: ignore[index]
    status = cli.json("status", game)
    assert isinstance(status, dict)
    assert status["total"] == 1 and status["active"] == ["bob"]
    rows = cli.json("log", game)
    assert isinstance(rows, list)
    assert [(r["seq"], r["type"], r["retracted"]) for r in rows] == [
        (1, "game-started", False), (2, "add", False), (3, "add", True), (4, "add", True),
        (5, "undo", False), (6, "undo", False)]
    assert [r["payload"] for r in rows[4:]] == [{"seq": 4}, {"seq": 3}]


def test_undo_with_nothing_to_undo(cli: Cli, game: str) -> None:
    output = fails(cli, 1, "undo", game, game=game)
    assert "nothing to undo" in output
    cli.ok("record", game, "add", "n=1")
    cli.ok("undo", game)
    output = fails(cli, 1, "undo", game, game=game)
    assert "nothing to undo" in output


# -- status, log, actions, list --------------------------------------------------------------------


def test_status(cli: Cli, game: str) -> None:
    cli.ok("record", game, "add", "n=2")
    output = flat(cli.ok("status", game).output)
    assert game in output and "bob to act" in output and "turn 2" in output


def test_status_json_has_the_documented_keys(cli: Cli) -> None:
    game = cli.new("ann", "bob", "cyd", options=("target=5",))
    status = cli.json("status", game)
    assert isinstance(status, dict)
    assert set(status) >= STATUS_KEYS
    assert (status["game"], status["kind"], status["turn"], status["round"]) == (game, "tiny", 1, 1)
    assert status["phase"] == "add" and status["active"] == ["ann"]
    assert status["finished"] is False and status["winners"] == []
    assert [p["name"] for p in status["players"]] == ["ann", "bob", "cyd"]

    for n in ("3", "1", "1"):
        cli.ok("record", game, "add", f"n={n}")
    status = cli.json("status", game)
    assert isinstance(status, dict)
    assert set(status) >= STATUS_KEYS
    assert status["finished"] is True and status["winners"] == ["cyd"]
    assert status["round"] == 2 and isinstance(status["players"], list)


def test_log_shows_undone_actions(cli: Cli, game: str) -> None:
    cli.ok("record", game, "add", "n=2")
    cli.ok("undo", game)
    output = flat(cli.ok("log", game).output)
    assert "add n=2" in output and "(undone at 3)" in output and "undo seq=2" in output
    rows = cli.json("log", game)
    assert isinstance(rows, list)
    assert [r["retracted"] for r in rows] == [False, True, False]
    records = Ledger(cli.root).records(game)
    assert [(r["seq"], r["hash"], r["prev"], r["at"]) for r in rows] == [
        (r.seq, r.hash, r.prev, r.at) for r in records]


def test_actions(cli: Cli, game: str) -> None:
    output = flat(cli.ok("actions", game).output)
    assert "add" in output and "n=1|2|3" in output and "cheer" in output
    specs = cli.json("actions", game)
    assert isinstance(specs, list)
    by_type = {spec["type"]: spec for spec in specs}
    assert set(by_type) == {"add", "roll", "cheer"}
    assert by_type["add"]["actors"] == ["ann"]
    assert by_type["cheer"]["actors"] == ["ann", "bob"]


def test_list(cli: Cli) -> None:
    empty = cli.json("list")
    assert empty == []
    first = cli.new("ann", "bob")
    second = cli.new("cyd")
    cli.ok("record", second, "add", "n=1")
    output = cli.ok("list").output
    assert first in output and second in output
    rows = cli.json("list")
    assert isinstance(rows, list)
    by_game = {row["game"]: row for row in rows}
    assert set(by_game) == {first, second}
    assert by_game[first]["kind"] == "tiny" and by_game[first]["players"] == ["ann", "bob"]
    assert (by_game[first]["events"], by_game[second]["events"]) == (1, 2)


# -- verify and repair -----------------------------------------------------------------------------


def flip_byte_in_line(path: Path, seq: int) -> None:
    data = bytearray(path.read_bytes())
    start = sum(len(line) for line in bytes(data).splitlines(keepends=True)[: seq - 1])
    position = start + 20  # inside the recorded-at stamp
    data[position] ^= 0x01
    path.write_bytes(bytes(data))


def test_verify_ok(cli: Cli, game: str) -> None:
    cli.ok("record", game, "add", "n=1")
    assert "ok" in cli.ok("verify", game).output
    (result,) = cli.json("verify", game)  # type: ignore[misc]
    assert result["ok"] is True and result["events"] == 2


def test_verify_names_the_changed_event(cli: Cli, game: str) -> None:
    for n in ("1", "2", "3"):
        cli.ok("record", game, "add", f"n={n}")
    flip_byte_in_line(cli.root / "games" / f"{game}.jsonl", 3)
    result = cli("verify", game)
    assert result.exit_code == 1
    assert re.search(rf"{game}\s+BAD\s+2\s+3\s", result.output), result.output
    output = cli("verify", game, "--json")
    assert output.exit_code == 1
    (found,) = json.loads(output.stdout)
    assert (found["ok"], found["first_bad_seq"], found["events"]) == (False, 3, 2)


def test_verify_all(cli: Cli) -> None:
    good, bad = cli.new("ann"), cli.new("bob")
    assert cli("verify", "--all").exit_code == 0
    flip_byte_in_line(cli.root / "games" / f"{bad}.jsonl", 1)
    result = cli("verify", "--all", "--json")
    assert result.exit_code == 1
    found = {row["game"]: row for row in json.loads(result.stdout)}
    assert found[good]["ok"] is True
    assert found[bad]["ok"] is False and found[bad]["first_bad_seq"] == 1


def test_verify_needs_a_game_or_all(cli: Cli) -> None:
    output = fails(cli, 2, "verify")
    assert "--all" in output


def test_torn_tail_is_reported_then_repaired(cli: Cli, game: str) -> None:
    cli.ok("record", game, "add", "n=2")
    path = cli.root / "games" / f"{game}.jsonl"
    whole = path.read_bytes()
    with open(path, "ab") as handle:  # what a crash in the middle of a write leaves
        handle.write(b'{"seq":3,"at":"2026-11-29T1')
    torn = path.read_bytes()

    output = fails(cli, 1, "status", game, game=game)
    assert "torn" in output and f"tabletape repair {game}" in output
    output = fails(cli, 1, "record", game, "add", "n=1", game=game)
    assert "torn" in output
    result = cli("verify", game)
    assert result.exit_code == 1 and "torn" in flat(result.output)

    output = flat(cli.ok("repair", game).output)
    assert "Cut what a crash left half-written" in output and "torn last line" in output
    assert "it now ends at event 2" in output
    (backup,) = path.parent.glob(f"{game}.jsonl*.bak")
    assert backup.read_bytes() == torn
    assert path.read_bytes() == whole
    assert cli("verify", game).exit_code == 0
    assert cli.json("status", game)["active"] == ["bob"]  # type: ignore[index]
    assert "nothing changed" in flat(cli.ok("repair", game).output)


@pytest.mark.parametrize("command", [
    ["status"], ["log"], ["actions"], ["undo"], ["verify"], ["repair"], ["record", "add", "n=1"]])
def test_unknown_game_id_exits_2(cli: Cli, game: str, command: list[str]) -> None:
    # "o" is not in the id alphabet, so no generated id is ever "ty-nope"
    output = fails(cli, 2, command[0], "ty-nope", *command[1:], game=game)
    assert "no game 'ty-nope'" in output
    assert game in output  # names the games there are


def test_unknown_game_suggests_the_close_one(cli: Cli, game: str) -> None:
    typo = game[:-1] + ("x" if game[-1] != "x" else "y")
    output = fails(cli, 2, "status", typo)
    assert f"did you mean '{game}'" in output


# -- the installed command -------------------------------------------------------------------------



def run_main(*args: str, ledger: Path) -> subprocess.CompletedProcess[str]:
    """``tabletape ARGS`` as the console script runs it (``record`` takes its own fast path)."""
    env = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1", "TABLETAPE_LEDGER": str(ledger)}
    completed = subprocess.run([sys.executable, "-c", MAIN, *args], cwd=ROOT, env=env,
                               capture_output=True, text=True, timeout=60, check=False)
    assert "Traceback" not in completed.stdout + completed.stderr, completed.stderr
    return completed


@pytest.mark.slow
def test_record_through_the_console_entry_point(cli: Cli, game: str) -> None:
    recorded = run_main("record", game, "add", "n=2", ledger=cli.root)
    assert recorded.returncode == 0, recorded.stderr
    assert "2 ann: add n=2" in flat(recorded.stdout)
    as_json = run_main("record", game, "add", "n=1", "--json", ledger=cli.root)
    assert json.loads(as_json.stdout)["seq"] == 3
    before = cli.log_bytes(game)
    for args, code, message in [
        (["ad", "n=1"], 2, "unknown action 'ad' (did you mean 'add'?)"),
        (["add", "m=1"], 2, "unknown field"),
        (["add", "n=x"], 2, "n takes a whole number"),
        (["add", "n=9"], 1, "illegal: you may add 1 to 3, not 9"),
    ]:
        failed = run_main("record", game, *args, ledger=cli.root)
        assert failed.returncode == code, (args, failed.stderr)
        assert message in flat(failed.stderr)
        assert cli.log_bytes(game) == before
    unknown = run_main("record", "ty-nope", "add", "n=1", ledger=cli.root)
    assert unknown.returncode == 2 and "no game 'ty-nope'" in flat(unknown.stderr)



def test_python_m_tabletape_help_runs() -> None:
    env = {**os.environ, "COLUMNS": "120", "NO_COLOR": "1"}
    completed = subprocess.run([sys.executable, "-m", "tabletape", "--help"], cwd=ROOT, env=env,
                               capture_output=True, text=True, timeout=60, check=False)
    assert completed.returncode == 0, completed.stderr
    for command in ("new", "record", "undo", "status", "verify", "repair", "play"):
        assert command in completed.stdout
    assert "Traceback" not in completed.stderr


# -- text people type is shown as typed, never read as markup -------------------------------------


def test_brackets_in_typed_text_are_shown_not_interpreted(cli: Cli, game: str) -> None:
    """A cheer of ``[/x] [bold]loud`` is stored and shown as typed (rich markup is not parsed)."""
    result = cli.ok("record", game, "cheer", "words=[/x] [bold]loud", "by=bob")
    assert "[/x] [bold]loud" in result.output
    assert "[/x] [bold]loud" in cli.ok("log", game).output
    assert "[/x]" in fails(cli, 2, "record", game, "[/x]", game=game)


@pytest.mark.parametrize("name", ["a=b", "[/x]", "table", 'say"hi', "Table"])
def test_player_names_that_cannot_be_typed_back_are_refused(cli: Cli, name: str) -> None:
    """Names must survive ``by=NAME`` and lists: no = , [ ] double quotes, not 'table' (an
    apostrophe is allowed: O'Brien, see tests/cli/test_names.py)."""
    result = cli("new", "tiny", "--player", name, "--player", "zed")
    assert result.exit_code == 2
    assert "player name" in flat(result.output) or "'table'" in result.output


def test_list_names_a_damaged_game_and_lists_the_others(cli: Cli, game: str) -> None:
    """One unreadable log does not hide the ledger: it is listed as damaged."""
    other = cli.new("cat")
    Ledger(cli.root).path(other).write_bytes(b"")
    rows = {row["game"]: row for row in json.loads(cli.ok("list", "--json").output)}
    assert rows[game]["damaged"] == "" and rows[other]["damaged"]
    assert other in cli.ok("list").output


def test_a_stored_payload_of_the_wrong_shape_is_one_message(cli: Cli, game: str) -> None:
    """A log edited by hand so that a payload no longer fits its event: a message, exit 1."""
    cli.ok("record", game, "add", "n=2")
    path = Ledger(cli.root).path(game)
    lines = path.read_bytes().splitlines(keepends=True)
    from tabletape.ledger.codec import decode_line, encode_body, seal

    record = decode_line(lines[1].rstrip(b"\n"))
    body = encode_body(record.seq, record.at, record.actor, record.type, b'{"n":"two"}',
                       record.prev)
    path.write_bytes(lines[0] + seal(body) + b"\n")
    message = flat(fails(cli, 1, "status", game))
    assert f"event 2 of game {game}" in message and "payload is not valid" in message


def test_simulate_passes_options_and_refuses_bad_ones(cli: Cli) -> None:
    """``simulate --option``: the options reach every game; a bad one is refused before any game."""
    out = cli.json("simulate", "tiny", "--games", "2", "--seed", "4", "--option", "target=3")
    assert len(out["games"]) == 2
    assert all(Ledger(cli.root).started(g).options["target"] == 3 for g in out["games"])
    result = cli("simulate", "tiny", "--games", "2", "--seed", "5", "--option", "targt=3")
    assert result.exit_code == 2 and "did you mean 'target'" in flat(result.output)
    assert not [g for g in Ledger(cli.root).game_ids() if g.startswith("ty-s5")]


# -- two people recording the same action at once (issue 12) ------------------------------------


def test_record_expect_seq_turns_a_second_copy_into_a_conflict(cli: Cli, game: str) -> None:
    """Both saw event 1 as the latest and record the same action: the second is refused."""
    cli.ok("record", game, "add", "n=2", "--expect-seq", "1")
    output = fails(cli, 1, "record", game, "add", "n=2", "--expect-seq", "1", game=game)
    assert "changed while you were recording" in output and "expected event 1" in output
    assert cli.log_bytes(game).count(b'"type":"add"') == 1
    fails(cli, 2, "record", game, "add", "n=1", "--expect-seq", "two", game=game)
    for args, code in ((["add", "n=1", "--expect-seq", "1"], 1),
                       (["add", "n=1", "--expect-seq=2"], 0)):
        completed = run_main("record", game, *args, ledger=cli.root)
        assert completed.returncode == code, completed.stderr
    assert cli.log_bytes(game).count(b'"type":"add"') == 2


def test_a_player_name_with_a_terminal_control_character_is_refused(cli: Cli) -> None:
    """Names reach every terminal that shows the game (and imported logs carry them)."""
    output = fails(cli, 2, "new", "tiny", "--player", "ann", "--player", "\x1b[31mbob")
    assert "control character" in output and "\x1b" not in output


def test_error_messages_never_pass_control_characters_to_the_terminal(cli: Cli, game: str
                                                                       ) -> None:
    for args in (["status", "ty-\x1b[2J"], ["record", game, "\x1b]0;owned\x07", "n=1"]):
        output = fails(cli, 2, *args)
        assert "\x1b" not in output and "\x07" not in output and "\\x1b" in output
        completed = run_main(*args, ledger=cli.root)
        assert completed.returncode == 2 and "\x1b" not in completed.stderr
