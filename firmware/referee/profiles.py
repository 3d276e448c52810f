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

    def phase_index(self, name):
        for i in range(len(self.phases)):
            if self.phases[i] == name:
                return i
        return -1

    # ---- hooks the rules core calls (game.py); profiles override what they use ----------
    # pad actions of the option keys: opt1..opt4 (short; fleet command counters when the
    # profile has a chart) and alt1..alt4 (their long presses); "" = unused
    pad = ("", "", "", "", "", "", "", "")

    def check_phase(self, g):
        """Reason the phase may not advance now, or None."""
        return None

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
        pass

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
    SETTINGS = {"damage_per_hit": (1, 1, 9), "point_limit": (0, 0, 9999),
                "tie_hits": (1, 0, 1), "nat20_hits": (0, 0, 1), "nat1_misses": (0, 0, 1)}
    example = "swsb-example"
    weapons = (G.W_PRIMARY, G.W_PD, G.W_BROAD_L, G.W_BROAD_R)
    aims = ((G.W_PRIMARY, 0), (G.W_PD, 0), (G.W_BROAD_L, 0), (G.W_BROAD_R, 0))
    pad = ("", "", "", "", "attack", "aim", "transfer", "")

    # Completed rules (issue 5 part 1):
    # - damaged-side stats: Game.defense/attack_bonus/point_defense read the roster's
    #   ``stats.damaged`` block once the card is flipped (digest 2.1-2.2);
    # - Emperor's Will (seed 000 errata): EV_TRANSFER moves pending damage from the ship with
    #   the ability to an allied fighter, resolved at once rather than in the damage phase;
    # - Infinite (digest 2.2, W1): a destroyed Infinite fighter goes back to the fighter pool;
    # - a carrier launches one fighter a turn (digest 4; Game's EV_LAUNCH);
    # - broadsides fire once to each side (seed 000 FAQ "Attack Phase");
    # - the attack helper: d20 + attack against Defense (digest 2.2, W6); ties, natural 20 and
    #   natural 1 are settings (digest marks them unknown).

    def check_aim(self, g, a, weapon, arg):
        if weapon not in self.weapons:
            return "swsb weapons: 0 primary, 1 point defense, 2/3 broadside left/right"
        if weapon in (G.W_BROAD_L, G.W_BROAD_R):
            if not g.ab[a] & G.A_BROADSIDE:
                return "%s has no broadside weapon" % g.names[a]
        return None

    def attack_result(self, g, a, c, roll):
        w = g.aux[a] & 7
        bonus = g.point_defense(a) if w == G.W_PD else g.attack_bonus(a)
        need = g.defense(c, 0)
        if bonus == 255 or need == 255:
            return "the roster gives no attack or Defense for these ships: mark hits with dmg+"
        if w == G.W_BROAD_L and g.fl2[a] & G.G_BROAD_L:
            return "%s already fired its broadside to the left this round" % g.names[a]
        if w == G.W_BROAD_R and g.fl2[a] & G.G_BROAD_R:
            return "%s already fired its broadside to the right this round" % g.names[a]
        if w == G.W_PD and g.phase != self.pd_phase:
            return "point defense fires in the attack-pd step"
        if g.phase == self.pd_phase and w != G.W_PD:
            return "only point defense fires in the attack-pd step (aim the PD first)"
        total = roll + bonus
        return self.d20_hit(g, roll, total, need), total, need

    def apply_attack(self, g, a, roll, c):
        Profile.apply_attack(self, g, a, roll, c)
        w = g.aux[a] & 7
        if w == G.W_BROAD_L:
            g.fl2[a] |= G.G_BROAD_L
        elif w == G.W_BROAD_R:
            g.fl2[a] |= G.G_BROAD_R

    def check_ext(self, g, kind, a, b, c):
        r = self.ext_common(g, kind, a, b, c)
        if r is not False:
            return r
        if kind == G.EV_TRANSFER:
            r = g._ship(a) or g._ship(c)
            if r:
                return r
            if not g.ab[a] & G.A_EMPERORS_WILL:
                return "%s has no Emperor's Will" % g.names[a]
            if g.phase not in self.pending_phases:
                return "Emperor's Will moves damage in the attack phase"
            if b < 1 or g.pend[a] < b:
                return "%s has not %d damage pending to move" % (g.names[a], b)
            if c == a or g.side[c] != g.side[a] or g.cls[c] != 4:
                return "the damage goes to an allied fighter"
            if not g.fl[c] & G.F_LAUNCHED or g.destroyed(c):
                return "%s is not on the map" % g.names[c]
            return None
        return Profile.check_ext(self, g, kind, a, b, c)

    def apply_ext(self, g, kind, a, b, c):
        if kind == G.EV_AIM:
            g.aux[a] = self.aim_value(g, b, c)
        elif kind == G.EV_ATTACK:
            self.apply_attack(g, a, b, c)
        elif kind == G.EV_TRANSFER:
            g.pend[a] -= b
            t = g.hp1[c] + g.hp2[c]
            g.dmg[c] = min(g.dmg[c] + b, t)      # at once, not in the damage phase
            self.on_damage(g, c)

    def on_damage(self, g, i):
        if g.ab[i] & G.A_INFINITE and g.destroyed(i):
            # Infinite: back to the fighter pool instead of leaving play (digest 2.2, W1)
            g.dmg[i] = 0
            g.pend[i] = 0
            g.fl[i] &= ~G.F_LAUNCHED & 255
            g.x[5] = min(g.x[5] + 1, 255)

    def view(self, g):
        r = {}
        if g.x[0]:
            r["last_attack"] = {"hit": g.x[0] == 1, "roll": g.x[1], "total": g.x[2]}
        return r


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
    SETTINGS = {"damage_per_hit": (1, 1, 9), "first_tie_reroll": (1, 0, 1),
                "tie_hits": (1, 0, 1)}
    example = "hoth"
    weapons = (G.W_CAPITAL, G.W_HEAVY, G.W_RAPID)
    aims = ((G.W_CAPITAL, 0), (G.W_CAPITAL, 1), (G.W_CAPITAL, 2), (G.W_HEAVY, 0),
            (G.W_HEAVY, 1), (G.W_HEAVY, 2), (G.W_RAPID, 0), (G.W_RAPID, 1), (G.W_RAPID, 2))
    pad = ("move", "rapid", "counter", "exit", "attack", "aim", "ion", "port")
    G_RESPONDED = G.G_BROAD_L      # smb meaning of this flag bit: a response was taken to it
    G_ATTACK_MOVE = G.G_SKIP_ACTION  # and of this one: made the fighter "attack" move

    # Completed rules (issue 5 part 5), seed 004:
    # - moves (EV_MOVE 1 standard, 2 full power, 3 fighter attack); the initiative player
    #   moves all ships first ("Movement Phase");
    # - response actions (EV_RESPONSE, "Response Actions"): only one per enemy ship moved; a
    #   countermove needs the same or higher speed and never answers a move into the square
    #   directly behind; rapid fire at a ship that ends in the threat zone (then its hit may be
    #   marked in the movement phase);
    # - capital weapons fire simultaneously (hits land when the phase ends), never at fighters;
    # - defense by facing: front, side, rear (the scenario tables' three columns);
    # - the Ion Cannon (Scenario 1): up to two bursts a round at +16 as a capital weapon; a
    #   Star Destroyer it hits cannot move or fire next round;
    # - victory (roster ``victory``): Hoth, the Transport destroyed or exited; the Death Star
    #   port hit (the seed gives no conditions there: recorded as the Rebels' aim).

    def _type_name(self, g, i):
        return "fighter" if g.ab[i] & G.A_FIGHTER else "ship"

    def _unmoved(self, g, side):
        out = []
        for i in range(g.n):
            if g.side[i] == side and g.fl[i] & G.F_LAUNCHED and not g.destroyed(i) and \
                    not g.fl2[i] & G.G_MOVED:
                out.append(i)
        return out

    def check_move(self, g, a, mode):
        if g.phase != 1:
            return "ships move in the movement phase"
        r = g._ship(a)
        if r:
            return r
        nm = g.names[a]
        if g.destroyed(a) or not g.fl[a] & G.F_LAUNCHED:
            return "%s is not on the table" % nm
        if g.fl2[a] & G.G_ION_NOW:
            return "%s is ionized: it cannot move this round" % nm
        if g.fl2[a] & G.G_MOVED:
            return "%s has already moved" % nm
        if mode not in (1, 2, 3):
            return "moves: 1 standard, 2 full power, 3 fighter attack"
        if mode == 3 and not g.ab[a] & G.A_FIGHTER and not g.fighter_attack[a]:
            return "only fighters make the attack move"
        if g.init != G.NONE and g.side[a] != g.init:
            left = self._unmoved(g, g.init)
            if left:
                return "%s moves first: %s has not moved" % (g.side_names[g.init],
                                                            g.names[left[0]])
        return None

    def apply_move(self, g, a, mode):
        g.fl2[a] |= G.G_MOVED
        if mode == 2:
            g.fl[a] |= G.F_POWER
        elif mode == 3:
            g.fl2[a] |= self.G_ATTACK_MOVE

    def check_aim(self, g, a, weapon, arg):
        if weapon not in self.weapons:
            return "smb weapons: 4 capital, 5 heavy, 6 rapid"
        if g.wbonus[3 * a + weapon - G.W_CAPITAL] == 255:
            return "%s has no %s weapon" % (g.names[a], ("capital", "heavy", "rapid")
                                            [weapon - G.W_CAPITAL])
        if not 0 <= arg <= 2:
            return "facing: 0 front, 1 side, 2 rear"
        return None

    def attack_result(self, g, a, c, roll):
        w = g.aux[a] & 7
        if w not in self.weapons:
            return "aim first: choose the weapon and the target's facing"
        facing = (g.aux[a] >> 3) & 3
        if w == G.W_CAPITAL:
            if g.phase != self.capital_phase:
                return "capital weapons fire in the capital weapons phase"
            if g.ab[c] & G.A_FIGHTER:
                return "capital weapons cannot target fighters"
        elif g.phase != 1:
            return "heavy and rapid weapons fire in the movement phase"
        elif w == G.W_HEAVY and not g.fl2[a] & self.G_ATTACK_MOVE:
            return "heavy weapons fire during a fighter attack move"
        need = g.defense(c, facing)
        if need == 255:
            return "the roster gives no defence for %s" % g.names[c]
        if g.ab[a] & G.A_FIGHTER:
            need += g.snub_def[c]
        total = roll + g.wbonus[3 * a + w - G.W_CAPITAL]
        return self.d20_hit(g, roll, total, need), total, need

    def check_hit(self, g, target, points, attacker):
        r = Profile.check_hit(self, g, target, points, attacker)
        if r or attacker == G.NONE or points <= 0:
            return r
        if g.ab[attacker] & G.A_FIGHTER and g.ab[target] & G.A_NO_SNUB:
            return "%s cannot be damaged by snub weapons" % g.names[target]
        if g.phase == 1 and not g.fl2[attacker] & self.G_ATTACK_MOVE and \
                g.rapid_at[attacker] != target + 1:
            return "%s fires in the movement phase only as a response (rapid fire) or " \
                   "during a fighter attack move" % g.names[attacker]
        return None

    def check_ext(self, g, kind, a, b, c):
        r = self.ext_common(g, kind, a, b, c)
        if r is not False:
            return r
        if kind == G.EV_MOVE:
            return self.check_move(g, a, b)
        if kind == G.EV_RESPONSE:
            r = g._ship(a) or g._ship(c)
            if r:
                return r
            if g.phase != 1:
                return "responses are taken in the movement phase"
            if g.side[a] == g.side[c]:
                return "a response answers an enemy ship's move"
            if not g.fl2[c] & G.G_MOVED:
                return "%s has not moved" % g.names[c]
            if g.fl2[c] & self.G_RESPONDED:
                return "only one response per enemy ship moved"
            if g.destroyed(a) or not g.fl[a] & G.F_LAUNCHED:
                return "%s is not on the table" % g.names[a]
            if g.fl2[a] & G.G_ION_NOW:
                return "%s is ionized this round" % g.names[a]
            k = b & 3
            if k == 1:
                if b & 4:
                    return "no countermove: %s moved only into the square directly behind" \
                        % g.names[c]
                if g.speed[a] == 255 or g.speed[c] == 255 or g.speed[a] < g.speed[c]:
                    return "a countermove needs the same or higher speed than %s" % g.names[c]
                return None
            if k == 2:
                if g.wbonus[3 * a + 2] == 255:
                    return "%s has no rapid weapons" % g.names[a]
                return None
            return "response kinds: 1 countermove, 2 rapid fire"
        if kind == G.EV_ION:
            ion = g.extras.get("ion_cannon")
            if not isinstance(ion, dict):
                return "this scenario has no Ion Cannon"
            r = g._ship(a)
            if r:
                return r
            if g.phase != self.capital_phase:
                return "the Ion Cannon fires as a capital weapon, in the capital weapons phase"
            if g.side[a] == ion.get("side", 1):
                return "the Ion Cannon fires at the enemy"
            if g.x[5] >= ion.get("bursts", 2):
                return "the Ion Cannon has fired its %d bursts this round" % ion.get("bursts", 2)
            if g.ab[a] & G.A_FIGHTER:
                return "capital weapons cannot target fighters"
            if not 1 <= b <= 20 or not 0 <= c <= 2:
                return "ion: a d20 roll and the facing (0 front, 1 side, 2 rear)"
            if g.defense(a, c) == 255 or g.destroyed(a):
                return "%s cannot be targeted" % g.names[a]
            return None
        if kind == G.EV_EXIT:
            r = g._ship(a)
            if r:
                return r
            if b not in (1, 2):
                return "exit kinds: 1 left by the table edge, 2 hit the target port"
            if g.destroyed(a) or not g.fl[a] & G.F_LAUNCHED:
                return "%s is not on the table" % g.names[a]
            return None
        return Profile.check_ext(self, g, kind, a, b, c)

    def apply_ext(self, g, kind, a, b, c):
        if kind == G.EV_AIM:
            g.aux[a] = self.aim_value(g, b, c)
        elif kind == G.EV_ATTACK:
            self.apply_attack(g, a, b, c)
            if g.rapid_at[a] == c + 1:
                g.rapid_at[a] = 0
        elif kind == G.EV_MOVE:
            self.apply_move(g, a, b)
        elif kind == G.EV_RESPONSE:
            g.fl2[c] |= self.G_RESPONDED
            if b & 3 == 2:
                g.rapid_at[a] = c + 1
        elif kind == G.EV_ION:
            ion = g.extras.get("ion_cannon")
            need = g.defense(a, c)
            total = b + ion.get("bonus", 16)
            hit = self.d20_hit(g, b, total, need)
            g.x[5] += 1
            g.x[0] = 1 if hit else 2
            g.x[1] = b
            g.x[2] = min(total, 255)
            if hit and g.ab[a] & G.A_CAPITAL:
                g.fl2[a] |= G.G_ION
        elif kind == G.EV_EXIT:
            if b == 1:
                g.x[7] = a + 1
                g.fl[a] &= ~G.F_LAUNCHED & 255
            else:
                g.x[6] = 1

    def end_round(self, g):
        Profile.end_round(self, g)
        for i in range(g.n):
            g.rapid_at[i] = 0

    def acting_side(self, g):
        if g.phase == 1 and g.init != G.NONE:
            return g.init if self._unmoved(g, g.init) else 1 - g.init
        return g.moves_first()

    def yet_to_act(self, g, i):
        return g.phase == 1 and g.fl[i] & G.F_LAUNCHED and not g.destroyed(i) and \
            not g.fl2[i] & G.G_MOVED

    def view(self, g):
        r = {}
        if g.x[0]:
            r["last_attack"] = {"hit": g.x[0] == 1, "roll": g.x[1], "total": g.x[2]}
        r["ionized"] = [i for i in range(g.n) if g.fl2[i] & (G.G_ION | G.G_ION_NOW)]
        r["ion_bursts"] = g.x[5]
        return r

    def check_phase(self, g):
        return None


