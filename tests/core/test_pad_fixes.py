"""smb (seed 004, `../shared/seeds/004_e5d94d5ce87da14f.txt`) at the table: the Fighter Attack
move and the Ion Cannon's facing and physical die on the pad, and the turns of a move over
serial. Outcomes worked out by hand from the seed's text and its scenario tables; played on
the in-process referee through its pad keys (``Referee.pad.key``, the board's action names) and
serial lines (docs/protocol.md)."""

import json
import os

from support import ROOT
from support.process import cli
from support.game import make_referee

HOTH_SD, HOTH_TRANSPORT, HOTH_XW1 = 0, 4, 5
DS_TIE1, DS_YW1 = 0, 6


def line(a, out, obj):
    a.link.handle_line(json.dumps(obj))
    return json.loads(out[-1])


def ok(a, out, **obj):
    r = line(a, out, obj)
    assert r["t"] != "err", r
    return r


def press(a, *actions):
    for k in actions:
        r = a.pad.key(k)
        assert r is None, (k, r)


def select(a, i):
    while a.pad.cursor != i:
        a.pad.key("sel+")


def enter_d20(a, v):
    """A physical d20 on the pad: enter, dmg+/dmg- from 10, enter (docs/script.md)."""
    press(a, "enter")
    for _ in range(abs(v - 10)):
        press(a, "dmg+" if v > 10 else "dmg-")
    press(a, "enter")


def test_fighter_attack_move_and_torpedoes_from_the_pad():
    """Seed 004, Movement Phase: "Fighters have an extra move option, the Fighter Attack is 2
    spaces straight forward, but the fighter can fire any heavy or rapid weapons at a target";
    Attack on the Death Star table: Y-Wing Torpedoes (heavy) +3, TIE Fighter defence 18 front.

    Rebels hold the initiative (3 / 18). Y-Wing 1 marked and selected, `move` (opt1): its
    Fighter Attack. Then TIE Fighter 1 selected, `aim` (alt2): heavy weapons at the front;
    physical d20 16: 16 + 3 = 19 > 18, a hit: the 1-hit TIE Fighter 1 is destroyed."""
    a, out = make_referee("deathstar")
    ok(a, out, c="roll", values=[3, 18])
    ok(a, out, c="phase")
    select(a, DS_YW1)
    press(a, "mark", "opt1")
    assert a.game.log[-1] == (11, DS_YW1, 3, 0), "move on the marked ship: the Fighter Attack"
    select(a, DS_TIE1)
    press(a, "alt2")
    assert a.pad.aim_pick == (DS_YW1, 5, 0), "aim: heavy weapons (5) at the front facing"
    enter_d20(a, 16)
    press(a, "alt1")
    assert a.game.log[-2:] == [(8, DS_YW1, 5, 0), (9, DS_YW1, 16, DS_TIE1)]  # logged as it fires
    assert a.game.ship_state[4 * DS_YW1] == 5
    assert a.game.destroyed(DS_TIE1), "seed: 16 + 3 = 19 against 18: a hit, 1 hit destroys"


def test_move_on_an_unmarked_ship_stays_a_standard_move():
    a, out = make_referee("deathstar")
    ok(a, out, c="roll", values=[3, 18])
    ok(a, out, c="phase")
    select(a, DS_YW1)
    press(a, "opt1")
    assert a.game.log[-1] == (11, DS_YW1, 1, 0)


def capital_phase_hoth():
    """Escape from Hoth, round 1: Empire initiative (15 / 8), every ship on the table moves,
    the capital weapons phase; nothing marked."""
    a, out = make_referee("hoth")
    ok(a, out, c="roll", values=[15, 8])
    ok(a, out, c="phase")
    for s in (HOTH_SD, HOTH_TRANSPORT, HOTH_XW1, HOTH_XW1 + 1):
        ok(a, out, c="move", ship=s, mode=1)
    ok(a, out, c="phase")
    return a, out


def test_ion_cannon_side_facing_and_physical_die_from_the_pad():
    """Seed 004, The Ion Cannon: "It fires at +16 (as a capital weapon)... if it hits a Star
    Destroyer the vessel cannot move or fire in the next round"; Star Destroyer defence 12 /
    22 / 27 (front / side / rear).

    `aim` with no ship marked turns the cannon to the side; physical d20 10 on the pad;
    `ion` (alt3) at the Star Destroyer: 10 + 16 = 26 > 22, a hit: it is ionized."""
    a, _out = capital_phase_hoth()
    select(a, HOTH_SD)
    press(a, "alt2")
    enter_d20(a, 10)
    press(a, "alt3")
    assert a.game.log[-1] == (17, HOTH_SD, 10, 1)
    assert a.game.game_state[0] == 1, "seed: 26 against side 22 hits"
    assert a.pad.die == 0, "the physical die is used once"


