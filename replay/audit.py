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
  listed with what came after, players who undid many rolls flagged. Each retracted event is
  shown to it in the state it was recorded in (:class:`Timeline`), not the fold's.

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
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from tabletape.ledger import Ledger, Record
from tabletape.ledger.heads import fork_of
from tabletape.ledger.receipts import vouch_line
from tabletape.ledger.signatures import Vouch, check_signatures
from tabletape.ledger.text import plural, printable
from tabletape.replay.fairness import chi_square_uniform
from tabletape.replay.fairplay import (
    UNDONE_ROLLS,
    FairPlay,
    FairPlayCheck,
    RetractedRoll,
    Roll,
    TypedOver,
    failed,
)
from tabletape.replay.fold import UNDOABLE_SKIP, RefusedEvent, action_text
from tabletape.replay.parts import game_part
from tabletape.replay.undo import redo_walk
from tabletape.replay.visitor import GameInfo, Visit, Visitor, walk
from tabletape.rules.kernel import UnknownGame

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
    simulated: bool = False
    """A game ``simulate`` played: its entered dice were typed by the bots, not at a table."""
    fork: str = ""
    """Why a fork's recorded fork point is no longer its parent's (the parent rewritten or cut
    short since), or "" (no fork, or its parent is not in the ledger)."""
    signatures: list[Vouch] = []
    """Every signature in the log, checked as ``verify`` checks it (forged, over another head,
    with a key the ledger does not know for that name)."""
    problems: list[str] = []
    """One line per failure; empty when the game is clean."""
    warnings: list[str] = []
    """What an auditor should look at that is no failure (players who undid many rolls)."""


class Timeline:
    """The state each event was recorded in, retracted events included.

    The fold skips a retracted event, so its visit's ``before`` is the state without it and
    without the retracted events just before it (a battle undone together with its roll is not in
    that state, and the roll's dice belong to nobody). The table did not skip them when it
    recorded them: this replays each retracted event on the state it was recorded in, and an undo
    puts back the state from before the event it retracts."""

    def __init__(self, info: GameInfo) -> None:
        self.rules, self.retracted = info.rules, info.retracted
        self.state: Any = info.start_state
        self.before: dict[int, Any] = {}
        """Retracted seq -> the state it was recorded in, until its undo comes."""

    def recorded(self, visit: Visit) -> Visit:
        """``visit`` with ``before`` and ``after`` as they were when it was recorded."""
        record = visit.record
        if record.type == "undo":
            undone = getattr(visit.event, "seq", None)
            if undone in self.before:
                self.state = self.before.pop(undone)
            if not self.before:
                self.state = visit.before
            return visit
        if record.type in UNDOABLE_SKIP:
            return visit
        if not self.before and record.seq not in self.retracted:
            self.state = visit.after  # nothing pending: the fold's state is the recorded one
            return visit
        before = self.state
        if record.seq in self.retracted:
            self.before[record.seq] = before
        try:
            self.state = self.rules.apply(before, record.actor, visit.event)
        except Exception:  # the rules check reports an event that does not apply
            self.state = before
        return msgspec.structs.replace(visit, before=before, after=self.state)


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
        self.timeline = Timeline(info)
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
            self.fair.visit(self.timeline.recorded(visit))
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
        report.signatures = signatures_of(ledger, records)
    report.problems = summary(report)
    report.ok = not report.problems
    return report


def signatures_of(ledger: Ledger, records: list[Record]) -> list[Vouch]:
    """The signatures of ``records`` (verified), checked against the keys ``ledger`` knows."""
    from tabletape.ledger.keys import known_keys

    return check_signatures(records, known_keys(ledger))