class SWSBAddon(SWSB):
    """Starship Battles add-on rules (fan), seed 001 (``001_a2238b11b3f70e84.txt``), on top of
    the swsb profile:

    - range bands by inches, applied to the attack roll: 0-8 +0, 9-16 -1, 17-24 -2, 25-32 -3,
      33+ -4; a roll of 20 always hits ("Combat" table);
    - non-PD fire at fighters counts as the 9-16 band ("Fighters" paragraphs);
    - Cloak: fire moves one band further out and the ship cannot be targeted at Extreme
      range; fighters attacking it have no modifier ("Cloak");
    - the optional size modifier (attacker class minus target class, never for PD); when it is
      on, the fighter band rule is dropped (setting ``size_modifier``, "Size modifier");
    - alternating activation ("Alternating Activation"): the initiative winner chooses who
      moves first (EV_CHOOSE) and that player also fires first; ships move two at a time, all
      class 1-3 before class 4 (EV_MOVE); they fire one ship at a time, class 1-3 before class
      4, and the damage is applied as soon as that ship has fired (EV_DONE).

    Phases: initiative, move, attack (point defense fires within a ship's activation).
    EV_AIM's arg is the distance in inches; the weapon as in swsb.
    """

    name = "swsb-addon"
    title = "Starship Battles add-on rules (fan): open table, alternating activation"
    source = "seed 001"
    phases = ("initiative", "move", "attack")
    pending_phases = (2,)
    hit_phases = (2,)
    counter_phases = (1, 2)
    flush_phase = 2
    one_ship_at_a_time = 2
    pd_phase = -1
    SETTINGS = {"damage_per_hit": (1, 1, 9), "point_limit": (0, 0, 9999),
                "tie_hits": (1, 0, 1), "nat1_misses": (0, 0, 1), "size_modifier": (0, 0, 1)}
    example = "swsb-addon-example"
    aims = ((G.W_PRIMARY, 4), (G.W_PRIMARY, 12), (G.W_PRIMARY, 20), (G.W_PRIMARY, 28),
            (G.W_PRIMARY, 40), (G.W_PD, 0))
    pad = ("", "", "", "", "attack", "aim", "done", "choose")

    def aim_value(self, g, weapon, arg):
        return weapon | (range_band(arg) << 3)

    def attack_result(self, g, a, c, roll):
        w = g.aux[a] & 7
        band = (g.aux[a] >> 3) & 7
        bonus = g.point_defense(a) if w == G.W_PD else g.attack_bonus(a)
        need = g.defense(c, 0)
        if bonus == 255 or need == 255:
            return "the roster gives no attack or Defense for these ships: mark hits with dmg+"
        fighter_attacker = g.cls[a] == 4
        if g.cls[c] == 4 and w != G.W_PD and not g.settings["size_modifier"] and \
                not fighter_attacker:
            band = 1                                  # fire at fighters: the 9-16" band
        if g.ab[c] & G.A_CLOAK and not fighter_attacker:
            band += 1
            if band >= 4:
                return "%s has Cloak: it cannot be targeted at Extreme range" % g.names[c]
        if fighter_attacker and g.ab[c] & G.A_CLOAK:
            band = 0
        mod = -band
        if g.settings["size_modifier"] and w != G.W_PD:
            mod += g.cls[a] - g.cls[c]
        total = roll + bonus + mod
        if roll == 20:
            return True, total, need                  # "A roll of 20 always hits"
        return self.d20_hit(g, roll, total, need), total, need

    def _pending(self, g, side, tier, flag, use_fl2):
        for i in range(g.n):
            if g.side[i] != side or g.destroyed(i) or not g.fl[i] & G.F_LAUNCHED:
                continue
            if (g.cls[i] == 4) != (tier == 1):
                continue
            done = g.fl2[i] & flag if use_fl2 else g.fl[i] & flag
            if not done:
                return True
        return False

    def _tier(self, g, flag, use_fl2):
        if self._pending(g, 0, 0, flag, use_fl2) or self._pending(g, 1, 0, flag, use_fl2):
            return 0
        return 1

    def _advance(self, g, flag, use_fl2, per_turn):
        """After an activation: whose turn it is next (alternating, tier by tier)."""
        side = g.x[4]
        tier = self._tier(g, flag, use_fl2)
        other = 1 - side
        if g.x[5] >= per_turn or not self._pending(g, side, tier, flag, use_fl2):
            if self._pending(g, other, tier, flag, use_fl2):
                g.x[4] = other
                g.x[5] = 0
            elif not self._pending(g, side, tier, flag, use_fl2):
                g.x[4] = g.x[3] - 1     # next tier: the first player starts again
                g.x[5] = 0
            else:
                g.x[5] = 0              # the opponent ran out: finish with the rest

    def _check_turn(self, g, a, flag, use_fl2, what):
        if not g.x[3]:
            return "the initiative winner first chooses who moves first"
        if g.side[a] != g.x[4]:
            return "%s's activation: it is not %s's turn" % (g.side_names[g.x[4]],
                                                             g.side_names[g.side[a]])
        tier = self._tier(g, flag, use_fl2)
        if tier == 0 and g.cls[a] == 4:
            return "class 1-3 ships %s before class 4" % what
        return None

    def check_hit(self, g, target, points, attacker):
        r = SWSB.check_hit(self, g, target, points, attacker)
        if r or attacker == G.NONE or g.phase != 2:
            return r
        if g.active != G.NONE and g.active != attacker:
            return "%s is firing: finish its activation (done) first" % g.names[g.active]
        return self._check_turn(g, attacker, G.F_FIRED, False, "fire")

    def check_ext(self, g, kind, a, b, c):
        if kind == G.EV_CHOOSE:
            if g.phase != 1:
                return "who moves first is chosen at the start of the move phase"
            if g.x[3]:
                return "who moves first is already chosen"
            if a not in (0, 1):
                return "choose side 0 or 1"
            return None
        if kind == G.EV_MOVE:
            r = g._ship(a)
            if r:
                return r
            if g.phase != 1:
                return "ships move in the move phase"
            if g.fl2[a] & G.G_MOVED:
                return "%s has already moved" % g.names[a]
            if g.destroyed(a) or not g.fl[a] & G.F_LAUNCHED:
                return "%s is not on the map" % g.names[a]
            return self._check_turn(g, a, G.G_MOVED, True, "move")
        if kind == G.EV_DONE:
            r = g._ship(a)
            if r:
                return r
            if g.phase != 2:
                return "a ship finishes firing in the attack phase"
            if g.fl[a] & G.F_FIRED:
                return "%s has already fired" % g.names[a]
            if g.active != G.NONE and g.active != a:
                return "%s is firing now" % g.names[g.active]
            if g.destroyed(a) or not g.fl[a] & G.F_LAUNCHED:
                return "%s is not on the map" % g.names[a]
            return self._check_turn(g, a, G.F_FIRED, False, "fire")
        if kind == G.EV_ATTACK:
            r = SWSB.check_ext(self, g, kind, a, b, c)
            if r:
                return r
            return self.check_hit(g, c, 1, a)
        return SWSB.check_ext(self, g, kind, a, b, c)

    def apply_ext(self, g, kind, a, b, c):
        if kind == G.EV_CHOOSE:
            g.x[3] = a + 1
            g.x[4] = a
            g.x[5] = 0
        elif kind == G.EV_MOVE:
            g.fl2[a] |= G.G_MOVED
            g.x[5] += 1
            self._advance(g, G.G_MOVED, True, 2)
        elif kind == G.EV_DONE:
            g.flush()                  # damage is assessed as soon as the ship has fired
            g.fl[a] |= G.F_FIRED
            g.active = G.NONE
            g.x[5] = 1
            self._advance(g, G.F_FIRED, False, 1)
        else:
            SWSB.apply_ext(self, g, kind, a, b, c)

    def start_phase(self, g):
        if g.phase == 2 and g.x[3]:
            g.x[4] = g.x[3] - 1        # the player that moved first fires first
            g.x[5] = 0

    def acting_side(self, g):
        if g.phase in (1, 2) and g.x[3]:
            return g.x[4]
        return G.NONE

    def yet_to_act(self, g, i):
        if g.destroyed(i) or not g.fl[i] & G.F_LAUNCHED:
            return False
        if g.phase == 1:
            return not g.fl2[i] & G.G_MOVED
        if g.phase == 2:
            return not g.fl[i] & G.F_FIRED
        return False

    def view(self, g):
        r = SWSB.view(self, g)
        r["first_side"] = g.x[3] - 1 if g.x[3] else None
        r["acting_side"] = g.x[4] if g.x[3] else None
        r["yet_to_act"] = [i for i in range(g.n) if self.yet_to_act(g, i)]
        return r


