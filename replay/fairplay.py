"""Fair play in an audit: where each roll's dice came from, and whether tabletape's re-derive.

Read with one walk of the log (fed by :class:`tabletape.replay.audit.AuditVisitor`):

* **the scheme**: ``committed`` (the game's first event holds a commitment to a secret kept
  outside the log; revealed when the game ends) or ``public-seed`` (older logs, ``new --seed``:
  anyone who reads the log can foresee the dice);
* **the commitment**: once ``secret-revealed`` is in the log, the secret must hash to it;
* **each roll**: ``derived`` (its envelope says tabletape drew it: ``drawn``, with its effective
  roll index and the fields it filled) or ``entered`` (dice the game lists with no such mark,
  or typed fields tabletape's chance would fill: typed as they landed, cards as seen). A
  derived roll's mark must be one tabletape writes (:func:`mark_problem`); it is then
  completed again from the event as typed (its filled
  fields blank) with the generator of its index (committed) or of its seq (public seed): it must
  give the stored event back, and its index must be the count of rolls before it that were not
  retracted by then. A retracted roll is completed again in the state it was recorded in (the
  audit hands every visit in with the state it was recorded in:
  :class:`tabletape.replay.audit.Timeline`);
* **retracted rolls**: who rolled, what was retracted, by whom, and the roll that took its index
  after (the same dice, used for what); a player whose rolls were undone more than
  :data:`UNDONE_ROLLS` times is flagged (the table is no player: its roll-offs are listed, not
  counted), and so is a roll of tabletape's undone and replaced, wholly or in part, by typed
  dice before tabletape drew for another action.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import msgspec

from tabletape.ledger import TABLE, Record
from tabletape.ledger.events import SecretRevealed
from tabletape.ledger.text import plural
from tabletape.replay.fold import UNDOABLE_SKIP, action_text
from tabletape.replay.visitor import GameInfo, Visit
from tabletape.rules.actions import chance_fields
from tabletape.rules.fair_dice import blanked, chance_rng, commitment, completed, field_default

UNDONE_ROLLS = 2
"""Marked default (no rulebook gives one): a table mis-records a roll now and then, so more than
this many retracted rolls by one player in one game is flagged (a warning: with a committed
secret an undone roll cannot change its dice, but it can let a player see them before choosing
what to use them for). ``audit --undone-rolls N`` overrides it."""


class Roll(msgspec.Struct, frozen=True, kw_only=True):
    """One event that holds dice (or other chance), as the audit classifies it."""

    seq: int
    actor: str
    action: str
    provenance: str
    """``derived`` (tabletape drew it), ``entered`` (typed as it landed) or ``unmarked`` (a log
    from before tabletape marked its draws: either)."""
    roll: int | None = None
    """The effective roll index of a derived roll."""
    filled: list[str] = []
    """The fields tabletape filled in (a derived roll)."""
    retracted: bool = False
    check: str = ""
    """``re-derived``, ``awaiting reveal`` (committed, secret not revealed yet) or why it failed
    (``not tabletape's mark: …``, ``does not re-derive: …``; retracted rolls too: each is
    completed again in the state it was recorded in); "" for an entered roll."""


class RetractedRoll(msgspec.Struct, frozen=True, kw_only=True):
    """A roll an undo took back, and what came after it."""

    seq: int
    actor: str
    action: str
    provenance: str
    undone_at: int
    by: str
    then_seq: int | None = None
    """The next derived roll at the same effective index (the same generator), if any."""
    then_actor: str = ""
    then_action: str = ""
    then_same: bool = False
    """Whether that roll is the very same action and dice (else the same roll index gave other
    dice: some were typed, or the state asked for other dice)."""


class UndoneFlag(msgspec.Struct, frozen=True, kw_only=True):
    """A player whose rolls were undone more often than the limit."""

    player: str
    undone: int
    """How many of the player's rolls an undo took back."""
    limit: int

    def words(self) -> str:
        return (f"{self.player}: {plural(self.undone, 'roll')} undone (more than {self.limit}): "
                "an auditor may ask why (--undone-rolls N sets the limit)")


