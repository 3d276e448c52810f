"""Event texts: one sentence per event, with names and results, for the mirror, logs, the
demo's narration and saved games. Loaded only when a host asks (never on the board's hot path).

A text reads the game as it stands just after the event was applied (the mirror and the
simulator call it then), so an attack says hit or miss with its numbers and an undo says
which event it took back.
"""

from referee.events import CORE_NAMES, EV_HIT, EV_UNDO, NONE
from referee.rules.base import EFFECT_AVOID, HIT_AVOIDED, possessive  # (possessive: re-exported)


def plural(n, one, many=None):
    """``n`` and a noun that agrees with it: "1 counter", "2 counters", "0 turns";
    ``many``: the plural when it is not ``one`` + s."""
    return "%d %s" % (n, one if n == 1 else (many or one + "s"))


def is_plural(name):
    """True when a side's name is a plural ("Rebels", "Imperials", "Imperial Forces"), so its
    verbs take the plural ("the Rebels win"); False for "Empire", "Rebel Alliance", "Light
    Side". Every text that puts a verb after a side's name decides it here, from the name's
    last word: a plural ends in s, not in ss, us or is ("Boss", "Nexus", "Axis" are one)."""
    w = name.rstrip().lower()
    return w[-1:] == "s" and w[-2:] not in ("ss", "us", "is")


_MANY = {"has": "have", "is": "are", "was": "were", "it": "they", "its": "their", "does": "do"}


def _many(word):
    if word in _MANY:
        return _MANY[word]
    for end in ("sses", "ches", "shes", "xes", "zes"):
        if word.endswith(end):
            return word[:-2]
    return word[:-1] if word.endswith("s") else word


def agree(name, phrase):
    """``phrase`` (said of one: "holds", "has won", "it holds the initiative") agreeing with
    the side named ``name``: its first word, and after "it" the verb too, take the plural
    when the name is one (:func:`is_plural`): "hold", "have won", "they hold the
    initiative"."""
    if not is_plural(name):
        return phrase
    words = phrase.split(" ")
    words[0] = _many(words[0])
    if words[0] == "they" and len(words) > 1:
        words[1] = _many(words[1])
    return " ".join(words)


def says(name, phrase):
    """The side named ``name`` and ``phrase`` agreeing with it: "Rebels hold", "Empire
    holds" (:func:`agree`)."""
    return "%s %s" % (name, agree(name, phrase))


def pending(g):
    """True when damage marked now waits (the ruleset's pending phases: swsb's attack steps
    until the damage phase, digest 1.2; smb's capital weapons phase, seed 004; swsb-addon's
    attack phase until the ship has fired, seed 001), False when it is applied at once."""
    return g.phase in g.rules.pending_phases


def undone_seq(g, seq):
    """The sequence number of the event that the undo at ``seq`` took back, or None when it
    lies before the RAM window. Walks the window's events as the undo stack does."""
    base = g.event_window.base_seq
    stack = []
    last = None
    for s in range(base + 1, seq + 1):
        ev = g.event(s)
        if ev[0] == EV_UNDO:
            last = stack.pop() if stack else None
        else:
            stack.append(s)
    return last


# the text of each core event kind: the name of this module's function for it, at the
# kind's index ("": the kind is not the core's); constant names, looked up in globals()
CORE_TEXTS = (
    "",
    "_init_text",
    "_hit_text",
    "_counter_text",
    "_phase_text",
    "_undo_text",
    "",
    "_launch_text",
)


def event_text(g, ev, seq=None, live=True):
    """The sentence for event ``ev`` (kind, a, b, c) of game ``g``; ``seq`` its number
    (default: the newest event, when ``ev`` is it). ``live``: the game stands just after
    ``ev`` (results are read from it); False for an older event (no results then).
    Never raises for a valid event."""
    k = ev[0]
    if seq is None and g.seq and g.event(g.seq) == tuple(ev):
        seq = g.seq
    live = live and seq is not None and seq == g.seq
    name = CORE_TEXTS[k] if 0 <= k < len(CORE_TEXTS) else ""
    if name:
        return globals()[name](g, ev, seq, live)
    if g.extensions:  # an extension's kind (time banks: referee/extensions.py)
        from referee.extensions import by_kind

        t = by_kind(g, ev, "text")
        if t is not False:
            return t
    if k in g.rules.EVENTS:
        return g.rules.event_text(g, ev, live)
    if k in CORE_NAMES:
        return CORE_NAMES[k]
    return "event %d" % k


