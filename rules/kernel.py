"""The protocol every game implements, and the registry that finds games by name.

A game is a :class:`Rules` subclass holding metadata as class attributes and pure functions of
``(state, actor, event)``. It declares itself once in a
:class:`~tabletape.rules.manifest.GameManifest` (its names, where its rules and plug-ins live),
found through the ``tabletape.games`` entry points, or registered in code with :func:`register`::

    rules = find_game("strike")        # aliases and unique prefixes work
    rules.start(started)       # state after the game-started event
    rules.check(state, actor, event)  # raises IllegalAction("why, in table words")
    state = rules.apply(state, actor, event)

Rules do no I/O and use no randomness they were not given: dice left out of an action are filled
in by ``rules.complete(state, actor, event, rng)`` and stored. The generator (:func:`chance_rng`)
comes from the game's secret, committed to in its first event (:func:`commitment`) and revealed
when it ends, the event's effective roll index and the field drawn (:func:`field_rng`,
:func:`completed`; :func:`secret_rng` in older logs): nobody can foresee a roll, and after the
reveal anyone can re-derive each one. Older logs, and games started with a
public ``--seed``, derive it from the seed and the event's seq (:func:`dice_rng`,
:func:`roll_dice`).

Logs outlive rule changes. When a new rules version changes an event's payload shape, the game
declares, in ``Rules.upcasters``, how each old shape reads now::

    upcasters = {("roll", "1"): lambda old: {"dice": old["faces"]}}

Folding a log whose game-started says ``rules_version="1"`` then decodes its ``roll`` events
through that function; the stored bytes, and so the hash chain, stay as they were.
"""

from __future__ import annotations

import dataclasses
import difflib
import hashlib
import random
import secrets
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Generic, TypeVar

import msgspec

from tabletape.ledger.errors import ILLEGAL_EXIT, USAGE_EXIT, TabletapeError
from tabletape.ledger.events import (
    LEDGER_EVENTS,
    TABLE,
    Drawn,
    DrawnDraft,
    Event,
    GameStarted,
    SecretRevealed,
    event_type,
)
from tabletape.rules.manifest import GameManifest, discovered, load, warn_not_loaded
from tabletape.rules.names import check_name

S = TypeVar("S")

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]
"""An old event payload (decoded JSON) -> the same event in the current payload shape."""


class RulesError(TabletapeError):
    """Base of the rules' errors: by default input that is not understood (exit 2)."""

    exit_code = USAGE_EXIT


class IllegalAction(RulesError):
    """An action the rules refuse now. The message says why, in table words, and what is allowed.

    >>> IllegalAction("Olga has no Asia cards", allowed=("europe", "africa")).message()
    'Olga has no Asia cards. Allowed: europe, africa.'
    """

    exit_code = ILLEGAL_EXIT

    def __init__(self, reason: str, *, allowed: Sequence[str] = (), rule: str = "") -> None:
        super().__init__(reason)
        self.reason = reason
        self.allowed = tuple(allowed)
        self.rule = rule
        """Where the rulebook says so (section name), when useful to show."""

    def message(self) -> str:
        """The reason, what is allowed, and the rule that says so when one is named.

        >>> IllegalAction("Olga attacks from Kalis", rule="When Can I Attack?").message()
        'Olga attacks from Kalis. Rule: When Can I Attack?'
        """
        text = self.reason.rstrip(".") + "."
        if self.allowed:
            text += " Allowed: " + ", ".join(self.allowed) + "."
        if self.rule:
            text += f" Rule: {self.rule.rstrip('.')}" + ("" if self.rule[-1] in "?!" else ".")
        return text

    def suggesting(self, typed: Sequence[str]) -> IllegalAction:
        """This refusal, with "did you mean" when one of the ``typed`` values is a near miss of
        an allowed value (``asai`` for ``asia``); itself when none is.

        >>> IllegalAction("no such continent", allowed=("asia", "europe")).suggesting(
        ...     ["olga", "asai"]).message()
        "no such continent (did you mean 'asia'?). Allowed: asia, europe."
        """
        if "(did you mean" in self.reason:
            return self  # suggested already, where the value was read
        allowed = {value.casefold() for value in self.allowed}
        for value in typed:
            if value.casefold() in allowed:
                continue
            close = closest(value, self.allowed)
            if close:  # a copy, so an unknown name (exit 2) stays one
                found = type(self).__new__(type(self))
                found.__dict__.update(self.__dict__)
                found.reason = f"{self.reason.rstrip('.')} (did you mean '{close}'?)"
                found.args = (found.reason,)
                return found
        return self

    def __str__(self) -> str:
        return self.message()

    def for_people(self) -> str:
        return f"illegal: {self.message()}"


