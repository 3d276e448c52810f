"""Ruleset profiles: the rules each seed game uses, as data the core reads.

A profile says which phases a round has, how initiative is decided, when marked damage lands,
which fleet command options exist, and which settings a game may change. Everything a seed
leaves open is a setting (``SETTINGS``) with the default that seed states, never a guess in code.

Profiles (each cites its seed):
- ``swsb``: Star Wars Starship Battles with the May 2007 errata, seed 000
  (``../shared/seeds/000_baeb94c29db4f7aa.txt``; rules digest sections 1-4).
- ``smb``: the fan Starwars Miniatures Battlegame, seed 004
  (``../shared/seeds/004_e5d94d5ce87da14f.txt``).
"""

# Initiative tie rules.
TIE_REROLL = 0   # seed 000 "initiative check": "Reroll ties."
TIE_KEEP = 1     # seed 004 "Initiative Phase": a tie keeps last turn's holder

# Who moves first once initiative is decided.
MOVE_LOSER_FIRST = 0   # seed 000: "Whoever rolls highest moves last and attacks first."
MOVE_HOLDER_FIRST = 1  # seed 004 "Movement Phase": "The player with the initiative moves all their ships"

# Fleet command option effects the core enforces.
EFFECT_NONE = 0    # recorded only (the players apply it on the table)
EFFECT_AVOID = 1   # cancels one pending hit on the ship it is played for (Fly Casual)


class Option:
    """One fleet command option: ``name`` (str), ``classes`` (tuple of ints the option may be
    played for; empty = any class), ``effect`` (EFFECT_*), ``text`` (what it does, for docs)."""

    def __init__(self, name, classes, effect, text):
        self.name = name
        self.classes = classes
        self.effect = effect
        self.text = text


class Profile:
    """Base of the ruleset profiles. Attributes (all class-level data):

    - ``name``: short id used on the wire and in rosters.
    - ``phases``: tuple of phase names, in order; advancing past the last ends the round.
    - ``pending_phases``: phase indices in which marked damage waits (is "pending").
    - ``hit_phases``: phase indices in which damage may be marked.
    - ``counter_phases``: phase indices in which fleet command counters may be played.
    - ``flush_phase``: pending damage is applied when this phase ends.
    - ``tie``: TIE_REROLL or TIE_KEEP. ``move_order``: MOVE_LOSER_FIRST or MOVE_HOLDER_FIRST.
    - ``options``: tuple of :class:`Option` (the fleet command chart), may be empty.
    - ``one_ship_at_a_time``: phase index where ships fire one at a time, or -1.
    - ``capital_phase``: phase index where a full-power move forbids firing, or -1.
    - ``pd_phase``: phase index where only point defense fires, or -1.
    - ``SETTINGS``: dict name -> (default, minimum, maximum) of int settings.
    - ``example``: the scenario name ``fleetref sim --ruleset NAME`` loads.
    """

    name = ""
    title = ""
    source = ""
    phases = ()
    pending_phases = ()
    hit_phases = ()
    counter_phases = ()
    flush_phase = -1
    tie = TIE_REROLL
    move_order = MOVE_LOSER_FIRST
    options = ()
    one_ship_at_a_time = -1
    capital_phase = -1
    pd_phase = -1
    SETTINGS = {}
    example = ""

    def settings(self, given=None):
        """Return the settings dict: defaults overridden by ``given`` (dict).

        Raises ValueError naming the setting when a name is unknown or a value is out of range.
        """
        out = {}
        for k in self.SETTINGS:
            out[k] = self.SETTINGS[k][0]
        if given:
            for k in given:
                if k not in self.SETTINGS:
                    raise ValueError("unknown setting %r for ruleset %s" % (k, self.name))
                v = given[k]
                lo = self.SETTINGS[k][1]
                hi = self.SETTINGS[k][2]
                if isinstance(v, bool):
                    v = int(v)
                if not isinstance(v, int) or v < lo or v > hi:
                    raise ValueError("setting %s must be an integer %d..%d" % (k, lo, hi))
                out[k] = v
        return out

    def phase_index(self, name):
        for i in range(len(self.phases)):
            if self.phases[i] == name:
                return i
        return -1