def test_ion_cannon_rear_facing_can_miss():
    """Same shot at the rear (aim twice: side, rear): 10 + 16 = 26 < 27, a miss (at the front,
    defence 12, it could never miss)."""
    a, _out = capital_phase_hoth()
    select(a, HOTH_SD)
    press(a, "alt2", "alt2")
    enter_d20(a, 10)
    press(a, "alt3")
    assert a.game.log[-1] == (17, HOTH_SD, 10, 2)
    assert a.game.game_state[0] == 2, "seed: 26 against rear 27 misses"


def test_refused_ion_keeps_the_physical_die():
    """A refused shot (not the capital weapons phase) changes nothing: the die stays held."""
    a, out = make_referee("hoth")
    ok(a, out, c="roll", values=[15, 8])
    ok(a, out, c="phase")
    n = len(a.game.log)
    enter_d20(a, 12)
    assert a.pad.key("alt3")
    assert len(a.game.log) == n and a.pad.die == 12


def test_move_turns_are_checked_against_the_ships_limit():
    """Seed 004, Movement Phase: a capital ship's standard move makes "one turn of 90
    degrees"; fighters "make up to two 90 degree turns"; a full power move goes "straight
    forward"; Escape from Hoth, Troop Transport: "Unwieldy: May only make 1 turn" (roster
    ``max_turns`` 1).

    Star Destroyer: 2 turns refused, 1 accepted. Transport: 2 refused, 1 accepted. X-Wing 1:
    2 accepted; X-Wing 2 full power with 1 turn refused. A refusal changes nothing."""
    a, out = make_referee("hoth")
    ok(a, out, c="roll", values=[15, 8])
    ok(a, out, c="phase")
    h = a.game.state_hash()
    r = line(a, out, {"c": "move", "ship": HOTH_SD, "mode": 1, "turns": 2})
    assert r["t"] == "err" and "at most 1 turn" in r["msg"], r
    assert a.game.state_hash() == h
    ok(a, out, c="move", ship=HOTH_SD, mode=1, turns=1)
    r = line(a, out, {"c": "move", "ship": HOTH_TRANSPORT, "mode": 1, "turns": 2})
    assert r["t"] == "err" and "Troop Transport may make at most 1 turn" in r["msg"], r
    ok(a, out, c="move", ship=HOTH_TRANSPORT, mode=1, turns=1)
    ok(a, out, c="move", ship=HOTH_XW1, mode=1, turns=2)
    r = line(a, out, {"c": "move", "ship": HOTH_XW1 + 1, "mode": 2, "turns": 1})
    assert r["t"] == "err" and "no turns" in r["msg"], r
    ok(a, out, c="move", ship=HOTH_XW1 + 1, mode=2)
    assert a.game.log[-3] == (11, HOTH_TRANSPORT, 1, 1)


# ---- swsb-addon (seed 001, `../shared/seeds/001_a2238b11b3f70e84.txt`) -----------------------


def ship(name, cls, hp, **stats):
    return {"name": name, "class": cls, "hp": hp, "cc": 2 if cls < 4 else 0, "stats": stats}


def addon(droid_stats):
    """Light: 0 Frigate (class 3), 1 X-wing (4); Dark: 2 Raider (3), 3 Droid (4)."""
    st = dict(defense=12, attack=3, **droid_stats)
    return {
        "name": "dogfight",
        "ruleset": "swsb-addon",
        "sides": [
            {
                "name": "Light",
                "ships": [
                    ship("Frigate", 3, [3, 2], defense=12, attack=5, pd=2),
                    ship("X-wing", 4, 1, defense=15, attack=4),
                ],
            },
            {
                "name": "Dark",
                "ships": [
                    ship("Raider", 3, [3, 2], defense=12, attack=4),
                    ship("Droid", 4, 1, **st),
                ],
            },
        ],
    }


def dogfight(droid_stats):
    """The attack phase: Frigate and Raider pass (done); the X-wing, aimed at 1", attacks the
    Droid and misses (d20 1: 1 + 4 = 5 < 12): the two fighters are in a dog-fight; the X-wing
    is done; the Droid's activation, aimed at 1"."""
    a, out = make_referee("hoth")
    ok(a, out, c="load", roster=addon(droid_stats))
    ok(a, out, c="roll", values=[12, 3])
    ok(a, out, c="phase")
    ok(a, out, c="choose", side=0)
    ok(a, out, c="phase")
    ok(a, out, c="done", ship="Frigate")
    ok(a, out, c="done", ship="Raider")
    ok(a, out, c="aim", ship="X-wing", weapon=0, arg=1)
    ok(a, out, c="attack", ship="X-wing", target="Droid", roll=1)
    ok(a, out, c="done", ship="X-wing")
    ok(a, out, c="aim", ship="Droid", weapon=0, arg=1)
    return a, out