def _init_text(g, ev, seq, live):
    _, a, b, c = ev
    sides = g.side_names
    t = "Initiative roll%s: %s %d, %s %d" % (
        " (physical dice)" if c else "",
        sides[0],
        a,
        sides[1],
        b,
    )
    if live and g.init != NONE and seq == g.seq:
        t += "; %s initiative" % (
            ("a tie, settled by the ruleset: %s" if a == b else "%s")
            % says(sides[g.init], "holds")
        )
    return t + "."


def _hit_text(g, ev, seq, live):
    _, a, b, c = ev
    nm = g.names
    by = (" by %s" % nm[c]) if c != NONE else ""
    if b < 0:
        return "%s pending on %s removed." % (plural(-b, "damage point"), nm[a])
    if not live:
        return "%s is hit%s: %s marked" % (nm[a], by, plural(b, "damage point"))
    t = "%s is hit%s: %s marked%s (now %d of %d)" % (
        nm[a],
        by,
        plural(b, "damage point"),
        " pending" if pending(g) else "",
        g.dmg[a] + g.pending[a],
        g.hp1[a] + g.hp2[a],
    )
    if g.destroyed(a):
        t += "; %s is destroyed" % nm[a]
    elif g.pending[a] and g.dmg[a] + g.pending[a] >= g.hp1[a] + g.hp2[a]:
        t += "; lethal damage pending"
    return t + "."


def _counter_text(g, ev, seq, live):
    _, a, b, c = ev
    nm = g.names
    p = g.rules
    t = "%s plays a fleet command counter (%s) for %s" % (nm[a], p.options[b].name, nm[c])
    if p.options[b].effect == EFFECT_AVOID:  # Fly Casual (seed 000 FAQ): the whole newest hit
        if not live:
            return t + ": its newest pending hit is avoided."
        avoided = g.ship_state[c * p.SHIP_BYTES + p.HIT_BYTE] & (HIT_AVOIDED - 1)
        return t + ": %s avoids a hit of %s (%d pending now)." % (
            nm[c],
            plural(avoided, "damage point"),
            g.pending[c],
        )
    return t + "."


def _phase_text(g, ev, seq, live):
    if not live:
        return "next phase"
    return "Next phase: round %d, %s." % (g.round, g.phase_name())


def _undo_text(g, ev, seq, live):
    # the event it took back, wherever the text is made (live or caught up)
    s = undone_seq(g, seq) if seq is not None else None
    if s is None:
        return "Undo: the newest change was taken back."
    return "Undo: took back event %d (%s)." % (s, event_text(g, g.event(s), s, False).rstrip("."))


def _launch_text(g, ev, seq, live):
    return "%s is launched." % g.names[ev[1]]


# ---- consequences: what an event decided (a ship destroyed, a ship gone, a side winning) ---


def _flag_bit(g, name):
    """The ``rule_flags`` bit of the ruleset flag ``name`` (its FLAGS index), or 0 when it has none."""
    fl = g.rules.FLAGS
    return (1 << fl.index(name)) if name in fl else 0


def outcome(g):
    """What the game has decided so far, to compare before and after an event:
    ``(destroyed, exited, launched, winner)``: bit masks over the ships and the winning side
    (None when none). Take it before applying an event and hand it to :func:`consequences`."""
    from referee.fleet import F_LAUNCHED

    ex = _flag_bit(g, "exited")
    d = e = ln = 0
    for i in range(g.n):
        if g.destroyed(i):
            d |= 1 << i
        if ex and g.rule_flags[i] & ex:
            e |= 1 << i
        if g.flags[i] & F_LAUNCHED:
            ln |= 1 << i
    return (d, e, ln, g.winner())


def win_text(g, side):
    """ "the Rebels win", "the Empire wins": the verb agrees with the side's name."""
    return "the " + says(g.side_names[side], "wins")


