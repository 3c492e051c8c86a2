"""What an effect's results may be, window by window.

Each result recorded in a window adds to its *tally* (``damage:0``, ``fear``, ``thugs+:3``,
``crisis-:1``, ``relocate:0``…). Where the data says what the effect is (the villain's BaM! and
overflow on the dashboard, a Location's End of Turn effect) a result must fit what is still
allowed, and ``done`` waits for what is still owed. Where the effect needs the table's judgement
(a Threat's text, a Masterplan card's or a hero's special) the result is recorded after its
bookkeeping is checked: who gains, where, how many.
"""

from __future__ import annotations

from itertools import takewhile

from tabletape.ledger.events import Event
from tabletape.rules.marvel_united import data
from tabletape.rules.marvel_united.events import (
    Damaged,
    Discarded,
    Drew,
    Gained,
    Hit,
    Invulnerable,
    Plot,
    Relocated,
    Swapped,
    Tokens,
)
from tabletape.rules.marvel_united.state import (
    NOBODY,
    State,
    Step,
    Threat,
    passes_by_itself,
    present,
    recorded_as_v1,
    seat_of,
)
from tabletape.rules.steps import refuse

Tally = tuple[tuple[str, int], ...]
Limits = dict[str, int]
VILLAIN_KINDS = ("threat-move", "bam", "overflow", "special", "ko-bam")
TOKENS = ("thugs", "civilians", "crisis")
TOKEN_WORDS = {"thugs": ("Thug", "Thugs"), "civilians": ("Civilian", "Civilians"),
               "crisis": ("Crisis token", "Crisis tokens")}


# -- the tally ---------------------------------------------------------------------------------


def entries(state: State, head: Step, event: Event) -> Tally:
    """What a result adds to its window's tally (amounts positive; ``+`` added, ``-`` removed)."""
    match event:
        case Drew(hero=""):
            return ((f"draw:{head.hero}", len(event.cards)),)
        case Damaged() if head.kind == "location" and recorded_as_v1(state):
            return ((f"discard:{hero_seat(state, event.hero)}", len(event.cards)),)
        case Damaged():
            return ((f"damage:{hero_seat(state, event.hero)}", len(event.cards)),)
        case Discarded():
            seat = hero_seat(state, event.hero) if event.hero else head.hero
            return ((f"discard:{seat}", len(event.cards)),)
        case Plot():
            return (("fear", event.amount),)
        case Tokens():
            index = place_named(state, event.location)
            changes = zip(TOKENS, (event.thugs, event.civilians, event.crisis), strict=True)
            return tuple((f"{what}{'+' if n > 0 else '-'}:{index}", abs(n))
                         for what, n in changes if n)
        case Relocated():
            return ((f"relocate:{hero_seat(state, event.hero)}", 1),)
        case Drew():
            return ((f"draw:{hero_seat(state, event.hero)}", len(event.cards)),)
        case Gained():
            return ((f"gain:{hero_seat(state, event.hero)}", len(event.tokens)),)
        case Hit():
            return ((f"hit:{event.target}", event.amount),)
        case Invulnerable():
            return ((f"invulnerable:{hero_seat(state, event.hero)}", 1),)
        case Swapped():
            return ((f"swap:{head.hero}", 1),)
    return ()


def hero_seat(state: State, text: str) -> int:
    """The seat a typed hero name means, ``NOBODY`` for none (the tally's check refuses it)."""
    seat = seat_of(state, text)
    return NOBODY if seat is None else seat


def place_named(state: State, text: str) -> int:
    key = text.strip().casefold()
    return next((i for i, p in enumerate(state.places) if p.name == key), NOBODY)


def total(head: Step, prefix: str) -> int:
    """The tally of every key starting with ``prefix`` (``thugs+:`` anywhere)."""
    return sum(n for k, n in head.tally if k.startswith(prefix))


# -- the checks --------------------------------------------------------------------------------


def check_result(state: State, head: Step, event: Event) -> Tally:
    """Refuse a result the effect being resolved cannot have; else what it adds to the tally.
    ``state`` is the state before the result."""
    tally = entries(state, head, event)
    if state.typos == "refuse" and not any(n for _, n in tally) and changes(event):
        refuse("this result changes nothing: say what it changes (thugs=-1, amount=1, "
               "tokens=move…)")
    if head.kind in VILLAIN_KINDS:
        villain_bookkeeping(event)
    elif head.kind != "location":
        hero_bookkeeping(event)
    check_limits(state, head, tally)
    if head.kind == "location":  # after the limits: a result elsewhere is refused for that
        location_bookkeeping(state, head, event)
    return tally


