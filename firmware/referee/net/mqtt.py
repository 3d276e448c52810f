"""The board's MQTT publisher (profile ``network.services``: ``"mqtt"``): the game goes to the
tournament broker with the topics and payloads of ``fleetref publish`` (docs/mqtt.md), so a
dashboard cannot tell a board from a laptop: each event at QoS 1, the retained state after
them, the retained status ``{"online": true}`` and the will ``{"online": false}``.

Settings: ``network.root + "/mqtt.json"`` (referee.net.mqtt_messages.read_settings), written by
``fleetref tournament board``; the password goes to the broker in CONNECT and nowhere else.

**Why a client of its own.** micropython-lib's ``umqtt.simple`` blocks the whole board: its
``connect`` makes a blocking socket (and a DNS look-up) and waits for CONNACK, and
``publish(qos=1)`` loops on a blocking read until the PUBACK; its packets are built inside
those methods, so none can be reused without its socket calls. Nothing asynchronous is in
micropython-lib, and ``mqtt_as`` is a larger client with its own Wi-Fi handling (the board's
network part does that). So this is a small MQTT 3.1.1 QoS 1 publisher over MicroPython's
``asyncio`` streams (non-blocking sockets; referee.net.mqtt_wire builds the packets): nothing
beyond ``asyncio`` and ``socket``, both in the image, is needed.

**Never blocking the referee.** The broker is an IP address (no DNS on the board); the
connect, CONNACK and every write are awaited with a bound (CONNECT_MS, ANSWER_MS); PUBACKs
are read by a task of their own; a link silent for DEAD_MS while it owes an answer is
dropped. While idle the task only compares the game's seq every POLL_MS (no allocation).

**Resume.** Events go in seq order, WINDOW at most unacknowledged; the broker acknowledges
them in order (MQTT 3.1.1 4.6), so ``acked`` is the newest seq it holds with all before it.
At every connect the board reads its own retained state back (``acked_seq``, for this game's
gid) and sends every event after the lower of that and its own ``acked``: a broker killed
before it saved lost what it had acknowledged, and this sends it again. Events still in RAM
come from the game's window, older ones from the journal (the serial ``events`` command's
code). Consumers drop repeats by seq. After a reconnect the resend waits RESYNC_MS, so
subscribers with persistent sessions are back first (as ``fleetref publish``).
"""

import asyncio

from referee.ticks import ticks_add, ticks_diff, ticks_ms
from referee.net import mqtt_messages as messages, mqtt_wire as wire, mqtt_words

POLL_MS = 150  # how often the game's seq is looked at
CONNECT_MS = 5000  # TCP connect, then the CONNACK, each within this
ANSWER_MS = 5000  # a write taken; the own status echoed by the broker
DEAD_MS = 8000  # an answer owed (PUBACK, PINGRESP) for this long: the link is dead
KEEPALIVE_S = 10  # MQTT keep-alive: a PINGREQ after half of it without sending
RESYNC_MS = 3000  # after a reconnect, before the events are sent again
STATE_MS = 1000  # retained states at most this often
WINDOW = 8  # events sent and not yet acknowledged, at most
PAUSES_MS = (1000, 2000, 4000, 8000)  # waits between tries; a refusal waits REFUSED_MS
REFUSED_MS = 30000
IDS = 60000  # packet ids 1..IDS are events' (1 + seq % IDS); the others below
ID_STATE, ID_STATUS, ID_SUB, ID_UNSUB = 60001, 60002, 60003, 60004
UNKNOWN = 1 << 30  # ``acked`` before the broker's retained state was read


words = None  # mqtt_words.Words made at boot (ready), for the Publisher


def ready(app):
    """At boot, before any event (the network part calls it): each event's words are kept
    from the moment it happens (mqtt_words.Words), so events played before the network was
    first up are published as the laptop's are."""
    global words
    words = mqtt_words.Words(app)


class Refused(Exception):
    """The broker refused the credentials or the table's topics (one line)."""


