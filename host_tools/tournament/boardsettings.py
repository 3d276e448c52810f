"""``fleetref tournament board``: the settings a Pico W needs to publish its own game
(firmware/referee/net/mqtt.py; docs/mqtt.md section 5), made from the files ``fleetref
tournament init`` wrote: the broker (as an IPv4 address: the board resolves no names), the
event, the table, its user and its password (``DIR/passwords/TABLE``). They go to the board's
``/mqtt.json`` over USB (mpremote, the raw REPL, as ``fleetref flash`` copies files; copied
as ``/mqtt.json.new`` and renamed over it, so a cut mid-copy keeps the old settings), or to a
file (``--out``). The password is never printed; the file is mode 600.
"""

import json
import os
import socket
import sys
import tempfile

from host_tools.tournament import mqttlink

BOARD_PATH = ":mqtt.json"  # on the board: network.root + "/mqtt.json", root "" on the Pico
NEW_PATH = BOARD_PATH + ".new"  # copied first, then renamed over BOARD_PATH


def add_arguments(sub):
    b = sub.add_parser(
        "board", help="put a table's broker settings and credentials on a Pico W (mqtt.json)"
    )
    b.add_argument("--dir", required=True, help="the folder fleetref tournament init wrote")
    b.add_argument("--table", required=True, help="the board's table (its user too)")
    b.add_argument(
        "--broker",
        required=True,
        help="mqtt://HOST[:PORT] as the board reaches it (a name is resolved here, now)",
    )
    b.add_argument(
        "--event",
        default=mqttlink.DEFAULT_EVENT,
        help="the event's name (default %s)" % mqttlink.DEFAULT_EVENT,
    )
    where = b.add_mutually_exclusive_group(required=True)
    where.add_argument("--port", help="serial port of the Pico W: written to its /mqtt.json")
    where.add_argument("--out", help="write the settings to this file instead (mode 600)")


def settings(folder, table, broker, event):
    """The settings dict; MqttError (one line, without the password) when a name, the broker
    or the password file is wrong."""
    mqttlink.check_name("table", table)
    mqttlink.check_name("event", event)
    host, port, tls = mqttlink.parse_broker(broker)
    if tls:
        raise mqttlink.MqttError("the board speaks plain MQTT only: use mqtt://, not mqtts://")
    try:
        address = socket.getaddrinfo(host, port, socket.AF_INET, socket.SOCK_STREAM)[0][4][0]
    except (OSError, UnicodeError) as e:
        raise mqttlink.MqttError("cannot resolve the broker's name %s: %s" % (host, e))
    password = mqttlink.read_password(os.path.join(folder, "passwords", table))
    return {
        "host": address,
        "port": port,
        "event": event,
        "table": table,
        "user": table,
        "password": password,
    }


def write_file(path, cfg):
    """``cfg`` as JSON at ``path``, mode 600 from its creation."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        json.dump(cfg, f)
    os.chmod(path, 0o600)


def to_board(port, cfg, tool=None):
    """Put ``cfg`` on the board on ``port`` as /mqtt.json: copied as /mqtt.json.new (a stray
    one from a torn earlier copy is overwritten), then renamed over /mqtt.json in one step,
    so a cable or power cut leaves the old settings or the new ones, never a torn file.
    ``tool``: an Mpremote-like object with ``copy(src, dst)``, ``rename(src, dst)`` and
    ``remove(path)``. FlashError (one line) when the copy or the rename fails: the
    /mqtt.json.new is then removed if the board still answers, /mqtt.json is as it was. The
    laptop's temporary copy is removed whatever happens."""
    from host_tools.board.flash_board import FlashError, Mpremote

    tool = tool or Mpremote(port)
    d = tempfile.mkdtemp(prefix="fleetref-mqtt-")
    path = os.path.join(d, "mqtt.json")
    try:
        write_file(path, cfg)
        try:
            tool.copy(path, NEW_PATH)
            tool.rename(NEW_PATH, BOARD_PATH)
        except FlashError as e:
            try:
                tool.remove(NEW_PATH)
            except FlashError:
                pass  # never made, or the board is gone: the next attempt overwrites it
            raise FlashError("%s (the board's /mqtt.json is unchanged)" % e)
    finally:
        if os.path.exists(path):
            os.remove(path)
        os.rmdir(d)


def main(args, tool=None):
    from host_tools.board.flash_board import FlashError

    try:
        cfg = settings(args.dir, args.table, args.broker, args.event)
        if args.out:
            write_file(args.out, cfg)
            where = args.out
        else:
            to_board(args.port, cfg, tool)
            where = "the board on %s (/mqtt.json; reset it to start publishing)" % args.port
    except (mqttlink.MqttError, FlashError, OSError) as e:
        print("fleetref tournament board: %s" % e, file=sys.stderr)
        return 2
    print(
        "wrote %s: broker %s:%d, event %s, table %s, user %s (password from %s)"
        % (
            where,
            cfg["host"],
            cfg["port"],
            cfg["event"],
            cfg["table"],
            cfg["user"],
            os.path.join(args.dir, "passwords", args.table),
        )
    )
    return 0
