"""Risk: Transformers offers ``attack`` only with a target: a zone whose neighbours are all the
attacker's (or a teammate's) is no source, and with no source at all ``attack`` is not offered
(an action no one can record). Each offered source and target is one the rules accept. The
same for ``back-up`` (Phase 4, and Phase 2 with a card): only from a zone connected to another
of the player's.

Rulebook, Phase 3 "When Can I Attack?": "You can only attack an enemy zone that neighbors one
of your zones"; "You must have 2 or more robots in the zone you are attacking from"; "In the
4-player game you cannot attack your teammate". Leaders in Battle, Vehicle Form: "MEGATRON can
attack any zone ... He must attack alone."
"""

from __future__ import annotations

from msgspec.structs import replace

from tabletape.ledger.events import Event
from tabletape.rules.actions import event_from, parse_action
from tabletape.rules.kernel import ActionSpec, IllegalAction
from tabletape.rules.risk_transformers.battle import neighbours
from tabletape.rules.risk_transformers.state import State, Zone, with_seat
from tests.games.risk_transformers.helpers import GAME, unfillable
from tests.games.risk_transformers.test_battle import in_phase3

OLGA, PATRICK = 0, 1
HOME = "vos"
"""A zone with three neighbours on the default board (Purple 4, Tri-Lorus Loop, Primus)."""


def surrounded(extra: dict[str, Zone] | None = None) -> dict[str, Zone]:
    """Olga's HOME with 3 robots, every neighbour of it Olga's with 1 robot (plus ``extra``)."""
    probe = in_phase3({}, rest=PATRICK)
    home = probe.place(HOME)
    layout = {probe.places[p]: Zone(owner=OLGA, robots=1) for p in neighbours(probe, home)}
    return {**layout, HOME: Zone(owner=OLGA, robots=3), **(extra or {})}


def attack_spec(state: State) -> ActionSpec | None:
    return next((spec for spec in GAME.legal_actions(state) if spec.type == "attack"), None)


def choices(spec: ActionSpec, name: str) -> tuple[str, ...]:
    return next(field.choices for field in spec.fields if field.name == name)


def accepted(state: State, line: str) -> bool:
    event: Event = event_from(parse_action(line), GAME.event_types())
    try:
        GAME.step(state, state.name(state.current), event)
    except IllegalAction:
        return False
    return True


def test_a_zone_next_only_to_own_zones_offers_no_attack() -> None:
    """"You can only attack an enemy zone that neighbors one of your zones": Olga's only zone
    with 2 or more robots has no enemy neighbour, so she has no attack to make."""
    state = in_phase3(surrounded(), rest=PATRICK)
    assert all(state.at(p).owner == OLGA for p in
               (state.places[n] for n in neighbours(state, state.place(HOME))))
    assert attack_spec(state) is None
    assert not accepted(state, f"attack from={HOME} target=launch-pad robots=1")
    offered = GAME.legal_actions(state)
    assert unfillable(offered) == [] and "end" in {spec.type for spec in offered}


def test_only_sources_with_a_target_are_offered() -> None:
    """A second zone of 2 robots that touches the enemy is a source; the surrounded one is
    not, and each offered source and target makes an attack the rules accept."""
    probe = in_phase3(surrounded(), rest=PATRICK)
    edge = next(probe.places[n] for n in neighbours(probe, probe.place(HOME))
                if any(probe.zones[m].owner == PATRICK for m in neighbours(probe, n)))
    state = in_phase3(surrounded({edge: Zone(owner=OLGA, robots=2)}), rest=PATRICK)
    spec = attack_spec(state)
    assert spec is not None and unfillable([spec]) == []
    assert choices(spec, "from") == (edge,)
    targets = choices(spec, "target")
    assert {state.at(t).owner for t in targets} == {PATRICK}
    assert all(accepted(state, f"attack from={edge} target={t} robots=1") for t in targets)


def test_a_teammates_neighbour_is_no_target() -> None:
    """"In the 4-player game you cannot attack your teammate": Olga's zone next only to her
    own zones and her teammate's offers no attack."""
    state = in_phase3({}, players=4)
    home = state.place(HOME)
    mate = next(seat for seat, me in enumerate(state.seats)
                if seat != OLGA and me.team == state.seats[OLGA].team)
    layout = {state.places[p]: Zone(owner=mate, robots=1) for p in neighbours(state, home)}
    state = in_phase3({**layout, HOME: Zone(owner=OLGA, robots=3)}, players=4)
    assert {state.zones[p].owner for p in neighbours(state, home)} == {mate}
    assert attack_spec(state) is None
    assert unfillable(GAME.legal_actions(state)) == []


