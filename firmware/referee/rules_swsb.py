"""Profiles swsb (seed 000) and swsb-addon (seed 001); see docs/rules.md."""

from referee import game as G
from referee.profiles import (Profile, Option, TIE_REROLL, TIE_KEEP, MOVE_LOSER_FIRST,
                              MOVE_HOLDER_FIRST, EFFECT_NONE, EFFECT_AVOID)

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
        if kind != G.EV_TRANSFER:
            Profile.apply_ext(self, g, kind, a, b, c)
        else:
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
            if g.side[i] != side or not g.in_play(i):
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
        if kind in (G.EV_MOVE, G.EV_DONE):
            # an activation: moving (move phase) or finishing firing (attack phase)
            moving = kind == G.EV_MOVE
            r = g._ship(a)
            if r:
                return r
            if g.phase != (1 if moving else 2):
                return "ships move in the move phase" if moving else \
                    "a ship finishes firing in the attack phase"
            if (g.fl2[a] & G.G_MOVED) if moving else (g.fl[a] & G.F_FIRED):
                return "%s has already %s" % (g.names[a], "moved" if moving else "fired")
            if not moving and g.active != G.NONE and g.active != a:
                return "%s is firing now" % g.names[g.active]
            if not g.in_play(a):
                return "%s is not on the map" % g.names[a]
            if moving:
                return self._check_turn(g, a, G.G_MOVED, True, "move")
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
        if not g.in_play(i):
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
