"""The power-safe journal on a real littlefs image (littlefs-python), with the power cut at
every write position of a 200-event game."""

import pytest

from support.game import new_game
from support.gen import play
from devtools.flashsim import PowerCutDevice, new_fs, LfsFS, GEOMETRY
from referee.journal import Journal
from referee.journal_rec import head, record, parse_records

SIZE = GEOMETRY["block_size"] * GEOMETRY["block_count"]
EVENTS = 200
BUDGET = 32


class PowerCut(Exception):
    pass


REFERENCE = {}


def reference(scenario="swsb-example", seed=11):
    """State hashes after each event of the game as played with no journal at all."""
    key = (scenario, seed)
    if key not in REFERENCE:
        REFERENCE[key] = play(new_game(scenario), EVENTS, seed)
    return REFERENCE[key]


def run(cut_at, scenario="swsb-example", seed=11, defer=False, stats=None):
    """Play the game with the power cut at the ``cut_at``-th write after formatting; the board
    stops there. Returns (device, number of events whose append had returned before the cut;
    -1 if the cut came while the journal was being created). ``defer``: snapshots left due
    and written by ``maintain`` as the board's loop does, one step per call, ``seq % 3``
    calls after event ``seq`` (so events come between the steps, as in a stream of serial
    lines); ``stats`` (a dict)
    counts the steps done and the snapshots finished."""
    dev = PowerCutDevice(SIZE)
    fs = LfsFS(new_fs(dev))  # a formatted board, power on
    dev.formatted_at = dev.progs
    if cut_at is not None:
        dev.cut_at = dev.progs + cut_at
    g = new_game(scenario)
    done = [-1]
    try:
        j = Journal(fs, "/game", budget=BUDGET, history_budget=4096)
        j.new_game('{"setup": 1}', g)
        if dev.dead:
            raise PowerCut
        done[0] = 0
        j.writer.defer = defer

        def on_event(seq, ev):
            if stats is not None and j.writer.step:
                stats["between"] = stats.get("between", 0) + 1  # a snapshot half written
            j.writer.append(g, seq, ev)
            if dev.dead:
                raise PowerCut
            done[0] = seq
            if stats is not None:
                stats["log"] = max(stats.get("log", 0), j.writer.records)
            for _ in range(seq % 3 if defer else 0):
                start = j.writer.log_start
                if not j.writer.maintain(g):
                    break
                if dev.dead:
                    raise PowerCut
                if stats is not None:
                    stats["steps"] = stats.get("steps", 0) + 1
                    stats["snapshots"] = stats.get("snapshots", 0) + (j.writer.log_start != start)

        play(g, EVENTS, seed, on_event)
    except PowerCut:
        pass
    return dev, done[0]


def recover(dev, scenario="swsb-example"):
    image = PowerCutDevice(SIZE, buffer=bytearray(dev.frozen if dev.dead else dev.buffer))
    fs = LfsFS(new_fs(image, fmt=False))
    j = Journal(fs, "/game", budget=BUDGET, history_budget=4096)
    g = new_game(scenario)
    j.restore(g)
    return g, j


def test_full_game_restores_exactly():
    dev, done = run(None)
    hashes = reference()
    assert done == EVENTS
    g, j = recover(dev)
    assert g.seq == EVENTS and g.state_hash() == hashes[-1]
    assert j.setup() == '{"setup": 1}'
    # the whole history is still on flash
    evs = list(j.events(0))
    assert [s for s, _ in evs] == list(range(1, EVENTS + 1))


def test_restored_game_goes_on_and_keeps_undo():
    dev, _ = run(None)
    hashes = reference()
    g, _j = recover(dev)
    assert g.submit((5, 0, 0, 0)) is None  # undo works across the restart
    assert g.state_hash() != hashes[-1]


@pytest.mark.parametrize("defer", [False, True], ids=["in-event", "loop-steps"])
def test_power_cut_at_every_write_position(defer):
    """``loop-steps``: the board's way, snapshots written by the loop one littlefs operation
    at a time with events coming in between (journal.Journal.maintain)."""
    dev = run(None, defer=defer)[0]
    total = dev.progs - dev.formatted_at
    assert total > EVENTS  # several writes per event
    hashes = reference()
    worst_loss = 0
    for cut in range(total):
        dev, done = run(cut, defer=defer)
        if done < 0:  # cut while creating the journal
            continue
        try:
            g, _j = recover(dev)
        except ValueError:
            assert done == 0  # nothing was journaled yet
            continue
        # a prefix of the game played, never corrupt, losing at most the event in flight
        assert done <= g.seq <= done + 1, (cut, done, g.seq)
        assert g.state_hash() == hashes[g.seq], cut
        worst_loss = max(worst_loss, done - g.seq)
    assert worst_loss == 0


