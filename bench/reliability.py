"""Writes docs/reliability.md: what the board guarantees, with the figures of the full
fault-injection campaign (devtools/faults.py: every truncation offset and every byte's bit
flip of every journal file, on a 100- and a 700-event game).

    make bench        (or: .venv/bin/python bench/reliability.py)

Nothing in docs/reliability.md is typed in by hand: the prose is here, the figures are
measured when this runs. tests/host/test_faults.py asserts the same classification in `make test`.
"""

import argparse
import collections
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "firmware"))
sys.path.insert(0, ROOT)

from devtools import faults  # noqa: E402
from referee.journal_rec import REC  # noqa: E402

CLASSES = (
    "exact",
    "exact-noted",
    "prefix-noted",
    "prefix-silent",
    "refused",
    "fs-rollback",
    "unmountable",
    "wrong",
)
KINDS = ("truncate", "bit flip", "zeroed block", "deleted", "stale temp")


def table(results):
    c = collections.Counter((r[0], r[2]) for r in results)
    head = "| fault | " + " | ".join(CLASSES) + " | total |"
    out = [head, "|---" * (len(CLASSES) + 2) + "|"]
    for k in KINDS:
        row = [c[(k, x)] for x in CLASSES]
        out.append("| %s | %s | %d |" % (k, " | ".join(str(v) for v in row), sum(row)))
    tot = [sum(c[(k, x)] for k in KINDS) for x in CLASSES]
    out.append("| **all** | %s | %d |" % (" | ".join(str(v) for v in tot), sum(tot)))
    return "\n".join(out)


def worst_loss(results, n):
    noted = [n - r[3] for r in results if r[2] == "prefix-noted"]
    silent = [n - r[3] for r in results if r[2] == "prefix-silent"]
    return max(noted or [0]), max(silent or [0])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "reliability.md"))
    ap.add_argument("--events", default="100,700")
    args = ap.parse_args()
    sections = []
    totals = collections.Counter()
    for n in [int(x) for x in args.events.split(",")]:
        t = time.time()
        played, results = faults.campaign(n)
        totals.update(r[2] for r in results)
        noted, silent = worst_loss(results, n)
        sizes = ", ".join("%s %d B" % (k, len(v)) for k, v in sorted(played.files.items()))
        sections.append(
            "### A %d-event game\n\nJournal files: %s. %d faults, %.0f s.\n\n%s\n\n"
            "Most events lost where the loss was said: %d; where it was not said (whole log "
            "records cut off: the same flash as a power cut before they were written): %d.\n"
            % (n, sizes, len(results), time.time() - t, table(results), noted, silent)
        )
    doc = TEMPLATE % {
        "sections": "\n".join(sections),
        "total": sum(totals.values()),
        "wrong": totals["wrong"],
        "rec": REC,
        "unmountable": totals["unmountable"],
        "rollback": totals["fs-rollback"],
    }
    with open(args.out, "w") as f:
        f.write(doc)
    print("wrote %s (%d faults, %d wrong)" % (args.out, sum(totals.values()), totals["wrong"]))
    return 1 if totals["wrong"] else 0