class Publisher:
    """The link to the broker for ``app`` (referee.app.Referee) with settings ``cfg``."""

    def __init__(self, app, cfg):
        self.app = app
        self.cfg = cfg
        prefix = "fleetref/%s/%s/" % (cfg["event"], cfg["table"])
        self.topics = tuple((prefix + k).encode() for k in ("events", "state", "status"))
        # the game published (app's game in play, or the one it replaced until all of that
        # one is out: its events, then its state) and its gid
        self.game = app.game
        self.gid = app.gid
        self.acked = UNKNOWN  # newest seq the broker acknowledged, all before it too
        self.sent = 0  # newest seq sent
        self.state_seq = -1  # seq of the newest retained state sent
        self.state_at = ticks_add(ticks_ms(), -STATE_MS)  # (ticks wrap: never 0)
        self.sessions = 0  # links made so far
        self.writer = None
        self.broken = False
        self.owed_since = None  # ticks_ms of the oldest answer owed, or None
        self.sent_at = 0  # ticks_ms of the last packet sent
        self.said = None  # the last problem said over serial (said once)
        # each event's words, taken when it happened (since boot: ready)
        self.words = words if words is not None and words.app is app else mqtt_words.Words(app)

    def say(self, msg):
        if msg != self.said:
            self.said = msg
            self.app._out({"t": "err", "src": "mqtt", "msg": msg})

    # ---- sending -------------------------------------------------------------------------
    async def send(self, *parts):
        writer = self.writer
        if writer is None:
            raise OSError("no link")
        for part in parts:
            writer.write(part)
        await asyncio.wait_for_ms(writer.drain(), ANSWER_MS)
        self.sent_at = ticks_ms()

    async def publish(self, kind, payload, packet_id, retain=False):
        data = payload.encode()
        head = wire.publish_head(self.topics[kind], len(data), packet_id, retain)
        if self.owed_since is None:
            self.owed_since = ticks_ms()
        await self.send(head, data)

    async def send_event(self, seq):
        game = self.game
        if seq > game.base_seq:
            ev, h = game.event(seq), game.event_hash(seq)
        elif game is self.app.game:
            ev, h = self.from_journal(seq), ""
        else:  # the replaced game's journal is gone with it
            ev, h = None, ""
        if ev is None:  # lost from the journal (a damaged one, repaired): skipped
            self.say(
                "event %d of game %s is no longer on the board: not published" % (seq, self.gid)
            )
            self.sent = seq
            if self.acked == seq - 1:
                self.acked = seq
            return
        words = self.words.of(game, self.gid, seq, ev)
        msg = messages.event_message(self.gid, self.cfg["table"], seq, ev, h, words)
        self.sent = seq  # before the send: its PUBACK may be read while it is awaited
        await self.publish(0, msg, 1 + seq % IDS)

    def from_journal(self, seq):
        """Event ``seq``, older than the game's window, read from the journal as the serial
        ``events`` command reads it; None when the journal no longer holds it."""
        journal = self.app.journal
        if journal is not None:
            for got, ev in journal.events(seq - 1):
                return ev if got == seq else None
        return None

    # ---- reading -------------------------------------------------------------------------
    def took(self, head, body):
        """A packet of the broker's (after the CONNACK)."""
        kind = head & 0xF0
        if kind == wire.PUBACK:
            pid = wire.packet_id(body)
            if 0 < pid <= IDS and self.sent > self.acked:
                seq = self.acked + 1 + (pid - 1 - (self.acked + 1) % IDS) % IDS
                if seq <= self.sent:
                    self.acked = seq
            self.owed_since = ticks_ms() if self.sent > self.acked else None
        elif kind == wire.PINGRESP:
            self.owed_since = None

    async def read_acks(self, reader):
        try:
            while True:
                head, body = await wire.read_packet(reader)
                self.took(head, body)
        except (OSError, EOFError):
            self.broken = True

    async def announce(self, reader):
        """Subscribe to the table's own state and status, publish the retained ``online``
        status and read it back: ``(gid, acked_seq)`` of the retained state the broker holds,
        or ``(None, 0)``. A broker acknowledges and drops a publish its access list denies
        (MQTT 3.1.1), so without the echo within ANSWER_MS the table or the user does not
        match its access list: Refused."""
        own = self.topics[1:]
        await self.send(wire.subscribe(ID_SUB, own))
        mine = messages.status_message(True)
        got = (None, 0)
        end = ticks_add(ticks_ms(), ANSWER_MS)
        while True:
            left = ticks_diff(end, ticks_ms())
            if left <= 0:
                raise Refused(
                    "the broker drops what table %s publishes as user %s: the table or the "
                    "user in mqtt.json does not match its access list"
                    % (self.cfg["table"], self.cfg.get("user") or "none")
                )
            try:
                head, body = await asyncio.wait_for_ms(wire.read_packet(reader), left)
            except asyncio.TimeoutError:
                continue
            kind = head & 0xF0
            if kind == wire.SUBACK and wire.packet_id(body) == ID_SUB:
                await self.publish(2, mine, ID_STATUS, True)  # after the retained ones
            elif kind == wire.PUBLISH:
                topic, payload = wire.published(body, head)
                if topic == own[0]:
                    got = resume_point(payload)
                elif topic == own[1] and not head & 1 and payload == mine.encode():
                    break  # its own status, live (not the retained copy): it may write
            else:
                self.took(head, body)
        await self.send(wire.unsubscribe(ID_UNSUB, own))
        return got

    # ---- one link ------------------------------------------------------------------------
    async def session(self, network):
        """Connect, announce, resume and follow the game until the link or the network goes."""
        cfg = self.cfg
        reader, self.writer = await asyncio.wait_for_ms(
            asyncio.open_connection(cfg["host"], cfg["port"]), CONNECT_MS
        )
        task = None
        try:
            await self.hello(reader)
            self.broken = False
            self.owed_since = None
            task = asyncio.create_task(self.read_acks(reader))
            await self.follow(network)
        finally:
            if task is not None:
                task.cancel()
            self.writer.close()
            try:
                await self.writer.wait_closed()
            except OSError:
                pass
            self.writer = None

    async def hello(self, reader):
        cfg = self.cfg
        user = cfg.get("user")
        password = cfg.get("password")
        await self.send(
            wire.connect(
                ("fleetref-pub-%s-%s" % (cfg["event"], cfg["table"])).encode(),
                user.encode() if user else None,
                password.encode() if user and password else None,
                self.topics[2],
                messages.status_message(False).encode(),
                KEEPALIVE_S,
            )
        )
        head, body = await asyncio.wait_for_ms(wire.read_packet(reader), CONNECT_MS)
        if head & 0xF0 != wire.CONNACK or len(body) < 2:
            raise OSError("no CONNACK")
        code = body[1]
        if code:
            raise Refused(wire.REFUSALS[code - 1] if code <= 5 else "CONNACK %d" % code)
        gid, acked = await self.announce(reader)
        if self.replaced():
            self.adopt(UNKNOWN)
        game = self.game
        top = game.seq if game is not None else 0
        self.acked = min(self.acked, acked if gid == self.gid else 0, top)
        self.sent = self.acked
        self.state_seq = -1
        self.sessions += 1
        self.said = None

    async def follow(self, network):
        """Send what the broker lacks, every POLL_MS, until the link breaks."""
        hold = ticks_ms() if self.sessions > 1 else None
        while network.state == "up" and not self.broken:
            now = ticks_ms()
            if self.owed_since is not None and ticks_diff(now, self.owed_since) > DEAD_MS:
                return
            if hold is not None and ticks_diff(now, hold) < RESYNC_MS:
                await asyncio.sleep_ms(POLL_MS)
                continue
            hold = None
            if self.news(now):  # (a coroutine only then: nothing allocated while idle)
                await self.catch_up(now)
            if ticks_diff(now, self.sent_at) > KEEPALIVE_S * 500:
                if self.owed_since is None:
                    self.owed_since = now
                await self.send(wire.PINGREQ)
            game = self.game
            behind = game is not None and self.sent < game.seq
            await asyncio.sleep_ms(POLL_MS if not behind else 10)

    def replaced(self):
        """True when the referee's game in play is not the one published and that one is all
        out (its events and its state acknowledged, nothing owed): the game in play is
        published from then on (:meth:`adopt`). So a game played on during an outage and
        then replaced (the next round's, loaded over serial or from the pad's menu) still
        reaches the broker whole once the link is back, its result included."""
        app = self.app
        game = self.game
        if game is app.game and self.gid == app.gid:
            return False
        if game is None:
            return True
        top = game.seq
        return self.acked >= top and self.state_seq == top and self.owed_since is None

    def adopt(self, acked):
        """Publish the referee's game in play from now on; ``acked``: the newest of its
        seqs the broker is known to hold (UNKNOWN before the broker's retained state is
        read)."""
        app = self.app
        self.game, self.gid = app.game, app.gid
        self.acked, self.sent, self.state_seq = acked, 0, -1

    def news(self, now):
        """True when the broker lacks an event or the state that can go now, or the game
        published is replaced and all out."""
        if self.replaced():
            return True
        game = self.game
        if game is None:
            return False
        top = game.seq
        return (self.sent < top and self.sent - self.acked < WINDOW) or (
            self.acked >= top
            and self.state_seq != top
            and ticks_diff(now, self.state_at) >= STATE_MS
        )

    async def catch_up(self, now):
        """The events of the game published the broker lacks, WINDOW unacknowledged at most,
        then its state once they are all acknowledged (STATE_MS apart at most). A game
        replaced meanwhile is published to its end first (:meth:`replaced`)."""
        if self.replaced():  # a new game: everything of it is news
            self.adopt(0)
        game = self.game
        if game is None:
            return
        while self.game is game and self.sent < game.seq and self.sent - self.acked < WINDOW:
            await self.send_event(self.sent + 1)
        top = game.seq
        if (
            self.game is game
            and self.acked >= top
            and self.state_seq != top
            and ticks_diff(now, self.state_at) >= STATE_MS
        ):
            await self.send_state(top, now)

    async def send_state(self, seq, now):
        cfg = self.cfg
        names = (cfg["event"], cfg["table"])
        msg = messages.state_message(self.app, self.game, self.gid, names, self.acked, self.words)
        await self.publish(1, msg, ID_STATE, True)
        self.state_seq, self.state_at = seq, now


