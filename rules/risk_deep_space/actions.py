"""What may be recorded now, by whom, with which values: for prompts, errors and the bot."""

from __future__ import annotations

from tabletape.ledger.events import TABLE
from tabletape.ledger.text import plural
from tabletape.rules.kernel import ActionSpec, FieldSpec
from tabletape.rules.risk_deep_space import data
from tabletape.rules.risk_deep_space.moves import (
    ACT,
    DRAW,
    MINE,
    RECRUIT,
    RESOURCES,
    START,
    awaited_answers,
    base_sites,
    bribe_targets,
    card_cost,
    cards_left,
    corner_pairs,
    drawable,
    held,
    may_activate,
    may_roll_off,
    mineable,
    move_targets,
    needs_covers,
    pre_dice_cards,
    rollers,
    shieldable,
)
from tabletape.rules.risk_deep_space.state import State


def legal_actions(state: State) -> tuple[ActionSpec, ...]:
    """Every action type that may be recorded now, with its actors and fields."""
    if state.phase == "over":
        return ()
    specs = activations(state) + dog_sendings(state)
    if state.phase != "turn":
        specs.extend(setup_actions(state))
    else:
        specs.extend(battle_actions(state) if state.battle else turn_actions(state))
    return tuple(merge(specs))


def merge(specs: list[ActionSpec]) -> list[ActionSpec]:
    """One spec per action type: actors and choices joined."""
    merged: dict[str, ActionSpec] = {}
    for spec in specs:
        old = merged.get(spec.type)
        if old is not None:
            fields = tuple(
                FieldSpec(name=a.name, kind=a.kind, required=a.required, doc=a.doc,
                          choices=tuple(dict.fromkeys(a.choices + b.choices)))
                for a, b in zip(old.fields, spec.fields, strict=True)
            )
            spec = ActionSpec(type=spec.type, actors=tuple(dict.fromkeys(old.actors + spec.actors)),
                              fields=fields, doc=old.doc)
        merged[spec.type] = spec
    return list(merged.values())


def setup_actions(state: State) -> list[ActionSpec]:
    """The table's actions during Get Ready!: the deal, the covers and the roll for first
    player, in any order."""
    specs = covering(state) + rolling_off(state)
    if state.phase == "deal":
        waiting = tuple(s.name for s in state.seats if not s.hand)
        fields = (FieldSpec(name="player", kind="str", choices=waiting),
                  FieldSpec(name="cards", kind="list[str]", choices=drawable(state),
                            doc="two cards, face up"))
        specs.insert(0, ActionSpec(type="deal", actors=(TABLE,), fields=fields,
                                   doc="starting cards"))
    return specs


def rolling_off(state: State) -> list[ActionSpec]:
    """The roll for first player, until it is decided."""
    if not may_roll_off(state):
        return []
    who = ", ".join(state.name(s) for s in rollers(state))
    dice = FieldSpec(name="dice", kind="list[int]", required=False, doc=f"one die each: {who}")
    return [ActionSpec(type="roll-off", actors=(TABLE,), fields=(dice,), doc="first player")]


def covering(state: State) -> list[ActionSpec]:
    """Get Ready! 5, before or after the deal: a 2-player game's covers, until they are on."""
    if not needs_covers(state):
        return []
    pairs = tuple(",".join(pair) for pair in corner_pairs(state))
    field = FieldSpec(name="planets", kind="list[str]", choices=pairs,
                      doc="a pair of opposing corners")
    return [ActionSpec(type="cover", actors=(TABLE,), fields=(field,), doc="Deep Space")]


def planet_field(name: str, choices: list[int] | tuple[int, ...], state: State,
                 required: bool = True, doc: str = "") -> FieldSpec:
    return FieldSpec(name=name, kind="str", required=required, doc=doc,
                     choices=tuple(state.space(p) for p in choices))


def play_fields(state: State, cards: tuple[str, ...], planets: list[int],
                takes: tuple[str, ...] = ()) -> tuple[FieldSpec, ...]:
    return (
        FieldSpec(name="card", kind="str", choices=cards),
        planet_field("planet", planets, state, required=False,
                     doc="Bribe a Rival: the planet struck; Space Dog: where it goes"),
        FieldSpec(name="take", kind="str", required=False, choices=takes,
                  doc="Mail from Mom: the card chosen"),
    )


def activations(state: State) -> list[ActionSpec]:
    """Space Dog, Paw!: each player who drew one may activate it, for a Gem, until their next
    action (not in the middle of a battle they are in)."""
    return [ActionSpec(type="play", actors=(state.name(seat),),
                       fields=play_fields(state, (data.DOG_PAW,), held(state, seat)),
                       doc="activate a Space Dog for a Gem")
            for seat in dict.fromkeys(state.paws) if may_activate(state, seat)]


def dog_sendings(state: State) -> list[ActionSpec]:
    """Space Dog, Paw!: the owner of a Space Dog whose Crew an Action card just wiped out may
    send it to another of their Crews (it joined the largest)."""
    owners = dict.fromkeys(dog.owner for dog in state.dogs if dog.stray)
    return [ActionSpec(type="send-dog", actors=(state.name(seat),),
                       fields=(planet_field("to", held(state, seat), state,
                                            doc="one of your Crews"),),
                       doc="the Space Dog whose Crew was wiped out joins this Crew")
            for seat in owners]



