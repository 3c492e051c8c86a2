"""The reliability campaign of issue 12, rerunnable: prints a table of cases and failures.

    python bench/reliability.py [--scale 1.0] [--seed 0] [--json]

Cases (each run is one attempt; a failure is a broken promise, listed under the table):

- ``kill-append``: a writer appends batches of notes (several events per append) and prints each
  acknowledged seq; it is SIGKILLed at a random moment. After ``repair`` the log verifies, holds
  every acknowledged event, and ends on a whole batch.
- ``kill-import``: ``tabletape import`` of several logs is SIGKILLed at a random moment. Every
  log then in the ledger is byte for byte one of the sources, and verifies.
- ``concurrent``: several processes append to one game at once (retrying on conflicts); no event
  is lost or doubled and the chain verifies.
- ``tamper``: one random byte of a log is changed; ``verify`` says BAD (never ok, never a crash).
- ``fuzz-record``: a random ``record`` line on a live game: exit 0, 1 or 2, no traceback, the
  log still verifies.
- ``fuzz-import``: a damaged or odd log file (flipped, cut, CRLF, garbage, re-chained with bad
  payloads) is imported: refused, or imported and then ``status`` works; never a traceback.
- ``environment``: commands in a broken environment (a ``--ledger`` that is a file, an over-long
  id, a file size limit, a stray folder and a dangling link in ``games/``, and as root without
  the permission override: a read-only ledger): one message, exit 1 or 2, never a traceback.

A default run takes a few minutes on two cores; ``--scale`` multiplies every count.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tabletape.ledger import Ledger  # noqa: E402
from tabletape.ledger.codec import GENESIS_HASH, decode_line, sealed_record  # noqa: E402

MAIN = f"import sys; sys.path.insert(0, {str(ROOT)!r}); from tabletape import main; main()"
DEAL = ("deal", "player=ann", "continents=asia,europe,africa")
"""An action a new Risk Strike game accepts."""
BATCH = 3
"""Events per append of the kill-append writer."""

WRITER = f"""
import sys
sys.path.insert(0, {str(ROOT)!r})
from tabletape.ledger import Ledger, Noted
store, game = Ledger(sys.argv[1]), sys.argv[2]
seq = store.head(game).seq
while True:
    drafts = [("table", Noted(text="x" * (seq % 200 + 1))) for _ in range({BATCH})]
    seq = store.append(game, drafts, expected_seq=seq)[-1].seq
    print(seq, flush=True)
"""

CONCURRENT = f"""
import sys
sys.path.insert(0, {str(ROOT)!r})
from tabletape.ledger import Ledger, Noted, VersionConflict
store, game, me, count = Ledger(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])
done = 0
while done < count:
    try:
        store.append(game, [(me, Noted(text=f"{{me}} {{done}}"))],
                     expected_seq=store.head(game).seq)
        done += 1
    except VersionConflict:
        pass
"""


@dataclass
class Case:
    """One row of the table."""

    name: str
    runs: int = 0
    failures: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def check(self, ok: bool, why: str) -> None:
        """Count one run; keep ``why`` when it broke a promise."""
        self.runs += 1
        if not ok:
            self.failures.append(why)


def tabletape(*args: str, ledger: Path, timeout: float = 60,
              preexec: Callable[[], None] | None = None, prefix: tuple[str, ...] = ()
              ) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1", "TABLETAPE_LEDGER": str(ledger)}
    return subprocess.run([*prefix, sys.executable, "-c", MAIN, *args], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout, check=False,
                          preexec_fn=preexec)


def clean(completed: subprocess.CompletedProcess[str], codes: tuple[int, ...]) -> str:
    """Why a command's ending breaks the promise (a traceback, an odd code), or ``""``."""
    both = completed.stdout + completed.stderr
    if "Traceback" in both:
        return "traceback: " + completed.stderr.strip().splitlines()[-1][:150]
    if completed.returncode not in codes:
        return f"exit {completed.returncode}: {completed.stderr.strip()[:150]}"
    return ""


def new_game(ledger: Path, kind: str = "risk-strike") -> str:
    made = tabletape("new", kind, "-p", "ann", "-p", "bob", "--seed", "7", "--json",
                     ledger=ledger)
    return json.loads(made.stdout)["game"]


