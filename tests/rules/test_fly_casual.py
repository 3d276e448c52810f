"""Fly Casual avoids a whole hit (seed 000, `../shared/seeds/000_baeb94c29db4f7aa.txt`, FAQ
"Specific Fleet Command Questions": "Does Fly Casual allow any ship to avoid a hit (not just
class 3 starships)? Can it be used more than once per round? No and no."; rules digest 2.2: a
hit may deal more than 1 point, and 1.2: pending damage lands in the damage phase).

Played on the in-process referee of the swsb example scenario through its serial lines
(docs/protocol.md) and its pad keys (``Referee.pad.key``). Expected outcomes are worked out
from the seed in each docstring, never copied from the board. The example's ships (index):
0 Mon Calamari Cruiser (class 2), 1 Millennium Falcon (class 3, hp 3/2: 5 points), 5
Imperial Star Destroyer, 6 Slave I (class 3, 1 counter). With the rolls 2 / 18 the Dark Side
holds the initiative and fires first. Which hit is avoided when several are pending is the
ruleset's reading: the newest (the one Fly Casual answers; docs/rules.md, swsb).
"""

import json

from referee.events import EV_COUNTER
from referee.texts import event_text
from support.game import make_referee

CRUISER, FALCON, ISD, SLAVE = 0, 1, 5, 6
FLY_CASUAL = 0


def start(scenario="swsb-example", **load):
    """A referee with ``scenario`` loaded (``load``: more fields of its `load` line) and the
    initiative rolled (2 / 18: the Dark Side holds it); returns (referee, its output lines)."""
    a, out = make_referee(scenario)
    if load:
        send(a, out, dict({"c": "load", "scenario": scenario}, **load))
    ok(a, out, c="roll", values=[2, 18])
    return a, out


def send(a, out, msg):
    """The lines the board answers serial message ``msg`` with (dicts)."""
    n = len(out)
    a.link.handle_line(json.dumps(msg))
    return [json.loads(x) for x in out[n:]]


def ok(a, out, **msg):
    lines = send(a, out, msg)
    assert not [m for m in lines if m["t"] == "err"], lines
    return lines


def refused(a, out, **msg):
    """The one ``err`` line a refused message gets; the state is unchanged."""
    before = (a.game.seq, a.game.state_hash())
    lines = send(a, out, msg)
    assert [m["t"] for m in lines] == ["err"], lines
    assert (a.game.seq, a.game.state_hash()) == before
    return lines[0]["msg"]


def to_phase(a, out, name):
    while a.game.phase_name() != name:
        ok(a, out, c="phase")


def pending(a, i=FALCON):
    return a.game.pending[i]


def test_a_two_point_hit_is_avoided_whole():
    """The Star Destroyer hits the Falcon for 2 points: 2 pending. Fly Casual avoids "a hit":
    the whole hit, both points: 0 pending. The event says so."""
    a, out = start()
    to_phase(a, out, "attack")
    ok(a, out, c="hit", ship=FALCON, n=2, by=ISD)
    assert pending(a) == 2
    ok(a, out, c="counter", ship=FALCON, option="Fly Casual")
    assert pending(a) == 0
    g = a.game
    assert event_text(g, g.event(g.seq)) == (
        "Millennium Falcon plays a fleet command counter (Fly Casual) for Millennium Falcon: "
        "Millennium Falcon avoids a hit of 2 damage points (0 pending now)."
    )


def test_of_two_one_point_hits_one_is_avoided():
    """Two hits of 1 point: 2 pending. Fly Casual avoids one hit, the other stays: 1."""
    a, out = start()
    to_phase(a, out, "attack")
    ok(a, out, c="hit", ship=FALCON, n=1)
    ok(a, out, c="hit", ship=FALCON, n=1)
    ok(a, out, c="counter", ship=FALCON, option=FLY_CASUAL)
    assert pending(a) == 1


def test_the_newest_of_hits_of_different_sizes_is_avoided():
    """A hit of 1 then a hit of 2: 3 pending. Fly Casual avoids the newest hit, the 2-point
    one: the 1-point hit stays (1). The other way round (2, then 1) the 2-point hit stays."""
    a, out = start()
    to_phase(a, out, "attack")
    ok(a, out, c="hit", ship=FALCON, n=1)
    ok(a, out, c="hit", ship=FALCON, n=2)
    ok(a, out, c="counter", ship=FALCON, option=FLY_CASUAL)
    assert pending(a) == 1
    a, out = start()
    to_phase(a, out, "attack")
    ok(a, out, c="hit", ship=FALCON, n=2)
    ok(a, out, c="hit", ship=FALCON, n=1)
    ok(a, out, c="counter", ship=FALCON, option=FLY_CASUAL)
    assert pending(a) == 2


def test_a_hit_cut_short_by_the_ships_points_is_avoided_as_marked():
    """The Falcon has 5 points (3/2). A hit of 3 (3 pending), then a hit of 4: only 2 more
    points can be marked (5 pending, lethal). Avoiding that hit takes back what it marked,
    2 points: the first hit's 3 stay."""
    a, out = start()
    to_phase(a, out, "attack")
    ok(a, out, c="hit", ship=FALCON, n=3)
    ok(a, out, c="hit", ship=FALCON, n=4)
    assert pending(a) == 5
    ok(a, out, c="counter", ship=FALCON, option=FLY_CASUAL)
    assert pending(a) == 3