def resume_point(payload):
    """``(gid, acked_seq)`` of a retained state message (bytes), ``(None, 0)`` when torn."""
    import json

    try:
        d = json.loads(payload)
        return d["gid"], int(d.get("acked_seq", d["seq"]))
    except (ValueError, KeyError, TypeError, MemoryError):
        return None, 0


async def run(app, network):
    """The service: reads its settings, then keeps a link to the broker while the network is
    up, trying again after PAUSES_MS (REFUSED_MS after a refusal). Says a problem once as an
    ``err`` line (src ``mqtt``)."""
    try:
        cfg = messages.read_settings(network.root + "/mqtt.json")
    except (OSError, ValueError) as e:
        app._out({"t": "err", "src": "mqtt", "msg": "not publishing: %s" % e})
        return
    pub = Publisher(app, cfg)
    tries = 0
    while True:
        while network.state != "up":
            await asyncio.sleep_ms(POLL_MS * 4)
        pause = PAUSES_MS[min(tries, len(PAUSES_MS) - 1)]
        try:
            await pub.session(network)
            tries = 0
        except Refused as e:
            pub.say(str(e))
            pause = REFUSED_MS
        except (OSError, EOFError, asyncio.TimeoutError):
            tries += 1
        except Exception as e:  # (MemoryError, a fault of this module): said, tried again
            pub.say("publishing stopped: %s: %s" % (type(e).__name__, e))
            tries += 1
        await asyncio.sleep_ms(pause)