# -- cases ---------------------------------------------------------------------------------------


def kill_append(case: Case, work: Path, rng: random.Random, runs: int) -> None:
    ledger = work / "kill-append"
    game = new_game(ledger)
    for _ in range(runs):
        writer = subprocess.Popen([sys.executable, "-c", WRITER, str(ledger), game],
                                  stdout=subprocess.PIPE, text=True)
        time.sleep(rng.uniform(0.15, 0.6))
        writer.send_signal(signal.SIGKILL)
        acked = [int(line) for line in writer.communicate()[0].split()]
        store = Ledger(ledger)
        store.repair(game)
        check = store.verify(game)
        last = acked[-1] if acked else 0
        problems = [why for bad, why in (
            (not check.ok, f"after repair: {check.problem}"),
            (check.events < last, f"acknowledged event {last} lost ({check.events} kept)"),
            ((check.events - 1) % BATCH != 0, f"half an append kept ({check.events})")) if bad]
        case.check(not problems, "; ".join(problems))
        for backup in ledger.glob("games/*.bak"):
            backup.unlink()


def kill_import(case: Case, work: Path, rng: random.Random, runs: int) -> None:
    source = work / "kill-import-source"
    tabletape("simulate", "risk-strike", "-n", "6", ledger=source)
    files = sorted((source / "games").glob("*.jsonl"))
    sources = {path.read_bytes() for path in files}
    for attempt in range(runs):
        target = work / f"kill-import-{attempt}"
        env = {**os.environ, "TABLETAPE_LEDGER": str(target)}
        importer = subprocess.Popen([sys.executable, "-c", MAIN, "import", *map(str, files)],
                                    env=env, cwd=ROOT, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.2, 1.2))
        importer.send_signal(signal.SIGKILL)
        importer.wait()
        store = Ledger(target)
        bad = [game for game in store.game_ids()
               if store.path(game).read_bytes() not in sources or not store.verify(game).ok]
        case.check(not bad, f"imported half or changed: {', '.join(bad)}")
        shutil.rmtree(target, ignore_errors=True)


def concurrent(case: Case, work: Path, rng: random.Random, runs: int) -> None:
    for attempt in range(runs):
        ledger = work / f"concurrent-{attempt}"
        game = new_game(ledger)
        writers, count = rng.randint(2, 4), rng.randint(10, 30)
        procs = [subprocess.Popen([sys.executable, "-c", CONCURRENT, str(ledger), game,
                                   f"w{n}", str(count)]) for n in range(writers)]
        for proc in procs:
            proc.wait(timeout=300)
        store = Ledger(ledger)
        check = store.verify(game)
        texts = [bytes(decode_line(line).payload) for line in store.lines(game)][1:]
        case.check(check.ok and check.events == 1 + writers * count and
                   len(set(texts)) == len(texts),
                   f"{writers}x{count}: {check.events} events, ok={check.ok}")


def tamper(case: Case, work: Path, rng: random.Random, runs: int) -> None:
    ledger = work / "tamper"
    tabletape("simulate", "risk-strike", "-n", "1", "--seed", "3", ledger=ledger)
    store = Ledger(ledger)
    (game,) = store.game_ids()
    original = store.path(game).read_bytes()
    for _ in range(runs):
        data = bytearray(original)
        at = rng.randrange(len(data))
        data[at] = (data[at] + rng.randint(1, 255)) % 256
        store.path(game).write_bytes(bytes(data))
        try:
            result = store.verify(game)
            case.check(not result.ok, f"byte {at} changed and verify says ok")
        except Exception as error:
            case.check(False, f"byte {at}: verify raised {type(error).__name__}: {error}")
    store.path(game).write_bytes(original)


RECORD_WORDS = ["attack", "roll", "move", "draft", "fortify", "end", "play", "deploy", "undo",
                "from=", "to=", "target=", "by=ann", "by=bob", "by=", "attacker=6,5,1",
                "defender=9", "n=-1", "armies=999999999999999999999", "=", "==", "x=y=z",
                "\x1b[2J", "é", "🎲", "'", '"', "\\", "--json", "a" * 300, "", "None", "null",
                "dice=[1,2]", "count=1e308", "asia", "europe"]