def range_band(inches):
    """Range band index for a distance in inches (seed 001 range table): 0 Very Close 0-8,
    1 Close 9-16, 2 Medium 17-24, 3 Long 25-32, 4 Extreme 33+. The attack roll gets minus the
    index. Raises ValueError for a negative distance."""
    if inches < 0:
        raise ValueError("distance must be >= 0")
    if inches <= 8:
        return 0
    if inches <= 16:
        return 1
    if inches <= 24:
        return 2
    if inches <= 32:
        return 3
    return 4


def movement_figures(space, piloting, maneuverability):
    """Seed 002 "Movement Rates" and "Maneuvers", per craft (ints: the Space stat, and the
    starfighter piloting and Maneuverability die codes with pips dropped). Returns
    (attack_speed, full_throttle, turns, turn_distance, special) where special is "" or
    "two-hexside turn" (turn distance 0) or "bootlegger turn" (-1 or less)."""
    attack = space // 2 + piloting
    full = space + piloting
    td = 10 - (piloting + maneuverability)
    special = ""
    if td == 0:
        special = "two-hexside turn"
    elif td <= -1:
        special = "bootlegger turn"
    return attack, full, maneuverability, td, special


class SquadronsD6(Profile):
    """A fan squadron game on a hex map built on WEG D6 stats, seed 002
    (``002_0e4d093935edf526.txt``, the "Movement" page).

    Per craft (roster stats ``space``, ``piloting``, ``maneuverability``, ``squadron``,
    ``capital``, ``hero``): Attack Speed = Space/2 + piloting; Full Throttle = Space +
    piloting; turns = Maneuverability dice (pips dropped); turn distance = 10 - (piloting +
    maneuverability), 0 allows a two-hexside turn, -1 or less a 180-degree bootlegger turn.
    EV_MOVE(craft, mode, turns used): 1 Attack Speed, 2 Full Throttle, 3 stop dead. All ships
    of a squadron move at the same rate; if one flies at Full Throttle the squadron counts as
    Full Throttle and cannot fire in the combat phase. Only capital ships and heroes may stop
    dead, and only after moving at Attack Speed the round before. Unused turns are lost: each
    move may use at most the craft's turns, whatever the last move left.
    Phases: movement, combat (the page describes no initiative roll).
    """

    name = "squadrons-d6"
    title = "Squadrons on a hex map (fan, WEG D6 stats)"
    source = "seed 002"
    phases = ("movement", "combat")
    hit_phases = (1,)
    SETTINGS = {"damage_per_hit": (1, 1, 9)}
    example = "squadrons-d6-example"
    pad = ("attack-speed", "full-throttle", "stop", "turn+", "", "", "", "")

    def figures(self, g, i):
        sp, pi, ma = g.d6[3 * i], g.d6[3 * i + 1], g.d6[3 * i + 2]
        if 255 in (sp, pi, ma):
            return None
        return movement_figures(sp, pi, ma)

    def check_ext(self, g, kind, a, b, c):
        if kind != G.EV_MOVE:
            return Profile.check_ext(self, g, kind, a, b, c)
        r = g._ship(a)
        if r:
            return r
        nm = g.names[a]
        if g.phase != 0:
            return "craft move in the movement phase"
        if g.destroyed(a) or not g.fl[a] & G.F_LAUNCHED:
            return "%s is not on the map" % nm
        if g.fl2[a] & G.G_MOVED:
            return "%s has already moved this round" % nm
        f = self.figures(g, a)
        if f is None:
            return "the roster gives no space/piloting/maneuverability for %s" % nm
        if b not in (1, 2, 3):
            return "moves: 1 Attack Speed, 2 Full Throttle, 3 stop dead"
        if b == 3:
            if not g.ab[a] & (G.A_CAPITAL | G.A_HERO):
                return "only capital ships and heroes may come to a dead stop"
            if not g.fl2[a] & G.G_ATTACK_SPEED_LAST:
                return "%s may stop dead only after moving at Attack Speed the round before" % nm
        if c > f[2]:
            return "%s has %d turns a move (unused turns are lost)" % (nm, f[2])
        sq = g.squad[a]
        if sq:
            for j in range(g.n):
                if j != a and g.squad[j] == sq and g.fl2[j] & G.G_MOVED and g.aux[j] != b:
                    return "all ships in a squadron move at the same rate (%s moved at %s)" % (
                        g.names[j], ("", "Attack Speed", "Full Throttle", "a stop")[g.aux[j]])
        return None

    def apply_ext(self, g, kind, a, b, c):
        g.fl2[a] |= G.G_MOVED
        g.aux[a] = b
        if b == 2:
            sq = g.squad[a]
            for j in range(g.n):
                if j == a or (sq and g.squad[j] == sq):
                    g.fl2[j] |= G.G_FULL_THROTTLE

    def check_hit(self, g, target, points, attacker):
        r = Profile.check_hit(self, g, target, points, attacker)
        if r or attacker == G.NONE or points <= 0:
            return r
        if g.fl2[attacker] & G.G_FULL_THROTTLE:
            return "%s flew at Full Throttle (or its squadron did) and cannot fire" % \
                g.names[attacker]
        return None

    def end_round(self, g):
        attack = [g.fl2[i] & G.G_MOVED and g.aux[i] == 1 for i in range(g.n)]
        Profile.end_round(self, g)
        for i in range(g.n):
            g.fl2[i] &= ~G.G_ATTACK_SPEED_LAST & 255
            if attack[i]:
                g.fl2[i] |= G.G_ATTACK_SPEED_LAST
            g.aux[i] = 0

    def acting_side(self, g):
        return G.NONE

    def yet_to_act(self, g, i):
        return g.phase == 0 and not g.fl2[i] & G.G_MOVED and not g.destroyed(i)

    def view(self, g):
        out = {}
        for i in range(g.n):
            f = self.figures(g, i)
            if f:
                out[g.names[i]] = {"attack_speed": f[0], "full_throttle": f[1], "turns": f[2],
                                   "turn_distance": f[3], "special": f[4],
                                   "full_throttle_now": bool(g.fl2[i] & G.G_FULL_THROTTLE)}
        return {"movement": out}


