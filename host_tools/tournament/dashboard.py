"""``fleetref dashboard``: an organiser's live page of every table of an event, fed by the
tables' ``fleetref publish`` over an MQTT broker (docs/mqtt.md), served with the spectator
page's server and static files (host_tools.views.web).

Routes: ``/`` the page (one card per table: round, phase, initiative, each side's remaining
strength, time banks, winner, last activity, warnings: hashes that disagree, silence, a
publisher offline and for how long, malformed messages ignored; the results table);
``/api/tables`` (JSON: ``{"event", "silent_after", "broker", "tables": [card, ...]}``,
host_tools.tournament.tables); ``/results.csv`` (one row per table); ``/static/NAME``.

It subscribes with a persistent session (QoS 1, fixed client id) to ``fleetref/EVENT/+/#``;
after its own restart the broker's retained ``state`` and ``status`` messages rebuild every
card.
"""

import sys

from host_tools.argtypes import finite_number
from host_tools.tournament import mqttlink, tables
from host_tools.views import web

COMMAND = "dashboard"  # fleetref dashboard; SUMMARY: its line in fleetref --help (cli.py)
SUMMARY = "an organiser's live page of every table of an event (MQTT)"

PAGES = {"/": "dashboard.html"}
DEFAULT_HTTP = "127.0.0.1:8766"
SUBSCRIBE_WITHIN = 5.0  # seconds for the broker to confirm the subscription before serving


def make_app(board, link, title="fleetref"):
    """The Starlette application for ``board`` (tables.Tables); ``link()``: the broker link's
    state as a dict ``{"connected": bool, "broker": str}``."""
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse, Response
    from starlette.routing import Route

    async def api_tables(request):
        v = board.view()
        v["broker"] = link()
        return JSONResponse(v, headers={"Cache-Control": "no-store"})

    async def results(request):
        return Response(
            board.results_csv(),
            media_type="text/csv",
            headers={
                "Content-Disposition": 'attachment; filename="%s-results.csv"' % board.event,
                "Cache-Control": "no-store",
            },
        )

    routes = web.page_routes(PAGES, title) + [
        Route("/api/tables", api_tables),
        Route("/results.csv", results),
    ]
    return Starlette(routes=routes)


def subscribe(client, board):
    """Feed ``board`` from ``client`` (a started mqttlink.Client): every message of the
    event's tables, again after each reconnection."""
    pattern = "%s/%s/+/+" % (mqttlink.PREFIX, board.event)
    client.on_message_cb = board.take
    client.on_connect_cb = lambda present: client.subscribe(pattern)
    if not client.subscribe(pattern, wait=SUBSCRIBE_WITHIN):
        client.warn("the broker has not confirmed the subscription to %s yet" % pattern)


def add_arguments(p):
    p.add_argument("--broker", required=True, help="mqtt://HOST[:PORT] (mqtts:// for TLS)")
    mqttlink.add_event_argument(p)
    p.add_argument(
        "--http",
        default=DEFAULT_HTTP,
        help="HOST:PORT to serve on (default %s: this machine only)" % DEFAULT_HTTP,
    )
    p.add_argument(
        "--silent-after",
        type=finite_number(0, above=True),
        default=300.0,
        help="seconds without news after which a table in play is flagged silent (default 300)",
    )
    p.add_argument("--user", help="broker user name (fleetref tournament init: dashboard)")
    p.add_argument("--password-file", help="file holding the broker password (first line)")
    mqttlink.add_tls_argument(p)
    p.add_argument(
        "--client-id",
        help="MQTT client id (default fleetref-dash-EVENT; two "
        "dashboards on one broker need two ids)",
    )


def main(args):
    def say(msg):
        print("fleetref dashboard: " + msg, file=sys.stderr, flush=True)

    try:
        host, port = web.parse_http(args.http)
        mqttlink.parse_broker(args.broker)
        mqttlink.check_name("event", args.event)
        if not args.silent_after > 0:
            raise mqttlink.MqttError("--silent-after wants a number of seconds above 0")
        pw = mqttlink.read_password(args.password_file) if args.password_file else None
        if pw and not args.user:
            raise mqttlink.MqttError("--password-file needs --user")
        web.check_free(host, port)  # before the broker: a port in use is said as such
        board = tables.Tables(args.event, args.silent_after, warn=say)
        client = mqttlink.Client(
            args.broker,
            args.client_id or "fleetref-dash-" + args.event,
            args.user,
            pw,
            warn=say,
            ca_file=args.ca_file,
        )
        client.start()
    except (ValueError, OSError, mqttlink.MqttError) as e:
        say(str(e))
        return 2
    subscribe(client, board)
    app = make_app(board, lambda: {"connected": client.connected.is_set(), "broker": args.broker})
    return web.serve_until_stopped(
        say,
        lambda: web.serve(
            None,
            host,
            port,
            say=lambda s: print(s, flush=True),
            app=app,
            what="fleetref dashboard: http://%%s:%%d/ (event %s)" % args.event,
        ),
        client.stop,
    )
