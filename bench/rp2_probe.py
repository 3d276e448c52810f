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
    async def poll_serial():        # the serial port polled every 5 ms (the Serial
        await asyncio.sleep_ms(5)   # contract's default in referee/assembly.py)
    runner.serial.readable = poll_serial
    full = runner.renderer.render
    def redraw_all(app, err=False, full=full, r=runner.renderer):
        r.full = True               # every frame drawn from scratch
        return full(app, err)
    runner.renderer.render = redraw_all
    runner.app.journal.writer.defer = False    # snapshots written inside the event, as at first
    runner.app.group.hold_ms = 0               # a key's records committed at once, not held
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
J = runner.app.journal.writer   # (the writer: its maintain, whole, twice, log_start)
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
_commit = runner.app.flush
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
runner.app.flush = timed_commit
runner.app.link.hello()
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
        if PARTS_AFTER and key[1] >= PARTS_AFTER:
            import probe_parts      # installed now, so the heap figures above leave it out
            if probe_parts.install(runner):
                pl = probe_parts.PL
                while probe_parts.SENT[0] < len(pl):    # one line a press (no long line)
                    print('{"t": "part", "v": [%d, %d, %d]}' % pl[probe_parts.SENT[0]])
                    probe_parts.SENT[0] += 1
asyncio.run(runner.main([probe()]))
"""

# /probe_parts.py: where a press's time goes (bench/rp2.py's "parts" row), imported by the probe
# once the game has had its events and its heap was reported (so the heap rows leave it out)
PARTS = r"""
import time
# from a key action to the first frame shown after it: the rules (Game.submit), the frame
# drawn (Renderer.render), packed and started (the display's show), in us (the key task draws a
# cursor move after the action returns)
PT = [0, 0, 0, 0]   # rules, render, show, armed (a key action with no frame shown yet)
PL = []             # (rules, render, show) of each press that drew a frame
SENT = [0]          # how many of them the probe has printed
DONE = []
def install(runner):
    # wraps the runner's key action, render, show and the game's submit once; True when
    # installed before this call
    if DONE:
        return True
    DONE.append(1)
    render = runner.renderer.render
    def timed_render(app, err=False):
        t = time.ticks_us()
        r = render(app, err)
        PT[1] += time.ticks_diff(time.ticks_us(), t)
        return r
    runner.renderer.render = timed_render
    show = runner.display.show
    def timed_show(fb):
        t = time.ticks_us()
        r = show(fb)
        PT[2] += time.ticks_diff(time.ticks_us(), t)
        if PT[3]:
            PL.append((PT[0], PT[1], PT[2]))
            PT[3] = 0
        return r
    runner.display.show = timed_show
    key = runner.app.pad.key
    def timed_key(action):
        PT[0] = PT[1] = PT[2] = 0
        PT[3] = 1
        g = runner.app.game
        if g is not None and not getattr(g, 'timed', False):
            gs = g.submit
            def t_submit(ev, many=False):
                t = time.ticks_us()
                r = gs(ev, many)
                PT[0] += time.ticks_diff(time.ticks_us(), t)
                return r
            g.submit = t_submit
            g.timed = True
        return key(action)
    runner.app.pad.key = timed_key
    return False
"""
