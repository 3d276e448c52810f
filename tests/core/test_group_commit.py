"""Group commit on the board (fewer flash writes per event; all or nothing): a pressed
key's events are applied and lit at once, held in RAM and written to the journal together, and
announced (``ev`` lines) only once they are on flash. A cut before the commit loses only
events nobody was told of; a failed commit takes every held event back; a serial line commits
first, so the lines stay in order; the window never folds inside a batch."""

import json
import random

from hypothesis import HealthCheck, given, settings, strategies as st

from support.game import default_board, make_referee
from referee.journal import Journal, OSFS
from referee.keymap import KeyMap
from referee.app import ACTIONS
from referee import assembly
from referee.loop import Runner
from referee.render import Renderer

FLAT = [a for row in default_board()["keys"] for a in row]


class Keys(assembly.Keys):
    """Key driver: each poll returns the next queued key (index, short press); ``down``: a
    key is held (not resting)."""

    def __init__(self):
        self.queue = []
        self.down = False

    def poll(self, now):
        return (self.queue.pop(0), False) if self.queue else None

    def active(self):
        return self.down

    def resting(self):
        return not self.down


class Display(assembly.Display):
    def show(self, fb):
        pass


class Serial(assembly.Serial):
    def read_line(self):
        return None

    def write_line(self, s):
        pass


def board(tmp, hold_ms=1000, scenario="swsb-example"):
    """The referee with a journal in ``tmp`` holding a key's events (as main.py sets it up),
    a game in its attack phase; returns (app, out, runner)."""
    app, out = make_referee(scenario)
    j = Journal(OSFS(str(tmp)), "/game")
    app.set_journal(j)
    app.load_scenario(scenario)
    for c in ("roll", "phase", "phase", "phase"):  # to the attack phase
        app.link.handle_line(
            '{"c": "roll", "values": [12, 5]}' if c == "roll" else '{"c": "phase"}'
        )
    j.writer.defer = True
    app.group.hold_ms = hold_ms
    keys = Keys()
    r = Runner(app, KeyMap(default_board(), ACTIONS), keys, Display(), Serial(), Renderer(16, 16))
    return app, out, r


def flash_full(*a):
    """In place of the journal's littlefs append: the flash is full."""
    raise OSError(28, "no space left on device")


def press(r, *actions):
    for a in actions:
        r.keys.queue.append(FLAT.index(a))
        r.step_keys()


def held(app):
    """The seqs the referee holds for its next journal commit (list of int)."""
    group = app.group
    return list(range(group.first_seq, group.first_seq + group.count))


def due(app, idle):
    """What the board's loop asks the group at ``app.now_ms``."""
    return app.group.due(app.now_ms, idle, app.game.event_window.full())


def evs(out, n=0):
    return [json.loads(x) for x in out[n:] if json.loads(x)["t"] == "ev"]


def state(app):
    g = app.game
    return (app.gid, g.seq, g.state_hash(), list(g.effective), g.get_window(), app.mark)


def restored(tmp):
    """What a board booting from this flash now (a power cut) restores: (seq, state hash)."""
    app, _ = make_referee("hoth", seed=11)
    app.set_journal(Journal(OSFS(str(tmp)), "/game"))
    app.boot("hoth")
    assert not app.boot_note
    return app.game.seq, app.game.state_hash()


def flash(tmp):
    d = tmp / "game"
    return {p.name: p.read_bytes() for p in sorted(d.iterdir())}


def test_a_keys_events_are_lit_held_then_committed_together_and_announced(tmp_path):
    app, out, r = board(tmp_path)
    g = app.game
    seq0, h0 = g.seq, g.state_hash()
    files = flash(tmp_path)
    n = len(out)
    press(r, "dmg+", "dmg+", "sel+", "dmg+")
    assert g.seq == seq0 + 3 and held(app) == [seq0 + 1, seq0 + 2, seq0 + 3]
    assert evs(out, n) == []  # nothing announced yet
    assert flash(tmp_path) == files  # nothing written yet
    assert restored(tmp_path) == (seq0, h0)  # a cut now loses only the unannounced
    written = app.journal.files.bytes_written
    assert app.flush() == 3
    lines = evs(out, n)
    assert [m["seq"] for m in lines] == [seq0 + 1, seq0 + 2, seq0 + 3]
    assert lines[-1]["hash"] == g.state_hash()
    assert app.journal.files.bytes_written - written == 3 * 12  # three records, one append
    assert restored(tmp_path) == (g.seq, g.state_hash())
    assert app.flush() == 0 and held(app) == []


