"""Every rule action the serial protocol offers (docs/protocol.md "Host to board") must be
reachable from the pad (docs/script.md: the actions and each profile's own keys). Each test
plays an action with serial commands on one simulator and with pad keys (the `key` command,
as a script would press them) on the same state, and compares the events recorded."""

import pytest

from support.blackbox import start

# pad actions that neither select nor leave the game (docs/script.md "Actions")
MODIFIERS = (
    "dmg+",
    "dmg-",
    "launch",
    "opt1",
    "opt2",
    "opt3",
    "opt4",
    "alt1",
    "alt2",
    "alt3",
    "alt4",
    "mark",
    "unmark",
    "enter",
    "cancel",
    "side",
    "power",
)


def events(msgs):
    return [m["ev"] for m in msgs if m.get("t") == "ev"]


def undo_all(host, count):
    for _ in range(count):
        host.ok({"c": "undo"})


@pytest.fixture
def hoth():
    """Escape from Hoth (seed 004), physical initiative 15:3: the Empire (side 0) has the
    initiative and moves first; Star Destroyer 0, X-Wing 1 is ship 5."""
    sim, host = start("--scenario", "hoth", "--seed", "1")
    host.ok({"c": "roll", "values": [15, 3]})
    host.ok({"c": "phase"})
    yield host
    host.close()
    sim.stop()


@pytest.fixture
def addon():
    """swsb-addon example (seed 001), physical initiative 15:3, side 0 chosen to move first;
    the Mon Calamari Cruiser (class 2) is ship 0."""
    sim, host = start("--scenario", "swsb-addon-example", "--seed", "1")
    host.ok({"c": "roll", "values": [15, 3]})
    host.ok({"c": "phase"})
    host.ok({"c": "choose", "side": 0})
    yield host
    host.close()
    sim.stop()


def test_smb_move_and_responses_from_the_pad(hoth):
    """docs/script.md smb: opt1 move, opt2 rapid-fire response, opt3 countermove ("`mark`
    the acting ship, select the other one"). The pad records what `move` and `respond`
    record: [11, 0, 1, 0], [12, 5, 1, 0] (countermove), [12, 5, 2, 0] (rapid fire)."""
    msgs, _ = hoth.key("sel:0", "opt1")
    assert events(msgs) == [[11, 0, 1, 0]], msgs
    msgs, _ = hoth.key("sel:5", "mark", "sel:0", "opt3")
    assert events(msgs) == [[12, 5, 1, 0]], msgs
    undo_all(hoth, 1)
    msgs, _ = hoth.key("sel:5", "unmark", "mark", "sel:0", "opt2")
    assert events(msgs) == [[12, 5, 2, 0]], msgs


def test_mark_twice_keeps_the_mark(hoth):
    """docs/script.md: `mark` (K3) "mark the selected ship as the attacker ... or as the
    source of counters", `unmark` (K3 long) takes it away. So mark pressed on the marked
    ship leaves it marked: X-Wing 1 marked (its countermove is recorded), then after an
    undo, `mark` again on X-Wing 1 and opt3 on the Star Destroyer records the countermove.
    Actual: "mark the acting ship first (mark), then select the target" (the second mark
    took the mark away)."""
    hoth.ok({"c": "move", "ship": 0})
    msgs, _ = hoth.key("sel:5", "mark", "sel:0", "opt3")
    assert events(msgs) == [[12, 5, 1, 0]], msgs
    undo_all(hoth, 1)
    msgs, _ = hoth.key("sel:5", "mark", "sel:0", "opt3")
    assert events(msgs) == [[12, 5, 1, 0]], msgs


def test_swsb_addon_choose_and_move_from_the_pad():
    """docs/script.md swsb-addon: alt4 "choose: the selected ship's side moves first";
    `power` "a move (an activation) in swsb-addon"."""
    sim, host = start("--scenario", "swsb-addon-example", "--seed", "1")
    try:
        host.ok({"c": "roll", "values": [15, 3]})
        host.ok({"c": "phase"})
        msgs, _ = host.key("sel:4", "alt4")
        assert events(msgs) == [[14, 1, 0, 0]], msgs
        msgs, _ = host.key("sel:4", "power")
        assert events(msgs) == [[11, 4, 1, 0]], msgs
    finally:
        host.close()
        sim.stop()


def pad_records(host, select, move_key, wanted):
    """Try every single modifier press (once and twice) between selecting ship ``select``
    and pressing ``move_key``; True when one of them records an event ``wanted`` accepts.
    Every event a try made is undone before the next."""
    for modifier in MODIFIERS:
        for presses in (1, 2):
            msgs, _ = host.key("sel:%d" % select, *([modifier] * presses), move_key)
            host.key("cancel")
            made = events(msgs)
            if any(wanted(ev) for ev in made):
                return True
            undo_all(host, len([ev for ev in made if ev[0] != 5]))
    return False


