"""The dashboard's view of an event's tables, built from the MQTT messages the publishers send
(host_tools.tournament.publish; docs/mqtt.md): per table the newest retained snapshot, the events seen
(each seq once: a repeat that QoS 1 may deliver is dropped), the publisher's status, and the
warnings an organiser needs (hashes that disagree, a table gone silent). Thread-safe: paho's
thread calls :meth:`Tables.take`, the web server's threads read.
"""

import csv
import io
import json
import threading
import time

from host_tools.tournament import mqttlink

RECENT = 5  # newest event texts kept per table for its card


def strength(snap, side):
    """``(remaining hit points, total, ships not destroyed, ships)`` of ``side`` in ``snap``."""
    left = total = alive = n = 0
    for s in snap.get("ships") or []:
        if s.get("side") != side:
            continue
        hp = sum(s.get("hp") or [0])
        total += hp
        left += max(0, hp - (s.get("damage") or 0))
        n += 1
        alive += s.get("status") != "destroyed"
    return left, total, alive, n


def reason(e):
    """Why a message was malformed, in a few words."""
    if isinstance(e, (json.JSONDecodeError, UnicodeDecodeError)):
        return "not JSON"
    if isinstance(e, KeyError):
        return "no field %s" % e
    return str(e)


class Table:
    def __init__(self, name):
        self.name = name
        self.snap = None  # the newest snapshot (dict)
        self.gid = None
        self.seqs = set()  # event seqs seen in this game (each once)
        self.dups = 0  # repeats dropped
        self.recent = []  # [seq, text] newest last
        self.hash_of = {}  # seq -> state hash the publisher computed
        self.problems = []  # hash disagreements found (sentences)
        self.online = None
        self.offline_since = None  # unix seconds the publisher went offline, None: unknown
        self.last = 0.0  # unix seconds of the newest event or state
        self.bad = 0  # malformed messages ignored
        self.bad_why = None  # type: str | None  # the newest one's kind and reason


