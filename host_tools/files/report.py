"""``fleetref report GAME.json -o report.html``: a battle report of a saved game (a file of
``fleetref save`` or ``fleetref mirror --log``) as one self-contained HTML page: the sides and
fleets, the winner, a plot of each side's hit points per round and each ship's damage, the
initiative history, a round-by-round account in sentences (the firmware's event texts), every
roll with who rolled it and whether board or physical dice, and each player's dice statistics
against a fair die. Pictures are embedded PNG (matplotlib, drawn offline); the page links to
nothing outside itself. ``--csv FILE``: the events (seq, round, phase, text, hash);
``--png FILE``: the plot alone.

The file is checked first (every field, the hash chain, every event replayed through the rules
core: host_tools/files/savefile.py); a bad or missing file is one line on stderr and exit status 2.
"""

import csv
import os
import sys

from host_tools.files import dicestats, gamefile, reportplot, savefile
from host_tools.files.reportpage import html_page
from referee.events import EV_INIT
from referee.texts import hit_points, plural, ship_state, shows

COMMAND = "report"  # fleetref report; SUMMARY: its line in fleetref --help (cli.py)
SUMMARY = "a battle report (HTML, CSV, plot) of a saved game"

CSV_FIELDS = ("seq", "round", "phase", "text", "hash")
SHIP_KEYS = ("name", "side", "class", "hp", "damage", "pending", "status")


def analyse(data):
    """The report's model of save dict ``data`` (host_tools/files/gamefile.load). Raises
    savefile.SaveError when the file does not check. Returns a dict::

        {"scenario", "ruleset", "gid", "source", "base_seq", "sides": [name, name],
         "ships": [{"name", "side", "class", "hp": [x, y], "damage", "pending", "status",
                    "state" (texts.ship_state), "hit_points" (texts.hit_points)}],
         "shows": texts.shows (class, counters, split hit points: what the ruleset uses),
         "decided": {"seq", "round", "text"} (the event that made the winner) or None,
         "records": [gamefile.Walk records], "start_round", "start_phase", "start_damage",
         "hp_rounds": {"labels": [...], "values": [[side 0 ...], [side 1 ...]]},
         "initiative": [{"seq", "round", "rolls", "source", "holder", "undone"}],
         "rolls": dicestats.rolls(...), "stats": dicestats.stats(...),
         "verified": host_tools.files.verify result or None, "winner": side or None,
         "round", "phase", "state_hash"}
    """
    savefile.verify(data)
    walk = gamefile.Walk(data)
    g = walk.game
    start_damage = list(g.dmg)
    start_round, start_phase = g.round, g.phase_name()
    try:
        records = walk.run()
    except gamefile.Broken as e:  # savefile.verify passed: not expected
        raise savefile.SaveError(str(e))
    undone = {r["undone"] for r in records if r["undone"] is not None}
    model = {
        "scenario": g.roster_name or data["game"].get("scenario") or "",
        "ruleset": g.rules.name,
        "gid": data["game"].get("gid") or "",
        "source": data.get("source") or "save file",
        "base_seq": data["base_seq"],
        "sides": list(g.side_names),
        "ships": _ships(g),
        "records": records,
        "shows": shows(g),
        "start_round": start_round,
        "start_phase": start_phase,
        "start_damage": start_damage,
        "hp_rounds": _hp_rounds(g, records, start_damage),
        "initiative": _initiative(records, undone),
    }
    model.update(_dice(data, records))
    model.update(
        winner=g.winner(),
        decided=_decided(g, records, undone),
        round=g.round,
        phase=g.phase_name(),
        state_hash=g.state_hash(),
    )
    return model


def _hp_rounds(g, records, start_damage):
    """Each side's hit points left at the start and at the end of each round played:
    {"labels": [...], "values": [[side 0 ...], [side 1 ...]]}."""
    n = g.n
    totals = [g.hp1[i] + g.hp2[i] for i in range(n)]

    def left(dmg, side):
        return sum(max(0, totals[i] - dmg[i]) for i in range(n) if g.side[i] == side)

    labels = ["start"]
    values = [[left(start_damage, s)] for s in range(2)]
    by_round = {}
    for r in records:  # each round played: its last state (end-of-round damage in it)
        by_round[r["played_round"]] = r["damage"]
    for rnd in sorted(by_round):
        labels.append("end of round %d" % rnd if rnd != g.round else "round %d (last)" % rnd)
        for s in range(2):
            values[s].append(left(by_round[rnd], s))
    return {"labels": labels, "values": values}