def test_smb_move_with_a_turn_from_the_pad(hoth):
    """Seed 004: a capital ship's standard move is "up to one space forward, and make one
    turn of 90 degrees"; serial `move` takes `turns` (docs/protocol.md: "smb: at most 1 for
    a capital ship's standard move") and records [11, 0, 1, 1]. No pad key sequence records
    a turn: every pad move is [11, ship, mode, 0]."""
    hoth.ok({"c": "move", "ship": 0, "turns": 1})  # the serial side records it
    undo_all(hoth, 1)
    assert pad_records(hoth, 0, "opt1", lambda ev: ev[0] == 11 and ev[3] >= 1)


def test_smb_countermove_behind_from_the_pad(hoth):
    """Seed 004 "Countermoves": eligible only if the mover "moved into a space other than
    the one directly behind the ship". Serial `respond` takes `behind` and refuses that
    countermove ("no countermove: Star Destroyer moved only into the square directly
    behind") and records a rapid-fire response with it as kind 2 + 4. From the pad (mark
    X-Wing 1, select the Star Destroyer, opt3) the same countermove is accepted and no pad
    sequence records kind + 4."""
    hoth.ok({"c": "move", "ship": 0})
    assert "behind" in hoth.refused(
        {"c": "respond", "ship": 5, "mover": 0, "kind": 1, "behind": True}
    )
    hoth.ok({"c": "respond", "ship": 5, "mover": 0, "kind": 2, "behind": True})
    undo_all(hoth, 1)
    hoth.key("sel:5", "mark")
    assert pad_records(hoth, 0, "opt2", lambda ev: ev[0] == 12 and ev[2] >= 4)


def test_swsb_addon_move_with_turns_from_the_pad(addon):
    """Seed 001: "Units can make one turn per Class number"; serial `move` takes `turns`
    (swsb-addon) and records [11, 0, 1, 2] for the class 2 Mon Calamari Cruiser (3 turns are
    refused: "a class 2 ship makes at most 2 turns"). The pad's move (`power`) records 0
    turns, and no pad key sequence records any."""
    addon.ok({"c": "move", "ship": 0, "turns": 2})
    undo_all(addon, 1)
    assert pad_records(addon, 0, "power", lambda ev: ev[0] == 11 and ev[3] >= 1)


def board_lines(tmp_path, board, keys, until=b'"reveal"'):
    """Play ``keys`` (a script for swsb-example) on ``board`` once a host has said hello;
    returns the board's JSON lines until ``until`` was seen or 20 s passed."""
    import json
    import time

    import serial

    from support.process import SimProcess

    script = tmp_path / "keys.txt"
    script.write_text("# plays: swsb-example\n%s\nwait 1500\n" % keys)
    sim = SimProcess(
        "--headless",
        "--hold",
        "--board",
        board,
        "--scenario",
        "swsb-example",
        "--script",
        str(script),
        "--wait-for-host",
        "--pace",
        "150",
    )
    data = b""
    try:
        with serial.Serial(sim.port, timeout=0.2) as link:
            link.write(b'{"c":"hello"}\n')
            end = time.monotonic() + 20
            while time.monotonic() < end and until not in data:
                data += link.read(1 << 16)
    finally:
        sim.stop()
    return [json.loads(l) for l in data.decode().splitlines() if l.startswith("{")]


def test_16x16_board_reveals_with_roll_held(tmp_path):
    """docs/dice.md: "the `reveal` pad action (long press of `roll` on the 16x16 board)":
    K12 then K12 held sends a roll line, then a reveal line."""
    lines = board_lines(tmp_path, "pico-ws2812-16x16", "K12 wait 300 K12~")
    kinds = [m.get("t") for m in lines]
    assert "roll" in kinds and "reveal" in kinds, lines


def test_keypad_board_can_reveal_the_dice(tmp_path):
    """docs/protocol.md offers `reveal` ("reveal the current dice secret and commit to a new
    one"); docs/dice.md: "the `reveal` pad action (long press of `roll` on the 16x16
    board)". On the Pimoroni keypad base (docs/build.md key maps: ships mode and actions
    mode) no key is labelled reveal. After a board roll (K12 to actions mode, K8 roll),
    every key held in actions mode (but K12, the scenario menu, and K15, numbers mode) and
    K13 held in ships mode is pressed: none sends a `reveal` line."""
    held = " ".join("K%d~" % n for n in range(15) if n != 12)
    lines = board_lines(tmp_path, "pimoroni-rgb-keypad", "K12 K8 wait 300\n%s\nK12 K13~" % held)
    assert any(m.get("t") == "roll" for m in lines), lines
    assert any(m.get("t") == "reveal" for m in lines), [m.get("msg") for m in lines]
