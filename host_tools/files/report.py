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

import base64
import csv
import html
import os
import sys

from host_tools.files import dicestats, gamefile, reportplot, savefile
from referee.events import EV_INIT, EV_PHASE
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
    n = g.n
    totals = [g.hp1[i] + g.hp2[i] for i in range(n)]
    start_damage = list(g.dmg)
    start_round, start_phase = g.round, g.phase_name()
    try:
        records = walk.run()
    except gamefile.Broken as e:  # savefile.verify passed: not expected
        raise savefile.SaveError(str(e))

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
    undone = {r["undone"] for r in records if r["undone"] is not None}
    init = [
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
    events = [(r["seq"], r["ev"]) for r in records]
    roster, dice = data["game"]["roster"], data.get("dice")
    rolls = dicestats.rolls(roster, events, dice, gamefile.start_game(data))
    stats = dicestats.stats(roster, events, dice, gamefile.start_game(data))
    verified = None
    if isinstance(dice, dict) and not data["base_seq"]:
        from host_tools.files.verify import verify_game

        verified = verify_game(roster, events, dice)
    ships = []
    for i in range(n):
        d = g.ship_dict(i)  # + its state in words, as every view (texts.ship_state)
        ships.append(
            dict(
                [(k, d[k]) for k in SHIP_KEYS], state=ship_state(g, i), hit_points=hit_points(g, i)
            )
        )
    return {
        "scenario": g.roster_name or data["game"].get("scenario") or "",
        "ruleset": g.rules.name,
        "gid": data["game"].get("gid") or "",
        "source": data.get("source") or "save file",
        "base_seq": data["base_seq"],
        "sides": list(g.side_names),
        "ships": ships,
        "records": records,
        "shows": shows(g),
        "start_round": start_round,
        "start_phase": start_phase,
        "start_damage": start_damage,
        "hp_rounds": {"labels": labels, "values": values},
        "initiative": init,
        "rolls": rolls,
        "stats": stats,
        "verified": verified,
        "winner": g.winner(),
        "decided": _decided(g, records, undone),
        "round": g.round,
        "phase": g.phase_name(),
        "state_hash": g.state_hash(),
    }


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


# ---- HTML ------------------------------------------------------------------------------------
CSS = """body{font-family:system-ui,sans-serif;max-width:62em;margin:1em auto;padding:0 1em;
color:#222}h1{margin-bottom:.2em}table{border-collapse:collapse;margin:.5em 0 1em}
td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}
th{background:#eee}.s0{color:#1f5fbf}.s1{color:#bf3f1f}.dim{color:#888}
.winner{font-size:1.3em;font-weight:bold}.board{background:#e8f0ff}.physical{background:#fff3e0}
.unchecked{background:#eee}img{max-width:100%}.meta{color:#555}
.phase{font-weight:bold}.undone{text-decoration:line-through;color:#888}"""


def esc(x):
    return html.escape(str(x), quote=True)


def _img(png, alt):
    return '<img alt="%s" src="data:image/png;base64,%s">' % (
        esc(alt),
        base64.b64encode(png).decode("ascii"),
    )


def _side(m, s):
    return '<span class="s%d">%s</span>' % (s, esc(m["sides"][s])) if s is not None else "?"


def _table(head, rows):
    out = ["<table><tr>%s</tr>" % "".join("<th>%s</th>" % esc(h) for h in head)]
    for cls, cells in rows:
        out.append(
            "<tr%s>%s</tr>"
            % (' class="%s"' % cls if cls else "", "".join("<td>%s</td>" % c for c in cells))
        )
    out.append("</table>")
    return "\n".join(out)


def _result(m):
    if m["winner"] is not None:
        d = m.get("decided")
        how = (
            "<p>Decided in round %d (event %d): %s</p>" % (d["round"], d["seq"], esc(d["text"]))
            if d
            else ""
        )
        return '<p class="winner">Winner: %s</p>%s' % (_side(m, m["winner"]), how)
    return '<p class="winner">No winner yet</p><p>The log ends in round %d, %s phase.</p>' % (
        m["round"],
        esc(m["phase"]),
    )


def _fleets(m):
    """Each side's ships: the class only where the ruleset reads it (texts.shows), the hit
    points as the card gives them ("6/4", or "3")."""
    out = []
    cls = m.get("shows", {}).get("class", True)
    for s in range(2):
        rows = [
            (
                "dim" if sh["status"] == "destroyed" else "",
                [esc(sh["name"])]
                + ([sh["class"]] if cls else [])
                + [
                    sh.get("hit_points") or "%d/%d" % tuple(sh["hp"]),
                    "%d%s"
                    % (sh["damage"], " (+%d pending)" % sh["pending"] if sh["pending"] else ""),
                    esc(sh.get("state", sh["status"])),
                ],
            )
            for sh in m["ships"]
            if sh["side"] == s
        ]
        out.append("<h3>%s</h3>" % _side(m, s))
        out.append(
            _table(
                ("ship",)
                + (("class",) if cls else ())
                + ("hit points", "damage at the end", "state"),
                rows,
            )
        )
    return "\n".join(out)


def _initiative(m):
    if not m["initiative"]:
        return "<p>No initiative was rolled.</p>"
    rows = []
    for r in m["initiative"]:
        rows.append(
            (
                "undone" if r["undone"] else r["source"],
                [
                    r["round"],
                    r["seq"],
                    "%s %d, %s %d" % (_side(m, 0), r["rolls"][0], _side(m, 1), r["rolls"][1]),
                    r["source"],
                    _side(m, r["holder"]) if r["holder"] is not None else "-",
                    "taken back by an undo" if r["undone"] else "",
                ],
            )
        )
    return _table(("round", "event", "rolls", "dice", "initiative holder", "note"), rows)


def _account(m):
    out = []
    rnd = phase = None
    para = []

    def flush():
        if para:
            out.append('<p><span class="phase">%s:</span> %s</p>' % (esc(phase), " ".join(para)))
            del para[:]

    if m["base_seq"]:
        out.append(
            '<p class="meta">The file starts at event %d (older events had left the '
            "board's memory); the account begins there.</p>" % m["base_seq"]
        )
    undone = {r["undone"] for r in m["records"] if r["undone"] is not None}
    rnd, phase = m["start_round"], m["start_phase"]
    out.append("<h3>Round %d</h3>" % rnd)
    for r in m["records"]:
        played = r.get("played_round", r["round"])
        if r["ev"][0] == EV_PHASE:  # the end of a phase: only what it decided (the
            if r.get("outcome"):  # damage that lands then, the win) is told, there
                para.append('<span title="event %d">%s</span>' % (r["seq"], esc(r["outcome"])))
            flush()
            rnd, phase = played, r["phase"]
            continue
        if played != rnd or r["phase"] != phase:
            flush()
            if played != rnd:
                out.append("<h3>Round %d</h3>" % played)
            rnd, phase = played, r["phase"]
        para.append(
            '<span title="event %d"%s>%s</span>'
            % (r["seq"], ' class="undone"' if r["seq"] in undone else "", esc(r["text"]))
        )
    flush()
    if out[-1].startswith("<h3>"):
        out.append('<p class="meta">The log ends here (%s phase).</p>' % esc(phase))
    return "\n".join(out)


def _rolls(m):
    if not m["rolls"]:
        return "<p>No dice were rolled.</p>"
    rows = []
    for r in m["rolls"]:
        dice = "; ".join("%s d%d: %d" % (_side(m, side), faces, v) for side, faces, v in r["dice"])
        note = []
        if r["undone"]:
            note.append("taken back by an undo")
        if not r["counted"]:
            note.append("a corrected entry: not in the statistics")
        mark = {
            "board": "board dice",
            "physical": "physical dice",
            "unchecked": "CANNOT BE CHECKED (%s)" % r["why"],
        }[r["source"]]
        who = ", ".join(sorted({_side(m, d[0]) for d in r["dice"]}))
        rows.append(
            (
                r["source"],
                [r["seq"], r["round"], who, dice or "(not recorded)", mark, "; ".join(note)],
            )
        )
    return _table(("event", "round", "rolled by", "dice", "source", "note"), rows)


def _stats(m, png):
    st = m["stats"]
    if not st["groups"]:
        return "<p>No dice to judge.</p>"
    rows = []
    for gr in st["groups"]:
        rows.append(
            (
                gr["source"],
                [
                    _side(m, gr["side"]),
                    dicestats.LABELS[gr["source"]],
                    "d%d" % gr["faces"],
                    gr["n"],
                    " ".join(str(c) for c in gr["counts"]),
                    "%.2f" % (gr["n"] / gr["faces"]),
                    "%.2f (fair %.1f)" % (gr["mean"], gr["expected_mean"]),
                    "%.2f on %d df" % (gr["chi2"], gr["df"]),
                    "%.3f%s"
                    % (gr["p"], "" if gr["reliable"] else " (too few rolls for the test)"),
                ],
            )
        )
    out = [
        _table(
            (
                "player",
                "source",
                "die",
                "rolls",
                "count per face (1..)",
                "expected a face",
                "mean",
                "chi-square",
                "p",
            ),
            rows,
        ),
        (
            '<p class="meta">Pearson\'s chi-square test against a fair die; a small p (below '
            "0.01) says the dice behaved unlike fair dice. Board rolls taken back by an undo "
            "count; a corrected physical entry does not.</p>"
        ),
    ]
    if png:
        out.append(_img(png, "dice per face against a fair die"))
    v = m["verified"]
    if v is not None:
        bad = v["bad"] + v["problems"]
        out.append(
            "<p>Board rolls checked against the revealed secrets (fleetref verify): "
            "%d verified, %d physical, %d not revealed yet, %d cannot be checked (no "
            "roll record, or its secret lost in a restart), %s.</p>%s"
            % (
                len(v["ok"]),
                len(v["physical"]),
                len(v["unrevealed"]),
                len(v["unrecorded"]) + len(v["lost"]),
                plural(len(bad), "problem"),
                "".join('<p class="s1">%s</p>' % esc(b) for b in bad),
            )
        )
    return "\n".join(out)


def html_page(m, plot_png, dice_png=None):
    """The report page (str) of model ``m`` (:func:`analyse`) with the PNG bytes embedded."""
    title = "Battle report: %s" % (m["scenario"] or m["ruleset"])
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        "<title>%s</title><style>%s</style></head><body>" % (esc(title), CSS),
        "<h1>%s</h1>" % esc(title),
        '<p class="meta">Ruleset %s, game %s, %s (%s), %s against %s; final '
        "state hash %s.</p>"
        % (
            esc(m["ruleset"]),
            esc(m["gid"]),
            plural(len(m["records"]), "event"),
            esc(m["source"]),
            _side(m, 0),
            _side(m, 1),
            esc(m["state_hash"]),
        ),
        "<h2>Result</h2>",
        _result(m),
        "<h2>Sides and fleets</h2>",
        _fleets(m),
        "<h2>Hit points and damage</h2>",
        _img(plot_png, "hit points and damage"),
        "<h2>Initiative</h2>",
        _initiative(m),
        "<h2>Round by round</h2>",
        _account(m),
        "<h2>Every roll</h2>",
        _rolls(m),
        "<h2>Dice statistics</h2>",
        _stats(m, dice_png),
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"


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
