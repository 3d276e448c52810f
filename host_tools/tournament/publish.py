"""``fleetref publish``: follow a board as the mirror does (host_tools.link.mirror.Mirror and its
replica, the same code) and publish its game to an MQTT broker for an organiser's dashboard
(topics and guarantees: docs/mqtt.md).

Every event goes to ``fleetref/EVENT/TABLE/events`` (QoS 1) as JSON: the web view's event record
(host_tools.views.webfeed.record: ``seq``, ``ev``, ``hash``, ``board_hash``, ``text``, ``round``,
``phase``) with ``gid``, ``table`` and ``t`` (unix seconds when published). After the newest
event the mirror's snapshot goes to ``.../state``, retained, with ``table``, ``event``, ``t``,
``acked_seq`` (the newest seq whose event, and all before it, the broker acknowledged) and
``recent`` ([[seq, sentence], ...] of the newest events).
A restarted publisher reads its own retained state first and publishes only the events after
it, and so does a publisher whose broker came back (one killed before it saved may have lost
events it acknowledged); consumers drop an event whose seq they already hold (QoS 1 may
deliver one twice).

At the start the publisher announces itself online on its own retained ``status`` and waits
for the broker to send that very message back: a broker whose access list denies this table's
topics to these credentials acknowledges a denied publish all the same (MQTT 3.1.1) and drops
it, so without the echo within ACCESS_WITHIN seconds the publisher says so in one line and
stops. Its will (``{"online": false}``) carries no time: it is fixed at connect time.
"""

import json
import sys
import threading
import time

from host_tools.argtypes import MAX_BAUD, add_port_argument, whole_number
from host_tools.tournament import mqttlink
from host_tools.views import webfeed

COMMAND = "publish"  # fleetref publish; SUMMARY: its line in fleetref --help (cli.py)
SUMMARY = "follow a board and publish its game to an MQTT broker (docs/mqtt.md)"

RECENT = 5  # newest events' texts in the state (a dashboard started afresh shows them)
ACCESS_WITHIN = 5.0  # seconds for the broker to send the publisher's own status back
RESYNC_AFTER = 3.0  # seconds after the broker's return before the events it may have lost are
# sent again: subscribers reconnect meanwhile (paho's backoff starts at 1 s)