def test_a_failed_commit_takes_every_held_event_back(tmp_path, monkeypatch):
    app, out, r = board(tmp_path)
    press(r, "dmg+")
    app.flush()
    press(r, "mark")  # a UI mark, no event: restored with them
    before = state(app)
    files = flash(tmp_path)
    n = len(out)
    press(r, "dmg+", "undo", "sel+", "dmg+", "dmg+", "phase")
    assert app.game.seq == before[1] + 5 and app.group.count == 5
    monkeypatch.setattr(app.journal.files, "append", flash_full)
    assert app.flush() == 0
    assert state(app) == before
    err = json.loads(out[-1])
    assert err["t"] == "err" and "5 event(s) taken back" in err["msg"]
    assert evs(out, n) == [] and held(app) == []
    assert flash(tmp_path) == files
    monkeypatch.undo()
    press(r, "dmg+")  # the board goes on from there
    app.flush()
    assert [m["seq"] for m in evs(out, n)] == [before[1] + 1]
    assert restored(tmp_path) == (app.game.seq, app.game.state_hash())


def test_a_serial_line_commits_the_held_events_first(tmp_path):
    app, out, r = board(tmp_path)
    seq0 = app.game.seq
    press(r, "dmg+", "dmg+")
    n = len(out)
    app.link.handle_line('{"c": "hit", "ship": 1, "n": 1}')
    got = [json.loads(x) for x in out[n:]]
    assert [m["seq"] for m in got if m["t"] == "ev"] == [seq0 + 1, seq0 + 2, seq0 + 3]
    assert held(app) == []
    n = len(out)
    press(r, "dmg+")
    app.link.handle_line('{"c": "state"}')  # a question: the answer sees it on flash
    got = [json.loads(x) for x in out[n:]]
    assert got[0]["t"] == "ev" and got[0]["seq"] == seq0 + 4


def test_the_serial_key_command_is_not_held(tmp_path):
    app, out, _r = board(tmp_path)
    n = len(out)
    app.link.handle_line('{"c": "key", "key": "dmg+"}')
    assert held(app) == [] and [m["seq"] for m in evs(out, n)] == [app.game.seq]


def test_when_the_loop_commits(tmp_path):
    app, _out, r = board(tmp_path, hold_ms=1000)
    app.now_ms = 5000
    press(r, "dmg+")
    app.group.first_ms = app.group.last_ms = 5000
    app.now_ms = 5999
    assert not due(app, True)
    app.now_ms = 6000
    assert due(app, True)  # a second with no new event, keys idle
    assert not due(app, False)  # ... but a key is down
    app.now_ms = 8999
    app.group.last_ms = 8500
    assert not due(app, False)
    app.now_ms = 9000
    assert due(app, False)  # four seconds since the first: at once
    app.flush()
    press(r, *["dmg+"] * 7)
    app.group.first_ms = app.group.last_ms = app.now_ms
    assert app.group.count == 7 and not due(app, False)
    press(r, "dmg-")
    assert due(app, False)  # eight held
    # the loop's own turn: a due commit, then the snapshot
    app.group.hold_ms = 0.0001
    r.step_maintain()
    assert held(app) == []


