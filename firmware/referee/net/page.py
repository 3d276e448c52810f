"""The spectator page: a small read-only web page a phone at the table opens on the board's
address, with the game as the board has it now.

Routes (a fixed table, no file paths; the query string is ignored):

- ``/``: the page (referee/net/page_files.py: HTML with its CSS and script inline, constant
  bytes kept in flash on the Pico W's image);
- ``/api/state``: the board's snapshot as JSON, the host's ``/api/state`` shape
  (``referee.views.snapshot`` plus ``gid``: ``seq``, ``state_hash``, ``round``, ``phase``,
  ``initiative``, ``rolls``, ``ships`` with ``hp``/``damage``/``status``, ``winner``...),
  without the fields only the host adds (``link``, ``first_seq``, ``board_hash``,
  ``hash_match``); ``{"seq": null, "state_hash": null, "gid": ""}`` while no game is loaded.

Any other path answers 404; any method but GET and HEAD 405: nothing here changes the game.

Live updates by polling (the page asks for ``/api/state`` every 2 s), not Server-Sent
Events: a stream holds a client slot, a socket and a task per phone for as long as the page
is open, and needs a watcher that wakes every tick to notice a change. A poll is a short
request that frees everything it allocated once answered, and between polls the board does
nothing at all for the page (no task wakes, nothing is allocated).

Limits (module constants): at most ``MAX_CLIENTS`` (4) connections are served at once, any
more get 503 with ``Retry-After``; the request line may be ``LINE_LIMIT`` (256) bytes and
the whole head ``HEAD_LIMIT`` (1 KB), else 414 / 431; the head must arrive within
``HEAD_TIMEOUT_S`` (2 s) of the connection, else 408 and the slot is freed (a slowloris holds
a slot 2 s at most); an answer must drain within ``WRITE_TIMEOUT_S`` (5 s). Bytes are read
in ``CHUNK``-byte reads into a buffer the head's size, never by ``readline`` (which would
take a line of any length into the heap). Requests are bytes compared with the route table:
no path is decoded, so ``/../`` or ``/%2e%2e/`` are only unknown paths.

The referee is never blocked: every socket call is an awaited asyncio stream call, and a
client's error ends that client only. The port: the profile's ``network.page.port``, or
``{"port": N}`` in the settings file ``<network.root>/page.json`` (which wins), else 80.
"""

import asyncio
import json

from referee.loop import sleep_ms

PORT = 80
MAX_CLIENTS = 4
LINE_LIMIT = 256
HEAD_LIMIT = 1024
CHUNK = 128
HEAD_TIMEOUT_S = 2
WRITE_TIMEOUT_S = 5
BACKLOG = 4
UP_POLL_MS = 1000
LINGER_S = 0.3

# (status, reason, body): the answers that carry no page
ANSWERS = (
    (400, "Bad Request", b"bad request\n"),
    (404, "Not Found", b"no such page: try /\n"),
    (405, "Method Not Allowed", b"read-only: GET or HEAD only\n"),
    (408, "Request Timeout", b"request too slow\n"),
    (414, "URI Too Long", b"request line too long\n"),
    (431, "Request Header Fields Too Large", b"request head too large\n"),
    (503, "Service Unavailable", b"busy: try again\n"),
)
HTML = "text/html; charset=utf-8"
JSON = "application/json"


def settings(app, network):
    """The page's port (int): ``<network.root>/page.json``'s ``port``, else the profile's
    ``network.page.port``, else :data:`PORT`. A file that is absent or unreadable is left
    out; a port that is not an int in 1..65535 is too."""
    port = PORT
    board = getattr(app, "board", None)
    section = board.get("network", {}).get("page", {}) if isinstance(board, dict) else {}
    port = _port(section.get("port"), port) if isinstance(section, dict) else port
    try:
        with open(network.root + "/page.json") as f:
            data = json.load(f)
        if isinstance(data, dict):
            port = _port(data.get("port"), port)
    except (OSError, ValueError):
        pass
    return port


def _port(value, default):
    ok = isinstance(value, int) and not isinstance(value, bool) and 0 < value < 65536
    return value if ok else default


def head_text(status, reason, kind, length, extra=""):
    """The response head (bytes): HTTP/1.0, ``Connection: close``, never cached."""
    return (
        "HTTP/1.0 %d %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n"
        "Cache-Control: no-store\r\nConnection: close\r\n%s\r\n"
        % (status, reason, kind, length, extra)
    ).encode()


def answer(status):
    """(head, body) of the answer ``status`` from :data:`ANSWERS`."""
    for code, reason, body in ANSWERS:
        if code == status:
            extra = ""
            if status == 405:
                extra = "Allow: GET, HEAD\r\n"
            elif status == 503:
                extra = "Retry-After: 2\r\n"
            return head_text(code, reason, "text/plain", len(body), extra), body
    raise ValueError("no answer %d" % status)


def head_end(head):
    """The index just past the blank line ending the head in ``head`` (bytearray), or -1."""
    end = head.find(b"\r\n\r\n")
    if end >= 0:
        return end + 4
    end = head.find(b"\n\n")
    return end + 2 if end >= 0 else -1


