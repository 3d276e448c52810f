"""The turns of an smb move (seed 004, ``004_e5d94d5ce87da14f.txt``, "Movement Phase"; the
Troop Transport of "Scenario 1 - Escape from Hoth"). Functions of (rules, g, ...) called by
rules/smb.py, which imports this module on first use. An EV_MOVE's third field is the number
of 90 degree turns the move made (journals written before it was checked hold 0)."""

from referee.rules.smb_defs import S_KIND, K_CAPITAL, K_FIGHTER, K_CRUISER, S_BONUS

S_MAX_TURNS = S_BONUS + 6  # the roster's max_turns (255: not given)
MOVES = ("?", "standard", "full-power", "fighter attack")


def turn_limit(g, a, mode):
    """The most 90 degree turns ship ``a`` may make in a move of ``mode``. Seed 004: a capital
    ship's standard move makes "one turn of 90 degrees"; fighters and cruisers "make up to two
    90 degree turns"; a full power move is "straight forward" and the Fighter Attack "2 spaces
    straight forward" (no turns). A roster ``max_turns`` lowers it (the Troop Transport:
    "Unwieldy: May only make 1 turn"). 255 when the seed gives no limit (type "ship")."""
    if mode != 1:
        return 0
    k = g.stat(a, S_KIND)
    lim = 1 if k & K_CAPITAL else 2 if k & (K_FIGHTER | K_CRUISER) else 255
    return min(lim, g.stat(a, S_MAX_TURNS))


def check(rules, g, a, mode, turns):
    """None when ship ``a`` may make a move of ``mode`` with ``turns`` turns now, else the
    reason (one line)."""
    r = rules.check_move(g, a, mode)
    if r:
        return r
    lim = turn_limit(g, a, mode)
    if turns > lim:
        if lim == 0:
            return "a %s move goes straight forward: no turns" % MOVES[mode]
        return "%s may make at most %d turn%s in a standard move" % (
            g.names[a],
            lim,
            "" if lim == 1 else "s",
        )
    return None