class Publisher:
    """Publishes what a Mirror's replica takes (its ``on_change`` hook) through ``client`` (a
    mqttlink.Client, started by the caller). ``resume``: ``(gid, seq)`` the broker already
    holds (events up to ``seq`` of game ``gid`` are not published again)."""

    def __init__(self, mirror, client, event, table, resume=(None, 0)):
        self.m = mirror
        self.client = client
        self.event, self.table = event, table
        self.resume = resume
        self.lock = threading.Lock()  # guards the ack book-keeping only (never held in paho)
        self.mid_seq = {}  # message id -> (gid, seq) of an event not yet acked
        self.early = set()  # acks that came before publish() returned their mid
        self.unacked = set()
        self.sent_seq = 0  # newest seq published in this game
        self.acked_seq = resume[1]
        self.gid = resume[0]
        self.published = 0  # event messages published
        self.state_dirty = False
        # time.monotonic() of the broker's return (set in paho's thread)
        self.reconnected = None  # type: float | None
        client.on_acked_cb = self.acked
        mirror.rep.on_change = self.changed

    # ---- acks (paho's thread) --------------------------------------------------------------
    def acked(self, mid):
        with self.lock:
            key = self.mid_seq.pop(mid, False)
            if key is False:
                self.early.add(mid)
            elif key is not None:  # None: a state or status message
                self._ack(key)

    def _sent(self, mid, key):
        """Book message ``mid`` (``key``: (gid, seq) of an event, None for other messages)
        once publish() returned it; an ack that came first is taken now."""
        with self.lock:
            if mid in self.early:
                self.early.discard(mid)
                if key is not None:
                    self._ack(key)
            else:
                self.mid_seq[mid] = key

    def _ack(self, key):
        gid, seq = key
        if gid != self.gid:
            return
        self.unacked.discard(seq)
        top = self.sent_seq
        self.acked_seq = min(self.unacked) - 1 if self.unacked else max(self.acked_seq, top)

    # ---- the replica's hook (the mirror's thread) --------------------------------------------
    def changed(self, kind, seq):
        rep = self.m.rep
        if kind == "ev":
            self._event(*rep.rows[-1])
        else:
            # a new game, or the board's state window after a long absence: the events held
            # that the broker lacks, then the state
            if rep.gid != self.gid:
                self.gid, self.sent_seq, self.acked_seq = rep.gid, 0, 0
                self.unacked.clear()
            for s, ev, h in rep.rows:
                self._event(s, ev, h, recent=False)
        self.state_dirty = True

    def resync(self, have):
        """After the broker came back: publish again every event after ``have`` ((gid, seq)
        of the retained state the broker holds now, read_resume). A broker killed before it
        saved has acknowledged events it then lost; consumers drop repeats by seq."""
        rep = self.m.rep
        if rep.game is None:
            return
        self.resume = have if have[0] == rep.gid else (None, 0)
        with self.lock:
            self.sent_seq = min(self.sent_seq, self.resume[1])
        for s, ev, h in rep.rows:
            self._event(s, ev, h, recent=False)
        self.state_dirty = True

    def _event(self, s, ev, h, recent=True):
        rep = self.m.rep
        if rep.gid != self.gid:
            self.gid, self.sent_seq, self.acked_seq = rep.gid, 0, 0
            self.unacked.clear()
        if s <= self.sent_seq or (self.gid == self.resume[0] and s <= self.resume[1]):
            return  # the broker has it (a catch-up, or a restart)
        g = rep.game
        if recent:
            rec = webfeed.record(g, s, ev, rep.board_hash, webfeed.last_text(rep, s))
        else:  # not the newest: the game's texts as they stand now
            rec = {
                "seq": s,
                "ev": list(ev),
                "hash": h,
                "board_hash": None,
                "text": webfeed.sentence(webfeed.event_text(g, ev)),
                "round": None,
                "phase": None,
            }
        rec.update(gid=self.gid, table=self.table, t=round(time.time(), 3))
        with self.lock:
            self.unacked.add(s)
            self.sent_seq = s
        mid = self.client.publish(
            mqttlink.topic(self.event, self.table, "events"), json.dumps(rec)
        )
        self.published += 1
        self._sent(mid, (self.gid, s))

    def state(self):
        """The retained snapshot message (dict)."""
        snap = self.m.snapshot()
        snap.update(
            table=self.table,
            event=self.event,
            t=round(time.time(), 3),
            acked_seq=self.acked_seq,
            link=self.m.connected,
            recent=[[s, webfeed.sentence(t)] for s, t in self.m.rep.recent_texts()[-RECENT:]],
        )
        return snap

    def publish_state(self):
        if self.m.rep.game is None:
            return
        self.state_dirty = False
        self._sent(
            self.client.publish(
                mqttlink.topic(self.event, self.table, "state"),
                json.dumps(self.state()),
                retain=True,
            ),
            None,
        )

    def publish_status(self, online):
        """The retained ``status`` message (``online``: bool)."""
        self._sent(
            self.client.publish(
                mqttlink.topic(self.event, self.table, "status"),
                status_payload(online),
                retain=True,
            ),
            None,
        )

    def on_update(self, m):
        """For Mirror.follow: after a burst of messages, publish the state once; after the
        broker came back (``reconnected``) and RESYNC_AFTER passed, first the events it may
        have lost."""
        if self.reconnected is not None and not m.catching:
            if time.monotonic() - self.reconnected < RESYNC_AFTER:
                m.version += 1  # called again after the next read (IDLE_WAIT at most)
            else:
                self.reconnected = None
                self.resync(read_resume(self.client, self.event, self.table))
        if self.state_dirty and not m.catching:
            self.publish_state()


def read_resume(client, event, table, timeout=2.0):
    """``(gid, seq)`` of this table's retained state on the broker, or ``(None, 0)``: what a
    restarted publisher need not send again. Needs read access to the table's own topic."""
    got = threading.Event()
    box = [(None, 0)]

    def on_message(t, payload, retained=False):
        if t == mqttlink.topic(event, table, "state"):
            box[0] = resume_state(payload)  # torn: (None, 0), publish everything again
            got.set()

    client.on_message_cb = on_message
    client.subscribe(mqttlink.topic(event, table, "state"))
    got.wait(timeout)
    client.unsubscribe(mqttlink.topic(event, table, "state"))
    client.on_message_cb = None
    return box[0]


def resume_state(payload):
    """``(gid, seq)`` of a retained state message, or ``(None, 0)`` for a torn one."""
    try:
        d = json.loads(payload)
        return d["gid"], int(d["seq"])
    except (ValueError, KeyError, TypeError):
        return None, 0


def announce(client, event, table, user, timeout=ACCESS_WITHIN):
    """Publish this table's retained ``online`` status and read back its own topics: returns
    ``(gid, seq)`` of the retained state as read_resume does. The broker sending the status
    back proves these credentials may write and read the table's topics (a broker acknowledges
    and drops a publish its access list denies); without it within ``timeout`` seconds,
    MqttError naming the likely cause."""
    st, ss = mqttlink.topic(event, table, "status"), mqttlink.topic(event, table, "state")
    mine = status_payload(True)
    echoed = threading.Event()
    box = [(None, 0)]

    def on_message(t, payload, retained=False):
        if t == ss:  # sent on subscribing, so before the status comes back
            box[0] = resume_state(payload)
        elif t == st and payload == mine.encode():
            echoed.set()

    client.on_message_cb = on_message
    client.subscribe(ss)
    client.subscribe(st)
    client.publish(st, mine, retain=True)
    ok = echoed.wait(timeout)
    client.unsubscribe(ss)
    client.unsubscribe(st)
    client.on_message_cb = None
    if not ok:
        raise mqttlink.MqttError(
            "the broker did not send back this table's own status within %.0f s: it drops what "
            "this table publishes; the table name (--table %s) or the credentials (--user %s) "
            "do not match the broker's access list" % (timeout, table, user or "none")
        )
    return box[0]


