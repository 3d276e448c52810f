"""Ruleset xwing-overlap: X-Wing Miniatures overlap rules (FFG), seed 003
(``003_91e3d335fa0ef71a.txt``). See docs/rules.md, table xwing-overlap.

EV_OVERLAP (13): mover, hits | crits << 4 (the attack dice rolled), the ship overlapped
(roster stats ``size``: small, large, huge):

- small or large over small or large: the mover skips its Perform Action step and is placed
  touching the ship: touching ships cannot attack each other (a ship may touch several);
- huge over huge: standard rules, but the mover does not skip its action; both ships are
  dealt one faceup damage card (one damage each);
- huge over small or large: those ships are destroyed; the huge ship rolls 1 attack die per
  small ship and 2 per large ship and its fore section suffers the hits and crits;
- small or large over huge: standard rules, and the mover rolls one attack die and suffers it.

The attack die has eight faces: 3 hit, 1 crit, 2 focus, 2 blank (:func:`xwing_die`).
"""

from referee.events import NONE
from referee.rules.base import Ruleset

EV_OVERLAP = 13

XWING_FACES = ("hit", "hit", "hit", "crit", "focus", "focus", "blank", "blank")
SIZES = ("", "small", "large", "huge")
TOUCH = 3  # touching partners kept per ship (ship + 1 each; 0 = free slot)

SKIP_ACTION = 1  # fl2: skips its Perform Action step this round


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


def faces_to_b(faces):
    """EV_OVERLAP's b from the attack die faces rolled (list of 1..8)."""
    hits = crits = 0
    for f in faces:
        if f <= 3:
            hits += 1
        elif f == 4:
            crits += 1
    return hits | (crits << 4)