def fuzz_record(case: Case, work: Path, rng: random.Random, runs: int) -> None:
    from typer.testing import CliRunner

    import tabletape as cli_module

    ledger = work / "fuzz-record"
    game = new_game(ledger)
    app, runner = cli_module.build_app(), CliRunner()
    store = Ledger(ledger)
    for _ in range(runs):
        words = [rng.choice(RECORD_WORDS) + rng.choice(["", "", str(rng.randint(-3, 99))])
                 for _ in range(rng.randint(1, 5))]
        result = runner.invoke(app, ["record", game, *words, "--ledger", str(ledger)])
        crashed = result.exception is not None and not isinstance(result.exception, SystemExit)
        if crashed or result.exit_code not in (0, 1, 2) or "Traceback" in result.output:
            case.check(False, f"record {words!r}: exit {result.exit_code} {result.exception!r}")
        else:
            case.check(store.verify(game).ok, f"record {words!r} left the log unverifiable")


def rechained(lines: list[bytes], rng: random.Random) -> bytes:
    """The log's events with one payload made odd, chained anew (so the chain verifies)."""
    records = [decode_line(line) for line in lines]
    pick = rng.randrange(len(records))
    odd = rng.choice([b"{}", b'{"kind":7}', b"[]", b'{"players":[]}', b'{"x":' + b"1" * 5000 +
                      b"}", b'{"seed":-1}', b'"text"'])
    prev, out = GENESIS_HASH, []
    for index, record in enumerate(records):
        payload = odd if index == pick else bytes(record.payload)
        kind = rng.choice(["teleport", record.type]) if index == pick else record.type
        line, sealed = sealed_record(index + 1, record.at, record.actor, kind, payload, prev)
        prev = sealed.hash
        out.append(line + b"\n")
    return b"".join(out)


def fuzzed_file(original: bytes, rng: random.Random) -> bytes:
    lines = original.splitlines()
    how = rng.randrange(6)
    if how == 0:
        data = bytearray(original)
        data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        return bytes(data)
    if how == 1:
        return original[: rng.randrange(len(original))]
    if how == 2:
        return original.replace(b"\n", b"\r\n")
    if how == 3:
        return bytes(rng.randrange(256) for _ in range(rng.randint(0, 400)))
    if how == 4:
        return b"\n".join(rng.sample(lines, len(lines))) + b"\n"
    return rechained(lines, rng)


def fuzz_import(case: Case, work: Path, rng: random.Random, runs: int) -> None:
    from typer.testing import CliRunner

    import tabletape as cli_module

    source = work / "fuzz-import-source"
    tabletape("simulate", "risk-strike", "-n", "1", "--seed", "5", ledger=source)
    (original,) = [p.read_bytes() for p in (source / "games").glob("*.jsonl")]
    app, runner = cli_module.build_app(), CliRunner()
    for attempt in range(runs):
        target = work / f"fuzz-import-{attempt}"
        path = work / f"fuzzed-{attempt}.jsonl"
        path.write_bytes(fuzzed_file(original, rng))
        result = runner.invoke(app, ["import", str(path), "--ledger", str(target)])
        crashed = result.exception is not None and not isinstance(result.exception, SystemExit)
        problems = []
        if crashed or result.exit_code not in (0, 1) or "Traceback" in result.output:
            problems.append(f"import: exit {result.exit_code} {result.exception!r}")
        for game in Ledger(target).game_ids():  # what was accepted must open
            shown = runner.invoke(app, ["status", game, "--ledger", str(target)])
            if shown.exit_code != 0:
                problems.append(f"then status: exit {shown.exit_code} {shown.exception!r}")
        case.check(not problems, f"fuzzed file {attempt}: " + "; ".join(problems))
        path.unlink()
        shutil.rmtree(target, ignore_errors=True)


def environment(case: Case, work: Path, rng: random.Random, runs: int) -> None:
    for attempt in range(runs):
        for name, completed, codes in broken_environments(work / f"env-{attempt}"):
            case.check(not clean(completed, codes), f"{name}: {clean(completed, codes)}")


