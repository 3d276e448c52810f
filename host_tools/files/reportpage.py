"""The battle report's page (``fleetref report``, host_tools/files/report.py): the model of a
saved game (report.analyse) as one self-contained HTML page, its pictures embedded as PNG:
the result, the fleets, the initiative history, the round-by-round account, every roll and
each player's dice statistics against a fair die."""

import base64
import html

from host_tools.files import dicestats
from referee.events import EV_PHASE
from referee.texts import plural

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


STATS_HEAD = (
    "player",
    "source",
    "die",
    "rolls",
    "count per face (1..)",
    "expected a face",
    "mean",
    "chi-square",
    "p",
)


def _stats_row(m, gr):
    """One group of dice (a player's dice of one source and size) as a row of STATS_HEAD."""
    return (
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
            "%.3f%s" % (gr["p"], "" if gr["reliable"] else " (too few rolls for the test)"),
        ],
    )


def _verified(v):
    """The board rolls checked against the revealed secrets (a fleetref verify result)."""
    bad = v["bad"] + v["problems"]
    return (
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


def _stats(m, png):
    st = m["stats"]
    if not st["groups"]:
        return "<p>No dice to judge.</p>"
    out = [
        _table(STATS_HEAD, [_stats_row(m, gr) for gr in st["groups"]]),
        (
            '<p class="meta">Pearson\'s chi-square test against a fair die; a small p (below '
            "0.01) says the dice behaved unlike fair dice. Board rolls taken back by an undo "
            "count; a corrected physical entry does not.</p>"
        ),
    ]
    if png:
        out.append(_img(png, "dice per face against a fair die"))
    if m["verified"] is not None:
        out.append(_verified(m["verified"]))
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
