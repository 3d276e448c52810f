"""How bench/rp2.py's rows are measured: the notes docs/performance.md prints under its table."""

BOARD = "pico-ws2812-16x16"

# a turn at the table on the default board's keys: select, mark hits and take them back,
# play the phase on, undo; in a long 2x24-ship game these make events that write journal
# records, snapshots (every 40 records) and fold the undo window (refused presses light the
# error row: a frame too)
GAME_KEYS = [
    "sel+",
    "dmg+",
    "sel+",
    "dmg+",
    "dmg-",
    "side",
    "sel+",
    "dmg+",
    "undo",
    "mark",
    "side",
    "dmg+",
    "phase",
    "sel-",
    "dmg+",
    "undo",
]


def notes(img, stk, n_press, n_events, n_mem):
    """The notes under the table for bench/rp2.py's rows: ``img`` and ``stk`` the ``hello``
    lines of fleetref's image and of the stock route, the run's sizes."""
    from bench.rp2_boot import LOAD_TRIES, SETTLE
    from bench.rp2_mem import LARGEST_MIN, MIN_LINE, PER_LINE, USED_MAX

    return [
        rp2_note(img, stk, n_events),
        heap_note(
            img, stk, n_mem, (PER_LINE, MIN_LINE), SETTLE, LOAD_TRIES, USED_MAX, LARGEST_MIN
        ),
        LATENCY_NOTE % (n_press, " ".join(GAME_KEYS)),
        SNAPSHOT_NOTE,
        CPU_NOTE,
    ]


def rp2_note(img, stk, n_events):
    return (
        "- rp2 rows: fleetref's image, the product: the UF2 `fleetref flash --uf2` writes for "
        "%s, fleetref's own MicroPython %s image (host_tools/board/firmware_build.py; the firmware's "
        "packages frozen in flash, code `%s` in the board's `hello`) and the board's "
        "filesystem (main.py, board.json, the rosters), booted in the emulated RP2040 "
        "(rp2040js, emu/; bench/rp2.py). Beside it, from the same run: the stock route, the "
        "official MicroPython %s RPI_PICO build with the firmware as .mpy files in /lib "
        "(`fleetref flash --uf2 OUT --micropython ...`; code `%s`), whose bytecode is loaded "
        "into the heap. The latency, event and flash rows boot the bench's probe as main.py "
        "(the real main.py is /lib/fleetref_main.py; the probe adds a task that reports its "
        "timings once the game has stood still 0.4 s, so its collection never falls among the "
        "key presses timed below): the game is a 2x24-ship swsb roster "
        "(bench/workload.py's roster_2x24) loaded over serial, then %d events of the bench "
        "workload over serial 5 per `append` line; the render task draws frames and the "
        "journal writes every event to littlefs."
        % (
            BOARD,
            img.get("micropython"),
            img.get("code"),
            stk.get("micropython"),
            stk.get("code"),
            n_events,
        )
    )


def heap_note(img, stk, n_mem, lines, settle, tries, used_max, largest_min):
    return (
        "- rp2 rows, heap: each route's UF2 exactly as `fleetref flash --uf2` writes it (no "
        "bench code on the board), booted on its own; the host sends the board's `mem` "
        "command once the board has rested %.0f s (emulated) after boot, after the load line "
        "of a 2x24-ship game (bench/workload.py's long-game roster: swsb, 24 ships a side of "
        "99/99 hit points) and after %s events of that game's mix (bench/workload.py's "
        "long_game), sent over serial %d to an `append` line (the most one line may hold), "
        "each line's answer (`ok`, after its `ev` lines) awaited before the next; a line the "
        "board drops whole for want of free memory is sent again as lines of half as many "
        "events (down to %d; the row says from which event on). The board "
        "answers `gc.mem_alloc()` after `gc.collect()` and the largest block one allocation "
        "can get (found by halving bytearray tries with automatic collection off: "
        "referee/runtime.py). Targets, for fleetref's image at each point: used <= %d KB and "
        "a largest free block >= %d KB; the stock route's figures stand beside them without "
        "a target. On the stock route the first `mem` imports referee/runtime.mpy from /lib "
        "into the heap, so its figures include that module's bytecode. A load line the board "
        "answers with not enough memory is sent again, up to %d times in all, 1 s apart; "
        "when it never loads, the rows after it say so. MicroPython %s (image) and %s "
        "(stock), as their `hello` said."
        % (
            settle,
            format(n_mem, ","),
            lines[0],
            lines[1],
            used_max // 1024,
            largest_min // 1024,
            tries,
            img.get("micropython"),
            stk.get("micropython"),
        )
    )


