"""Ruleset squadrons-d6: a fan squadron game on a hex map built on WEG D6 stats (seed 002,
``002_0e4d093935edf526.txt``, the "Movement" page). See docs/rules.md, table squadrons-d6.

Per craft (roster stats ``space``, ``piloting``, ``maneuverability``, ``squadron``,
``capital``, ``hero``): Attack Speed = Space/2 + piloting; Full Throttle = Space + piloting;
# of Turns = Maneuverability dice (pips dropped); Turn Distance = 10 - (piloting +
maneuverability): hexes crossed in a straight line before each turn; 0 allows a two-hexside
turn, -1 or less a bootlegger turn.

EV_MOVE (11): craft, mode | (hexes + 1) << 2 (mode 1 Attack Speed, 2 Full Throttle, 3 stop
dead; hexes + 1 = 0 when the distance was not entered), turns used. Players alternate units
(a squadron, a hero or a capital ship); all ships of a squadron move at the same rate and one
at Full Throttle makes the squadron Full Throttle, which cannot fire; only capital ships and
heroes may stay still, and only after moving at Attack Speed the round before. The page gives
no initiative roll and does not say who moves first: either player may start.
"""

from referee.events import NONE
from referee.rules.base import EV_MOVE, Ruleset, byte

S_SPACE = 0
S_PILOTING = 1
S_MANEUVER = 2
S_SQUAD = 3  # squadron number + 1 (0 = none)
S_KIND = 4  # K_* bits
K_CAPITAL = 1
K_HERO = 2

MOVED = 1
FULL_THROTTLE = 2
ATTACK_SPEED_LAST = 4

X_NEXT = 0  # side to move the next unit + 1 (0 = either)
X_SQUAD = 1  # squadron moving now + 1 side * 128 (0 = none)

RATES = ("", "Attack Speed", "Full Throttle", "a dead stop")


def dice_code(v):
    """WEG D6 dice code to whole dice, pips dropped: "4D+1" -> 4, "3D" -> 3, 4 -> 4
    (seed 002 "# of Turns": "rounding down the pips"). Anything else -> 255."""
    if isinstance(v, int) and not isinstance(v, bool):
        return v
    if isinstance(v, str):
        t = v.upper().split("D")[0].strip()
        if t.isdigit():
            return int(t)
    return 255


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


def move_b(mode, hexes=None):
    """EV_MOVE's b for ``mode`` and ``hexes`` moved (None: not entered)."""
    return mode | ((0 if hexes is None else hexes + 1) << 2)


