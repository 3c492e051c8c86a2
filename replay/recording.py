"""Recording one more action on a stored log: open the game (its fold, cached), parse, complete,
check and append; a new game and its dice secret; revealing the secret at the end.

This is the path every recorded action takes, kept free of rich and duckdb so that
``tabletape record`` starts fast.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from tabletape.ledger import (
    TABLE,
    Event,
    GameStarted,
    Ledger,
    Record,
    VersionConflict,
)
from tabletape.ledger.codec import utc_stamp
from tabletape.ledger.events import Drawn, DrawnDraft, SecretRevealed
from tabletape.replay.dice_secret import load_secret
from tabletape.replay.fold import REVEALED, UNDOABLE_SKIP, Folded, Step
from tabletape.rules.actions import (
    ActionSyntaxError,
    ParsedAction,
    event_from,
    field_specs,
    only_choices_filled,
    parse_action,
)
from tabletape.rules.fair_dice import completed, drawn_draft
from tabletape.rules.kernel import (
    IllegalAction,
    Rules,
    RulesError,
    unknown_name_message,
    won_words,
)
from tabletape.rules.lines import split_steps
from tabletape.rules.seats import AmbiguousName, find_seat


def open_game(ledger: Ledger, game: str) -> Folded:
    """Read ``game`` from ``ledger``, its hash chain verified first, and fold it.

    A changed or broken line is named (``ledger.Damaged``) before any rule sees the events, so a
    tampered log never shows as a rule refusing some later event. A long log's fold is kept in the
    ledger's cache and used while the log is byte for byte the one folded
    (:mod:`tabletape.replay.snapshots`).
    """
    from tabletape.replay.snapshots import open_cached  # the fold cache: only when a game opens

    folded = open_cached(ledger, game)
    if folded.started.commitment:
        folded.secret, folded.secret_problem = load_secret(ledger, game, folded.started)
    return folded


def create_game(ledger: Ledger, started: GameStarted, secret: bytes | None,
                **create: Any) -> str:
    """Create a game's log (``create`` as :meth:`Ledger.create` takes it), its dice secret kept
    in the ledger's private area first: a game never commits to a secret that was not kept.
    The secret is removed again when the log cannot be created."""
    if secret is None:
        return ledger.create(started, **create)
    kept = ledger.keep_secret(started.uid, secret)
    try:
        return ledger.create(started, **create)
    except BaseException:
        kept.unlink(missing_ok=True)
        raise


def reveal(ledger: Ledger, game: str, *, at: str | None = None) -> tuple[Folded, Record]:
    """Append the table's ``secret-revealed`` to a game that will not end (abandoned): from then
    on anyone can re-derive its dice, and tabletape rolls no more for it. Refused (nothing
    written) for a game with no secret, one revealed already, or one whose secret is not here."""
    folded = open_game(ledger, game)
    if not folded.started.commitment:
        raise IllegalAction(f"game {game} has no dice secret to reveal: its dice derive from "
                            "the public seed in its first event (a log from before secrets, "
                            "or a game started with --seed)")
    if folded.revealed is not None:
        raise IllegalAction(f"game {game}'s dice secret is revealed already (event "
                            f"{folded.revealed.seq})")
    if folded.secret is None:
        raise IllegalAction(f"{folded.secret_problem}; nor can it be revealed here (reveal it "
                            "from the ledger that started the game)")
    (record,) = ledger.append(game, [(TABLE, SecretRevealed(secret=folded.secret.hex()))],
                              expected_seq=folded.head_seq,
                              expected_hash=folded.records[-1].hash, at=at)
    return open_game(ledger, game), record


def resolve_player(name: str, players: Sequence[str]) -> str:
    """The name a typed ``by=NAME`` means among ``players`` (``table`` among them), as
    :func:`~tabletape.rules.seats.find_seat` reads it; raises :class:`ActionSyntaxError`.

    >>> resolve_player("pat", ("Olga", "Patrick", "table"))
    'Patrick'
    """
    try:
        seat = find_seat(name, players)
    except AmbiguousName as error:
        raise ActionSyntaxError(error.message()) from None
    if seat is None:
        raise ActionSyntaxError(unknown_name_message("player", name, list(players)))
    return players[seat]


def prepare(folded: Folded, text: str | Sequence[str]) -> tuple[str, Event]:
    """Turn typed text into the checked ``(actor, event)`` that would be appended next.

    Raises :class:`ActionSyntaxError` or :class:`IllegalAction` (the rule's reason, with "did
    you mean" when a typed value is a near miss of an allowed one).
    """
    return prepare_step(folded, parse_action(text))


def prepare_line(folded: Folded, text: str | Sequence[str]) -> list[tuple[str, Event]]:
    """The checked ``(actor, event)`` pairs a typed line means: one, or one per step of an action
    the game lets a line give several of (:attr:`Rules.several`, ``battle attacker=3,5
    defender=4,1``).

    Each step is checked on the state the steps before it leave, exactly as if typed alone; a
    step refused names itself (``exchange 3 of 3 (attacker=2 defender=6): …``) and nothing is
    returned, so nothing is stored.
    """
    parsed = parse_action(text)
    noun = folded.rules.several.get(parsed.action)
    cls = folded.rules.event_types().get(parsed.action) if noun else None
    kinds = {spec.name: spec.kind for spec in field_specs(cls)} if cls else {}
    if noun is None or not kinds.keys() >= parsed.values.keys():
        return [prepare_step(folded, parsed)]  # an unknown field is named for the whole line
    steps = split_steps(parsed, kinds, noun)
    prepared: list[tuple[str, Event]] = []
    for index, step in enumerate(steps, 1):
        try:
            draft = prepare_step(folded, step)
        except RulesError as error:
            if len(steps) == 1:
                raise
            raise in_step(error, f"{noun} {index} of {len(steps)} ({values_text(step)})") from None
        prepared.append(draft)
        folded = folded.staging(*draft, drew=isinstance(draft, DrawnDraft))
    return prepared


def values_text(parsed: ParsedAction) -> str:
    """``attacker=3 defender=4``: the fields of one step as typed."""
    return " ".join(f"{key}={value}" for key, value in parsed.values.items()) or "no fields"


def in_step(error: RulesError, where: str) -> RulesError:
    """``error`` (its class and exit status kept) with ``where`` it happened said first."""
    found = copy.copy(error)
    if isinstance(found, IllegalAction):
        found.reason = f"{where}: {found.reason}; nothing was recorded"
        found.args = (found.reason,)
    else:
        found.args = (f"{where}: {error}; nothing was recorded",)
    return found


def prepare_step(folded: Folded, parsed: ParsedAction) -> tuple[str, Event]:
    """The checked ``(actor, event)`` of one parsed action, with "did you mean" on a refusal."""
    try:
        return prepare_parsed(folded, parsed)
    except IllegalAction as refusal:
        typed = [part for value in parsed.values.values() for part in value.split(",")]
        raise refusal.suggesting([part.strip() for part in typed]) from None


def prepare_parsed(folded: Folded, parsed: ParsedAction) -> tuple[str, Event]:
    """The checked ``(actor, event)`` a parsed action means now."""
    rules = folded.rules
    if parsed.action in UNDOABLE_SKIP:
        raise ActionSyntaxError(
            "a game is started with `tabletape new`" if parsed.action == "game-started"
            else "the dice secret is revealed when the game ends, or by `tabletape reveal GAME`"
            if parsed.action == REVEALED
            else f"'{parsed.action}' is not recorded this way; use `tabletape {parsed.action}`"
        )
    types = {tag: cls for tag, cls in rules.event_types().items() if tag not in UNDOABLE_SKIP}
    parsed = only_choices_filled(parsed, types, lambda: rules.legal_actions(folded.state))
    event = event_from(parsed, types)
    refuse_when_over(rules, folded.state)
    if parsed.by:
        actor = resolve_player(parsed.by, (*folded.started.players, "table"))
        return completed_and_checked(folded, actor, event)
    return the_only_actor(folded, parsed.action, event)


def refuse_when_over(rules: Rules[Any], state: Any) -> None:
    """Refuse every action once the game is over, saying how it ended and who won."""
    result = rules.result(state)
    if result is None:
        return
    reason = f" ({result.reason})" if result.reason else ""
    raise IllegalAction(f"the game is over: {won_words(result)}{reason}; nothing more is "
                        "recorded (`tabletape undo` takes back the last action)")


def completed_and_checked(folded: Folded, actor: str, event: Event) -> tuple[str, Event]:
    """The draft of ``event`` with what tabletape decides filled in, once the rules accept it
    from ``actor``: a :class:`~tabletape.ledger.events.DrawnDraft` (stored with its effective
    roll index and the fields filled) when its completion drew tabletape's dice."""
    rng = folded.dice()
    filled = completed(folded.rules, folded.state, actor, event, rng)
    folded.rules.check(folded.state, actor, filled)
    return drawn_draft(actor, event, filled, rng, lambda: folded.rolls)


def the_only_actor(folded: Folded, action: str, event: Event) -> tuple[str, Event]:
    """With nobody named: the one player the rules accept this exact action from.

    The players who may take ``action`` now are tried in turn (those expected to act first; when
    the rules list nobody, those expected to act, so that a refusal gives their own reason, such
    as "Olga has no Gems", rather than "nobody may"). The one accepted acts (``play card=rally``
    is Olga's when only she may play a Rally now); when several would be accepted, the action is
    not credited to anyone by guess: ``by=NAME`` is asked for.
    """
    rules = folded.rules
    active = rules.turn(folded.state).active
    specs = [s for s in rules.legal_actions(folded.state) if s.type == action]
    listed = specs[0].actors if specs else ()
    candidates = sorted(listed or active, key=lambda actor: actor not in active)
    if not candidates:
        allowed = sorted({s.type for s in rules.legal_actions(folded.state)})
        raise IllegalAction(f"nobody may {action} now", allowed=allowed)
    accepted: list[tuple[str, Event]] = []
    refusal: IllegalAction | None = None
    for actor in candidates:
        try:
            accepted.append(completed_and_checked(folded, actor, event))
        except IllegalAction as error:
            refusal = refusal or error
    if not accepted and refusal is not None:
        raise refusal
    if len(accepted) == 1:
        return accepted[0]
    names = ", ".join(actor for actor, _ in accepted)
    raise ActionSyntaxError(f"several players may {action} now; say who with by=NAME "
                            f"(one of: {names})")


def record_action(ledger: Ledger, game: str, text: str | Sequence[str],
                  *, at: str | None = None, expect_seq: int | None = None
                  ) -> tuple[Folded, Record]:
    """Check and append one typed action; return the game folded after it and its record (the
    last one, when the line gives several steps: :func:`record_line`).

    With ``expect_seq`` (the latest event the person saw) a log that has moved on since is a
    :class:`VersionConflict`, so two people recording one action at once store it once.
    """
    folded, records = record_line(ledger, game, text, at=at, expect_seq=expect_seq)
    return folded, records[-1]


def record_line(ledger: Ledger, game: str, text: str | Sequence[str],
                *, at: str | None = None, expect_seq: int | None = None
                ) -> tuple[Folded, list[Record]]:
    """Check and append what one typed line means (one event, or one per step: see
    :func:`prepare_line`) in one write; return the game folded after it and the records.

    ``expect_seq`` as for :func:`record_action`.
    """
    folded = open_game(ledger, game)
    if expect_seq is not None and folded.head_seq != expect_seq:
        raise VersionConflict(game, expect_seq, folded.head_seq)
    return append_all(ledger, folded, prepare_line(folded, text), at=at)


def append_all(ledger: Ledger, folded: Folded, drafts: Sequence[tuple[str, Event]],
               *, at: str | None = None) -> tuple[Folded, list[Record]]:
    """Append already checked events in one write and fold them in (without re-reading); return
    the game after them and their records.

    When they end a game whose secret this ledger keeps, the table's ``secret-revealed`` is
    written in the same append, right after them (in the game's records, not among those
    returned: nothing echoes the secret).
    """
    state = folded.state
    for actor, event in drafts:
        state = folded.rules.apply(state, actor, event)
    reveal = revealing(folded, state)
    stored = ledger.append(folded.game, [*drafts, *reveal], expected_seq=folded.head_seq,
                           expected_hash=folded.records[-1].hash, at=at or utc_stamp())
    records = stored[:len(drafts)]
    steps = [Step(record, event) for record, (_, event) in zip(records, drafts, strict=True)]
    return folded.followed(stored, steps, state), records


def revealing(folded: Folded, state: Any) -> list[tuple[str, Event]]:
    """The table's ``secret-revealed`` when ``state`` ends a game whose secret is here and not
    yet revealed; else nothing."""
    if (folded.secret is None or folded.rules.result(state) is None
            or folded.revealed is not None):
        return []
    return [(TABLE, SecretRevealed(secret=folded.secret.hex()))]


def append_checked(ledger: Ledger, folded: Folded, actor: str, event: Event,
                   *, at: str | None = None, drawn: Drawn | None = None
                   ) -> tuple[Folded, Record]:
    """Append an already checked event (``drawn``: the mark of tabletape's dice it holds) and
    fold it in (without re-reading the log)."""
    draft = (actor, event) if drawn is None else DrawnDraft(actor, event, drawn)
    after, (record,) = append_all(ledger, folded, [draft], at=at)
    return after, record
