"""Risk: Transformers component data and rulebook numbers, each value with its provenance.

Marks (see :mod:`tabletape.rules.facts`): **R** printed in the rulebook
(``shared/rulebooks/risk-transformers.txt``, cited by section), **I** our reading where it is
silent (a default a table may change with ``--option``), **NF** not found anywhere. The map, the
ZONES→ROBOTS panel, the sector bonuses and the 42 cards are the board file's
(:mod:`tabletape.rules.risk_transformers.board`). The readings A1–A19 of the spec
(``shared/research/transformers-spec.md`` section 5) are :data:`READINGS`, each with the spec's
words; :mod:`.options` turns those that change what is legal into options.

>>> FACTION["megatron"], OPERATIONAL.value, LEADER_DIE.value
('decepticon', 30, 8)
>>> READINGS["A1"].value, READINGS["A1"].mark
('place', 'I')
"""

from __future__ import annotations

from tabletape.rules.facts import Fact
from tabletape.rules.risk_transformers import board

# -- leaders and factions ---------------------------------------------------------------------

AUTOBOT, DECEPTICON = "autobot", "decepticon"
FACTIONS = (AUTOBOT, DECEPTICON)
LEADERS = board.LEADERS
"""The four leaders, as typed (``--option leaders=optimus-prime,megatron``)."""
OPTIMUS, BUMBLEBEE, MEGATRON, BARRICADE = LEADERS

LEADER_FACTIONS = Fact(
    {OPTIMUS: AUTOBOT, BUMBLEBEE: AUTOBOT, MEGATRON: DECEPTICON, BARRICADE: DECEPTICON}, "R",
    "Setup 2: 2 AUTOBOTS (OPTIMUS PRIME and BUMBLEBEE) and 2 DECEPTICONS (MEGATRON and "
    "BARRICADE)",
)
FACTION: dict[str, str] = LEADER_FACTIONS.value
"""Each leader's faction."""
LEADER_TITLES = {OPTIMUS: "Optimus Prime", BUMBLEBEE: "Bumblebee", MEGATRON: "Megatron",
                 BARRICADE: "Barricade"}
VEHICLE_FORMS = Fact(
    {OPTIMUS: "truck", BUMBLEBEE: "Chevrolet Camaro", MEGATRON: "alien jet fighter",
     BARRICADE: "SALEEN police car"}, "R", "Leaders in Battle: Vehicle Form")

ROBOT_FORM_BONUS = Fact(
    {OPTIMUS: "defending", BARRICADE: "defending", BUMBLEBEE: "attacking",
     MEGATRON: "attacking"}, "R",
    "Leaders in Battle, Robot Form: OPTIMUS PRIME and BARRICADE add +1 to any die when "
    "defending. BUMBLEBEE and MEGATRON add +1 to any die when attacking.",
)
ROBOT_FORM_PLUS = Fact(1, "R", "Robot Form: +1 to any die, not necessarily the leader's")
ROBOT, VEHICLE = "robot", "vehicle"
FORMS = (ROBOT, VEHICLE)
START_FORM = Fact(ROBOT, "R", "Setup 4: Stand your leader up to show his robot form")

# -- players and seats ------------------------------------------------------------------------

PLAYERS = Fact((2, 3, 4), "R", "Setup 2: 2 players, 3 players, 4 players")
LAYOUTS = Fact(
    {2: (AUTOBOT, DECEPTICON), 3: (AUTOBOT, DECEPTICON, DECEPTICON),
     4: (AUTOBOT, DECEPTICON, AUTOBOT, DECEPTICON)}, "R",
    "Setup 2: 2 players one AUTOBOT and the other a DECEPTICON; 3 players one AUTOBOT, the "
    "others each a DECEPTICON; 4 players 2 teams, AUTOBOTS vs. DECEPTICONS, sit opposite your "
    "teammate (so turns alternate teams)",
)
"""Factions by seat for each player count: the 4-player one is the only seating the rule
allows up to which team sits first; the 2- and 3-player ones are one order of several."""
DEFAULT_LEADERS = Fact(
    {2: (OPTIMUS, MEGATRON), 3: (OPTIMUS, MEGATRON, BARRICADE),
     4: (OPTIMUS, MEGATRON, BUMBLEBEE, BARRICADE)}, "I",
    "leaders by seat when the table names none (the rulebook lets each player choose)",
)
TEAMS = Fact(True, "R", "Setup 2: 4 PLAYERS (ALLIED FORCES): play in 2 teams")
"""Only a 4-player game has teams; with 2 or 3 players each player is alone."""

