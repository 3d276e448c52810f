"""Dice statistics of a saved game, per player and per source (the board's dice, physical
dice, or dice that cannot be checked), against the fair die's distribution.

Sources: ``board`` (a board roll with its roll record, checked by ``fleetref verify``),
``physical`` (initiative marked as physical dice, any roll recorded as physical) and
``unchecked``: rolls that CANNOT BE CHECKED, kept apart from the board's, whatever the event
(initiative, attack, Ion Cannon, overlap): no roll record (the board keeps them in RAM, a
restart loses those no mirror received and no save kept; a game with seeded test dice has
none), or a record whose secret the board lost in a restart before revealing it
(host_tools/files/dicelog.py).

:func:`stats` is what a report calls; ``python -m host_tools.files.dicestats GAME.json`` (or
``fleetref dicestats GAME.json``) prints it. Every board roll in the log counts, an undone one
too (the dice are judged, not the game: leaving out the rolls players undid would hide a
selective re-roll); a physical roll that was undone does not (undo and re-entry is how a
misread die is corrected, docs/dice.md). Which player rolled comes from the ruleset's hooks
(``dice_shown``, ``roller`` in firmware/referee/rules/): initiative has both players' d20s (seed
000 "initiative check"), an attack the attacker's player, the Ion Cannon the Rebel player
(seed 004), an overlap the moving ship's player (seed 003). The fit is Pearson's chi-square
test against a uniform die (faces - 1 degrees of freedom); with fewer than 5 expected rolls per
face the p-value is given but marked unreliable.
"""

import json
import math
import sys

from referee import rules, scenarios
from referee.events import EV_INIT, EV_UNDO
from referee.game import Game
from referee.texts import plural

COMMAND = "dicestats"  # fleetref dicestats; SUMMARY: its line in fleetref --help (cli.py)
SUMMARY = "each player's dice in a saved game against fair dice"

SOURCES = ("board", "physical", "unchecked")
LABELS = {"board": "board", "physical": "physical", "unchecked": "CANNOT BE CHECKED"}


def chi2_sf(x, df):
    """P(X >= x) for a chi-square variable with ``df`` degrees of freedom: the regularised
    upper incomplete gamma function Q(df/2, x/2) (series below a + 1, continued fraction
    above; Numerical Recipes 6.2)."""
    if x <= 0:
        return 1.0
    a, x = df / 2.0, x / 2.0
    gln = math.lgamma(a)
    if x < a + 1:
        ap, s, d = a, 1.0 / a, 1.0 / a
        for _ in range(1000):
            ap += 1
            d *= x / ap
            s += d
            if abs(d) < abs(s) * 1e-15:
                break
        return max(0.0, 1.0 - s * math.exp(-x + a * math.log(x) - gln))
    b = x + 1 - a
    c = 1e300
    d = 1 / b
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1e-300 if abs(d) < 1e-300 else d
        c = b + an / c
        c = 1e-300 if abs(c) < 1e-300 else c
        d = 1 / d
        h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return math.exp(-x + a * math.log(x) - gln) * h


def _group(faces, values):
    n = len(values)
    counts = [0] * faces
    for v in values:
        counts[v - 1] += 1
    e = n / faces
    chi2 = sum((o - e) ** 2 / e for o in counts) if n else 0.0
    return {
        "faces": faces,
        "n": n,
        "counts": counts,
        "mean": (sum(values) / n) if n else None,
        "expected_mean": (faces + 1) / 2,
        "chi2": chi2,
        "df": faces - 1,
        "p": chi2_sf(chi2, faces - 1) if n else None,
        "reliable": e >= 5,
    }


def rolls(roster, events, dice=None, start=None):
    """Every roll of one game, in log order. ``roster``: the game's roster (dict); ``events``:
    list of (seq, [kind, a, b, c]) from event 1 (or from ``start``'s seq + 1); ``dice``: the
    save file's dice record (or None); ``start``: optional Game standing where ``events``
    begin (a save file with a base state). Returns a list of dicts ``{"seq", "round",
    "source", "why", "dice": [[side, faces, value], ...], "undone" (an undo took it back),
    "counted" (in the statistics)}``; a roll whose side is unknown has side None. ``source``
    is "physical" (an initiative marked as physical dice, a roll recorded as physical),
    "board" (a board roll with its record) or "unchecked": a roll that CANNOT BE CHECKED, with
    ``why`` saying so ("no roll record": the board's records are in RAM, and a game without
    committed dice has none; "secret lost in a restart": its epoch was not revealed before the
    board restarted). Stops at the first event the rules refuse."""
    from host_tools.files.dicelog import revealed_keys

    if start is None:
        norm, _raw = scenarios.load_text(json.dumps(roster))
        start = Game(rules.get(norm["ruleset"]), norm, window=1 << 20)
    g = start
    recs = {r["seq"]: r for r in (dice or {}).get("rolls") or []}
    revealed = revealed_keys(dice or {})
    undone = _undone_seqs(events)
    out = []
    for seq, ev in events:
        ev = tuple(ev)
        if g.submit(ev):
            break
        rec = recs.get(seq)
        source = _source(g, ev, rec, dice, revealed)
        if source is None:
            continue
        src, why = source
        shown = g.rules.dice_shown(g, ev)
        if not shown and rec is not None:
            side = g.rules.roller(g, ev)
            shown = [(side, rec["s"], v) for v in rec["d"]]
        out.append(
            {
                "seq": seq,
                "round": g.round,
                "source": src,
                "why": why,
                "dice": [[side, faces, v] for side, faces, v in shown],
                "undone": seq in undone,
                # a corrected physical entry is left out of the statistics
                "counted": not (src == "physical" and seq in undone),
            }
        )
    return out