class Rules(Ruleset):
    name = "xwing-overlap"
    title = "X-Wing Miniatures: overlapping ships (FFG)"
    source = "seed 003"
    phases = ("activation", "combat", "end")
    hit_phases = (0, 1)
    SETTINGS = {"damage_per_hit": (1, 1, 9)}
    EVENTS = {EV_OVERLAP: "overlap"}
    STATS = ("size",)
    STAT_KEYS = ("size",)
    FLAGS = ("skips_action",)
    ROUND_FLAGS = SKIP_ACTION
    SHIP_BYTES = TOUCH
    COMMANDS = ("overlap",)
    example = "xwing-overlap-example"
    pad = ("overlap", "", "", "", "overlap", "", "", "")
    PAD_MARKED = ("overlap",)

    def parse_stats(self, st, ctx):
        s = st.get("size")
        return [SIZES.index(s) if s in SIZES[1:] else 0]

    def size(self, g, i):
        return g.stat(i, 0)

    def touching(self, g, i, j):
        o = i * TOUCH
        for k in range(TOUCH):
            if g.ship_state[o + k] == j + 1:
                return True
        return False

    def _touch(self, g, i, j):
        o = i * TOUCH
        for k in range(TOUCH):
            if g.ship_state[o + k] == j + 1:
                return
        for k in range(TOUCH):
            if not g.ship_state[o + k]:
                g.ship_state[o + k] = j + 1
                return

    def _free(self, g, i):
        o = i * TOUCH
        for k in range(TOUCH):
            if not g.ship_state[o + k]:
                return True
        return False

    def check_ext(self, g, kind, a, b, c):
        if kind != EV_OVERLAP:
            return Ruleset.check_ext(self, g, kind, a, b, c)
        r = g.ship(a) or g.ship(c)
        if r:
            return r
        if a == c:
            return "a ship does not overlap itself"
        if g.phase != 0:
            return "overlaps happen when a ship executes its maneuver (activation)"
        for i in (a, c):
            if not g.in_play(i):
                return "%s is not in play" % g.names[i]
            if not self.size(g, i):
                return "the roster gives no size (small, large, huge) for %s" % g.names[i]
        hits, crits = b & 15, b >> 4
        n = overlap_dice(self.size(g, a), self.size(g, c))
        if hits + crits > n:
            return "that overlap rolls %d attack dice" % n
        if not (self.size(g, a) == 3 and self.size(g, c) != 3) and not self.touching(g, a, c):
            if not self._free(g, a) or not self._free(g, c):
                return "fleetref keeps at most %d touching ships per ship" % TOUCH
        return None

    def apply_ext(self, g, kind, a, b, c):
        ms, os_ = self.size(g, a), self.size(g, c)
        hits, crits = b & 15, b >> 4
        if ms == 3 and os_ != 3:
            g.dmg[c] = g.hp1[c] + g.hp2[c]  # destroyed
            g.add_damage(a, hits + crits)  # the fore section suffers the dice
            return
        self._touch(g, a, c)
        self._touch(g, c, a)
        if ms == 3 and os_ == 3:
            for i in (a, c):  # one faceup damage card each
                g.add_damage(i, 1)
            return
        g.rule_flags[a] |= SKIP_ACTION
        if os_ == 3:
            g.add_damage(a, hits + crits)

    def check_hit(self, g, target, points, attacker):
        if attacker != NONE and self.touching(g, target, attacker):
            return "%s and %s are touching: they cannot attack each other" % (
                g.names[attacker],
                g.names[target],
            )
        return None

    def end_round(self, g):
        Ruleset.end_round(self, g)
        for i in range(len(g.ship_state)):
            g.ship_state[i] = 0

    def acting_side(self, g):
        return NONE

    def view(self, g):
        touching = []
        for i in range(g.n):
            for j in range(i + 1, g.n):
                if self.touching(g, i, j):
                    touching.append([i, j])
        return {
            "touching": touching,
            "skips_action": [i for i in range(g.n) if g.rule_flags[i] & SKIP_ACTION],
        }

    def event_text(self, g, ev, live=True):
        _k, a, b, c = ev
        hits, crits = b & 15, b >> 4
        if not hits and not crits:
            res = "no hits"
        else:
            res = " and ".join(
                x
                for x in (
                    "%d hit%s" % (hits, "" if hits == 1 else "s") if hits else "",
                    "%d critical hit%s" % (crits, "" if crits == 1 else "s") if crits else "",
                )
                if x
            )
        return "%s overlaps %s: %s." % (g.names[a], g.names[c], res)

    def command(self, link, c, msg):
        """``overlap``: ``ship``, ``other``, ``dice`` (the faces rolled, as many as the overlap
        rolls; without it the board rolls them)."""
        a = link.ship_arg(msg)
        o = link.ship_arg(msg, "other")
        g = link.referee.game
        n = overlap_dice(self.size(g, a), self.size(g, o))
        v = msg.get("dice")
        if v is None:
            v = [link.referee.dice.roll(8) for _ in range(n)]
        elif isinstance(v, list):
            from referee.dice import fair_of

            f = fair_of(link)
            for x in v:  # marked physical in the roll record (docs/dice.md)
                if f is not None and isinstance(x, int) and 1 <= x <= 8:
                    f.physical(8, x)
        if not isinstance(v, list) or len(v) != n:
            raise ValueError("that overlap rolls %d attack dice: give %d faces" % (n, n))
        for f in v:
            if not isinstance(f, int) or isinstance(f, bool) or not 1 <= f <= 8:
                raise ValueError("an attack die face is 1..8")
        return (EV_OVERLAP, a, faces_to_b(v), o)

    def roll_matches(self, g, ev, faces, draws):
        """EV_OVERLAP keeps hits and crits only: the board's attack dice must give them."""
        if ev[0] == EV_OVERLAP:
            return (
                faces == 8
                and faces_to_b(draws) == ev[2]
                and len(draws) == overlap_dice(self.size(g, ev[1]), self.size(g, ev[3]))
            )
        return Ruleset.roll_matches(self, g, ev, faces, draws)

    def roller(self, g, ev):
        if ev[0] == EV_OVERLAP:  # the moving ship's player rolls (seed 003)
            return g.side[ev[1]]
        return Ruleset.roller(self, g, ev)

    def pad_event(self, pad, what, i, m):
        if what == "overlap":
            g = pad.referee.game
            n = overlap_dice(self.size(g, m), self.size(g, i))
            return (EV_OVERLAP, m, faces_to_b([pad.referee.dice.roll(8) for _ in range(n)]), i)
        return Ruleset.pad_event(self, pad, what, i, m)