def changes(event: Event) -> bool:
    """Whether a result's tally is its whole change (a relocation or an Invulnerable token
    counts 1 whatever it changes: :func:`unchanged` checks those)."""
    return isinstance(event, Tokens | Hit | Gained)


def unchanged(state: State, what: str) -> None:
    """Refuse a relocation or an Invulnerable token that changes nothing (option
    ``typos=refuse``)."""
    typo(state, f"this result changes nothing: {what}")


def typo(state: State, reason: str, allowed: tuple[str, ...] = ()) -> None:
    """Refuse an entry the table surely mistyped, unless the game keeps them (option
    ``typos=keep``, and logs made before it)."""
    if state.typos == "refuse":
        refuse(reason, allowed)


def check_limits(state: State, head: Step, tally: Tally) -> None:
    """Refuse a tally beyond what the data says the effect still allows."""
    allowed = joint_limits(state, answered(state))
    if allowed is None:
        return
    for key, amount in tally:
        room = allowed.get(key, 0)
        if amount <= room:
            continue
        if head.kind == "bam" and extra_bam_result(state, key):
            continue
        expected = words(state, allowed) or "nothing more (then 'done')"
        refuse(f"{effect_words(state, head)}: not {words(state, {key: amount})}; "
               f"still allowed: {expected}")


def check_done(state: State, head: Step) -> None:
    """Refuse ``done`` while the data says the effect still owes a result."""
    due = still_owed(state)
    if due:
        refuse(f"{effect_words(state, head) or head.kind} is not finished: still expected "
               f"{words(state, due)}")


def villain_bookkeeping(event: Event) -> None:
    """A villain's effect hurts the heroes: it gives them nothing, credits no Mission and
    harms neither the villain nor his Henchmen (a reading)."""
    match event:
        case Tokens(mission=True):
            refuse("a villain's effect discards tokens to the pool: only Thugs the heroes "
                   "defeat and Civilians they rescue go to a Mission (mission=false)")
        case Gained() | Drew() | Invulnerable():
            refuse("a villain's effect gives the heroes no Action tokens, cards or "
                   "Invulnerable tokens")
        case Hit(amount=amount) if amount > 0:
            refuse("a villain's effect does not damage the villain or his Henchmen "
                   "(a negative amount restores health)")
        case Plot(amount=amount) if amount < 0:
            refuse("a villain's effect does not lower his own track")


def hero_bookkeeping(event: Event) -> None:
    """A hero's special helps the heroes: it damages no hero, advances no villain's track and
    heals no enemy (a reading; its text is on the card)."""
    match event:
        case Damaged():
            refuse("a hero's special effect does not damage heroes")
        case Plot(amount=amount) if amount > 0:
            refuse("a hero's special effect does not advance the villain's track")
        case Hit(amount=amount) if amount < 0:
            refuse("a hero's special effect does not restore the villain's or a Henchman's "
                   "health")


def location_bookkeeping(state: State, head: Step, event: Event) -> None:
    """A Location effect's tokens go to a Mission only when rescued or defeated here."""
    allows = location_allows(state, head)
    if isinstance(event, Tokens):
        here = place_named(state, event.location) == head.place
        defeat = allows.thugs and here and event.thugs < 0
        if event.mission and not (rescued(state, head, event) or defeat):
            refuse(f"{effect_words(state, head)} discards tokens to the pool (mission=false)")
        if rescued(state, head, event) and not to_mission(state, head, event):
            refuse("a rescued Civilian goes to the Rescue Civilians Mission (mission=true)")


def rescued(state: State, head: Step, event: Tokens) -> bool:
    """Civilians a Location effect rescues here (Times Square)."""
    return (head.kind == "location" and bool(location_allows(state, head).rescue)
            and place_named(state, event.location) == head.place and event.civilians < 0)


def to_mission(state: State, head: Step, event: Tokens) -> bool:
    """Whether removed tokens go to a Mission: ``mission=true``; version 1 typed a Location
    effect's rescue without it, and the Civilian goes to the Mission all the same."""
    return event.mission or (recorded_as_v1(state) and rescued(state, head, event))


