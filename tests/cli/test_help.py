"""Issue 15 (J): ``--help`` groups the commands (record / replay / query / manage) and shows an
example per command; shell completion installs and completes game ids, kinds, reports and
``record``'s actions, fields and values (through typer's environment-variable protocol, as a
shell asks)."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import typer.main
from typer.testing import CliRunner

from tabletape import build_app
from tabletape.commands.recording import app as replay_app
from tabletape.help import COMMANDS, GROUPS

APP = build_app()
COMMAND = typer.main.get_command(APP)
NAMES = sorted(COMMAND.commands)  # type: ignore[attr-defined]
GAME = "rs-k7pq"


def help_text(*args: str) -> str:
    result = CliRunner().invoke(APP, [*args, "--help"], env={"COLUMNS": "100", "NO_COLOR": "1"})
    assert result.exit_code == 0, result.output
    return result.stdout


def test_the_commands_are_listed_in_four_groups_in_order() -> None:
    text = help_text()
    panels = [text.index(f"─ {group} ─") for group in GROUPS]
    assert panels == sorted(panels)
    for name in NAMES:  # each command in its own group's panel
        group = GROUPS.index(COMMANDS[name].group)
        end = panels[group + 1] if group + 1 < len(panels) else len(text)
        assert f"│ {name} " in text[panels[group]:end], name


@pytest.mark.parametrize("name", NAMES)
def test_every_command_has_a_group_and_an_example_that_uses_it(name: str) -> None:
    assert name in COMMANDS, f"add {name} to tabletape/help.py"
    example = shlex.split(COMMANDS[name].example.split(" < ")[0].split(" > ")[0])
    assert example[:2] == ["tabletape", name]
    command = COMMAND.commands[name]  # type: ignore[attr-defined]
    for word in example[2:3]:  # a group (`spark build-catalog`): its subcommand's options
        command = getattr(command, "commands", {}).get(word, command)
    options = {opt for param in command.params for opt in param.opts}
    assert {word for word in example if word.startswith("--")} <= options
    assert "Example: tabletape " + name in " ".join(help_text(name).split())


def test_the_packages_own_apps_stay_as_they_are() -> None:
    assert all(info.rich_help_panel not in GROUPS and info.epilog is None
               for info in replay_app.registered_commands)


def test_completion_can_be_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    """typer finds the shell with shellingham, which finds none when the tests run with no shell
    among their parent processes (a detached job): the shell is bash here, whoever runs them."""
    shellingham = pytest.importorskip("shellingham", reason="typer detects the shell with it")
    monkeypatch.setattr(shellingham, "detect_shell", lambda *_: ("bash", "/bin/bash"))
    assert "--install-completion" in help_text()
    shown = CliRunner().invoke(APP, ["--show-completion", "bash"], prog_name="tabletape")
    assert shown.exit_code == 0 and "_TABLETAPE_COMPLETE=complete_bash" in shown.stdout


# -- completion, as bash asks for it -------------------------------------------------------------


def complete(ledger: Path, line: str) -> list[str]:
    """What Tab offers at the end of ``line`` in bash (which splits words at ``=``)."""
    words = line.replace("=", " = ").split() + ([""] if line.endswith((" ", "=")) else [])
    env = {**os.environ, "_TABLETAPE_COMPLETE": "complete_bash", "TABLETAPE_LEDGER": str(ledger),
           "COMP_WORDS": " ".join(words), "COMP_CWORD": str(len(words) - 1)}
    done = subprocess.run([str(Path(sys.executable).parent / "tabletape")], env=env,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    return done.stdout.split()


@pytest.fixture(scope="module")
def ledger(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("completion") / "ledger"
    result = CliRunner().invoke(APP, ["new", "risk-strike", "-p", "Olga", "-p", "Patrick",
                                      "--id", GAME, "--ledger", str(root)])
    assert result.exit_code == 0, result.output
    return root


@pytest.mark.slow
def test_game_ids_complete_from_the_ledger(ledger: Path) -> None:
    assert complete(ledger, "tabletape status ") == [GAME]
    assert complete(ledger, "tabletape log rs-") == [GAME]
    assert complete(ledger, "tabletape log xy") == []


def test_a_missing_ledger_completes_nothing_and_is_not_created(tmp_path: Path) -> None:
    assert complete(tmp_path / "none", "tabletape status ") == []
    assert not (tmp_path / "none").exists()


@pytest.mark.slow
def test_kinds_and_reports_complete(ledger: Path) -> None:
    assert "risk-strike" in complete(ledger, "tabletape new ")
    assert complete(ledger, "tabletape simulate risk-s") == ["risk-strike"]
    assert complete(ledger, "tabletape demo --game marvel") == ["marvel-united"]
    assert {"players", "dice"} <= set(complete(ledger, "tabletape stats "))


@pytest.mark.slow
def test_record_completes_the_actions_legal_now_then_fields_then_values(ledger: Path) -> None:
    # "Shuffle the white continent cards. Each player draws three and places them faceup in front
    # of them." (Risk Strike rulebook, Setup 1): dealing comes first
    assert complete(ledger, f"tabletape record {GAME} ") == ["deal"]
    assert {"player=", "continents="} <= set(complete(ledger, f"tabletape record {GAME} deal "))
    assert complete(ledger, f"tabletape record {GAME} deal player=") == ["Olga", "Patrick"]
    assert complete(ledger, f"tabletape record {GAME} deal player=P") == ["Patrick"]