class UnknownGame(RulesError):
    """No registered game kind matches the name."""


class BadOptions(RulesError):
    """Setup options that do not validate (unknown key, wrong type, wrong player count)."""


class TurnInfo(msgspec.Struct, frozen=True, kw_only=True):
    """Where the game is: shown by ``status``, stored per event in the catalog."""

    turn: int
    """1 for the first player turn; 0 during setup."""
    round: int
    """1 for the first round; 0 during setup."""
    phase: str
    """Phase name in table words, e.g. ``draw``, ``battle: deploy``."""
    active: tuple[str, ...]
    """Who is expected to act now (several in simultaneous windows)."""
    detail: str = ""
    """What happens now, as a sentence for people: ``Olga draws (1 more)``."""


class Result(msgspec.Struct, frozen=True, kw_only=True):
    """How a finished game ended."""

    winners: tuple[str, ...]
    """Winning players (empty when nobody won, e.g. the heroes lost to the villain)."""
    team: str | None = None
    """The winning team or side, when the game has teams (``heroes``, ``villain``, ``autobots``)."""
    reason: str = ""
    """Why it ended, in table words: ``Olga holds two domination coins``."""


def won_words(result: Result) -> str:
    """Who won, in table words: the players (and their team), or a side with no player in it.

    >>> won_words(Result(winners=("Olga",)))
    'Olga won'
    >>> won_words(Result(winners=("Olga", "Patrick"), team="heroes"))
    'Olga and Patrick won (heroes)'
    >>> won_words(Result(winners=(), team="villain"))
    'the villain won'
    >>> won_words(Result(winners=()))
    'nobody won'
    """
    if result.winners:
        team = f" ({result.team})" if result.team else ""
        return f"{' and '.join(result.winners)} won{team}"
    return f"the {result.team} won" if result.team else "nobody won"


class FieldSpec(msgspec.Struct, frozen=True, kw_only=True):
    """One field of an action as a person types it: ``name=value``."""

    name: str
    kind: str
    """``int``, ``str``, ``list[int]``, ``list[str]``, ``bool``."""
    required: bool = True
    choices: tuple[str, ...] = ()
    """Values allowed now, when the rules can list them (for completion and error messages)."""
    doc: str = ""


class ActionSpec(msgspec.Struct, frozen=True, kw_only=True):
    """An action type that may be recorded now, who may record it, and its fields."""

    type: str
    actors: tuple[str, ...]
    fields: tuple[FieldSpec, ...] = ()
    doc: str = ""


