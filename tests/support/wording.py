"""Shared by the wording tests: rosters with their sides renamed, a simulator playing a docs
script on one with a mirror following it, and the scan for words that disagree (a plural
side with a singular verb, a singular side with a plural one, "1" with a plural noun)."""

import html
import io
import json
import os
import re
import time

from support import ROOT
from support.registries import script_plays

SCRIPTS = os.path.join(ROOT, "docs", "scripts")
# the docs scripts and the roster each one plays (each script's "# plays:" line)
PLAYS = script_plays()
# side 0, side 1: English plurals, and names that are one thing each
PLURAL = ("Imperials", "Rebels")
SINGULAR = ("Empire", "Rebel Alliance")

ONE = ("has", "holds", "wins", "is", "was", "moves", "attacks", "chooses", "does")
MANY = ("have", "hold", "win", "are", "were", "move", "attack", "choose", "do")
# nouns the views count; "1" before their plural is wrong
COUNTED = (
    "rolls",
    "turns",
    "counters",
    "events",
    "damage points",
    "hexes",
    "problems",
    "ships",
    "lines",
    "rounds",
    "bursts",
    "points",
    "board rolls",
    "physical rolls",
    "mismatches",
    "rolls verified",
    "earlier events",
    "earlier lines",
)


def renamed_roster(tmp_path, name, sides):
    """The shipped roster ``name`` with its two sides named ``sides``, written as
    ``<tmp_path>/<name>.json`` (the file name is the scenario's); returns its path."""
    with open(os.path.join(ROOT, "firmware", "rosters", name + ".json")) as f:
        r = json.load(f)
    for s, new in zip(r["sides"], sides):
        s["name"] = new
    path = tmp_path / (name + ".json")
    path.write_text(json.dumps(r))
    return str(path)


def disagreements(text, plural, singular):
    """The phrases of ``text`` where a verb disagrees with a side named in ``plural`` (plural
    names) or ``singular``, or "1" precedes a counted noun's plural (not a ship's number:
    "X-Wing 1 turns" would name the ship)."""
    bad = []
    for n in plural:
        bad += re.findall(r"\b%s (?:%s)\b" % (re.escape(n), "|".join(ONE)), text)
        bad += re.findall(r"\b%s \w+ first \(it \w+" % re.escape(n), text)
    for n in singular:
        bad += re.findall(r"\b%s (?:%s)\b" % (re.escape(n), "|".join(MANY)), text)
        bad += re.findall(r"\b%s \w+ first \(they \w+" % re.escape(n), text)
    for m in re.finditer(r"\b1 (?:%s)\b" % "|".join(COUNTED), text):
        before = text[: m.start()].rstrip().split(" ")[-1] if text[: m.start()].strip() else ""
        if not before[:1].isupper():
            bad.append(m.group(0))
    return bad


def side_verbs(text, names):
    """How often a side's name is followed by one of the verbs checked (the scan's reach)."""
    return sum(
        len(re.findall(r"\b%s (?:%s)\b" % (re.escape(n), "|".join(ONE + MANY)), text))
        for n in names
    )


def page_text(page):
    """The visible text of an HTML page (tags dropped, entities read)."""
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def follow_script(sim_factory, roster, script, log_path):
    """A headless simulator playing docs script ``script`` on roster file ``roster`` (dice
    seed 1), followed by a Mirror writing ``log_path``; returns (the simulator's final
    snapshot, the mirror, closed)."""
    from host_tools.link.mirror import Mirror

    sim = sim_factory(
        "--headless",
        "--seed",
        "1",
        "--roster",
        roster,
        "--script",
        os.path.join(SCRIPTS, script),
        "--wait-for-host",
        "--hold",
    )
    m = Mirror(sim.port, log=open(log_path, "w"), warn=lambda msg: None)
    m.open()
    m.sync()
    final = sim.final()
    end = time.monotonic() + 20
    while m.rep.game.seq < final["seq"] and time.monotonic() < end:
        m.pump(0.1)
    m.close()
    m.log.close()
    assert m.rep.game.seq == final["seq"]
    return final, m


def rendered(build, width, height):
    """The plain text of a view's ``build(width, height)`` on a fixed-size console."""
    from rich.console import Console

    con = Console(width=width, height=height, record=True, color_system=None, file=io.StringIO())
    con.print(build(width, height))
    return con.export_text()