def _initiative(records, undone):
    """Every initiative roll: [{"seq", "round", "rolls", "source", "holder", "undone"}]."""
    return [
        {
            "seq": r["seq"],
            "round": r["round"],
            "rolls": r["ev"][1:3],
            "source": "physical" if r["ev"][3] else "board",
            "holder": r["initiative"],
            "undone": r["seq"] in undone,
        }
        for r in records
        if r["ev"][0] == EV_INIT
    ]


def _dice(data, records):
    """The rolls, their statistics and (for a file from the game's start with the board's
    dice record) their check against the revealed secrets: {"rolls", "stats", "verified"}."""
    events = [(r["seq"], r["ev"]) for r in records]
    roster, dice = data["game"]["roster"], data.get("dice")
    rolls = dicestats.rolls(roster, events, dice, gamefile.start_game(data))
    stats = dicestats.stats(roster, events, dice, gamefile.start_game(data))
    verified = None
    if isinstance(dice, dict) and not data["base_seq"]:
        from host_tools.files.verify import verify_game

        verified = verify_game(roster, events, dice)
    return {"rolls": rolls, "stats": stats, "verified": verified}


def _ships(g):
    """Each ship's fields (SHIP_KEYS) with its state in words, as every view shows it
    (texts.ship_state, texts.hit_points)."""
    ships = []
    for i in range(g.n):
        d = g.ship_dict(i)
        ships.append(
            dict(
                [(k, d[k]) for k in SHIP_KEYS], state=ship_state(g, i), hit_points=hit_points(g, i)
            )
        )
    return ships


def _decided(g, records, undone):
    """The event that made the winner (the last one not taken back: an undo may have taken
    an earlier one back) as {"seq", "round" (played in), "text"}; None while none has won."""
    decided = None
    if g.winner() is None:
        return None
    for r in records:
        if r["won"] is not None and r["seq"] not in undone:
            decided = {"seq": r["seq"], "round": r["played_round"], "text": r["text"]}
    return decided


def write_csv(m, path):
    """The events as CSV at ``path``: seq, round, phase (the game's round and phase just after
    the event), text, hash (the state hash after it); a text that starts like a formula is
    written as text (host_tools/files/csvcell.py). Raises OSError."""
    from host_tools.files import csvcell

    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(CSV_FIELDS)
        for r in m["records"]:
            w.writerow(csvcell.row([r[k] for k in CSV_FIELDS]))


def _write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def add_arguments(p):
    p.add_argument("game", help="a saved game (fleetref save, or a fleetref mirror --log file)")
    p.add_argument(
        "-o",
        "--output",
        help="the HTML page to write (default: GAME with .html "
        "when neither --csv nor --png is given)",
    )
    p.add_argument("--csv", help="write the events (seq, round, phase, text, hash) as CSV here")
    p.add_argument("--png", help="write the hit point and damage plot alone here (PNG)")


def main(args):
    out = args.output
    if out is None and not args.csv and not args.png:
        out = os.path.splitext(args.game)[0] + ".html"
    try:
        m = analyse(gamefile.load(args.game))
    except savefile.SaveError as e:
        print("fleetref report: %s: %s" % (args.game, e), file=sys.stderr)
        return 2
    try:
        plot = reportplot.battle_png(m) if (out or args.png) else None
        if args.png:
            _write(args.png, plot)
            print("wrote the plot to %s" % args.png)
        if args.csv:
            write_csv(m, args.csv)
            print("wrote %s to %s" % (plural(len(m["records"]), "event"), args.csv))
        if out:
            _write(out, html_page(m, plot, reportplot.dice_png(m)).encode("utf-8"))
            print("wrote the report to %s" % out)
    except OSError as e:
        print(
            "fleetref report: cannot write %s: %s" % (e.filename, e.strerror or e), file=sys.stderr
        )
        return 2
    return 0