class Rules(Generic[S]):
    """Base class of a game's rules. Subclasses set the class attributes and override the methods.

    State ``S`` is any immutable value (a frozen msgspec Struct is the house style); ``apply``
    returns a new state and never changes the one it was given.

    A game's class takes its names from its manifest, declared once::

        class RiskStrike(SteppedRules[State], manifest=MANIFEST): ...
    """

    name: ClassVar[str]
    """Registry name, kebab-case: ``risk-strike``."""
    title: ClassVar[str]
    """Name on the box: ``Risk Strike``."""
    aliases: ClassVar[tuple[str, ...]] = ()
    short: ClassVar[str] = "g"
    """Prefix of game ids of this kind: ``rs`` gives ids like ``rs-k7pq``."""
    rules_version: ClassVar[str] = "1"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 5
    events: ClassVar[tuple[type[Event], ...]] = ()
    """The game's event types (its tagged union), ledger events excluded."""
    Options: ClassVar[type[msgspec.Struct]]
    """Setup options, every field with a default; converted from ``--option KEY=VALUE``."""
    apply_checks: ClassVar[bool] = False
    """True when ``apply`` itself refuses whatever ``check`` refuses (both run one step): a
    stored log is then folded by ``apply`` alone, each event stepped once."""
    several: ClassVar[Mapping[str, str]] = {}
    """Action type -> what one of its steps is called (``{"battle": "exchange"}``): one typed
    line of such an action may give several steps, each checked and stored as its own event,
    all or none (:mod:`tabletape.rules.lines`)."""
    upcasters: ClassVar[Mapping[tuple[str, str], Upcaster]] = {}
    """``(event type, rules_version) -> upcaster``: how a payload stored by an older version
    of the rules reads now. The fold applies it before decoding an event of that type in a log
    whose game-started names that ``rules_version``; the stored bytes (and their hashes) are
    never changed, only the decoded value is. One entry per old version and type, each mapping
    straight to the current shape."""

    def __init_subclass__(cls, manifest: GameManifest | None = None, **kwargs: Any) -> None:
        """Take ``name``, ``title``, ``aliases`` and ``short`` from ``manifest`` when given."""
        super().__init_subclass__(**kwargs)
        if manifest is not None:
            cls.name, cls.title = manifest.name, manifest.title
            cls.aliases, cls.short = manifest.aliases, manifest.short

    # -- setup ---------------------------------------------------------------------------------

    def options(self, raw: Mapping[str, Any], players: Sequence[str]) -> dict[str, Any]:
        """Validate options given as text or values; return them complete, defaults filled in.

        Raises :class:`BadOptions` naming the bad key and what is allowed.
        """
        if not self.min_players <= len(players) <= self.max_players:
            raise BadOptions(
                f"{self.title} is for {self.min_players} to {self.max_players} players, "
                f"not {len(players)}"
            )
        check_player_names(players)
        known = {f.encode_name: f for f in msgspec.structs.fields(self.Options)}
        for key in raw:
            if key not in known:
                raise BadOptions(unknown_name_message("option", key, tuple(known)))
        try:
            values = {k: split_list(v, known[k].type) for k, v in raw.items()}
            converted = msgspec.convert(values, self.Options, strict=False)
        except msgspec.ValidationError as error:
            raise BadOptions(f"bad option: {error}") from None
        self.validate_options(converted, players)
        return msgspec.to_builtins(converted)

    def validate_options(self, options: Any, players: Sequence[str]) -> None:
        """Game-specific checks of converted options; raise :class:`BadOptions`."""

    def start(self, started: GameStarted) -> S:
        """The state right after the game-started event."""
        raise NotImplementedError

    # -- the fold ------------------------------------------------------------------------------

    def check(self, state: S, actor: str, event: Event) -> None:
        """Raise :class:`IllegalAction` unless ``actor`` may record ``event`` now."""
        raise NotImplementedError

    def apply(self, state: S, actor: str, event: Event) -> S:
        """The state after a checked event. Pure: never changes ``state``."""
        raise NotImplementedError

    def complete(self, state: S, actor: str, event: Event, rng: random.Random) -> Event:
        """Fill in what the person asked tabletape to decide (dice left empty), using ``rng``.

        Called before ``check`` when an action is recorded; the filled values are stored, so the
        fold never needs ``rng``. The default returns the event unchanged.
        """
        return event

    # -- what the table sees -------------------------------------------------------------------

    def turn(self, state: S) -> TurnInfo:
        raise NotImplementedError

    def result(self, state: S) -> Result | None:
        """How the game ended, or None while it goes on."""
        raise NotImplementedError

    def legal_actions(self, state: S) -> tuple[ActionSpec, ...]:
        """The action types that may be recorded now, with their fields and who may record them."""
        raise NotImplementedError

    def figures(self, state: S) -> list[dict[str, Any]]:
        """Per-player figures for ``status --json`` (each has at least ``name``)."""
        raise NotImplementedError

    def extra(self, state: S) -> dict[str, Any]:
        """The game's own keys for ``status --json``."""
        return {}

    def bot_action(self, state: S, rng: random.Random) -> tuple[str, Event] | None:
        """A random legal ``(actor, event)`` for the bot, or None when the game is over."""
        raise NotImplementedError

    # -- helpers shared by every game ----------------------------------------------------------

    def event_types(self) -> dict[str, type[Event]]:
        """Every event type a log of this game may hold, by tag."""
        return {event_type(cls): cls for cls in (*LEDGER_EVENTS, *self.events)}

    def default_actor(self, state: S, action: str) -> str | None:
        """Who records ``action`` when nobody is named: the only player who may, else None."""
        for spec in self.legal_actions(state):
            if spec.type == action and len(spec.actors) == 1:
                return spec.actors[0]
        return None