async def read_head(reader):
    """The request line (bytes, without its line end) once the whole head is in; an int
    status when it breaks a limit: 414 for a request line over LINE_LIMIT bytes (its line
    end not counted), 431 for a head over HEAD_LIMIT, 400 for a NUL byte anywhere in the
    head (no request holds one); None when the client left first."""
    head = bytearray()
    while True:
        chunk = await reader.read(CHUNK)
        if not chunk:
            return None
        head.extend(chunk)
        line_end = head.find(b"\n")
        length = len(head) if line_end < 0 else line_end
        if length and head[length - 1] == 13:  # (CR of a CRLF: not the line's)
            length -= 1
        if length > LINE_LIMIT:
            return 414
        end = head_end(head) if line_end >= 0 else -1
        if end >= 0:
            if head.find(b"\0", 0, end) >= 0:
                return 400
            return bytes(head[:length])
        if len(head) > HEAD_LIMIT:
            return 431


def route(line):
    """The status and route for request line ``line`` (bytes): ``(200, "/")``,
    ``(200, "/api/state")`` (with ``head_only`` True for HEAD), or ``(status, None)``. The
    target may be a path or the absolute form (``http://HOST/PATH``, RFC 7230 5.3.2)."""
    parts = line.split()
    if len(parts) != 3 or not parts[2].startswith(b"HTTP/"):
        return 400, None, False
    method, target = parts[0], parts[1]
    if method not in (b"GET", b"HEAD"):
        return 405, None, False
    if target[:7].lower() == b"http://":  # the absolute form (RFC 7230 5.3.2): its path
        slash = target.find(b"/", 7)
        target = target[slash:] if slash >= 0 else b"/"
    path = target.split(b"?", 1)[0]
    if path == b"/":
        return 200, "/", method == b"HEAD"
    if path == b"/api/state":
        return 200, "/api/state", method == b"HEAD"
    return 404, None, False


def state_json(app):
    """The board's state as JSON bytes (the module docstring's ``/api/state``)."""
    game = app.game
    if game is None:
        return b'{"seq": null, "state_hash": null, "gid": ""}'
    snap = game.snapshot(app)
    snap["gid"] = app.gid
    return json.dumps(snap).encode()


async def send(writer, head, body=b""):
    """Write ``head`` and ``body`` and wait (at most WRITE_TIMEOUT_S) for them to drain."""
    writer.write(head)
    if body:
        writer.write(body)
    await asyncio.wait_for(writer.drain(), WRITE_TIMEOUT_S)


async def linger(reader):
    """Read (and drop) what a refused client still sends, for LINGER_S at most: closing
    with unread bytes makes a reset that can cost the client the answer."""
    try:
        await asyncio.wait_for(reader.read(HEAD_LIMIT), LINGER_S)
    except Exception:
        pass


async def close(writer):
    try:
        writer.close()
        await asyncio.wait_for(writer.wait_closed(), WRITE_TIMEOUT_S)
    except Exception:  # the client is gone already: nothing to do
        pass


class PageServer:
    """The page for referee ``app``: :meth:`client` serves one connection; ``busy`` counts
    the connections being served (at most ``limit``)."""

    def __init__(self, app, limit=MAX_CLIENTS):
        self.app = app
        self.limit = limit
        self.busy = 0

    async def client(self, reader, writer):
        """One connection: a slot, the head within HEAD_TIMEOUT_S, one answer, closed. No
        error of a client reaches the referee."""
        if self.busy >= self.limit:
            try:
                await send(writer, *answer(503))
                await linger(reader)
            except Exception:
                pass
            await close(writer)
            return
        self.busy += 1
        try:
            await self.serve(reader, writer)
        except Exception:  # a reset, a timeout while writing: that client only
            pass
        finally:
            self.busy -= 1
            await close(writer)

    async def serve(self, reader, writer):
        try:
            line = await asyncio.wait_for(read_head(reader), HEAD_TIMEOUT_S)
        except asyncio.TimeoutError:
            await send(writer, *answer(408))
            return
        if line is None:
            return
        if isinstance(line, int):
            await send(writer, *answer(line))
            await linger(reader)
            return
        status, path, head_only = route(line)
        if path is None:
            await send(writer, *answer(status))
            await linger(reader)
            return
        if path == "/":
            from referee.net.page_files import INDEX

            body, kind = INDEX, HTML
        else:
            body, kind = state_json(self.app), JSON
        await send(writer, head_text(200, "OK", kind, len(body)), b"" if head_only else body)


async def run(app, network):
    """Serve the page once the network is up (a look every UP_POLL_MS until then). A port
    that cannot be opened is said once, as an ``err`` line from ``page``, and the page
    stays off."""
    while network.state != "up":
        await sleep_ms(UP_POLL_MS)
    port = settings(app, network)
    page = PageServer(app)
    try:
        server = await asyncio.start_server(page.client, "0.0.0.0", port, backlog=BACKLOG)
    except OSError as e:
        app._out(
            {"t": "err", "src": "page", "msg": "page: cannot serve on port %d (%s)" % (port, e)}
        )
        return
    await server.wait_closed()
