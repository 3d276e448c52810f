"""A full flash on the emulated Pico's own littlefs (damaged or full flash never
silently loses or changes the game; the host-side cases are in tests/core/test_journal_full.py).

A game is played over USB serial, the board's littlefs region is dumped, a filler file takes
every free block (littlefs-python with the rp2 port's geometry) and the board boots on it. Then
more events are sent: the board must refuse what it cannot write with a clear ``err`` line,
keep the game it had (same seq and state hash), leave flash that restores to exactly the
announced events (littlefs commits a file on close, so a failed append writes nothing: a power
cut then boots into that same game), and take events again once the filler is gone."""

import json

from support.emu import board_profile, boot, build_uf2, need_emu
from devtools import faults, faults_emu

NAME = "pico-ws2812-16x16"


def fill(image, free):
    """``image`` with /fill/ files (4 KB each, a block each) until ``free`` blocks are left.
    (littlefs-python itself aborts when it runs out of room, so the board takes the rest.)"""
    dev, lfs = faults.mount(image)
    fs = lfs.fs
    fs.mkdir("/fill")
    i = 0
    while fs.block_count - fs.used_block_count > free:
        with fs.open("/fill/%d" % i, "wb") as f:
            f.write(b"\0" * 4096)
        i += 1
    fs.unmount()
    return bytes(dev.buffer)


def unfill(image):
    dev, lfs = faults.mount(image)
    fs = lfs.fs
    for name in fs.listdir("/fill"):
        fs.remove("/fill/" + name)
    fs.rmdir("/fill")
    fs.unmount()
    return bytes(dev.buffer)


def dump(pico, tmp):
    path = str(tmp / "now.img")
    pico.cmd("dump_flash", path=path)
    with open(path, "rb") as f:
        return f.read()


def send(pico, obj):
    mark = pico.mark()
    pico.write(json.dumps(obj) + "\n")
    return pico.wait_msg(lambda m: m.get("t") in ("ok", "err"), 120, mark), mark


def snap(pico):
    mark = pico.mark()
    pico.write(b'{"c": "snap"}\n')
    m = pico.wait_msg(lambda m: m.get("t") == "snap", 120, mark)
    return m["seq"], m["state_hash"]


def test_full_littlefs_refuses_events_and_keeps_the_game(uf2_dir, tmp_path):
    need_emu()
    board = board_profile(NAME)
    with boot(build_uf2(NAME, uf2_dir), board) as pico:
        played = faults_emu.play(pico, [], 24, str(tmp_path))
        evs = list(played.evs)
        assert len(evs) == 24
        got = faults_emu.boot_on(pico, fill(played.image, 0), str(tmp_path), board)
        assert (got["seq"], got["hash"]) == (24, played.hashes[24]) and not got["traceback"]
        # the board fills the last blocks itself: events one a line until it refuses some
        more = faults_emu.more_events(played.game, evs, 80)
        i, refusals = 0, []
        while i < len(more) and len(refusals) < 4:
            r, mark = send(pico, {"c": "append", "events": [more[i]]})
            new = [m for m in pico.messages(mark) if m.get("t") == "ev"]
            if r["t"] == "ok":
                evs += new
                i += 1
            else:  # refused whole: nothing applied, nothing announced
                refusals.append(r["msg"])
                assert not new, new
            assert snap(pico) == (len(evs), faults_emu.hashes_of(played.game, evs)[-1])
        assert refusals, "the board took %d events on a flash with no free block" % i
        assert all(m.startswith("journal: flash full") for m in refusals), refusals
        text = bytes(pico.serial).decode("utf-8", "replace")
        assert "Traceback" not in text
        k = len(evs)
        # a power cut now: the same game comes back, every announced event in it
        again = faults_emu.boot_on(pico, dump(pico, tmp_path), str(tmp_path), board)
        assert (again["seq"], again["hash"]) == (k, faults_emu.hashes_of(played.game, evs)[-1])
        # room again: the event refused is taken and announced
        roomy = faults_emu.boot_on(pico, unfill(dump(pico, tmp_path)), str(tmp_path), board)
        assert (roomy["seq"], roomy["hash"]) == (again["seq"], again["hash"])
        r, mark = send(pico, {"c": "append", "events": [more[i]]})
        assert r["t"] == "ok" and r["seq"] == k + 1, r
        assert [m["seq"] for m in pico.messages(mark) if m.get("t") == "ev"] == [k + 1]
