"""Risk: Deep Space (Hasbro), 2 to 4 players: the rules as pure functions over recorded facts.

Actions, as typed at the table (``by=NAME`` when the actor is not the only one allowed)::

    deal player=olga cards=tractor-beam,air-leak    (the table, setup)
    cover planets=nw-corner,se-corner               (the table, 2-player setup)
    roll-off dice=5,3                               (the table; empty: tabletape rolls)
    draw cards=energy-boost                         (top up to two cards, face up)
    trade-cards                                     (both cards for a Recruit at home)
    mine planet=n1 resource=ore
    recruit count=2
    move from=red-station to=n1 count=3 [dog=true]
    pass by=patrick                                 (the invaded player: no card before the dice)
    battle attacker=4 defender=2                    (one exchange; empty: tabletape rolls)
    build planet=n1
    play card=bribe-a-rival planet=e1 | card=mail-from-mom take=air-leak
         | card=space-dog-paw planet=n1 | card=tractor-beam by=patrick
    shield planet=n1                                (force-fields=shield only)
    send-dog to=w1                                  (a wiped-out Crew's Space Dog, its owner)
    end

Readings where the rulebook leaves a question open (each has a test and, where a table might
differ, an option):

- **The board** is not printed anywhere: ``--option board=FILE`` (format in
:mod:`tabletape.rules.board`);
  the default board is a reconstruction (mark I), and the board in force is stored in the log.
- **Turn order of steps**: draw, then trade cards and mine (both "the beginning of your turn",
  in either order), then recruit, then movements, Bases and own-turn cards in any order; an
  action of a later step closes the earlier ones. Playing a card counts as "doing something",
  so it ends mining.
- **Recruits bought** go on the Home Station. No mining on Home Stations (the NOTE of Mine).
- **Centre**: a movement may pass through the centre space for one Gem, taken when the move
  needs it; nobody stops on the centre. Covered corners (Deep Space) are crossed free.
- **Home Stations**: never entered by anyone; those of colours not in use are closed too
  (``open-stations=true`` opens them). No Base on a Home Station (``home-bases=true``).
- **A Base when its planet is lost** stays and keeps counting (``lost-base=destroyed``: it goes
  back to its owner). One Base per player per planet.
- **Energy Boost**: the next movement may also pass over occupied planets; it keeps every
  destination it had without the card (an occupied planet next door, or beyond the centre, may
  still be attacked).
- **Bribe a Rival** removes up to two Recruits (fewer if fewer stand there) and adds up to two
  from the supply; the Gem goes to the bribed opponent. "A planet you occupy" includes your
  Home Station, and the struck planet may be a rival's Home Station; "directly connected" is
  a link of the board (not across a planet cover or the centre).
- **Air Leak** is played by either side during a battle; the player's own lost Recruit is its
  cost. A side left without Recruits loses the battle.
- **Tractor Beam** gives back neither the movement nor a Gem paid to cross the centre.
- **Tractor Beam** and **Good Space Dog** come before the first exchange of the battle. The
  dice wait for the invaded player who holds one they can play (and pay for): they play it or
  ``pass``; a quick roll does not take their card away. The attacker, who records the dice,
  plays theirs before rolling. ``defender-answers=roll`` lets the attacker roll at once (how
  logs recorded before this rule fold: they store no such option).
- **Space Dog**: +1 to its side's die (not more with two dogs); each defeat removes a Space Dog of
  the losing side before any Recruit. A dog goes along with a Crew on ``dog=true`` and always
  when no Recruit stays behind; a dog whose Crew an Action card wiped out joins another of its
  owner's Crews, the owner's choice (``send-dog to=PLANET`` right after the card, before the
  next action; by default the largest Crew), or waits at the Home Station when none is left.
  Each Space Dog, Paw! drawn (dealt at setup, drawn, or taken with Mail from Mom; two at once
  are two) may be activated until that player's own next action (the table's setup entries and
  other players' actions leave it open), never in the middle of a battle the player is in; else
  it stays in hand.
- **Players** are named by name first, then by the colour they play (``player=red``).
- **Deck mix** (36 cards) is not known: an even split marked I (``deck.<card>=N``). Costs not
  printed (Tractor Beam, Mail from Mom, Good Space Dog) default to free (``cost.<card>=gem``).
- **Force Field tokens** have no printed rule: by default they stay by the board
  (``force-fields=unused``). ``force-fields=shield`` (mark I) is the table rule we offer: once per
  turn, as one of the two movements, pay a Gem to put a Force Field from the supply (2 in the box)
  on a planet you occupy that has none; no opponent may move onto a shielded planet (passing over
  it with Energy Boost is allowed; Action cards, Tractor Beam, Bribe a Rival and Air Leak
  included, are unaffected); at the start of your next turn the token goes back to the supply,
  even if your Recruits have left the planet.
- **Setup order**: the deal (Get Ready! 4), a 2-player game's covers (5) and the roll for
  first player come in any order (tables often roll first); the first turn begins once all
  three are done.
- **Roll-off**: one die each; players tied for highest roll again.
"""

from tabletape.rules.facts import Fact
from tabletape.rules.manifest import GameManifest
from tabletape.rules.registry import lazy_rules

REPLAY = "tabletape.replay.games.risk_deep_space"

MANIFEST = GameManifest(
    name="risk-deep-space", title="Risk: Deep Space", aliases=("deep-space", "ds"), short="ds",
    rules="tabletape.rules.risk_deep_space.game:RiskDeepSpace",
    view=f"{REPLAY}:view",
    narrate=f"{REPLAY}:narrate",
    setup_notes=f"{REPLAY}:setup_notes",
    conservation=f"{REPLAY}:conservation",
    dice=f"{REPLAY}:dice",
    projections="tabletape.queries.games.risk_deep_space:projections",
    demo="tabletape.rules.risk_deep_space.demo",
    picture="tabletape.replay.games.risk_deep_space_picture:picture",
    bgg_id=Fact(344638, "S", "one source: a public box-size table keyed by BoardGameGeek id "
                             "lists 344638 as Risk: Deep Space"),
)
"""The game's one declaration (its ``tabletape.games`` entry point); reading it imports no rules."""


__getattr__ = lazy_rules(MANIFEST, __name__)
"""``RULES`` (the registered rules object) and the Rules class, imported on first use."""

__all__ = ["MANIFEST", "RULES", "RiskDeepSpace"]