def test_snapshots_written_in_steps_keep_the_whole_history():
    """Events between two steps do not start the snapshot over: the new log gets their
    records (step 3, from the RAM window); the history still holds every event once, the
    log stays short, and a restore gives the game played."""
    stats = {}
    dev, done = run(None, defer=True, stats=stats)
    assert done == EVENTS
    assert stats["between"] > 2 * EVENTS // BUDGET  # events came mid-snapshot
    assert stats["snapshots"] >= EVENTS // BUDGET - 1  # they do finish
    assert stats["steps"] <= 6 * stats["snapshots"] + 5  # none started over (step 4 may
    # write the new log again once)
    assert stats["log"] < BUDGET + 6  # 5 steps, in 3 events at most (+ 2)
    g, j = recover(dev)
    assert g.seq == EVENTS and g.state_hash() == reference()[-1]
    assert [s for s, _ in j.events(0)] == list(range(1, EVENTS + 1))


def test_torn_record_is_dropped():
    key = 1234
    data = head(key, 0) + record(key, 1, (4, 0, 0, 0)) + record(key, 2, (2, 3, -1, 255))
    assert parse_records(data, key, 0) == ([(1, (4, 0, 0, 0)), (2, (2, 3, -1, 255))], len(data))
    bad = bytearray(data)
    bad[-1] ^= 0xFF
    assert parse_records(bytes(bad), key, 0)[0] == [(1, (4, 0, 0, 0))]
    assert parse_records(data[:-3], key, 0)[0] == [(1, (4, 0, 0, 0))]
    assert parse_records(data, key + 1, 0)[0] == []  # another game's key: nothing checks


def test_history_ring_keeps_the_newest_chunks(tmp_path):
    from referee.journal import OSFS
    from referee.journal_rec import CHUNK

    g = new_game("swsb-example")
    j = Journal(OSFS(str(tmp_path)), "/game", history_budget=2 * 4096)  # two chunks
    j.new_game("{}", g)
    play(g, 3 * CHUNK + 10, 3, lambda seq, ev: j.writer.append(g, seq, ev))
    seqs = [s for s, _ in j.events(0)]
    assert seqs == list(range(seqs[0], g.seq + 1))  # contiguous up to the newest event
    assert CHUNK < seqs[0] <= 2 * CHUNK + 1  # the oldest chunk was overwritten
    assert len([n for n in (tmp_path / "game").iterdir() if n.name.startswith("h")]) == 2
    g2 = new_game("swsb-example")
    Journal(OSFS(str(tmp_path)), "/game", history_budget=2 * 4096).restore(g2)
    assert g2.state_hash() == g.state_hash()


def test_a_snapshot_whose_events_left_the_ram_window_starts_over(tmp_path):
    """Step 3 builds the new log from the RAM window; when the window folded past the
    history's end meanwhile, the snapshot starts over at step 0 (the old log still holds
    every event), and the finished one restores the game played."""
    from referee import rules, scenarios
    from referee.game import Game
    from referee.journal import OSFS
    from support.game import scenario_text

    norm, _ = scenarios.load_text(scenario_text("swsb-example"))
    g = Game(rules.get(norm["ruleset"]), norm, None, window=8)
    j = Journal(OSFS(str(tmp_path)), "/game", budget=BUDGET)
    j.new_game("{}", g)
    j.writer.defer = True
    seen = []

    def on_event(seq, ev):
        j.writer.append(g, seq, ev)
        if j.writer.due and not seen:
            for _ in range(3):  # steps 0-2: the history up to S, the snapshot
                assert j.writer.maintain(g)
            seen.append(j.writer.step_seq)
        elif len(seen) == 1 and g.event_window.base_seq > seen[0]:
            assert j.writer.step == 3 and j.writer.maintain(
                g
            )  # step 3: events since S are out of RAM
            seen.append(j.writer.step)
            while j.writer.due:  # then it runs through from step 0
                assert j.writer.maintain(g)

    play(g, 3 * BUDGET, 7, on_event)
    assert seen[1] == 0
    assert j.writer.log_start > seen[0]  # the finished snapshot's history end is later
    g2, j2 = recover_dir(tmp_path, window=8)
    assert g2.seq == g.seq and g2.state_hash() == g.state_hash()
    assert [s for s, _ in j2.events(0)] == list(range(1, g.seq + 1))


def recover_dir(path, window=256):
    from referee import rules, scenarios
    from referee.game import Game
    from referee.journal import OSFS
    from support.game import scenario_text

    norm, _ = scenarios.load_text(scenario_text("swsb-example"))
    g = Game(rules.get(norm["ruleset"]), norm, None, window=window)
    j = Journal(OSFS(str(path)), "/game", budget=BUDGET)
    j.restore(g)
    assert j.problems == []
    return g, j