def protocol_version(title: str, version: str, known: Sequence[str]) -> int:
    """The rules version a game-started event names, as a number, for a game that knows the
    versions ``known``. One recorded by a newer tabletape is refused: its log may mean something
    else.

    >>> protocol_version("Risk Strike", "1", ("1", "2"))
    1
    >>> protocol_version("Risk Strike", "3", ("1", "2"))
    Traceback (most recent call last):
    ...
    tabletape.rules.kernel.UnknownGame: Risk Strike rules version '3' is not known to this
    tabletape ...
    """
    if version not in known:
        raise UnknownGame(f"{title} rules version '{version}' is not known to this tabletape "
                          f"(it knows {', '.join(known)}): upgrade tabletape to read this game")
    return int(version)


def check_player_names(players: Sequence[str]) -> None:
    """Refuse (exit 2) a player name that breaks the name rule (:mod:`tabletape.rules.names`)
    and, as :class:`BadOptions`, two names that are the same in any case.

    >>> check_player_names(["Olga", "O'Brien", "Mary Ann"])
    >>> check_player_names(["Olga", "olga"])
    Traceback (most recent call last):
    ...
    tabletape.rules.kernel.BadOptions: player names must be different: 'Olga' and 'olga' differ
    only in case
    """
    for player in players:
        check_name(player)
    seen: dict[str, str] = {}
    for player in players:
        first = seen.setdefault(player.casefold(), player)
        if first is not player:
            raise BadOptions(f"player names must be different: '{first}' and '{player}' differ "
                             "only in case" if first != player else
                             f"player names must be different: '{player}' is given twice")


class SteppedRules(Rules[S]):
    """Rules whose ``check`` and ``apply`` are one pure ``step``: the house style.

    ``step`` returns the state after a legal event and raises :class:`IllegalAction` for any
    other; ``check`` adds, to a refusal that names no allowed values, the action types the actor
    may record now.
    """

    apply_checks: ClassVar[bool] = True

    def step(self, state: S, actor: str, event: Event) -> S:
        raise NotImplementedError

    def check(self, state: S, actor: str, event: Event) -> None:
        try:
            self.step(state, actor, event)
        except IllegalAction as error:
            if error.allowed:
                raise
            raise IllegalAction(error.reason, allowed=self.actions_for(state, actor),
                                rule=error.rule) from None

    def apply(self, state: S, actor: str, event: Event) -> S:
        return self.step(state, actor, event)

    def actions_for(self, state: S, actor: str) -> tuple[str, ...]:
        """The action types ``actor`` may record now."""
        key = actor.strip().casefold()
        return tuple(spec.type for spec in self.legal_actions(state)
                     if key in (name.casefold() for name in spec.actors))


def roll_dice(seed: int, seq: int, count: int, sides: int = 6) -> tuple[int, ...]:
    """Dice rolled by tabletape for the event at ``seq`` of a game seeded with ``seed``: the
    ``count`` dice an event's ``complete`` drew from :func:`dice_rng`, in the order it drew them.

    Deterministic, so an auditor re-derives them from the log:

    >>> roll_dice(42, 7, 3) == roll_dice(42, 7, 3)
    True
    >>> all(1 <= d <= 8 for d in roll_dice(1, 1, 5, sides=8))
    True
    >>> rng = dice_rng(42, 7)
    >>> roll_dice(42, 7, 3) == tuple(rng.randint(1, 6) for _ in range(3))  # one generator
    True
    """
    rng = dice_rng(seed, seq)
    return tuple(rng.randint(1, sides) for _ in range(count))


def dice_rng(seed: int, seq: int) -> Draws:
    """The generator of a game with a public seed (no commitment) for whatever chance decides at
    ``seq``: anyone who reads the log can compute it (the old derivation, kept for old logs)."""
    digest = hashlib.sha256(f"tabletape:{seed}:{seq}".encode()).digest()
    return Draws(int.from_bytes(digest[:8], "big"))


# -- dice no one can foresee: commit, draw by effective roll index, reveal ------------------------

SECRET_BYTES = 32
"""Size of a game's dice secret."""

COMMIT_DOMAIN = b"tabletape/dice-commitment/v1\0"
ROLL_DOMAIN = b"tabletape/dice-roll/v1\0"
"""Domain separation: the commitment and the rolls hash the secret under different prefixes, so
the commitment printed in the log says nothing about any roll."""


def new_secret() -> bytes:
    """A fresh dice secret from the operating system's generator (:mod:`secrets`): the one
    randomness tabletape does not receive (the commands that start a game call this)."""
    return secrets.token_bytes(SECRET_BYTES)


