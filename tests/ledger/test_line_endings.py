"""CRLF line endings (an editor or a Windows copy): named by verify, undone by repair
--line-endings when the hashes then match, never appended to (issue 12)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.test_recording import Cli, fails, flat


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    return Cli(tmp_path)


@pytest.fixture
def crlf_game(cli: Cli) -> tuple[str, bytes]:
    """A game of three events whose file was then converted to CRLF; its original bytes."""
    game = cli.new("ann", "bob")
    cli.ok("record", game, "add", "n=2")
    cli.ok("record", game, "add", "n=1")
    path = cli.root / "games" / f"{game}.jsonl"
    original = path.read_bytes()
    path.write_bytes(original.replace(b"\n", b"\r\n"))
    return game, original


def test_verify_says_the_line_endings_were_changed(cli: Cli, crlf_game: tuple[str, bytes]
                                                   ) -> None:
    game, _ = crlf_game
    result = cli("verify", game)
    output = flat(result.output)
    assert result.exit_code == 1
    assert "line endings" in output and f"repair --line-endings {game}" in output
    assert "hash does not match" not in output


def test_record_never_appends_to_a_crlf_file(cli: Cli, crlf_game: tuple[str, bytes]) -> None:
    game, _ = crlf_game
    output = fails(cli, 1, "record", game, "add", "n=1", game=game)
    assert "line endings" in output


def test_repair_line_endings_restores_the_original_bytes(
        cli: Cli, crlf_game: tuple[str, bytes]) -> None:
    game, original = crlf_game
    output = flat(cli.ok("repair", game, "--line-endings").output)
    assert "line endings" in output and ".bak" in output
    assert cli.log_bytes(game) == original
    cli.ok("verify", game)
    cli.ok("record", game, "add", "n=1")
    output = flat(cli.ok("repair", game, "--line-endings").output)
    assert "nothing changed" in output


def test_repair_line_endings_refuses_when_the_hashes_still_fail(
        cli: Cli, crlf_game: tuple[str, bytes]) -> None:
    game, _ = crlf_game
    path = cli.root / "games" / f"{game}.jsonl"
    path.write_bytes(path.read_bytes().replace(b'"n":1', b'"n":3'))
    output = fails(cli, 1, "repair", game, "--line-endings", game=game)
    assert "event 3" in output and "changed" in output
    assert list(path.parent.glob("*.bak")) == []


def test_a_mixed_file_is_never_appended_to(cli: Cli, crlf_game: tuple[str, bytes]) -> None:
    """Only the first lines converted, the last one as written: still refused, still named."""
    game, original = crlf_game
    path = cli.root / "games" / f"{game}.jsonl"
    lines = original.splitlines(keepends=True)
    path.write_bytes(lines[0].replace(b"\n", b"\r\n") + b"".join(lines[1:]))
    result = cli("verify", game, "--json")
    assert result.exit_code == 1 and "line endings" in result.output
    assert '"first_bad_seq": 1' in result.output
    output = fails(cli, 1, "record", game, "add", "n=1", game=game)
    assert "line endings" in output
