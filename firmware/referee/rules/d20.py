"""The shared d20 attack helper (swsb, swsb-addon, smb): aim a weapon, then roll a d20 plus
the attack bonus against the target's Defense (digest 2.2, W6; seed 004 "Capital Weapons":
"roll 1d20 and add the attack value, compare this with the defence value").

Events: EV_AIM (8) ship, weapon, arg (the ruleset's: inches or a facing); EV_ATTACK (9)
attacker, d20 roll, target. A hit marks ``damage_per_hit`` as EV_HIT would, through the same
checks. State: per ship the aim (``Game.ship_state`` byte 0 of the ship's bytes: weapon | arg << 3);
per game the last attack (``Game.game_state`` bytes 0-2: 1 hit / 2 miss, roll, total).
"""

from referee.events import EV_HIT
from referee.fleet import DAMAGED
from referee.rules.base import Ruleset, byte

EV_AIM = 8
EV_ATTACK = 9

# stat bytes every d20 ruleset starts its STATS with
D20_STATS = (
    "def_front",
    "def_side",
    "def_rear",
    "def_front_damaged",
    "def_side_damaged",
    "def_rear_damaged",
    "attack",
    "attack_damaged",
    "pd",
    "pd_damaged",
)
S_DEF = 0
S_DEF_D = 3
S_ATK = 6
S_ATK_D = 7
S_PD = 8
S_PD_D = 9
D20_KEYS = ("defense", "attack", "pd", "damaged")


def d20_stats(st):
    """The D20_STATS bytes from roster ``stats``: ``defense`` (int, or [front, side, rear]),
    ``attack``, ``pd`` and a ``damaged`` block of the same keys (the card's damaged side,
    digest 2.1-2.2; missing keys keep the undamaged value)."""
    d = st.get("defense", 255)
    if not isinstance(d, list):
        d = [d, d, d]
    ds = st.get("damaged") or {}
    dd = ds.get("defense", d)
    if not isinstance(dd, list):
        dd = [dd, dd, dd]
    out = []
    for k in range(3):
        out.append(byte(d[k] if k < len(d) else 255))
    for k in range(3):
        out.append(byte(dd[k] if k < len(dd) else 255))
    out.append(byte(st.get("attack", 255)))
    out.append(byte(ds.get("attack", st.get("attack", 255))))
    out.append(byte(st.get("pd", 255)))
    out.append(byte(ds.get("pd", st.get("pd", 255))))
    return out


