"""Per-player time banks: an optional clock per side, in the game's state.

Settings (roster ``settings`` or the ``load`` command; every ruleset accepts them, none
needs them): ``clock_s`` seconds each side starts with (0: no clocks, the default; 2700 for
45 minutes), ``clock_inc_s`` seconds added to both sides at the end of every round,
``clock_zero`` what a side's clock reaching zero does: 0 warn (the expiry is logged and shown,
play goes on), 1 the opponent wins.

State (the game's ``ext_state``: the clock is the first extension of referee/extensions.py, so its
bytes come first there; hashed with the rest, absent when there are no clocks): seconds left of
side 0 and side 1 (3 bytes each, little-endian) and a byte of expiry flags (bit s: side s ran
out). Clock changes are events, so the board and the mirror agree on the hash and a replay
shows the clocks: EV_CLOCK (40) ``a`` = side | 2 when the clock ran out, ``b`` + 256 * ``c`` =
seconds charged to that side.

Which side's clock runs is the ruleset's ``acting_side`` (who moves, fires or responds now:
seed 000 initiative order, seed 001 alternating activation, seed 002 squadron turns, seed 004
movement then capital weapons); none runs when the ruleset names no side (before initiative,
X-Wing overlaps), once a side has won, while physical dice are entered on the pad, and while
the clocks are paused (``clock`` command, or the pad's ``clock`` action: a long press of
``side``). The board (:class:`Clock`) charges the time a side used when the turn passes to the
other side or the clocks are paused, and logs the expiry when the time left reaches zero.
Pausing is the board's alone (not in the hashed state): it says so to every host with a
``clock`` line, and in ``hello`` (docs/protocol.md).

This module is a game extension (referee/extensions.py): the core reaches it only through the
hooks defined here, and imports it only for a game whose settings switch clocks on.
"""

from referee.events import NONE, EV_UNDO, EV_CLOCK
from referee.ticks import ticks_ms, ticks_diff
from referee.palette import AMBER, RED, SIDE_DIM, SIDE_RGB, WHITE  # the grid's draw

SETTINGS = {"clock_s": (0, 0, 360000), "clock_inc_s": (0, 0, 3600), "clock_zero": (0, 0, 1)}
STATE_BYTES = 7  # the clock's bytes in the state (extensions.py)
WARN_S = 300  # under five minutes left: the warning colour (amber) in every view
LAST_S = 60  # under a minute left: red in the host views (the grid keeps amber)


def used_by(g):
    """True when game ``g`` (or None) has clocks (its setting clock_s switches them on)."""
    return g is not None and bool(g.settings.get("clock_s", 0))


def reset(g):
    """The clocks before the first event: clock_s seconds each, none ran out."""
    v = g.settings["clock_s"]
    for s in range(2):
        _set(g, s, v)
    g.ext_state[6] = 0


def left(g, s):
    """Seconds left on side ``s``'s clock as the state has it (the last charge)."""
    o = 3 * s
    return g.ext_state[o] | (g.ext_state[o + 1] << 8) | (g.ext_state[o + 2] << 16)


def _set(g, s, v):
    v = max(0, min(v, 0xFFFFFF))
    o = 3 * s
    g.ext_state[o] = v & 255
    g.ext_state[o + 1] = (v >> 8) & 255
    g.ext_state[o + 2] = v >> 16


def expired(g, s):
    return bool(g.ext_state[6] & (1 << s)) if used_by(g) else False


def check(g, ev):
    """None when EV_CLOCK ``ev`` (kind, a, b, c) may be applied now, else the reason."""
    if ev[1] > 3:
        return "clock event: side 0 or 1, +2 when it ran out"
    return None


def apply(g, ev):
    """EV_CLOCK ``ev``: b + 256 * c seconds charged to side a & 1; a & 2: its time ran out."""
    _k, a, b, c = ev
    s = a & 1
    _set(g, s, left(g, s) - (b | (c << 8)))
    if a & 2:
        _set(g, s, 0)
        g.ext_state[6] |= 1 << s


def end_round(g):
    """The round's increment to both sides (setting clock_inc_s)."""
    inc = g.settings.get("clock_inc_s", 0)
    if inc:
        for s in range(2):
            _set(g, s, left(g, s) + inc)


def winner(g):
    """The opponent of a side whose clock ran out, when the setting says it wins; else None."""
    if g.settings.get("clock_zero", 0):
        for s in range(2):
            if g.ext_state[6] & (1 << s):
                return 1 - s
    return None


def text(g, ev):
    """The sentence of a clock event: "Rebels' clock: 75 s used; time ran out, Empire wins."
    (a plural side's name takes its possessive and verb: "Empire's clock", "Rebels win")."""
    from referee.texts import possessive, says  # (texts: only when a host asks)

    _k, a, b, c = ev
    name = g.side_names[a & 1]
    t = "%s clock: %d s used" % (possessive(name), b | (c << 8))
    if a & 2:
        t += "; time ran out" + (
            ", %s" % says(g.side_names[1 - (a & 1)], "wins")
            if g.settings.get("clock_zero", 0)
            else ""
        )
    return t + "."