def commitment(secret: bytes) -> str:
    """The commitment written in game-started: SHA-256 (hex) of the domain-separated secret.

    >>> commitment(bytes(32)) == commitment(bytes(32)) != commitment(bytes(31) + b"\\1")
    True
    """
    return hashlib.sha256(COMMIT_DOMAIN + secret).hexdigest()


def secret_rng(secret: bytes, roll: int) -> Draws:
    """The generator of the game's ``roll``-th effective roll (counted from 0): SHA-256 of the
    domain-separated secret and the index seeds it. The same index, the same dice: undoing a roll
    and rolling again draws them again; a note or any event that draws nothing changes nothing.

    >>> secret_rng(bytes(32), 3).random() == secret_rng(bytes(32), 3).random()
    True
    """
    return Draws(roll_seed(secret, roll))


def roll_seed(secret: bytes, roll: int) -> int:
    """The seed of :func:`secret_rng`: SHA-256 of the domain-separated secret and index."""
    return int.from_bytes(hashlib.sha256(ROLL_DOMAIN + secret + roll.to_bytes(8, "big")).digest(),
                          "big")


class Draws(random.Random):
    """A generator that counts the values drawn from it (so the fold knows whether an event drew
    tabletape's dice), or, made with a ``refusal``, refuses every draw with that reason (a game
    whose secret is not here: the table enters its dice).

    Made with ``later``, it is seeded with ``later()`` when first drawn from (a seed that costs
    something to work out is worked out only for an event that draws).

    >>> rng = Draws(5)
    >>> rng.count, rng.randint(1, 6) == random.Random(5).randint(1, 6), rng.count > 0
    (0, True, True)
    >>> Draws(later=lambda: 5).random() == random.Random(5).random()
    True
    """

    def __init__(self, seed: int = 0, *, refusal: str = "",
                 later: Callable[[], int] | None = None) -> None:
        self.refusal = refusal
        self.count = 0
        self.later = later
        super().__init__(seed)

    def drawing(self) -> None:
        if self.refusal:
            raise IllegalAction(self.refusal)
        if self.later is not None:
            later, self.later = self.later, None
            super().seed(later())
        self.count += 1

    def getrandbits(self, k: int, /) -> int:
        self.drawing()
        return super().getrandbits(k)

    def random(self) -> float:
        self.drawing()
        return super().random()


PER_FIELD = "per-field"
"""The mark (``GameStarted.dice_streams``) of a game whose dice draw one stream per field
(:class:`FieldDraws`); older committed logs draw one stream per roll index."""

FIELD_DOMAIN = b"tabletape/dice-field/v2\0"
"""Domain of the per-field streams (apart from :data:`ROLL_DOMAIN`'s per-index ones)."""


def field_seed(secret: bytes, roll: int, field: str) -> int:
    """The seed of field ``field``'s dice at effective roll index ``roll``: SHA-256 of the
    domain, the secret, the index and the field's name.

    >>> field_seed(bytes(32), 0, "attacker") != field_seed(bytes(32), 0, "defender")
    True
    """
    digest = hashlib.sha256(FIELD_DOMAIN + secret + roll.to_bytes(8, "big") + b"\0"
                            + field.encode())
    return int.from_bytes(digest.digest(), "big")


def field_rng(secret: bytes, roll: int, field: str) -> Draws:
    """The generator of field ``field``'s dice at effective roll index ``roll`` in a per-field
    game: the same index and field, the same dice, whatever else the event holds.

    >>> field_rng(bytes(32), 3, "dice").random() == field_rng(bytes(32), 3, "dice").random()
    True
    """
    return Draws(field_seed(secret, roll, field))


class FieldDraws(Draws):
    """The generator of one field of a roll, in a game whose every field draws its own stream
    (:func:`completed`): a side's dice never depend on what the other side typed or how many
    dice it rolls. ``field`` "" is the probe that finds which fields an event leaves out; its
    :meth:`stream` gives each field's generator, and every draw counts on the probe too.

    >>> probe = FieldDraws(bytes(32), lambda: 0)
    >>> a = probe.stream("attacker").random(); probe.count > 0
    True
    >>> a == FieldDraws(bytes(32), lambda: 0, "attacker").random()
    True
    """

    def __init__(self, secret: bytes, roll: Callable[[], int], field: str = "",
                 parent: FieldDraws | None = None) -> None:
        self.secret, self.roll_of, self.field, self.parent = secret, roll, field, parent
        self._index: int | None = None
        super().__init__(later=lambda: field_seed(secret, self.index, field))

    @property
    def index(self) -> int:
        """The effective roll index (worked out once, when first asked)."""
        if self.parent is not None:
            return self.parent.index
        if self._index is None:
            self._index = self.roll_of()
        return self._index

    def drawing(self) -> None:
        super().drawing()
        if self.parent is not None:
            self.parent.count += 1

    def stream(self, field: str) -> FieldDraws:
        """The generator of ``field`` (this one when it is ``field``'s), fresh from its start."""
        if field == self.field:
            return self
        return FieldDraws(self.secret, self.roll_of, field, self.parent or self)