class Tables:
    """All tables of one event. ``silent_after``: seconds without an event or a state after which
    a table with no winner is flagged silent. ``warn``: callable(str) for malformed messages."""

    def __init__(self, event, silent_after=300.0, warn=None, clock=time.time):
        self.event = event
        self.silent_after = silent_after
        self.warn = warn or (lambda m: None)
        self.clock = clock
        self.lock = threading.Lock()
        self.tables = {}
        self.version = 0

    def _table(self, name):
        t = self.tables.get(name)
        if t is None:
            t = self.tables[name] = Table(name)
        return t

    def take(self, topic, payload, retained=False):
        """Take one message; returns what it was ("event", "dup", "state", "status") or None
        for a message that is not a fleetref one of this event or is malformed (warned once
        per message, counted on the table's card, never raised). ``retained``: a message the
        broker had stored (sent on subscribing), so not news of this moment."""
        parts = mqttlink.split_topic(topic)
        if parts is None or parts[0] != self.event:
            return None
        _ev, name, kind = parts
        try:
            d = json.loads(payload)
            if not isinstance(d, dict):
                raise ValueError("not an object")
            with self.lock:
                if kind == "status":
                    r = self._status(self._table(name), d, retained)
                else:
                    r = getattr(self, "_" + kind)(self._table(name), d)
                self.version += 1
            return r
        except (ValueError, KeyError, TypeError, AttributeError, IndexError) as e:
            why = reason(e)
            with self.lock:
                t = self._table(name)
                t.bad += 1
                t.bad_why = ("%s message: %s" % (kind, why))[:120]
                self.version += 1
            self.warn("table %s: malformed %s message ignored (%s)" % (name, kind, why))
            return None

    def _new_game(self, t, gid):
        t.gid, t.seqs, t.recent, t.hash_of, t.problems = gid, set(), [], {}, []

    def _events(self, t, d):
        seq, gid = int(d["seq"]), d["gid"]
        if not isinstance(d["hash"], str) or not isinstance(d.get("text", ""), str):
            raise TypeError("hash and text must be strings")
        if gid != t.gid:
            self._new_game(t, gid)
        if seq in t.seqs:
            t.dups += 1
            return "dup"
        t.seqs.add(seq)
        t.hash_of[seq] = d["hash"]
        bh = d.get("board_hash")
        if bh and bh != d["hash"]:
            t.problems.append("event %d: board hash %s, replica %s" % (seq, bh, d["hash"]))
        t.recent = sorted(t.recent + [[seq, d.get("text", "")]])[-RECENT:]
        t.last = max(t.last, float(d.get("t") or 0))
        return "event"

    def _state(self, t, d):
        seq, gid, h = int(d["seq"]), d["gid"], d["state_hash"]
        if not isinstance(d["ships"], list) or not isinstance(d["sides"], list):
            raise TypeError("ships and sides must be lists")
        if gid != t.gid:
            self._new_game(t, gid)
        if t.snap is not None and t.snap.get("gid") == gid and int(t.snap["seq"]) > seq:
            return "state"  # an older state that came late
        t.snap = d
        held = {r[0] for r in t.recent}
        extra = [[int(r[0]), str(r[1])] for r in d.get("recent") or [] if r[0] not in held]
        t.recent = sorted(t.recent + extra)[-RECENT:]
        if t.hash_of.get(seq, h) != h:
            t.problems.append("event %d: state %s, event %s" % (seq, h, t.hash_of[seq]))
        if d.get("hash_match") is False:
            t.problems.append(
                "event %d: board hash %s, replica %s" % (seq, d.get("board_hash"), h)
            )
        del t.problems[:-5]
        t.last = max(t.last, float(d.get("t") or 0))
        return "state"

    def _status(self, t, d, retained=False):
        """The publisher's status. Its own messages carry ``t`` (when it said so); its will
        carries none (fixed at connect time), so the time it went offline is when the will
        reached the dashboard, or unknown when the broker sent it stored, from before this
        dashboard subscribed."""
        online = d["online"]
        if not isinstance(online, bool):
            raise TypeError("online must be true or false")
        stamp = d.get("t")
        if stamp is not None:
            stamp = float(stamp)
        if online:
            t.offline_since = None
        elif stamp is not None:
            t.offline_since = stamp
        elif not retained:
            t.offline_since = self.clock()
        elif t.online is not False:
            t.offline_since = None  # stored earlier: when is unknown
        t.online = online
        return "status"

    # ---- readers ---------------------------------------------------------------------------
    def card(self, t, now):
        """One table's card (dict, JSON-ready)."""
        s = t.snap or {}
        sides = s.get("sides") or ["", ""]
        warnings = list(dict.fromkeys(t.problems))
        silent = now - t.last if t.last else None
        if s and s.get("winner") is None and silent is not None and silent > self.silent_after:
            warnings.append("silent for %d s" % silent)
        if t.online is False and s.get("winner") is None:
            warnings.append(
                "publisher offline for %d s" % max(0, now - t.offline_since)
                if t.offline_since is not None
                else "publisher offline (since before this dashboard subscribed)"
            )
        if t.bad:
            warnings.append(
                "%d malformed message%s ignored, the last: %s"
                % (t.bad, "" if t.bad == 1 else "s", t.bad_why)
            )
        clock = s.get("clock") or None
        return {
            "table": t.name,
            "gid": t.gid,
            "scenario": s.get("scenario"),
            "ruleset": s.get("ruleset"),
            "round": s.get("round"),
            "phase": s.get("phase"),
            "initiative": s.get("initiative"),
            "sides": sides,
            "strength": [strength(s, 0), strength(s, 1)] if s else None,
            "clock": {
                "left": clock["left"],
                "expired": clock.get("expired"),
                "running": clock.get("running"),
                "paused": bool(clock.get("paused")),
            }
            if clock
            else None,
            "winner": s.get("winner"),
            "seq": s.get("seq"),
            "state_hash": s.get("state_hash"),
            "events_seen": len(t.seqs),
            "dups_dropped": t.dups,
            "recent": [r[1] for r in t.recent],
            "last": t.last or None,
            "idle_s": round(silent, 1) if silent is not None else None,
            "online": t.online,
            "offline_since": t.offline_since,
            "warnings": warnings,
            "malformed": t.bad,
            "malformed_last": t.bad_why,
        }

    def view(self):
        """``{"event", "silent_after", "tables": [card, ...]}`` sorted by table name."""
        now = self.clock()
        with self.lock:
            cards = [self.card(self.tables[n], now) for n in sorted(self.tables)]
        return {"event": self.event, "silent_after": self.silent_after, "tables": cards}

    def results_csv(self):
        """The results table as CSV text: one row per table with a game (text cells that
        start like a formula written as text: host_tools/files/csvcell.py)."""
        from host_tools.files import csvcell

        out = io.StringIO()
        w = csv.writer(out, lineterminator="\n")
        w.writerow(
            [
                "table",
                "scenario",
                "side_0",
                "side_1",
                "winner",
                "round",
                "phase",
                "side_0_hp_left",
                "side_1_hp_left",
                "side_0_ships_left",
                "side_1_ships_left",
                "seq",
                "state_hash",
                "warnings",
            ]
        )
        for c in self.view()["tables"]:
            if c["strength"] is None:
                continue
            st = c["strength"]
            w.writerow(
                csvcell.row(
                    [
                        c["table"],
                        c["scenario"],
                        c["sides"][0],
                        c["sides"][1],
                        c["sides"][c["winner"]] if c["winner"] is not None else "",
                        c["round"],
                        c["phase"],
                        st[0][0],
                        st[1][0],
                        st[0][2],
                        st[1][2],
                        c["seq"],
                        c["state_hash"],
                        "; ".join(c["warnings"]),
                    ]
                )
            )
        return out.getvalue()