class TypedOver(msgspec.Struct, frozen=True, kw_only=True):
    """A roll tabletape drew, undone, and typed dice recorded for the same action before
    tabletape drew again (its dice seen, then others entered instead)."""

    seq: int
    actor: str
    """Who tabletape rolled for."""
    undone_at: int
    by: str
    typed_seq: int
    typed_actor: str
    typed_action: str
    typed: list[str] = []
    """The fields tabletape had filled in the undone roll that were typed in the next one."""

    def words(self) -> str:
        return (f"{self.actor}'s roll at seq {self.seq} (tabletape's dice) was undone by "
                f"{self.by} at seq {self.undone_at}, then {self.typed_actor} typed other dice "
                f"at seq {self.typed_seq} ({self.typed_action}; typed: "
                f"{', '.join(self.typed)}, which tabletape had rolled): its dice were seen, "
                "then replaced")


class FairPlay(msgspec.Struct, kw_only=True):
    """The fair-play part of ``audit --json``."""

    scheme: str = ""
    """``committed`` or ``public-seed``."""
    commitment: str = ""
    revealed_at: int | None = None
    commitment_ok: bool | None = None
    """Whether the revealed secret hashes to the commitment (None until revealed)."""
    derived: int = 0
    entered: int = 0
    rederived: int = 0
    """Derived rolls completed again to the very same event."""
    rolls: list[Roll] = []
    retracted_rolls: list[RetractedRoll] = []
    undone_rolls_limit: int = UNDONE_ROLLS
    flagged: list[UndoneFlag] = []
    """Players whose rolls were undone more than ``undone_rolls_limit`` times (warnings)."""
    typed_over: list[TypedOver] = []
    """Rolls of tabletape's undone and replaced, wholly or in part, by typed dice (warnings)."""
    problems: list[str] = []
    """Failures: a commitment that does not match, a roll that does not re-derive."""
    notes: list[str] = []