class D20Rules(Ruleset):
    """Base of the rulesets that use the attack helper. Subclasses set ``weapons``,
    ``aims`` (the pad's aim cycle of (weapon, arg)) and :meth:`attack_result`; their own
    ship bytes start at sx offset 1, their game bytes at x offset 3."""

    EVENTS = {EV_AIM: "aim", EV_ATTACK: "attack"}
    STATS = D20_STATS
    STAT_KEYS = D20_KEYS
    SHIP_BYTES = 1
    GAME_BYTES = 3
    COMMANDS = ("aim", "attack")
    weapons = (0,)
    aims = ((0, 0),)

    def parse_stats(self, st, ctx):
        return d20_stats(st)

    def check_roster(self, norm):
        """As Ruleset.check_roster; and with a ``point_limit`` setting above 0 (digest 5: the
        advanced Fleet Building rule, its limit unknown: configurable) each side's ships may
        cost at most that many points in all (``stats.cost``, the card's points: digest 2.1).
        Under a limit a ship without a cost is refused: it could not be counted. Raises
        ValueError naming the side (its total and the limit) or the ship."""
        Ruleset.check_roster(self, norm)
        limit = self.settings(norm["settings"]).get("point_limit", 0)
        for si in range(2 if limit else 0):
            side = norm["sides"][si]
            total = 0
            for ship in side["ships"]:
                if "cost" not in ship["stats"]:
                    raise ValueError(
                        'sides[%d] ship "%s": no stats.cost, needed under the point limit of %d'
                        % (si, ship["name"], limit)
                    )
                total += ship["stats"]["cost"]
            if total > limit:
                raise ValueError(
                    'sides[%d] "%s": %d points, over the point limit of %d'
                    % (si, side["name"], total, limit)
                )

    def state_limits(self, g):
        """The last attack: 0 none, 1 hit, 2 miss; its d20; its total (any)."""
        return (255,) * self.SHIP_BYTES, (2, 20, 255) + (255,) * (self.GAME_BYTES - 3)

    # ---- stats -------------------------------------------------------------------------
    def defense(self, g, i, facing=0):
        """Defense of ship i against an attack on ``facing`` (0 front, 1 side, 2 rear), from
        its damaged side once the card is flipped (digest 2.2); 255 when not given."""
        k = S_DEF_D if g.status(i) == DAMAGED else S_DEF
        return g.stat(i, k + facing)

    def attack_bonus(self, g, i):
        return g.stat(i, S_ATK_D if g.status(i) == DAMAGED else S_ATK)

    def point_defense(self, g, i):
        """PD bonus now (damaged side when flipped); 0 = none, 255 = not given."""
        return g.stat(i, S_PD_D if g.status(i) == DAMAGED else S_PD)

    def aim(self, g, i):
        return g.ship_state[i * self.SHIP_BYTES]

    def weapon(self, g, i):
        return g.ship_state[i * self.SHIP_BYTES] & 7

    # ---- aiming ------------------------------------------------------------------------
    def check_aim(self, g, a, weapon, arg):
        if weapon not in self.weapons:
            return "%s has no weapon %d" % (self.name, weapon)
        return None

    def aim_value(self, g, weapon, arg):
        return weapon | (min(arg, 31) << 3)

    def next_aim(self, g, i, cur=None):
        """The (weapon, arg) after ``cur`` (an aim value; default ship i's current aim) in
        ``aims`` that ship i may take."""
        if cur is None:
            cur = self.aim(g, i)
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

    # ---- the attack ----------------------------------------------------------------------
    def attack_result(self, g, a, c, roll):
        """(hit, total, need) of an attack by a on c with the d20 ``roll``, or a reason."""
        return "%s has no attack helper" % self.name

    def d20_hit(self, g, roll, total, need):
        s = g.settings
        if roll == 20 and s.get("nat20_hits", 0):
            return True
        if roll == 1 and s.get("nat1_misses", 0):
            return False
        if total == need:
            return bool(s.get("tie_hits", 1))
        return total > need

    def check_attack(self, g, a, roll, c):
        if not 1 <= roll <= 20:
            return "a d20 shows 1..20"
        r = g.ship(a) or g.ship(c)
        if r:
            return r
        if g.side[a] == g.side[c]:  # the hit's own reason first, not the weapon's
            return g.check((EV_HIT, c, g.settings["damage_per_hit"], a))
        res = self.attack_result(g, a, c, roll)
        if isinstance(res, str):
            return res
        return g.check((EV_HIT, c, g.settings["damage_per_hit"], a))

    def apply_attack(self, g, a, roll, c):
        hit, total, _need = self.attack_result(g, a, c, roll)
        g.game_state[0] = 1 if hit else 2
        g.game_state[1] = roll
        g.game_state[2] = max(0, min(total, 255))
        g.mark(c, g.settings["damage_per_hit"] if hit else 0, a)

    def check_ext(self, g, kind, a, b, c):
        if kind == EV_AIM:
            r = g.ship(a)
            if r:
                return r
            if g.destroyed(a):
                return "%s is destroyed" % g.names[a]
            return self.check_aim(g, a, b, c)
        if kind == EV_ATTACK:
            return self.check_attack(g, a, b, c)
        return Ruleset.check_ext(self, g, kind, a, b, c)

    def apply_ext(self, g, kind, a, b, c):
        if kind == EV_AIM:
            g.ship_state[a * self.SHIP_BYTES] = self.aim_value(g, b, c)
        elif kind == EV_ATTACK:
            self.apply_attack(g, a, b, c)

    # ---- texts, views, commands, pad -----------------------------------------------------
    def event_text(self, g, ev, live=True):
        k, a, b, c = ev
        nm = g.names
        if k == EV_ATTACK:
            t = "%s attacks %s: d20 %d" % (nm[a], nm[c], b)
            if live and g.game_state[0] and g.game_state[1] == b:
                # a hit in a pending phase waits (swsb damage phase, digest 1.2; smb end of
                # the capital weapons phase, seed 004; swsb-addon until the ship has fired,
                # seed 001), as the plain hit's text says
                t += ", total %d: %s" % (
                    g.game_state[2],
                    "hit, %d damage marked%s on %s"
                    % (
                        g.settings["damage_per_hit"],
                        " pending" if g.phase in self.pending_phases else "",
                        nm[c],
                    )
                    if g.game_state[0] == 1
                    else "miss",
                )
            return t + ("." if live else "")
        if k == EV_AIM:
            return "%s aims its %s" % (nm[a], self.aim_text(g, b, c)) + ("." if live else "")
        return Ruleset.event_text(self, g, ev, live)

    def view(self, g):
        r = {}
        if g.game_state[0]:
            r["last_attack"] = {
                "hit": g.game_state[0] == 1,
                "roll": g.game_state[1],
                "total": g.game_state[2],
            }
        return r

    def command(self, link, c, msg):
        ia = link.int_arg
        if c == "aim":
            return (
                EV_AIM,
                link.ship_arg(msg),
                ia(msg, "weapon", None, 0, 7),
                ia(msg, "arg", None, 0, 254),
            )
        if c == "attack":
            return (
                EV_ATTACK,
                link.ship_arg(msg),
                link.roll_arg(msg),
                link.ship_arg(msg, "target"),
            )
        return Ruleset.command(self, link, c, msg)

    def dice_shown(self, g, ev):
        if ev[0] == EV_ATTACK:  # the attacker's player rolls the d20 (W6, seed 004)
            return [(g.side[ev[1]], 20, ev[2])]
        return Ruleset.dice_shown(self, g, ev)

    PAD_MARKED = ("attack", "aim")
    PAD_D20 = True

    def pad_event(self, pad, what, i, m):
        if what == "attack":
            return (EV_ATTACK, m, pad.pad_d20(), i)
        if what == "aim":
            w, arg = self.next_aim(pad.referee.game, m)
            return (EV_AIM, m, w, arg)
        return Ruleset.pad_event(self, pad, what, i, m)
