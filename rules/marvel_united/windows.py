"""What an effect's results may be, window by window.

Each result recorded in a window adds to its *tally* (``damage:0``, ``fear``, ``thugs+:3``,
``crisis-:1``, ``relocate:0``…). Where the data says what the effect is (the villain's BaM! and
overflow on the dashboard, a Location's End of Turn effect) a result must fit what is still
allowed, and ``done`` waits for what is still owed. Where the effect needs the table's judgement
(a Threat's text, a Masterplan card's or a hero's special) the result is recorded after its
bookkeeping is checked: who gains, where, how many.
"""

from __future__ import annotations

from typing import NoReturn

from ledger.events import Event
from rules.kernel import IllegalAction

from . import data
from .events import Damaged, Drew, Gained, Hit, Invulnerable, Plot, Relocated, Swapped, Tokens
from .state import NOBODY, State, Step, Threat, present, seat_of

Tally = tuple[tuple[str, int], ...]
Limits = dict[str, int]
VILLAIN_KINDS = ("threat-move", "bam", "overflow", "special", "ko-bam")
TOKENS = ("thugs", "civilians", "crisis")
TOKEN_WORDS = {"thugs": ("Thug", "Thugs"), "civilians": ("Civilian", "Civilians"),
               "crisis": ("Crisis token", "Crisis tokens")}


def refuse(reason: str, allowed: tuple[str, ...] = ()) -> NoReturn:
    raise IllegalAction(reason, allowed=allowed)


# -- the tally ---------------------------------------------------------------------------------


def entries(state: State, head: Step, event: Event) -> Tally:
    """What a result adds to its window's tally (amounts positive; ``+`` added, ``-`` removed)."""
    match event:
        case Drew(hero=""):
            return ((f"draw:{head.hero}", len(event.cards)),)
        case Damaged():
            return ((f"damage:{seat_named(state, event.hero)}", len(event.cards)),)
        case Plot():
            return (("fear", event.amount),)
        case Tokens():
            index = place_named(state, event.location)
            changes = zip(TOKENS, (event.thugs, event.civilians, event.crisis), strict=True)
            return tuple((f"{what}{'+' if n > 0 else '-'}:{index}", abs(n))
                         for what, n in changes if n)
        case Relocated():
            return ((f"relocate:{seat_named(state, event.hero)}", 1),)
        case Drew():
            return ((f"draw:{seat_named(state, event.hero)}", len(event.cards)),)
        case Gained():
            return ((f"gain:{seat_named(state, event.hero)}", len(event.tokens)),)
        case Hit():
            return ((f"hit:{event.target}", event.amount),)
        case Invulnerable():
            return ((f"invulnerable:{seat_named(state, event.hero)}", 1),)
        case Swapped():
            return ((f"swap:{head.hero}", 1),)
    return ()


def seat_named(state: State, text: str) -> int:
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
    if head.kind in VILLAIN_KINDS:
        villain_bookkeeping(event)
    elif head.kind == "location":
        location_bookkeeping(state, head, event)
    else:
        hero_bookkeeping(event)
    allowed = limits(state, head)
    if allowed is None:
        return tally
    for key, amount in tally:
        room = allowed.get(key, 0)
        if amount <= room:
            continue
        if head.kind == "bam" and extra_bam_result(state, key):
            continue
        expected = words(state, allowed) or "nothing more (then 'done')"
        refuse(f"{effect_words(state, head)}: not {words(state, {key: amount})}; "
               f"still allowed: {expected}")
    return tally


def check_done(state: State, head: Step) -> None:
    """Refuse ``done`` while the data says the effect still owes a result."""
    due = owed(state, head)
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
        rescue = allows.rescue and here and event.civilians < 0
        defeat = allows.thugs and here and event.thugs < 0
        if event.mission and not (rescue or defeat):
            refuse(f"{effect_words(state, head)} discards tokens to the pool (mission=false)")
        if rescue and not event.mission:
            refuse("a rescued Civilian goes to the Rescue Civilians Mission (mission=true)")


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


RESULT_TYPES = {"damage": "damage", "fear": "plot", "thugs": "tokens", "civilians": "tokens",
                "crisis": "tokens", "relocate": "relocate", "draw": "draw", "gain": "gain",
                "hit": "hit", "invulnerable": "invulnerable", "swap": "swap"}
"""The action that records each kind of tally key."""
GIFTS = frozenset({"gain", "draw", "invulnerable"})


def result_types(state: State, head: Step) -> frozenset[str] | None:
    """The result actions the window may accept now (None: any; ``done`` is always listed)."""
    allowed = limits(state, head)
    judged = allowed is None or (head.kind == "bam" and bool(bam_threats(state)))
    if judged:
        if head.kind in VILLAIN_KINDS:
            return frozenset(RESULT_TYPES.values()) - GIFTS
        return None
    assert allowed is not None
    return frozenset(RESULT_TYPES[k.partition(":")[0].rstrip("+-")]
                     for k, n in allowed.items() if n > 0)


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
        found[f"damage:{seat}"] = allows.discard - head.tallied(f"damage:{seat}")
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
        paid, removed = head.tallied(f"damage:{seat}"), total(head, "crisis-:")
        if paid > removed and any(p.crisis for p in state.places):
            due["crisis-:anywhere"] = paid - removed
        elif removed > paid:
            due[f"damage:{seat}"] = removed - paid
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
        return (f"the overflow at {state.places[head.place].name} ({head.count} not placed; "
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
    if what in ("damage", "relocate", "draw", "gain", "invulnerable", "swap"):
        who = state.name(int(where))
        return {"damage": f"{n} damage to {who}", "relocate": f"{who} goes to any location",
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