def stream(rng: random.Random, field: str) -> random.Random:
    """What a game's ``complete`` draws ``field`` from when it fills several fields at once
    whose draws would otherwise depend on each other (how many dice one side rolls): the
    field's own stream in a per-field game, else ``rng`` itself (older logs, a public seed)."""
    return rng.stream(field) if isinstance(rng, FieldDraws) else rng


def chance_rng(started: GameStarted, seq: int, roll: int | Callable[[], int],
               secret: bytes | None, refusal: str = "") -> Draws:
    """The generator for the event recorded at ``seq``, the game's ``roll``-th effective roll if
    it draws (``roll`` may be a function, called only then): from the secret for a game with a
    commitment (a :class:`Draws` refusing with ``refusal`` when the secret is not given; a
    :class:`FieldDraws` probe in a game marked :data:`PER_FIELD`, to give to
    :func:`completed`), else from the public seed and the seq."""
    if not started.commitment:
        return dice_rng(started.seed, seq)
    if secret is None or refusal:
        return Draws(refusal=refusal or "tabletape cannot roll for this game here")
    if started.dice_streams == PER_FIELD:
        return FieldDraws(secret, roll if callable(roll) else (lambda: roll))
    if callable(roll):
        return Draws(later=lambda: roll_seed(secret, roll()))
    return secret_rng(secret, roll)


def completed(rules: Rules[Any], state: Any, actor: str, typed: Event, rng: Draws) -> Event:
    """``typed`` with what tabletape decides filled in by ``rules.complete``, from ``rng``
    (:func:`chance_rng`).

    With a :class:`FieldDraws` probe, each field left out is filled from its own stream: a
    first completion (from the probe) finds the fields filled; then, in field order, field F is
    completed again from F's stream on the event with the fields before it filled, and only F
    is kept (when the game fills F only with the others left out, as a Transformers or Deep
    Space battle does, F is completed from the event as typed). Fields a game works out from
    others (a Masterplan card's face) follow the drawn ones, as they would in one completion.
    """
    first = rules.complete(state, actor, typed, rng)
    if not isinstance(rng, FieldDraws) or not rng.count:
        return first
    so_far = typed
    for name in filled_fields(typed, first):
        value = getattr(rules.complete(state, actor, so_far, rng.stream(name)), name)
        if value == getattr(so_far, name):
            value = getattr(rules.complete(state, actor, typed, rng.stream(name)), name)
        so_far = msgspec.structs.replace(so_far, **{name: value})
    return msgspec.structs.replace(first, **{name: getattr(so_far, name)
                                             for name in filled_fields(typed, first)})


def filled_fields(typed: Event, completed: Event) -> tuple[str, ...]:
    """The fields ``complete`` filled in: left at their default when typed, changed since.

    >>> from tabletape.ledger.events import Noted
    >>> typed = Noted(text="x")
    >>> filled_fields(typed, Noted(text="x", about=4)), filled_fields(typed, Noted(text="y"))
    (('about',), ())
    """
    found = []
    for field in msgspec.structs.fields(completed):
        before, after = getattr(typed, field.name), getattr(completed, field.name)
        if before != after and not field.required and before == field_default(field):
            found.append(field.name)
    return tuple(found)


def field_default(field: msgspec.structs.FieldInfo) -> Any:
    """The value an optional field takes when it is left out."""
    if field.default_factory is not msgspec.NODEFAULT:
        return field.default_factory()
    return field.default


def blanked(event: Event, fields: Sequence[str]) -> Event:
    """``event`` with ``fields`` back at their defaults: the action as typed before tabletape
    filled them (what an audit completes again to re-derive a roll)."""
    defaults = {f.name: field_default(f) for f in msgspec.structs.fields(event)
                if f.name in fields and not f.required}
    return msgspec.structs.replace(event, **defaults)


