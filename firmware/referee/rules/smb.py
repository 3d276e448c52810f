"""Ruleset smb: the fan "Starwars Miniatures Battlegame" of March 2007 (seed 004,
``004_e5d94d5ce87da14f.txt``) with its scenarios Escape from Hoth and Attack on the Death
Star. See docs/rules.md, table smb.

Roster stats (named keys): ``type`` (capital, cruiser, fighter or ship), ``speed``,
``defense`` [front, side, rear], ``weapons`` [{``kind``: capital, heavy or rapid, ``bonus``}],
``snub_defense`` (defence bonus against snub weapons), ``no_snub_damage`` (cannot be damaged
by snub weapons), ``fighter_attack_move`` (a non-fighter that may make the attack move),
``immune_to_rapid`` ("most capital ships are immune to fire from rapid weapons": which ones is
roster data; none of the shipped scenarios says so), ``max_turns`` (the Troop Transport's
"Unwieldy: May only make 1 turn"; turn limits in rules/smb_moves.py).
Roster ``extras.ion_cannon`` {``side``, ``bonus``, ``bursts``}; ``victory`` conditions
``destroyed``, ``exited`` (the ship left by the far edge) and ``port`` (the target port hit).
"""

from referee.events import NONE
from referee.rules.base import EV_MOVE, TIE_KEEP, MOVE_HOLDER_FIRST, byte, flag_bits
from referee.rules.d20 import D20Rules, D20_STATS, d20_stats, EV_AIM, EV_ATTACK
from referee.rules import smb_responses, smb_scenarios
from referee.rules.smb_defs import (
    EV_POWER,
    EV_RESPONSE,
    EV_EXIT,
    EV_ION,
    W_CAPITAL,
    W_HEAVY,
    W_RAPID,
    WEAPON_KINDS,
    S_BONUS,
    S_KIND,
    K_FIGHTER,
    K_ATTACK_MOVE,
    SHIP_FLAGS,
    TYPES,
    MOVED,
    POWER,
    ATTACK_MOVE,
    RESPONDED,
    ION_NEXT,
    ION_NOW,
    ROUND,
    B_RAPID_AT,
    B_AM_FIRED,
    B_AM_TARGET,
    X_BURSTS,
    X_LAST,
    MOVING,
    CAPITAL_PHASE,
)


def _fire():
    """Who may fire what at whom and the attack roll (rules/smb_fire.py), imported on first
    use."""
    from referee.rules import smb_fire

    return smb_fire