# -- setup ------------------------------------------------------------------------------------

OPERATIONAL = Fact(30, "R", "Setup 3: Count out 30 robots. These are operational robots")
START_ROBOTS = Fact(1, "R", "Setup 4: Place your leader and one operational robot on the "
                    "leader's start zone")
ZONES = Fact(board.ZONES, "R", "Setup 5: There are 42 zones.")
SECTORS = Fact(board.SECTOR_SIZES, "R", "Phase 1 C: Sector / No. of zones (the bonuses are the "
               "board file's, checked by the board)")
SETUP_PLACING = Fact(1, "R", "Setup 5: take turns placing a robot on an empty zone until all "
                     "zones contain a robot")
ARMY = Fact(
    {"robots": 45, "vehicles": 10}, "I",
    "pieces per set are not printed (NF): 45 robots and 10 vehicles, enough for 30 operational "
    "robots with the rest on the scrapheap",
)
VEHICLE_WORTH = Fact(3, "R", "Setup 3: Vehicle (worth 3 robots); Things to Know: You can "
                     "exchange 3 robots for 1 vehicle, or vice versa, at any time.")

# -- the turn -----------------------------------------------------------------------------------

DAYS = Fact(6, "R", "What's Different: The game is played over 6 days (rounds).")
PHASES = Fact(5, "R", "Taking Your Turn: Each turn consists of 5 phases")
LEADER_RETURN = Fact(3, "R", "Bring Back Your Leader: you can pay 3 operational robots to bring "
                     "him back")
FACTORY_MAX = Fact(3, "R", "Phase 1 D: one extra robot for each robot (or leader) you have in "
                   "an open secret war factory (maximum 3 per factory)")
CARDS_PER_TURN = Fact(1, "R", "Phase 5: You can only draw one card per turn")
ALLSPARK = Fact(3, "R", "Rounds 1: The player who controls this zone immediately puts 3 robots "
                "from his scrapheap on it.")
NO_ALLSPARK_CARD = Fact(
    "skip", "I", "Rounds 1 takes \"the top card from the draw pile\" (A11: the discards "
    "reshuffled when it is empty); with no card in either, every card is in a hand: no AllSpark "
    "that day, the day marker moves on")
ALLSPARK_PIECES = Fact(
    "robots", "I", "Rounds 1: \"3 robots from his scrapheap\": robots, placed as robots; with "
    "too few robots on the scrapheap a vehicle there is exchanged for 3 of them "
    "(scrap-vehicles=exchange, SCRAP_VEHICLES), else what the scrapheap holds (A10)")
SCRAP_VEHICLES = Fact(
    "exchange", "I", "Setup 3: Vehicle (worth 3 robots); Things to Know: You can exchange 3 "
    "robots for 1 vehicle, or vice versa, at any time. Robots taken from a scrapheap (Phase 1, "
    "the AllSpark, a war factory opened, a teammate's zone) are paid in robot units: when its "
    "robots run short a vehicle on it is exchanged for 3 robots, as often as needed; only with "
    "no robot and no vehicle left is the receipt short (A10). Option scrap-vehicles=idle: the "
    "vehicles stay on the scrapheap (A10 read literally)")
WINNING = Fact("most-zones", "R", "Winning: If you control the most zones at the end of day 6, "
               "you win! (an open factory counts as a zone, a closed one does not, A3)")
LAUNCH_PAD_TIE = Fact(
    "holder", "R", "Winning: If there is a tie for the most zones controlled, the player who "
    "controls the Launch Pad automatically wins the game (no matter how many zones he has); "
    "4-Player Game: the team that controls the Launch Pad automatically wins. No zone is ever "
    "empty, so somebody always holds the Launch Pad and a tie always has a winner")
INSTANT_WIN = Fact("all-enemies", "R", "Out of Robots!: If you destroy all enemy armies, you win "
                   "the game! (4 players: both armies of the other team)")
