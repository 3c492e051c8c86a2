"""Running the CLI in the test's own process, as the tests of many commands do, or in a process
of its own, as a person runs it (:func:`process`).

>>> code, output = run("games", "--json")
>>> code, "risk-strike" in output
(0, True)
>>> said("one\\n  message,   wrapped")
'one message, wrapped'
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

import tabletape

APP = tabletape.build_app()
ROOT = Path(__file__).resolve().parents[2]
MAIN = (f"import sys; sys.path.insert(0, {str(ROOT)!r}); import tests.support.tinygame; "
        "from tabletape import main; main()")
"""What a process runs to be the ``tabletape`` command, the test game "tiny" known to it."""


def run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    """``tabletape ARGS``: its exit status and output. A traceback fails the test: an exception
    other than the exit is raised, and no output may hold one."""
    result = CliRunner().invoke(APP, list(args), env=env)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert "Traceback" not in result.output, result.output
    return result.exit_code, result.output


def said(output: str) -> str:
    """A message as one line (rich wraps it to the terminal's width)."""
    return " ".join(output.split())


def process(*args: str, ledger: Path, columns: int = 200, timeout: float = 60,
            **popen: object) -> subprocess.CompletedProcess[str]:
    """``tabletape ARGS`` with ``ledger`` as the ledger, as a person runs it (a process of its
    own, ``columns`` wide, no colour); asserts no traceback."""
    env = {**os.environ, "COLUMNS": str(columns), "NO_COLOR": "1", "TABLETAPE_LEDGER": str(ledger)}
    completed = subprocess.run([sys.executable, "-c", MAIN, *args], cwd=ROOT, env=env,
                               capture_output=True, text=True, timeout=timeout, check=False,
                               **popen)  # type: ignore[call-overload]
    assert "Traceback" not in completed.stdout + completed.stderr, completed.stderr
    return completed