def fair_play_problem(game: str, records: Sequence[Record]) -> str:
    """``verify``'s dice check of a log whose chain verified (``records``): why a revealed secret
    does not match its commitment or a roll tabletape derived does not re-derive, or ``""``
    (only logs holding a mark of tabletape's dice or a reveal are folded for this)."""
    if not any(r.drawn is not None or r.type == "secret-revealed" for r in records):
        return ""
    report = AuditReport(game=game)
    audit_records(report, game, list(records))
    problems = report.fair_play.problems if report.fair_play is not None else []
    return f"fair play: {problems[0]}" if problems else ""


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
    report.simulated = info is not None and info.started.simulated
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
        fair = report.fair_play
        report.warnings = ([flag.words() for flag in fair.flagged]
                           + [typed.words() for typed in fair.typed_over])


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
    problems += [f"signature at seq {v.at_seq}: {vouch_line(v)}" for v in report.signatures
                 if not v.ok]
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
    warned = (f" · [yellow]{plural(len(report.warnings), 'fair-play warning')}[/]"
              if report.warnings else "")
    verdict = (f"[bold green]clean[/]{warned}" if report.ok
               else f"[bold red]{len(report.problems)} problem(s)[/]{warned}")
    parts: list[RenderableType] = [
        chain_line(report), *fork_lines(report), *signature_lines(report),
        rules_section(report), retractions_section(report),
        times_section(report), conservation_section(report), dice_section(report),
        fair_play_section(report),
    ]
    title = f"[bold]Audit of {escape(printable(report.game))}[/] ({report.kind or '?'})"
    return Panel(Group(*parts), title=title, subtitle=verdict,
                 border_style="green" if report.ok else "red")


def mark(ok: bool) -> str:
    return "[green]✓[/]" if ok else "[bold red]✗[/]"


def chain_line(report: AuditReport) -> Text:
    if report.chain_ok:
        events = plural(report.events, "event")
        return Text.from_markup(f"{mark(True)} hash chain: all {events} verify")
    return Text.from_markup(
        f"{mark(False)} hash chain: broken at seq {report.chain_first_bad_seq}: "
        f"{report.chain_problem} (events 1 to {report.events} verify)")


def fork_lines(report: AuditReport) -> list[Text]:
    """A fork whose parent was rewritten or cut short since: what no longer matches."""
    if not report.fork:
        return []
    return [Text.from_markup(f"{mark(False)} fork point: {escape(report.fork)}")]


def signature_lines(report: AuditReport) -> list[Text]:
    """A line per signature: who vouched for which head, and whether it holds (checked here,
    not taken on the log's word)."""
    from tabletape.replay.heads_view import vouch_mark

    return [Text.from_markup(f"{vouch_mark(v)} signature at seq {v.at_seq}: "
                             f"{escape(vouch_line(v))}") for v in report.signatures]


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
    """Where the dice came from: the scheme, the commitment, each roll derived or entered (and
    its check), why some are not checked, the rolls that do not re-derive, retracted rolls and
    the warnings."""
    fair = report.fair_play
    if fair is None:
        return Text("· fair play: not checked (the rules check did not start)")
    lines: list[RenderableType] = [Text.from_markup(fair_play_head(report, fair))]
    if fair.rolls:
        lines.append(rolls_table(report, fair))
    lines += [Text(f"  {note}", style="dim") for note in fair.notes]
    lines += [Text(f"  ✗ {problem}", style="bold red") for problem in fair.problems]
    if fair.retracted_rolls:
        lines.append(retracted_rolls_table(fair))
    lines += [Text(f"  ⚠ {warning}", style="yellow") for warning in report.warnings]
    return Group(*lines)


def fair_play_head(report: AuditReport, fair: FairPlay) -> str:
    """The fair-play line: the scheme and the commitment, then how many rolls of each kind."""
    if fair.scheme != "committed":
        head = "· fair play: [yellow]public seed[/] (dice anyone could foresee)"
    elif fair.revealed_at is None:
        head = "· fair play: secret committed, not revealed yet"
    else:
        matches = ("matches the commitment" if fair.commitment_ok
                   else "[bold red]does NOT match the commitment[/]")
        head = (f"{mark(not fair.problems)} fair play: secret revealed at seq "
                f"{fair.revealed_at}, {matches}")
    return f"{head}; {roll_counts(report, fair)}"


def roll_counts(report: AuditReport, fair: FairPlay) -> str:
    """``3 rolls: 2 derived by tabletape (1 re-derived, 1 awaiting reveal), 1 entered …``."""
    if not fair.rolls:
        return "no rolls"
    checks = Counter(row.check for row in fair.rolls if row.provenance == "derived")
    said = ", ".join(f"{n} {check}" for check, n in sorted(checks.items()) if check)
    parts = [f"{fair.derived} derived by tabletape" + (f" ({said})" if said else "")
             ] if fair.derived else []
    parts += [f"{fair.entered} {entered_words(report)}"] if fair.entered else []
    unmarked = len(fair.rolls) - fair.derived - fair.entered
    parts += [f"{unmarked} unmarked"] if unmarked else []
    return f"{plural(len(fair.rolls), 'roll')}: {', '.join(parts)}"


