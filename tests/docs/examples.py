"""The runnable-example convention of README.md and docs/ (``docs/explanation/development.md``).

A fenced ``sh`` block runs line by line with bash, a fenced ``python`` block in one namespace per
page, both in a fresh scratch folder with a fresh ledger per page (``TABLETAPE_LEDGER``):

- every command exits 0, unless its line ends with ``  # exits N`` (then exactly N);
- a line starting with ``#`` is a comment; ``#   text`` (a hash and three spaces) right under a
  command (or under another such line) is text that command's output must contain, whitespace
  folded;
- a line ending in a backslash goes on on the next line.

A line that is only ``tabletape`` and its words (no pipe, redirection, variable or other shell
syntax) runs in this process, through the same entry point as the installed command
(:func:`tabletape.main`, with its arguments, environment, folder, a null standard input and its
output in a file), because starting Python for each line would make the examples the slowest
part of the suite; any other line runs with bash. ``TABLETAPE_DOCS_SUBPROCESS=1`` runs every
line with bash, to check that both ways agree.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import subprocess
import sys
import tempfile
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from sybil import Example, Sybil
from sybil.parsers.markdown import CodeBlockParser, PythonCodeBlockParser

ROOT = Path(__file__).resolve().parents[2]
EXITS = re.compile(r"\s{2,}#\s*exits\s+(\d+)\s*$")
EXPECTED = "#   "
TIMEOUT = 120
"""Seconds one command may take before it counts as hung."""
COMMENT = re.compile(r"\s+#[^'\"]*$")
"""A comment at the end of a line (holding no quote, so no quoted text is taken for one)."""
SHELL_SYNTAX = re.compile(r"[|&;<>()$`\\*?~{}\[\]!#]")
"""Characters that make bash do more than split a line into words (then bash runs the line)."""


@dataclass
class Command:
    """One command of an ``sh`` block: its text, the exit status it must end with, the texts its
    output must hold, and the line of the page it starts on."""

    text: str
    line: int
    exit_code: int = 0
    expected: list[str] = field(default_factory=list)


def pages() -> list[Path]:
    """README.md and every Markdown page under docs/ (the build's output left out)."""
    docs = sorted(p for p in (ROOT / "docs").rglob("*.md") if "_build" not in p.parts)
    return [ROOT / "README.md", *docs]


def commands(source: str, first_line: int) -> list[Command]:
    """The commands of an ``sh`` block whose first line is the page's ``first_line``."""
    found: list[Command] = []
    pending = ""
    start = first_line
    last: Command | None = None
    for number, line in enumerate(source.splitlines(), start=first_line):
        if pending:
            line, pending = pending + "\n" + line, ""
        elif line.startswith(EXPECTED) and last is not None:
            last.expected.append(line.removeprefix(EXPECTED).strip())
            continue
        else:
            start = number
        if not line.strip() or line.lstrip().startswith("#"):
            last = None
            continue
        if line.endswith("\\"):
            pending = line
            continue
        match = EXITS.search(line)
        last = Command(line, start, int(match.group(1)) if match else 0)
        found.append(last)
    return found


def folded(text: str) -> str:
    """``text`` with every run of whitespace made one space."""
    return " ".join(text.split())


def environment(scratch: Path) -> dict[str, str]:
    """The environment a page's examples run in: ``tabletape`` on PATH, a fresh ledger, a home
    of their own (no history or data of the person running the tests is read or written)."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("TABLETAPE_")}
    env.update({
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}",
        "TABLETAPE_LEDGER": str(scratch / "ledger"),
        "TABLETAPE_HISTORY": "",
        "HOME": str(scratch / "home"),
        "XDG_DATA_HOME": str(scratch / "home" / "data"),
        "XDG_STATE_HOME": str(scratch / "home" / "state"),
        "XDG_CONFIG_HOME": str(scratch / "home" / "config"),
        "COLUMNS": "100",
        "NO_COLOR": "1",
    })
    (scratch / "home").mkdir(parents=True, exist_ok=True)
    return env


def run_sh(example: Example) -> None:
    """Run every command of an ``sh`` block in order; the first that fails the convention fails
    the page, naming its line."""
    scratch: Path = example.namespace["__scratch__"]
    env: dict[str, str] = example.namespace["__env__"]
    first = example.line + 1  # the fence is on example.line
    for command in commands(str(example.parsed), first):
        words = tabletape_words(command.text)
        if words is None or os.environ.get("TABLETAPE_DOCS_SUBPROCESS") == "1":
            returncode, output = with_bash(command.text, scratch, env)
        else:
            returncode, output = in_process(words, scratch, env)
        where = f"{example.path}:{command.line}: {command.text}"
        assert returncode == command.exit_code, (
            f"{where}\nexited {returncode}, expected {command.exit_code}\n{output}")
        for text in command.expected:
            assert folded(text) in folded(output), f"{where}\nprinted no {text!r}:\n{output}"


def tabletape_words(line: str) -> list[str] | None:
    """The arguments of a line that is only ``tabletape`` and words (a trailing comment left
    out), else None."""
    text = COMMENT.sub("", line)
    if SHELL_SYNTAX.search(text) or "\n" in text:
        return None
    words = shlex.split(text)
    return words[1:] if words and words[0] == "tabletape" else None


def with_bash(line: str, scratch: Path, env: dict[str, str]) -> tuple[int, str]:
    """Run ``line`` with bash: its exit status and its output (standard output, then error)."""
    result = subprocess.run(["bash", "-c", line], cwd=scratch, env=env, stdin=subprocess.DEVNULL,
                            capture_output=True, text=True, timeout=TIMEOUT, check=False)
    return result.returncode, result.stdout + result.stderr


def in_process(words: list[str], scratch: Path, env: dict[str, str]) -> tuple[int, str]:
    """Run ``tabletape WORDS`` through :func:`tabletape.main` in this process, as the installed
    command runs it: its exit status and its output (both streams, in order)."""
    from tabletape import main

    saved = (sys.argv, dict(os.environ), warnings.showwarning, sys.stdin)
    with tempfile.TemporaryFile("w+", encoding="utf-8") as output, \
            open(os.devnull, encoding="utf-8") as null:
        try:
            sys.argv, sys.stdin = ["tabletape", *words], null
            os.environ.clear()
            os.environ.update(env)
            with contextlib.chdir(scratch), contextlib.redirect_stdout(output), \
                    contextlib.redirect_stderr(output):
                code = exit_status(main)
            if "--json" in words:  # main remembers that JSON was asked: a plain line forgets it
                sys.argv = ["tabletape", "--version"]
                with contextlib.redirect_stdout(io.StringIO()), \
                        contextlib.redirect_stderr(io.StringIO()):
                    exit_status(main)
        finally:
            sys.argv, environ, warnings.showwarning, sys.stdin = saved
            os.environ.clear()
            os.environ.update(environ)
        output.seek(0)
        return code, output.read()


def exit_status(main: Callable[[], None]) -> int:
    """The exit status ``main`` ends with, as the interpreter would give it."""
    try:
        main()
    except SystemExit as end:
        if end.code is None or isinstance(end.code, int):
            return end.code or 0
        print(end.code, file=sys.stderr)
        return 1
    return 0


def sybil() -> Sybil:
    """The parsers of the convention: ``sh`` run with bash, ``python`` run in the page's
    namespace; every other block (``text``, ``console``, ``json``...) is only shown."""
    return Sybil(parsers=[CodeBlockParser(language="sh", evaluator=run_sh),
                          PythonCodeBlockParser()])
