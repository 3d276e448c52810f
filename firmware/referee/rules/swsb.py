"""Ruleset swsb: Star Wars Starship Battles with the May 2007 errata and FAQ (seed 000,
``000_baeb94c29db4f7aa.txt``; rules digest sections 1-4). See docs/rules.md, table swsb.

- Initiative: every player rolls a d20; the highest moves last and attacks first; ties are
  rerolled ("initiative check").
- Phases: initiative, move, attack-pd (all point defense first), attack (then one ship at a
  time), damage (FAQ "Attack Phase"; the damage phase is named in the errata's Emperor's Will).
  The initiative winner's ship attacks first; the seed says no more about the order (setting
  ``attack_order``: 0 only the first ship is the winner's; 1 the sides alternate ship by ship,
  the winner first; 2 the winner's ships all fire, then the other side's).
- Damage marked in the attack steps waits and lands in the damage phase (digest 1.2).
- A starship may fire all its weapons, each once a round; a broadside once to each side
  (FAQ "Attack Phase").
- Fleet command (FAQ "Fleet Command Options"): the core's chart, with the options below.
  Fly Casual ("avoid a hit", FAQ "Specific Fleet Command Questions") takes back the newest
  pending hit on the ship, all its points (digest 2.2: a hit may be worth more than 1):
  the core keeps it in the ship's second state byte (``HIT_BYTE``; base.py).
- Emperor's Will (errata): ``transfer`` moves pending damage to an allied fighter at once.
- Infinite (digest 2.2, W1): a destroyed Infinite fighter goes back to the fighter pool.

Roster stats (named keys): ``defense``, ``attack``, ``pd``, ``damaged`` {the same keys},
``broadside``, ``emperors_will``, ``infinite`` (true/false).
"""

from referee.events import NONE
from referee.fleet import F_FIRED, F_LAUNCHED
from referee.rules.base import (
    Option,
    TIE_REROLL,
    MOVE_LOSER_FIRST,
    EFFECT_NONE,
    flag_bits,
    EFFECT_AVOID,
)
from referee.rules.d20 import D20Rules, D20_STATS, D20_KEYS, d20_stats, EV_AIM, EV_ATTACK

EV_TRANSFER = 10  # ship with Emperor's Will, points, allied fighter
EV_DONE = 15  # ship finished firing (or passes) in the attack step

W_PRIMARY = 0
W_PD = 1
W_BROAD_L = 2
W_BROAD_R = 3

# the "abilities" stat byte
A_EMPERORS_WILL = 1
A_INFINITE = 2
A_BROADSIDE = 4
S_ABILITIES = len(D20_STATS)

# fl2 flags: the weapons fired this round
FIRED_PRIMARY = 1
FIRED_PD = 2
FIRED_BROAD_L = 4
FIRED_BROAD_R = 8
WEAPON_FLAG = (FIRED_PRIMARY, FIRED_PD, FIRED_BROAD_L, FIRED_BROAD_R)
WEAPON_NAME = (
    "primary weapon",
    "point defense",
    "broadside to the left",
    "broadside to the right",
)

X_POOL = 3  # game byte: Infinite fighters returned to the pool

PD_STEP = 2
ATTACK_STEP = 3


# roster stats that give a ship an ability (seed 000), as the bits of its ability byte
ABILITIES = (
    ("emperors_will", A_EMPERORS_WILL),  # the Emperor's Will
    ("infinite", A_INFINITE),  # Infinite fighters: destroyed ones return to the pool
    ("broadside", A_BROADSIDE),  # broadsides
)


