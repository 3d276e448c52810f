"""``fleetref web``: a spectator page and a stream overlay that follow a board (or simulator)
live, with the mirror's replica and catch-up (host_tools.link.mirror), served by Starlette.

Routes (nothing else is served, no file system path):

- ``/``: the spectator page; ``/overlay``: a compact strip with a transparent background,
  sized by query parameters ``w`` and ``h`` (pixels) and ``scale``;
- ``/api/state``: the snapshot (JSON, with ``state_hash``, ``seq``, ``gid``, ``link``);
- ``/api/events?since=N``: ``{"gid", "seq", "events": [event records after N]}`` (records:
  host_tools.views.webfeed); ``since`` must be an integer >= 0 (else 400);
- ``/api/stream?since=N``: Server-Sent Events, one ``update`` message
  ``{"gid", "state", "events"}`` at once and after every change (event id: the newest seq);
  a browser that reconnects sends ``Last-Event-ID`` and gets what it missed;
- ``/static/NAME``: the page's own CSS and JS, shipped in host_tools/views/static/ (no CDN).
"""

import asyncio
import ipaddress
import json
import os
import sys
import threading

from host_tools.argtypes import MAX_BAUD, add_port_argument, whole_number
from host_tools.views import webfeed

COMMAND = "web"  # fleetref web; SUMMARY: its line in fleetref --help (cli.py)
SUMMARY = "a live spectator page and stream overlay of a board's game (HTTP)"

STATIC_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
STATIC = {
    "web.css": "text/css",
    "web.js": "text/javascript",
    "overlay.css": "text/css",
    "overlay.js": "text/javascript",
    "common.js": "text/javascript",
    "dashboard.css": "text/css",
    "dashboard.js": "text/javascript",
}
PAGES = {"/": "index.html", "/overlay": "overlay.html"}
DEFAULT_HTTP = "127.0.0.1:8765"


def _read(name):
    with open(os.path.join(STATIC_DIR, name), encoding="utf-8") as f:
        return f.read()


def page_routes(pages, title="fleetref"):
    """Starlette routes for ``pages`` ({URL path: file in static/}, ``{{title}}`` replaced)
    and ``/static/NAME`` (the page's CSS and JS, nothing else). Shared with the dashboard."""
    from starlette.responses import HTMLResponse, Response
    from starlette.routing import Route

    files = {n: _read(n) for n in list(STATIC) + list(pages.values())}

    async def page(request):
        return HTMLResponse(
            files[pages[request.url.path]].replace("{{title}}", title),
            headers={"Cache-Control": "no-store"},
        )

    async def static(request):
        name = request.path_params["name"]
        if name not in STATIC:
            return Response("not found", status_code=404, media_type="text/plain")
        return Response(
            files[name], media_type=STATIC[name], headers={"Cache-Control": "no-store"}
        )

    return [Route(path, page) for path in pages] + [Route("/static/{name}", static)]


def _since(value):
    """A ``since`` parameter as an event number >= 0, or None when it is not one."""
    try:
        n = int(value)
    except (TypeError, ValueError):
        return None
    return n if n >= 0 else None


async def _updates(feed, since, loop, changed):
    """The stream's updates of ``feed`` (webfeed.Feed) after event ``since``: the state and
    the events since the last update (all of a new game's), one each time ``changed`` (an
    asyncio.Event that ``feed`` sets on ``loop``) is set; unsubscribes when the stream ends."""
    cursor, gid = since, None
    try:
        while True:
            changed.clear()
            st = feed.state()
            fgid, _seq, recs = feed.events_since(cursor if gid in (None, st["gid"]) else 0)
            gid = fgid
            if recs:
                cursor = recs[-1]["seq"]
            yield {
                "event": "update",
                "id": str(cursor),
                "data": json.dumps({"gid": fgid, "state": st, "events": recs}),
                "retry": 500,
            }
            await changed.wait()
    finally:
        feed.unsubscribe(loop, changed)


def make_app(feed, title="fleetref"):
    """The Starlette application serving ``feed`` (webfeed.Feed)."""
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse
    from starlette.routing import Route
    from sse_starlette.sse import EventSourceResponse

    async def api_state(request):
        return JSONResponse(feed.state())

    async def api_events(request):
        since = _since(request.query_params.get("since", "0"))
        if since is None:
            return JSONResponse({"error": "since must be an integer >= 0"}, status_code=400)
        gid, seq, recs = feed.events_since(since)
        return JSONResponse({"gid": gid, "seq": seq, "events": recs})

    async def stream(request):
        since = _since(
            request.headers.get("last-event-id") or request.query_params.get("since", "0")
        )
        if since is None:
            since = 0
        loop = asyncio.get_running_loop()
        changed = asyncio.Event()
        feed.subscribe(loop, changed)

        return EventSourceResponse(
            _updates(feed, since, loop, changed), ping=15, headers={"Cache-Control": "no-store"}
        )

    routes = page_routes(PAGES, title) + [
        Route("/api/state", api_state),
        Route("/api/events", api_events),
        Route("/api/stream", stream),
    ]
    return Starlette(routes=routes)