def test_undo_of_the_avoid_brings_the_hit_back():
    """A 2-point hit avoided (0 pending); undo takes the Fly Casual back: the hit is pending
    again (2) and the counter is back on the Falcon's card (2 of 2), so Fly Casual may be
    played again and again avoids all of it."""
    a, out = start()
    to_phase(a, out, "attack")
    ok(a, out, c="hit", ship=FALCON, n=2, by=ISD)
    ok(a, out, c="counter", ship=FALCON, option=FLY_CASUAL)
    assert pending(a) == 0 and a.game.counters[FALCON] == 1
    ok(a, out, c="undo")
    assert pending(a) == 2 and a.game.counters[FALCON] == 2
    ok(a, out, c="counter", ship=FALCON, option=FLY_CASUAL)
    assert pending(a) == 0


def test_undo_of_the_newest_hit_leaves_the_one_before_to_avoid():
    """A hit of 2 then a hit of 1 (3 pending); undo takes back the 1-point hit (2 pending).
    The newest hit is now the 2-point one: Fly Casual avoids it, 0 pending."""
    a, out = start()
    to_phase(a, out, "attack")
    ok(a, out, c="hit", ship=FALCON, n=2)
    ok(a, out, c="hit", ship=FALCON, n=1)
    ok(a, out, c="undo")
    assert pending(a) == 2
    ok(a, out, c="counter", ship=FALCON, option=FLY_CASUAL)
    assert pending(a) == 0


def test_nothing_pending_to_avoid_is_refused_with_one_line():
    """No hit on the Falcon yet: there is no hit to avoid. The counter is refused with one
    line naming the option and the ship, and nothing changes (the counter stays)."""
    a, out = start()
    to_phase(a, out, "attack")
    msg = refused(a, out, c="counter", ship=FALCON, option=FLY_CASUAL)
    assert msg == "Fly Casual: no hit on Millennium Falcon to avoid"
    assert a.game.counters[FALCON] == 2


def test_hits_across_phases_and_rounds():
    """Round 1: a hit of 2 in the point defense step, a hit of 1 in the attack step (3
    pending); Fly Casual avoids the newest, the 1-point hit: 2 pending, which land in the damage
    phase (damage 2, 0 pending). Round 2: the chart is clear again (once per round); a hit of
    2 avoided whole: the Falcon keeps its 2 damage, 0 pending. A second Fly Casual in round 2
    is refused (the Falcon had 2 counters, and the option holds one this round)."""
    a, out = start()
    to_phase(a, out, "attack-pd")
    ok(a, out, c="hit", ship=FALCON, n=2)
    to_phase(a, out, "attack")
    ok(a, out, c="hit", ship=FALCON, n=1, by=ISD)
    ok(a, out, c="counter", ship=FALCON, option=FLY_CASUAL)
    assert pending(a) == 2
    to_phase(a, out, "damage")
    assert (a.game.dmg[FALCON], pending(a)) == (2, 0)
    ok(a, out, c="phase")
    ok(a, out, c="roll", values=[2, 18])
    to_phase(a, out, "attack")
    ok(a, out, c="hit", ship=FALCON, n=2, by=ISD)
    ok(a, out, c="counter", ship=FALCON, option=FLY_CASUAL)
    assert (a.game.dmg[FALCON], pending(a)) == (2, 0)
    ok(a, out, c="hit", ship=FALCON, n=1)
    refused(a, out, c="counter", ship=FALCON, option=FLY_CASUAL)
    assert pending(a) == 1


def test_the_pad_avoids_the_whole_hit():
    """On the pad with damage_per_hit 2 (one dmg+ press is one hit of 2 points): the Falcon
    selected, dmg+ marks a 2-point hit (2 pending); opt1 (Fly Casual, the Falcon's own
    counter) avoids it whole: 0 pending, one EV_COUNTER for the Falcon logged."""
    a, out = start(settings={"damage_per_hit": 2})
    to_phase(a, out, "attack")
    while a.pad.cursor != FALCON:
        a.pad.key("sel+")
    assert a.pad.key("dmg+") is None
    assert pending(a) == 2
    assert a.pad.key("opt1") is None
    assert pending(a) == 0
    assert a.game.event(a.game.seq) == (EV_COUNTER, FALCON, FLY_CASUAL, FALCON)


def test_the_addon_rules_avoid_the_whole_hit_too():
    """swsb-addon (seed 001) plays seed 000's Fly Casual: a hit of 2 on its class 3 ship
    avoided leaves 0 pending."""
    a, out = make_referee("swsb-addon-example")
    g = a.game
    c3 = next(i for i in range(g.n) if g.cls[i] == 3 and g.counters[i])
    ok(a, out, c="roll", values=[2, 18])
    ok(a, out, c="phase")
    ok(a, out, c="choose", side=0)  # the initiative holder has one side move first
    to_phase(a, out, "attack")
    ok(a, out, c="hit", ship=c3, n=2)
    assert pending(a, c3) == 2
    ok(a, out, c="counter", ship=c3, option=FLY_CASUAL)
    assert pending(a, c3) == 0


def test_a_ruleset_with_an_avoid_option_keeps_the_newest_hit():
    """The core takes the avoided hit from the ruleset's ``HIT_BYTE`` (rules/base.py): every
    ruleset whose chart has an option that avoids a hit names one of its own state bytes, one
    that no other part of its state uses (the aim and, in swsb-addon, the inches come first);
    the rulesets without such an option keep none (their state bytes are as before)."""
    from referee import rules
    from referee.rules.base import EFFECT_AVOID

    for name in rules.RULESETS:
        p = rules.get(name)
        if any(o.effect == EFFECT_AVOID for o in p.options):
            assert p.HIT_BYTE == p.SHIP_BYTES - 1 >= 0, name
        else:
            assert p.HIT_BYTE == -1, name
