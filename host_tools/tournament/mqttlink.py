"""The MQTT side shared by ``fleetref publish`` and ``fleetref dashboard`` (docs/mqtt.md):
broker addresses, event and table names, the topics, and a paho-mqtt client with a persistent
session whose connection problems read as one sentence.

Topics (``E`` the event, ``T`` the table; names are 1-32 of letters, digits, ``-``, ``_``):

- ``fleetref/E/T/events``: one message per event, QoS 1, not retained (JSON, see
  host_tools.tournament.publish);
- ``fleetref/E/T/state``: the table's snapshot after its newest event, QoS 1, retained;
- ``fleetref/E/T/status``: ``{"online": bool, "t": unix seconds}``, QoS 1, retained (the
  broker publishes ``{"online": false}``, with no time, as the publisher's will when its link
  dies: a will is fixed at connect time).
"""

import re
import threading
import urllib.parse

PREFIX = "fleetref"
DEFAULT_PORT = 1883
DEFAULT_EVENT = "club"
NAME = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
KINDS = ("events", "state", "status")
CONNECT_TIMEOUT = 10.0  # seconds to wait for the broker's CONNACK


class MqttError(Exception):
    """A broker, name or credential problem; ``str(e)`` is one sentence for the user."""


def parse_broker(url):
    """``mqtt://HOST[:PORT]`` (or ``mqtts://``, TLS, default port 8883) ->
    ``(host, port, tls)``. Raises MqttError."""
    u = urllib.parse.urlsplit(url or "")
    if (
        u.scheme not in ("mqtt", "mqtts")
        or not u.hostname
        or u.path not in ("", "/")
        or u.query
        or u.username
    ):
        raise MqttError("--broker wants mqtt://HOST[:PORT] or mqtts://HOST[:PORT] (got %r)" % url)
    try:
        port = u.port
    except ValueError:
        port = -1
    if port is not None and not 0 < port < 65536:
        raise MqttError("bad port in --broker %r" % url)
    tls = u.scheme == "mqtts"
    return u.hostname, port or (8883 if tls else DEFAULT_PORT), tls


def check_name(what, name):
    """``name`` when it is a valid event or table name, else MqttError (no ``/``, ``+``,
    ``#``: a name is one topic level)."""
    if not isinstance(name, str) or not NAME.match(name):
        raise MqttError("%s name %r: use 1-32 letters, digits, - or _" % (what, name))
    return name


def topic(event, table, kind):
    """The topic of ``kind`` (events, state, status) for ``table`` of ``event``."""
    assert kind in KINDS
    return "%s/%s/%s/%s" % (PREFIX, event, table, kind)


def split_topic(t):
    """``(event, table, kind)`` of a fleetref topic, or None for any other topic."""
    parts = t.split("/")
    if len(parts) != 4 or parts[0] != PREFIX or parts[3] not in KINDS:
        return None
    return parts[1], parts[2], parts[3]


def read_password(path):
    """The first line of a password file (as `fleetref tournament init` writes them)."""
    try:
        with open(path, encoding="utf-8") as f:
            pw = f.readline().strip()
    except OSError as e:
        raise MqttError("cannot read the password file %s: %s" % (path, e.strerror or e))
    if not pw:
        raise MqttError("the password file %s is empty" % path)
    return pw


# CONNACK refusals (3.1.1 return codes; paho reports some as MQTT 5 reason codes)
CONNACK_TEXT = {
    1: "the broker refused the protocol version",
    2: "the broker refused the client id",
    3: "the broker is unavailable",
    4: "not authorised (wrong user name or password)",
    5: "not authorised (wrong user name or password, or no user given)",
    134: "not authorised (wrong user name or password)",
    135: "not authorised (wrong user name or password, or no user given)",
}