def status_payload(online):
    return json.dumps({"online": online, "t": round(time.time(), 3)})


def will_payload():
    """The publisher's will: offline, with no time (it is fixed when the link is made, so a
    time in it would be the connect time; the dashboard takes the time it receives it)."""
    return json.dumps({"online": False})


def add_arguments(p):
    add_port_argument(p)
    p.add_argument("--broker", required=True, help="mqtt://HOST[:PORT] (mqtts:// for TLS)")
    p.add_argument("--table", required=True, help="this table's name (letters, digits, - _)")
    mqttlink.add_event_argument(p)
    p.add_argument("--user", help="broker user name (fleetref tournament init: the table name)")
    p.add_argument("--password-file", help="file holding the broker password (first line)")
    mqttlink.add_tls_argument(p)
    p.add_argument("--baud", type=whole_number(1, MAX_BAUD), default=115200)


def say(msg):
    print("fleetref publish: " + msg, file=sys.stderr, flush=True)


def first_sync(m):
    """The handshake with the board on Mirror ``m``'s open link, before the table goes online:
    raises MirrorError when the board never answers (not a board running fleetref), speaks
    another protocol or disagrees with this host's rules; a link lost meanwhile is left to
    Mirror.follow, which opens it again."""
    import serial
    from host_tools.link.mirror import Disagreement, Incompatible, MirrorError, NoAnswer

    try:
        m.sync()
    except (NoAnswer, Incompatible, Disagreement):
        raise
    except (serial.SerialException, OSError, MirrorError):
        m.close()  # (said by follow if opening it again fails too)


def _check_args(args):
    """The broker, event and table names checked; returns the password read from
    ``--password-file`` (or None). Raises mqttlink.MqttError (one line)."""
    mqttlink.parse_broker(args.broker)
    mqttlink.check_name("event", args.event)
    mqttlink.check_name("table", args.table)
    pw = mqttlink.read_password(args.password_file) if args.password_file else None
    if pw and not args.user:
        raise mqttlink.MqttError("--password-file needs --user")
    return pw


def _client(args, pw):
    """The MQTT client of the table, with its will (the table offline), not started yet."""
    st = mqttlink.topic(args.event, args.table, "status")
    return mqttlink.Client(
        args.broker,
        "fleetref-pub-%s-%s" % (args.event, args.table),
        args.user,
        pw,
        will=(st, will_payload(), 1, True),
        warn=say,
        ca_file=args.ca_file,
    )


def main(args):
    from host_tools.link.mirror import Disagreement, Mirror, MirrorError, find_port

    m = client = None
    started = False
    try:
        pw = _check_args(args)
        port = find_port(say) if args.port == "auto" else args.port
        client = _client(args, pw)
        client.start()  # (it stops itself when the broker refuses)
        started = True
        m = Mirror(port, baud=args.baud, auto=args.port == "auto", warn=say)
        m.open()  # a board that cannot be had is said now, in one line,
        first_sync(m)  # and one that does not answer (no fleetref on it)
        resume = announce(client, args.event, args.table, args.user)  # then "online"
    except (mqttlink.MqttError, MirrorError) as e:
        say(str(e))
        if m is not None:
            m.close()
        if started and client is not None:  # (the broker was reached)
            client.stop()
        return 2
    pub = Publisher(m, client, args.event, args.table, resume)
    if m.rep.game is not None:  # the game the handshake loaded: what the broker lacks
        pub.changed("game", m.rep.game.seq)

    def reconnected(session_present):
        # online again: the events after the state the broker kept, then the state (a broker
        # killed before it saved lost what it had acknowledged since)
        pub.publish_status(True)
        pub.reconnected = time.monotonic()
        m.version += 1  # Mirror.follow calls on_update within IDLE_WAIT

    client.on_connect_cb = reconnected
    say(
        "following %s, publishing to %s as table %s of event %s%s"
        % (
            port,
            args.broker,
            args.table,
            args.event,
            " (the broker holds events up to %d)" % resume[1] if resume[1] else "",
        )
    )
    rc = 0
    try:
        m.follow(pub.on_update)
    except KeyboardInterrupt:
        pass
    except MirrorError as e:  # held by another program, or the rules differ
        say(str(e))
        rc = 3 if isinstance(e, Disagreement) else 2
    finally:
        m.close()
        pub.publish_status(False)
        time.sleep(0.2)
        client.stop()
    return rc
