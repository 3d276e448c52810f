"""Recovery of the journal's game at boot: the longest prefix that checks, and the repair of a
damaged journal (its files kept aside). Functions of a :class:`referee.journal.Journal` ``j``:
they read the files back through it (``events``, ``chunks``, ``read_snapshot``) and write
through its writer (journal_write.py); what they found goes into ``j.problems``, ``j.seen``
and ``j.aside``."""

from referee import journal_rec as formats

BAD_KEEP = 3  # folders of damaged files kept aside (/game.bad, /game.bad2, /game.bad3)


class JournalError(ValueError):
    """The journal holds a game that cannot be restored (its set-up fails its check)."""


def _take(game, snap):
    """Set ``game`` to snapshot ``snap`` (journal_rec.parse_snap's tuple); True when its
    state hash matches the stored one."""
    base_seq, base, evs, hashes, eff, state_hash, _, _ = snap
    try:
        game.set_window(base_seq, base, evs, hashes, eff)
    except (ValueError, IndexError, KeyError, TypeError):
        return False
    return int(game.state_hash(), 16) == state_hash


def _extend(j, game):
    """Apply the events on flash that follow on from ``game.seq``; returns the seq reached."""
    for seq, ev in j.events(game.seq):
        if seq != game.seq + 1:
            break
        r = game.submit(ev)
        if r:
            j.problems.append("event %d on flash is refused by the rules (%s)" % (seq, r))
            break
    return game.seq


def _read_log(files, key, probs):
    """(start, records, newest seq named) of log.bin; damage goes into ``probs``."""
    log = files.read("log.bin")
    start = formats.head_seq(key, log)
    recs = []
    seen = 0
    if log is None:
        probs.append("log.bin is missing")
    elif start is None:
        probs.append("log.bin's header fails its check")
    else:
        recs, end = formats.parse_records(log, key, start)
        seen = recs[-1][0] if recs else 0
        if end != len(log):
            probs.append(
                "log.bin: %d bytes after event %d fail their check"
                % (len(log) - end, recs[-1][0] if recs else start)
            )
            for o in range(end, len(log) - formats.REC + 1):  # what the damage hides
                if formats.record_ok(key, log, o):
                    seen = max(seen, formats.u32(log, o + 4))
    return start, recs, seen


def restore(j, game):
    """Rebuild ``game`` (a fresh Game of the journal's set-up) from the snapshot, history
    and log: the longest prefix that checks. Returns the seq reached. ``j.problems`` then
    lists what was damaged (empty after a clean shutdown or a power cut). Raises
    JournalError when the set-up does not check (Journal.setup)."""
    w = j.writer
    files = j.files
    if w.key is None and j.setup() is None:
        raise JournalError("no saved game")
    j.problems = probs = []
    j.aside = None
    w.tail = None  # the history is read back, not taken from RAM
    start, recs, seen = _read_log(files, w.key, probs)
    best, seen = _best_snapshot(j, game, probs, seen)
    if best is not None:
        _take(game, best)
        base_seq, _, evs, _, _, _, slot, hfirst = best
        w.chunk = slot % w.slots
        w.hfirst = hfirst
    else:
        game.set_window(0, None, b"", b"", [])  # replay the history from event 1
    _extend(j, game)
    for s, ev in j.events(game.seq):
        seen = max(seen, s)
    hist = _history_gap(j, game)
    if hist:
        probs.append(hist)
    _chunk_problems(j, probs)
    j.seen = max(seen, game.seq)
    for n in files.names():
        if n.endswith(".tmp"):
            files.remove(n)  # stale temporary files of a cut write
    if probs or best is None or start is None:  # (no start: a problem said so)
        return game.seq
    w.records = len(recs)
    w.log_start = start
    if start > base_seq + len(evs) // 4 or len(recs) != game.seq - start:
        w.snapshot(game)  # a cut during rotation: start a clean log
    # (a log may start before the snapshot: maintain's new log starts where the history
    # ends; restore skips the records the snapshot holds)
    return game.seq