class Rules(Ruleset):
    name = "squadrons-d6"
    title = "Squadrons on a hex map (fan, WEG D6 stats)"
    source = "seed 002"
    phases = ("movement", "combat")
    hit_phases = (1,)
    SETTINGS = {"damage_per_hit": (1, 1, 9)}
    EVENTS = {EV_MOVE: "move"}
    STATS = ("space", "piloting", "maneuverability", "squadron", "kind")
    STAT_KEYS = ("space", "piloting", "maneuverability", "squadron", "capital", "hero")
    FLAGS = ("moved", "full_throttle", "attack_speed_last_round")
    ROUND_FLAGS = MOVED | FULL_THROTTLE
    SHIP_BYTES = 1  # the rate moved this round
    GAME_BYTES = 2
    COMMANDS = ("move",)
    example = "squadrons-d6-example"
    pad = ("attack-speed", "full-throttle", "stop", "turn+", "hex+", "", "", "")
    power = ("Attack Speed", "attack-speed")

    def parse_stats(self, st, ctx):
        sq = st.get("squadron")
        n = 0
        if sq is not None:
            key = (ctx["side"], sq)
            sqs = ctx.setdefault("squadrons", [])
            if key not in sqs:
                sqs.append(key)
            n = min(sqs.index(key) + 1, 254)
        k = 0
        if st.get("capital"):
            k |= K_CAPITAL
        if st.get("hero"):
            k |= K_HERO
        return [
            byte(st.get("space", 255)),
            byte(dice_code(st.get("piloting", 255))),
            byte(dice_code(st.get("maneuverability", 255))),
            n,
            k,
        ]

    def figures(self, g, i):
        sp, pi, ma = g.stat(i, S_SPACE), g.stat(i, S_PILOTING), g.stat(i, S_MANEUVER)
        if 255 in (sp, pi, ma):
            return None
        return movement_figures(sp, pi, ma)

    def may_stop(self, g, i):
        """Seed 002 "Movement": "only Capital Ships and Heroes may choose to come to a dead
        stop - and only then if they moved at Attack Speed in the prior round"."""
        if not g.stat(i, S_KIND) & (K_CAPITAL | K_HERO):
            return "only capital ships and heroes may come to a dead stop"
        if not g.rule_flags[i] & ATTACK_SPEED_LAST:
            return (
                "%s may stop dead only after moving at Attack Speed the round before" % g.names[i]
            )
        return None

    def _unit_left(self, g, s):
        """A craft of side s in play that has not moved, or NONE."""
        for i in range(g.n):
            if g.side[i] == s and g.in_play(i) and not g.rule_flags[i] & MOVED:
                return i
        return NONE

    def check_ext(self, g, kind, a, b, c):
        """A move (EV_MOVE) of craft ``a``: None or the reason it is refused, checked in turn
        for the craft, its rate and hexes, its turns, its squadron and the players' turns."""
        if kind != EV_MOVE:
            return Ruleset.check_ext(self, g, kind, a, b, c)
        r = self._check_mover(g, a)
        if r:
            return r
        f = self.figures(g, a)
        if f is None:
            return "the roster gives no space/piloting/maneuverability for %s" % g.names[a]
        mode = b & 3
        hexes = (b >> 2) - 1  # -1: not entered
        if mode not in (1, 2, 3):
            return "moves: 1 Attack Speed, 2 Full Throttle, 3 stop dead"
        stop = mode == 3 or hexes == 0  # no hexes crossed: a dead stop at any rate
        return (
            self._check_distance(g, a, f, mode, hexes, stop)
            or self._check_turns(g, a, f, mode, hexes, c)
            or self._check_squadron(g, a, mode, stop)
            or self._check_alternation(g, a)
        )

    def _check_mover(self, g, a):
        """Craft ``a`` may move now: a ship on the map that has not moved this round."""
        r = g.ship(a)
        if r:
            return r
        nm = g.names[a]
        if g.phase != 0:
            return "craft move in the movement phase"
        if not g.in_play(a):
            return "%s is not on the map" % nm
        if g.rule_flags[a] & MOVED:
            return "%s has already moved this round" % nm
        return None

    def _check_distance(self, g, a, f, mode, hexes, stop):
        """A dead stop is allowed (``may_stop``) and crosses no hexes; a move at a rate
        crosses at most that rate's hexes (``f``: :meth:`figures`)."""
        if stop:
            r = self.may_stop(g, a)
            if r:
                return r
            if mode == 3 and hexes > 0:
                return "a dead stop crosses no hexes"
        rate = f[0] if mode == 1 else f[1]
        if mode in (1, 2) and hexes > rate:
            return "%s moves at most %d hexes at %s" % (g.names[a], rate, RATES[mode])
        return None

    def _check_turns(self, g, a, f, mode, hexes, c):
        """``c`` turns: at most the craft's # of Turns, each after its Turn Distance of hexes
        (seed 002 "Maneuvers")."""
        nm = g.names[a]
        turns = f[2]
        td = f[3]
        if c > turns:
            return "%s has %s a move (unused turns are lost)" % (
                nm,
                "no turns" if turns == 0 else "1 turn" if turns == 1 else "%d turns" % turns,
            )
        if c and td > 0:
            # hexes not entered: the most the craft could have moved at that rate
            rate = f[0] if mode == 1 else f[1]
            most = hexes if hexes >= 0 else (0 if mode == 3 else rate)
            if c * td > most:
                return "%s must cross %d hexes before each turn: %d turn%s %d hexes (%s %d)" % (
                    nm,
                    td,
                    c,
                    " needs" if c == 1 else "s need",
                    c * td,
                    "moved" if hexes >= 0 else "%s is at most" % RATES[mode],
                    most,
                )
        return None

    def _check_squadron(self, g, a, mode, stop):
        """Seed 002: "all ships in a Squadron must move at the same rate"; a squadron moving
        now (a unit) finishes before another unit moves."""
        sq = g.stat(a, S_SQUAD)
        # a craft that stopped dead moved at no rate, so a hero's stop neither sets its
        # squadron's rate nor breaks it
        for j in range(g.n):
            if (
                sq
                and not stop
                and j != a
                and g.stat(j, S_SQUAD) == sq
                and g.rule_flags[j] & MOVED
                and g.ship_state[j] not in (mode, 3)
            ):
                return "all ships in a squadron move at the same rate (%s moved at %s)" % (
                    g.names[j],
                    RATES[g.ship_state[j]],
                )
        # players alternate units: a squadron moves as one unit
        cur = g.game_state[X_SQUAD]
        if cur and sq != cur:
            for j in range(g.n):
                if g.stat(j, S_SQUAD) == cur and g.in_play(j) and not g.rule_flags[j] & MOVED:
                    return "finish moving the squadron first: %s has not moved" % g.names[j]
        return None

    def _check_alternation(self, g, a):
        """Players alternate units: with no squadron moving, the side whose turn it is
        (``X_NEXT``) moves next while it has a craft left to move."""
        nxt = g.game_state[X_NEXT]
        if not g.game_state[X_SQUAD] and nxt and g.side[a] != nxt - 1:
            left = self._unit_left(g, nxt - 1)
            if left != NONE:
                from referee.texts import says  # (a refusal: the texts load only now)

                return "players alternate units: %s next (%s has not moved)" % (
                    says(g.side_names[nxt - 1], "moves"),
                    g.names[left],
                )
        return None

    def apply_ext(self, g, kind, a, b, c):
        mode = b & 3
        if (b >> 2) == 1:
            mode = 3  # no hexes crossed: a dead stop, whatever rate was named
        g.rule_flags[a] |= MOVED
        g.ship_state[a] = mode
        sq = g.stat(a, S_SQUAD)
        if mode == 2:
            for j in range(g.n):
                if j == a or (sq and g.stat(j, S_SQUAD) == sq):
                    g.rule_flags[j] |= FULL_THROTTLE
        done = True
        if sq:
            for j in range(g.n):
                if g.stat(j, S_SQUAD) == sq and g.in_play(j) and not g.rule_flags[j] & MOVED:
                    done = False
        if done:
            g.game_state[X_SQUAD] = 0
            g.game_state[X_NEXT] = 2 - g.side[a]  # the other side moves the next unit
        else:
            g.game_state[X_SQUAD] = sq

    def check_phase(self, g):
        if g.phase != 0:
            return None
        for i in range(g.n):
            if g.in_play(i) and not g.rule_flags[i] & MOVED and self.figures(g, i) is not None:
                r = self.may_stop(g, i)
                if r:
                    return "%s has not moved: %s" % (g.names[i], r)
        return None

    def check_hit(self, g, target, points, attacker):
        if attacker != NONE and points > 0 and g.rule_flags[attacker] & FULL_THROTTLE:
            return (
                "%s flew at Full Throttle (or its squadron did) and cannot fire"
                % g.names[attacker]
            )
        return None

    def end_round(self, g):
        for i in range(g.n):
            f = g.rule_flags[i] & ~(MOVED | FULL_THROTTLE | ATTACK_SPEED_LAST) & 255
            if g.rule_flags[i] & MOVED and g.ship_state[i] == 1:
                f |= ATTACK_SPEED_LAST
            g.rule_flags[i] = f
            g.ship_state[i] = 0
        g.game_state[X_NEXT] = 0
        g.game_state[X_SQUAD] = 0

    def acting_side(self, g):
        if g.phase == 0 and g.game_state[X_NEXT]:
            return g.game_state[X_NEXT] - 1
        return NONE

    TO_ACT_PHASES = (0,)  # ships move one by one in the movement phase
    TO_ACT_DONE = ("rule_flags", MOVED)

    def view(self, g):
        out = {}
        for i in range(g.n):
            f = self.figures(g, i)
            if f:
                out[g.names[i]] = {
                    "attack_speed": f[0],
                    "full_throttle": f[1],
                    "turns": f[2],
                    "turn_distance": f[3],
                    "special": f[4],
                    "full_throttle_now": bool(g.rule_flags[i] & FULL_THROTTLE),
                }
        return {
            "movement": out,
            "next_side": g.game_state[X_NEXT] - 1 if g.game_state[X_NEXT] else None,
        }

    def event_text(self, g, ev, live=True):
        _k, a, b, c = ev
        h = (b >> 2) - 1
        return "%s moves at %s%s, making %s." % (
            g.names[a],
            RATES[b & 3] if b & 3 else "?",
            "" if h < 0 else " (%d hex%s)" % (h, "" if h == 1 else "es"),
            "no turns" if c == 0 else "1 turn" if c == 1 else "%d turns" % c,
        )

    def command(self, link, c, msg):
        ia = link.int_arg
        h = msg.get("hexes")
        h = None if h is None else ia(msg, "hexes", 0, 0, 62)
        return (
            EV_MOVE,
            link.ship_arg(msg),
            move_b(ia(msg, "mode", 1, 1, 3), h),
            ia(msg, "turns", 0, 0, 9),
        )

    def pad_event(self, pad, what, i, m):
        if what == "turn+":
            pad.count = (pad.count + 1) % 10
            return None
        if what == "hex+":
            pad.count2 = (pad.count2 + 1) % 63
            return None
        if what in ("attack-speed", "full-throttle", "stop"):
            mode = ("attack-speed", "full-throttle", "stop").index(what) + 1
            turns = pad.count
            hexes = pad.count2
            pad.count = 0  # counted afresh for every move (unused turns are lost)
            pad.count2 = 0
            return (EV_MOVE, i, move_b(mode, hexes if hexes or mode == 3 else None), turns)
        return Ruleset.pad_event(self, pad, what, i, m)
