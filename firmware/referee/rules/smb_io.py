"""What the smb ruleset (seed 004, ``004_e5d94d5ce87da14f.txt``) says and hears: its events'
texts, the serial commands and view fields of docs/protocol.md, and its pad actions. Functions
of (rules, ...) called by rules/smb.py, which imports this module on first use."""

from referee.rules.d20 import D20Rules
from referee.rules.smb import (EV_POWER, EV_MOVE, EV_RESPONSE, EV_EXIT, EV_ION, W_CAPITAL,
                               W_HEAVY, W_RAPID, ION_NEXT, ION_NOW, X_BURSTS, EXITED, X_PORT)

FACINGS = ("front", "side", "rear")


def view(rules, g):
    """The game's view (dict, the ``snap`` line's): the d20 rules' and smb's own fields."""
    r = D20Rules.view(rules, g)
    r["ionized"] = [i for i in range(g.n) if g.fl2[i] & (ION_NEXT | ION_NOW)]
    r["ion_bursts"] = g.x[X_BURSTS]
    r["exited"] = [i for i in range(g.n) if g.fl2[i] & EXITED]
    r["port"] = g.x[X_PORT] - 1 if g.x[X_PORT] else None
    return r


def event_text(rules, g, ev, live=True):
    """A line of text for event ``ev`` (str; the ruleset's own kinds, else the d20 rules')."""
    k, a, b, c = ev
    nm = g.names
    if k == EV_POWER:
        return "%s makes a full-power move." % nm[a]
    if k == EV_MOVE:
        return "%s makes a %s move." % (nm[a], ("?", "standard", "full-power",
                                               "fighter attack")[b & 3])
    if k == EV_RESPONSE:
        return "%s responds to %s with %s." % (nm[a], nm[c], "a countermove" if b & 3 == 1
                                               else "rapid fire")
    if k == EV_EXIT:
        return "%s %s." % (nm[a], "leaves by the far edge" if b == 1
                           else "hits the target port")
    if k == EV_ION:
        t = "The Ion Cannon fires at %s (%s facing): d20 %d" % (
            nm[a], FACINGS[c] if c < 3 else "?", b)
        if live and g.x[0] and g.x[1] == b:
            t += ", total %d: %s" % (g.x[2], "hit" if g.x[0] == 1 else "miss")
        return t + "."
    return D20Rules.event_text(rules, g, ev, live)


def aim_text(weapon, arg):
    """The weapon and facing an aim names (str), e.g. "heavy weapons at the side facing"."""
    w = {W_CAPITAL: "capital weapons", W_HEAVY: "heavy weapons",
         W_RAPID: "rapid-fire weapons"}.get(weapon, "weapon %d" % weapon)
    return "%s at the %s facing" % (w, FACINGS[arg] if arg < 3 else "?")


def command(rules, link, c, msg):
    """The event (tuple) of serial command ``c`` (docs/protocol.md, smb). ValueError naming
    the field when one is missing or out of range."""
    ia = link.int_arg
    if c == "move":
        return (EV_MOVE, link.ship_arg(msg), ia(msg, "mode", 1, 1, 3), 0)
    if c == "respond":
        kind = ia(msg, "kind", None, 1, 2) | (4 if msg.get("behind") else 0)
        return (EV_RESPONSE, link.ship_arg(msg), kind, link.ship_arg(msg, "mover"))
    if c == "exit":
        return (EV_EXIT, link.ship_arg(msg), ia(msg, "kind", None, 1, 2), 0)
    if c == "ion":
        return (EV_ION, link.ship_arg(msg), link.roll_arg(msg), ia(msg, "facing", None, 0, 2))
    if c == "power":
        return (EV_POWER, link.ship_arg(msg), 0, 0)
    return D20Rules.command(rules, link, c, msg)


def pad_event(rules, app, what, i, m):
    """The event (tuple) of pad action ``what`` on ship ``i`` (``m``: the marked ship)."""
    if what == "move":
        return (EV_MOVE, i, 1, 0)
    if what == "power":
        return (EV_POWER, i, 0, 0)
    if what == "rapid":
        return (EV_RESPONSE, m, 2, i)
    if what == "counter":
        return (EV_RESPONSE, m, 1, i)
    if what == "exit":
        return (EV_EXIT, i, 1, 0)
    if what == "port":
        return (EV_EXIT, i, 2, 0)
    if what == "ion":
        return (EV_ION, i, app.dice.d20(), 0)
    return D20Rules.pad_event(rules, app, what, i, m)
