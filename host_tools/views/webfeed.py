"""What the web view shows, published from the thread that follows the game (the mirror's
replica, or a replay) to the web server's threads: the snapshot and the event records.

An event record is a dict ``{"seq", "ev", "hash", "board_hash", "text", "round", "phase",
"undone"}``:
``text`` is the firmware's own text for the event (``referee.views.event_text``) made a
sentence, ``round``/``phase`` the game's round and phase right after it, ``hash`` the state
hash the host computed after it, ``board_hash`` the board's (None when it sent none),
``undone`` the event an undo took back (None for other events).
"""

import threading

from host_tools.views import clockview
from referee.events import EV_UNDO
from referee.texts import event_text, undone_seq


def sentence(text):
    """``text`` with a capital first letter and a full stop."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


def event_sentence(game, ev, seq=None):
    """The sentence for event ``ev`` (tuple) of ``game`` as it stands right after the event
    (``seq`` its number): the firmware's event text (referee/texts.py), as the mirror, the
    report and the narration say it; an undo names the event it took back."""
    return sentence(event_text(game, ev, seq))


def last_text(rep, seq):
    """The text the replica ``rep`` made for event ``seq`` when it applied it, or None."""
    r = rep.recent[-1] if rep.recent else None
    return r[2] if r is not None and r[0] == seq else None


def record(game, seq, ev, board_hash=None, text=None):
    """The event record of event ``seq`` (just applied to ``game``). ``undone``: for an undo,
    the seq of the event it took back (the page strikes that one through), else None.
    ``text``: the sentence made when the event was applied (the replica's, with what the
    event decided: texts.with_consequences), else the event's own sentence."""
    undone = undone_seq(game, seq) if ev[0] == EV_UNDO else None
    return {
        "seq": seq,
        "ev": list(ev),
        "hash": game.state_hash(),
        "board_hash": board_hash,
        "text": sentence(text) if text else event_sentence(game, ev, seq),
        "round": game.round,
        "phase": game.phase_name(),
        "undone": undone,
    }


class Feed:
    """Thread-safe: one writer (the following thread) calls :meth:`reset`, :meth:`add` and
    :meth:`set_link`; readers (the web server) call :meth:`state`, :meth:`events_since` and
    :meth:`subscribe`. ``gid`` names the game; a reset with another gid starts a new log."""

    def __init__(self, source=""):
        self.lock = threading.Lock()
        self.gid = None
        self.snap = None
        self.records = []
        self.link = {"connected": False, "source": source, "note": "waiting for the board"}
        self.version = 0
        self.waiters = []  # (loop, asyncio.Event)

    # ---- writer ----------------------------------------------------------------------------
    def reset(self, gid, snap, records):
        with self.lock:
            self.gid = gid
            self.snap = snap
            self.records = list(records)
        self._notify()

    def add(self, rec, snap):
        with self.lock:
            if self.records and rec["seq"] <= self.records[-1]["seq"]:
                self.records = [r for r in self.records if r["seq"] < rec["seq"]]
            self.records.append(rec)
            self.snap = snap
        self._notify()

    def set_snap(self, snap):
        """A new snapshot with no new event (the dice record changed: a reveal, a restart)."""
        with self.lock:
            self.snap = snap
        self._notify()

    def set_link(self, connected, note=""):
        with self.lock:
            if self.link["connected"] == connected and self.link["note"] == note:
                return
            self.link = dict(self.link, connected=connected, note=note)
        self._notify()

    def _notify(self):
        with self.lock:
            self.version += 1
            waiters = list(self.waiters)
        for loop, ev in waiters:
            try:
                loop.call_soon_threadsafe(ev.set)
            except RuntimeError:  # that loop has closed
                pass

    # ---- readers ---------------------------------------------------------------------------
    def subscribe(self, loop, event):
        with self.lock:
            self.waiters.append((loop, event))

    def unsubscribe(self, loop, event):
        with self.lock:
            if (loop, event) in self.waiters:
                self.waiters.remove((loop, event))

    def state(self):
        """The snapshot (dict, with ``state_hash``, ``seq``, ``gid``, ``link``) or a dict with
        ``seq`` None while no game is known."""
        with self.lock:
            snap = {"seq": None, "state_hash": None}  # type: dict  # while no game is known
            if self.snap is not None:
                snap = dict(self.snap)
            snap["gid"] = self.gid
            snap["link"] = dict(self.link)
            snap["first_seq"] = self.records[0]["seq"] if self.records else None
            return clockview.aged(snap)  # the clocks' seconds left as of now

    def events_since(self, since):
        """``(gid, newest seq, records with seq > since)``."""
        with self.lock:
            seq = self.snap["seq"] if self.snap is not None else 0
            return self.gid, seq, [r for r in self.records if r["seq"] > since]


class MirrorFeed:
    """Feeds a :class:`Feed` from a host_tools.link.mirror.Mirror: the replica's hook publishes every
    event it applied, a new game and a state taken after a long absence; ``on_update`` (for
    Mirror.follow) publishes the link's state."""

    def __init__(self, mirror, feed):
        self.m = mirror
        self.feed = feed
        mirror.rep.on_change = self.changed

    def _snap(self):
        return clockview.stamped(self.m)  # (the clocks: when their seconds were taken)

    def changed(self, kind, seq):
        rep = self.m.rep
        g = rep.game
        if kind == "ev":
            s, ev, _h = rep.rows[-1]
            self.feed.add(record(g, s, ev, rep.board_hash, last_text(rep, s)), self._snap())
            return
        # a new game, or the board's state window: the records of the events held, with the
        # texts of the game as it is now (names, phases; the window is all the board keeps)
        recs = [
            {
                "seq": s,
                "ev": list(ev),
                "hash": h,
                "board_hash": None,
                "text": event_sentence(g, ev, s),
                "round": None,
                "phase": None,
                "undone": undone_seq(g, s) if ev[0] == EV_UNDO else None,
            }
            for s, ev, h in rep.rows
        ]
        self.feed.reset(rep.gid, self._snap(), recs)

    def on_update(self, m):
        if m.connected:
            self.feed.set_link(True, "following %s" % m.port)
        else:
            self.feed.set_link(False, "link to %s lost: reconnecting" % m.port)
        snap = self.feed.snap
        if (
            snap is not None
            and m.rep.game is not None
            and (
                snap.get("dice") != m.rep.dicelog.view()  # a reveal, a restart: no event
                or clockview.stale(snap, m)
            )
        ):  # the clocks paused or resumed
            self.feed.set_snap(self._snap())