def parse_http(spec):
    """``HOST:PORT`` -> (host, port). Raises ValueError."""
    host, sep, port = spec.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError("--http wants HOST:PORT, e.g. %s (got %r)" % (DEFAULT_HTTP, spec))
    return host.strip("[]"), int(port)


def is_local(host):
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_free(host, port):
    """OSError (one sentence naming host and port) when nothing can listen on host:port."""
    import socket

    try:  # a clear error for a port in use (uvicorn would only exit)
        with socket.create_server((host, port)):
            pass
    except OSError as e:
        why = os.strerror(e.errno) if e.errno else str(e)
        raise OSError("cannot serve on %s:%d: %s" % (host, port, why)) from None


def serve(
    feed,
    host,
    port,
    title="fleetref",
    started=None,
    say=print,
    app=None,
    what="fleetref web: http://%s:%d/ (page) and /overlay",
    on_server=None,
):
    """Serve ``feed`` on host:port until interrupted (uvicorn). ``started``: optional
    threading.Event set once the socket listens. ``app``: another Starlette application to
    serve instead (the dashboard), ``what`` its first line (``%s:%d`` host and port).
    ``on_server``: optional callable given the uvicorn server before it runs (setting its
    ``should_exit`` ends it). Raises OSError (one sentence) when the port cannot be had."""
    import uvicorn

    config = uvicorn.Config(
        app or make_app(feed, title),
        host=host,
        port=port,
        log_level="warning",
        access_log=False,
        lifespan="off",
    )
    server = uvicorn.Server(config)
    if on_server is not None:
        on_server(server)
    check_free(host, port)  # a port in use is said instead of the serving line
    if is_local(host):
        say(
            (what + "; on localhost only (--http 0.0.0.0:%d serves the network)")
            % (host, port, port)
        )
    else:
        say((what + "; WARNING: reachable from other machines on the network") % (host, port))
    if started is not None:
        orig = server.startup

        async def startup(sockets=None):
            await orig(sockets)
            started.set()

        server.startup = startup
    server.run()
    return server


def say(msg):
    print("fleetref web: " + msg, file=sys.stderr, flush=True)


def open_mirror(port_spec, baud=115200):
    """A host_tools.link.mirror.Mirror on the board, its link open (shared with the other tools
    following it). ``port_spec``: a path, or "auto" (a Pico, else the newest simulator,
    looked up again at each reconnect). Raises MirrorError (one sentence)."""
    from host_tools.link.mirror import Mirror, find_port

    port = find_port(say) if port_spec == "auto" else port_spec
    m = Mirror(port, baud=baud, auto=port_spec == "auto", warn=say)
    m.open()
    return m


def follow_in_thread(source, feed, baud=115200, stop=None, on_end=None):
    """Start a thread that follows the board with host_tools.link.mirror.Mirror and publishes into
    ``feed``. ``source``: a Mirror (open_mirror's), or a port as for :func:`open_mirror`.
    When following ends on an error (the board cannot be had, or its rules and the host's
    differ), ``on_end(message)`` is called (default: the message is printed)."""
    from host_tools.link.mirror import MirrorError

    def run():
        try:
            m = open_mirror(source, baud) if isinstance(source, str) else source
        except MirrorError as e:
            feed.set_link(False, str(e))
            return (on_end or say)(str(e))
        mf = webfeed.MirrorFeed(m, feed)
        try:
            m.follow(mf.on_update, stop)
        except MirrorError as e:
            feed.set_link(False, str(e))
            (on_end or say)(str(e))
        finally:
            m.close()

    t = threading.Thread(target=run, name="fleetref-follow", daemon=True)
    t.start()
    return t


def add_arguments(p):
    add_port_argument(p)
    p.add_argument(
        "--http",
        default=DEFAULT_HTTP,
        help="HOST:PORT to serve on (default %s: this machine only)" % DEFAULT_HTTP,
    )
    p.add_argument("--baud", type=whole_number(1, MAX_BAUD), default=115200)


def main(args):
    try:
        host, port = parse_http(args.http)
        check_free(host, port)  # before the board: a port in use is the one line said
    except (ValueError, OSError) as e:
        print("fleetref web: %s" % e, file=sys.stderr)
        return 2
    from host_tools.link.mirror import MirrorError

    try:
        m = open_mirror(args.port, args.baud)
    except MirrorError as e:
        say(str(e))
        return 2
    feed = webfeed.Feed(args.port)
    stopping, ended, servers = [], [], []

    def end(msg):  # following stopped for good: say why, and stop serving
        say(msg)
        ended.append(msg)
        for s in servers:
            s.should_exit = True

    def started(server):
        servers.append(server)
        if ended:
            server.should_exit = True

    follow_in_thread(m, feed, args.baud, lambda: bool(stopping), end)
    code = serve_until_stopped(
        say,
        lambda: serve(feed, host, port, say=lambda s: print(s, flush=True), on_server=started),
        lambda: stopping.append(1),
    )
    return code or (2 if ended else 0)


def serve_until_stopped(say, run, stop):
    """Run the server (``run()``) until Ctrl-C, then ``stop()``. Returns 0, or 2 after
    ``say`` told in one line why it could not listen (an OSError: the port taken, ...)."""
    try:
        run()
    except OSError as e:
        say(str(e))
        return 2
    except KeyboardInterrupt:
        pass
    finally:
        stop()
    return 0
