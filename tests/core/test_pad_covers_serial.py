"""Every event kind the serial protocol accepts in a ruleset can also be made on the pad, or
the table below says why not (docs/protocol.md "Events", docs/script.md). Each pad entry is a
list of pad actions pressed on the ruleset's example game (``Ruleset.example``) after a few
serial lines that bring it to where the action makes sense (the weapon the pad's ``aim``
chose is logged when the marked ship acts: ``alt1``, attack, and only if the act is
accepted); the test holds that the pad
submits an event of that kind (whether the rules then accept it depends on the table, as for
the same serial command)."""

import json

import pytest

from support.game import make_referee
from support.registries import rulesets_missing_from
from referee import rules as rulesets
from referee.events import EV_CLOCK
from referee.events import EV_INIT, EV_HIT, EV_COUNTER, EV_PHASE, EV_UNDO, EV_LAUNCH

CORE = (EV_INIT, EV_HIT, EV_COUNTER, EV_PHASE, EV_UNDO, EV_LAUNCH)
CLOCK = (
    "made by the time banks themselves (docs/clock.md): no player enters it, over serial "
    "or on the pad (`clock` only pauses and resumes them)"
)
NO_CHART = "the ruleset has no fleet command chart: serial `counter` is refused too"
NO_ROLL = "the ruleset has no initiative roll: serial `roll` is refused too"
ROLL = [{"c": "roll", "values": [12, 3]}]
MOVING = ROLL + [{"c": "phase"}]
# where the marked ship's attack is accepted, so the aim the pad chose is logged with it (a
# refused attack logs no aim: all or nothing): swsb's point defense step; swsb-addon's attack
# phase once the winner chose and every ship on the table moved; hoth's capital weapons phase
# (Rebels first; the TIE Fighters are still aboard)
SWSB_FIRING = MOVING + [{"c": "phase"}]
ADDON_FIRING = MOVING + [{"c": "choose", "side": 0}]
ADDON_FIRING += [{"c": "move", "ship": i} for i in (0, 1, 4, 5)] + [{"c": "phase"}]
SMB_FIRING = [{"c": "roll", "values": [3, 12]}, {"c": "phase"}]
SMB_FIRING += [{"c": "move", "ship": i} for i in (4, 5, 6, 0)] + [{"c": "phase"}]

# kind -> (serial lines first, pad actions) or the reason (str) there is no pad action
# the core's kinds on the pad of the swsb family (an initiative roll, a fleet command chart)
SWSB_CORE = {
    EV_INIT: ([], ["roll"]),
    EV_HIT: ([], ["dmg+"]),
    EV_COUNTER: (MOVING, ["opt2"]),
    EV_PHASE: ([], ["phase"]),
    EV_UNDO: (ROLL, ["undo"]),
    EV_LAUNCH: ([], ["launch"]),
}
# ... and of the rulesets without an initiative roll or a chart
NO_ROLL_CORE = {
    EV_INIT: NO_ROLL,
    EV_HIT: ([], ["dmg+"]),
    EV_COUNTER: NO_CHART,
    EV_PHASE: ([], ["phase"]),
    EV_LAUNCH: ([], ["launch"]),
}
TABLE = {
    "swsb": {
        **SWSB_CORE,
        8: (SWSB_FIRING, ["mark", "side", "alt2", "alt1"]),
        9: ([], ["mark", "side", "alt1"]),
        10: ([], ["mark", "sel+", "alt3"]),
        15: ([], ["alt4"]),
        EV_CLOCK: CLOCK,
    },
    "swsb-addon": {
        **SWSB_CORE,
        8: (ADDON_FIRING, ["mark", "side", "alt2", "alt1"]),
        9: ([], ["mark", "side", "alt1"]),
        10: "Emperor's Will (swsb's `transfer`) has no key here: alt1-alt4 are attack, aim, "
        "done and choose / Proximity Override, and no example ship has emperors_will",
        11: (MOVING, ["power"]),
        14: (MOVING, ["alt4"]),
        15: ([], ["alt3"]),
        EV_CLOCK: CLOCK,
    },
    "squadrons-d6": {
        **NO_ROLL_CORE,
        EV_UNDO: ([{"c": "move", "ship": 0}], ["undo"]),
        11: ([], ["opt1"]),
        EV_CLOCK: CLOCK,
    },
    "xwing-overlap": {
        **NO_ROLL_CORE,
        EV_UNDO: ([{"c": "phase"}], ["undo"]),
        13: ([], ["mark", "side", "opt1"]),
        EV_CLOCK: CLOCK,
    },
    "smb": {
        EV_INIT: ([], ["roll"]),
        EV_HIT: ([], ["dmg+"]),
        EV_COUNTER: NO_CHART,
        EV_PHASE: ([], ["phase"]),
        EV_UNDO: (ROLL, ["undo"]),
        EV_LAUNCH: ([], ["launch"]),
        6: ([], ["power"]),
        8: (SMB_FIRING, ["mark", "side", "alt2", "alt1"]),
        9: ([], ["mark", "side", "alt1"]),
        11: ([], ["opt1"]),
        12: ([], ["mark", "side", "opt2"]),
        16: ([], ["alt4"]),
        17: ([], ["alt3"]),
        EV_CLOCK: CLOCK,
    },
}


def serial_kinds(rs):
    """The event kinds a serial line can put in a game of ruleset ``rs``: the core's (`roll`,
    `hit`, `counter`, `phase`, `undo`, `launch`), the ruleset's own (its commands, `append`)
    and the time banks' (`append`)."""
    return set(CORE) | set(rs.EVENTS) | {EV_CLOCK}


def test_the_table_names_every_ruleset():
    missing = rulesets_missing_from(TABLE)
    assert not missing, (
        "TABLE in tests/core/test_pad_covers_serial.py has no row for %s: add one mapping "
        "every event kind serial can make in the ruleset (%s) to (serial lines first, pad "
        "actions) that make it on the pad, or to the reason the pad has none "
        "(CONTRIBUTING.md, 'A new ruleset', step 6)"
        % (
            missing,
            "; ".join("%s: %s" % (n, sorted(serial_kinds(rulesets.get(n)))) for n in missing),
        )
    )
    unknown = sorted(set(TABLE) - set(rulesets.RULESETS))
    assert not unknown, "TABLE names rulesets not in RULESETS: %s" % unknown


@pytest.mark.parametrize("name", sorted(TABLE))
def test_every_serial_event_kind_has_a_pad_action_or_a_reason(name):
    rs = rulesets.get(name)
    table = TABLE[name]
    kinds = serial_kinds(rs)
    where = "TABLE[%r] in tests/core/test_pad_covers_serial.py" % name
    missing = sorted(kinds - set(table))
    assert not missing, (
        "%s: add the event kinds %s, each with the serial lines and pad actions that make it "
        "on the pad, or the reason the pad has none" % (where, missing)
    )
    extra = sorted(set(table) - kinds)
    assert not extra, "%s: drop the event kinds %s, which serial cannot make" % (where, extra)
    for kind, how in sorted(table.items()):
        if isinstance(how, str):
            assert len(how) > 20, (name, kind)
            continue
        lines, keys = how
        a, out = make_referee(rs.example)
        for obj in lines:
            a.link.handle_line(json.dumps(obj))
            assert json.loads(out[-1])["t"] != "err", (name, obj, out[-1])
        seen = []
        submit = a.submit

        def spy(ev, origin="key", cmd=None):
            seen.append(ev[0])
            return submit(ev, origin, cmd)

        a.submit = spy
        for k in keys:
            a.pad.key(k)
        assert kind in seen, (name, kind, keys, seen, out[-1])