def test_megatron_in_vehicle_form_attacks_from_a_surrounded_zone() -> None:
    """"MEGATRON can attack any zone ... He must attack alone": from his zone, even one next
    only to his own zones, every enemy zone is a target."""
    layout = {name: Zone(owner=PATRICK, robots=zone.robots, leader=name == HOME)
              for name, zone in surrounded().items()}
    state = in_phase3(layout, current=PATRICK, rest=OLGA, forms={PATRICK: "vehicle"},
                      leaders="bumblebee,megatron")
    spec = attack_spec(state)
    assert spec is not None and unfillable([spec]) == []
    assert choices(spec, "from") == (HOME,)
    targets = choices(spec, "target")
    assert targets and {state.at(t).owner for t in targets} == {OLGA}
    assert all(accepted(state, f"attack from={HOME} target={t} leader=true") for t in targets)
    robot_form = in_phase3(layout, current=PATRICK, rest=OLGA, leaders="bumblebee,megatron")
    assert attack_spec(robot_form) is None  # his robot form attacks neighbours only


# -- the same for the back-up move: offered only where it can be made -------------------------

FAR = "launch-pad"
"""An Olga zone far from HOME (not next to it or to its neighbours)."""


def cut_off(phase: str, hand: tuple[str, ...] = (), **extra: Zone) -> State:
    """Olga's HOME (3 robots) ringed by Patrick's zones, her other zone FAR (1 robot), plus
    ``extra``; moved to ``phase`` with ``hand``."""
    state = in_phase3({HOME: Zone(owner=OLGA, robots=3), FAR: Zone(owner=OLGA, robots=1),
                       **extra}, rest=PATRICK)
    state = replace(state, phase=phase)
    return with_seat(state, OLGA, hand=hand)


def back_up_spec(state: State) -> ActionSpec | None:
    return next((spec for spec in GAME.legal_actions(state) if spec.type == "back-up"), None)


def test_no_back_up_from_a_zone_connected_to_none_of_yours() -> None:
    """Phase 4: "move them to a connected zone"; "Zones are connected if you control all the
    neighboring zones between them": HOME, ringed by enemy zones, reaches none of Olga's."""
    state = cut_off("back-up")
    assert FAR not in {state.places[n] for n in neighbours(state, state.place(HOME))}
    assert back_up_spec(state) is None
    assert not accepted(state, f"back-up from={HOME} to={FAR} robots=1")
    assert unfillable(GAME.legal_actions(state)) == []


def test_back_up_lists_only_zones_with_a_route() -> None:
    """A neighbour of HOME made Olga's (1 robot: nothing to move from it) is where HOME's
    pieces may go; FAR is reached from nowhere."""
    probe = cut_off("back-up")
    near = probe.places[neighbours(probe, probe.place(HOME))[0]]
    state = cut_off("back-up", **{near: Zone(owner=OLGA, robots=1)})
    spec = back_up_spec(state)
    assert spec is not None
    assert choices(spec, "from") == (HOME,) and choices(spec, "to") == (near,)
    assert accepted(state, f"back-up from={HOME} to={near} robots=2")


def test_no_back_up_card_move_without_a_route() -> None:
    """Calling for back-up (Phase 2): "The rules for back-up are exactly the same as for this
    phase": a back-up card offers no move from a cut-off zone (the card may still be played
    for the table)."""
    probe = in_phase3({}, rest=PATRICK)
    card = next(c.id for c in probe.board.section.cards if c.effect == "table")
    assert back_up_spec(cut_off("morph", (card,))) is None
    probe = cut_off("morph")
    near = probe.places[neighbours(probe, probe.place(HOME))[0]]
    spec = back_up_spec(cut_off("morph", (card,), **{near: Zone(owner=OLGA, robots=1)}))
    assert spec is not None and choices(spec, "card") == (card,)
    assert choices(spec, "from") == (HOME,) and choices(spec, "to") == (near,)
