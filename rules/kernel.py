"""The protocol every game implements: :class:`Rules`, its errors and what it answers with.

A game is a :class:`Rules` subclass holding metadata as class attributes and pure functions of
``(state, actor, event)``. It declares itself once in a
:class:`~tabletape.rules.manifest.GameManifest` (its names, where its rules and plug-ins live),
found through the ``tabletape.games`` entry points, or registered in code with
:func:`tabletape.rules.registry.register` (the registry finds games by name; the dice are
:mod:`tabletape.rules.fair_dice`, a game played by bots :mod:`tabletape.rules.bot_games`)::

    rules = find_game("strike")        # aliases and unique prefixes work
    rules.start(started)       # state after the game-started event
    rules.check(state, actor, event)  # raises IllegalAction("why, in table words")
    state = rules.apply(state, actor, event)

Rules do no I/O and use no randomness they were not given: dice left out of an action are filled
in by ``rules.complete(state, actor, event, rng)`` and stored. The generator
(:func:`~tabletape.rules.fair_dice.chance_rng`) comes from the game's secret, committed to in its
first event and revealed when it ends, the event's effective roll index and the field drawn:
nobody can foresee a roll, and after the reveal anyone can re-derive each one. Older logs, and
games started with a public ``--seed``, derive it from the seed and the event's seq.

Logs outlive rule changes. When a new rules version changes an event's payload shape, the game
declares, in ``Rules.upcasters``, how each old shape reads now::

    upcasters = {("roll", "1"): lambda old: {"dice": old["faces"]}}

Folding a log whose game-started says ``rules_version="1"`` then decodes its ``roll`` events
through that function; the stored bytes, and so the hash chain, stay as they were.
"""

from __future__ import annotations

import difflib
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Generic, TypeVar

import msgspec

from tabletape.ledger.errors import ILLEGAL_EXIT, USAGE_EXIT, TabletapeError
from tabletape.ledger.events import (
    LEDGER_EVENTS,
    Event,
    GameStarted,
    event_type,
)
from tabletape.rules.manifest import GameManifest
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
