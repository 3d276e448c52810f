"""Firing in the smb ruleset (seed 004, ``004_e5d94d5ce87da14f.txt``): who may fire which
weapon at whom and when ("Movement Phase": rapid-fire responses and the fighter attack move;
"Capital Weapons Phase"), the aim, the attack roll against the target's facing, and what a
shot records. Functions of (rules, g, ...) called by rules/smb.py, which imports this module
on first use."""

from referee.events import NONE
from referee.rules.smb_defs import (
    ATTACK_MOVE,
    B_AM_FIRED,
    B_AM_TARGET,
    B_RAPID_AT,
    CAP_FIRED,
    CAPITAL_PHASE,
    ION_NOW,
    K_FIGHTER,
    K_NO_RAPID,
    K_NO_SNUB,
    MOVING,
    POWER,
    RESPONDED,
    S_SNUB_DEF,
    W_CAPITAL,
    W_HEAVY,
    W_RAPID,
    WEAPON_KINDS,
    X_LAST,
)


def check_fire(rules, g, a, c, w):  # noqa: PLR0911 (a refusal each)
    """Seed 004: who may fire which weapon at whom, now. None or the reason."""
    nm = g.names[a]
    if g.rule_flags[a] & ION_NOW:
        return "%s is ionized: it cannot fire this round" % nm
    if rules.bonus(g, a, w) == 255:
        return "%s has no %s weapons" % (nm, WEAPON_KINDS[w - W_CAPITAL])
    if w == W_CAPITAL:
        if g.phase != CAPITAL_PHASE:
            return (
                "capital weapons fire in the capital weapons phase (%s aims its "
                "capital weapons)" % nm
            )
        if g.rule_flags[a] & POWER:
            return "%s made a full-power move and cannot fire capital weapons" % nm
        if rules.kind(g, c, K_FIGHTER):
            return "capital weapons cannot target fighters"
        if g.rule_flags[a] & CAP_FIRED:
            return "%s has already fired its capital weapons this round" % nm
        if g.settings["capital_rear"] and (rules.aim(g, a) >> 3) & 3 == 2:
            return "capital weapons cannot be fired into the rear facing"
    elif g.phase != MOVING:
        if g.phase == CAPITAL_PHASE:
            return (
                "only capital weapons fire in the capital weapons phase (%s aims its "
                "%s weapons)" % (nm, WEAPON_KINDS[w - W_CAPITAL])
            )
        return "heavy and rapid weapons fire in the movement phase"
    elif g.ship_state[4 * a + B_RAPID_AT] == c + 1:
        if w != W_RAPID:
            return "a response fires rapid weapons only"
    elif g.rule_flags[a] & ATTACK_MOVE and g.game_state[X_LAST] == a + 1:
        if g.ship_state[4 * a + B_AM_FIRED] & (1 << (w - W_HEAVY)):
            return "%s has fired its %s weapon in this attack move" % (
                nm,
                WEAPON_KINDS[w - W_CAPITAL],
            )
        t = g.ship_state[4 * a + B_AM_TARGET]
        if t and t != c + 1 and g.settings["attack_move_one_target"]:
            return "the attack move fires at a target: %s's is %s" % (nm, g.names[t - 1])
    else:
        from referee.texts import possessive  # (a refusal: the texts load only now)

        if g.rule_flags[c] & RESPONDED and g.game_state[X_LAST] == c + 1:
            # seed 004: "you can only make 1 response action, so ... it can only be shot
            # at once"
            return (
                "the one response to %s move is used: a rapid-fire response is one "
                "shot" % possessive(g.names[c])
            )
        return (
            "%s fires in the movement phase only as a response to %s move (rapid "
            "fire) or during its own fighter attack move" % (nm, possessive(g.names[c]))
        )
    if rules.kind(g, a, K_FIGHTER) and rules.kind(g, c, K_NO_SNUB):
        return "%s cannot be damaged by snub weapons" % g.names[c]
    if w == W_RAPID and rules.kind(g, c, K_NO_RAPID):
        return "%s is immune to fire from rapid weapons" % g.names[c]
    return None


def check_aim(rules, g, a, weapon, arg):
    """Ship ``a`` may aim ``weapon`` (4 capital, 5 heavy, 6 rapid) at facing ``arg`` (0 front,
    1 side, 2 rear: the target's defence column, seed 004): None or the reason."""
    if weapon not in rules.weapons:
        return "smb weapons: 4 capital, 5 heavy, 6 rapid"
    if rules.bonus(g, a, weapon) == 255:
        return "%s has no %s weapons" % (g.names[a], WEAPON_KINDS[weapon - W_CAPITAL])
    if not 0 <= arg <= 2:
        return "facing: 0 front, 1 side, 2 rear"
    return None


def attack_result(rules, g, a, c, roll):
    """Ship ``a``'s aimed shot at ship ``c`` with d20 ``roll``: (hit, total, need) - roll plus
    the weapon's bonus against the defence of the aimed facing, plus the target's snub
    defence against a fighter (seed 004) - or the reason it cannot be fired."""
    w = rules.weapon(g, a)
    if w not in rules.weapons:
        return "aim first: choose the weapon and the target's facing"
    r = rules.check_fire(g, a, c, w)  # the same checks as a hit with by (check_hit)
    if r:
        return r
    need = rules.defense(g, c, (rules.aim(g, a) >> 3) & 3)
    if need == 255:
        return "the roster gives no defence for %s" % g.names[c]
    if rules.kind(g, a, K_FIGHTER):
        need += g.stat(c, S_SNUB_DEF)
    total = roll + rules.bonus(g, a, w)
    return rules.d20_hit(g, roll, total, need), total, need


def check_hit(rules, g, target, points, attacker):
    """A hit of ``points`` on ``target`` marked by hand: by ``attacker`` (NONE: unnamed) it
    takes the same checks as its shot (:func:`check_fire`). None or the reason."""
    if points <= 0:
        return None
    if attacker == NONE:
        if g.phase == CAPITAL_PHASE and rules.kind(g, target, K_FIGHTER):
            # only capital weapons fire in this phase, and they cannot target fighters
            return "capital weapons cannot target fighters"
        return None
    return rules.check_fire(g, attacker, target, rules.firing_weapon(g, attacker, target))


def on_fire(rules, g, a, c):
    """Ship ``a`` fired at ship ``c``: its capital weapons are spent for the round; in the
    movement phase a rapid-fire response is one shot, and the fighter attack move records
    the weapon fired and its target."""
    if g.phase == CAPITAL_PHASE:
        g.rule_flags[a] |= CAP_FIRED
    if g.phase != MOVING:
        return
    o = 4 * a
    if g.ship_state[o + B_RAPID_AT] == c + 1:
        g.ship_state[o + B_RAPID_AT] = 0  # one response action is one shot
    else:
        g.ship_state[o + B_AM_FIRED] |= 1 << (rules.firing_weapon(g, a, c) - W_HEAVY)
        g.ship_state[o + B_AM_TARGET] = c + 1
