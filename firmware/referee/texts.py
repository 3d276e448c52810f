"""Event texts: one sentence per event, with names and results, for the mirror, logs, the
demo's narration and saved games. Loaded only when a host asks (never on the board's hot path).

A text reads the game as it stands just after the event was applied (the mirror and the
simulator call it then), so an attack says hit or miss with its numbers and an undo says
which event it took back.
"""

from referee.events import (EV_INIT, EV_HIT, EV_COUNTER, EV_PHASE, EV_UNDO, EV_LAUNCH, NONE,
                            CORE_NAMES)


def possessive(name):
    """``name``'s, English style: "Rebels'" for a name ending in s, else "Empire's"."""
    return name + ("'" if name[-1:] in ("s", "S") else "'s")


def _plural(n, one, many=None):
    return "%d %s" % (n, one if n == 1 else (many or one + "s"))


def undone_seq(g, seq):
    """The sequence number of the event that the undo at ``seq`` took back, or None when it
    lies before the RAM window. Walks the window's events as the undo stack does."""
    base = g.win.base_seq
    stack = []
    last = None
    for s in range(base + 1, seq + 1):
        ev = g.event(s)
        if ev[0] == EV_UNDO:
            last = stack.pop() if stack else None
        else:
            stack.append(s)
    return last


def event_text(g, ev, seq=None, live=True):
    """The sentence for event ``ev`` (kind, a, b, c) of game ``g``; ``seq`` its number
    (default: the newest event, when ``ev`` is it). ``live``: the game stands just after
    ``ev`` (results are read from it); False for an older event (no results then).
    Never raises for a valid event."""
    k, a, b, c = ev
    nm = g.names
    sides = g.side_names
    if seq is None and g.seq and g.event(g.seq) == tuple(ev):
        seq = g.seq
    live = live and seq is not None and seq == g.seq
    if k == EV_INIT:
        t = "Initiative roll%s: %s %d, %s %d" % (" (physical dice)" if c else "", sides[0], a,
                                                 sides[1], b)
        if live and g.init != NONE and seq == g.seq:
            t += "; %s initiative" % (("a tie, settled by the ruleset: %s holds" if a == b
                                       else "%s holds") % sides[g.init])
        return t + "."
    if k == EV_HIT:
        by = (" from %s" % nm[c]) if c != NONE else ""
        if b >= 0:
            if not live:
                return "%s is hit%s: %s marked" % (nm[a], by, _plural(b, "damage point"))
            t = "%s is hit%s: %s marked (now %d of %d)" % (
                nm[a], by, _plural(b, "damage point"), g.dmg[a] + g.pend[a], g.hp1[a] + g.hp2[a])
            if g.destroyed(a):
                t += "; %s is destroyed" % nm[a]
            elif g.pend[a] and g.dmg[a] + g.pend[a] >= g.hp1[a] + g.hp2[a]:
                t += "; lethal damage pending"
            return t + "."
        return "%s pending on %s removed." % (_plural(-b, "damage point"), nm[a])
    if k == EV_COUNTER:
        return "%s plays a fleet command counter (%s) for %s." % (
            nm[a], g.profile.options[b].name, nm[c])
    if k == EV_PHASE:
        if not live:
            return "next phase"
        return "Next phase: round %d, %s." % (g.round, g.phase_name())
    if k == EV_UNDO:
        s = undone_seq(g, seq) if seq is not None and live else None
        if s is None:
            return "Undo: the newest change was taken back."
        return "Undo: took back event %d (%s)." % (s, event_text(g, g.event(s), s, False)
                                                   .rstrip("."))
    if k == EV_LAUNCH:
        return "%s is launched." % nm[a]
    if k == 40:                         # EV_CLOCK (referee/clock.py)
        from referee.clock import text
        return text(g, ev)
    if k in g.profile.EVENTS:
        return g.profile.event_text(g, ev, live)
    if k in CORE_NAMES:
        return CORE_NAMES[k]
    return "event %d" % k