class Rules(D20Rules):
    name = "smb"
    title = "Starwars Miniatures Battlegame (fan, 2007)"
    source = "seed 004"
    phases = ("initiative", "movement", "capital")
    pending_phases = (2,)
    hit_phases = (1, 2)
    flush_phase = 2
    tie = TIE_KEEP
    move_order = MOVE_HOLDER_FIRST
    # setting: (default, lowest, highest), docs/rosters.md
    SETTINGS = {
        "damage_per_hit": (1, 1, 9),  # damage points one hit marks
        # a tied first initiative roll is rolled again (0: side 0 holds it)
        "first_tie_reroll": (1, 0, 1),
        "tie_hits": (1, 0, 1),  # an attack equal to the defense hits
        "attack_move_one_target": (1, 0, 1),  # a fighter attack move attacks one target
        "capital_rear": (0, 0, 1),  # capital weapons may fire into the rear arc
    }
    EVENTS = {
        EV_POWER: "full-power",
        EV_AIM: "aim",
        EV_ATTACK: "attack",
        EV_MOVE: "move",
        EV_RESPONSE: "response",
        EV_EXIT: "exit",
        EV_ION: "ion",
    }
    STATS = D20_STATS + (
        "capital_bonus",
        "heavy_bonus",
        "rapid_bonus",
        "speed",
        "kind",
        "snub_defense",
        "max_turns",
    )
    STAT_KEYS = (
        "type",
        "speed",
        "defense",
        "weapons",
        "snub_defense",
        "no_snub_damage",
        "fighter_attack_move",
        "immune_to_rapid",
        "zone",
        "max_turns",
    )
    FLAGS = (
        "moved",
        "full_power",
        "attack_move",
        "responded",
        "ion_next_round",
        "ionized",
        "exited",
        "fired_capital",
    )
    STATE_WORDS = (("ionized", "ionized"), ("ion_next_round", "ionized next round"))
    ROUND_FLAGS = ROUND
    SHIP_BYTES = 4
    GAME_BYTES = 6
    COMMANDS = ("aim", "attack", "move", "respond", "exit", "ion", "power")
    VICTORY = ("destroyed", "exited", "port")
    ABILITY_STATS = smb_scenarios.ABILITY_STATS
    example = "hoth"
    weapons = (W_CAPITAL, W_HEAVY, W_RAPID)
    aims = (
        (W_CAPITAL, 0),
        (W_CAPITAL, 1),
        (W_CAPITAL, 2),
        (W_HEAVY, 0),
        (W_HEAVY, 1),
        (W_HEAVY, 2),
        (W_RAPID, 0),
        (W_RAPID, 1),
        (W_RAPID, 2),
    )
    pad = ("move", "rapid", "counter", "turn/behind", "attack", "aim", "ion", "exit/port")
    PAD_MARKED = ("attack", "rapid", "counter")  # aim unmarked: the Ion Cannon's facing
    power = ("full power", "power")

    # ---- roster ------------------------------------------------------------------------
    def check_roster(self, norm):
        ex = norm["extras"]
        norm["extras"] = {}
        try:
            D20Rules.check_roster(self, norm)
        finally:
            norm["extras"] = ex
        for k in ex:
            if k != "ion_cannon":
                raise ValueError("extras: smb knows ion_cannon, not %r" % k)
        smb_scenarios.check_roster_values(norm, TYPES, WEAPON_KINDS)

    def state_limits(self, g):
        """Ship bytes: aim, rapid response at ship + 1, attack-move fired bits, its target +
        1; game bytes: the last attack, Ion Cannon bursts (at most the roster's), the ship
        that moved last + 1, the side that hit the target port + 1."""
        ion = g.extras.get("ion_cannon")
        n = g.n
        return ((255, n, 3, n), (2, 20, 255, ion.get("bursts", 2) if ion else 0, n, 2))

    def parse_stats(self, st, ctx):
        v = d20_stats(st)
        b = [255, 255, 255]
        for w in st.get("weapons", ()):
            if isinstance(w, dict) and w.get("kind") in WEAPON_KINDS:
                b[WEAPON_KINDS.index(w["kind"])] = byte(w.get("bonus", 0))
        k = flag_bits(st, SHIP_FLAGS, TYPES.get(st.get("type"), 0))
        return (
            v
            + b
            + [
                byte(st.get("speed", 255)),
                k,
                byte(st.get("snub_defense", 0)),
                byte(st.get("max_turns", 255)),
            ]
        )

    def tie_without_holder(self, g):
        """Seed 004: "In the case of a tie the player who had the initiative last turn keeps
        it" - the first round has no such player; the seed is silent: setting
        ``first_tie_reroll`` (1: roll again; 0: side 0 holds it)."""
        return NONE if g.settings["first_tie_reroll"] else 0

    def kind(self, g, i, bit):
        return g.stat(i, S_KIND) & bit

    def bonus(self, g, i, w):
        return g.stat(i, S_BONUS + w - W_CAPITAL)

    def full_power(self, g, i):
        return bool(g.rule_flags[i] & POWER)

    # ---- movement (seed 004 "Movement Phase") ----------------------------------------------
    def _unmoved(self, g, side):
        """Ships of ``side`` still to move: on the table, not destroyed, not moved and not
        held by the Ion Cannon (it cannot move this round)."""
        out = []
        for i in range(g.n):
            if g.side[i] == side and g.in_play(i) and not g.rule_flags[i] & (MOVED | ION_NOW):
                out.append(i)
        return out

    def check_move(self, g, a, mode):
        if g.phase != MOVING:
            return "ships move in the movement phase"
        r = g.ship(a)
        if r:
            return r
        nm = g.names[a]
        if not g.in_play(a):
            return "%s is not on the table" % nm
        if g.rule_flags[a] & ION_NOW:
            return "%s is ionized: it cannot move this round" % nm
        if g.rule_flags[a] & MOVED:
            return "%s has already moved" % nm
        if mode not in (1, 2, 3):
            return "moves: 1 standard, 2 full power, 3 fighter attack"
        if mode == 3 and not self.kind(g, a, K_FIGHTER | K_ATTACK_MOVE):
            return "only fighters make the attack move"
        return self.check_order(g, a)

    def check_order(self, g, a):
        """ "The player with the initiative moves all their ships ..., then the other player
        moves": None when ship a may move now."""
        if g.init != NONE and g.side[a] != g.init:
            left = self._unmoved(g, g.init)
            if left:
                from referee.texts import says  # (a refusal: the texts load only now)

                return "%s first: %s has not moved" % (
                    says(g.side_names[g.init], "moves"),
                    g.names[left[0]],
                )
        return None

    def check_phase(self, g):
        """Every ship on the table that can move makes its move ("moves all their ships";
        "Ships must make their full forward move") before the movement phase ends."""
        if g.phase == MOVING:
            for s in range(2):
                left = self._unmoved(g, s)
                if left:
                    return "%s has not moved: every ship on the table moves" % g.names[left[0]]
        return None

    # ---- firing (rules/smb_fire.py, imported on first use) --------------------------------
    def firing_weapon(self, g, a, c):
        """The weapon a shot by ship a on ship c is from: its aimed weapon, the same for the
        attack helper and a hit with ``by`` (docs/protocol.md); a ship that has not aimed
        fires its capital weapons in the capital weapons phase and its rapid weapons in the
        movement phase (a hit needs no facing; the attack helper asks for the aim)."""
        w = self.weapon(g, a)
        if w in self.weapons:
            return w
        return W_CAPITAL if g.phase == CAPITAL_PHASE else W_RAPID

    def check_fire(self, g, a, c, w):
        """Seed 004: who may fire which weapon at whom, now. None or the reason."""
        return _fire().check_fire(self, g, a, c, w)

    def check_aim(self, g, a, weapon, arg):
        return _fire().check_aim(self, g, a, weapon, arg)

    def attack_result(self, g, a, c, roll):
        return _fire().attack_result(self, g, a, c, roll)

    def check_hit(self, g, target, points, attacker):
        return _fire().check_hit(self, g, target, points, attacker)

    def on_fire(self, g, a, c):
        _fire().on_fire(self, g, a, c)

    def destroyed_fire(self, g, i):
        return g.phase == CAPITAL_PHASE  # "even destroyed ships get to return fire"

    # ---- the ruleset's own events --------------------------------------------------------------
    def check_ext(self, g, kind, a, b, c):
        if kind == EV_POWER:
            r = g.ship(a)
            if r:
                return r
            if b or c:
                return "full-power: ship, 0, 0"
            return self.check_move(g, a, 2)
        if kind == EV_MOVE:
            from referee.rules import smb_moves

            return smb_moves.check(self, g, a, b, c)
        if kind == EV_RESPONSE:
            return smb_responses.check_response(self, g, a, b, c)
        if kind == EV_ION:
            return smb_scenarios.check_ion(self, g, a, b, c)
        if kind == EV_EXIT:
            return smb_scenarios.check_exit(self, g, a, b, c)
        return D20Rules.check_ext(self, g, kind, a, b, c)

    def apply_ext(self, g, kind, a, b, c):
        if kind == EV_POWER or kind == EV_MOVE:
            mode = 2 if kind == EV_POWER else b
            g.rule_flags[a] |= MOVED
            if mode == 2:
                g.rule_flags[a] |= POWER
            elif mode == 3:
                g.rule_flags[a] |= ATTACK_MOVE
            g.game_state[X_LAST] = a + 1
        elif kind == EV_RESPONSE:
            g.rule_flags[c] |= RESPONDED
            if b & 3 == 2:
                g.ship_state[4 * a + B_RAPID_AT] = c + 1
        elif kind == EV_ION:
            smb_scenarios.apply_ion(self, g, a, b, c)
        elif kind == EV_EXIT:
            smb_scenarios.apply_exit(self, g, a, b)
        else:
            D20Rules.apply_ext(self, g, kind, a, b, c)

    def end_round(self, g):
        for i in range(g.n):
            f = g.rule_flags[i]
            ion = f & ION_NEXT
            f &= ~(ROUND | ION_NEXT) & 255
            if ion:
                f |= ION_NOW  # the Ion Cannon's hit holds it in the next round
            g.rule_flags[i] = f
            o = 4 * i
            g.ship_state[o + B_RAPID_AT] = 0
            g.ship_state[o + B_AM_FIRED] = 0
            g.ship_state[o + B_AM_TARGET] = 0
        g.game_state[X_BURSTS] = 0
        g.game_state[X_LAST] = 0

    def winner(self, g):
        return smb_scenarios.winner(self, g)

    def acting_side(self, g):
        if g.phase == MOVING and g.init != NONE:
            return g.init if self._unmoved(g, g.init) else 1 - g.init
        return g.moves_first()

    TO_ACT_PHASES = (MOVING,)  # ships move one by one in the movement phase
    TO_ACT_DONE = ("rule_flags", MOVED | ION_NOW)  # (held by the Ion Cannon: it cannot move)

    # ---- views, texts, commands, pad (rules/smb_io.py, imported on first use) -------------
    def view(self, g):
        from referee.rules import smb_io

        return smb_io.view(self, g)

    def event_text(self, g, ev, live=True):
        from referee.rules import smb_io

        return smb_io.event_text(self, g, ev, live)

    def aim_text(self, g, weapon, arg):
        from referee.rules import smb_io

        return smb_io.aim_text(weapon, arg)

    def command(self, link, c, msg):
        from referee.rules import smb_io

        return smb_io.command(self, link, c, msg)

    def dice_shown(self, g, ev):
        if ev[0] == EV_ION:  # the Rebel player's planetary Ion Cannon fires at ship a (S4)
            return [(1 - g.side[ev[1]], 20, ev[2])]
        return D20Rules.dice_shown(self, g, ev)

    def pad_event(self, pad, what, i, m):
        from referee.rules import smb_io

        return smb_io.pad_event(self, pad, what, i, m)
