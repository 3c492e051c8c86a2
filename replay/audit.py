"""Audit: proof that a recorded game is intact and was played by the rules.

One walk of the log (:func:`tabletape.replay.visitor.walk` with ``check=True``) feeds one visitor
that
gathers everything an auditor asks:

* the hash chain verifies (the first bad seq is named);
* every event is legal under the current rules (each refusal listed with its reason);
* retractions: what was undone, when and by whom;
* recorded-at times never go backwards;
* cards and tokens are conserved: the game's ``conservation(state) -> list[str]`` (named by
  its manifest, :class:`tabletape.rules.manifest.GameManifest`) is asked after every event;
* dice are fair: the game's ``dice(visit) -> list[(player, sides, face)]`` (named by its
  manifest too) lists the dice of each event; faces are counted per player and overall and
  tested against uniform (chi-square);
* fair play (:mod:`tabletape.replay.fairplay`): each roll marked entered or derived, every
  derived roll re-derived from the revealed secret (the commitment checked), retracted rolls
  listed with what came after, players who undid many rolls flagged.

The statistics are :mod:`tabletape.replay.fairness`.
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import msgspec
from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from tabletape.ledger import Ledger, Record, Verification
from tabletape.ledger.heads import fork_of
from tabletape.replay.fairness import chi_square_uniform
from tabletape.replay.fairplay import UNDONE_ROLLS, FairPlay, FairPlayCheck
from tabletape.replay.fold import RefusedEvent, action_text, redo_walk
from tabletape.replay.visitor import GameInfo, Visit, Visitor, walk
from tabletape.rules.kernel import UnknownGame, game_part, plural

LOADED_P = 1e-4
"""Below this p-value (with enough rolls) dice are reported as loaded: the audit fails.