# (its %d: the presses, its %s: GAME_KEYS)
LATENCY_NOTE = (
    "- Latency: after those events, %d presses of a turn's keys (%s, in turn) on the emulated "
    "key matrix, held 60-100 ms with 150-250 ms between them; from the key's release to the "
    "end (latch) of the first WS2812 frame decoded on GP28 before the next release that "
    "changed what the panel shows. Most presses in that game are refused (not this phase, "
    "nothing to take back): the first lights the error row, the next ones while it is lit "
    "change nothing on the panel, and the board then sends no frame (such presses are "
    "counted as without a frame; the idle loop's whole-frame refresh every 2 s, the same "
    "colours again, is not a press's frame). "
    "A press is drawn at once (the key task renders after an action), only what changed is "
    "redrawn (ship half-rows by their key, only the status pixel when only the status "
    "changed, as at a phase; the overlay's digits only when they change, the half-rows "
    "under them left alone; the chart and the dice row only when the game state changed, "
    "the round and phase row only when the round, the phase, the side to act, the winner "
    "or the initiative changed; pixels written as 3-byte slices; the ships yet to act "
    "worked out in one loop over the fleet's bytes where a ruleset says a ship has acted "
    "by a flag, Ruleset.TO_ACT_DONE and Fleet.to_act, not a call per ship), the pixels are "
    "packed by a viper loop, and the frame is sent only up to the last LED that changed (a "
    "WS2812 keeps its colour when no data reaches it; the emulator's decoder gets the "
    "shorter frame and emu/pico.py lays it over what the chain showed). A release is "
    "accepted at its first open reading once the press has been accepted 5 ms (an eager "
    "release). The key scan reads the 16 switches and hands the debouncer only those that "
    "are closed or settling. A key's journal record is held in RAM and written with the "
    "other held ones after the keys rest (group commit; also while the keys rest when the "
    "undo window is full, so the press whose event folds it commits nothing before its "
    "frame); the journal's snapshot (every 40 "
    "records) and a garbage collection (once less than 16 KB of the heap is free, or once "
    "16 KB were taken since the last collection, which keeps the free memory in one large "
    "block) are done by the render task while no key is down, not inside a press; a serial "
    "line (a roster, or a line of events) runs with MicroPython's own collection every 16 KB "
    "taken (`gc.threshold`, set back after the line), so what the line keeps stays low in "
    "the heap, and the serial task also collects after a line once less than 32 KB is free; "
    "such a line ends its turn, so the journal's step comes between two lines (a collection "
    "MicroPython starts when an allocation finds no room would fall inside an event: 29 ms). "
    "On the board a load releases the rulesets no game uses (their classes take RAM even "
    "when frozen). Baseline, the same run "
    "on a second boot of fleetref's image: the first design's path (frames only at the render task's turns "
    "every 33 ms, each drawn from scratch and sent whole, pixels packed by a Python loop, "
    "keys polled every 2 ms and the serial port every 5 ms, releases debounced 5 ms, each "
    "record committed in its event, garbage collected when an allocation finds no room). "
    "The stock route's sub-rows: the same probe, game and presses on the stock route's UF2, "
    "a third boot (a probe boot that cannot load the game side by side is booted again on "
    "its own). "
    "An accepted event copies the state once, after its check (a refused press copies "
    "nothing); an undo starts from the newest kept state at or below its depth: the "
    "checkpoints every 16 events of the undo stack, or the window's two newest kept states "
    "(the state before each event, or the one below an undo's depth kept by its replay), so "
    "an undo right after an event, two after two events, and every second undo of a longer "
    "run replay nothing, and no undo within 64 "
    "events of the stack's top replays 16 events or more (deeper, where only every second "
    "checkpoint is kept to save RAM, 32; tests/core/test_undo_replay.py), and while the board "
    "idles the state the next undo goes back to is replayed ahead and kept when none is "
    "(Game.prepare_undo), so a run of undos at the table replays nothing. The window's fold (its "
    "oldest quarter into the base state, when it holds 256 events) replays its new base "
    "ahead while the board idles, once the window is within 32 events of folding "
    "(Game.prepare_fold), so the event that folds replays nothing for it. "
    'What stops the 10 ms target (the row "where a press\'s time goes" gives the parts): '
    "the release is seen at the next 2 ms scan; then the event's rules and CRC-32, and the "
    "frame drawn in Python, which takes longest when the game state changed (each ship "
    "half-row's key is worked out again, the rules say which ships are yet to act and who "
    "acts next) or every ship row changes (a phase, an undo, a side change; a cursor moving "
    "onto the other page redraws all 24 ship half-rows, the longest frame to draw; the "
    "rows above split the presses by how much of the chain their frame reached); then the "
    "wire: a whole frame is 7.7 ms (256 LEDs x 24 bits at 800 kHz), a change in row r of "
    "the 16 takes (r + 1) x 0.48 ms. So a change in the top rows can light in about 10 ms, "
    "one in the bottom rows cannot (the wire alone is 6-7.7 ms). Next steps: the ship "
    "rows' keys and colours in viper, and a second data line so each half of the panel is "
    "its own 128-LED chain (a board change: the wire time halves). "
    "**Emulated time is a lower bound** for a real Pico: rp2040js runs at 125 MHz with no XIP "
    "flash wait states or cache misses, and flash erase and program take no time."
)


