"""A full flash (damaged flash never silently loses or changes the game). Found by an
independent check: on the simulator's flash (a host directory) a refused append left part of
its record in log.bin; the next boot called that damage and set the journal aside to write a
repaired one, and with no room for it the game directory was left empty: the boot after that
started a new game silently. Now a failed append is cut back, and a repair that finds no room
puts the files back, keeps the restored game and tries again before the next event."""

import errno
import json
import os

from support.game import make_referee
from referee.journal import Journal, OSFS


class FullFS(OSFS):
    """The host's filesystem, but writes fail with ENOSPC once ``room`` bytes are used up (a
    write that does not fit writes what fits first, as a full disk does)."""

    def __init__(self, base):
        OSFS.__init__(self, base)
        self.room = 1 << 30

    def open(self, p, mode):
        f = OSFS.open(self, p, mode)
        if "r" in mode:
            return f
        fs = self
        real = f.write

        class Writer:
            def write(self, b):
                if len(b) > fs.room:
                    n = real(bytes(b[: fs.room]))
                    fs.room = 0
                    if n:
                        return n
                    raise OSError(errno.ENOSPC, "No space left on device")
                fs.room -= len(b)
                return real(b)

            def __getattr__(self, k):
                return getattr(f, k)

        return Writer()


def board(tmp_path, fs):
    app, out = make_referee("hoth", seed=5)
    app.set_journal(Journal(fs, "/game"))
    return app, out


def state(app):
    g = app.game
    return app.gid, g.seq, g.state_hash()


def play(app, n):
    for _ in range(n):
        app.link.handle_line('{"c": "roll", "values": [12, 5]}')
        app.link.handle_line('{"c": "undo"}')


def played(tmp_path, fs, n):
    """A hoth game of ``n`` rolls and undos journaled on ``fs``: (app, its lines, its state)."""
    app, out = board(tmp_path, fs)
    app.load_scenario("hoth")
    play(app, n)
    return app, out, state(app)


def test_a_refused_append_leaves_no_half_record(tmp_path):
    fs = FullFS(str(tmp_path))
    app, out, before = played(tmp_path, fs, 10)
    fs.room = 5  # less than a record
    app.link.handle_line('{"c": "roll", "values": [12, 5]}')
    assert json.loads(out[-1])["msg"].startswith("journal: flash full")
    assert state(app) == before
    again, _ = board(tmp_path, OSFS(str(tmp_path)))
    again.boot("hoth")
    assert not again.boot_note and state(again) == before  # nothing to call damage


def test_a_repair_with_no_room_keeps_the_game_and_tries_again(tmp_path):
    fs = FullFS(str(tmp_path))
    app, out, before = played(tmp_path, fs, 10)
    with open(os.path.join(str(tmp_path), "game", "log.bin"), "ab") as f:
        f.write(b"\x01" * 8)  # damage after the last record
    files = sorted(os.listdir(os.path.join(str(tmp_path), "game")))
    fs.room = 0  # and no room left at all
    app, out = board(tmp_path, fs)
    app.boot("hoth")
    assert state(app) == before  # the game, not a new one
    assert "journal damaged" in app.boot_note and "not repaired" in app.boot_note
    assert sorted(os.listdir(os.path.join(str(tmp_path), "game"))) == files  # put back
    app.link.handle_line('{"c": "roll", "values": [12, 5]}')  # still no room: refused
    assert "damaged and not repaired" in json.loads(out[-1])["msg"] and state(app) == before
    # a power cut now: the same game again, from the same files
    app2, _ = board(tmp_path, fs)
    app2.boot("hoth")
    assert state(app2) == before and "not repaired" in app2.boot_note
    # room again: the next event repairs the journal first, then is written
    fs.room = 1 << 30
    app2.link.handle_line('{"c": "roll", "values": [12, 5]}')
    assert app2.game.seq == before[1] + 1
    after = state(app2)
    app3, _ = board(tmp_path, OSFS(str(tmp_path)))
    app3.boot("hoth")
    assert not app3.boot_note and state(app3) == after


def test_a_damaged_set_up_on_a_full_flash_is_said_at_every_boot(tmp_path):
    """The set-up fails its check (no game can be restored) and there is no room for the
    default scenario's journal: the boot fails with the OSError and the damaged files stay in
    place, so the next boot (with room) sets them aside and says so, instead of finding an
    empty journal and starting a new game silently."""
    fs = FullFS(str(tmp_path))
    app, _, _ = played(tmp_path, fs, 5)
    d = os.path.join(str(tmp_path), "game")
    with open(os.path.join(d, "setup.json"), "r+b") as f:
        f.seek(10)
        b = f.read(1)
        f.seek(10)
        f.write(bytes([b[0] ^ 0x20]))
    files = sorted(os.listdir(d))
    fs.room = 0
    app, _ = board(tmp_path, fs)
    try:
        app.boot("hoth")
        raise AssertionError("booted with no room for a new game")
    except OSError:
        pass
    assert sorted(os.listdir(d)) == files  # put back, as they were
    fs.room = 1 << 30
    app, _ = board(tmp_path, fs)
    app.boot("hoth")
    assert "journal damaged: no game restored" in app.boot_note and app.game.seq == 0
    assert sorted(os.listdir(d + ".bad")) == files


class MuteFS(OSFS):
    """The host's filesystem, but an append's write takes nothing and says nothing (returns
    0, as a file object may when it has no room and raises no error)."""

    def open(self, p, mode):
        f = OSFS.open(self, p, mode)
        if "a" not in mode:
            return f

        calls = []

        class Mute:
            def write(self, b):
                calls.append(1)
                if len(calls) > 100:  # (the old loop: fail, do not hang the suite)
                    raise AssertionError("Files._append keeps writing")
                return 0

            def __getattr__(self, k):
                return getattr(f, k)

        return Mute()


def test_a_write_that_takes_nothing_is_refused_not_looped_on(tmp_path):
    app, out, before = played(tmp_path, OSFS(str(tmp_path)), 3)
    app.journal.files.fs = MuteFS(str(tmp_path))
    app.link.handle_line('{"c": "roll", "values": [12, 5]}')
    assert json.loads(out[-1])["msg"].startswith("journal: flash full") and state(app) == before
