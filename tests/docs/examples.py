"""The runnable-example convention of README.md and docs/ (``docs/explanation/development.md``).

A fenced ``sh`` block runs line by line with bash, a fenced ``python`` block in one namespace per
page, both in a fresh scratch folder with a fresh ledger per page (``TABLETAPE_LEDGER``):

- every command exits 0, unless its line ends with ``  # exits N`` (then exactly N);
- a line starting with ``#`` is a comment; ``#   text`` (a hash and three spaces) right under a
  command (or under another such line) is text that command's output must contain, whitespace
  folded;
- a line ending in a backslash goes on on the next line.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from sybil import Example, Sybil
from sybil.parsers.markdown import CodeBlockParser, PythonCodeBlockParser

ROOT = Path(__file__).resolve().parents[2]
EXITS = re.compile(r"\s{2,}#\s*exits\s+(\d+)\s*$")
EXPECTED = "#   "
TIMEOUT = 120
"""Seconds one command may take before it counts as hung."""


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
        result = subprocess.run(["bash", "-c", command.text], cwd=scratch, env=env,
                                stdin=subprocess.DEVNULL, capture_output=True, text=True,
                                timeout=TIMEOUT, check=False)
        output = result.stdout + result.stderr
        where = f"{example.path}:{command.line}: {command.text}"
        assert result.returncode == command.exit_code, (
            f"{where}\nexited {result.returncode}, expected {command.exit_code}\n{output}")
        for text in command.expected:
            assert folded(text) in folded(output), f"{where}\nprinted no {text!r}:\n{output}"


def sybil() -> Sybil:
    """The parsers of the convention: ``sh`` run with bash, ``python`` run in the page's
    namespace; every other block (``text``, ``console``, ``json``...) is only shown."""
    return Sybil(parsers=[CodeBlockParser(language="sh", evaluator=run_sh),
                          PythonCodeBlockParser()])
