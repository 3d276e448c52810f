"""What the smb ruleset (seed 004, ``004_e5d94d5ce87da14f.txt``) says and hears: its events'
texts, the serial commands and view fields of docs/protocol.md, and its pad actions. Functions
of (rules, ...) called by rules/smb.py, which imports this module on first use."""

from referee.events import NONE
from referee.rules.base import EV_MOVE
from referee.rules.d20 import D20Rules
from referee.rules.smb_defs import (
    EV_EXIT,
    EV_ION,
    EV_POWER,
    EV_RESPONSE,
    EXITED,
    ION_NEXT,
    ION_NOW,
    W_CAPITAL,
    W_HEAVY,
    W_RAPID,
    X_BURSTS,
    X_PORT,
)

FACINGS = ("front", "side", "rear")


def view(rules, g):
    """The game's view (dict, the ``snap`` line's): the d20 rules' and smb's own fields."""
    r = D20Rules.view(rules, g)
    r["ionized"] = [i for i in range(g.n) if g.rule_flags[i] & (ION_NEXT | ION_NOW)]
    r["ion_bursts"] = g.game_state[X_BURSTS]
    r["exited"] = [i for i in range(g.n) if g.rule_flags[i] & EXITED]
    r["port"] = g.game_state[X_PORT] - 1 if g.game_state[X_PORT] else None
    return r


def event_text(rules, g, ev, live=True):
    """A line of text for event ``ev`` (str; the ruleset's own kinds, else the d20 rules')."""
    k, a, b, c = ev
    nm = g.names
    if k == EV_POWER:
        return "%s makes a full-power move." % nm[a]
    if k == EV_MOVE:
        return "%s makes a %s move%s." % (
            nm[a],
            ("?", "standard", "full-power", "fighter attack")[b & 3],
            "" if not c else " (1 turn)" if c == 1 else " (%d turns)" % c,
        )
    if k == EV_RESPONSE:
        return "%s responds to %s with %s." % (
            nm[a],
            nm[c],
            "a countermove" if b & 3 == 1 else "rapid fire",
        )
    if k == EV_EXIT:
        return "%s %s." % (nm[a], "leaves by the far edge" if b == 1 else "hits the target port")
    if k == EV_ION:
        t = "The Ion Cannon fires at %s (%s facing): d20 %d" % (
            nm[a],
            FACINGS[c] if c < 3 else "?",
            b,
        )
        if live and g.game_state[0] and g.game_state[1] == b:
            t += ", total %d: %s" % (g.game_state[2], "hit" if g.game_state[0] == 1 else "miss")
        return t + "."
    return D20Rules.event_text(rules, g, ev, live)


def aim_text(weapon, arg):
    """The weapon and facing an aim names (str), e.g. "heavy weapons at the side facing"."""
    w = {
        W_CAPITAL: "capital weapons",
        W_HEAVY: "heavy weapons",
        W_RAPID: "rapid-fire weapons",
    }.get(weapon, "weapon %d" % weapon)
    return "%s at the %s facing" % (w, FACINGS[arg] if arg < 3 else "?")


def command(rules, link, c, msg):
    """The event (tuple) of serial command ``c`` (docs/protocol.md, smb). ValueError naming
    the field when one is missing or out of range."""
    ia = link.int_arg
    if c == "move":
        return (EV_MOVE, link.ship_arg(msg), ia(msg, "mode", 1, 1, 3), ia(msg, "turns", 0, 0, 9))
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


def pad_event(rules, pad, what, i, m):
    """The event (tuple) of pad action ``what`` on ship ``i`` (``m``: the marked ship). Seed
    004 "Movement Phase": ``move`` on the marked ship itself is its Fighter Attack ("2 spaces
    straight forward, but the fighter can fire any heavy or rapid weapons"), else a standard
    move. "The Ion Cannon" (Escape from Hoth): ``aim`` with no ship marked turns the cannon to
    the next facing (``pad.count``: 0 front, 1 side, 2 rear; kept until aimed again), and
    ``ion`` fires it at that facing of the selected ship with the physical d20 entered with
    ``enter``, else the board's. ``turn/behind`` counts one more turn of 90 degrees for the next
    ``move`` ("one turn of 90 degrees", two for fighters and cruisers; ``pad.count2``, counted
    afresh for every move); before a response it says the mover ended in the space directly
    behind the responder ("Countermoves": kind + 4, as serial ``behind``). ``exit/port`` on
    the marked ship itself is its hit on the target port, else it leaves by the far edge."""
    if what == "turn/behind":
        pad.count2 = (pad.count2 + 1) % 10
        return None
    turns = pad.count2
    if what in ("move", "rapid", "counter"):
        pad.count2 = 0
    if what == "move":
        return (EV_MOVE, i, 3 if i == m else 1, turns)
    if what == "aim" and m == NONE:
        if not pad.referee.game.extras.get("ion_cannon"):
            return "mark the acting ship first (mark), then select the target"
        pad.count = (pad.count + 1) % 3
        return None
    if what == "power":
        return (EV_POWER, i, 0, 0)
    if what == "rapid":
        return (EV_RESPONSE, m, 6 if turns else 2, i)
    if what == "counter":
        return (EV_RESPONSE, m, 5 if turns else 1, i)
    if what == "exit/port":
        return (EV_EXIT, i, 2 if i == m else 1, 0)
    if what == "ion":
        return (EV_ION, i, pad.pad_d20(), pad.count % 3)
    return D20Rules.pad_event(rules, pad, what, i, m)