def test_dogfight_fighter_cannot_attack_a_ship_unless_interceptor():
    """Seed 001, Combat: "Fighters that are within 1" of each other are considered to be
    engaged in a dog-fight ... Fighters engaged in a dog-fight cannot attack anything other
    than the fighter(s) they are engaged with ... The only exception to this are fighters with
    the Interceptor ability ... These fighters can choose to target the fighters that engaged
    them in a dog-fight or to target any other valid target."

    The Droid, engaged by the X-wing (which attacked it from 1"), may not attack the Frigate
    (1" away): refused, nothing changes; it may attack the X-wing. With roster ``interceptor``
    the same attack on the Frigate is accepted."""
    a, out = dogfight({})
    h = a.game.state_hash()
    r = line(a, out, {"c": "attack", "ship": "Droid", "target": "Frigate", "roll": 20})
    assert r["t"] == "err" and "dog-fight" in r["msg"], r
    r = line(a, out, {"c": "hit", "ship": "Frigate", "by": "Droid"})
    assert r["t"] == "err" and "dog-fight" in r["msg"], r
    assert a.game.state_hash() == h
    ok(a, out, c="attack", ship="Droid", target="X-wing", roll=20)
    a, out = dogfight({"interceptor": True})
    ok(a, out, c="attack", ship="Droid", target="Frigate", roll=20)


def test_interceptor_is_a_roster_stat():
    """``interceptor`` loads (it was refused as an unknown stat)."""
    a, out = make_referee("hoth")
    r = ok(a, out, c="load", roster=addon({"interceptor": True}))
    assert r["t"] == "game"


def test_proximity_override_is_a_counter_on_the_pad_and_over_serial():
    """Seed 001, Proximity targeting: "A player can always use a Command token of the
    appropriate Class to allow the ship to ignore this rule and fire at any target."

    The chart's fifth option, Proximity Override: over serial (`counter` option by name) for
    the Mon Calamari Cruiser, one counter spent; on the pad, once who moves first is chosen,
    `alt4` plays it for the selected Cloaked Raider from its own counters."""
    a, out = make_referee("swsb-addon-example")
    names = [o.name for o in a.game.rules.options]
    assert names[4] == "Proximity Override"
    ok(a, out, c="roll", values=[12, 3])
    ok(a, out, c="phase")
    ok(a, out, c="choose", side=0)
    cc = a.game.counters[0]
    ok(a, out, c="counter", ship=0, option="Proximity Override")
    assert a.game.log[-1] == (3, 0, 4, 0) and a.game.counters[0] == cc - 1
    select(a, 5)  # Cloaked Raider (Dark Side)
    press(a, "alt4")
    assert a.game.log[-1] == (3, 5, 4, 5)


def addon_with_red_leader():
    """The swsb-addon example fleets with a class 4 Light Side fighter holding one Command
    counter (Red Leader, before the two X-wings), so a class 4 counter exists."""
    with open(os.path.join(ROOT, "firmware", "rosters", "swsb-addon-example.json")) as f:
        r = json.load(f)
    ships = r["sides"][0]["ships"]
    red = dict(ships[2], name="Red Leader", cc=1)
    red.pop("count", None)
    ships.insert(2, red)
    return r


