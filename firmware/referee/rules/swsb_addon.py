"""Ruleset swsb-addon: the fan "Starship Battles add-on rules" (seed 001,
``001_a2238b11b3f70e84.txt``) on top of swsb. See docs/rules.md, table swsb-addon.

- Range bands by inches on the attack roll: 0-8 +0, 9-16 -1, 17-24 -2, 25-32 -3, 33+ -4; a
  roll of 20 always hits ("Combat"). EV_AIM's arg is the distance in inches.
- Fighters attack and are attacked only within 1" (2" with an ability or game text that
  doubles fighter range: roster ``double_fighter_range``, or the chart's Long Range
  Bombardment for fighters and Incoming Fighters for point defense).
- Non-PD fire at fighters counts as the 9-16" band (unless the size modifier is used).
- Cloak (roster ``cloak``): fire moves one band out; it cannot be targeted at Extreme range
  (setting ``cloak_extreme``); fighters attacking it have no modifier.
- Dog-fights ("Fighters that are within 1\" of each other are considered to be engaged in a
  dog-fight ... cannot attack anything other than the fighter(s) they are engaged with"): once
  two enemy fighters have attacked one another within 1" this round, neither may attack a
  non-fighter, unless it has the Interceptor ability (roster ``interceptor``: "can choose to
  target the fighters that engaged them in a dog-fight or to target any other valid target").
- Proximity targeting is the players' (it needs every ship's distance); its override, "A
  player can always use a Command token of the appropriate Class to allow the ship to ignore
  this rule", is the chart's fifth option (Proximity Override, recorded).
- The optional size modifier (``size_modifier``): attacker class minus target class, not PD.
- Alternating activation: the initiative winner chooses who moves first (``choose``); ships
  move two at a time, all class 1-3 ships before class 4, and the class 4 moves start again
  with the player chosen to move first; firing goes the same way one ship at a time, and a
  ship's damage is assessed as soon as it has finished firing (``done``).
"""

from referee.events import NONE
from referee.fleet import F_FIRED
from referee.rules.base import EV_MOVE, Option, EFFECT_NONE
from referee.rules.d20 import EV_AIM, EV_ATTACK, D20Rules
from referee.rules import swsb
from referee.rules.swsb import (
    EV_TRANSFER,
    EV_DONE,
    W_PRIMARY,
    W_PD,
    FIRED_PRIMARY,
    FIRED_PD,
    FIRED_BROAD_L,
    FIRED_BROAD_R,
    S_ABILITIES,
)

from referee.rules.swsb_addon_defs import (
    EV_CHOOSE,
    EFFECT_FIGHTER_REACH,
    EFFECT_PD_FIGHTER_REACH,
    A_CLOAK,
    A_DOUBLE_FIGHTER_RANGE,
    A_INTERCEPTOR,
    MOVED,
    DOGFIGHT,
    X_FIRST,
    X_TURN,
    X_COUNT,
    range_band,
)


def _turns():
    """The alternating-activation helpers (rules/swsb_addon_turns.py), imported on first use."""
    from referee.rules import swsb_addon_turns

    return swsb_addon_turns


def _io():
    """The views, texts, serial commands and pad actions (rules/swsb_addon_io.py), imported on
    first use."""
    from referee.rules import swsb_addon_io

    return swsb_addon_io