XWING_FACES = ("hit", "hit", "hit", "crit", "focus", "focus", "blank", "blank")


def xwing_die(face):
    """The X-Wing attack die: eight faces, 3 hit, 1 crit, 2 focus, 2 blank (seed 003 uses it
    for overlap damage). ``face`` is 1..8; returns its result."""
    return XWING_FACES[face - 1]


def overlap_dice(mover_size, other_size):
    """Attack dice rolled for an overlap (seed 003): a huge ship over a small ship 1, over a
    large ship 2; a small or large ship over a huge ship 1; otherwise none. Sizes: 1 small,
    2 large, 3 huge."""
    if mover_size == 3 and other_size in (1, 2):
        return other_size
    if mover_size in (1, 2) and other_size == 3:
        return 1
    return 0


class XWingOverlap(Profile):
    """X-Wing Miniatures overlap rules, seed 003 (``003_91e3d335fa0ef71a.txt``).

    EV_OVERLAP(mover, hits | crits << 4, other) records that the mover's maneuver overlapped
    the other ship (roster stats ``size``: small, large, huge):

    - small or large over small or large: the mover skips its Perform Action step, and the two
      ships touch: touching ships cannot attack each other;
    - huge over huge: standard rules, but the mover does not skip its action; both ships are
      dealt one faceup damage card (one damage each);
    - huge over small or large: those ships are destroyed; the huge ship rolls 1 attack die
      per small ship and 2 per large ship and its fore section suffers the hits and crits;
    - small or large over huge: standard rules, and the mover rolls one attack die and suffers
      the result.

    The attack die has eight faces: 3 hit, 1 crit, 2 focus, 2 blank (:func:`xwing_die`).
    Phases: activation, combat, end.
    """

    name = "xwing-overlap"
    title = "X-Wing Miniatures: overlapping ships (FFG)"
    source = "seed 003"
    phases = ("activation", "combat", "end")
    hit_phases = (0, 1)
    SETTINGS = {"damage_per_hit": (1, 1, 9)}
    example = "xwing-overlap-example"
    pad = ("overlap", "", "", "", "overlap", "", "", "")

    def check_ext(self, g, kind, a, b, c):
        if kind != G.EV_OVERLAP:
            return Profile.check_ext(self, g, kind, a, b, c)
        r = g._ship(a) or g._ship(c)
        if r:
            return r
        if a == c:
            return "a ship does not overlap itself"
        if g.phase != 0:
            return "overlaps happen when a ship executes its maneuver (activation)"
        for i in (a, c):
            if g.destroyed(i) or not g.fl[i] & G.F_LAUNCHED:
                return "%s is not in play" % g.names[i]
            if not g.size[i]:
                return "the roster gives no size (small, large, huge) for %s" % g.names[i]
        hits, crits = b & 15, b >> 4
        if hits + crits > overlap_dice(g.size[a], g.size[c]):
            return "that overlap rolls %d attack dice" % overlap_dice(g.size[a], g.size[c])
        return None

    def apply_ext(self, g, kind, a, b, c):
        ms, os_ = g.size[a], g.size[c]
        hits, crits = b & 15, b >> 4
        if ms == 3 and os_ != 3:
            g.dmg[c] = g.hp1[c] + g.hp2[c]           # destroyed
            g.dmg[a] = min(g.dmg[a] + hits + crits, g.hp1[a] + g.hp2[a])   # fore section
            return
        g.aux[a] = c + 1                             # touching
        g.aux[c] = a + 1
        if ms == 3 and os_ == 3:
            for i in (a, c):                         # one faceup damage card each
                g.dmg[i] = min(g.dmg[i] + 1, g.hp1[i] + g.hp2[i])
            return
        g.fl2[a] |= G.G_SKIP_ACTION
        if os_ == 3:
            g.dmg[a] = min(g.dmg[a] + hits + crits, g.hp1[a] + g.hp2[a])

    def check_hit(self, g, target, points, attacker):
        r = Profile.check_hit(self, g, target, points, attacker)
        if r or attacker == G.NONE:
            return r
        if g.aux[target] == attacker + 1 or g.aux[attacker] == target + 1:
            return "%s and %s are touching: they cannot attack each other" % (
                g.names[attacker], g.names[target])
        return None

    def end_round(self, g):
        Profile.end_round(self, g)
        for i in range(g.n):
            g.aux[i] = 0

    def acting_side(self, g):
        return G.NONE

    def view(self, g):
        touching = []
        for i in range(g.n):
            j = g.aux[i] - 1
            if j > i and g.aux[j] == i + 1:
                touching.append([i, j])
        return {"touching": touching,
                "skips_action": [i for i in range(g.n) if g.fl2[i] & G.G_SKIP_ACTION]}


PROFILES = {"swsb": SWSB(), "smb": SMB(), "swsb-addon": SWSBAddon(),
            "squadrons-d6": SquadronsD6(), "xwing-overlap": XWingOverlap()}


def get(name):
    """Return the profile called ``name``. Raises ValueError listing the known names."""
    p = PROFILES.get(name)
    if p is None:
        raise ValueError("unknown ruleset %r (known: %s)" % (name, ", ".join(sorted(PROFILES))))
    return p