def test_proximity_override_takes_a_counter_of_the_ships_own_class():
    """Seed 001, Proximity targeting: "A player can always use a Command token of the
    appropriate Class to allow the ship to ignore this rule and fire at any target." Seed 000,
    Fleet Command Options: "Start with the Command counters on the ship card. Play a counter by
    removing it from the ship": a counter is of the class of the ship it comes off, so the
    appropriate one for a ship is a counter of that ship's class.

    Light Side: Mon Calamari Cruiser class 2 (3 counters), Red Leader class 4 (1 counter),
    X-wing 1 class 4 (none). The Mon Calamari Cruiser's counter for X-wing 1 is refused, over
    serial and on the pad with the cruiser marked (one line naming both classes; the chart and
    the counters stay). Red Leader's counter for X-wing 1 is accepted over serial; undone, the
    pad with nothing marked takes it from Red Leader too (the class 4 ship with a counter)."""
    a, out = make_referee("swsb-addon-example")
    ok(a, out, c="load", roster=addon_with_red_leader())
    g = a.game
    mc, red, xw1 = g.index("Mon Calamari Cruiser"), g.index("Red Leader"), g.index("X-wing 1")
    assert (g.cls[mc], g.cls[red], g.cls[xw1]) == (2, 4, 4)
    ok(a, out, c="roll", values=[12, 3])
    ok(a, out, c="phase")
    ok(a, out, c="choose", side=0)
    seq, cc, chart = g.seq, list(g.counters), bytes(g.chart)
    r = line(a, out, {"c": "counter", "ship": mc, "option": "Proximity Override", "for": xw1})
    assert r["t"] == "err" and "class" in r["msg"] and "\n" not in r["msg"], r
    assert "4" in r["msg"] and "2" in r["msg"], r
    assert (g.seq, list(g.counters), bytes(g.chart)) == (seq, cc, chart)
    select(a, mc)
    press(a, "mark")
    select(a, xw1)
    assert a.pad.key("alt4") is not None  # refused on the pad
    assert "class" in a.error_text, a.error_text
    assert (g.seq, list(g.counters), bytes(g.chart)) == (seq, cc, chart)
    ok(a, out, c="counter", ship=red, option="Proximity Override", **{"for": xw1})
    assert g.log[-1] == (3, red, 4, xw1) and g.counters[red] == 0
    ok(a, out, c="undo")
    press(a, "unmark")
    select(a, xw1)
    press(a, "alt4")
    assert g.log[-1] == (3, red, 4, xw1), g.log[-1]


# ---- roster ability texts nothing enforces ---------------------------------------------------


def unwieldy_hoth():
    with open(os.path.join(ROOT, "firmware", "rosters", "hoth.json")) as f:
        r = json.load(f)
    st = r["sides"][1]["ships"][0]["stats"]
    del st["max_turns"]
    st["abilities"].insert(0, "Unwieldy: may only make 1 turn")
    return r


def test_ability_text_without_its_stat_warns_on_load_and_in_roster_check(tmp_path):
    """Seed 004's Troop Transport, "Unwieldy: May only make 1 turn", written only as an
    ability text: the game loads, and an ``err`` line with ``src`` ``roster`` names the stat
    (max_turns); `fleetref roster check` prints the same warning. The shipped rosters load
    without one."""
    a, out = make_referee("hoth")
    assert not [m for m in map(json.loads, out) if m.get("src") == "roster"]
    n = len(out)
    a.link.handle_line(json.dumps({"c": "load", "roster": unwieldy_hoth()}))
    msgs = [json.loads(m) for m in out[n:]]
    assert msgs[0]["t"] == "game"
    w = [m for m in msgs if m.get("src") == "roster"]
    assert len(w) == 1 and "Troop Transport" in w[0]["msg"] and "max_turns" in w[0]["msg"], w
    p = tmp_path / "unwieldy.json"
    p.write_text(json.dumps(unwieldy_hoth()))
    r = cli("roster", "check", str(p), timeout=60)
    assert r.returncode == 0, r.stderr
    assert "warning: Troop Transport" in r.stdout and "max_turns" in r.stdout, r.stdout


def test_a_physical_die_entered_on_the_pad_is_recorded_as_physical():
    """docs/dice.md: a physical die is marked physical in its roll record, whether it came
    over serial or from the pad. The Ion Cannon fired from the pad with a physical d20 10
    (seed 004, The Ion Cannon) sends a ``roll`` line with ``phys`` 1 and the die 10 for its
    event; the board's own dice are not drawn for it."""
    from referee.app import Referee
    from referee.dice import Dice, Fair
    from support.game import default_board

    out = []
    a = Referee(
        default_board(), os.path.join(ROOT, "firmware", "rosters"), out.append, Dice(Fair()), 12
    )
    a.load_scenario("hoth")
    ok(a, out, c="roll", values=[15, 8])
    ok(a, out, c="phase")
    for s in (HOTH_SD, HOTH_TRANSPORT, HOTH_XW1, HOTH_XW1 + 1):
        ok(a, out, c="move", ship=s, mode=1)
    ok(a, out, c="phase")
    select(a, HOTH_SD)
    n = len(out)
    enter_d20(a, 10)
    press(a, "alt3")
    a.flush()
    seq = a.game.seq
    assert a.game.log[-1] == (17, HOTH_SD, 10, 0)
    rolls = [json.loads(x) for x in out[n:] if '"t":"roll"' in x.replace(" ", "")]
    assert [(r["seq"], r.get("phys"), r["d"]) for r in rolls] == [(seq, 1, [10])], out[n:]
