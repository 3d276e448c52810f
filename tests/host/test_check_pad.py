"""The button pad (docs/script.md: the `key` command presses an action) against the serial
commands: the same game entered either way gives the same events and state hashes, and the
pad's `undo` restores the state exactly. Outcomes from seed 000 (swsb): a hit in the attack
step is pending until the damage phase; a counter goes from the marked (own side) ship."""

import json

import pytest

from support.checkhost import start


@pytest.fixture(scope="module")
def boards():
    first = start("--scenario", "swsb-example", "--seed", "21")
    second = start("--scenario", "swsb-example", "--seed", "21")
    yield first[1], second[1]
    for sim, host in (first, second):
        host.close()
        sim.stop()


def hashes(msgs):
    return [(m["ev"], m["hash"]) for m in msgs if m.get("t") == "ev"]


def test_pad_and_serial_make_the_same_game(boards):
    """Board 1 by serial commands, board 2 by pad actions, both from a roll of 12 v 7
    (side 0 attacks first). In the attack step: Mon Calamari Cruiser (0) marked as the
    attacker, a hit on the Star Destroyer (5): pending 1 (damage waits). `unmark`, select
    Slave I (6), `dmg+`: a hit with no attacker, pending 1; `dmg-` takes it off: 0. Same
    events, same hashes; at the damage phase the Star Destroyer has 1 damage, Slave I 0."""
    serial, pad = boards
    for host in boards:
        host.ok({"c": "load", "scenario": "swsb-example"})
        host.ok({"c": "roll", "values": [12, 7]})
    by_serial = []
    for cmd in (
        {"c": "phase"},
        {"c": "phase"},
        {"c": "phase"},
        {"c": "hit", "ship": 5, "by": 0},
        {"c": "hit", "ship": 6},
        {"c": "hit", "ship": 6, "n": -1},
        {"c": "phase"},
    ):
        msgs, snap_serial = serial.send(cmd)
        by_serial += hashes(msgs)
    msgs, snap_pad = pad.key(
        "phase", "phase", "phase", "sel:0", "mark", "sel:5", "dmg+", "unmark", "sel:6", "dmg+"
    )
    by_pad = hashes(msgs)
    msgs, snap_pad = pad.key("dmg-", "phase")
    by_pad += hashes(msgs)
    assert by_pad == by_serial
    assert snap_pad["state_hash"] == snap_serial["state_hash"]
    assert snap_pad["ships"][5]["damage"] == 1 and snap_pad["ships"][6]["damage"] == 0


def test_pad_undo_restores_the_state(boards):
    """After each pad action that makes an event, the pad's `undo` gives back the hash and
    the ships, round and phase of before."""
    _, pad = boards
    pad.ok({"c": "load", "scenario": "swsb-example"})
    pad.ok({"c": "roll", "values": [12, 7]})
    for keys in (("phase",), ("sel:1", "mark", "sel:1", "opt2"), ("phase",), ("phase",)):
        _, before = pad.send({"c": "snap"})
        _, after = pad.key(*keys)
        assert after["seq"] == before["seq"] + 1, keys
        _, back = pad.key("undo")
        for field in ("state_hash", "round", "phase", "ships", "chart"):
            assert back[field] == before[field], (keys, field)
        pad.key(*keys)
    _, before = pad.send({"c": "snap"})
    _, after = pad.key("sel:5", "dmg+")
    assert after["ships"][5]["pending"] == 1
    _, back = pad.key("undo")
    assert back["state_hash"] == before["state_hash"]


SCRIPT = """# plays: swsb-example
dice 9 9
phase
dice 5 17
phase phase phase
select Millennium_Falcon
dmg+ dmg+
phase
"""


def test_a_key_script_plays_the_hand_worked_round(tmp_path):
    """docs/script.md: `fleetref sim --script` presses the keys; `dice a b` enters physical
    initiative dice; with --headless it prints the final snapshot with `rejected`, the
    actions the rules refused. Seed 000: 9 v 9 is a tie ("Reroll ties."): the `phase`
    after it is refused. 5 v 17: side 1 holds the initiative, side 0 moves first. Move,
    point defense, attack; two hits on the Falcon (3/2) wait for the damage phase, where
    its damage is 2 (not yet damaged: that takes 3)."""
    from support.process import cli

    script = tmp_path / "round.txt"
    script.write_text(SCRIPT)
    out = cli(
        "sim", "--headless", "--scenario", "swsb-example", "--seed", "3", "--script", str(script)
    )
    assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr
    final = json.loads(out.stdout.strip().splitlines()[-1])
    assert (final["initiative"], final["moves_first"]) == (1, 0)
    assert (final["round"], final["phase"]) == (1, "damage")
    assert len(final["rejected"]) == 1, final["rejected"]
    falcon = final["ships"][1]
    assert (falcon["damage"], falcon["pending"], falcon["status"]) == (2, 0, "ok")


@pytest.mark.parametrize(
    "scenario,setup,keys",
    [
        # swsb, damage phase: the Star Destroyer marked and aimed, a hit on the Cruiser
        (
            "swsb-example",
            [{"c": "roll", "values": [2, 18]}] + [{"c": "phase"}] * 4,
            ("sel:5", "mark", "alt2", "sel:0", "dmg+"),
        ),
        # smb, initiative phase: X-Wing 1 marked and aimed, a rapid-fire response
        ("hoth", [], ("sel:5", "mark", "alt2", "sel:0", "opt2")),
        # swsb-addon, initiative phase: X-wing 1 marked and aimed, an attack
        ("swsb-addon-example", [], ("sel:2", "mark", "alt2", "sel:4", "alt1")),
    ],
    ids=["swsb-dmg-in-damage-phase", "smb-response-before-movement", "addon-attack-too-early"],
)
def test_a_refused_pad_action_logs_no_aim(boards, scenario, setup, keys):
    """Working rules: "Bad input gets one clear line and changes nothing"; docs/script.md:
    the pad's aim "is logged as one `aim` event when that ship next acts (an attack, a
    response, a hit it makes with `dmg+`)". Here the act is refused by the rules (seed 000:
    damage is marked in the attack steps, not in the damage phase; seed 004: responses are
    taken in the movement phase, "Each time a ship is moved"; seed 001: firing comes after
    movement): the ship did not act, so no event may be logged - one `err`, the same seq
    and state hash."""
    _, pad = boards
    pad.ok({"c": "load", "scenario": scenario})
    for cmd in setup:
        pad.ok(cmd)
    _, before = pad.send({"c": "snap"})
    msgs, after = pad.key(*keys)
    errs = [m for m in msgs if m.get("t") == "err"]
    events = [m["ev"] for m in msgs if m.get("t") == "ev"]
    assert len(errs) == 1, msgs
    assert not events, (errs[0]["msg"], events)
    assert (after["seq"], after["state_hash"]) == (before["seq"], before["state_hash"])
