"""Ruleset profiles: the rules each seed game uses, as data the core reads.

A profile says which phases a round has, how initiative is decided, when marked damage lands,
which fleet command options exist, and which settings a game may change. Everything a seed
leaves open is a setting (``SETTINGS``) with the default that seed states, never a guess in code.

Profiles (each cites its seed), each in its own module, imported only when a game uses it (the
Pico's heap holds the bytecode of what is imported):
- ``swsb``: Star Wars Starship Battles with the May 2007 errata, seed 000
  (``../shared/seeds/000_baeb94c29db4f7aa.txt``; rules digest sections 1-4): rules_swsb.py.
- ``swsb-addon``: the fan add-on rules, seed 001: rules_swsb.py.
- ``squadrons-d6``: a fan squadron game on WEG D6 stats, seed 002: rules_d6.py.
- ``xwing-overlap``: X-Wing Miniatures overlap rules, seed 003: rules_xwing.py.
- ``smb``: the fan Starwars Miniatures Battlegame, seed 004
  (``../shared/seeds/004_e5d94d5ce87da14f.txt``): rules_smb.py.
"""

from referee import game as G

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

    # ---- hooks the rules core calls (game.py); profiles override what they use ----------
    # pad actions of the option keys: opt1..opt4 (short; fleet command counters when the
    # profile has a chart) and alt1..alt4 (their long presses); "" = unused
    pad = ("", "", "", "", "", "", "", "")

    def start_phase(self, g):
        """Called after the phase advanced (also into a new round's first phase)."""
        pass

    def end_round(self, g):
        """End-of-round bookkeeping of the profile's per-ship flags (Game.fl2)."""
        for i in range(g.n):
            f = g.fl2[i]
            ion = f & G.G_ION
            f &= ~(G.ROUND_FLAGS2 | G.G_ION) & 255
            if ion:
                f |= G.G_ION_NOW       # smb: the Ion Cannon's hit holds it next round
            g.fl2[i] = f
        for k in range(6):
            g.x[k] = 0

    def on_damage(self, g, i):
        """Damage was just applied to ship i."""
        pass

    def check_hit(self, g, target, points, attacker):
        """Profile rules for marking damage (EV_HIT and hits of EV_ATTACK)."""
        if attacker != G.NONE and points > 0 and g.fl2[attacker] & G.G_ION_NOW:
            return "%s is ionized: it cannot fire this round" % g.names[attacker]
        return None

    def check_ext(self, g, kind, a, b, c):
        """Check an event of kind >= EV_AIM; the base profile knows none."""
        return "%s does not use %s events" % (self.name, G.EV_NAMES[kind]
                                              if kind < len(G.EV_NAMES) else kind)

    def apply_ext(self, g, kind, a, b, c):
        """Apply an event of kind >= EV_AIM that check_ext accepted (aim and attack here)."""
        if kind == G.EV_AIM:
            g.aux[a] = self.aim_value(g, b, c)
        elif kind == G.EV_ATTACK:
            self.apply_attack(g, a, b, c)

    def acting_side(self, g):
        """Side whose turn it is to act (shown on the grid), or NONE."""
        return g.moves_first()

    def yet_to_act(self, g, i):
        return False

    def view(self, g):
        """Profile-specific fields of the snapshot (dict)."""
        return {}

    # ---- the attack helper (EV_AIM, EV_ATTACK) shared by the d20 profiles --------------
    weapons = (G.W_PRIMARY,)

    def check_aim(self, g, a, weapon, arg):
        if weapon not in self.weapons:
            return "%s has no weapon %d" % (self.name, weapon)
        return None

    aims = ((G.W_PRIMARY, 0),)

    def next_aim(self, g, i):
        """The (weapon, arg) after ship i's current aim in ``aims`` that it may take."""
        cur = g.aux[i]
        n = len(self.aims)
        start = 0
        for k in range(n):
            if self.aim_value(g, self.aims[k][0], self.aims[k][1]) == cur:
                start = k + 1
        for k in range(n):
            w, arg = self.aims[(start + k) % n]
            if self.check_aim(g, i, w, arg) is None:
                return w, arg
        return self.aims[0]

    def aim_value(self, g, weapon, arg):
        return weapon | (min(arg, 31) << 3)

    def attack_result(self, g, a, c, roll):
        """(hit, total, need) of an attack by a on c with the d20 ``roll``, or a reason (str)."""
        return "%s has no attack helper" % self.name

    def check_attack(self, g, a, roll, c):
        if not 1 <= roll <= 20:
            return "a d20 shows 1..20"
        r = g._ship(a) or g._ship(c)
        if r:
            return r
        res = self.attack_result(g, a, c, roll)
        if isinstance(res, str):
            return res
        return g.check((G.EV_HIT, c, g.settings["damage_per_hit"], a))

    def apply_attack(self, g, a, roll, c):
        hit, total, need = self.attack_result(g, a, c, roll)
        g.x[0] = 1 if hit else 2
        g.x[1] = roll
        g.x[2] = max(0, min(total, 255))
        if hit:
            g.mark(c, g.settings["damage_per_hit"], a)
        else:
            g.mark(c, 0, a)   # a miss still makes the attacker the ship firing now

    def d20_hit(self, g, roll, total, need):
        s = g.settings
        if roll == 20 and s.get("nat20_hits", 0):
            return True
        if roll == 1 and s.get("nat1_misses", 0):
            return False
        if total == need:
            return bool(s.get("tie_hits", 1))
        return total > need

    def ext_common(self, g, kind, a, b, c):
        """Checks for EV_AIM and EV_ATTACK (None, a reason, or False when not handled)."""
        if kind == G.EV_AIM:
            r = g._ship(a)
            if r:
                return r
            if g.destroyed(a):
                return "%s is destroyed" % g.names[a]
            return self.check_aim(g, a, b, c)
        if kind == G.EV_ATTACK:
            return self.check_attack(g, a, b, c)
        return False


# name -> (module, class); the module is imported on first use
PROFILES = {"swsb": ("referee.rules_swsb", "SWSB"), "smb": ("referee.rules_smb", "SMB"),
            "swsb-addon": ("referee.rules_swsb", "SWSBAddon"),
            "squadrons-d6": ("referee.rules_d6", "SquadronsD6"),
            "xwing-overlap": ("referee.rules_xwing", "XWingOverlap")}
_loaded = {}


def get(name):
    """Return the profile called ``name``. Raises ValueError listing the known names."""
    p = _loaded.get(name)
    if p is not None:
        return p
    spec = PROFILES.get(name)
    if spec is None:
        raise ValueError("unknown ruleset %r (known: %s)" % (name, ", ".join(sorted(PROFILES))))
    mod = __import__(spec[0], None, None, [spec[1]])
    p = getattr(mod, spec[1])()
    _loaded[name] = p
    return p