def drawn_draft(actor: str, typed: Event, completed: Event, rng: Draws,
                roll: int | Callable[[], int]) -> tuple[str, Event]:
    """The draft of a completed event: marked with its roll index (``roll``, or ``roll()``) and
    filled fields when its completion drew from ``rng``."""
    if not rng.count:
        return actor, completed
    index = roll() if callable(roll) else roll
    return DrawnDraft(actor, completed, Drawn(roll=index, filled=filled_fields(typed, completed)))


def split_list(value: Any, annotation: Any) -> Any:
    """``"6,3,2"`` becomes ``["6", "3", "2"]`` when the field is a list or tuple."""
    if isinstance(value, str) and is_sequence_type(annotation):
        return [part.strip() for part in value.split(",") if part.strip()]
    return value


def is_sequence_type(annotation: Any) -> bool:
    text = str(annotation)
    return text.startswith(("tuple[", "list[", "typing.Tuple", "typing.List")) or "tuple[" in text


def unknown_name_message(what: str, name: str, allowed: Sequence[str],
                         listed_as: str = "allowed") -> str:
    """``unknown action 'atack' (did you mean 'attack'?); allowed: attack, pass`` (``listed_as``
    names the list when it is not what is allowed now, e.g. a game's actions)."""
    close = closest(name, allowed)
    hint = f" (did you mean '{close}'?)" if close else ""
    listing = ", ".join(allowed) if allowed else "none"
    return f"unknown {what} '{name}'{hint}; {listed_as}: {listing}"


def closest(name: str, allowed: Sequence[str]) -> str | None:
    """The allowed name ``name`` was most likely a typo of, whatever the case, or None.

    >>> closest("bn", ["Ann", "Ben"]), closest("asai", ["asia", "europe"]), closest("x", ["asia"])
    ('Ben', 'asia', None)
    """
    by_folded = {option.casefold(): option for option in allowed}
    close = difflib.get_close_matches(name.casefold(), list(by_folded), n=1, cutoff=0.6)
    return by_folded[close[0]] if close else None


# -- registry ------------------------------------------------------------------------------------

REGISTERED: dict[str, GameManifest] = {}
"""Games registered in code (tests, notebooks) by name; they win over installed ones."""

R = TypeVar("R", bound="Rules[Any] | GameManifest")

_RULES: dict[str, tuple[Any, Rules[Any]]] = {}
"""The Rules object of each game loaded so far, by name, with the manifest's ``rules`` it was
loaded from (one per game per process, unless the manifest's ``rules`` changes)."""


def register(game: R, **parts: Any) -> R:
    """Register a game in code: a :class:`GameManifest`, or a :class:`Rules` object whose names
    make its manifest; ``parts`` (``view=``, ``projections=``, ...) are given as objects or places.
    Installed games need none of this: their manifest is found through their entry point."""
    if isinstance(game, Rules):
        manifest = rules_manifest(game, **parts)
    else:
        manifest = dataclasses.replace(game, **parts)
    REGISTERED[manifest.name] = manifest
    return game


def rules_manifest(rules: Rules[Any], **parts: Any) -> GameManifest:
    """The manifest of a game made in code from its Rules object (names from its attributes)."""
    return GameManifest(name=rules.name, title=rules.title, aliases=rules.aliases,
                        short=rules.short, rules=rules, **parts)


def manifests() -> dict[str, GameManifest]:
    """Every game's manifest by name: installed (entry points) and registered in code."""
    return {**discovered(), **REGISTERED}


def manifest_of(kind: str) -> GameManifest | None:
    """The manifest of the game called exactly ``kind``, or None."""
    return REGISTERED.get(kind) or discovered().get(kind)


def registered() -> tuple[Rules[Any], ...]:
    """Every game's rules, by name; a game whose rules cannot be imported is skipped with a
    :class:`~tabletape.rules.manifest.GameNotLoaded` warning (the others still work)."""
    found = []
    for name, manifest in sorted(manifests().items()):
        try:
            found.append(rules_of(manifest))
        except Exception as error:
            warn_not_loaded(f"'{name}' ({manifest.rules})", error)
    return tuple(found)


