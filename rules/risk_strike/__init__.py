"""Risk Strike (Hasbro 2023), 2 to 5 players: the rules as pure functions over recorded facts.

Actions, as typed at the table (``by=NAME`` when the actor is not the only one allowed)::

    deal player=olga continents=asia,asia,europe tactics=troop,2   (the table, setup)
    deal player=patrick tactics=spy        (the table: Setup 6's additional card, named)
    roll-off dice=5,3                               (the table; empty: tabletape rolls)
    draw continents=asia lineup=europe tactics=1    (turn draw, or Expand's draw)
    attack from=asia target=europe defender=patrick
    deploy troops=2 [side=attacker]                 (troops required, 0: none; side: helpers)
    roll attacker=6,3,2 defender=5,5                (empty: tabletape rolls)
    play card=rally | card=spy target=patrick | card=bombard side=defender die=5
         | card=artillery target=carol [troops=1]
    resolve [lost=carol]                            (close the open windows)
    retreat
    pass [drew=troop]

Readings where the rulebook leaves a question open (each has a test):

- **Windows.** A tactics card other than a Troop waits while the others may answer it with
  Canceled Orders; the next action of any other kind closes that window and the card takes effect
  (``resolve`` closes it explicitly). So cards resolve in the order played ("Tactics cards will
  always be resolved in order"). A roll stays open for Rally, Bombard and Artillery until the
  attacker types ``resolve``, rolls again or retreats; losses are derived only then.
- **The additional setup tactics card** (Setup 6), drawn by every player but the first after
  the roll-off, is face down unless the table names it: with the fourth continent card in a
  two-player game (``deal player=patrick continents=africa tactics=spy``), or with ``deal
  player=NAME tactics=CARD`` before the first player's first entry, once per player.
- **Canceled Orders** cancels the card played just before it, and may itself be canceled (it is
  not a Troop card): an odd number of Canceled Orders cancels the card, an even number lets it
  stand. It cannot be played when no card is waiting.
- **Deployment** is three steps, whatever order the entries are typed in: the attacker deploys
  or declines (``deploy troops=0``) in one entry, then the defender the same way, then other
  players, each as often as they like, for one side per battle. An entry out of its step is
  refused with the step's reason (a helper's early troops do not cost the defender their step,
  and the attacker cannot roll before the defender has answered). Nobody at a table announces
  "I help nobody": the helpers' step ends when the attacker rolls or types ``resolve``, or when
  anyone plays Artillery or Sabotage; with two players it ends with the defender's entry.
  Artillery and Sabotage may be played once the attacker and the defender have answered ("After
  the attacker and defender have deployed troop cards, other players may deploy"; Sabotage
  "Play immediately after troops are deployed"), and playing either says deployment is over: it
  closes the helpers' step, even if Canceled Orders then cancels the card (the card was still
  played "after troops are deployed"; a cancelled card changes nothing else, so the attacker
  rolls next). Every deploy entry says how many troops (``troops=0``: none); none is assumed.
- **Rules versions** (game-started's ``rules_version``): new games record version 2, the
  deployment steps above. A game recorded under version 1 (before the steps) keeps its recording
  protocol, read as it was meant at the table: in deployment nobody typed a decline, so an
  entry the steps would refuse because earlier steps are unanswered (a later player's troops, the
  first roll, Artillery or Sabotage, played even if then canceled) declines every earlier step
  not yet answered, and a player's step stays open for more troops until then
  (:func:`.moves.answering`). Version 1 also named Bombard's die by the face it landed on, before
  a Rally's bonus (:func:`.moves.named_faces`); the die still becomes a 6. And version 1 ended
  the turn with the battle, dropping Expand's draw owed then: in its logs the next player's
  entry shows the draw was not taken (recording on, the draw is owed as in version 2). Every
  other rule applies to version 1 games as to new ones. An unknown version is refused (a newer
  tabletape wrote it).
- **Helpers' troops** join the side they help: they add dice to it, and a lost pair costs the
  side an active troop before a continent card. Which troop is the table's choice, said with
  ``resolve lost=carol`` (one name per lost pair that costs a troop, highest pair first); by
  default (and when the roll is resolved by ``roll`` or ``retreat``) the side's own player's
  troops go first, then helpers' (latest first). After Sabotage every troop goes back to the hand
  of the player who played it.
- **Artillery** names the player whose troops are discarded (a helper may be named) and, with
  ``troops=1`` or ``troops=2``, how many ("up to 2"); by default two, or their only one. A
  player's troops in a battle are alike (one side each), so the player and the number say which.
  It may be played from the end of deployment to the end of the battle, including while a roll
  is open.
- **Sabotage** is played after deployment and before the first roll ("immediately after troops are
  deployed"); it ends the battle and the attacker's turn.
- **Rally** is played by the attacker (the player whose turn it is) while a roll is open; each
  Rally adds 2 to each attack die. **Bombard** (any player, while a roll is open) turns one die,
  named by side and the face it shows now (Rally included), to a 6. Cards resolve in the order
  played: Rally then Bombard shows 6; Bombard then Rally shows 8.
- **Spy and Expand** are played by the player whose turn it is, at any point of the turn. Spy's
  draw is face down; Expand's draw is recorded with ``draw`` and comes from the continent deck or
  the tactics deck, not the surrendered lineup (the lineup is named only for the turn's draw).
  Expand's draw is owed until taken: if the battle ends meanwhile (``resolve`` closing the card
  and a winning roll), the turn ends only after it.
- **Active cards**: the attacking and defending continent cards are those held when the battle is
  declared; cards claimed during the battle are not active in it ("A continent card claimed
  during battle cannot be used as an active card"). Attacking-continent cards drawn with Expand
  during the battle add no die either (option ``expand-cards=inactive``, default), or join the
  attacking cards (``expand-cards=active``). The attacker must roll at least once before
  retreating.
- **Pairs after the winning pair**: every pair of a roll is resolved, even after one took the
  defender's last defending card, the attacker's last attacking card or won the game (option
  ``after-win=resolve``, default: "compare the next-highest pair of dice and repeat the
  process"); ``after-win=stop`` leaves the later pairs unresolved.
- **Surrendered cards** need no choice: cards of one continent are identical.
- **Coins**: a player takes a coin when a gain brings them to the domination number, from
  whoever holds it; the first player with two coins wins at once.
- **Empty decks**: the tactics discard pile is reshuffled when a draw finds the deck empty (option
  ``reshuffle=at-draw``, default), or as soon as the last card is drawn (``reshuffle=when-empty``:
  cards discarded after that wait for the next reshuffle); a draw takes only what is left
  anywhere (the turn's draw asks for fewer cards when fewer are left).
- **Face-down cards** are tracked by the deck they were drawn from (:mod:`.hidden`): a reshuffled
  deck holds exactly the discard pile it was made of, and a face-down card can only be a card its
  deck still had. A card played from face-down cards, a named draw or a deployment that no
  possible past allows is refused (no Troop from a deck reshuffled from Rallies; no fifth Rally
  from cards drawn while all four were seen). Named cards in a hand are played first.
- **Dice counts** must be exactly what the rules allow: cards in the battle plus active troops,
  at most 3 attacking and 2 defending.

Component data not printed in the rulebook (continent sizes, most domination numbers, most of
the map) are defaults marked in :mod:`.data`, overridable with ``--option``; so are the readings
``reshuffle``, ``expand-cards`` and ``after-win`` (:data:`.data.READINGS`).
"""

from tabletape.rules.facts import Fact
from tabletape.rules.manifest import GameManifest
from tabletape.rules.registry import lazy_rules

REPLAY = "tabletape.replay.games.risk_strike"

MANIFEST = GameManifest(
    name="risk-strike", title="Risk Strike", aliases=("strike", "rs"), short="rs",
    rules="tabletape.rules.risk_strike.game:RiskStrike",
    view=f"{REPLAY}:view",
    narrate=f"{REPLAY}:narrate",
    conservation=f"{REPLAY}:conservation",
    dice=f"{REPLAY}:dice",
    projections="tabletape.queries.games.risk_strike:projections",
    demo="tabletape.rules.risk_strike.demo",
    bgg_id=Fact(None, "NF", "no BoardGameGeek entry for Risk Strike (Avalon Hill 2023) found in "
                            "the public code and pages searched for issue 16"),
)
"""The game's one declaration (its ``tabletape.games`` entry point); reading it imports no rules."""


__getattr__ = lazy_rules(MANIFEST, __name__)
"""``RULES`` (the registered rules object) and the Rules class, imported on first use."""

__all__ = ["MANIFEST", "RULES", "RiskStrike"]