def view(g, run=None, paused=False):
    """The clocks for the snapshot: ``left`` [s, s], ``expired`` [bool, bool], ``running``
    (the side whose clock runs now, by the rules unless ``run`` says; None when none runs or
    the clocks are ``paused``), ``paused``, ``zero`` (the setting), ``warn_s`` and ``last_s``
    (under that many seconds left a clock shows amber, then red)."""
    if not used_by(g):
        return None
    r = running_side(g) if run is None else run
    return {
        "left": [left(g, 0), left(g, 1)],
        "expired": [expired(g, 0), expired(g, 1)],
        "running": None if r == NONE or paused else r,
        "paused": bool(paused),
        "zero": g.settings.get("clock_zero", 0),
        "warn_s": WARN_S,
        "last_s": LAST_S,
    }


def live_view(app):
    """:func:`view` as the board's clock has it now: its ``paused``, and ``live`` [s, s],
    the seconds left now (the running side's less the time it used since its last charge)."""
    g = app.game
    if not used_by(g):
        return None
    ck = clock_of(app)
    v = view(g, ck.side, ck.paused)
    if v is not None:
        v["live"] = [ck.live_left(app, 0), ck.live_left(app, 1)]
    return v


def running_side(g):
    """Side whose clock runs by the rules now, or NONE."""
    if not used_by(g) or g.winner() is not None:
        return NONE
    s = g.rules.acting_side(g)
    return s if s in (0, 1) else NONE