def extra_bam_result(state: State, key: str) -> bool:
    """A BaM! result beyond the dashboard's, left to a BaM! Threat's text: damage to a hero at
    the villain's location or at a BaM! Threat's, or tokens anywhere (a reading)."""
    if not bam_threats(state):
        return False
    if key.startswith("damage:"):
        seat = int(key.partition(":")[2])
        where = {state.villain_at, *(t.place for t in bam_threats(state))}
        return state.heroes[seat].location in where
    return True


def bam_threats(state: State) -> list[Threat]:
    return [t for t in state.threats if t.bam and not t.cleared]


RESULT_TYPES = {"damage": "damage", "discard": "discard", "fear": "plot", "thugs": "tokens",
                "civilians": "tokens", "crisis": "tokens", "relocate": "relocate", "draw": "draw",
                "gain": "gain", "hit": "hit", "invulnerable": "invulnerable", "swap": "swap"}
"""The action that records each kind of tally key."""
GIFTS = frozenset({"gain", "draw", "invulnerable"})


def result_types(state: State, head: Step) -> frozenset[str]:
    """The result actions the window may accept now (``done`` is always listed): a villain's
    effect gives no gifts, a hero's special damages no hero (see the bookkeeping above)."""
    if cost_first(state, head):
        return frozenset({"discard"})
    allowed = decided(state, head)
    if allowed is None:
        if head.kind in VILLAIN_KINDS:
            return frozenset(RESULT_TYPES.values()) - GIFTS
        return frozenset(RESULT_TYPES.values()) - {"damage"}  # hero_bookkeeping
    return frozenset(RESULT_TYPES[k.partition(":")[0].rstrip("+-")]
                     for k, n in allowed.items() if n > 0)


def decided(state: State, head: Step) -> Limits | None:
    """What the data alone still allows in the window (None: the table judges, as for a
    special or a BaM! with a BaM! Threat in play)."""
    if head.kind == "bam" and bam_threats(state):
        return None
    return joint_limits(state, answered(state)) if head is state.pending[0] else limits(
        state, head)


def nothing_to_record(state: State) -> bool:
    """Whether the window being resolved opened with nothing to record: no result yet, the data
    decides the effect (not the table's judgement), it allows no result and owes none, and no
    cost is due. From rules version 3 such a window passes by itself (:func:`~.moves.advance`),
    with no bare ``done``: Ultron's BaM! on a full location with no hero there, an overflow
    whose tokens have nowhere to go, Avengers Mansion with 3 cards in hand. A window in which
    results were recorded is closed by ``done``, as the table says it is over."""
    if not passes_by_itself(state):
        return False
    head = state.pending[0]
    if head.results or head.kind not in DATA_KINDS or cost_first(state, head):
        return False
    allowed = decided(state, head)
    return (allowed is not None and not any(n > 0 for n in allowed.values())
            and not still_owed(state))


DATA_KINDS = ("bam", "ko-bam", "overflow", "location")
"""The windows whose effect the data spells out (:func:`limits`)."""


def named(allowed: Limits, kinds: tuple[str, ...]) -> tuple[int, ...]:
    """The seats or location indexes the keys of ``kinds`` still allow (``damage:0`` -> 0)."""
    found = (key.partition(":") for key, n in allowed.items() if n > 0)
    return tuple(dict.fromkeys(int(where) for what, _, where in found
                               if what.rstrip("+-") in kinds and where.isdigit()))


# -- the windows one entry answers ---------------------------------------------------------------


def answered(state: State) -> tuple[Step, ...]:
    """The windows a result or ``done`` answers: the one being resolved; under rules version 1,
    every overflow window opened together (that version typed one ``done`` for them all)."""
    head = state.pending[0]
    if head.kind == "overflow" and recorded_as_v1(state):
        return tuple(takewhile(lambda step: step.kind == "overflow", state.pending))
    return (head,)


def still_owed(state: State) -> Limits:
    """What the windows a ``done`` would close still owe, together."""
    due: Limits = {}
    for step in answered(state):
        for key, n in owed(state, step).items():
            due[key] = due.get(key, 0) + n
    return due


def joint_limits(state: State, steps: tuple[Step, ...]) -> Limits | None:
    """What the windows together still allow, key by key (None: the table judges)."""
    if len(steps) == 1:
        return limits(state, steps[0])
    found: Limits = {}
    for step in steps:
        for key, n in (limits(state, step) or {}).items():
            found[key] = found.get(key, 0) + n
    return found


