"""What may be recorded now, by whom, with which values: for prompts, errors and the bot."""

from __future__ import annotations

from tabletape.ledger.events import TABLE
from tabletape.rules.dice import BATTLE_SIDES
from tabletape.rules.kernel import ActionSpec, FieldSpec
from tabletape.rules.risk_strike.moves import (
    answering,
    deploy_rank,
    deployers,
    dice_allowed,
    draw_need,
    expand_choice,
    extra_holders,
    extra_nameable,
    playable,
    resolve_roll,
    settle,
)
from tabletape.rules.risk_strike.state import (
    ATTACKER_STEP,
    CANCEL,
    CONTINENTS,
    HELPERS_STEP,
    TACTICS,
    TROOP,
    State,
    could_hold,
    drawable_kinds,
    names,
)


def legal_actions(state: State) -> tuple[ActionSpec, ...]:
    """Every action type that may be recorded now, with its actors and fields."""
    if state.phase == "over":
        return ()
    if state.turn == 0:
        return setup_actions(state)
    specs: list[ActionSpec] = []
    if state.pending is not None:
        specs.extend(cancel_actions(state))
    settled = settle(state)
    if settled.expand_owed:
        return (*specs, draw_action(settled, expand=True))
    specs.extend(turn_actions(settled))
    if extra_nameable(state) and extra_holders(state):
        specs.append(extra_action(state))
    specs.extend(battle_actions(settled))
    play = play_action(settled)
    if play is not None:
        specs.append(play)
    return tuple(merge(specs))


def merge(specs: list[ActionSpec]) -> list[ActionSpec]:
    """One spec per action type: actors and card choices joined."""
    merged: dict[str, ActionSpec] = {}
    for spec in specs:
        if spec.type in merged:
            old = merged[spec.type]
            actors = tuple(dict.fromkeys(old.actors + spec.actors))
            fields = join_fields(old.fields, spec.fields)
            spec = ActionSpec(type=spec.type, actors=actors, fields=fields, doc=old.doc)
        merged[spec.type] = spec
    return list(merged.values())


def join_fields(a: tuple[FieldSpec, ...], b: tuple[FieldSpec, ...]) -> tuple[FieldSpec, ...]:
    """The fields of both specs, by name, choices joined where both have a field."""
    joined = {field.name: field for field in a}
    for field in b:
        known = joined.get(field.name)
        joined[field.name] = field if known is None else join_field(known, field)
    return tuple(joined.values())


def join_field(a: FieldSpec, b: FieldSpec) -> FieldSpec:
    choices = tuple(dict.fromkeys(a.choices + b.choices))
    return FieldSpec(name=a.name, kind=a.kind, required=a.required, choices=choices, doc=a.doc)


def setup_actions(state: State) -> tuple[ActionSpec, ...]:
    deck = tuple(CONTINENTS[c] for c, n in enumerate(state.deck) if n)
    if state.phase == "roll-off":
        who = ", ".join(names(state, state.contenders))
        dice = FieldSpec(name="dice", kind="list[int]", required=False, doc=f"one die each: {who}")
        return (ActionSpec(type="roll-off", actors=(TABLE,), fields=(dice,), doc="first player"),)
    players: tuple[str, ...]
    if state.phase == "fourth-card":
        players, count = (state.name(state.order[1]),), 1
    else:
        players, count = names(state, (s for s, done in enumerate(state.dealt) if not done)), 3
    fields = (
        FieldSpec(name="player", kind="str", choices=players),
        FieldSpec(name="continents", kind="list[str]", choices=deck, doc=f"{count} continents"),
        FieldSpec(name="tactics", kind="list[str]", required=False, doc=tactics_doc()),
    )
    return (ActionSpec(type="deal", actors=(TABLE,), fields=fields, doc="starting cards"),)


def extra_action(state: State) -> ActionSpec:
    """Game Setup 6: the table names a player's additional tactics card (or leaves it down)."""
    fields = (
        FieldSpec(name="player", kind="str", choices=names(state, extra_holders(state))),
        FieldSpec(name="tactics", kind="list[str]", doc="the additional tactics card, named"),
    )
    return ActionSpec(type="deal", actors=(TABLE,), fields=fields,
                      doc="name an additional setup tactics card")


def tactics_doc() -> str:
    return "cards seen (troop, spy...) or a number of cards drawn face down"


def cancel_actions(state: State) -> list[ActionSpec]:
    seats = [s for s in range(len(state.seats)) if could_hold(state, s, CANCEL)]
    resolve = ActionSpec(type="resolve", actors=(state.name(state.current),), doc="no answer")
    if not seats:
        return [resolve]
    card = FieldSpec(name="card", kind="str", choices=(TACTICS[CANCEL],))
    play = ActionSpec(type="play", actors=names(state, seats), fields=play_fields(card))
    return [play, resolve]


