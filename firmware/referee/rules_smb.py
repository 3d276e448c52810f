"""Profile smb: the Starwars Miniatures Battlegame (seed 004); see docs/rules.md."""

from referee import game as G
from referee.profiles import (Profile, Option, TIE_REROLL, TIE_KEEP, MOVE_LOSER_FIRST,
                              MOVE_HOLDER_FIRST, EFFECT_NONE, EFFECT_AVOID)

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
        if not g.in_play(a):
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
            if not g.in_play(a):
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
            if not g.in_play(a):
                return "%s is not on the table" % g.names[a]
            return None
        return Profile.check_ext(self, g, kind, a, b, c)

    def apply_ext(self, g, kind, a, b, c):
        if kind == G.EV_AIM:
            Profile.apply_ext(self, g, kind, a, b, c)
        elif kind == G.EV_ATTACK:
            Profile.apply_ext(self, g, kind, a, b, c)
            if g.rapid_at[a] == c + 1:
                g.rapid_at[a] = 0      # the rapid-fire response is used
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