def broken_environments(folder: Path) -> Iterator[tuple[str, subprocess.CompletedProcess[str],
                                                      tuple[int, ...]]]:
    folder.mkdir(parents=True)
    a_file = folder / "a-file"
    a_file.write_text("x")
    new = ("new", "risk-strike", "-p", "ann", "-p", "bob")
    yield "ledger is a file", tabletape(*new, ledger=a_file), (1,)
    yield "id too long", tabletape(*new, "--id", "x" * 300, ledger=folder / "l1"), (2,)
    ledger = folder / "l2"
    game = new_game(ledger)
    (ledger / "games" / "zz-folder.jsonl").mkdir()
    (ledger / "games" / "zz-link.jsonl").symlink_to(folder / "gone")
    yield "stray entries: list", tabletape("list", ledger=ledger), (0,)
    yield "stray entries: verify --all", tabletape("verify", "--all", ledger=ledger), (1,)
    yield "stray entries: sql", tabletape("sql", "SELECT count(*) FROM games",
                                          ledger=ledger), (0,)
    size = (ledger / "games" / f"{game}.jsonl").stat().st_size

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (size + 10, size + 10))

    yield "file size limit", tabletape("record", game, *DEAL, ledger=ledger, preexec=limit), (1,)
    if os.geteuid() == 0 and shutil.which("setpriv"):
        caps = "-dac_override,-dac_read_search,-fowner"
        drop = ("setpriv", "--bounding-set", caps, "--inh-caps", caps)
        read_only = folder / "l3"
        ro_game = new_game(read_only)
        for path in [read_only / "games" / f"{ro_game}.jsonl", read_only / "games", read_only]:
            path.chmod(0o555 if path.is_dir() else 0o444)
        try:
            yield "read-only: new", tabletape(*new, ledger=read_only, prefix=drop), (1,)
            yield "read-only: record", tabletape("record", ro_game, *DEAL, ledger=read_only,
                                                 prefix=drop), (1,)
        finally:
            for path in [read_only, read_only / "games"]:
                path.chmod(0o755)


CASES: dict[str, tuple[Callable[[Case, Path, random.Random, int], None], int]] = {
    "kill-append": (kill_append, 40),
    "kill-import": (kill_import, 20),
    "concurrent": (concurrent, 6),
    "tamper": (tamper, 2000),
    "fuzz-record": (fuzz_record, 1500),
    "fuzz-import": (fuzz_import, 300),
    "environment": (environment, 2),
}
"""Each case and its runs at ``--scale 1``."""


@contextmanager
def workspace() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="tabletape-reliability-"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def run_cases(scale: float, seed: int, only: list[str] | None = None) -> list[Case]:
    results = []
    for name, (run, count) in CASES.items():
        if only and name not in only:
            continue
        case = Case(name)
        started = time.perf_counter()
        with workspace() as work:
            try:
                run(case, work, random.Random(f"{seed}-{name}"), max(1, round(count * scale)))
            except Exception as error:
                case.check(False, f"the case itself crashed: {type(error).__name__}: {error}")
        case.seconds = time.perf_counter() - started
        results.append(case)
        print_row(case)
    return results


def print_row(case: Case) -> None:
    print(f"{case.name:<14} {case.runs:>7} {len(case.failures):>9} {case.seconds:>8.1f} s",
          flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="Multiply every run count.")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--case", action="append", choices=list(CASES), help="Only this case.")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not args.json:
        print(f"{'case':<14} {'runs':>7} {'failures':>9} {'time':>10}")
    results = run_cases(args.scale, args.seed, args.case)
    failures = [(case.name, why) for case in results for why in case.failures]
    if args.json:
        print(json.dumps({case.name: {"runs": case.runs, "failures": case.failures,
                                      "seconds": round(case.seconds, 1)} for case in results},
                         indent=2))
    else:
        total = sum(case.runs for case in results)
        print(f"{'total':<14} {total:>7} {len(failures):>9}")
        for name, why in failures[:40]:
            print(f"  {name}: {why}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
