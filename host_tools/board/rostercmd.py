"""fleetref roster: custom fleets. check FILE validates a roster (JSON or TOML) exactly as the
board will and prints the fleets as the referee sees them; push FILE --port PORT stores it
on a board or a simulator (in its rosters folder, atomically) so it appears in the pad's
scenario menu. The format: docs/rosters.md."""

import json
import os
import sys
import time

from host_tools import paths

COMMAND = "roster"  # fleetref roster; SUMMARY: its line in fleetref --help (cli.py)
SUMMARY = "check a custom fleet file, or push it onto a board"


class RosterCmdError(Exception):
    pass


def load(path, ruleset=None):
    """(normalised roster, raw dict) of roster file ``path``. Raises RosterCmdError with a
    clear message (missing file with "did you mean", bad JSON/TOML, a bad field)."""
    from referee import scenarios
    from host_tools import names

    try:
        names.check_roster_file(path)
    except names.NameError_ as e:
        raise RosterCmdError(str(e))
    try:
        text = paths.load_roster_file(path)
    except SystemExit as e:
        raise RosterCmdError(str(e).replace("fleetref: ", "", 1))
    if ruleset:
        try:
            names.check_ruleset(ruleset)
        except names.NameError_ as e:
            raise RosterCmdError(str(e))
    try:
        return scenarios.load_text(text, ruleset)
    except ValueError as e:
        raise RosterCmdError("%s: %s" % (path, e))


def describe(norm):
    """The fleets as the referee sees them: lines of text (list of str)."""
    from referee import rules
    from referee.texts import plural

    rs = rules.get(norm["ruleset"])
    out = [
        "%s (ruleset %s)%s"
        % (
            norm["name"],
            norm["ruleset"],
            ("; source: " + norm["source"]) if norm["source"] else "",
        )
    ]
    if norm["settings"]:
        out.append(
            "settings: " + ", ".join("%s=%s" % kv for kv in sorted(norm["settings"].items()))
        )
    idx = 0
    all_ships = norm["sides"][0]["ships"] + norm["sides"][1]["ships"]
    for si, side in enumerate(norm["sides"]):
        out.append(
            "side %d: %s, %s (%s the grid)"
            % (
                si,
                side["name"],
                plural(len(side["ships"]), "ship"),
                "left of" if si == 0 else "right of",
            )
        )
        for s in side["ships"]:
            x, y = s["hp"]
            hp = "%d" % x if not y else "%d/%d" % (x, y)
            bits = ["class %d" % s["class"], "hit points %s" % hp]
            if rs.options:  # fleet command counters (only with a chart)
                bits.append(plural(s["cc"], "counter"))
            if not s["launched"]:
                bits.append("aboard")
            if s["carrier"] >= 0:
                bits.append("carried by %s" % all_ships[s["carrier"]]["name"])
            st = s["stats"]
            if st:
                bits.append(
                    "stats: " + ", ".join("%s=%s" % (k, json.dumps(st[k])) for k in sorted(st))
                )
            out.append("  %2d %s: %s" % (idx, s["name"], "; ".join(bits)))
            idx += 1
    if norm.get("victory"):
        out.append(
            "victory: "
            + "; ".join("side %d when %s" % (v["side"], v["when"]) for v in norm["victory"])
        )
    out.append("command options: " + (", ".join(o.name for o in rs.options) or "none"))
    return out


def push(port, name, raw, timeout=None):
    """Send ``roster-put`` to the board on ``port`` (shared with the other fleetref tools
    following it); returns its ``ok`` reply (dict). Raises RosterCmdError with the board's
    reason."""
    from referee import protocol
    from host_tools.link import boardlink

    timeout = timeout or float(os.environ.get("FLEETREF_REPLY_TIMEOUT") or 10)
    msg = {"c": "roster-put", "name": name, "roster": raw}
    size = len(protocol.encode(msg))
    if size > protocol.MAX_LINE:
        raise RosterCmdError(
            "the roster is %d bytes as one line; the board takes lines up to "
            "%d: leave out notes and abilities texts" % (size, protocol.MAX_LINE)
        )
    return boardlink.command(
        port,
        msg,
        "ok",
        timeout,
        RosterCmdError,
        "is it a fleetref board with firmware new enough for roster push? run fleetref flash",
        "the roster may or may not be stored; push it again",
    )


def add_arguments(p):
    sub = p.add_subparsers(dest="roster_cmd", metavar="check|push")
    c = sub.add_parser(
        "check",
        help="validate a roster file and show its fleets",
        description="Validate a roster file (.json or .toml) as the board will "
        "and print the fleets as the referee sees them.",
    )
    c.add_argument("file", help="roster file (.json or .toml), format in docs/rosters.md")
    c.add_argument("--ruleset", help="check it under this ruleset instead of its own")
    u = sub.add_parser(
        "push",
        help="store a roster on a board or simulator",
        description="Check a roster file, then store it on the board (in its "
        "rosters folder, written atomically) so it appears in the "
        "pad's scenario menu (hold phase).",
    )
    u.add_argument("file", help="roster file (.json or .toml)")
    u.add_argument(
        "--port",
        default="auto",
        help="serial port of the board or simulator (auto: a Pico, else this "
        "checkout's simulator)",
    )
    u.add_argument("--name", help="name in the scenario menu (default: the file's name)")


def main(args):
    if getattr(args, "roster_cmd", None) is None:
        print(
            "fleetref roster: say check FILE or push FILE --port PORT (fleetref roster --help)",
            file=sys.stderr,
        )
        return 2
    try:
        norm, raw = load(args.file, getattr(args, "ruleset", None))
        if args.roster_cmd == "check":
            print("\n".join(describe(norm)))
            from referee import roster_hints, rules

            for w in roster_hints.warnings(rules.get(norm["ruleset"]), norm):
                print("warning: " + w)
            print("OK: %s can be loaded (fleetref sim --roster %s)" % (args.file, args.file))
            return 0
        from host_tools.link.mirror import find_port, MirrorError

        name = args.name or os.path.splitext(os.path.basename(args.file))[0]
        from referee import rosterstore

        try:
            rosterstore.check_name(name)
        except ValueError as e:
            raise RosterCmdError("%s; give --name" % e)
        if args.port == "auto":
            try:
                port = find_port(lambda note: print("fleetref roster: " + note, file=sys.stderr))
            except MirrorError as e:
                raise RosterCmdError(str(e))
        else:
            port = args.port
        r = push(port, name, raw)
        print(
            "stored %s on the board as %s (%s); hold phase on the pad for the scenario "
            "menu" % (args.file, name, "replaced the old one" if r.get("replaced") else "new")
        )
        return 0
    except RosterCmdError as e:
        print("fleetref roster: %s" % e, file=sys.stderr)
        return 2