class SWSB(Profile):
    """Star Wars Starship Battles, May 2007 errata (seed 000; digest sections 1-4).

    - Initiative: every player rolls a d20; the highest moves last and attacks first; ties are
      rerolled (seed 000, "initiative check").
    - Phases: Initiative, Move, Attack (all point defense first: ``attack-pd``; then one ship
      at a time: ``attack``), Damage, then end of round (seed 000 FAQ "Attack Phase"; damage
      phase named in the errata for Emperor's Will; digest 1.2).
    - Damage marked in the Attack phase waits and is applied when the Attack phase ends, i.e.
      in the Damage phase (digest 1.2 point 4).
    - Fleet command (seed 000 FAQ "Fleet Command Options"): a counter leaves a ship's card for
      one option of its side's chart; one counter per option per round; the chart is cleared at
      the end of the round; counters are spent for the game; none from a destroyed ship; one may
      be played for a fighter not yet launched.

    Settings (digest 2.2 and 5 mark these unknown): ``damage_per_hit`` (points one hit marks,
    default 1), ``point_limit`` (0 = none).
    """

    name = "swsb"
    title = "Star Wars Starship Battles (May 2007 errata)"
    source = "seed 000 (WotC errata and FAQ, May 2007)"
    phases = ("initiative", "move", "attack-pd", "attack", "damage")
    pending_phases = (2, 3)
    hit_phases = (2, 3)
    counter_phases = (1, 2, 3)
    flush_phase = 3
    tie = TIE_REROLL
    move_order = MOVE_LOSER_FIRST
    one_ship_at_a_time = 3
    pd_phase = 2
    options = (
        Option("Fly Casual", (3,), EFFECT_AVOID,
               "a class 3 starship avoids a hit; class 3 only, once per round (seed 000 FAQ)"),
        Option("Incoming Fighters", (), EFFECT_NONE,
               "point defense reaches fighters within 2 squares this round (seed 000 FAQ)"),
        Option("Power to Engines", (2,), EFFECT_NONE,
               "a class 2 ship moves like a class 3 ship this round (seed 000 FAQ)"),
        Option("Long Range Bombardment", (), EFFECT_NONE,
               "your starfighters attack at 2 squares this round (digest 3.3, W1)"),
    )
    SETTINGS = {"damage_per_hit": (1, 1, 9), "point_limit": (0, 0, 9999)}
    example = "swsb-example"


class SMB(Profile):
    """Starwars Miniatures Battlegame, fan rules of March 2007 (seed 004).

    - Initiative (seed 004 "Initiative Phase"): each player rolls a d20, the higher holds the
      initiative; a tie keeps last turn's holder. In the first round there is no holder to keep,
      so a tie is rolled again (the seed is silent there; ``first_tie_reroll`` setting).
    - The initiative player moves first (seed 004 "Movement Phase").
    - Phases: Initiative, Movement, Capital Weapons (seed 004 "Turns").
    - A ship is destroyed by a number of hits (Star Destroyer 3, Troop Transport 2, a fighter 1:
      the scenario tables of seed 004); that is the roster's ``hp``.
    - A capital ship (or cruiser) that made a full-power move cannot fire capital weapons that
      round (seed 004 "Movement Phase").
    - Capital weapons fire is simultaneous, so hits marked in the Capital Weapons phase land when
      that phase ends and destroyed ships still fire back (seed 004 "Capital Weapons"). Rapid fire
      in the Movement phase lands at once.
    """

    name = "smb"
    title = "Starwars Miniatures Battlegame (fan, 2007)"
    source = "seed 004"
    phases = ("initiative", "movement", "capital")
    pending_phases = (2,)
    hit_phases = (1, 2)
    counter_phases = ()
    flush_phase = 2
    tie = TIE_KEEP
    move_order = MOVE_HOLDER_FIRST
    capital_phase = 2
    SETTINGS = {"damage_per_hit": (1, 1, 9), "first_tie_reroll": (1, 0, 1)}
    example = "hoth"


PROFILES = {"swsb": SWSB(), "smb": SMB()}


def get(name):
    """Return the profile called ``name``. Raises ValueError listing the known names."""
    p = PROFILES.get(name)
    if p is None:
        raise ValueError("unknown ruleset %r (known: %s)" % (name, ", ".join(sorted(PROFILES))))
    return p