SNAPSHOT_NOTE = (
    "- rp2 rows, snapshots: the journal's snapshot (every 40 records) is written by the "
    "loop, not inside an event, one littlefs operation a turn while no key is down "
    "(journal_write.Writer.maintain): the log's records into the history chunk (from the RAM "
    "window, packed as they are, after the chunk's end kept in RAM: no read back), "
    "snap.bin.tmp written, renamed, a new log.bin.tmp written, renamed; the other tasks run "
    "between the steps, so a press waits for one step at most. Events between two steps "
    "go to the old log, which holds every event until the rename; the new log starts where "
    "the history ends and its write takes the records of the events since from the RAM "
    "window (restore skips the records the snapshot holds). When an event came after the "
    "new log was written, the next turn writes it again; when events keep coming (a stream "
    "of serial lines, as in this game's load), that turn also renames it, so it ends: the "
    "second row. Only when the window no longer holds the events since the history's end "
    "does it start over, and with 80 records in the log the rest is written in one go: the "
    "third row. Each step is one or two littlefs commits; how long one takes depends on littlefs "
    "(a metadata compaction takes longest), and a real Pico also waits for the flash "
    "chip's erase and program times, which the emulator does not model. What stops the "
    "20 ms target for a snapshot step: its time is spent inside one littlefs operation (a "
    "file opened, written and closed, or renamed, in C), which the firmware cannot split "
    "further. A journal commit (the two commit rows) is one such operation, the append of "
    "its records to log.bin (longer or shorter with the length of log.bin), and then the "
    "`ev` lines of its events, each built in Python and sent only once the records are on "
    "flash. Where the time goes inside littlefs is not a bench row. Next steps: time the "
    "block device's calls in the bench, write less per commit (the flash notes above), and "
    "send a commit's `ev` lines over the next turns."
)

CPU_NOTE = (
    "- CPU share: emulated time the core spends executing instructions (not waiting in WFE) "
    "over emulated time, with the referee idle after boot: with every row high, the key task "
    "sleeps until a column's pin interrupt (then scans every 2 ms until the keys are "
    "released and settled); the serial task sleeps in asyncio's poller until a byte "
    "arrives; the render task checks every 100 ms. Baseline: the polling of the first "
    "design (above). The same lower-bound caveat holds."
)
