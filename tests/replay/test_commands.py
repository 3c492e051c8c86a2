"""The replay commands through the CLI: exit codes, --json shapes, messages for people."""

from __future__ import annotations

import json

from tabletape.ledger import Ledger
from tests.replay.conftest import run


def test_replay_at_end_as_json_is_the_status(store: Ledger, story: str) -> None:
    code, replayed = run(store, "replay", story, "--at", "end", "--json")
    assert code == 0
    _, status = run(store, "status", story, "--json")
    assert json.loads(replayed) == json.loads(status)


def test_replay_not_in_a_terminal_prints_the_end(store: Ledger, story: str) -> None:
    code, output = run(store, "replay", story)
    assert code == 0 and "seq 13 of 13" in output and "finished" in output


def test_replay_at_a_turn(store: Ledger, story: str) -> None:
    code, output = run(store, "replay", story, "--at", "turn=2", "--json")
    shape = json.loads(output)
    assert code == 0 and (shape["turn"], shape["seq"], shape["total"]) == (2, 2, 2)
    code, output = run(store, "replay", story, "--at", "seq=3")
    assert code == 0 and "seq 3 of 13" in output and "patrick: roll dice=5" in output


def test_bad_points_are_one_message(store: Ledger, story: str) -> None:
    code, output = run(store, "replay", story, "--at", "turn=many")
    assert code == 2 and "not a point" in output and "Traceback" not in output
    code, output = run(store, "replay", story, "--at", "seq=99")
    assert code == 2 and "has events 1 to 13" in output


def test_narrate_tells_the_game_with_turn_headings(store: Ledger, story: str) -> None:
    code, output = run(store, "replay", story, "--narrate")
    assert code == 0
    assert "Turn 3 · round 2 · olga" in output and "Undo by patrick" in output
    code, output = run(store, "replay", story, "--narrate", "--at", "seq=4", "--json")
    assert [line["seq"] for line in json.loads(output)] == [1, 2, 3, 4]


def test_fork_then_record_a_what_if(store: Ledger, story: str) -> None:
    code, output = run(store, "fork", story, "--at", "seq=5", "--id", "ty-alt", "--json")
    made = json.loads(output)
    assert code == 0 and (made["game"], made["parent"], made["fork_seq"]) == ("ty-alt", story, 5)
    code, _ = run(store, "record", "ty-alt", "add", "n=3")
    assert code == 0
    _, listing = run(store, "list", "--json")
    rows = {row["game"]: row for row in json.loads(listing)}
    assert (rows["ty-alt"]["parent"], rows["ty-alt"]["fork_seq"]) == (story, 5)
    code, output = run(store, "fork", story, "--at", "seq=5", "--id", "ty-alt")
    assert code == 1 and "already used" in output


def test_diff_between_turns(store: Ledger, story: str) -> None:
    code, output = run(store, "diff", story, "--from", "turn=1", "--to", "turn=3", "--json")
    changes = {c["key"]: (c["before"], c["after"]) for c in json.loads(output)["changes"]}
    assert code == 0 and changes["turn"] == (1, 3) and changes["total"] == (0, 7)
    code, output = run(store, "diff", story, "--from", "turn=2", "--to", "turn=2")
    assert code == 0 and "nothing changed" in output


def test_note_about_an_event_shows_in_replay(store: Ledger, story: str) -> None:
    code, output = run(store, "note", story, "a great roll", "--at", "seq=3", "--by", "pat")
    assert code == 0 and "note by patrick about seq 3" in output
    _, output = run(store, "replay", story, "--at", "seq=3")
    assert "Note (patrick): a great roll" in output
    _, output = run(store, "replay", story, "--narrate")
    assert "Note (patrick, about seq 3): a great roll" in output
    code, output = run(store, "note", story, "x", "--by", "nobody")
    assert code == 2 and "unknown player" in output


def test_replay_shows_events_the_rules_refuse(store: Ledger) -> None:
    from tests.replay.test_audit import rule_breaking_log

    game = rule_breaking_log(store)
    code, output = run(store, "replay", game, "--narrate")
    words = " ".join(output.split())
    assert code == 0 and "The current rules refuse this: you may add 1 to 3, not 7" in words
    code, output = run(store, "status", game)
    assert code == 1 and "refused by the current rules" in output


def test_audit_of_a_torn_tail(store: Ledger, story: str) -> None:
    with store.path(story).open("ab") as handle:
        handle.write(b'{"seq":14,"at":"2026')
    code, output = run(store, "audit", story, "--json")
    report = json.loads(output)
    assert code == 1 and report["chain_first_bad_seq"] == 14 and report["checked_events"] == 13


def test_replay_html_writes_a_static_page_with_narration_and_table(tmp_path) -> None:
    """``replay --html FILE``: one standalone page holding the narration and the final table."""
    from typer.testing import CliRunner

    from tabletape import build_app
    from tabletape.ledger import Ledger
    from tabletape.replay.demo import run_demo

    ledger = Ledger(tmp_path / "ledger")
    import io

    from rich.console import Console

    game = run_demo(ledger, Console(file=io.StringIO()))
    page = tmp_path / "game.html"
    result = CliRunner().invoke(build_app(), ["replay", game, "--html", str(page),
                                              "--ledger", str(ledger.root)])
    assert result.exit_code == 0, result.output
    html = page.read_text()
    assert html.startswith("<!DOCTYPE html>")
    assert "Olga attacks Patrick" in html and "finished: Olga won" in html


def test_a_note_has_a_size_limit_and_no_control_characters(store: Ledger, story: str) -> None:
    """Notes are shown on terminals and kept forever: refused past the limit or with controls."""
    from tabletape.notes import MAX_NOTE_CHARS

    before = store.path(story).read_bytes()
    code, output = run(store, "note", story, "x" * (MAX_NOTE_CHARS + 1))
    assert code == 2 and f"at most {MAX_NOTE_CHARS}" in output
    code, output = run(store, "note", story, "clear the screen \x1b[2J now")
    assert code == 2 and "control character" in output
    assert store.path(story).read_bytes() == before
    code, output = run(store, "note", story, "two lines\nare fine")
    assert code == 0
