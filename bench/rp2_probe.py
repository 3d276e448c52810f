"""The bench image's /main.py (bench/rp2.py): the referee exactly as firmware/main.py builds
it (that file is on the board as /lib/fleetref_main.py), plus a task that reports the heap
after a full collection whenever the game changed and settled (unchanged for 400 ms).
"""

PROBE = r"""
import gc, json
import fleetref_main as fm
try:
    import asyncio
except ImportError:
    import uasyncio as asyncio
from referee.journal import OSFS
board = json.load(open('/board.json'))
runner = fm.build(board, journal_fs=OSFS(''))
if NAIVE:     # the baseline: the first design's frame path, measured in the same run
    import drivers.ws2812 as ws
    ws.pack = ws.pack_py            # pixels packed by a Python loop
    runner.render_on_input = False  # frames only at the render task's turns, every 33 ms
    runner.frame_ms = 33
    runner.keys.flag = None         # keys polled every 2 ms, idle or not
    runner.idle_scan_ms = runner.scan_ms
    runner.serial.readable = None   # the serial port polled every 5 ms
    full = runner.renderer.render
    def redraw_all(app, err=False, full=full, r=runner.renderer):
        r.full = True               # every frame drawn from scratch
        return full(app, err)
    runner.renderer.render = redraw_all
    runner.app.journal.defer = False    # snapshots written inside the event, as at first
    runner.app.journal.hold_ms = 0      # each event's record committed on its own
    runner.keys.deb.eager = False       # a release accepted after the debounce too
    runner.display.partial = False      # every frame sent whole
    runner.gc_low = 0                   # garbage collected when an allocation finds no room
import time
EV = [0, 0, 0]       # events submitted, the longest (us), how many took over 20 ms
_submit = runner.app.submit
def timed_submit(ev, origin="key", cmd=None):
    t = time.ticks_us()
    r = _submit(ev, origin, cmd)
    d = time.ticks_diff(time.ticks_us(), t)
    EV[0] += 1
    if d > EV[1]:
        EV[1] = d
    if d > 20000:
        EV[2] += 1
    return r
runner.app.submit = timed_submit
J = runner.app.journal
ST = [0, 0, 0]       # the loop's snapshot steps: [steps, the longest (us), snapshots finished]
WH = [0, 0]          # snapshots maintain() wrote in one go (events kept coming): [n, longest]
TW = [0, 0]          # steps that wrote the new log again and renamed it (the same)
_maint = J.maintain
def timed_maint(g):
    w = J.whole
    tw = J.twice
    ls = J.log_start
    t = time.ticks_us()
    r = _maint(g)
    d = time.ticks_diff(time.ticks_us(), t)
    if r and J.whole != w:
        WH[0] += 1
        WH[1] = max(WH[1], d)
    elif r and J.twice != tw:
        TW[0] += 1
        TW[1] = max(TW[1], d)
        ST[2] += 1
    elif r:
        ST[0] += 1
        ST[1] = max(ST[1], d)
        ST[2] += J.log_start != ls
    return r
J.maintain = timed_maint
CM = [0, 0, 0]       # group commits of a key's events: [n, longest (us), events announced]
SC = [0, 0, 0]       # the commits of an append line's events (the same)
_commit = runner.app.commit
def timed_commit(origin="key", cmd=None):
    st = CM if origin == "key" else SC
    t = time.ticks_us()
    r = _commit(origin, cmd)
    d = time.ticks_diff(time.ticks_us(), t)
    if r:
        st[0] += 1
        st[2] += r
        if d > st[1]:
            st[1] = d
    return r
runner.app.commit = timed_commit
runner.app.hello()
async def probe():
    last = seen = None
    while True:
        await asyncio.sleep_ms(400)
        app = runner.app
        key = (app.gid, app.game.seq if app.game else -1, app.version, CM[0], ST[0], WH[0],
               TW[0], SC[0])
        if key != seen:     # still changing: report once it has stood still 400 ms (its
            seen = key      # collection then never falls among a game's key presses)
            continue
        if key == last:
            continue
        last = key
        gc.collect()
        print('{"t": "heap", "gid": "%s", "seq": %d, "alloc": %d, "free": %d, "frames": %d, '
              '"ev_n": %d, "ev_max": %d, "ev_over": %d, "st_n": %d, "st_max": %d, '
              '"st_done": %d, "wh_n": %d, "wh_max": %d, "tw_n": %d, "tw_max": %d, '
              '"cm_n": %d, "cm_max": %d, "cm_evs": %d, "sc_n": %d, "sc_max": %d, "sc_evs": %d}'
              % (app.gid, key[1], gc.mem_alloc(), gc.mem_free(), runner.frames,
                 EV[0], EV[1], EV[2], ST[0], ST[1], ST[2], WH[0], WH[1], TW[0], TW[1],
                 CM[0], CM[1], CM[2], SC[0], SC[1], SC[2]))
asyncio.run(runner.main([probe()]))
"""