def _undone_seqs(events):
    """The seqs of the events an undo took back (each undo takes back the newest event still
    in effect). ``events``: list of (seq, [kind, a, b, c])."""
    undone = set()
    stack = []  # seqs in effect: an undo takes back the newest
    for seq, ev in events:
        if ev[0] == EV_UNDO:
            if stack:
                undone.add(stack.pop())
        else:
            stack.append(seq)
    return undone


def _source(g, ev, rec, dice, revealed):
    """Where the dice of event ``ev`` (just played on ``g``) came from, as (source, why)
    (:func:`rolls`), or None for an event that took no dice. ``rec``: its roll record or
    None; ``revealed``: dicelog.revealed_keys of ``dice``."""
    from host_tools.files.dicelog import secret_lost
    from host_tools.files.verify import took_dice

    if (ev[0] == EV_INIT and ev[3]) or (rec is not None and rec.get("phys")):
        return "physical", None
    if rec is None:
        if not took_dice(g, ev):
            return None
        return "unchecked", "no roll record"
    if secret_lost(dice, rec, revealed):
        return "unchecked", "secret lost in a restart"
    return "board", None


def stats(roster, events, dice=None, start=None):
    """Dice statistics of one game. ``roster``, ``events``, ``dice``, ``start``: as for
    :func:`rolls`. Returns {"sides": [name, name], "groups": [dict(side, source, faces, n,
    counts, mean, expected_mean, chi2, df, p, reliable), ...]} with one group per side, source
    and die."""
    if start is None:
        norm, _raw = scenarios.load_text(json.dumps(roster))
        start = Game(rules.get(norm["ruleset"]), norm, window=1 << 20)
    names = list(start.side_names)
    rolled = {}
    for r in rolls(roster, events, dice, start):
        if not r["counted"]:
            continue
        for side, faces, v in r["dice"]:
            if side is not None and 1 <= v <= faces:
                rolled.setdefault((side, r["source"], faces), []).append(v)
    groups = []
    for side, src, faces in sorted(rolled, key=lambda k: (k[0], SOURCES.index(k[1]), k[2])):
        gr = _group(faces, rolled[(side, src, faces)])
        gr.update(side=side, source=src)
        groups.append(gr)
    return {"sides": names, "groups": groups}


def stats_of_file(path):
    """:func:`stats` of a save file (``fleetref save``) or a mirror log (``fleetref mirror
    --log``), with ``rolls`` (the :func:`rolls` it counted). Raises ValueError / OSError."""
    from host_tools.files import gamefile, savefile

    data = gamefile.load(path)
    savefile.verify(data)
    events = [(e["seq"], e["ev"]) for e in data["events"]]
    st = stats(data["game"]["roster"], events, data.get("dice"), gamefile.start_game(data))
    st["rolls"] = rolls(
        data["game"]["roster"], events, data.get("dice"), gamefile.start_game(data)
    )
    return st


def summary(rs):
    """One line counting the rolls of :func:`rolls` ``rs`` per source, naming the events of
    those that cannot be checked."""
    n = {s: [r["seq"] for r in rs if r["source"] == s] for s in SOURCES}
    out = "%s, %s" % (
        plural(len(n["board"]), "board roll"),
        plural(len(n["physical"]), "physical roll"),
    )
    if n["unchecked"]:
        out += (
            ", %d CANNOT BE CHECKED (no roll record, or its secret lost in a restart): "
            "events %s" % (len(n["unchecked"]), ", ".join(str(s) for s in n["unchecked"]))
        )
    return out


def lines(st):
    """The statistics as text lines (a summary of the rolls first when ``st`` has them)."""
    out = [summary(st["rolls"])] if st.get("rolls") else []
    for gr in st["groups"]:
        out.append(
            "%s, %s d%d: %s, mean %.2f (fair %.1f), chi-square %.2f on %d df, "
            "p = %.3f%s"
            % (
                st["sides"][gr["side"]],
                LABELS[gr["source"]],
                gr["faces"],
                plural(gr["n"], "roll"),
                gr["mean"],
                gr["expected_mean"],
                gr["chi2"],
                gr["df"],
                gr["p"],
                "" if gr["reliable"] else " (too few rolls for the test)",
            )
        )
        out.append("    faces 1..%d: %s" % (gr["faces"], " ".join(str(c) for c in gr["counts"])))
    return out if st["groups"] else out + ["no dice in this game"]


def add_arguments(p):
    p.add_argument("game", help="a saved game (fleetref save) or a fleetref mirror --log file")
    p.add_argument("--json", action="store_true", help="print the statistics as JSON")


def main(args):
    try:
        st = stats_of_file(args.game)
    except (OSError, ValueError) as e:
        print("fleetref dicestats: %s" % e, file=sys.stderr)
        return 2
    print(json.dumps(st) if args.json else "\n".join(lines(st)))
    return 0


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser(prog="dicestats", description=(__doc__ or "").split("\n\n")[0])
    add_arguments(ap)
    sys.exit(main(ap.parse_args()))
