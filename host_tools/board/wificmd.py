"""fleetref wifi: a Pico W board's Wi-Fi. ``set --port PORT --ssid NAME`` stores the network's
name and password on the board (its /wifi.json, apart from the game journal; the password is
read with getpass, or from stdin when that is not a terminal, and never printed); ``status
--port PORT`` says the link's state, the network's name and the board's address. Both talk
to a board or a simulator over its serial port (docs/protocol.md: ``wifi-set``, ``wifi``)."""

import os
import sys
import time

COMMAND = "wifi"  # fleetref wifi; SUMMARY: its line in fleetref --help (cli.py)
SUMMARY = "store a Pico W board's Wi-Fi network, or ask for its state"
STATE_TEXTS = {
    "off": "off (no credentials stored, or no Wi-Fi chip)",
    "joining": "joining",
    "up": "up",
    "down": "down (trying again)",
}


class WifiError(Exception):
    pass


def ask(port, msg, timeout=None):
    """Send ``msg`` (a ``wifi-set`` or ``wifi`` command, dict) to the board on ``port`` and
    return its ``wifi`` answer (dict: ``state``, ``ssid``, ``address``). Raises WifiError
    with the board's reason, or when it does not answer."""
    from host_tools.link import boardlink

    timeout = timeout or float(os.environ.get("FLEETREF_REPLY_TIMEOUT") or 10)
    return boardlink.command(
        port,
        msg,
        "wifi",
        timeout,
        WifiError,
        "is it a fleetref board with firmware new enough for Wi-Fi? run fleetref flash",
        "ask again",
    )


def read_password(stdin=None):
    """The password: asked without echo on a terminal, else the first line of stdin (its
    line end taken off). Empty: an open network."""
    stdin = stdin or sys.stdin
    if stdin.isatty():
        import getpass

        return getpass.getpass("Wi-Fi password (empty for an open network): ")
    return stdin.readline().rstrip("\r\n")


def describe(m):
    """The lines ``fleetref wifi`` prints for a board's ``wifi`` answer ``m``."""
    state = m.get("state")
    return [
        "Wi-Fi: %s" % STATE_TEXTS.get(state, state),
        "network: %s" % (m.get("ssid") or "(none stored)"),
        "address: %s" % (m.get("address") or "(none)"),
    ]


def add_arguments(p):
    sub = p.add_subparsers(dest="wifi_cmd", metavar="set|status")
    s = sub.add_parser(
        "set",
        help="store the Wi-Fi network's name and password on the board",
        description="Store the Wi-Fi network's name (--ssid) and password on the board, in "
        "its own file apart from the game: the board joins it at once and after every "
        "start. The password is asked without showing it (or read from stdin when that "
        "is not a terminal) and is never printed.",
    )
    s.add_argument("--ssid", required=True, help="the Wi-Fi network's name (1-32 characters)")
    s.add_argument("--port", required=True, help="serial port of the board or simulator")
    t = sub.add_parser(
        "status",
        help="say whether the board is on its Wi-Fi, and its address",
        description="Say the board's Wi-Fi state (off, joining, up, down), the network "
        "it is set to join and its address.",
    )
    t.add_argument("--port", required=True, help="serial port of the board or simulator")


def main(args):
    from referee import net

    cmd = getattr(args, "wifi_cmd", None)
    if cmd is None:
        print(
            "fleetref wifi: say set --ssid NAME --port PORT, or status --port PORT "
            "(fleetref wifi --help)",
            file=sys.stderr,
        )
        return 2
    try:
        if cmd == "set":
            password = read_password()
            try:  # checked here first: a bad value is one line and nothing is sent
                net.check_credentials(args.ssid, password)
            except ValueError as e:
                raise WifiError(str(e))
            m = ask(args.port, {"c": "wifi-set", "ssid": args.ssid, "password": password})
            print("stored the Wi-Fi network %s on the board" % m.get("ssid"))
        else:
            m = ask(args.port, {"c": "wifi"})
        print("\n".join(describe(m)))
        return 0
    except WifiError as e:
        print("fleetref wifi: %s" % e, file=sys.stderr)
        return 2
