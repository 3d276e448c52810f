"""Alternating activation in swsb-addon (seed 001, ``001_a2238b11b3f70e84.txt``: players
alternate, two ships at a time in the move phase and one in the fire phase, class 1-3 ships
before class 4, "starting again with the player chosen to move first"). Functions of the game
``g`` (referee.game.Game) and ``moving`` (True in the move phase, False in the fire phase),
called by rules/swsb_addon.py, which imports this module on first use."""

from referee.fleet import F_FIRED
from referee.rules.swsb_addon_defs import MOVED, X_COUNT, X_FIRST, X_TIER, X_TURN


def done(g, i, moving):
    """Truthy when ship ``i`` has made this phase's activation (moved, or fired)."""
    return g.rule_flags[i] & MOVED if moving else g.flags[i] & F_FIRED


def pending(g, side, tier, moving):
    """True while ``side`` has a ship on the table of ``tier`` (0: class 1-3, 1: class 4) that
    has not made this phase's activation."""
    for i in range(g.n):
        if g.side[i] != side or not g.in_play(i):
            continue
        if (g.cls[i] == 4) != (tier == 1):
            continue
        if not done(g, i, moving):
            return True
    return False


def current_tier(g, moving):
    """0 while any class 1-3 ship of either side has yet to act ("class 1-3 ships ... before
    class 4"), then 1."""
    if pending(g, 0, 0, moving) or pending(g, 1, 0, moving):
        return 0
    return 1


def start(g, moving):
    """A new tier (or phase): the player chosen to move first starts again."""
    tier = current_tier(g, moving)
    first = g.game_state[X_FIRST] - 1
    g.game_state[X_TIER] = tier
    g.game_state[X_COUNT] = 0
    g.game_state[X_TURN] = first if pending(g, first, tier, moving) else 1 - first


def advance(g, moving, per_turn):
    """After an activation: whose turn it is next (alternating, tier by tier)."""
    tier = current_tier(g, moving)
    if tier != g.game_state[X_TIER]:
        start(g, moving)  # "starting again with the player chosen to move first"
        return
    side = g.game_state[X_TURN]
    other = 1 - side
    if g.game_state[X_COUNT] >= per_turn or not pending(g, side, tier, moving):
        g.game_state[X_COUNT] = 0
        if pending(g, other, tier, moving):
            g.game_state[X_TURN] = other
        # else: the opponent ran out, this player finishes with the rest


def check_turn(g, a, moving):
    """None when ship ``a`` may make its activation now, else the refusal (one line)."""
    if not g.game_state[X_FIRST]:
        return "the initiative winner first chooses who moves first"
    if g.side[a] != g.game_state[X_TURN]:
        from referee.texts import possessive  # (a refusal: the texts load only now)

        return "%s activation: it is not %s turn" % (
            possessive(g.side_names[g.game_state[X_TURN]]),
            possessive(g.side_names[g.side[a]]),
        )
    if current_tier(g, moving) == 0 and g.cls[a] == 4:
        return "class 1-3 ships %s before class 4" % ("move" if moving else "fire")
    return None
