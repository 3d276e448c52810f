"""The time banks as the host tools show them (docs/clock.md): the mirror's copy of the board's
clocks, kept from the events (which side's clock runs), the ``clock`` lines and ``hello`` (paused
or not, and how long the running side has used since its last charge); their place in the
snapshot (``clock``: ``paused``, ``running`` None while paused, ``live`` the seconds left now);
and their text in the terminal views.

Pausing is the board's alone (it is not in the game's state): a host learns it from the
board's lines, never from the events. A host that follows a board of an older firmware, which
sends no ``clock`` lines, shows the clocks as never paused.
"""

import time

from rich.text import Text

from referee.clock import clock_of, live_view, running_side, used_by, LAST_S, WARN_S
from referee.ticks import ticks_add, ticks_ms


def note(m, msg):
    """Mirror ``m`` read ``msg``: a ``clock`` line, or a ``hello`` with ``clock``, is kept
    until the replica reaches the event the board was at (:func:`host_clock`)."""
    t = msg.get("t")
    info = msg.get("clock") if t == "hello" else msg if t == "clock" else None
    if not isinstance(info, dict):
        return
    seq, used = msg.get("seq"), info.get("used_ms") or 0
    if not isinstance(seq, int) or not isinstance(used, int):
        return
    m.clock_note = (msg.get("gid"), seq, info.get("paused") is True, max(0, used), ticks_ms())


def host_clock(m):
    """The clock of mirror ``m``'s replica (referee.clock.Clock), up to date: paused as the
    board said, the running side's clock started when the board said (or when the event that
    gave it the turn arrived); None for a game without clocks."""
    rep = m.rep
    g = rep.game
    if not used_by(g):
        return None
    ck = clock_of(rep)  # (the replica holds the clocks as the board's app does)
    n = getattr(m, "clock_note", None)
    if n is not None and n[0] == rep.gid:
        m.clock_note = None
        ck.paused = n[2]
        ck.pin = (n[1], ticks_add(n[4], -n[3]))  # pyright: ignore[reportAttributeAccessIssue]  (None in firmware, a host's to set)
    p = ck.pin
    if p is not None:
        if g.seq < p[0]:
            return ck  # catching up to where the board was when it said
        ck.pin = None
        if g.seq == p[0]:
            ck.side = running_side(g)
            ck.t0 = p[1]
            return ck
    ck.after(rep)  # a new side's clock starts now
    return ck


def view(m):
    """The snapshot's ``clock`` for mirror ``m`` (referee.clock.live_view), or None."""
    if host_clock(m) is None:
        return None
    return live_view(m.rep)


def stamped(m):
    """Mirror ``m``'s snapshot for the web feed: its clock with ``at``, the time
    (time.monotonic) its ``live`` seconds were whole, for :func:`aged`."""
    snap = m.snapshot()
    ck = snap.get("clock")
    if ck is not None:
        running = host_clock(m) if ck["running"] is not None else None
        used = running.used_ms() if running is not None else 0
        ck["at"] = time.monotonic() - (used % 1000) / 1000.0
    return snap


def aged(snap):
    """``snap`` (a dict) with its clock's ``live`` seconds as they are now, and without
    ``at``: what the web page gets (it counts down from there itself)."""
    ck = snap.get("clock")
    if not isinstance(ck, dict) or "at" not in ck:
        return snap
    ck = dict(ck)
    at = ck.pop("at")
    r = ck.get("running")
    if r is not None and "live" in ck:
        live = list(ck["live"])
        live[r] = max(0, live[r] - int(time.monotonic() - at))
        ck["live"] = live
    snap = dict(snap)
    snap["clock"] = ck
    return snap


def stale(snap, m):
    """True when the web feed's ``snap`` shows the clocks otherwise than mirror ``m`` now has
    them (a ``clock`` line paused or resumed them: no event came)."""
    ck = snap.get("clock") if snap else None
    if not ck:
        return False
    now = view(m)
    return now is not None and (now["paused"], now["running"]) != (
        ck.get("paused"),
        ck.get("running"),
    )


def ticking(m, stop):
    """A ``stop`` callable for Mirror.follow that also has the view redrawn when the running
    clock's shown second changed (the mirror looks at it once a second while idle)."""
    shown = [None]

    def check():
        v = view(m) if m.rep.game is not None else None
        if v is not None and v["running"] is not None:
            sec = v["live"][v["running"]]
            if sec != shown[0]:
                shown[0] = sec
                m.version += 1
        return bool(stop and stop())

    return check


def mmss(sec):
    return "%d:%02d" % (sec // 60, sec % 60)


def append(t, v, names, sep=", "):
    """Append the clocks of view ``v`` (a snapshot's ``clock``) to rich Text ``t``, each after
    ``sep``: each side's time left now (amber under WARN_S seconds, red under LAST_S and once
    it ran out), which one runs, and PAUSED while the clocks are paused."""
    live = v.get("live") or v["left"]
    for s in range(2):
        sec = live[s]
        out = v["expired"][s]
        last = out or sec < v.get("last_s", LAST_S)
        t.append(
            "%s%s %s%s%s"
            % (
                sep if s == 0 else ", ",
                names[s],
                mmss(sec),
                " running" if v["running"] == s else "",
                " OUT OF TIME" if out else " last minute" if last else "",
            ),
            style="bold red" if last else "yellow" if sec < v.get("warn_s", WARN_S) else "",
        )
    if v.get("paused"):
        t.append(", clocks PAUSED", style="bold cyan")
    return t


def sim_lines(app):
    """The simulator's view: one line with the board's clocks now ([] without clocks)."""
    v = live_view(app)
    if v is None:
        return []
    t = append(Text("clocks"), v, app.game.side_names, ": ")
    return [t]