def entered_words(report: AuditReport) -> str:
    """Who typed the entered dice: the bots of a simulated game, else the table."""
    return "entered by the bots" if report.simulated else "entered at the table"


CHECK_STYLES = {"re-derived": "green", "awaiting reveal": "dim"}
"""How a derived roll's check is shown (not checked: yellow; does not re-derive: red)."""


def rolls_table(report: AuditReport, fair: FairPlay) -> Table:
    """Every roll marked derived or entered, with the fields tabletape filled and its check.

    Rolls in a row that share their mark, filled fields and check make one line (``12–40``,
    ``15 rolls``): a 100-roll game read whole is one line for its hundred re-derived rolls, and
    what stands out (an undone roll, a typed one among derived ones, a failed check) stands alone
    on its line. ``--json`` lists each roll."""
    table = Table(box=box.SIMPLE_HEAD, title="  rolls", title_justify="left", pad_edge=False)
    undone = any(row.retracted for row in fair.rolls)  # a column only when needed
    for column in ("seq", "who", "action", "dice", "filled", "check",
                   *(["undone"] if undone else [])):
        table.add_column(column, justify="right" if column == "seq" else "left",
                         no_wrap=column in ("seq", "dice"), overflow="fold")
    undone_at = {row.seq: row.undone_at for row in fair.retracted_rolls}
    for run in roll_runs(fair.rolls):
        first, last = run[0], run[-1]
        seq = str(first.seq) if len(run) == 1 else f"{first.seq}–{last.seq}"
        who = ", ".join(dict.fromkeys(row.actor for row in run))
        action = first.action if len(run) == 1 else (
            f"{plural(len(run), 'roll')}: "
            + ", ".join(dict.fromkeys(row.action.split(" ", 1)[0] for row in run)))
        table.add_row(seq, who, action, roll_mark(report, first.provenance),
                      ", ".join(first.filled), check_cell(first),
                      *([f"at {undone_at[first.seq]}" if first.retracted else ""] if undone
                        else []))
    return table


def roll_runs(rolls: list[Roll]) -> list[list[Roll]]:
    """``rolls`` in runs of neighbours with the same mark, filled fields and check (a retracted
    roll is a run of its own)."""
    def key(row: Roll) -> tuple[Any, ...]:
        return (row.seq,) if row.retracted else (row.provenance, tuple(row.filled), row.check)

    return [list(run) for _, run in itertools.groupby(rolls, key)]


def roll_mark(report: AuditReport, provenance: str) -> str:
    if provenance == "entered" and report.simulated:
        return "entered (bots)"
    return provenance


def check_cell(row: Roll) -> Text:
    if row.provenance != "derived":
        return Text("–", style="dim")  # typed dice: nothing to re-derive
    if failed(row.check):
        return Text(row.check, style="bold red")
    return Text(row.check, style=CHECK_STYLES.get(row.check, "yellow"))


def retracted_rolls_table(fair: FairPlay) -> Table:
    """Each retracted roll: who rolled, what, the undo, and what came after (the same dice
    used again, or typed dice instead)."""
    table = Table(box=box.SIMPLE_HEAD, title=f"  retracted rolls: {len(fair.retracted_rolls)}",
                  title_justify="left", pad_edge=False)
    for column in ("seq", "who rolled", "roll retracted", "dice", "undo seq", "by", "then"):
        table.add_column(column, overflow="fold")  # dice are never cut: they are the point
    typed = {row.seq: row for row in fair.typed_over}
    for row in fair.retracted_rolls:
        table.add_row(str(row.seq), row.actor, row.action, row.provenance,
                      str(row.undone_at), row.by, then_cell(row, typed.get(row.seq)))
    return table


def then_cell(row: RetractedRoll, typed: TypedOver | None) -> Text:
    """What came after a retracted roll: its dice again (the same index), or typed dice."""
    if typed is not None:
        return Text(f"{typed.typed_seq} {typed.typed_actor} typed: {typed.typed_action}",
                    style="bold yellow")
    if row.then_seq:
        same = "same dice" if row.then_same else "same roll index, other dice"
        return Text(f"{row.then_seq} {row.then_actor} ({same}): {row.then_action}")
    return Text("")


def audits_view(reports: Sequence[AuditReport]) -> RenderableType:
    """Several audits, and how many were clean."""
    clean = sum(report.ok for report in reports)
    footer = Text(f"{clean} of {len(reports)} game(s) clean",
                  style="bold green" if clean == len(reports) else "bold red")
    return Group(*(audit_view(report) for report in reports), footer)
