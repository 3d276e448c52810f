"""Profile xwing-overlap (seed 003); see docs/rules.md."""

from referee import game as G
from referee.profiles import (Profile, Option, TIE_REROLL, TIE_KEEP, MOVE_LOSER_FIRST,
                              MOVE_HOLDER_FIRST, EFFECT_NONE, EFFECT_AVOID)

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
            if not g.in_play(i):
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