def test_a_batch_never_spans_a_fold(tmp_path):
    app, out, r = board(tmp_path)
    g = app.game
    announced = []
    n = 0
    for i in range(3 * g.event_window.size):
        press(r, "dmg+" if i % 3 else "dmg-")
        ms = evs(out, n)
        n = len(out)
        announced += [m["seq"] for m in ms]
        assert announced + held(app) == list(
            range(announced[0] if announced else held(app)[0], g.seq + 1)
        )
        # the checkpoint before the batch's first event is still on this window
        assert not held(app) or app.group.saved[0][4] == g.event_window.base_seq  # (its base_seq)
    assert g.event_window.base_seq > 0 and announced  # it folded, and committed before it did


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    st.lists(
        st.one_of(
            st.sampled_from(["dmg+", "dmg-", "sel+", "sel-", "side", "mark", "undo", "phase"]),
            st.sampled_from(["COMMIT", "FAIL", "LINE"]),
        ),
        max_size=60,
    ),
    st.integers(0, 1000),
)
def test_any_presses_and_commits_announce_every_event_once_in_order(tmp_path_factory, steps, seed):
    tmp = tmp_path_factory.mktemp("gc")
    app, out, r = board(tmp)
    g = app.game
    announced = [m["seq"] for m in evs(out)]
    ok = {g.seq: g.state_hash()}  # seq -> hash of what was announced
    batch_start = None
    rng = random.Random(seed)
    for step in steps:
        n = len(out)
        if step == "COMMIT":
            app.flush()
        elif step == "FAIL":
            if held(app):
                start = state(app)[:3] if batch_start is None else batch_start
                real = app.journal.files.append

                def full(*a):
                    raise OSError(5, "EIO")

                app.journal.files.append = full
                app.flush()
                app.journal.files.append = real
                assert (app.gid, g.seq, g.state_hash()) == start
        elif step == "LINE":
            app.link.handle_line('{"c": "hit", "ship": %d, "n": 1}' % rng.randrange(3))
        else:
            if not held(app):
                batch_start = state(app)[:3]
            press(r, step)
        got = evs(out, n)
        for m in got:
            ok[m["seq"]] = m["hash"]
        announced += [m["seq"] for m in got]
        if not held(app):
            batch_start = None
        # every event announced once, in order, and seq moves only by held or announced ones
        assert announced == list(range(announced[0], announced[-1] + 1)) if announced else True
        top = announced[-1] if announced else 0
        assert g.seq == top + app.group.count
        assert held(app) == list(range(top + 1, g.seq + 1))
    seq, h = restored(tmp)
    top = announced[-1] if announced else 0
    assert (seq, h) == (top, ok[top])  # a cut now: exactly what was announced


def _lines(out, n):
    return [json.loads(x) for x in out[n:]]


def test_an_append_lines_events_are_written_sixteen_to_a_commit(tmp_path):
    """A host's ``append`` line (fleetref restore sends 100 events a line): its events are
    written 16 to a littlefs commit, not one each, and announced once on flash, in order,
    before the ``ok``."""
    app, out, _r = board(tmp_path)
    g = app.game
    seq0 = g.seq
    writes = []
    real = app.journal.files.append
    app.journal.files.append = lambda name, data: (
        writes.append((name, len(data))),
        real(name, data),
    )[1]
    n = len(out)
    evs_ = [[2, 1, 1 if k % 2 == 0 else -1, 255] for k in range(20)]
    app.link.handle_line(json.dumps({"c": "append", "events": evs_}))
    got = _lines(out, n)
    assert [m["t"] for m in got] == ["ev"] * 20 + ["ok"]
    assert [m["seq"] for m in got[:20]] == list(range(seq0 + 1, seq0 + 21))
    assert got[-1]["seq"] == g.seq == seq0 + 20 and got[-1]["hash"] == g.state_hash()
    assert [w for w in writes if w[0] == "log.bin"] == [("log.bin", 16 * 12), ("log.bin", 4 * 12)]
    assert held(app) == [] and restored(tmp_path) == (g.seq, g.state_hash())


