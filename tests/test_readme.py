"""The README's two-minute tour runs as printed (so the documentation cannot drift)."""

from __future__ import annotations

import shlex
from pathlib import Path

from typer.testing import CliRunner

from tabletape import build_app

README = Path(__file__).resolve().parents[1] / "README.md"


def tour_commands() -> list[list[str]]:
    """The ``tabletape`` lines of the tour's code block, comments removed (``play`` skipped)."""
    text = README.read_text()
    block = text[text.index("## A two-minute tour"):text.index("## The action syntax")]
    lines = [line.split("  #")[0].strip() for line in block.splitlines()]
    commands = [shlex.split(line)[1:] for line in lines if line.startswith("tabletape ")]
    return [words for words in commands if words[0] != "play"]


def test_the_tour_runs_as_printed(tmp_path: Path) -> None:
    runner, app = CliRunner(), build_app()
    commands = tour_commands()
    assert [words[0] for words in commands][:3] == ["games", "new", "actions"]
    for words in commands:
        if words[0] == "new":
            words = [*words, "--id", "rs-k7pq"]  # the id the tour's later lines use
        result = runner.invoke(app, [*words, "--ledger", str(tmp_path)] if words[0] != "games"
                               else words)
        assert result.exit_code == 0, (words, result.output)
    log = runner.invoke(app, ["log", "rs-k7pq", "--json", "--ledger", str(tmp_path)])
    assert '"retracted": true' in log.output
