"""The MQTT 3.1.1 packets a publisher needs (OASIS MQTT 3.1.1, chapters 2-3), as bytes: CONNECT
with a will and credentials, PUBLISH at QoS 0 or 1 with retain, SUBSCRIBE, UNSUBSCRIBE,
PINGREQ; and :func:`read_packet`, which reads one packet of the broker's from an asyncio
stream. No socket here: referee.net.mqtt owns the link. Strings (topics, client id, user,
password) are bytes, UTF-8.
"""

CONNECT = 0x10
CONNACK = 0x20
PUBLISH = 0x30
PUBACK = 0x40
SUBACK = 0x90
UNSUBACK = 0xB0
PINGRESP = 0xD0
PINGREQ = b"\xc0\x00"
DISCONNECT = b"\xe0\x00"

# CONNECT flags (3.1.2.3): clean session, will, will QoS 1, will retain, password, user name
CLEAN = 0x02
WILL = 0x04
WILL_QOS1 = 0x08
WILL_RETAIN = 0x20
PASSWORD = 0x40
USER = 0x80

# CONNACK return codes (3.2.2.3): what the broker said, by code 1..5
REFUSALS = (
    "the broker does not speak MQTT 3.1.1",
    "the broker refused the client id",
    "the broker is unavailable",
    "the broker refused the user name or password",
    "the broker says this user is not authorised",
)
BODY_MAX = 16384  # bytes of a broker packet's body kept at most; a longer one is skipped


def length_bytes(n):
    """The Remaining Length field (2.2.3) for ``n`` bytes: 1-4 bytes."""
    out = bytearray()
    while True:
        digit = n & 0x7F
        n >>= 7
        out.append(digit | 0x80 if n else digit)
        if not n:
            return bytes(out)


def text(data):
    """A UTF-8 string field (1.5.3): two length bytes, then ``data`` (bytes)."""
    return bytes((len(data) >> 8, len(data) & 0xFF)) + data


def connect(client_id, user, password, will_topic, will_payload, keepalive_s, clean=True):
    """The CONNECT packet: protocol level 4, a will at QoS 1, retained; ``user`` and
    ``password`` (bytes, or None for none); ``keepalive_s`` seconds."""
    flags = WILL | WILL_QOS1 | WILL_RETAIN | (CLEAN if clean else 0)
    if user is not None:
        flags |= USER | (PASSWORD if password is not None else 0)
    body = text(b"MQTT") + bytes((4, flags, keepalive_s >> 8, keepalive_s & 0xFF))
    body += text(client_id) + text(will_topic) + text(will_payload)
    if user is not None:
        body += text(user)
        if password is not None:
            body += text(password)
    return bytes((CONNECT,)) + length_bytes(len(body)) + body


def publish_head(topic, payload_len, packet_id, retain=False):
    """The PUBLISH packet up to its payload (``payload_len`` bytes follow it): QoS 1 with
    ``packet_id`` (1..65535), QoS 0 when ``packet_id`` is 0."""
    head = PUBLISH | (2 if packet_id else 0) | (1 if retain else 0)
    var = text(topic)
    if packet_id:
        var += bytes((packet_id >> 8, packet_id & 0xFF))
    return bytes((head,)) + length_bytes(len(var) + payload_len) + var


def subscribe(packet_id, topics):
    """SUBSCRIBE to ``topics`` (a tuple of bytes) at QoS 0 (the broker sends the retained
    messages on them at once, after its SUBACK)."""
    body = bytes((packet_id >> 8, packet_id & 0xFF))
    for topic in topics:
        body += text(topic) + b"\x00"
    return b"\x82" + length_bytes(len(body)) + body


def unsubscribe(packet_id, topics):
    body = bytes((packet_id >> 8, packet_id & 0xFF))
    for topic in topics:
        body += text(topic)
    return b"\xa2" + length_bytes(len(body)) + body


def packet_id(body):
    """The packet id at the start of a PUBACK, SUBACK or UNSUBACK body."""
    return body[0] << 8 | body[1] if len(body) > 1 else 0


def published(body, head):
    """``(topic, payload)`` (bytes) of a PUBLISH body with fixed-header byte ``head``."""
    n = body[0] << 8 | body[1]
    start = 2 + n + (2 if head & 0x06 else 0)
    return bytes(body[2 : 2 + n]), body[start:]


async def read_packet(reader):
    """One packet from ``reader`` (an asyncio stream): ``(fixed-header byte, body bytes)``. A
    body longer than BODY_MAX is read and dropped (b"" returned). EOFError or OSError when
    the link closes."""
    head = (await reader.readexactly(1))[0]
    n = shift = 0
    while True:
        digit = (await reader.readexactly(1))[0]
        n |= (digit & 0x7F) << shift
        shift += 7
        if not digit & 0x80 or shift > 21:
            break
    if n > BODY_MAX:
        while n:
            n -= len(await reader.readexactly(min(n, 512)))
        return head, b""
    return head, (await reader.readexactly(n) if n else b"")