class FairPlayCheck:
    """Gathers :class:`FairPlay` from the visits of one walk."""

    def __init__(self, info: GameInfo, dice: Any, undone_limit: int = UNDONE_ROLLS) -> None:
        self.info, self.dice = info, dice
        started = info.started
        self.report = FairPlay(scheme="committed" if started.commitment else "public-seed",
                               commitment=started.commitment, undone_rolls_limit=undone_limit)
        self.secret: bytes | None = None
        self.count = 0
        """Rolls drawn so far and not retracted by now: the next derived roll's index."""
        self.drew: dict[int, Record] = {}
        self.visits: dict[int, Visit] = {}
        """The visits of derived rolls (their states, to complete them again at the end)."""
        self.rolls: list[Roll] = []
        self.marks = True
        """Whether the log was written by a tabletape that marks the rolls it draws."""

    # -- the walk ----------------------------------------------------------------------------

    def visit(self, visit: Visit) -> None:
        record = visit.record
        if record.type == "game-started":
            # a log written by a tabletape that marks its draws stores the commitment field,
            # empty or not (game-started stores every field); older logs have none
            self.marks = b'"commitment":' in bytes(record.payload)
        elif record.type == "secret-revealed":
            self.revealed(record, visit.event)
        elif record.type == "undo" and getattr(visit.event, "seq", None) in self.drew:
            self.count -= 1
        if record.drawn is not None:
            self.drew[record.seq] = record
            self.visits[record.seq] = visit
            if record.drawn.roll != self.count:
                self.report.problems.append(
                    f"seq {record.seq}: marked as tabletape's roll {record.drawn.roll}, but it "
                    f"is roll {self.count} (rolls before it, not retracted)")
            self.rolls.append(self.roll(visit, "derived", self.count))
            self.count += 1
        elif record.type not in UNDOABLE_SKIP and (self.holds_dice(visit)
                                                   or self.typed_chance(visit)):
            unmarked = not self.marks and not self.any_marked
            self.rolls.append(self.roll(visit, "unmarked" if unmarked else "entered", None))

    @property
    def any_marked(self) -> bool:
        return bool(self.drew)

    def holds_dice(self, visit: Visit) -> bool:
        if self.dice is None:
            return False
        try:
            return bool(list(self.dice(visit) or ()))
        except Exception:  # the audit's dice section reports a broken dice part
            return False

    def typed_chance(self, visit: Visit) -> bool:
        """Whether the event typed a field tabletape's chance would fill were it left out (a
        card drawn, named as seen: Marvel United's villain-turn card, a hero's draw,
        Transformers' AllSpark cards): an entered chance event, as typed dice are."""
        event, rules = visit.event, self.info.rules
        typed = {f.name for f in msgspec.structs.fields(event)
                 if not f.required and getattr(event, f.name) != field_default(f)}
        if not typed or visit.before is None:
            return False
        try:
            specs = [spec for spec in rules.legal_actions(visit.before)
                     if spec.type == visit.record.type]
            return any(typed & set(chance_fields(rules, visit.before, spec)) for spec in specs)
        except Exception:  # the rules check reports an event the rules cannot read
            return False

    def roll(self, visit: Visit, provenance: str, index: int | None) -> Roll:
        record = visit.record
        filled = list(record.drawn.filled) if record.drawn is not None else []
        return Roll(seq=record.seq, actor=record.actor, action=action_text(visit.event),
                    provenance=provenance, roll=index, filled=filled,
                    retracted=record.seq in self.info.retracted)

    def revealed(self, record: Record, event: Any) -> None:
        report = self.report
        if not isinstance(event, SecretRevealed):
            return
        if not self.info.started.commitment:
            report.problems.append(f"seq {record.seq}: a secret is revealed, but the game "
                                   "committed to none")
            return
        try:
            secret = bytes.fromhex(event.secret)
        except ValueError:
            secret = b""
        ok = commitment(secret) == self.info.started.commitment
        if report.revealed_at is None:
            report.revealed_at, report.commitment_ok = record.seq, ok
            self.secret = secret if ok else None
        if not ok:
            report.problems.append(f"seq {record.seq}: the revealed secret does not match the "
                                   "commitment in game-started")

    # -- after the walk -------------------------------------------------------------------

    def finish(self, result: Any) -> FairPlay:
        """The report, once every visit was seen (``result``: how the game ended, or None)."""
        report = self.report
        report.rolls = [self.checked(row, self.visits.get(row.seq)) for row in self.rolls]
        report.derived = sum(row.provenance == "derived" for row in report.rolls)
        report.entered = sum(row.provenance == "entered" for row in report.rolls)
        report.rederived = sum(row.check == "re-derived" for row in report.rolls)
        report.problems += [f"seq {row.seq}: {row.check}" for row in report.rolls
                            if failed(row.check)]
        report.retracted_rolls = self.retracted_rolls(report.rolls)
        report.flagged = undone_flags(report.retracted_rolls, report.undone_rolls_limit)
        report.typed_over = typed_over(report.rolls, report.retracted_rolls)
        report.notes = self.notes(result)
        return report

    def notes(self, result: Any) -> list[str]:
        report, notes = self.report, []
        if report.scheme == "public-seed":
            notes.append("dice derive from the public seed in game-started and each event's "
                         "seq: anyone who read the log could foresee them (a log from before "
                         "secrets, or a game started with --seed)")
        elif report.revealed_at is None:
            notes.append("the dice secret is not revealed yet: derived rolls are checked once "
                         "it is (the game's end, or `tabletape reveal`)"
                         + (" — the game has ended: reveal it" if result is not None else ""))
        if any(row.provenance == "unmarked" for row in report.rolls):
            notes.append("this log is from before tabletape marked its rolls: entered and "
                         "derived dice cannot be told apart")
        return notes

    def checked(self, row: Roll, visit: Visit | None) -> Roll:
        """``row`` with the outcome of completing its event again (derived rolls): first its
        mark must be one tabletape writes (:func:`mark_problem`)."""
        if row.provenance != "derived" or visit is None:
            return row
        assert visit.record.drawn is not None
        bad = mark_problem(visit.event, visit.record.drawn.filled, visit.record.type)
        if bad:
            return msgspec.structs.replace(row, check=f"{BAD_MARK}: {bad}")
        if self.info.started.commitment and self.secret is None:
            return msgspec.structs.replace(row, check="awaiting reveal")
        return msgspec.structs.replace(row, check=self.rederive(visit, row.roll or 0))

    def rederive(self, visit: Visit, index: int) -> str:
        """``re-derived``, or why completing the event as typed does not give it back."""
        record, rules = visit.record, self.info.rules
        assert record.drawn is not None
        typed = blanked(visit.event, record.drawn.filled)
        rng = chance_rng(self.info.started, record.seq, index, self.secret)
        try:
            again = completed(rules, visit.before, record.actor, typed, rng)
        except Exception as error:  # a tampered event may break complete: that is the finding
            return f"does not re-derive: completing it again failed ({error})"
        if again != visit.event:
            return (f"does not re-derive: tabletape's dice for roll {index} give "
                    f"'{action_text(again)}', the log holds '{action_text(visit.event)}'")
        return "re-derived"

    def retracted_rolls(self, rolls: list[Roll]) -> list[RetractedRoll]:
        found = []
        for row in rolls:
            if not row.retracted:
                continue
            undo = self.info.retracted[row.seq]
            then = next((later for later in rolls if later.seq > row.seq
                         and later.roll == row.roll and row.roll is not None
                         and later.provenance == "derived"), None)
            found.append(RetractedRoll(
                seq=row.seq, actor=row.actor, action=row.action, provenance=row.provenance,
                undone_at=undo.seq, by=undo.actor, then_seq=then.seq if then else None,
                then_actor=then.actor if then else "", then_action=then.action if then else "",
                then_same=then is not None and then.action == row.action))
        return found