def spread(state: State, steps: tuple[Step, ...], tally: Tally) -> tuple[Tally, ...]:
    """A result's tally shared out over the windows it answers, each taking what it still
    allows, in order (the last takes what none allows)."""
    shares: list[list[tuple[str, int]]] = [[] for _ in steps]
    rooms = [limits(state, step) or {} for step in steps]
    for key, amount in tally:
        for index, room in enumerate(rooms):
            take = amount if index == len(steps) - 1 else min(amount, room.get(key, 0))
            if take:
                shares[index].append((key, take))
                amount -= take
    return tuple(tuple(share) for share in shares)


# -- what the data says ------------------------------------------------------------------------


def limits(state: State, head: Step) -> Limits | None:
    """Every result still allowed, key by key (None: the table judges)."""
    if head.kind in ("bam", "ko-bam"):
        return dashboard(state, head, data.VILLAINS[state.villain].bam, state.villain_at)
    if head.kind == "overflow":
        return dashboard(state, head, data.VILLAINS[state.villain].overflow, head.place)
    if head.kind == "location":
        return location_limits(state, head)
    return None


def owed(state: State, head: Step) -> Limits:
    """Results the effect still needs before ``done``."""
    if head.kind == "location":
        return location_owed(state, head)
    allowed = limits(state, head)
    return {k: n for k, n in (allowed or {}).items() if n > 0}


def dashboard(state: State, head: Step, effect: data.Effect, at: int) -> Limits:
    """What a dashboard effect at ``at`` still owes (the heroes there, Fear, tokens)."""
    times = head.count if effect.per_token else 1
    found: Limits = {}
    for seat in present(state, at):
        hero = state.heroes[seat]
        if effect.damage and not hero.invulnerable and hero.hand_size:
            found[f"damage:{seat}"] = effect.damage - head.tallied(f"damage:{seat}")
    if effect.fear:
        found["fear"] = effect.fear * times - head.tallied("fear")
    if effect.thugs:
        found[f"thugs+:{at}"] = min(effect.thugs * times - head.tallied(f"thugs+:{at}"),
                                    state.places[at].free)
    if effect.crisis:
        found[f"crisis+:{at}"] = effect.crisis * times - head.tallied(f"crisis+:{at}")
    if effect.onward:
        found.update(onward(state, head, at))
    return {k: max(0, n) for k, n in found.items()}


def onward(state: State, head: Step, at: int) -> Limits:
    """Tokens not placed, each to the next location clockwise with an empty slot."""
    ring = len(state.places)
    target = next((i % ring for i in range(at + 1, at + ring) if state.places[i % ring].free),
                  None)
    if target is None:
        return {}
    left = zip(("thugs", "civilians"), (sum(head.thugs), sum(head.civilians)), strict=True)
    return {f"{what}+:{target}": n - total(head, f"{what}+:") for what, n in left}


def location_allows(state: State, head: Step) -> data.Allows:
    return data.LOCATION_RESULTS[state.places[head.place].name]


def cost_first(state: State, head: Step) -> int:
    """Cards still owed for the cost of the Location effect being resolved (S.H.I.E.L.D. HQ's
    ``discard``): until it is paid the effect records nothing else. Version 1 typed the cost
    as ``damage``, before or after the effect's result, so it comes first only since
    version 2."""
    if head.kind != "location" or recorded_as_v1(state):
        return 0
    return max(0, location_allows(state, head).discard - head.tallied(f"discard:{head.hero}"))


def location_limits(state: State, head: Step) -> Limits:
    """What the End of Turn effect of the location where it was used still lets its hero do."""
    allows, seat, here = location_allows(state, head), head.hero, head.place
    hero = state.heroes[seat]
    found: Limits = {}
    if allows.draw_to:
        found[f"draw:{seat}"] = allows.draw_to - hero.hand_size
    if allows.relocate:
        found[f"relocate:{seat}"] = 1 - head.tallied(f"relocate:{seat}")
    if allows.swap:
        found[f"swap:{seat}"] = 1 - head.tallied(f"swap:{seat}")
    if allows.discard:
        found[f"discard:{seat}"] = allows.discard - head.tallied(f"discard:{seat}")
    if allows.rescue:
        found[f"civilians-:{here}"] = allows.rescue - head.tallied(f"civilians-:{here}")
    for what, count in (("crisis", allows.crisis), ("thugs", allows.thugs)):
        for index, place in enumerate(state.places):
            if count and getattr(place, what):
                found[f"{what}-:{index}"] = count - total(head, f"{what}-:")
    if allows.move_tokens:
        found.update(moved_tokens(state, head, allows.move_tokens))
    return {k: max(0, n) for k, n in found.items()}


