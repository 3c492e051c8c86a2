"""Risk: Transformers – Cybertron Battle Edition, 2 to 4 players (teams of two at 4).

- **The board and the cards come from the table** (:mod:`.board`): the rulebook prints neither
  the map's topology, nor the ZONES → ROBOTS panel (one value legible), nor the leaders' start
  zones, nor the 42 upgrade cards. ``default-board.json`` is a reconstruction (mark I) a table
  replaces with its own file.
- **The foundation of the rules**: rulebook numbers and the readings A1–A19 with provenance
  (:mod:`.data`), the options that change what is legal (:mod:`.options`), every fact a table
  records (:mod:`.events`), the state and what it derives (:mod:`.state`), setup folded by the
  rules (:mod:`.moves`), the rules object (:mod:`.game`).
- **The turn**: the phase machine and Phase 1, Place Robots (:mod:`.reinforce`); Phase 2,
  Morph!, special zones and cards outside battle (:mod:`.special`); Phase 3, Attack!: the
  battle, leaders' powers in it and the cards "for this attack" (:mod:`.battle`); Phase 4, Call
  for Back-Up (Optimus's jump, a gift to the teammate), and Phase 5, Draw a Card
  (:mod:`.backup`).
- **The end of a day and of the game** (:mod:`.allspark`): the AllSpark card the last player
  turns after each round, the six days, the count at the end of day 6 (the Launch Pad breaking
  a tie, team totals at 4) and the army left standing when every other is destroyed.
- **The bot** (:mod:`.bot`, ``tabletape simulate transformers``): a seeded player of whole
  games through ``legal_actions`` and the rules' own steps, using every mechanism on the way.
- **The catalog** (:mod:`tabletape.queries.games.risk_transformers`): dice and battles with the
  leaders' d8s and each roll's kind of bonus, the cards played, the AllSpark cards, the special
  zones changed; standings and teams from the rules' figures.
"""

from tabletape.rules.facts import Fact
from tabletape.rules.manifest import GameManifest
from tabletape.rules.registry import lazy_rules

REPLAY = "tabletape.replay.games.risk_transformers"

MANIFEST = GameManifest(
    name="risk-transformers", title="Risk: Transformers", aliases=("transformers", "rt"),
    short="rt",
    rules="tabletape.rules.risk_transformers.game:RiskTransformers",
    view=f"{REPLAY}:view",
    narrate=f"{REPLAY}:narrate",
    setup_notes=f"{REPLAY}:setup_notes",
    conservation=f"{REPLAY}:conservation",
    dice=f"{REPLAY}:dice",
    demo="tabletape.rules.risk_transformers.demo",
    picture="tabletape.replay.games.risk_transformers_picture:picture",
    projections="tabletape.queries.games.risk_transformers:projections",
    bgg_id=Fact(None, "NF", "no BoardGameGeek entry for Risk: Transformers (Cybertron Battle "
                            "Edition) found in the public code and pages searched for issue 16"),
)
"""The game's one declaration (its ``tabletape.games`` entry point); reading it imports no rules."""


__getattr__ = lazy_rules(MANIFEST, __name__)
"""``RULES`` (the registered rules object) and the Rules class, imported on first use."""

__all__ = ["MANIFEST", "RULES", "RiskTransformers"]