DECK = Fact(board.CARDS, "R", "Components: 42 upgrade cards")
MASS_PRODUCTION = Fact(3, "R", "Mass-Production: Place 3 extra robots this turn.")
INTERLOCK = Fact(2, "R", "Interlock Initiators: Double your sector bonus this turn.")

# -- battle -------------------------------------------------------------------------------------

ROBOT_DIE = Fact(6, "R", "Which Dice Do I Use?: robots and vehicles use the 6-sided dice")
LEADER_DIE = Fact(8, "R", "Leaders in Battle: Leaders always use an 8-sided die")
DICE = Fact({6: 5, 8: 5}, "R", "Components: 5 six-sided dice, 5 eight-sided dice")
ATTACK_FROM = Fact(2, "R", "When Can I Attack?: You must have 2 or more robots in the zone you "
                   "are attacking from")
ATTACK_MAX = Fact(3, "R", "When Can I Attack?: The maximum number of robots that you can attack "
                  "with is 3.")
DEFEND_MAX = Fact(2, "R", "How to Attack 3: how many robots he is defending with (1 or 2)")
TIES = Fact("defender", "R", "How to Attack 5: If the rolls are equal, the defender wins.")

# -- the readings where the rulebook is silent (spec section 5), each our default -------------


def _reading(value: object, words: str) -> Fact:
    return Fact(value, "I", words)


READINGS: dict[str, Fact] = {
    "A1": _reading("place", "Leftover operational robots after S5: keep placing one at a time "
                   "on your own zones until all 30 are down; alternative: keep them for the "
                   "first Phase 1 step E."),
    "A2": _reading("closed", "Spinning zones start closed."),
    "A3": _reading("fixed", "Illegible words: \"count him as 1 of your [3] robots\"; Megatron "
                   "attacks alone from his own zone (leaving at least 1 there), any enemy "
                   "target, one d8; if he loses, he is the casualty; if he captures, he moves "
                   "in. A closed factory is not a zone."),
    "A4": _reading("fixed", "\"Repeat steps 2–7\" but six steps are printed: repeat 2–6."),
    "A5": _reading("source", "The attacker's casualty comes from the source zone, the loser's "
                   "choice (literal); option \"casualties only from pieces that rolled\"."),
    "A6": _reading("fixed", "A leader alone counts as a robot for control, for M2 and for "
                   "elimination."),
    "A7": _reading("fixed", "One back-up move per turn; the leader may move as part of it."),
    "A8": _reading("any", "A rotation may go to any position per card; a table may restrict "
                   "this."),
    "A9": _reading("board", "Factory links and whether sliding changes Decagon's or Moon "
                   "Alpha's own links: NF; the board file says."),
    "A10": _reading("fixed", "Empty scrapheap (opening, AllSpark, gifting, Phase 1 gains): "
                    "place what exists."),
    "A11": _reading("fixed", "Empty draw pile: reshuffle the discards."),
    "A12": _reading("any", "Bumblebee's power on any casualty, attacking or defending; to a "
                    "neighbour of his current zone, owner's choice; if he was the defender's "
                    "last piece, the zone is captured."),
    "A13": _reading({"barricade": "among", "megatron-alone": "far"},
                    "Barricade must be among the attackers; Megatron's \"alone\" only "
                    "for non-neighbour targets."),
    "A14": _reading("fixed", "The robot-form +1 goes on one of your own dice and may exceed "
                    "the die's highest face."),
    "A15": _reading("fixed", "4 players: sector bonuses need individual control; eliminated "
                    "players are skipped; unlimited hand."),
    "A16": _reading("fixed", "Gifting a zone holding your leader sends him to the scrapheap."),
    "A17": _reading(True, "Optimus may still jump when the player gifts a zone instead of "
                    "backing up."),
    "A18": _reading("fixed", "\"the special zone itself\" includes its open factory; the "
                    "factory belongs to the sliding zone's sector."),
    "A19": _reading("fixed", "4 players: the \"last player\" is the last seat from the "
                    "youngest; the AllSpark also happens after day 6, before scoring."),
}
"""The spec's readings A1–A19 by code: the default (``fixed`` where no option changes it) and
the spec's words."""
