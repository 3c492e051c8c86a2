"""Running the CLI in the test's own process, as the tests of many commands do.

>>> code, output = run("games", "--json")
>>> code, "risk-strike" in output
(0, True)
>>> said("one\\n  message,   wrapped")
'one message, wrapped'
"""

from __future__ import annotations

from typer.testing import CliRunner

import tabletape

APP = tabletape.build_app()


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