def turn_actions(state: State) -> list[ActionSpec]:
    seat = state.current
    me = (state.name(seat),)
    if state.stage == DRAW:
        need = min(data.HAND.value - len(state.seats[seat].hand), cards_left(state))
        field = FieldSpec(name="cards", kind="list[str]", choices=drawable(state, need),
                          doc=f"{need} card{'s' if need != 1 else ''}, face up")
        return [ActionSpec(type="draw", actors=me, fields=(field,), doc="top up to two cards")]
    specs: list[ActionSpec] = []
    player = state.seats[seat]
    if state.stage in (START, MINE) and len(player.hand) == data.HAND.value and player.supply:
        specs.append(ActionSpec(type="trade-cards", actors=me, doc="both cards for a Recruit"))
    tokens = tuple(r for r, left in zip(RESOURCES, (state.gems, state.ore), strict=True) if left)
    if state.stage <= MINE and mineable(state, seat) and tokens:
        fields = (FieldSpec(name="planet", kind="str", choices=tuple(mineable(state, seat))),
                  FieldSpec(name="resource", kind="str", choices=tokens))
        specs.append(ActionSpec(type="mine", actors=me, fields=fields))
    if state.stage <= RECRUIT and player.gems and player.supply:
        most = min(player.gems, player.supply)
        field = FieldSpec(name="count", kind="int", required=False, doc=f"1 to {most}, a Gem each")
        specs.append(ActionSpec(type="recruit", actors=me, fields=(field,)))
    if state.moves_left:
        specs.extend(move_action(state, seat))
    shields = shield_choices(state, seat)
    if shields:
        specs.append(ActionSpec(type="shield", actors=me,
                                fields=(planet_field("planet", shields, state,
                                                     doc="a planet you occupy"),),
                                doc="a Force Field for a Gem and a movement, until your next "
                                    "turn"))
    builds = buildable(state, seat)
    if builds:
        specs.append(ActionSpec(type="build", actors=me,
                                fields=(planet_field("planet", builds, state),)))
    cards = tuple(c for c in dict.fromkeys(player.hand) if playable_on_turn(state, seat, c))
    if cards:
        takes = drawable(state) if data.MAIL in cards else ()
        specs.append(ActionSpec(type="play", actors=me,
                                fields=play_fields(state, cards, bribe_targets(state, seat),
                                                   takes)))
    specs.append(ActionSpec(type="end", actors=me, doc="end the turn"))
    return specs


OWN_TURN_CARDS = (data.ENERGY_BOOST, data.BRIBE, data.MAIL)


def playable_on_turn(state: State, seat: int, card: str) -> bool:
    """An own-turn card ``seat`` can pay for now (Bribe a Rival: a Gem and a target)."""
    if card not in OWN_TURN_CARDS or card_cost(state, card) > state.seats[seat].gems:
        return False
    return card != data.BRIBE or bool(bribe_targets(state, seat))
BATTLE_CARDS = {data.TRACTOR_BEAM: "defender", data.AIR_LEAK: "both", data.GOOD_DOG: "both"}


def move_action(state: State, seat: int) -> list[ActionSpec]:
    sources = held(state, seat)
    gems = state.seats[seat].gems
    targets = sorted({t for s in sources for t, toll in move_targets(state, seat, s).items()
                      if toll <= gems})
    if not sources or not targets:
        return []
    fields = (planet_field("from", sources, state), planet_field("to", targets, state),
              FieldSpec(name="count", kind="int", doc="Recruits in the Crew"),
              FieldSpec(name="dog", kind="bool", required=False, doc="take the Space Dog along"))
    return [ActionSpec(type="move", actors=(state.name(seat),), fields=fields,
                       doc=f"{plural(state.moves_left, 'movement')} left")]


def shield_choices(state: State, seat: int) -> list[int]:
    """Where ``seat`` may put a Force Field now (``force-fields=shield``), else nothing."""
    me = state.seats[seat]
    if (state.settings.force_fields != "shield" or not state.moves_left or not state.fields_left
            or me.gems < data.FORCE_FIELD_COST.value or state.stage > ACT
            or any(owner == seat for _, owner in state.shields)):
        return []
    return shieldable(state, seat)


def buildable(state: State, seat: int) -> list[int]:
    me = state.seats[seat]
    if me.ore < data.BASE_ORE.value or not me.bases or state.stage > ACT:
        return []
    return base_sites(state, seat)


def battle_actions(state: State) -> list[ActionSpec]:
    fight = state.battle
    assert fight is not None
    attacker = state.name(fight.attacker)
    fields = (FieldSpec(name="attacker", kind="int", required=False, doc="the attacker's die"),
              FieldSpec(name="defender", kind="int", required=False, doc="the defender's die"))
    defender = state.name(fight.defender)
    if awaited_answers(state):
        specs = [ActionSpec(type="pass", actors=(defender,),
                            doc="no (more) card before the dice")]
    else:
        specs = [ActionSpec(type="battle", actors=(attacker,), fields=fields,
                            doc="one exchange")]
    for seat in (fight.attacker, fight.defender):
        cards = tuple(c for c in dict.fromkeys(state.seats[seat].hand)
                      if playable_in_battle(state, seat, c))
        if cards:
            specs.append(ActionSpec(type="play", actors=(state.name(seat),),
                                    fields=play_fields(state, cards, [])))
    return specs


def playable_in_battle(state: State, seat: int, card: str) -> bool:
    fight = state.battle
    if fight is None or card not in BATTLE_CARDS:
        return False
    if card in (data.TRACTOR_BEAM, data.GOOD_DOG):
        return card in pre_dice_cards(state, seat)
    return card_cost(state, card) <= state.seats[seat].gems