def draw_action(state: State, *, expand: bool = False) -> ActionSpec:
    deck = tuple(CONTINENTS[c] for c, n in enumerate(state.deck) if n)
    lineup = tuple(CONTINENTS[c] for c, n in enumerate(state.lineup) if n)
    fields = (
        FieldSpec(name="continents", kind="list[str]", required=False, choices=deck),
        FieldSpec(
            name="lineup", kind="list[str]", required=False, choices=() if expand else lineup
        ),
        FieldSpec(name="tactics", kind="list[str]", required=False, doc=tactics_doc()),
    )
    doc = f"Expand: {expand_choice(state)}" if expand else f"{draw_need(state)} cards"
    return ActionSpec(type="draw", actors=(state.name(state.current),), fields=fields, doc=doc)


def turn_actions(state: State) -> list[ActionSpec]:
    current = (state.name(state.current),)
    if state.phase == "draw":
        return [draw_action(state)]
    if state.phase != "act":
        return []
    specs = [
        ActionSpec(
            type="pass",
            actors=current,
            fields=(
                FieldSpec(name="drew", kind="str", required=False, choices=drawable_kinds(state)),
            ),
            doc="draw 1 tactics card and end the turn",
        )
    ]
    attacks = attack_options(state)
    if attacks:
        fields = tuple(
            FieldSpec(name=name, kind="str", choices=tuple(dict.fromkeys(a[i] for a in attacks)))
            for i, name in enumerate(("from", "target", "defender"))
        )
        specs.insert(0, ActionSpec(type="attack", actors=current, fields=fields))
    return specs


def attack_options(state: State) -> list[tuple[str, str, str]]:
    """Every ``(from, target, defender)`` the player whose turn it is may declare."""
    seat = state.current
    mine = state.seats[seat].continents
    return [
        (CONTINENTS[source], CONTINENTS[target], other.name)
        for source in range(len(CONTINENTS))
        if mine[source]
        for target in state.links[source]
        for index, other in enumerate(state.seats)
        if index != seat and other.continents[target]
    ]


def battle_actions(state: State) -> list[ActionSpec]:
    battle = state.battle
    if battle is None:
        return []
    attacker = (state.name(battle.attacker),)
    specs = []
    deploy = deploy_action(state) if battle.step == "deploy" else None
    if deploy is not None and deploy.actors:
        specs.append(deploy)
    if battle.deploy_step == HELPERS_STEP:
        specs.append(ActionSpec(type="resolve", actors=attacker, doc="no more troops deployed"))
    if battle.step == "rolled":
        lost = FieldSpec(name="lost", kind="list[str]", required=False,
                         choices=names(state, dict.fromkeys(t.owner for t in battle.troops)),
                         doc="whose troop each lost pair costs (default: the side's own first)")
        specs.append(ActionSpec(type="resolve", actors=attacker, fields=(lost,),
                                doc="resolve the roll"))
    rolling = resolve_roll(state)
    rolls_now = answering(state, battle, HELPERS_STEP).deploy_step >= HELPERS_STEP
    if rolling.battle is not None and rolls_now:
        attack, defend = dice_allowed(rolling, rolling.battle)
        fields = (
            FieldSpec(name="attacker", kind="list[int]", required=False, doc=f"{attack} dice"),
            FieldSpec(name="defender", kind="list[int]", required=False, doc=f"{defend} dice"),
        )
        specs.append(ActionSpec(type="roll", actors=attacker, fields=fields))
    if battle.rolls:
        specs.append(ActionSpec(type="retreat", actors=attacker, doc="stop the battle"))
    return specs


def deploy_action(state: State) -> ActionSpec:
    """The players whose deploying step it is: the attacker or the defender (who may decline
    with ``troops=0``), or the helpers who may hold a Troop card (in a version 1 game, the
    later steps' players too)."""
    battle = state.battle
    assert battle is not None
    helpers = battle.deploy_step == HELPERS_STEP
    seats = tuple(s for s in deployers(state, battle)
                  if deploy_rank(battle, s) < HELPERS_STEP or could_hold(state, s, TROOP))
    fields = (
        FieldSpec(name="troops", kind="int",
                  doc="Troop cards played" + ("" if helpers else "; 0: none")),
        FieldSpec(name="side", kind="str", required=helpers,
                  choices=BATTLE_SIDES if helpers else (), doc="the side a helper fights for"),
    )
    step = "the attacker's" if battle.deploy_step == ATTACKER_STEP else "the defender's"
    return ActionSpec(type="deploy", actors=names(state, seats), fields=fields,
                      doc="helpers' troops" if helpers else f"{step} troops")


def play_fields(card: FieldSpec) -> tuple[FieldSpec, ...]:
    return (
        card,
        FieldSpec(name="target", kind="str", required=False, doc="Spy, Artillery: a player"),
        FieldSpec(name="side", kind="str", required=False, choices=BATTLE_SIDES, doc="Bombard"),
        FieldSpec(name="die", kind="int", required=False, doc="Bombard: the face to turn to 6"),
        FieldSpec(name="troops", kind="int", required=False,
                  doc="Artillery: 1 or 2 troops (default: up to 2)"),
    )


def play_action(state: State) -> ActionSpec | None:
    cards = {s: playable(state, s) for s in range(len(state.seats))}
    seats = [s for s, playing in cards.items() if playing]
    if not seats:
        return None
    choices = tuple(dict.fromkeys(card for s in seats for card in cards[s]))
    card = FieldSpec(name="card", kind="str", choices=choices)
    return ActionSpec(type="play", actors=names(state, seats), fields=play_fields(card))