class Rules(D20Rules):
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
    one_ship_at_a_time = ATTACK_STEP
    USES_CLASS = True  # seed 000: Fly Casual class 3, Power to Engines class 2
    pd_step = PD_STEP
    options = (
        Option(
            "Fly Casual",
            (3,),
            EFFECT_AVOID,
            "a class 3 starship avoids a hit; class 3 only, once per round (seed 000 FAQ)",
        ),
        Option(
            "Incoming Fighters",
            (),
            EFFECT_NONE,
            "point defense reaches fighters within 2 squares this round (seed 000 FAQ)",
        ),
        Option(
            "Power to Engines",
            (2,),
            EFFECT_NONE,
            "a class 2 ship moves like a class 3 ship this round (seed 000 FAQ)",
        ),
        Option(
            "Long Range Bombardment",
            (),
            EFFECT_NONE,
            "your starfighters attack at 2 squares this round (digest 3.3, W1)",
        ),
    )
    # setting: (default, lowest, highest), docs/rosters.md
    SETTINGS = {
        "damage_per_hit": (1, 1, 9),  # damage points one hit marks
        "point_limit": (0, 0, 9999),  # a side's fleet points at most (0: no limit)
        "tie_hits": (1, 0, 1),  # an attack equal to the defense hits
        "nat20_hits": (0, 0, 1),  # a natural 20 always hits
        "nat1_misses": (0, 0, 1),  # a natural 1 always misses
        # 0 first attack ordered, 1 sides alternate, 2 initiative side first
        "attack_order": (0, 0, 2),
    }
    EVENTS = {EV_AIM: "aim", EV_ATTACK: "attack", EV_TRANSFER: "transfer", EV_DONE: "done"}
    STATS = D20_STATS + ("abilities",)
    STAT_KEYS = D20_KEYS + ("broadside", "emperors_will", "infinite", "cost")
    ABILITY_STATS = (
        ("emperor's will", "emperors_will"),
        ("emperors will", "emperors_will"),
        ("infinite", "infinite"),
        ("broadside", "broadside"),
    )
    FLAGS = ("fired_primary", "fired_pd", "fired_broadside_left", "fired_broadside_right")
    ROUND_FLAGS = FIRED_PRIMARY | FIRED_PD | FIRED_BROAD_L | FIRED_BROAD_R
    SHIP_BYTES = 2  # aim (d20.py), the newest pending hit: what Fly Casual avoids (base.py)
    HIT_BYTE = 1
    GAME_BYTES = 4
    COMMANDS = ("aim", "attack", "transfer", "done")
    example = "swsb-example"
    weapons = (W_PRIMARY, W_PD, W_BROAD_L, W_BROAD_R)
    aims = ((W_PRIMARY, 0), (W_PD, 0), (W_BROAD_L, 0), (W_BROAD_R, 0))
    pad = ("", "", "", "", "attack", "aim", "transfer", "done")
    PAD_MARKED = ("attack", "aim", "transfer")

    def parse_stats(self, st, ctx):
        return d20_stats(st) + [flag_bits(st, ABILITIES)]

    def has(self, g, i, bit):
        return g.stat(i, S_ABILITIES) & bit

    def from_pool(self, g, i):
        """Infinite fighters come from an endless pool, a destroyed one goes back to it
        (seed 000 errata, digest 2.2)."""
        return bool(self.has(g, i, A_INFINITE))

    # ---- weapons ---------------------------------------------------------------------------
    def check_aim(self, g, a, weapon, arg):
        if weapon not in self.weapons:
            return "swsb weapons: 0 primary, 1 point defense, 2/3 broadside left/right"
        return self.lacks(g, a, weapon)

    def lacks(self, g, a, w):
        """The reason ship a cannot aim or fire weapon ``w`` it does not have (a broadside or
        point defense its card lacks), or None."""
        if w in (W_BROAD_L, W_BROAD_R) and not self.has(g, a, A_BROADSIDE):
            return "%s has no broadside weapon" % g.names[a]
        if w == W_PD and self.point_defense(g, a) in (0, 255):
            return "%s has no point defense" % g.names[a]
        return None

    def firing_weapon(self, g, a):
        """The weapon ship a fires now: point defense in the attack-pd step, else its aim."""
        return W_PD if g.phase == self.pd_step else self.weapon(g, a)

    def check_weapon(self, g, a, w):
        """Seed 000 FAQ "Attack Phase": all point defense first; every weapon may fire, once a
        round; a broadside once to each side; point defense at every fighter in reach."""
        nm = g.names[a]
        if w == W_PD and self.pd_step >= 0 and g.phase != self.pd_step:
            return "point defense fires in the attack-pd step"
        r = self.lacks(g, a, w)
        if r:
            return r
        if w != W_PD and g.rule_flags[a] & WEAPON_FLAG[w]:
            # point defense attacks every fighter in reach (FAQ: Slave I "use Point Defense
            # on all fighters within 2 squares"): not limited here (one shot per fighter)
            return "%s has already fired its %s this round" % (nm, WEAPON_NAME[w])
        return None

    def attack_terms(self, g, a, c):
        """Ship ``a``'s attack on ship ``c`` with its aimed weapon: ``(weapon, bonus, need)``
        (the weapon kind, the attack or point defense bonus, the target's Defense), or the
        reason the attack is refused (str)."""
        w = self.weapon(g, a)
        r = self.check_weapon(g, a, w)
        if r:
            return r
        bonus = self.point_defense(g, a) if w == W_PD else self.attack_bonus(g, a)
        need = self.defense(g, c, 0)
        if bonus == 255 or need == 255:
            return "the roster gives no attack or Defense for these ships: mark hits with dmg+"
        return w, bonus, need

    def attack_result(self, g, a, c, roll):
        if g.phase == self.pd_step and self.weapon(g, a) != W_PD:
            return "only point defense fires in the attack-pd step (aim the PD first)"
        terms = self.attack_terms(g, a, c)
        if isinstance(terms, str):
            return terms
        _, bonus, need = terms
        total = roll + bonus
        return self.d20_hit(g, roll, total, need), total, need

    # ---- who attacks first -----------------------------------------------------------------
    def _unfired(self, g, s):
        """A ship of side s in play that has not fired (nor passed) this round, or NONE."""
        side = g.side
        fl = g.flags
        a = g.active
        for i in range(g.n):
            if side[i] == s and not fl[i] & F_FIRED and i != a and g.in_play(i):
                return i
        return NONE

    def _fired(self, g):
        """Ships that have fired (or are firing) this round: side 0's count + 256 x side 1's
        (one pass, no allocation)."""
        side = g.side
        fl = g.flags
        a = g.active
        k = 0
        for i in range(g.n):
            if fl[i] & F_FIRED or i == a:
                k += 256 if side[i] else 1
        return k

    def check_turn(self, g, a):
        """Seed 000 "initiative check": whoever rolls highest attacks first. None when ship
        a may start firing now, else the reason."""
        if a == g.active or g.init == NONE:
            return None
        s = g.side[a]
        turn = self._turn(g)
        if turn == NONE or s == turn:
            return None
        left = self._unfired(g, turn)
        if left == NONE:
            return None
        order = g.settings["attack_order"]
        from referee.texts import says, agree  # (a refusal: the texts load only now)

        side = g.side_names[turn]
        if order == 1:
            return "the sides take turns, %s first: now %s (%s has not fired; done passes)" % (
                g.side_names[g.init],
                side,
                g.names[left],
            )
        if order == 2:
            return "%s first: %s has not fired yet (done passes)" % (
                says(side, "attacks"),
                g.names[left],
            )
        return "%s first (%s)" % (says(side, "attacks"), agree(side, "it holds the initiative"))

    def _turn(self, g):
        """The side that may start the next activation (attack_order), before checking that
        it has ships left to fire."""
        w = g.init
        order = g.settings["attack_order"]
        if order == 1:
            k = self._fired(g)
            kw = k >> 8 if w else k & 255
            kl = k & 255 if w else k >> 8
            return w if kw <= kl else 1 - w
        if order == 0 and self._fired(g):
            return NONE  # the first attack was the winner's: any order
        return w

    def check_hit(self, g, target, points, attacker):
        if attacker == NONE or points <= 0:
            return None
        r = self.check_weapon(g, attacker, self.firing_weapon(g, attacker))
        if r:
            return r
        if g.phase == self.one_ship_at_a_time:
            return self.check_turn(g, attacker)
        return None

    def on_fire(self, g, attacker, target):
        g.rule_flags[attacker] |= WEAPON_FLAG[self.firing_weapon(g, attacker)]

    # ---- Emperor's Will, done, Infinite ------------------------------------------------------
    def check_ext(self, g, kind, a, b, c):
        if kind == EV_TRANSFER:
            r = g.ship(a) or g.ship(c)
            if r:
                return r
            if not self.has(g, a, A_EMPERORS_WILL):
                return "%s has no Emperor's Will" % g.names[a]
            if g.phase not in self.pending_phases:
                return "Emperor's Will moves damage in the attack phase"
            if b < 1 or g.pending[a] < b:
                return "%s has not %d damage pending to move" % (g.names[a], b)
            if c == a or g.side[c] != g.side[a] or g.cls[c] != 4:
                return "the damage goes to an allied fighter"
            if not g.in_play(c):
                return "%s is not on the map" % g.names[c]
            return None
        if kind == EV_DONE:
            r = g.ship(a)
            if r:
                return r
            if g.phase != ATTACK_STEP:
                return "a ship finishes firing in the attack step"
            if g.flags[a] & F_FIRED:
                return "%s has already fired" % g.names[a]
            if not g.in_play(a):
                return "%s is not on the map" % g.names[a]
            return self.check_turn(g, a)
        return D20Rules.check_ext(self, g, kind, a, b, c)

    def apply_ext(self, g, kind, a, b, c):
        if kind == EV_TRANSFER:
            g.pending[a] -= b
            g.add_damage(c, b)  # at once, not in the damage phase
        elif kind == EV_DONE:
            if g.active != NONE:
                g.flags[g.active] |= F_FIRED  # the ship firing before has finished too
            g.flags[a] |= F_FIRED
            g.active = NONE
        else:
            D20Rules.apply_ext(self, g, kind, a, b, c)

    def on_damage(self, g, i):
        if self.has(g, i, A_INFINITE) and g.destroyed(i):
            # Infinite: back to the fighter pool instead of leaving play (digest 2.2, W1)
            g.dmg[i] = 0
            g.pending[i] = 0
            g.flags[i] &= ~F_LAUNCHED & 255
            g.game_state[X_POOL] = min(g.game_state[X_POOL] + 1, 255)

    def acting_side(self, g):
        if g.phase == ATTACK_STEP and g.init != NONE:
            t = self._turn(g)
            if t != NONE and self._unfired(g, t) == NONE:
                t = 1 - t
            return t
        if g.phase >= PD_STEP and g.init != NONE:
            return g.init
        return g.moves_first()

    TO_ACT_PHASES = (ATTACK_STEP,)  # ships fire one by one in the attack step
    TO_ACT_DONE = ("flags", F_FIRED)  # ... until they have fired (or passed)

    # ---- texts, commands, pad --------------------------------------------------------------
    def event_text(self, g, ev, live=True):
        k, a, b, c = ev
        if k == EV_TRANSFER:
            return "Emperor's Will: %d damage moved from %s to %s." % (b, g.names[a], g.names[c])
        if k == EV_DONE:
            return "%s has finished firing." % g.names[a]
        return D20Rules.event_text(self, g, ev, live)

    def aim_text(self, g, weapon, arg):
        return WEAPON_NAME[weapon] if weapon < len(WEAPON_NAME) else "weapon %d" % weapon

    def command(self, link, c, msg):
        if c == "transfer":
            g = link.referee.game
            return (
                EV_TRANSFER,
                link.ship_arg(msg),
                link.int_arg(msg, "n", g.settings["damage_per_hit"], 1, 99),
                link.ship_arg(msg, "to"),
            )
        if c == "done":
            return (EV_DONE, link.ship_arg(msg), 0, 0)
        return D20Rules.command(self, link, c, msg)

    def pad_event(self, pad, what, i, m):
        g = pad.referee.game
        if what == "transfer":
            return (EV_TRANSFER, m, g.settings["damage_per_hit"], i)
        if what == "done":
            return (EV_DONE, g.active if g.active != NONE else i, 0, 0)
        return D20Rules.pad_event(self, pad, what, i, m)

    def view(self, g):
        r = D20Rules.view(self, g)
        r["weapons_fired"] = [
            [WEAPON_NAME[k] for k in range(4) if g.rule_flags[i] & WEAPON_FLAG[k]]
            for i in range(g.n)
        ]
        return r