def _best_snapshot(j, game, probs, seen):
    """Of snap.bin and a snap.bin.tmp left by a cut write, the one from which the history
    and log rebuild the most events (each tried on ``game``), or None; with ``seen`` raised
    to the newest event a snapshot holds. What does not check goes to ``probs``. Returns
    (snapshot, seen)."""
    best = None  # the snapshot that reaches furthest, and how far
    reached = 0
    for name in ("snap.bin", "snap.bin.tmp"):
        snap = j.read_snapshot(name)
        if snap is None:
            if name == "snap.bin":
                probs.append(
                    "snap.bin is %s"
                    % ("missing" if j.files.read(name) is None else "damaged or of another game")
                )
            continue
        base_seq, _, evs, _, _, _, _, _ = snap
        seen = max(seen, base_seq + len(evs) // 4)
        if not _take(game, snap):
            probs.append("%s does not rebuild the state it stored" % name)
            continue
        n = _extend(j, game)
        if best is None or n > reached:
            best, reached = snap, n
    return best, seen


def _chunk_problems(j, probs):
    """A line in ``probs`` for each history chunk on flash that fails its check, whole or
    in its last bytes."""
    for n in j.files.names():
        if n[0] == "h" and n.endswith(".bin"):
            d = j.files.read(n) or b""
            c = formats.parse_chunk(j.writer.key, d)
            if c is None:
                probs.append("%s fails its check" % n)
            elif c[2] != len(d):
                probs.append(
                    "%s: %d bytes after event %d fail their check"
                    % (n, len(d) - c[2], c[0] + len(c[1]) // 4 - 1)
                )


def _history_gap(j, game):
    """A problem text when the events on flash (history and log) do not run from event 1
    (or the oldest chunk of a full ring) to ``game.seq``."""
    w = j.writer
    first = last = None
    for s, _ in j.events(0):
        if first is None:
            first = s
        last = s
    if first is None:  # none since a saved state (base) is no damage
        if game.seq < w.hfirst:
            return None
        return "history: events %d..%d are not on flash" % (w.hfirst, game.seq)
    if first > w.hfirst and len(j.chunks()) < w.slots:
        return "history: events %d..%d are not on flash" % (w.hfirst, first - 1)
    if last is not None and last < game.seq:
        return "history: events %d..%d are not on flash" % (last + 1, game.seq)
    return None


def report(j, seq):
    """A one-line account of a damaged restore that reached ``seq``."""
    lost = ""
    if j.seen > seq:
        lost = ", lost events %d..%d" % (seq + 1, j.seen)
    return "journal damaged: kept %s%s (%s)%s" % (
        "events 1..%d" % seq if seq else "no events",
        lost,
        "; ".join(j.problems),
        "; damaged files kept in %s" % j.aside if j.aside else "",
    )


def set_aside(j):
    """Move every journal file to the first empty one of ``root + ".bad"``, ``".bad2"`` ..
    ``".bad%d" % BAD_KEEP`` (an earlier fault's files are kept; flash is small, so once all
    hold files the last is replaced); returns that directory. Raises OSError."""
    files = j.files
    root = files.root
    bad = root + ".bad"
    for k in range(1, BAD_KEEP + 1):
        bad = root + ".bad" + (str(k) if k > 1 else "")
        files.mkdir(bad)
        if not files.names(bad):
            break
    for n in files.names(bad):
        files.fs.remove(bad + "/" + n)
    j.writer.tail = None
    for n in files.names():
        files.fs.rename(files.path(n), bad + "/" + n)
    j.aside = bad
    return bad


def put_back(j, bad):
    """Undo :func:`set_aside` (the new files written since are removed): when what was to
    replace the damaged journal found no room, the next boot finds it as it was. Never
    raises (what could not be moved stays where it is)."""
    files = j.files
    try:
        for n in files.names():
            files.fs.remove(files.path(n))
        for n in files.names(bad):
            files.fs.rename(bad + "/" + n, files.path(n))
        j.aside = None
    except OSError:
        pass
    j.writer.tail = None


def repair(j, game):
    """After a damaged restore: set the damaged files aside and write a clean journal of
    ``game`` (the recovered prefix), its history copied from the readable part. When the
    new journal cannot be written (OSError: a full flash), the damaged files go back in
    place (they restore to the same prefix), ``j.unrepaired`` is set (app.Referee tries
    again before the next event is written) and the OSError is raised."""
    bad = set_aside(j)
    try:
        w = j.writer
        old = type(j)(j.files.fs, bad, w.budget, w.history_budget)  # the damaged files
        old.writer.key = w.key
        _rewrite(w, old, game)
    except OSError:
        put_back(j, bad)
        j.unrepaired = True
        raise
    j.unrepaired = False
    return bad


def _rewrite(w, old, game):
    """A clean journal of ``game`` through writer ``w``: its history copied from the
    readable part of the damaged files (``old``: a Journal of their folder)."""
    w.write_setup()
    w.chunk = 0
    first = last = 0
    for s, _ in old.events(0):  # the readable history before the RAM window
        if s > game.base_seq:
            break
        first = first or s
        last = s
    batch = []
    if last and last == game.base_seq:
        w.hfirst = first
        for s, ev in old.events(0):
            if s > last:
                break
            batch.append((s, ev))
            if len(batch) >= 64:
                w.add_history(batch)
                batch = []
    else:  # it does not reach the window: keep from the window on
        w.hfirst = game.base_seq + 1
    for s in range(game.base_seq + 1, game.seq + 1):
        batch.append((s, game.event(s)))
        if len(batch) >= 64:
            w.add_history(batch)
            batch = []
    if batch:
        w.add_history(batch)
    w.new_log(game.seq)
    w.snapshot(game)
