"""Board dice recomputed from docs/dice.md alone: "C = SHA-256(S)"; "x_j = first 4 bytes,
little-endian, of SHA-256("fleetref-roll-v1" | S | seq | E | j) (`seq`, `E`, `j` each 4
bytes little-endian). A die of `f` faces takes the next `x_j` below `2^32 - (2^32 mod f)`
... and shows `x_j mod f + 1`"; the board reveals "when a side has won"."""

import hashlib
import struct
import time

from support.process import SimProcess
from support.checkhost import QuickHost


def derive(secret, seq, entropy, faces, count):
    dice = []
    draw = 0
    limit = 2**32 - (2**32 % faces)
    while len(dice) < count:
        data = b"fleetref-roll-v1" + secret + struct.pack("<III", seq, entropy, draw)
        value = struct.unpack("<I", hashlib.sha256(data).digest()[:4])[0]
        draw += 1
        if value < limit:
            dice.append(value % faces + 1)
    return dice


def lines_of(msgs, kind):
    return [m for m in msgs if m.get("t") == kind]


def test_board_dice_match_the_published_construction():
    """Hoth with the board's dice: initiative (two d20s), the Star Destroyer's Main Guns
    (one d20) and an Ion Cannon burst (one d20); then the Transport exits and the Rebels
    win, so the board reveals its secret. The secret hashes to the commitment of the
    `game` line; every roll line's dice are those of the formula; the events show them."""
    sim = SimProcess("--headless", "--hold", "--scenario", "hoth")
    host = QuickHost(sim.port)
    try:
        msgs, _ = host.send({"c": "game"})
        commit = lines_of(msgs, "game")[0]["commit"]
        rolls = []
        events = {}

        def play(cmd):
            msgs, snap = host.send(cmd)
            assert not lines_of(msgs, "err"), (cmd, msgs)
            rolls.extend(lines_of(msgs, "roll"))
            for line in lines_of(msgs, "ev"):
                events[line["seq"]] = line["ev"]
            return msgs, snap

        for _ in range(6):  # until the board's initiative roll is no tie
            _, snap = play({"c": "roll"})
            if snap["initiative"] is not None:
                break
            time.sleep(0.01)
        holder = snap["initiative"]
        play({"c": "phase"})
        order = {0: [0], 1: [4, 5, 6]}
        for index in order[holder] + order[1 - holder]:
            play({"c": "move", "ship": index})
        play({"c": "phase"})
        play({"c": "aim", "ship": 0, "weapon": 4, "arg": 0})
        play({"c": "attack", "ship": 0, "target": 4})
        play({"c": "ion", "ship": 0, "facing": 0})
        play({"c": "phase"})
        snap = host.ok({"c": "roll", "values": [3, 15]})
        play({"c": "phase"})
        play({"c": "move", "ship": 4})
        msgs, snap = play({"c": "exit", "ship": 4, "kind": 1})
        assert snap["winner"] == 1
        reveals = lines_of(msgs, "reveal")
        if not reveals:
            time.sleep(0.3)
            msgs, _ = host.send({"c": "snap"})
            reveals = lines_of(msgs, "reveal")
    finally:
        host.close()
        sim.stop()
    assert reveals, "no reveal once a side has won"
    secret = bytes.fromhex(reveals[0]["secret"])
    assert hashlib.sha256(secret).hexdigest() == commit == reveals[0]["commit"]
    assert len(rolls) >= 3, rolls
    for roll in rolls:
        expected = derive(secret, roll["seq"], int(roll["ent"], 16), roll["s"], len(roll["d"]))
        assert roll["d"] == expected, (roll, expected)
        event = events[roll["seq"]]
        if event[0] == 1:  # initiative: both d20s
            assert event[1:3] == roll["d"]
        elif event[0] in (9, 17):  # attack, ion: the d20 roll is b
            assert event[2] == roll["d"][-1], (event, roll)