@pytest.mark.parametrize(
    "mode", ["tmp-appended", "tmp-append-fails", "tmp-append-no-memory", "key-commits"]
)
@pytest.mark.parametrize(
    "gaps", [(0, 0, 0, 1, 0), (0, 0, 0, 1, 1), (0, 0, 0, 1, 1, 1), (2, 1, 3, 2, 2)]
)
def test_events_after_the_new_log_is_written_reach_it(tmp_path, gaps, mode):
    """``gaps[k]``: events that come after maintain's k-th call of a due snapshot. Events
    after step 3 (log.bin.tmp written) are appended to log.bin.tmp too, so step 4 is the
    rename; when that append fails (OSError or MemoryError: the append returns, its
    records are on flash in log.bin), or for a key's group commit (``commit(game, False)``:
    no second write while a press waits), step 4 writes log.bin.tmp again, and if events
    came again, writes it and renames it in one call. Every event ends up in the new log
    and the history, and a restore gives the game played, with no damage noted."""
    from referee.journal import OSFS

    class FS(OSFS):
        def open(self, p, mode_):
            if p.endswith("log.bin.tmp") and mode_ == "ab":
                if mode == "tmp-append-fails":
                    raise OSError(28)
                if mode == "tmp-append-no-memory":  # the file's cache not allocated: the
                    raise MemoryError  # records are in log.bin all the same
            return OSFS.open(self, p, mode_)

    g = new_game("swsb-example")
    j = Journal(FS(str(tmp_path)), "/game", budget=BUDGET)
    j.new_game("{}", g)
    j.writer.defer = True

    def more(n, seed):
        key = mode == "key-commits" and j.writer.step
        play(g, g.seq + n, seed, lambda seq, ev: j.writer.append(g, seq, ev, hold=key))
        if key:
            j.writer.commit(g, False)

    more(BUDGET, 4)
    assert j.writer.due
    k = 0
    while j.writer.due:
        assert j.writer.maintain(g)
        more(gaps[k] if k < len(gaps) else 0, k)
        k += 1
    again = mode != "tmp-appended" and gaps[3] > 0
    assert k == 5 + again  # no step started over
    assert j.writer.twice == (1 if again and gaps[4] else 0)
    assert j.writer.records == g.seq - j.writer.log_start and j.writer.records >= sum(gaps[1:5])
    g2, j2 = recover_dir(tmp_path)
    assert g2.seq == g.seq and g2.state_hash() == g.state_hash()
    assert [s for s, _ in j2.events(0)] == list(range(1, g.seq + 1))


def snapshot_due(fs):
    """A new swsb game journaled on ``fs`` with snapshots left to the loop (``defer``), played
    until a snapshot is due: (game, journal)."""
    g = new_game("swsb-example")
    j = Journal(fs, "/game", budget=BUDGET)
    j.new_game("{}", g)
    j.writer.defer = True
    play(g, BUDGET, 4, lambda seq, ev: j.writer.append(g, seq, ev))
    return g, j


def test_a_whole_snapshot_during_the_steps_supersedes_them(tmp_path):
    """A snapshot written whole (set_base, the 2 x budget rule) while the steps wait at the
    rename of the new log: the steps start over, so a log.bin.tmp it left (its own rename
    failed) is never renamed over the log, and every event stays restorable."""
    from referee.journal import OSFS

    class FS(OSFS):
        fail = False

        def rename(self, a, b):
            if self.fail and a.endswith("log.bin.tmp"):
                raise OSError(28)
            return OSFS.rename(self, a, b)

    fs = FS(str(tmp_path))
    g, j = snapshot_due(fs)
    for _ in range(4):
        assert j.writer.maintain(g)
    assert j.writer.step == 4  # log.bin.tmp written, waiting for its rename
    fs.fail = True
    with pytest.raises(OSError):
        j.writer.snapshot(g)  # its log's rename fails: log.bin.tmp = head
    fs.fail = False
    assert j.writer.step == 0
    play(g, g.seq + 3, 5, lambda seq, ev: j.writer.append(g, seq, ev))
    while j.writer.due:
        assert j.writer.maintain(g)
    g2, j2 = recover_dir(tmp_path)
    assert g2.seq == g.seq and g2.state_hash() == g.state_hash()
    assert [s for s, _ in j2.events(0)] == list(range(1, g.seq + 1))


def test_no_memory_for_a_step_leaves_it_for_later(tmp_path):
    """A MemoryError in a step (no block for a buffer on a fragmented heap) is not the
    loop's crash: the snapshot is tried again after the next event, and nothing is lost."""
    from referee.journal import OSFS

    class FS(OSFS):
        fail = False

        def open(self, p, mode):
            if self.fail and p.endswith("snap.bin.tmp"):
                raise MemoryError
            return OSFS.open(self, p, mode)

    fs = FS(str(tmp_path))
    g, j = snapshot_due(fs)
    fs.fail = True
    assert j.writer.maintain(g) and j.writer.maintain(g)  # step 0, then step 1 fails: for later
    assert not j.writer.due and j.writer.step == 0
    fs.fail = False
    play(g, g.seq + 1, 5, lambda seq, ev: j.writer.append(g, seq, ev))
    assert j.writer.due
    while j.writer.due:
        assert j.writer.maintain(g)
    assert j.writer.log_start > BUDGET - 1
    g2, j2 = recover_dir(tmp_path)
    assert g2.seq == g.seq and g2.state_hash() == g.state_hash()
    assert [s for s, _ in j2.events(0)] == list(range(1, g.seq + 1))