class Client:
    """A paho-mqtt client with a persistent session (MQTT 3.1.1, clean_session False, fixed
    ``client_id``) that reconnects by itself (1-4 s apart) after a dropped link or a broker
    restart; paho keeps QoS 1 messages queued meanwhile and sends them again on reconnect.

    ``ca_file``: the certificate authority (PEM) of an ``mqtts://`` broker's certificate.
    ``on_message(topic, payload bytes, retained)`` (``retained``: a message the broker had
    stored, sent because of a new subscription) and ``on_acked(mid)`` run in paho's network
    thread; ``on_connect(session_present)`` after every (re)connection."""

    def __init__(
        self,
        broker,
        client_id,
        user=None,
        password=None,
        will=None,
        on_message=None,
        on_acked=None,
        on_connect=None,
        warn=None,
        ca_file=None,
    ):
        import paho.mqtt.client as mqtt

        self.host, self.port, tls = parse_broker(broker)
        self.connected = threading.Event()
        self.answered = threading.Event()  # the first CONNACK came (accepted or not)
        self.refused = None  # CONNACK text when the broker refused us
        self.warn = warn or (lambda m: None)
        self.on_message_cb, self.on_acked_cb, self.on_connect_cb = on_message, on_acked, on_connect
        from paho.mqtt.enums import CallbackAPIVersion

        c = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id=client_id,
            clean_session=False,
            protocol=mqtt.MQTTv311,
        )
        if user:
            c.username_pw_set(user, password)
        if tls:
            try:  # None: the system's certificate authorities
                c.tls_set(ca_certs=ca_file)
            except (OSError, ValueError) as e:
                raise MqttError("cannot use the certificate authority %s: %s" % (ca_file, e))
        elif ca_file:
            raise MqttError("--ca-file needs an mqtts:// broker")
        if will:
            c.will_set(*will)
        c.reconnect_delay_set(1, 4)
        c.on_connect = self._connected
        c.on_disconnect = self._disconnected
        c.on_message = self._message
        c.on_publish = self._published
        c.on_subscribe = self._subscribed
        self.subacks = {}  # message id -> threading.Event of a SUBSCRIBE
        self.sub_lock = threading.Lock()  # a SUBACK waits until its SUBSCRIBE is booked
        self.c = c
        self.was_connected = False

    # ---- paho callbacks (network thread) -----------------------------------------------------
    def _connected(self, c, userdata, flags, reason, props):
        if reason.is_failure:
            code = getattr(reason, "value", 0)
            self.refused = CONNACK_TEXT.get(code, str(reason))
            self.connected.clear()
            self.answered.set()
            return
        if self.was_connected:
            self.warn("link to the broker %s:%d is back" % (self.host, self.port))
        self.was_connected = True
        self.refused = None
        self.connected.set()
        self.answered.set()
        if self.on_connect_cb:
            self.on_connect_cb(bool(flags.session_present))

    def _disconnected(self, c, userdata, flags, reason, props):
        if self.connected.is_set():
            self.warn(
                "link to the broker %s:%d lost (%s); reconnecting" % (self.host, self.port, reason)
            )
        self.connected.clear()

    def _message(self, c, userdata, msg):
        if self.on_message_cb:
            self.on_message_cb(msg.topic, msg.payload, bool(msg.retain))

    def _subscribed(self, c, userdata, mid, reasons, props):
        with self.sub_lock:
            done = self.subacks.pop(mid, None)
        if done is not None:
            done.set()

    def _published(self, c, userdata, mid, reason, props):
        if self.on_acked_cb:
            self.on_acked_cb(mid)

    # ---- use ----------------------------------------------------------------------------------
    def start(self, timeout=CONNECT_TIMEOUT):
        """Connect and start paho's network thread; returns once the broker accepted us.
        Raises MqttError: unreachable broker, refused credentials, no answer in ``timeout``."""
        try:
            self.c.connect(self.host, self.port, keepalive=15)
        except OSError as e:
            raise MqttError(
                "cannot reach the broker at %s:%d: %s" % (self.host, self.port, e.strerror or e)
            )
        self.c.loop_start()
        self.answered.wait(timeout)
        if self.refused or not self.connected.is_set():
            why = self.refused or "no answer within %.0f s" % timeout
            self.stop()
            raise MqttError(
                "the broker at %s:%d refused the connection: %s" % (self.host, self.port, why)
            )

    def subscribe(self, pattern, wait=0.0):
        """Subscribe to ``pattern`` at QoS 1. ``wait`` (seconds): return only once the broker
        acknowledged it (or that time passed; returns False then), so that a message published
        after this call reaches us."""
        done = threading.Event()
        with self.sub_lock:
            _rc, mid = self.c.subscribe(pattern, qos=1)
            if not wait or mid is None:
                return True
            self.subacks[mid] = done
        if done.wait(wait):
            return True
        with self.sub_lock:  # never acknowledged: forget it
            self.subacks.pop(mid, None)
        return False

    def unsubscribe(self, pattern):
        self.c.unsubscribe(pattern)

    def publish(self, t, payload, retain=False):
        """Queue ``payload`` (str) for ``t`` at QoS 1; returns the message id (its PUBACK
        calls ``on_acked(mid)``). Messages queued while the link is down go out on reconnect."""
        return self.c.publish(t, payload, qos=1, retain=retain).mid

    def stop(self):
        self.connected.clear()  # (a disconnection asked for: no "lost" warning)
        try:
            self.c.disconnect()
        except Exception:
            pass
        self.c.loop_stop()


def add_event_argument(p):
    """``--event NAME`` on argparse parser ``p`` (the event's name, default DEFAULT_EVENT)."""
    p.add_argument(
        "--event", default=DEFAULT_EVENT, help="the event's name (default %s)" % DEFAULT_EVENT
    )


def add_tls_argument(p):
    p.add_argument(
        "--ca-file",
        help="with an mqtts:// broker: its certificate authority (PEM; "
        "default: the system's), docs/mqtt.md section 4",
    )