def consequences(before, g, ev=None, after=None):
    """The sentences an event decided beyond its own text (an empty string when none), from
    ``before`` (:func:`outcome` just before the event) and the game ``g`` just after it: a
    ship that pending damage destroys at a phase end (seed 004, Capital Weapons: the hits of
    the phase land together), an Infinite fighter going back to the pool (digest 2.2, W1),
    and the side that wins (seed 004, Victory) or no longer wins (an undo).
    ``ev``: the event; a hit that destroys its own target already says so itself. ``after``:
    :func:`outcome` of ``g`` when the caller has it already."""
    d0, _e0, l0, w0 = before
    d1, e1, l1, w1 = outcome(g) if after is None else after
    if d1 == d0 and l1 == l0 and w1 == w0:  # (the most events: nothing to say, no loop)
        return ""
    hit = ev[1] if ev is not None and ev[0] == EV_HIT else -1
    out = []
    for i in range(g.n):
        m = 1 << i
        if d1 & m and not d0 & m and i != hit:
            out.append("%s is destroyed" % g.names[i])
        elif l0 & m and not (l1 | d1 | e1) & m and not (ev is not None and ev[0] == EV_UNDO):
            out.append("%s is destroyed and goes back to the fighter pool" % g.names[i])
    t = "; ".join(out)
    if w1 is not None and w1 != w0:
        t = (t + ": " if t else "") + win_text(g, w1)
    elif w1 is None and w0 is not None:
        t = (t + "; " if t else "") + "no side has won any more, the game goes on"
    return t


def with_consequences(text, before, g, ev=None, after=None):
    """``text`` (an event's sentence) followed by its :func:`consequences`: "Troop Transport
    leaves by the far edge: the Rebels win." (a new sentence when the text has a colon
    already: "Next phase: round 4, initiative. Troop Transport is destroyed: the Empire
    wins."). Every host view that applies events uses it."""
    c = consequences(before, g, ev, after) if before is not None else ""
    if not c:
        return text
    t = text.rstrip()
    if t.endswith("."):
        t = t[:-1]
    if ":" in t:
        return "%s. %s." % (t, c[0].upper() + c[1:])
    return "%s: %s." % (t, c)


# ---- a ship's state in words (the simulator, mirror, web page and report say the same) -----


def ship_state(g, i):
    """Ship ``i``'s state in words, the same in every host view: "destroyed"; "exited" (left
    by the far table edge, seed 004 Victory: it stays out for the game); "in the fighter pool"
    (an Infinite fighter not on the map: a destroyed one goes back there, digest 2.2, W1);
    "aboard" (a fighter not launched yet); else "ok" or "damaged", followed by the words of
    the first of the ruleset's ``STATE_WORDS`` flags that holds (smb: ", ionized" while the
    Ion Cannon's hit holds it, seed 004 Escape from Hoth, or ", ionized next round")."""
    from referee.fleet import F_LAUNCHED, STATUS_NAMES

    if g.destroyed(i):
        return "destroyed"
    f2 = g.rule_flags[i]
    ex = _flag_bit(g, "exited")
    if ex and f2 & ex:
        return "exited"
    if not g.flags[i] & F_LAUNCHED:
        return "in the fighter pool" if g.rules.from_pool(g, i) else "aboard"
    t = STATUS_NAMES[g.status(i)]
    for flag, words in getattr(g.rules, "STATE_WORDS", ()):  # the first that holds
        if f2 & _flag_bit(g, flag):
            return t + ", " + words
    return t


def shows(g):
    """What the host views show of a ship in game ``g``'s ruleset, so none shows a figure the
    ruleset does not use: ``class`` when the ruleset reads a ship's class (its
    ``USES_CLASS``: seed 000's Fly Casual and Power to Engines name classes; in smb the class
    is the miniature's, display only); ``counters`` when it has a fleet command chart (its
    ``options``: seed 000 "Fleet Command"). Hit points are said per ship (:func:`hit_points`).
    """
    p = g.rules
    return {"class": bool(p.USES_CLASS), "counters": bool(p.options)}


def hit_points(g, i):
    """Ship ``i``'s hit points as its card gives them: "6/4" (undamaged/damaged, digest 2.2)
    or "3" for a ship with one number (every ship of smb, squadrons-d6 and xwing-overlap,
    most fighters)."""
    return "%d/%d" % (g.hp1[i], g.hp2[i]) if g.hp2[i] else "%d" % g.hp1[i]


def add_states(snap, g):
    """Put each ship's :func:`ship_state` into snapshot ``snap`` (a dict of views.snapshot) as
    ``state``, what the views show (:func:`shows`) as ``shows`` and whether each side's name
    is a plural (:func:`is_plural`, for the web page's verbs) as ``side_plural``; returns
    ``snap``."""
    for d in snap["ships"]:
        d["state"] = ship_state(g, d["i"])
    snap["shows"] = shows(g)
    snap["side_plural"] = [is_plural(n) for n in g.side_names]
    return snap