class Clock:
    """The board's side of the clocks: when the running side started (``t0``, ms ticks) and
    whether the clock is paused. ``now``: a ticks_ms function (tests pass their own)."""

    def __init__(self, now=None):
        self.now = now or ticks_ms
        self.side = NONE
        self.t0 = 0
        self.paused = False
        self.last = 0
        self.busy = False
        self.gid = None
        self.shown = -1
        self.pin = None  # a host's: (seq, t0) the board said (host_tools/views/clockview.py)

    def used_ms(self):
        if self.side == NONE:
            return 0
        return max(0, ticks_diff(self.now(), self.t0))

    def live_left(self, app, s):
        """Seconds left on side ``s``'s clock now (the state's, less the running time)."""
        g = app.game
        v = left(g, s)
        if s == self.side and not self.paused:
            v -= self.used_ms() // 1000
        return max(0, v)

    def _charge(self, app, side, secs, out):
        if self.busy:
            return None
        self.busy = True
        try:
            return app.submit((EV_CLOCK, side | (2 if out else 0), secs & 255, secs >> 8))
        finally:
            self.busy = False

    def before(self, app, ev):
        """Before ``ev`` is submitted: if it passes the turn to the other side (tried on the
        game and taken back), charge the running side the time it used."""
        g = app.game
        if (
            self.busy
            or g is None
            or not used_by(g)
            or ev[0] in (EV_CLOCK, EV_UNDO)
            or self.side == NONE
        ):
            return  # (an undo gives the turn back uncharged: a charge would be undone)
        saved = g.checkpoint()
        if g.submit(ev):
            return
        nxt = running_side(g)
        g.back_to(saved)
        if nxt != self.side:
            secs = min(self.used_ms() // 1000, 65535)
            if not self.paused and secs:
                self._charge(app, self.side, min(secs, left(g, self.side)), False)

    def after(self, app):
        """After an event: the side whose clock runs now (a new side starts from now)."""
        g = app.game
        s = running_side(g) if g is not None else NONE
        if s != self.side:
            self.side = s
            self.t0 = self.now()

    def pause(self, app, want=None):
        """Pause the clocks (``want`` True; the running side is charged the whole seconds it
        used first) or resume them (False); None toggles. Possible whether or not a side's
        clock runs now (a pause before the initiative roll holds the first mover's clock).
        Every host is told with a ``clock`` line (:meth:`line`)."""
        g = app.game
        if want is None:
            want = not self.paused
        if want and not self.paused and self.side != NONE and used_by(g):
            secs = min(self.used_ms() // 1000, left(g, self.side))
            side = self.side
            self.paused = True
            if secs:
                self._charge(app, side, secs, False)
        self.paused = bool(want)
        self.t0 = self.now()
        app.version += 1
        from referee import protocol

        app.send(protocol.encode(self.line(app)))

    def state(self):
        """(paused, the side whose clock runs now or None, ms it used since its last charge)."""
        if self.paused or self.side == NONE:
            return self.paused, None, 0
        return False, self.side, min(self.used_ms(), 0x3FFFFFFF)

    def line(self, app):
        """The ``clock`` message: the clocks paused or resumed (docs/protocol.md)."""
        g = app.game
        p, run, used = self.state()
        return {
            "t": "clock",
            "gid": app.gid,
            "seq": g.seq,
            "paused": p,
            "running": run,
            "used_ms": used,
            "left": [left(g, 0), left(g, 1)],
        }

    def poll(self, app):
        """Every few hundred ms: hold the clock while physical dice are entered or it is
        paused; log the expiry of the running side's clock."""
        g = app.game
        t = self.now()
        if not used_by(g) or self.side == NONE:
            self.last = t
            return
        if self.paused or getattr(getattr(app, "pad", None), "entry", 0):
            self.t0 = t if self.paused else self.t0 + max(0, ticks_diff(t, self.last))
        elif not expired(g, self.side) and self.used_ms() >= 1000 * left(g, self.side):
            self._charge(app, self.side, left(g, self.side), True)
        self.last = t
        if self.side == NONE:  # the expiry ended the game
            app.version += 1
            return
        sec = self.live_left(app, self.side)
        m = (sec + 59) // 60 + (1000 if sec < WARN_S else 0)
        if m != self.shown:  # the grid's minutes (or colour) change: redraw
            self.shown = m
            app.version += 1


def settings_of(given):
    """The clock settings in ``given`` (dict), checked; ValueError names a bad one."""
    out = {}
    for k in SETTINGS:
        if k in given:
            v = given[k]
            lo, hi = SETTINGS[k][1], SETTINGS[k][2]
            if isinstance(v, bool) or not isinstance(v, int) or v < lo or v > hi:
                raise ValueError("setting %s must be an integer %d..%d" % (k, lo, hi))
            out[k] = v
    return out


def clock_of(app):
    """The app's :class:`Clock` (made on first use), reset when a new game was loaded."""
    c = getattr(app, "clock", None)
    if c is None:
        c = app.clock = Clock()
    if c.gid != app.gid:
        c.gid = app.gid
        c.side = NONE
        c.paused = False
        c.pin = None
        if used_by(app.game):
            c.after(app)  # a game loaded or restored: its acting side's clock runs
    return c


def before_submit(app, ev):
    """Before app.Referee ``app`` submits ``ev``: :meth:`Clock.before`."""
    clock_of(app).before(app, ev)


def after_submit(app):
    """After an event was applied: :meth:`Clock.after`."""
    clock_of(app).after(app)


def poll(app):
    """Every 250 ms on the board (assembly.extension_task): :meth:`Clock.poll`."""
    clock_of(app).poll(app)


def command(app, g, c, msg):
    """The ``clock`` command ``c`` of app.Referee ``app`` playing ``g``: pause (``paused``:
    true), resume (false) or toggle (absent), answered with an ``ok`` line. ValueError for a
    ``paused`` that is not a bool. ``msg`` None: the pad's ``clock`` action (a long press of
    ``side``), which toggles and has no answer."""
    if msg is None:
        clock_of(app).pause(app)
        return None
    want = msg.get("paused")
    if want is not None and not isinstance(want, bool):
        raise ValueError("paused must be true (pause) or false (resume)")
    ck = clock_of(app)
    ck.pause(app, want)
    app._out({"t": "ok", "c": "clock", "paused": ck.paused, "seq": g.seq})


def hello_fields(app, msg):
    """``clock`` in the ``hello`` message ``msg`` (a game with clocks): ``paused``,
    ``running``, ``used_ms`` as in the ``clock`` line, for a host that (re)connects."""
    p, run, used = clock_of(app).state()
    msg["clock"] = {"paused": p, "running": run, "used_ms": used}


def draw(r, app):
    """The clocks on the grid (render.py calls this before the overlay): each side's minutes
    left (rounded up; 3x5 digits, glyphs.py) in its half below the fleets when five rows are
    free there, the running side's in its colour, the other's dim; amber under WARN_S
    seconds left, red once it ran out. While paused both are dim and the gap between the
    fleets beside them is a white bar (the pause sign). Nothing while dice show (initiative
    phase, dice entry)."""
    g = app.game
    pad = app.pad
    if pad.entry or g.rules.phases[g.phase] == "initiative":
        return
    from referee import glyphs

    rpp = r.rows_per_page
    shown = 0
    for s in range(2):
        n = pad.side_count[s] - pad.page * rpp
        shown = max(shown, n)
    y = 2 + min(shown, rpp) + 1
    if y + glyphs.H > r.h - 2:
        return  # no free rows: the ships stay visible
    ck = clock_of(app)
    for s in range(2):
        sec = ck.live_left(app, s)
        m = min((sec + 59) // 60, 99)
        if expired(g, s):
            c = RED
        elif sec < WARN_S:
            c = AMBER
        else:
            c = SIDE_RGB[s] if s == ck.side and not ck.paused else SIDE_DIM[s]
        wid = glyphs.W if m < 10 else 2 * glyphs.W + 1
        glyphs.draw_number(r, s * r.half + (r.half - wid) // 2, y, m, c)
    if ck.paused:
        for yy in range(y, y + glyphs.H):
            r.px(r.half - 1, yy, WHITE)
