"""Profile squadrons-d6 (seed 002); see docs/rules.md."""

from referee import game as G
from referee.profiles import (Profile, Option, TIE_REROLL, TIE_KEEP, MOVE_LOSER_FIRST,
                              MOVE_HOLDER_FIRST, EFFECT_NONE, EFFECT_AVOID)

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
        if not g.in_play(a):
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
