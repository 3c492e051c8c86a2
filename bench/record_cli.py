"""``record_cli_vs_python``: whole-process time of ``tabletape record`` / ``python -c "import msgspec"``.

Both are run as fresh processes, alternately, so the interpreter start-up they share is counted
on both sides; lower is better.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.common import Figure, seconds, side_by_side

RECORD_GAME = "ty-bench"


def tiny_runner(folder: Path) -> list[str]:
    """A command running the tabletape CLI with the test-only game registered."""
    script = folder / "tabletape_tiny.py"
    root = Path(__file__).resolve().parent.parent
    script.write_text(
        f"import sys\nsys.path.insert(0, {str(root)!r})\nimport tests.tinygame\n"
        "from tabletape import main\nmain()\n"
    )
    return [sys.executable, str(script)]


def record_figure(quick: bool) -> Figure:
    """Time ``tabletape record GAME cheer`` against a bare interpreter importing msgspec."""
    rounds = 10 if quick else 30
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "TABLETAPE_LEDGER": folder}
        command = tiny_runner(Path(folder))
        run(command + ["new", "tiny", "--player", "ann", "--id", RECORD_GAME], env)
        ours = lambda: seconds(lambda: run(command + ["record", RECORD_GAME, "cheer"], env))  # noqa: E731
        theirs = lambda: seconds(lambda: run([sys.executable, "-c", "import msgspec"], env))  # noqa: E731
        mine, other = side_by_side(ours, theirs, rounds=rounds)
    return Figure(key="record_cli_vs_python", ours=mine * 1000, theirs=other * 1000, unit="ms",
                  target=3, higher_is_better=False, note="whole process, fsync included")


def run(command: list[str], env: dict[str, str]) -> None:
    subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL)


if __name__ == "__main__":
    print(record_figure(quick=True).as_json())
