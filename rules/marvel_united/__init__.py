"""Marvel United (CMON 2020), 2 to 4 heroes against a villain: the rules as pure functions.

Actions, as typed at the table (``by=NAME`` when the actor is not the only one allowed)::

    setup locations=stark-labs,... threats=crossbones,... start=stark-labs   (the table)
    deal player=olga cards=aa,m,hh                  (the table; empty: tabletape draws)
    villain-turn card=plan-3 move=2 bam=true thugs=1,1,0 civilians=1,0,0 special=false
    draw cards=ma                                   (empty: tabletape draws)
    play card=ma
    move to=times-square | attack target=thug | rescue | heroic | spend symbol=attack
    special | location-effect | end
    damage hero=olga cards=aa | discard cards=aa | tokens location=x thugs=1
    hit target=villain amount=1
    plot amount=2 | gain hero=olga tokens=move | invulnerable hero=olga | relocate hero=olga to=x
    swap card=hh storyline=aa                       (Stark Labs; at=N: that Storyline place)
    done                                            (the effect being resolved is over)

Readings where the rulebook leaves a question open (each has a test):

- **Windows.** The villain's movement Threat, BaM! (dashboard and Threats together), the overflow
  and the Masterplan special each open a window in that order; the table records their results
  and closes each with ``done``. Thugs and Civilians are placed by the rules in between.
- **Overflow** opens one window per location that overflowed (the FAQ: once per location),
  naming it and how many tokens it could not take.
- **Results are checked** against the dashboard (:mod:`.windows`): BaM! and a KO's BaM! owe
  its damage to each hero at the villain's location (not KO'd, not Invulnerable), its Fear,
  Thugs (as many as the empty slots take) and Crisis tokens; the overflow owes its effect per
  token or per location; ``done`` waits for what is owed, and nothing else is accepted.
  Ultron's overflow: each token goes to the next location clockwise *with an empty slot*.
- **BaM! Threats** (their text is on the cards, not in our data): while one is in play, BaM!
  also accepts damage to heroes at the villain's location or at a BaM! Threat's, and any
  other villain's result (Fear, tokens anywhere, a hero moved); the table judges the text.
- **Location effects** accept what the data says (:data:`.data.LOCATION_RESULTS`, C): Avengers
  Mansion draws up to 3 in hand; Times Square rescues 1 Civilian here (to the Mission); Central
  Park moves up to 2 tokens elsewhere, put down before ``done``; Police HQ discards 1 Thug
  anywhere (to the pool; to the Mission only here, the D reading); the Helicarrier moves its own
  hero once; S.H.I.E.L.D. HQ's cost (``discard``) comes first, then 1 Crisis token anywhere
  (the two go together); Stark Labs swaps one hand card with one of the hero's own Storyline
  cards (the latest of that kind unless ``at=`` names its place); Avengers Tower shuffles the
  hero's deck (the cards under it lose their order; the card put on top shows at the next
  draw).
- **A hero's special** (its text is on the card) damages no hero, advances no track and heals
  no enemy.
- **A villain's effect** (any villain window) gives no Action tokens, cards or Invulnerable
  tokens, credits no Mission (its tokens go to the pool), never damages the villain or his
  Henchmen and never lowers Fear.
- **Threat symbols** (BaM!, movement) are named at setup as the cards show them; a movement
  Threat triggers only when the villain moves (move 0 does not).
- **KO**: a KO pushes the villain's BaM! ahead of whatever was being resolved (chains work the
  same way). A hero who plays their last card is KO'd when they type ``end``.
- **The Location effect is the last step** of a hero turn (Hero Turn: 'follow these steps in
  order'): after it only ``end`` is accepted, no action, Action token or special.
- **Actions** use the card symbols first (the exact one, then a Wild), then Action tokens (the
  exact one, then Wild); ``token=true`` spends a token while symbols remain.
- **First hero**: after the first villain turn, whoever draws starts; seats go clockwise after.
- **Storyline cadence**: a Masterplan card is due when the Hero cards since the last one reach 3
  (2 once Under Pressure), checked when a hero turn ends.
- **Third Mission**: every hero not KO'd with cards in their deck draws 1 (``draw``) at once,
  in any order, each their own card (``by=NAME`` when several still draw).
- **Names**: a typed name is a player's name first, then the hero a seat plays (a player
  called Hulk is that player, even when another seat plays Hulk).
- **Masterplan faces**: the shipped faces are placeholders (I), so a ``villain-turn`` records
  what the card shows (``move``, ``bam``, ``thugs``, ``civilians``, ``special``); the option
  ``masterplan-deck=shipped`` plays with the shipped faces (default ``table``): then a face
  field left out follows the card, and one typed must be the card's shipped face and name its
  card (refused otherwise: the log never stores a card with a face it does not have; version
  1 logs are read as typed). A negative
  ``move`` is counterclockwise ('clockwise (unless otherwise indicated)').
- **Costs are not damage**: a card an effect asks the hero to discard (S.H.I.E.L.D. HQ) is
  recorded with ``discard``, Invulnerable or not, and before the effect's results; discarding
  the last card KOs, as the KO rule says for any discard.
- **Threat slots**: 3 Heroic unless the setup names others (``slots=threat:mma``, as the card
  shows: 'some Threats may display other types of actions'); ``spend symbol=...`` fills one.
- **Tough Thugs**: ``attack target=thug survives=true`` records a Thug a Threat card at its
  location keeps in play; refused where no Threat card is.
- **Taskmaster**: the villain cannot be damaged while any Crisis token is out; ``attack
  target=crisis`` or ``heroic target=crisis`` discards one where no Thugs or Civilians are.
- **Typos**: an entry that changes nothing (``tokens`` with no numbers, ``hit amount=0``,
  ``gain`` with no tokens, a ``relocate`` to where the hero stands, ``invulnerable`` for a hero
  who is already) or names no known target (``heroic target=thret``) is refused as a typo (as
  ``plot amount=0`` always was). Option ``typos=refuse`` (default) or ``keep``; a log made
  before the option (no such key
  in its game-started) keeps them.

Rules versions (game-started's ``rules_version``; :func:`.state.recorded_as_v1` decides):

- **Version 3** (new games): as version 2, and a window whose effect the data spells out and
  which opens with nothing to record (a BaM! with no hero to damage and no room for Thugs, an
  overflow whose tokens have nowhere to go, Avengers Mansion with 3 cards in hand, Avengers
  Tower) passes by itself: no bare ``done`` (:func:`.windows.nothing_to_record`).
- **Version 2**: a ``villain-turn`` records the card's face unless the game-started
  options say ``masterplan-deck=shipped``; each overflowing location has its own window and
  ``done``; a Location effect's cost is ``discard``, before the effect's results; each hero
  types their own third-Mission draw; Times Square's rescue says ``mission=true``; a typed name
  is a player's name first.
- **Version 1** (games recorded before issue 11): the game-started options have no
  ``masterplan-deck`` key, which means the shipped faces (a ``villain-turn`` may name only the
  card); one ``done`` closes the overflow of every location that overflowed, the results of all
  counted together; S.H.I.E.L.D. HQ's cost is typed as ``damage``, before or after its Crisis
  token (the two still go together); a typed name means the first seat whose player or hero it
  names; the table may type a third-Mission draw (the hero named, else the first still owed,
  draws); Times Square's rescue without ``mission=true`` still goes to the Mission. Every
  rules fix applies to version 1 too: a log with an impossible result is refused
  there (``audit`` names the event).

Card faces are data (:mod:`.data`), marked; the log records what each card shows.
"""

from tabletape.rules.facts import Fact
from tabletape.rules.manifest import GameManifest
from tabletape.rules.registry import lazy_rules

REPLAY = "tabletape.replay.games.marvel_united"

MANIFEST = GameManifest(
    name="marvel-united", title="Marvel United", aliases=("marvel", "mu"), short="mu",
    rules="tabletape.rules.marvel_united.game:MarvelUnited",
    view=f"{REPLAY}:view",
    narrate=f"{REPLAY}:narrate",
    conservation=f"{REPLAY}:conservation",
    dice=f"{REPLAY}:dice",
    projections="tabletape.queries.games.marvel_united:projections",
    demo="tabletape.rules.marvel_united.demo",
    bgg_id=Fact(298047, "C", "boardgamegeek.com/boardgame/298047/marvel-united, the link "
                             "several public game lists agree on"),
)
"""The game's one declaration (its ``tabletape.games`` entry point); reading it imports no rules."""


__getattr__ = lazy_rules(MANIFEST, __name__)
"""``RULES`` (the registered rules object) and the Rules class, imported on first use."""

__all__ = ["MANIFEST", "RULES", "MarvelUnited"]
