"""Power cuts on the emulated Pico (hardReset: the CPU stops after the current
instruction, the flash keeps what was written). After every cut the board boots and restores
a prefix of the game that holds every event it had announced over serial, with the CPython
referee's state hash for that prefix.

- a cut after every single flash write (erase or program) of an event that writes a journal
  snapshot, its record and the snapshot the board writes after it between events (found by
  counting the flash writes per event, not from the journal's code);
- cuts at random moments while a key script is pressed on the key matrix."""

import json
import os
import random

import pytest

from support import ROOT
from support.emu import board_profile, boot, build_uf2, need_emu
from host_tools.link.mirror import Replica
from support.emu import presses, sim_run, timed

NAME = "pico-ws2812-16x16"


def hashes_of(game_msg, events):
    """State hash after each prefix of ``events`` (index 0: no event), by the host replica."""
    rep = Replica()
    rep.load_game(game_msg)
    out = [rep.game.state_hash()]
    for i, ev in enumerate(events, 1):
        assert rep.apply_event({"gid": game_msg["gid"], "seq": i, "ev": ev}) == "ok"
        out.append(rep.game.state_hash())
    return out


def valid_events(game_msg, n):
    """``n`` events the rules accept in a row: rolls (physical dice), phases, some undos."""
    rep = Replica()
    rep.load_game(game_msg)
    cands = [[4, 0, 0, 0], [1, 15, 8, 1], [4, 0, 0, 0], [5, 0, 0, 0], [1, 3, 17, 1]]
    out, i = [], 0
    while len(out) < n:
        ev = cands[i % len(cands)]
        i += 1
        if rep.game.submit(tuple(ev)) is None:
            out.append(ev)
    return out


def after_reboot(pico, start):
    """The restored game's (seq, state_hash), asked once the board said hello again."""
    pico.wait_msg(lambda m: m.get("t") == "hello", 120, start)
    mark = pico.mark()
    pico.write(b'{"c": "snap"}\n')
    snap = pico.wait_msg(lambda m: m.get("t") == "snap", 120, mark)
    return snap["seq"], snap["state_hash"]


def send_event(pico, ev):
    """Send ``ev``; the flash ops counter once the board has also written what the event left
    due (the board writes a journal snapshot between events, in its render task's next turn,
    every 100 ms: 0.3 s of emulated time covers it)."""
    mark = pico.mark()
    pico.write(json.dumps({"c": "append", "events": [ev]}) + "\n")
    pico.wait_msg(lambda m: m.get("t") in ("ok", "err"), 120, mark)
    pico.sleep(0.3)
    return pico.time()["flashOps"]


def check_prefix(seq, h, sent_msgs, all_hashes):
    """The restored game is the prefix of length ``seq``, holding every announced event."""
    top = max([m["seq"] for m in sent_msgs] or [0])
    assert seq >= top, "event %d was announced, the board restored only %d" % (top, seq)
    assert seq < len(all_hashes) and h == all_hashes[seq], (seq, h)


@pytest.mark.parametrize("half", [0, 1])
def test_cut_at_every_flash_write_of_a_snapshot_event(half, uf2_dir):
    """``half``: the odd-numbered writes, then the even ones (two runs that can go in
    parallel); together every write of that event."""
    need_emu()
    with boot(build_uf2(NAME, uf2_dir), board_profile(NAME)) as pico:
        game = pico.wait_msg(lambda m: m.get("t") == "game")
        pico.wait_msg(lambda m: m.get("t") == "hello")
        evs = valid_events(game, 80)
        want = hashes_of(game, evs)
        mark = pico.mark()
        pico.write(json.dumps({"c": "append", "events": evs[:24]}) + "\n")
        pico.wait_msg(lambda m: m.get("t") == "ok", 120, mark)
        # one event at a time: the flash writes each one costs; a snapshot costs many more
        costs, seq, before = [], 24, pico.time()["flashOps"]
        while True:
            pico.cmd("save_flash", name="pre")
            after = send_event(pico, evs[seq])
            seq += 1
            ops = after["erase"] + after["program"] - before["erase"] - before["program"]
            before = after
            costs.append(ops)
            if len(costs) > 3 and ops >= 3 * sorted(costs)[len(costs) // 2]:
                break
            assert seq < 70, "no event wrote a snapshot: %s" % costs
        snap_seq, n_ops = seq, ops
        assert n_ops >= 4
        for k in range(1 + half, n_ops + 1, 2):
            start = pico.mark()
            pico.cmd("restore_flash", name="pre")  # the board just before that event
            assert after_reboot(pico, start)[0] == snap_seq - 1
            start = pico.mark()
            pico.cmd("cut_after_ops", n=k)
            pico.write(json.dumps({"c": "append", "events": [evs[snap_seq - 1]]}) + "\n")
            cut = pico.wait_event(lambda e: e.get("ev") == "cut", 120)
            pico.events.remove(cut)
            sent = [m for m in pico.messages(start) if m["t"] == "ev"]
            seq, h = after_reboot(pico, start)
            check_prefix(seq, h, sent, want)
            assert seq in (snap_seq - 1, snap_seq)


def test_cuts_at_random_moments_during_key_presses(uf2_dir):
    need_emu()
    board = board_profile(NAME)
    path = os.path.join(ROOT, "tests", "scripts", "emu-hoth.txt")
    ps = timed(presses(board, open(path).read()))
    sim = sim_run(NAME, path)
    rng = random.Random(8)
    with boot(build_uf2(NAME, uf2_dir), board) as pico:
        game = pico.wait_msg(lambda m: m.get("t") == "game")
        pico.wait_msg(lambda m: m.get("t") == "hello")
        want = hashes_of(game, sim["events"])
        pico.cmd("save_flash", name="fresh")
        for _ in range(3):
            start = pico.mark()
            pico.cmd("restore_flash", name="fresh")
            assert after_reboot(pico, start)[0] == 0
            start = pico.mark()
            n = len(pico.events)
            pico.cmd("presses", list=[list(p) for p in ps])
            pico.cmd("cut_after_ms", ms=rng.randint(1200, 3500))
            pico.wait_event(lambda e: e.get("ev") == "cut", 300, n)
            sent = [m for m in pico.messages(start) if m["t"] == "ev"]
            for m in sent:
                assert m["ev"] == sim["events"][m["seq"] - 1]
            seq, h = after_reboot(pico, start)
            check_prefix(seq, h, sent, want)