BAD_MARK = "not tabletape's mark"
"""The check of a derived roll whose ``drawn`` mark tabletape never writes."""


def failed(check: str) -> bool:
    """Whether a roll's check is a failure (a bad mark, or it does not re-derive)."""
    return check.startswith(("does not", BAD_MARK))


def mark_problem(event: Any, filled: Sequence[str], action: str) -> str:
    """Why ``filled`` (a derived event's ``drawn.filled``) is not a mark tabletape writes, or
    "": tabletape marks an event only when its chance filled a field, and names each field it
    filled once, a field of the event that no longer holds its default. (A mark that leaves out
    a field tabletape filled, or a dropped mark, reads as dice typed at the table: only noted
    heads and signatures tell that rewrite from honest typing.)"""
    fields = {f.name: f for f in msgspec.structs.fields(event) if not f.required}
    if not filled:
        return "it names no filled field"
    twice = sorted(name for name, n in Counter(filled).items() if n > 1)
    if twice:
        return f"it names {', '.join(twice)} twice"
    unknown = [name for name in filled if name not in fields]
    if unknown:
        return f"{', '.join(unknown)}: no field of {action} that tabletape fills"
    unfilled = [name for name in filled if getattr(event, name) == field_default(fields[name])]
    if unfilled:
        return f"{', '.join(unfilled)} is left empty, yet marked as filled"
    return ""


def undone_flags(retracted: list[RetractedRoll], limit: int) -> list[UndoneFlag]:
    """The players (not the table) with more than ``limit`` rolls undone."""
    undone = Counter(row.actor for row in retracted if row.actor != TABLE)
    return [UndoneFlag(player=who, undone=n, limit=limit)
            for who, n in sorted(undone.items()) if n > limit]


def typed_over(rolls: list[Roll], retracted: list[RetractedRoll]) -> list[TypedOver]:
    """Each retracted roll of tabletape's whose next roll of the same action, recorded after
    its undo and before tabletape drew for another action, typed a field tabletape had filled
    (all typed, or one side typed and the other left to tabletape)."""
    found = []
    by_seq = {row.seq: row for row in rolls}
    for row in retracted:
        if row.provenance != "derived":
            continue
        after = (later for later in rolls if later.seq > row.undone_at)
        then = next((later for later in after
                     if later.provenance == "derived" or same_action(later, row)), None)
        if then is None or not same_action(then, row):
            continue
        filled = by_seq[row.seq].filled
        typed = [name for name in filled if name not in then.filled] \
            if then.provenance == "derived" else list(filled)
        if typed:
            found.append(TypedOver(seq=row.seq, actor=row.actor, undone_at=row.undone_at,
                                   by=row.by, typed_seq=then.seq, typed_actor=then.actor,
                                   typed_action=then.action, typed=typed))
    return found


def same_action(one: Roll | RetractedRoll, other: Roll | RetractedRoll) -> bool:
    """Whether two rolls are the same action (``roll``, ``roll-off``…), whatever their dice."""
    return one.action.split(" ", 1)[0] == other.action.split(" ", 1)[0]