TEMPLATE = """# Reliability: what the board guarantees

Written by `bench/reliability.py` (`make bench`); the figures below come from running it, the
same fault classification is asserted by `tests/host/test_faults.py` in `make test`.

## What a power cut can lose

Every accepted event is appended to `/game/log.bin` and the file closed before the event is
announced over serial (`ev` line); littlefs commits a file on close. An event from a serial
command is written before its answer, one commit each (an `append` line's events 16 to a
commit, each announced once on flash); if the write fails, the events not yet written are
taken back and the refusal sent. A key's events are shown at once and held in RAM, then written
together in one commit (group commit, `Referee.flush`: once the keys have rested the board
profile's `commit_ms`, 1000 ms by default, when 8 are held, 4 x `commit_ms` after the first,
or before any serial line is answered), and only then announced; if that write fails, every
held event is taken back and the refusal shown. So a power cut loses nothing announced: it
can lose the events of the last second or so of key presses (at most 8, at most
4 x `commit_ms`), which the grid showed but no host was told of; a restored board shows the
game as it was before them (`tests/core/test_group_commit.py`; `tests/soak/test_journal.py` cuts the
power at every flash write of a 200-event game, with the snapshots written inside the events
and, as the board does, by the loop in steps with events coming in between, and restores the
exact prefix each time;
`tests/emu/test_emu_power.py` does the same on the emulated Pico, and cuts it at random moments
during key presses). The undo stack survives a restart: it is in the snapshot, which the board
writes between events while no key is down, one littlefs operation a loop turn (until the new
log replaces the old one, the old log holds every event after the previous snapshot; the new
log is written with the records of the events that came during the steps).

## What damage is detected

Every stored byte is checked (`firmware/referee/journal.py`): the set-up (roster, game id,
scenario) carries a CRC-32 whose value is the *game key*; every %(rec)d-byte log record, the
log and history headers, every history segment and the snapshot carry a CRC-32 seeded with
that key, so no record of another game or of another roster passes. The state hash itself is
seeded with a digest of the roster and settings (`fleet.roster_digest`), and the snapshot stores
the hash of the state it holds: a snapshot restored onto a different roster is refused.

At boot (`Referee.boot`) the board restores the longest prefix of the game that checks: the
snapshot (or, when it does not check, a replay of the history from event 1), then every
following event that checks, follows on by number and that the rules accept. When anything
failed a check, the board says so over serial (an `err` line with `code` `journal`, at boot
and after every `hello`; docs/protocol.md) and on the grid: how many events were kept, which
were lost, what failed its check; it moves the damaged files to `/game.bad` and writes a clean
journal of what was kept (its history repaired from the RAM window where possible). When the
flash has no room for that clean journal, the damaged files go back in place (they restore to
the same prefix), the game kept is played on, the note says it was not repaired, and the
repair is tried again before the next event is written (refused, and said, while there is no
room). A refused append (a full flash) leaves the log as it was: littlefs commits a file only
on close, and the simulator's flash (a host directory) cuts a failed append back
(tests/core/test_journal_full.py).

## What is refused

- A set-up that fails its check (the roster cannot be trusted): no game is restored; the
  damaged files are kept in `/game.bad`, the board says so and starts its default scenario. It
  never starts a new game over a journaled one silently: when there is no room for the
  default scenario's journal, the files go back in place and the boot fails with that error,
  so the next boot says it all again.
- A new game over a journaled one is an explicit choice: the `load` command, the scenario menu,
  or `fleetref sim --new`; `fleetref sim --scenario X --flash DIR` resumes the game in DIR and
  refuses (one line, exit 2) when DIR holds a game of another scenario.
- Save files (`fleetref load`): every field's type, length and range is checked, the hash chain
  covers the roster, the scenario label and the game id, every event is replayed through the
  rules before anything is sent; a board holding another game in play or this game further on
  is not replaced without `--force`. Every refusal is one line and a non-zero exit. A load the
  board refuses (its flash full, a roster line too long) stops there: the board's game is as
  it was. A game in play is saved beside the file before the board starts the file's game;
  a load cut off after that (the board then holds part of the file, journaled) says which
  file puts the old game back. The restore is not one transaction on the board: a cut
  leaves the partial game there, named by that message, not rolled back.

## What cannot be detected

- Whole log records cut off the end of `log.bin` leave exactly the flash a power cut before
  those appends leaves: the game comes back without them and nothing is said.
- A zeroed littlefs metadata block: littlefs keeps each directory in a pair of blocks and uses
  the other one, which holds an older revision; the journal then sees older, consistent files
  (an earlier prefix, or no game at all) and cannot tell them from an older game
  (`fs-rollback` below). If littlefs does not mount at all, MicroPython's `_boot.py` formats the
  flash (`unmountable`).
- The emulation does not model torn flash writes inside one program call; littlefs-python runs
  the same littlefs as the rp2 port, but not its block device driver.

## Fault injection

The game is played through the referee with its journal on a littlefs image of the rp2 port's
geometry (352 blocks of 4096 bytes, prog size 256, read size 32: `ports/rp2/modules/_boot.py`
mounts `VfsLfs2(bdev, progsize=256)`); then, one at a time: the file truncated at every offset,
one bit flipped in every byte of every file, every used 4 KB block zeroed, every file deleted,
stale temporary files (half or whole copies, another game's set-up); the board boots on the
image. Classes (devtools/faults.py): `exact` the whole game, nothing to say; `exact-noted` the
whole game, damage found and said; `prefix-noted` the first k events, the loss said;
`prefix-silent` the first k events, not said; `refused` no game restored, said, files kept
aside; `fs-rollback` littlefs itself showed older files; `unmountable` littlefs does not mount;
`wrong` anything else (another game, a silent new game): a bug.

%(sections)s
In all: %(total)d faults, **%(wrong)d wrong** (another game or a silent new game),
%(rollback)d lost by littlefs itself, %(unmountable)d unmountable.

## On the emulated Pico's own flash

`tests/emu/test_emu_flash_faults.py` (in `make test`) plays a real game on the emulated Pico (the
official MicroPython image on rp2040js: a key script on the key matrix, then events over USB
serial), reads the board's littlefs region out of the emulated flash, damages a copy (one fault
of each kind: a truncated log and set-up, a deleted snapshot, a bit flipped through littlefs and
one flipped raw in the flash, a zeroed and an erased 4 KB block, stale temporary files, another
game's set-up) and boots the real firmware on it (`devtools/faults_emu.py`). Each boot must
restore a prefix of the announced events with the host replica's state hash, say any loss over
serial and on the grid's error row, or refuse with a message; a repaired journal must then boot
clean. It asserts these classes rather than counting them: the exhaustive counts are the
littlefs-python campaign above. `faults_emu.fault_list` holds the full list (27 faults) for a
longer run.
"""

if __name__ == "__main__":
    sys.exit(main())
