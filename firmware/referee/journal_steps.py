"""The journal's snapshot written in steps (the files: journal.py): functions of (writer,
game) called by :meth:`referee.journal_write.Writer.maintain`, which imports this module once
a snapshot is first due (``budget`` log records after the last one).

The board's loop calls it between events while no key is down, one littlefs operation per
call, so it is never held for a whole snapshot: (0) the log's records into the history (up to
seq S), (1) snap.bin.tmp written, (2) renamed over snap.bin, (3) log.bin.tmp written: a log
from S with the records of the events since (from the RAM window), (4) renamed over log.bin.
Events may come in between: their records go to the old log, which holds every event until
(4), and (3) gives them to the new one; after (3) they are appended to log.bin.tmp too
(Writer._tmp_too). When they are not (a failed write, a key's commit), (4) writes
log.bin.tmp again instead, and if that happens twice running, writes it and renames it in one
call (``twice`` counts those). Every step leaves flash that restores to the whole game
(restore skips the records a snapshot holds).
"""

from referee.journal_rec import head, records, snap_parts


def maintain(j, game):
    """The next step of journal writer ``j``'s due snapshot (``j.step``; the caller checked that one
    is due and no record is held). Returns True (after an OSError or a MemoryError the
    snapshot is tried again at the next append)."""
    s = j.step
    if j.records >= 2 * j.budget:
        s = 5  # the steps cannot keep up (the window no longer holds the records
        # since S): all of it now, so the log stays short
    try:
        if s == 5:
            j.whole += 1
            j.snapshot(game)
            return True
        if s == 0:
            j.archive(game)
            j.step_seq = game.seq
        elif s == 1:
            j.files.write_tmp("snap.bin", snap_parts(j.key, game, j.chunk, j.hfirst))
        elif s == 2:
            j.files.rename_tmp("snap.bin")
        elif s == 3 or j.log_seq != game.seq:
            if not write_log_tmp(j, game):
                s = -1  # the window lost events since S: start over
            elif s == 4:  # events came after (3): written again above;
                if j.again:  # renamed too when they did so twice running
                    j.twice += 1  # (a stream of serial lines), so it ends
                    s = rename_log(j, game)
                else:
                    j.again = True
                    s = 3
            else:
                j.again = False
        else:
            s = rename_log(j, game)
        j.step = s + 1
    except (OSError, MemoryError):  # (no block for a buffer on a fragmented heap: the
        j.due = False  # old log still holds every event) tried again at
        j.step = 0  # the next append
    return True


def write_log_tmp(j, game):
    """Step (3): log.bin.tmp, a log from ``j.step_seq`` with the records of the events since,
    from the RAM window. False (nothing written) when the window lacks some."""
    first = j.step_seq + 1
    w = game.event_window
    if w.base_seq >= first:
        return False
    o = 4 * (first - w.base_seq - 1)
    j.files.write_tmp(
        "log.bin", (head(j.key, j.step_seq), records(j.key, first, memoryview(w.events)[o:]))
    )
    j.log_seq = game.seq
    return True


def rename_log(j, game):
    """Step (4): the new log in place; the log then holds the events since ``j.step_seq``.
    Returns -1 (the next snapshot starts at step 0)."""
    j.files.rename_tmp("log.bin")
    j.log_started(j.step_seq)
    j.records = game.seq - j.step_seq
    if j.records >= j.budget:
        j.due = True
    return -1