class Rules(swsb.Rules):
    name = "swsb-addon"
    title = "Starship Battles add-on rules (fan): open table, alternating activation"
    source = "seed 001"
    phases = ("initiative", "move", "attack")
    pending_phases = (2,)
    hit_phases = (2,)
    counter_phases = (1, 2)
    flush_phase = 2
    one_ship_at_a_time = 2
    pd_step = -1
    options = (
        swsb.Rules.options[0],
        Option(
            "Incoming Fighters",
            (),
            EFFECT_PD_FIGHTER_REACH,
            'point defense reaches fighters within 2" this round (seed 001: game text '
            "doubling anti-fighter fire)",
        ),
        swsb.Rules.options[2],
        Option(
            "Long Range Bombardment",
            (),
            EFFECT_FIGHTER_REACH,
            'your fighters attack within 2" this round (seed 001: game text doubling '
            "fighter weapons' range)",
        ),
        Option(
            "Proximity Override",
            (),
            EFFECT_NONE,
            "the ship may ignore proximity targeting and fire at any target, with a "
            'counter of its own class (seed 001, Proximity targeting: "a Command token of '
            'the appropriate Class")',
            own_class=True,
        ),
    )
    # setting: (default, lowest, highest), docs/rosters.md
    SETTINGS = {
        "damage_per_hit": (1, 1, 9),  # damage points one hit marks
        "point_limit": (0, 0, 9999),  # a side's fleet points at most (0: no limit)
        "tie_hits": (1, 0, 1),  # an attack equal to the defense hits
        "nat1_misses": (0, 0, 1),  # a natural 1 always misses
        # attacker class minus target class is added (not for point defense)
        "size_modifier": (0, 0, 1),
        "cloak_extreme": (1, 0, 1),  # which reading of "at Extreme Range" a cloaked ship gets
    }
    EVENTS = {
        EV_AIM: "aim",
        EV_ATTACK: "attack",
        EV_TRANSFER: "transfer",
        EV_MOVE: "move",
        EV_CHOOSE: "choose",
        EV_DONE: "done",
    }
    STAT_KEYS = swsb.Rules.STAT_KEYS + ("cloak", "double_fighter_range", "interceptor")
    ABILITY_STATS = swsb.Rules.ABILITY_STATS + (
        ("cloak", "cloak"),
        ("interceptor", "interceptor"),
        ("double", "double_fighter_range"),
    )
    FLAGS = swsb.Rules.FLAGS + ("moved", "dogfight")
    ROUND_FLAGS = FIRED_PRIMARY | FIRED_PD | FIRED_BROAD_L | FIRED_BROAD_R | MOVED | DOGFIGHT
    SHIP_BYTES = 3  # aim (weapon | band << 3), inches, the newest pending hit (Fly Casual)
    HIT_BYTE = 2
    GAME_BYTES = 8
    COMMANDS = ("aim", "attack", "transfer", "move", "choose", "done")
    example = "swsb-addon-example"
    aims = (
        (W_PRIMARY, 4),
        (W_PRIMARY, 12),
        (W_PRIMARY, 20),
        (W_PRIMARY, 28),
        (W_PRIMARY, 40),
        (W_PD, 0),
    )
    pad = ("", "", "", "", "attack", "aim", "done", "choose")
    power = ("move", "move")
    PAD_MARKED = ("attack",)  # aim unmarked: one more turn for the next move

    def parse_stats(self, st, ctx):
        v = swsb.Rules.parse_stats(self, st, ctx)
        if st.get("cloak"):
            v[S_ABILITIES] |= A_CLOAK
        if st.get("double_fighter_range"):
            v[S_ABILITIES] |= A_DOUBLE_FIGHTER_RANGE
        if st.get("interceptor"):
            v[S_ABILITIES] |= A_INTERCEPTOR
        return v

    def moves_first(self, g):
        """The side the initiative winner chose to move first (NONE before the choice)."""
        return g.game_state[X_FIRST] - 1 if g.game_state[X_FIRST] else NONE

    # ---- range -------------------------------------------------------------------------------
    def aim_value(self, g, weapon, arg):
        return weapon | (range_band(arg) << 3)

    def inches(self, g, i):
        return g.ship_state[i * self.SHIP_BYTES + 1]

    def reach(self, g, a, c):
        """Seed 001: fighters attack and are attacked only within 1" (2" when doubled); 0 when
        neither ship is a fighter (no limit)."""
        if g.cls[a] != 4 and g.cls[c] != 4:
            return 0
        if self.has(g, a, A_DOUBLE_FIGHTER_RANGE):
            return 2
        s = g.side[a]
        for k in range(g.option_count):
            if g.chart[s * g.option_count + k] == NONE:
                continue
            e = self.options[k].effect
            if e == EFFECT_FIGHTER_REACH and g.cls[a] == 4:
                return 2
            if e == EFFECT_PD_FIGHTER_REACH and g.cls[c] == 4 and self.weapon(g, a) == W_PD:
                return 2
        return 1

    def fire_band(self, g, a, c):
        """The range band of ship a's aimed shot at ship c (seed 001): non-PD fire at fighters
        counts as the 9-16" band (without the size modifier); Cloak moves fire one band out,
        fighters attack it with no modifier; or the reason it cannot be fired (Cloak at
        Extreme range). The attack helper and a hit with ``by`` both ask it."""
        w = self.weapon(g, a)
        band = (self.aim(g, a) >> 3) & 7
        fighter_attacker = g.cls[a] == 4
        if (
            g.cls[c] == 4
            and w != W_PD
            and not g.settings["size_modifier"]
            and not fighter_attacker
        ):
            band = 1  # fire at fighters: the 9-16" band
        if self.has(g, c, A_CLOAK):
            if fighter_attacker:
                return 0  # fighters attack it with no modifier
            far = band + 1 if g.settings["cloak_extreme"] else band
            if far >= 4:
                return "%s has Cloak: it cannot be targeted at Extreme range" % g.names[c]
            band = min(band + 1, 4)
        return band

    def attack_result(self, g, a, c, roll):
        terms = self.attack_terms(g, a, c)
        if isinstance(terms, str):
            return terms
        w, bonus, need = terms
        band = self.fire_band(g, a, c)
        if isinstance(band, str):
            return band
        mod = -band
        if g.settings["size_modifier"] and w != W_PD:
            mod += g.cls[a] - g.cls[c]
        total = roll + bonus + mod
        if roll == 20:
            return True, total, need  # "A roll of 20 always hits"
        return self.d20_hit(g, roll, total, need), total, need

    def on_fire(self, g, a, c):
        """Seed 001: two enemy fighters that attacked one another within 1" are engaged in a
        dog-fight (nothing moves in the attack phase, so they stay engaged this round)."""
        swsb.Rules.on_fire(self, g, a, c)
        if g.cls[a] == 4 and g.cls[c] == 4 and g.side[a] != g.side[c] and self.inches(g, a) <= 1:
            g.rule_flags[a] |= DOGFIGHT
            g.rule_flags[c] |= DOGFIGHT

    def check_hit(self, g, target, points, attacker):
        if (
            attacker != NONE
            and points > 0
            and g.rule_flags[attacker] & DOGFIGHT
            and g.cls[target] != 4
            and not self.has(g, attacker, A_INTERCEPTOR)
        ):
            return (
                "%s is in a dog-fight: it attacks only the fighters it is engaged with "
                "(seed 001; an Interceptor may choose any target)" % g.names[attacker]
            )
        if attacker != NONE and points > 0:
            r = self.reach(g, attacker, target)
            if r and self.inches(g, attacker) > r:
                return 'fighters attack and are attacked only within %d" (%s aims at %d")' % (
                    r,
                    g.names[attacker],
                    self.inches(g, attacker),
                )
            band = self.fire_band(g, attacker, target)
            if isinstance(band, str):
                return band
        return swsb.Rules.check_hit(self, g, target, points, attacker)

    def check_turn(self, g, a):
        if g.active != NONE and g.active != a:
            return "%s is firing: finish its activation (done) first" % g.names[g.active]
        if g.active == a:
            return None
        return _turns().check_turn(g, a, False)

    def check_ext(self, g, kind, a, b, c):  # noqa: PLR0911 (a refusal each)
        if kind == EV_CHOOSE:
            if g.phase != 1:
                return "who moves first is chosen at the start of the move phase"
            if g.game_state[X_FIRST]:
                return "who moves first is already chosen"
            if a not in (0, 1) or b or c:
                return "choose side 0 or 1"
            return None
        if kind in (EV_MOVE, EV_DONE):
            moving = kind == EV_MOVE
            r = g.ship(a)
            if r:
                return r
            if g.phase != (1 if moving else 2):
                return (
                    "ships move in the move phase"
                    if moving
                    else "a ship finishes firing in the attack phase"
                )
            if _turns().done(g, a, moving):
                return "%s has already %s" % (g.names[a], "moved" if moving else "fired")
            if not moving and g.active != NONE and g.active != a:
                return "%s is firing now" % g.names[g.active]
            if not g.in_play(a):
                return "%s is not on the map" % g.names[a]
            if moving and b != 1:
                return "swsb-addon moves: mode 1"
            if moving and g.cls[a] < 4 and c > g.cls[a]:
                # "Units can make one turn per Class number"; fighters turn freely at the end
                return "a class %d ship makes at most %d turn%s" % (
                    g.cls[a],
                    g.cls[a],
                    "s" if g.cls[a] > 1 else "",
                )
            if not moving and g.active == a:
                return None
            return _turns().check_turn(g, a, moving)
        return swsb.Rules.check_ext(self, g, kind, a, b, c)

    def apply_ext(self, g, kind, a, b, c):
        if kind == EV_CHOOSE:
            g.game_state[X_FIRST] = a + 1
            _turns().start(g, True)
        elif kind == EV_MOVE:
            g.rule_flags[a] |= MOVED
            g.game_state[X_COUNT] += 1
            _turns().advance(g, True, 2)
        elif kind == EV_DONE:
            g.flush()  # damage is assessed as soon as the ship has fired
            g.flags[a] |= F_FIRED
            g.active = NONE
            g.game_state[X_COUNT] = 1
            _turns().advance(g, False, 1)
        elif kind == EV_AIM:
            D20Rules.apply_ext(self, g, kind, a, b, c)
            g.ship_state[a * self.SHIP_BYTES + 1] = min(c, 254)
        else:
            swsb.Rules.apply_ext(self, g, kind, a, b, c)

    def start_phase(self, g):
        if g.phase == 2 and g.game_state[X_FIRST]:
            _turns().start(g, False)  # the player that moved first fires first
        elif g.phase == 0:
            g.game_state[X_FIRST] = 0

    def acting_side(self, g):
        if g.phase in (1, 2) and g.game_state[X_FIRST]:
            return g.game_state[X_TURN]
        return NONE

    TO_ACT_PHASES = (1, 2)  # move and attack: the sides activate ships in turn

    def yet_to_act(self, g, i):
        if g.phase not in self.TO_ACT_PHASES or not g.in_play(i):
            return False
        return not _turns().done(g, i, g.phase == 1)

    # ---- views, texts, commands, pad (rules/swsb_addon_io.py, imported on first use) -------
    def view(self, g):
        return _io().view(self, g)

    def event_text(self, g, ev, live=True):
        return _io().event_text(self, g, ev, live)

    def aim_text(self, g, weapon, arg):
        return _io().aim_text(weapon, arg)

    def command(self, link, c, msg):
        return _io().command(self, link, c, msg)

    def pad_label(self, g, action):
        return _io().pad_label(self, g, action)

    def pad_event(self, pad, what, i, m):
        return _io().pad_event(self, pad, what, i, m)
