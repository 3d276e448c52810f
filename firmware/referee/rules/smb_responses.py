"""The movement phase of seed 004 (``004_e5d94d5ce87da14f.txt``) for the smb ruleset:
response actions. Functions of (rules, game, ...) called by rules/smb.py."""


def check_response(rules, g, a, b, c):  # noqa: PLR0911 (a refusal each)
    """Seed 004 "Response Actions"."""
    from referee.rules.smb_defs import MOVING, MOVED, RESPONDED, ION_NOW, X_LAST, S_SPEED, W_RAPID

    r = g.ship(a) or g.ship(c)
    if r:
        return r
    if g.phase != MOVING:
        return "responses are taken in the movement phase"
    if g.side[a] == g.side[c]:
        return "a response answers an enemy ship's move"
    if not g.rule_flags[c] & MOVED:
        return "%s has not moved" % g.names[c]
    if g.game_state[X_LAST] != c + 1:
        return "a response answers the ship that has just moved (%s)" % (
            g.names[g.game_state[X_LAST] - 1] if g.game_state[X_LAST] else "none yet"
        )
    if g.rule_flags[c] & RESPONDED:
        return "only one response per enemy ship moved"
    if not g.in_play(a):
        return "%s is not on the table" % g.names[a]
    if g.rule_flags[a] & ION_NOW:
        return "%s is ionized this round" % g.names[a]
    k = b & 3
    if b & ~7 or k not in (1, 2):
        return "response kinds: 1 countermove, 2 rapid fire"
    if k == 1:
        if b & 4:
            return "no countermove: %s moved only into the square directly behind" % g.names[c]
        sa, sc = g.stat(a, S_SPEED), g.stat(c, S_SPEED)
        if sa == 255 or sc == 255 or sa < sc:
            return "a countermove needs the same or higher speed than %s" % g.names[c]
        return None
    if rules.bonus(g, a, W_RAPID) == 255:
        return "%s has no rapid weapons" % g.names[a]
    return None