def test_a_refused_event_stops_an_append_line_after_those_before_it(tmp_path):
    app, out, _r = board(tmp_path)
    g = app.game
    seq0 = g.seq
    n = len(out)
    app.link.handle_line(
        json.dumps(
            {
                "c": "append",
                "events": [[2, 1, 1, 255], [2, 1, -1, 255], [99, 0, 0, 0], [2, 1, 1, 255]],
            }
        )
    )
    got = _lines(out, n)
    assert [m["t"] for m in got] == ["ev", "ev", "err"]  # announced, then the refusal
    assert got[-1]["src"] == "serial" and got[-1]["c"] == "append"
    assert g.seq == seq0 + 2 and held(app) == []
    assert restored(tmp_path) == (g.seq, g.state_hash())
    n = len(out)
    app.link.handle_line(json.dumps({"c": "append", "events": [[2, 1, 1, 255], "x"]}))
    assert [m["t"] for m in _lines(out, n)] == ["ev", "err"]  # a malformed one: the same
    assert g.seq == seq0 + 3 and restored(tmp_path) == (g.seq, g.state_hash())


def test_a_failed_append_commit_takes_the_lines_events_back(tmp_path, monkeypatch):
    app, out, _r = board(tmp_path)
    before = state(app)
    files = flash(tmp_path)
    monkeypatch.setattr(app.journal.files, "append", flash_full)
    n = len(out)
    app.link.handle_line(json.dumps({"c": "append", "events": [[2, 1, 1, 255]] * 3}))
    got = _lines(out, n)
    assert [m["t"] for m in got] == ["err"]  # no ev line, no ok
    assert got[0]["src"] == "serial" and "3 event(s) taken back" in got[0]["msg"]
    assert state(app) == before and flash(tmp_path) == files


def test_an_append_line_over_a_window_fold_with_flash_failing_changes_nothing(
    tmp_path, monkeypatch
):
    """The held events of a line are committed before the RAM window folds; when that write
    fails they are taken back and the refusal is the line's (src serial), and the rest of the
    line is not announced either: the game is as before, no ``ok``."""
    app, out, _r = board(tmp_path)
    g = app.game
    g.window_size = 8
    app.flush()
    before = state(app)
    files = flash(tmp_path)
    monkeypatch.setattr(app.journal.files, "append", flash_full)
    n = len(out)
    app.link.handle_line(
        json.dumps({"c": "append", "events": [[2, 1, 1 - 2 * (k % 2), 255] for k in range(12)]})
    )
    got = _lines(out, n)
    assert got and all(m["t"] == "err" and m["src"] == "serial" for m in got), got
    assert state(app) == before and flash(tmp_path) == files and held(app) == []


def test_the_idle_loop_replays_the_next_folds_base_ahead(tmp_path):
    """Between a key's events and its commit, the loop's idle turn (Runner.step_maintain)
    commits, writes a due snapshot a step a turn, and then replays the next fold's base
    (Game.prepare_fold); not while a key is down. The press that folds the window then
    applies only its own event."""
    app, _out, r = board(tmp_path, hold_ms=0.0001)
    g = app.game
    keys = ["dmg+", "dmg+", "undo", "dmg-", "dmg+"]  # undos: the fold's depth off the grid
    i = 0
    while g.event_window.count() < g.event_window.size - 20:
        press(r, keys[i % 5])
        i += 1
    assert g.event_window.start(g.event_window.fold_depth())[1] < g.event_window.fold_depth()
    r.keys.down = True  # a key is down: nothing is done
    for _ in range(10):
        assert not r.step_maintain()
    assert g.event_window.next_base is None
    r.keys.down = False
    turns = 0
    while r.step_maintain() or held(app):  # commit, snapshot steps, the fold's base
        turns += 1
        assert turns < 50
    assert g.event_window.next_base is not None and not r.step_maintain()  # once
    m, st = g.event_window.next_base
    assert m == g.event_window.fold_depth()
    from support.game import counting

    applied = counting(g)
    base = g.base_seq
    while g.base_seq == base:
        applied[0] = 0
        press(r, keys[i % 5])
        i += 1
    assert applied[0] == 1 and g.event_window.next_base is None
    assert g.event_window.base == st  # the base it replayed ahead