def find_game(name: str) -> Rules[Any]:
    """The game kind called ``name``: its registry name, an alias, or a unique prefix of either.

    Only the game found is imported, so recording one game never pays for the others. Raises
    :class:`UnknownGame` with the known kinds (and a "did you mean").
    """
    manifest = find_manifest(name)
    try:
        return rules_of(manifest)
    except (ImportError, AttributeError, TypeError) as error:
        raise UnknownGame(f"game kind '{manifest.name}' is known but its rules cannot be "
                          f"loaded ({type(error).__name__}: {error})") from None


def find_manifest(name: str) -> GameManifest:
    """The manifest :func:`find_game` finds for ``name`` (nothing of the game is imported)."""
    wanted = name.strip().casefold().replace("_", "-").replace(" ", "-")
    every = manifests()
    names = {alias: manifest.name for manifest in every.values() for alias in manifest.names}
    exact = names.get(wanted)
    prefixed = {kind for key, kind in names.items() if key.startswith(wanted)} if wanted else set()
    kind = exact or (prefixed.pop() if len(prefixed) == 1 else None)
    if kind is None:
        raise UnknownGame(unknown_name_message("game kind", name, sorted(every)))
    return every[kind]


def rules_of(manifest: GameManifest) -> Rules[Any]:
    """The Rules object of ``manifest`` (imported and, for a class, instantiated once)."""
    cached = _RULES.get(manifest.name)
    if cached is not None and cached[0] == manifest.rules:
        return cached[1]
    rules = load(manifest.rules)
    rules = rules() if isinstance(rules, type) else rules
    if not isinstance(rules, Rules) or rules.name != manifest.name:
        raise TypeError(f"{manifest.rules!r} is not the Rules of '{manifest.name}'")
    _RULES[manifest.name] = (manifest.rules, rules)
    return rules


def lazy_rules(manifest: GameManifest, package: str) -> Callable[[str], Any]:
    """The ``__getattr__`` of a game package whose ``__init__`` holds only its manifest:
    ``RULES`` (the game's Rules object, as the registry loads it) and the Rules class (the last
    name of the manifest's ``rules``, e.g. ``RiskStrike``) are imported on first use.

    >>> attribute = lazy_rules(GameManifest(name="x", title="X", rules="os.path:join"), "x")
    >>> attribute("join") is __import__("os").path.join
    True
    """
    class_name = str(manifest.rules).rpartition(":")[2].rpartition(".")[2]

    def attribute(name: str) -> Any:
        if name == "RULES":
            return rules_of(manifest)
        if name == class_name:
            return load(manifest.rules)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return attribute


# -- playing without a table ---------------------------------------------------------------------


class BotStuck(RuntimeError):
    """The bot produced an action its own rules refuse: a bug in the game module, never a user's."""


def bot_game(
    rules: Rules[Any], started: GameStarted, rng: random.Random, *, max_events: int = 100_000,
    secret: bytes | None = None,
) -> list[tuple[str, Event]]:
    """Let the game's bot play a whole game from ``started``; return the ``(actor, event)`` list.

    Every event is completed, checked and applied exactly as a recorded one would be (by
    ``apply`` alone for rules whose ``apply`` checks, as the fold does). Game-started
    is seq 1 in a log, so the n-th event here gets seq n + 1 and its dice match a ledger replay.
    A game with a commitment draws from ``secret`` by roll index; events that drew are
    :class:`~tabletape.ledger.events.DrawnDraft`\\s (the bot never undoes, so every roll counts),
    and a game that ends is followed by the table's ``secret-revealed``.
    """
    state = rules.start(started)
    played: list[tuple[str, Event]] = []
    seq, rolls = 2, 0
    while rules.result(state) is None:
        if len(played) >= max_events:
            raise BotStuck(f"{rules.name}: no result after {max_events} events")
        choice = rules.bot_action(state, rng)
        if choice is None:
            break
        actor, typed = choice
        draws = chance_rng(started, seq, rolls, secret)
        event = completed(rules, state, actor, typed, draws)
        try:
            if not rules.apply_checks:  # else apply refuses what check does: one step
                rules.check(state, actor, event)
            state = rules.apply(state, actor, event)
        except IllegalAction as error:
            raise BotStuck(f"{rules.name} bot chose {event!r} for {actor}: {error}") from None
        played.append(drawn_draft(actor, typed, event, draws, rolls))
        rolls += 1 if draws.count else 0
        seq += 1
    if secret is not None and started.commitment and rules.result(state) is not None:
        played.append((TABLE, SecretRevealed(secret=secret.hex())))
    return played
