"""``startup_*``: each command typed during a game, as a whole process, / ``import msgspec``.

    python bench/startup.py [--rounds N] [--json]

``record``, ``status``, ``actions``, ``log`` and ``undo`` each run as a fresh ``tabletape``
process on a small Risk Strike game (a few bot actions recorded first) in a temporary ledger,
next to ``python -c "import msgspec"``: in every round each command runs paired with a baseline
run, the pair's order swapped each round, so the interpreter start-up both share and the machine's
noise count on both sides. Lower is better; the target is 3× (issue 15).

Bytecode is cached for both sides as an installed package has it (``PYTHONPYCACHEPREFIX`` in the
temporary folder, one warm-up run of each before timing), even where ``PYTHONDONTWRITEBYTECODE``
is set: otherwise every ``tabletape`` run would compile its sources and the bare import would not.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import Figure, figures_table, seconds  # noqa: E402
from bench.record_cli import KIND, tabletape_command, typed_actions  # noqa: E402

GAME = "rs-start"
SETUP_ACTIONS = 6
"""Bot actions recorded before timing, so ``status`` and ``log`` show a game under way."""
COMMANDS = ("record", "status", "actions", "log", "undo")
"""In the order each round runs them: ``undo`` retracts what ``record`` appended, so every round
records the same legal action on the same game."""


def command_lines(tabletape: list[str]) -> dict[str, list[str]]:
    """Each timed command's whole command line (the game's next legal action for ``record``)."""
    _, actions = typed_actions(SETUP_ACTIONS + 1)
    return {"record": [*tabletape, "record", GAME, *actions[SETUP_ACTIONS]],
            **{name: [*tabletape, name, GAME] for name in COMMANDS[1:]}}


def start_game(tabletape: list[str], env: dict[str, str]) -> None:
    """The small game the commands run on, its first bot actions recorded."""
    players, actions = typed_actions(SETUP_ACTIONS)
    run([*tabletape, "new", KIND, *(f"--player={p}" for p in players), "--id", GAME,
         "--seed", "5"], env)
    for action in actions:
        run([*tabletape, "record", GAME, *action], env)


def bench_env(folder: str) -> dict[str, str]:
    """The environment of both sides: the temporary ledger, bytecode cached in ``folder``."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    return {**env, "TABLETAPE_LEDGER": folder, "PYTHONPYCACHEPREFIX": f"{folder}/pycache"}


def measure(rounds: int) -> list[Figure]:
    """One figure per command: median ms of its process over the median of the baseline runs
    (one paired with each command run, so as many baseline runs as all commands' together)."""
    baseline = [sys.executable, "-c", "import msgspec"]
    tabletape = tabletape_command()
    with tempfile.TemporaryDirectory(prefix="tabletape-bench-") as folder:
        env = bench_env(folder)
        start_game(tabletape, env)
        lines = command_lines(tabletape)
        for line in [baseline, *lines.values()]:  # warm-up: bytecode written, caches filled
            run(line, env)
        timed: dict[str, list[float]] = {name: [] for name in COMMANDS}
        bare: list[float] = []
        for round_number in range(rounds):
            for name in COMMANDS:
                ours, theirs = paired(lines[name], baseline, env, swapped=round_number % 2 == 1)
                timed[name].append(ours)
                bare.append(theirs)
    return [figure(name, timed[name], bare) for name in COMMANDS]


def paired(line: list[str], baseline: list[str], env: dict[str, str],
           swapped: bool) -> tuple[float, float]:
    """Seconds of one ``line`` run and one ``baseline`` run, the baseline first if ``swapped``."""
    if swapped:
        theirs = seconds(lambda: run(baseline, env))
        return seconds(lambda: run(line, env)), theirs
    ours = seconds(lambda: run(line, env))
    return ours, seconds(lambda: run(baseline, env))


def figure(name: str, ours: list[float], theirs: list[float]) -> Figure:
    import statistics

    return Figure(key=f"startup_{name}", ours=statistics.median(ours) * 1000,
                  theirs=statistics.median(theirs) * 1000, unit="ms", target=3.0,
                  higher_is_better=False,
                  note=f"whole `tabletape {name}` process, {len(ours)} rounds "
                       f"({len(theirs)} baseline runs)")


def run(line: list[str], env: dict[str, str]) -> None:
    subprocess.run(line, env=env, check=True, stdout=subprocess.DEVNULL)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15,
                        help="rounds of the five commands, each paired with a baseline run")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    figures = measure(args.rounds)
    if args.json:
        print(json.dumps({figure.key: figure.as_json() for figure in figures}, indent=2))
        return
    from rich.console import Console

    Console(width=max(Console().width, 120)).print(
        figures_table(figures, title="start-up of the commands typed during a game"))


if __name__ == "__main__":
    main()
