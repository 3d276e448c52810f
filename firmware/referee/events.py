"""Events: the core kinds and the one place an event is packed into and read from bytes.

An event is a tuple of four ints ``(kind, a, b, c)``, stored as 4 bytes: kind, a, b & 255, c.
``b`` is signed only for EV_HIT (negative points remove pending damage); every other kind keeps
``b`` in 0..255. The core kinds are below; a ruleset declares its own kinds (numbers 8 and up)
in its module (``referee/rules/``), with their names, checks, effects and texts.

====================  =========================================  ===========================
kind                  a, b, c                                    rule
====================  =========================================  ===========================
EV_INIT (1)           roll of side 0, roll of side 1, source      initiative (ruleset ``tie``)
                      (0 = board's dice, 1 = physical dice)
EV_HIT (2)            ship, points (+ mark, - remove pending),    damage, hit points X/Y
                      attacker ship or 255
EV_COUNTER (3)        source ship, option index, ship it is for   fleet command
EV_PHASE (4)          0, 0, 0                                     phase order, end of round
EV_UNDO (5)           0, 0, 0                                     reverts the newest change
                                                                  not yet undone
EV_LAUNCH (7)         ship, 0, 0                                  fighter launched
====================  =========================================  ===========================

Kind 6 (full-power) and kinds 8.. belong to the rulesets that declare them, except EV_CLOCK
(40): the time banks' charge (referee/clock.py), in games whose settings switch clocks on.
"""

EV_INIT = 1
EV_HIT = 2
EV_COUNTER = 3
EV_PHASE = 4
EV_UNDO = 5
EV_LAUNCH = 7
EV_CLOCK = 40  # time banks (referee/clock.py, imported only by games with clocks)

CORE_NAMES = {
    EV_INIT: "initiative",
    EV_HIT: "hit",
    EV_COUNTER: "counter",
    EV_PHASE: "phase",
    EV_UNDO: "undo",
    EV_LAUNCH: "launch",
}

NONE = 255  # "no ship" / "no side" in a byte


def pack_into(buf, ev):
    """Append event ``ev`` (4 ints) to bytearray ``buf`` as its 4 bytes."""
    buf.append(ev[0])
    buf.append(ev[1])
    buf.append(ev[2] & 255)
    buf.append(ev[3])


def unpack(buf, o):
    """The event stored at byte offset ``o`` of ``buf`` as a tuple (b signed for EV_HIT)."""
    b = buf[o + 2]
    if buf[o] == EV_HIT and b >= 128:
        b -= 256
    return (buf[o], buf[o + 1], b, buf[o + 3])


def valid(ev):
    """None when ``ev`` has the shape of an event (4 ints in range), else the reason (str)."""
    try:
        kind, a, b, c = ev
    except (TypeError, ValueError):
        return "an event is 4 integers"
    for v in ev:
        if not isinstance(v, int) or isinstance(v, bool):
            return "an event is 4 integers"
    if not (0 <= kind <= 255 and 0 <= a <= 255 and -127 <= b <= 255 and 0 <= c <= 255):
        return "event values out of range"
    if b < 0 and kind != EV_HIT:
        return "event values out of range"
    return None
