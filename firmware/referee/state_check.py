"""Whether a state's bytes (from a journal snapshot or a host's ``state`` line) are a state
this game can be in: game.Game.check_state, loaded only when a state comes from outside."""

from referee.events import NONE
from referee.fleet import F_LAUNCHED, F_FIRED, F_LAUNCHED_ONE


def check(fleet, data):
    """None when ``data`` (bytes) is a state this game can be in, else the reason: length
    and ship count, round >= 1, phase of the ruleset, initiative holder, d20 rolls, the
    ship firing, each ship's damage (at most X+Y), pending damage, command counters (at
    most the roster's), flags, every chart entry (a ship of that side), and the
    ruleset's flags and bytes. Changes nothing."""
    n = fleet.n
    buf = fleet._state_buffer  # (its length: the state's)
    if not isinstance(data, (bytes, bytearray)) or len(data) != len(buf) or data[11] != n:
        return "state does not fit this game (%d ships)" % n
    return (
        _head(fleet, data)
        or _ships(fleet, data)
        or _chart(fleet, data, 12 + 4 * n)
        or _rule_bytes(fleet, data, 12 + 4 * n + len(fleet.chart))
    )


def _head(fleet, data):
    """The game's own fields (bytes 0..10): round, phase, initiative, rolls, firing."""
    rnd = data[0] | (data[1] << 8) | (data[2] << 16) | (data[3] << 24)
    if rnd < 1:
        return "round must be 1 or more"
    if data[4] >= len(fleet.rules.phases):
        return "phase %d: %s has %d phases" % (
            data[4],
            fleet.rules.name,
            len(fleet.rules.phases),
        )
    if data[5] not in (0, 1, NONE) or data[6] not in (0, 1, NONE):
        return "initiative holder must be side 0, 1 or none"
    if data[7] > 20 or data[8] > 20 or data[9] > 1:
        return "initiative rolls must be 0..20 and their source 0 or 1"
    if data[10] != NONE and data[10] >= fleet.n:
        return "the ship firing must be a ship"
    return None


def _ships(fleet, data):
    """Each ship's damage, pending damage, command counters and core flags."""
    n = fleet.n
    o = 12
    for i in range(n):
        total = fleet.hp1[i] + fleet.hp2[i]
        nm = fleet.names[i]
        if data[o + i] > total:
            return "%s: damage %d is more than its %d hit points" % (nm, data[o + i], total)
        if data[o + i] + data[o + n + i] > total:
            return "%s: pending damage %d is more than it can take" % (nm, data[o + n + i])
        if data[o + 2 * n + i] > fleet._counters_start[i]:
            return "%s: %d command counters, its card has %d" % (
                nm,
                data[o + 2 * n + i],
                fleet._counters_start[i],
            )
        if data[o + 3 * n + i] & ~(F_LAUNCHED | 2 | F_FIRED | F_LAUNCHED_ONE) & 255:
            return "%s: unknown flags" % nm
    return None


def _chart(fleet, data, o):
    """The fleet command chart at ``o``: each entry none or a ship of that side."""
    k = fleet.option_count
    for j in range(2 * k):
        v = data[o + j]
        if v != NONE and (v >= fleet.n or fleet.side[v] != j // k):
            return "fleet command chart entry %d names no ship of that side" % j
    return None


def _rule_bytes(fleet, data, o):
    """The ruleset's part from ``o``: its flags (only the bits it declares), ship bytes
    and game bytes within its ``state_limits``."""
    n = fleet.n
    rules = fleet.rules
    nf = len(rules.FLAGS)
    for i in range(n):
        if data[o + i] >> nf:
            return "%s: unknown %s flags" % (fleet.names[i], rules.name)
    o += n
    ship_max, game_max = rules.state_limits(fleet)
    sb = rules.SHIP_BYTES
    for j in range(n * sb):
        if data[o + j] > ship_max[j % sb]:
            return "%s: %s ship byte %d is %d (at most %d)" % (
                fleet.names[j // sb],
                rules.name,
                j % sb,
                data[o + j],
                ship_max[j % sb],
            )
    o += n * sb
    for j in range(len(game_max)):
        if data[o + j] > game_max[j]:
            return "%s game byte %d is %d (at most %d)" % (
                rules.name,
                j,
                data[o + j],
                game_max[j],
            )
    return None