Fair dice fall below it once in 10,000 groups; a game tests one group per player and one overall,
so a ledger of thousands of fair games will show the odd false alarm. Read the counts."""
SUSPICIOUS_P = 0.01
"""Below this p-value dice are reported as suspicious (a warning, not a failure)."""
MIN_EXPECTED = 5
"""Fewer expected rolls per face than this and the chi-square test means little."""

# -- the report ----------------------------------------------------------------------------------


class Finding(msgspec.Struct, frozen=True, kw_only=True):
    """A problem at one event."""

    seq: int
    problem: str
    actor: str = ""
    action: str = ""


class Undone(msgspec.Struct, frozen=True, kw_only=True):
    """One retraction: the action undone, and the undo."""

    seq: int
    actor: str
    action: str
    undone_at: int
    """Seq of the undo event."""
    when: str
    by: str
    redone_at: int | None = None
    """Seq of the ``redo`` that recorded the action again, if one did."""


class DiceGroup(msgspec.Struct, frozen=True, kw_only=True):
    """Face counts of one player's dice (or everyone's: ``player`` is ``all``) of one size."""

    player: str
    sides: int
    rolls: int
    counts: list[int]
    """How often each face came up, face 1 first."""
    chi2: float
    df: int
    p: float
    verdict: str
    """``fair``, ``suspicious``, ``loaded`` or ``too few rolls``."""
    warning: str = ""


class AuditReport(msgspec.Struct, kw_only=True):
    """Everything ``tabletape audit`` found in one game; the ``--json`` shape."""

    game: str
    kind: str = ""
    ok: bool = True
    events: int = 0
    chain_ok: bool = True
    chain_first_bad_seq: int | None = None
    chain_problem: str = ""
    checked_events: int = 0
    """Events walked by the rules (those before the first bad line when the chain is broken)."""
    refused: list[Finding] = []
    times: list[Finding] = []
    conservation_checked: bool = False
    conservation: list[Finding] = []
    dice_checked: bool = False
    dice: list[DiceGroup] = []
    dice_problems: list[Finding] = []
    retractions: list[Undone] = []
    fair_play: FairPlay | None = None
    """Where each roll's dice came from and whether tabletape's re-derive (None when the rules
    check could not start)."""
    fork: str = ""
    """Why a fork's recorded fork point is no longer its parent's (the parent rewritten or cut
    short since), or "" (no fork, or its parent is not in the ledger)."""
    problems: list[str] = []
    """One line per failure; empty when the game is clean."""
    warnings: list[str] = []
    """What an auditor should look at that is no failure (players who undid many rolls)."""


class AuditVisitor(Visitor):
    """Gathers refusals, retractions, time order, conservation and dice from one walk."""

    def __init__(self, undone_rolls: int = UNDONE_ROLLS) -> None:
        self.undone_rolls = undone_rolls
        self.fair: FairPlayCheck | None = None
        self.last_state: Any = None
        self.refused: list[Finding] = []
        self.times: list[Finding] = []
        self.conservation: list[Finding] = []
        self.dice_problems: list[Finding] = []
        self.retractions: list[Undone] = []
        self.faces: dict[tuple[str, int], Counter[int]] = defaultdict(Counter)
        self.seen_problems: set[str] = set()
        self.previous_at: datetime | None = None
        self.last_seq = 0

    def begin_game(self, info: GameInfo) -> None:
        self.info = info
        self.conserve = game_part(info.rules.name, "conservation")
        self.dice = game_part(info.rules.name, "dice")
        self.fair = FairPlayCheck(info, self.dice, self.undone_rolls)
        self.check_conservation(1, info.start_state)

    def visit_event(self, visit: Visit) -> None:
        record = visit.record
        self.last_seq = record.seq
        self.check_time(record)
        if visit.refused:
            self.refused.append(finding(visit, visit.refused))
        if record.seq in self.info.retracted:
            self.note_retraction(visit)
        if self.fair is not None:
            self.fair.visit(visit)
        if visit.effective:
            self.check_conservation(record.seq, visit.after)
            self.count_dice(visit)
            self.last_state = visit.after

    def check_time(self, record: Record) -> None:
        try:
            moment = datetime.fromisoformat(record.at)
        except ValueError:
            self.times.append(Finding(seq=record.seq, problem=f"'{record.at}' is not a time"))
            return
        if self.previous_at is not None and moment < self.previous_at:
            self.times.append(Finding(
                seq=record.seq, actor=record.actor,
                problem=f"recorded at {record.at}, before the event before it "
                        f"({self.previous_at.isoformat().replace('+00:00', 'Z')})"))
        self.previous_at = moment

    def note_retraction(self, visit: Visit) -> None:
        undo = self.info.retracted[visit.record.seq]
        self.retractions.append(Undone(
            seq=visit.record.seq, actor=visit.record.actor, action=action_text(visit.event),
            undone_at=undo.seq, when=undo.at, by=undo.actor))

    def check_conservation(self, seq: int, state: Any) -> None:
        if self.conserve is None:
            return
        try:
            problems = list(self.conserve(state))
        except Exception as error:  # the check itself broke: that is a finding too
            problems = [f"the conservation check raised {type(error).__name__}: {error}"]
        for problem in problems:
            if problem not in self.seen_problems:
                self.seen_problems.add(problem)
                self.conservation.append(Finding(seq=seq, problem=problem))

    def count_dice(self, visit: Visit) -> None:
        if self.dice is None:
            return
        for player, sides, face in self.dice(visit) or ():
            if not 1 <= face <= sides:
                self.dice_problems.append(
                    finding(visit, f"{player}'s die shows {face}, not a face of a d{sides}"))
                continue
            self.faces[(player, sides)][face] += 1


def finding(visit: Visit, problem: str) -> Finding:
    return Finding(seq=visit.record.seq, actor=visit.record.actor,
                   action=action_text(visit.event), problem=problem)


def dice_groups(faces: dict[tuple[str, int], Counter[int]]) -> list[DiceGroup]:
    """One group per player and die size, then one per die size for everyone."""
    overall: dict[int, Counter[int]] = defaultdict(Counter)
    groups = []
    for (player, sides), counter in sorted(faces.items()):
        overall[sides].update(counter)
        groups.append(dice_group(player, sides, counter))
    groups.extend(dice_group("all", sides, counter) for sides, counter in sorted(overall.items()))
    return groups


def dice_group(player: str, sides: int, counter: Counter[int]) -> DiceGroup:
    """Face counts of one group tested against a fair die."""
    counts = [counter.get(face, 0) for face in range(1, sides + 1)]
    rolls = sum(counts)
    statistic, df, p = chi_square_uniform(counts)
    expected = rolls / sides
    warning = ""
    if expected < MIN_EXPECTED:
        warning = (f"too few rolls to judge a d{sides}: {rolls}, fewer than {MIN_EXPECTED} "
                   "expected per face")
        verdict = "too few rolls"
    elif p < LOADED_P:
        verdict = "loaded"
    elif p < SUSPICIOUS_P:
        verdict = "suspicious"
    else:
        verdict = "fair"
    return DiceGroup(player=player, sides=sides, rolls=rolls, counts=counts,
                     chi2=round(statistic, 4), df=df, p=p, verdict=verdict, warning=warning)


def audit_game(ledger: Ledger, game: str, undone_rolls: int = UNDONE_ROLLS) -> AuditReport:
    """Audit one game of ``ledger`` (``undone_rolls``: flag a player with more undone rolls)."""
    verification = ledger.verify(game)
    report = AuditReport(game=game, events=verification.events, chain_ok=verification.ok,
                         chain_first_bad_seq=verification.first_bad_seq,
                         chain_problem=verification.problem)
    readable = verification.events if not verification.ok else None
    records = list(itertools.islice(ledger.read(game), readable))
    if records:
        audit_records(report, game, records, undone_rolls)
        report.fork = fork_of(ledger, records)
    report.problems = summary(report)
    report.ok = not report.problems
    return report


def with_fair_play(ledger: Ledger, verification: Verification) -> Verification:
    """``verify``'s result for a log whose chain verified, failed when a revealed secret does not
    match its commitment or a roll tabletape derived does not re-derive (only logs holding a
    mark of tabletape's dice or a reveal are folded for this)."""
    if not verification.ok:
        return verification
    records = ledger.records(verification.game)
    if not any(r.drawn is not None or r.type == "secret-revealed" for r in records):
        return verification
    report = AuditReport(game=verification.game)
    audit_records(report, verification.game, records)
    problems = report.fair_play.problems if report.fair_play is not None else []
    if not problems:
        return verification
    return msgspec.structs.replace(verification, ok=False, problem=f"fair play: {problems[0]}")


def audit_records(report: AuditReport, game: str, records: list[Record],
                  undone_rolls: int = UNDONE_ROLLS) -> None:
    """Walk ``records`` with the rules and fill in what the audit visitor found."""
    visitor = AuditVisitor(undone_rolls)
    try:
        walk(game, records, visitor, check=True)
    except (RefusedEvent, UnknownGame, msgspec.DecodeError, msgspec.ValidationError) as error:
        reason = error.reason if isinstance(error, RefusedEvent) else str(error)
        visitor.refused.append(Finding(seq=visitor.last_seq + 1,
                                       problem=f"the event does not decode: {reason}; "
                                               "the rules check stopped here"))
    info = getattr(visitor, "info", None)
    report.kind = info.rules.name if info is not None else ""
    report.checked_events = visitor.last_seq
    report.refused = visitor.refused
    report.times = visitor.times
    report.conservation_checked = getattr(visitor, "conserve", None) is not None
    report.conservation = visitor.conservation
    report.dice_checked = getattr(visitor, "dice", None) is not None
    report.dice = dice_groups(visitor.faces)
    report.dice_problems = visitor.dice_problems
    report.retractions = visitor.retractions
    if info is not None and visitor.retractions:
        report.retractions = with_redos(game, info.rules, records, visitor.retractions)
    if visitor.fair is not None and info is not None:
        ended = (info.rules.result(visitor.last_state) if visitor.last_state is not None
                 else None)
        report.fair_play = visitor.fair.finish(ended)
        report.warnings = list(report.fair_play.flagged)


def with_redos(game: str, rules: Any, records: list[Record], undone: list[Undone]
               ) -> list[Undone]:
    """The retractions, each with the seq of the redo that recorded its action again."""
    try:
        again = {seq: redo for redo, seq in redo_walk(game, rules, records).repeats.items()}
    except RefusedEvent:  # an event that does not decode is reported by the rules check
        return undone
    return [msgspec.structs.replace(row, redone_at=again.get(row.seq)) for row in undone]


def summary(report: AuditReport) -> list[str]:
    """One line per failure found."""
    problems = []
    if not report.chain_ok:
        problems.append(f"hash chain broken at seq {report.chain_first_bad_seq}: "
                        f"{report.chain_problem}")
    problems += [f"fork point: {report.fork}"] if report.fork else []
    problems += [f"seq {f.seq}: refused by the rules: {f.problem}" for f in report.refused]
    problems += [f"seq {f.seq}: time goes backwards: {f.problem}" for f in report.times]
    problems += [f"seq {f.seq}: not conserved: {f.problem}" for f in report.conservation]
    problems += [f"seq {f.seq}: {f.problem}" for f in report.dice_problems]
    problems += [f"{g.player}'s d{g.sides} look loaded (p = {g.p:.2g} over {g.rolls} rolls)"
                 for g in report.dice if g.verdict == "loaded"]
    if report.fair_play is not None:
        problems += [f"fair play: {problem}" for problem in report.fair_play.problems]
    return problems


# -- what people read ----------------------------------------------------------------------------


def audit_view(report: AuditReport) -> Panel:
    """The audit of one game as people read it."""
    verdict = ("[bold green]clean[/]" if report.ok
               else f"[bold red]{len(report.problems)} problem(s)[/]")
    parts: list[RenderableType] = [
        chain_line(report), rules_section(report), retractions_section(report),
        times_section(report), conservation_section(report), dice_section(report),
        fair_play_section(report),
    ]
    return Panel(Group(*parts), title=f"[bold]Audit of {report.game}[/] ({report.kind or '?'})",
                 subtitle=verdict, border_style="green" if report.ok else "red")


def mark(ok: bool) -> str:
    return "[green]✓[/]" if ok else "[bold red]✗[/]"


def chain_line(report: AuditReport) -> Text:
    if report.chain_ok:
        events = plural(report.events, "event")
        return Text.from_markup(f"{mark(True)} hash chain: all {events} verify")
    return Text.from_markup(
        f"{mark(False)} hash chain: broken at seq {report.chain_first_bad_seq}: "
        f"{report.chain_problem} (events 1 to {report.events} verify)")


def findings_table(findings: Sequence[Finding], title: str) -> Table:
    table = Table(box=box.SIMPLE_HEAD, title=title, title_justify="left")
    table.add_column("seq", justify="right")
    table.add_column("who")
    table.add_column("action")
    table.add_column("problem", style="red")
    for item in findings:
        table.add_row(str(item.seq), item.actor, item.action, item.problem)
    return table


def rules_section(report: AuditReport) -> RenderableType:
    if not report.refused:
        events = plural(report.checked_events, "event")
        return Text.from_markup(f"{mark(True)} rules: all {events} are legal under the "
                                "current rules")
    return findings_table(report.refused,
                          f"✗ rules: {len(report.refused)} event(s) the current rules refuse")


def retractions_section(report: AuditReport) -> RenderableType:
    if not report.retractions:
        return Text("· retractions: none")
    table = Table(box=box.SIMPLE_HEAD, title=f"· retractions: {len(report.retractions)}",
                  title_justify="left")
    redone = any(row.redone_at for row in report.retractions)  # a column only when needed
    for column in ("seq", "who", "action undone", "undo seq", "when (UTC)", "by",
                   *(["redo seq"] if redone else [])):
        table.add_column(column)
    for row in report.retractions:
        table.add_row(str(row.seq), row.actor, row.action, str(row.undone_at),
                      row.when.replace("T", " ")[:19], row.by,
                      *([str(row.redone_at or "")] if redone else []))
    return table


def times_section(report: AuditReport) -> RenderableType:
    if not report.times:
        return Text.from_markup(f"{mark(True)} times: recorded-at never goes backwards")
    return findings_table(report.times, f"✗ times: {len(report.times)} event(s) out of order")


def conservation_section(report: AuditReport) -> RenderableType:
    if not report.conservation_checked:
        return Text("· conservation: not checked (this game defines no conservation check)")
    if not report.conservation:
        return Text.from_markup(f"{mark(True)} conservation: cards and tokens add up after "
                                "every event")
    return findings_table(report.conservation, "✗ conservation: first seq of each problem")


def dice_section(report: AuditReport) -> RenderableType:
    if not report.dice_checked:
        return Text("· dice: not checked (this game does not say which dice it rolls)")
    if not report.dice and not report.dice_problems:
        return Text("· dice: no dice rolled")
    table = Table(box=box.SIMPLE_HEAD, title="· dice against a fair die (chi-square)",
                  title_justify="left")
    for column in ("player", "die", "rolls", "faces 1…", "chi²", "p", "verdict"):
        table.add_column(column, justify="right" if column in ("rolls", "chi²", "p") else "left")
    for group in report.dice:
        style = {"loaded": "bold red", "suspicious": "yellow", "fair": "green"}.get(
            group.verdict, "dim")
        table.add_row(group.player, f"d{group.sides}", str(group.rolls),
                      " ".join(map(str, group.counts)), f"{group.chi2:.2f}", f"{group.p:.3g}",
                      f"[{style}]{group.verdict}[/]")
    parts: list[RenderableType] = [table]
    parts += [Text(f"  warning: {g.player}: {g.warning}", style="yellow")
              for g in report.dice if g.warning]
    if report.dice_problems:
        parts.append(findings_table(report.dice_problems, "✗ dice that are not faces"))
    return Group(*parts)


def fair_play_section(report: AuditReport) -> RenderableType:
    """Where the dice came from: the scheme, the commitment, entered and derived rolls, the
    rolls that do not re-derive, retracted rolls and flagged players."""
    fair = report.fair_play
    if fair is None:
        return Text("· fair play: not checked (the rules check did not start)")
    counts = (f"{fair.derived} roll(s) derived by tabletape ({fair.rederived} re-derived), "
              f"{fair.entered} entered at the table")
    if fair.scheme != "committed":
        head = f"· fair play: [yellow]public seed[/] (dice anyone could foresee); {counts}"
    elif fair.revealed_at is None:
        head = f"· fair play: secret committed, not revealed yet; {counts}"
    else:
        matches = ("matches the commitment" if fair.commitment_ok
                   else "[bold red]does NOT match the commitment[/]")
        head = (f"{mark(not fair.problems)} fair play: secret revealed at seq "
                f"{fair.revealed_at}, {matches}; {counts}")
    lines: list[RenderableType] = [Text.from_markup(head)]
    if any(row.provenance == "unmarked" for row in fair.rolls):
        lines.append(Text("  a log from before tabletape marked its rolls: entered and derived "
                          "dice cannot be told apart", style="dim"))
    lines += [Text(f"  ✗ {problem}", style="bold red") for problem in fair.problems]
    if fair.retracted_rolls:
        table = Table(box=box.SIMPLE_HEAD, title=f"  retracted rolls: {len(fair.retracted_rolls)}",
                      title_justify="left")
        for column in ("seq", "who rolled", "roll retracted", "dice", "undo seq", "by",
                       "then (same index)"):
            table.add_column(column)
        for row in fair.retracted_rolls:
            then = (f"{row.then_seq} {row.then_actor}: {row.then_action}" if row.then_seq
                    else "")
            table.add_row(str(row.seq), row.actor, row.action, row.provenance,
                          str(row.undone_at), row.by, then)
        lines.append(table)
    lines += [Text(f"  ⚠ {flag}: an auditor may ask why (--undone-rolls N sets the limit)",
                   style="yellow") for flag in fair.flagged]
    return Group(*lines)


def audits_view(reports: Sequence[AuditReport]) -> RenderableType:
    """Several audits, and how many were clean."""
    clean = sum(report.ok for report in reports)
    footer = Text(f"{clean} of {len(reports)} game(s) clean",
                  style="bold green" if clean == len(reports) else "bold red")
    return Group(*(audit_view(report) for report in reports), footer)
