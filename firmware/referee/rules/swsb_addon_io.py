"""What the swsb-addon ruleset (seed 001, ``001_a2238b11b3f70e84.txt``) says and hears: the
view's activation fields, its events' texts, the serial commands ``move`` and ``choose`` of
docs/protocol.md, and its pad actions (turns counted for a move, who moves first, the
Proximity Override counter). Functions of (rules, ...) called by rules/swsb_addon.py, which
imports this module on first use."""

from referee.events import NONE, EV_COUNTER
from referee.rules import swsb
from referee.rules.base import EV_MOVE
from referee.rules.swsb_addon_defs import EV_CHOOSE, X_FIRST, X_TURN, range_band


def view(rules, g):
    """The swsb view with the activation: ``first_side`` (chosen to move first, or None),
    ``acting_side`` (whose activation it is, or None) and ``yet_to_act`` (ship indices)."""
    r = swsb.Rules.view(rules, g)
    r["first_side"] = g.game_state[X_FIRST] - 1 if g.game_state[X_FIRST] else None
    r["acting_side"] = g.game_state[X_TURN] if g.game_state[X_FIRST] else None
    r["yet_to_act"] = [i for i in range(g.n) if rules.yet_to_act(g, i)]
    return r


def event_text(rules, g, ev, live):
    """The sentence of event ``ev``: a move with its turns, the choice of who moves first,
    else as swsb says it."""
    k, a, _b, c = ev
    if k == EV_MOVE:
        return "%s moves, making %s." % (
            g.names[a],
            "no turns" if c == 0 else "1 turn" if c == 1 else "%d turns" % c,
        )
    if k == EV_CHOOSE:
        from referee.texts import says

        return "%s to move first." % says(g.side_names[a], "chooses")
    return swsb.Rules.event_text(rules, g, ev, live)


def aim_text(weapon, arg):
    """An aim said in words: point defense, or the primary weapon at ``arg`` inches."""
    if weapon == swsb.W_PD:
        return "point defense"
    return "primary weapon at %d inches (range band %d)" % (arg, range_band(arg))


def command(rules, link, c, msg):
    """The event of serial command ``c``: ``move`` (ship, mode 1, turns 0..9), ``choose``
    (side), else as swsb hears it."""
    if c == "move":
        return (
            EV_MOVE,
            link.ship_arg(msg),
            link.int_arg(msg, "mode", 1, 1, 1),
            link.int_arg(msg, "turns", 0, 0, 9),
        )
    if c == "choose":
        return (EV_CHOOSE, link.int_arg(msg, "side", None, 0, 1), 0, 0)
    return swsb.Rules.command(rules, link, c, msg)


def override_source(pad, i):
    """The ship a Proximity Override counter for ship ``i`` comes from on the pad: the
    marked ship of its side (as marked, a wrong class is refused), else a ship of its side
    and class with counters left ("a Command token of the appropriate Class", seed 001),
    else the pad's usual source."""
    g = pad.referee.game
    src = pad.counter_source()
    m = pad.referee.mark
    if g.cls[src] == g.cls[i] or (m != NONE and g.side[m] == g.side[i]):
        return src
    for k in range(g.n):
        if (
            g.side[k] == g.side[i]
            and g.cls[k] == g.cls[i]
            and g.counters[k]
            and not g.destroyed(k)
        ):
            return k
    return src


def pad_label(rules, g, action):
    """The label of pad ``action``: alt4 chooses who moves first, then plays the Proximity
    Override; alt2 aims (a ship marked) or counts a turn (none marked)."""
    if action == "alt4":
        return "choose/override"  # who moves first, then Proximity Override
    if action == "alt2":
        return "aim/turn+"  # marked: the next aim; unmarked: a turn more
    return swsb.Rules.pad_label(rules, g, action)


def pad_event(rules, pad, what, i, m):
    """Seed 001 "Movement": "Units can make one turn per Class number": ``aim`` with no
    ship marked counts one more turn for the next ``move`` (``pad.count2``, counted afresh
    for every move); marked, it picks the marked ship's aim (pad.Pad)."""
    if what == "aim":
        pad.count2 = (pad.count2 + 1) % 10
        return None
    if what == "move":
        turns = pad.count2
        pad.count2 = 0
        return (EV_MOVE, i, 1, turns)
    if what == "choose":  # once chosen: the Proximity Override counter (option 5)
        if pad.referee.game.game_state[X_FIRST]:
            return (EV_COUNTER, override_source(pad, i), len(rules.options) - 1, i)
        return (EV_CHOOSE, pad.referee.game.side[i], 0, 0)
    return swsb.Rules.pad_event(rules, pad, what, i, m)