def moved_tokens(state: State, head: Step, most: int) -> Limits:
    """Central Park: up to ``most`` Thugs/Civilians taken from here, each put elsewhere."""
    here, found = head.place, {}
    taken = total(head, "thugs-:") + total(head, "civilians-:")
    for what in ("thugs", "civilians"):
        if getattr(state.places[here], what):
            found[f"{what}-:{here}"] = most - taken
        carried = head.tallied(f"{what}-:{here}") - total(head, f"{what}+:")
        for index, place in enumerate(state.places):
            if index != here and place.free:
                found[f"{what}+:{index}"] = carried
    return found


def location_owed(state: State, head: Step) -> Limits:
    """Tokens taken and not yet put down; a cost paid without its effect, or the reverse."""
    allows, seat = location_allows(state, head), head.hero
    due: Limits = {}
    if allows.move_tokens:
        for what in ("thugs", "civilians"):
            carried = head.tallied(f"{what}-:{head.place}") - total(head, f"{what}+:")
            if carried > 0 and any(p.free for i, p in enumerate(state.places)
                                   if i != head.place):
                due[f"{what}+:elsewhere"] = carried
    if allows.discard:
        paid, removed = head.tallied(f"discard:{seat}"), total(head, "crisis-:")
        if paid > removed and any(p.crisis for p in state.places):
            due["crisis-:anywhere"] = paid - removed
        elif removed > paid:  # version 1: the Crisis token may come first
            due[f"discard:{seat}"] = removed - paid
    return due


# -- words -------------------------------------------------------------------------------------


def effect_words(state: State, head: Step) -> str:
    """The effect being resolved, with what the data says it is ("" when the table judges)."""
    villain = data.VILLAINS[state.villain]
    if head.kind in ("bam", "ko-bam"):
        with_threats = head.kind == "bam" and bam_threats(state)
        threats = "; and the BaM! Threats' (on their cards)" if with_threats else ""
        return f"BaM! ({villain.title}'s dashboard: {villain.bam.text}{threats})"
    if head.kind == "overflow":
        together = answered(state) if head is state.pending[0] else (head,)
        places = ", ".join(state.places[step.place].name for step in together)
        count = sum(step.count for step in together)
        return (f"the overflow at {places} ({count} not placed; "
                f"{villain.title}'s dashboard: {villain.overflow.text})")
    if head.kind == "location":
        place = state.places[head.place].name
        return f"the End of Turn effect at {place} ({data.LOCATIONS[place].effect})"
    return ""


def words(state: State, amounts: Limits) -> str:
    return ", ".join(key_words(state, key, n) for key, n in amounts.items() if n > 0)


def key_words(state: State, key: str, n: int) -> str:
    """``damage:0`` 1 -> ``1 damage to Olga``; ``thugs+:2`` 3 -> ``3 thugs added at …``."""
    what, _, where = key.partition(":")
    if what in ("damage", "discard", "relocate", "draw", "gain", "invulnerable", "swap"):
        who = state.name(int(where))
        return {"damage": f"{n} damage to {who}",
                "discard": f"{who} discards {n} card{'s' if n != 1 else ''} (the cost)",
                "relocate": f"{who} goes to any location",
                "swap": f"{who} swaps a card with their Storyline",
                "draw": f"{who} draws {n} card{'s' if n != 1 else ''}",
                "gain": f"{n} Action tokens to {who}",
                "invulnerable": f"{who} Invulnerable"}[what]
    if what == "fear":
        return f"Fear +{n}"
    if what.startswith("hit"):
        return f"{n} damage to the {where}"
    kind, sign = what[:-1], what[-1]
    place = f"{'at' if sign == '+' else 'from'} {state.places[int(where)].name}" \
        if where.isdigit() else where
    return f"{n} {TOKEN_WORDS[kind][n != 1]} {'added' if sign == '+' else 'removed'} {place}"
