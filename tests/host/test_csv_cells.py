"""CSV written for spreadsheets never carries a formula: a ship named like one
(``=HYPERLINK(...)``) in `fleetref report --csv` and a table or side named like one in the
dashboard's results CSV come out as text (a leading apostrophe), numbers unchanged."""

import csv
import json
import os

from support import ROOT
from support.process import SimProcess
from support.reportgames import cli
from support.process import drive
from host_tools.files.csvcell import cell, row

FORMULA = '=HYPERLINK("x.invalid")'


def test_cells_that_start_like_a_formula_become_text():
    assert [cell(v) for v in ("=1+2", "+1", "-1", "@SUM(A1)", "\tx", "plain", 3, -4, None)] == [
        "'=1+2",
        "'+1",
        "'-1",
        "'@SUM(A1)",
        "'\tx",
        "plain",
        3,
        -4,
        None,
    ]
    assert row(["ok", "=x"]) == ["ok", "'=x"]


def test_report_csv_of_a_game_with_a_formula_named_ship(tmp_path):
    roster = json.load(open(os.path.join(ROOT, "firmware", "rosters", "swsb-example.json")))
    roster["sides"][0]["ships"][0]["name"] = FORMULA
    path = tmp_path / "formula.json"
    path.write_text(json.dumps(roster))
    sim = SimProcess("--headless", "--hold", "--roster", str(path), "--seed", "1")
    try:
        got = drive(
            sim.port,
            [{"c": "roll", "values": [12, 4]}]
            + [{"c": "phase"}] * 3
            + [{"c": "hit", "ship": FORMULA, "n": 1}],
        )
        assert not [m for m in got if m["t"] == "err"], got
        save = tmp_path / "game.json"
        r = cli("save", str(save), "--port", sim.port)
        assert r.returncode == 0, r.stderr
    finally:
        sim.stop()
    out = tmp_path / "events.csv"
    r = cli("report", str(save), "--csv", str(out))
    assert r.returncode == 0, r.stderr
    rows = list(csv.reader(open(out, newline="", encoding="utf-8")))
    texts = [r[3] for r in rows[1:]]
    assert any(FORMULA in t for t in texts)  # the name is kept, readable
    for r in rows:
        for c in r:
            assert not c.startswith(("=", "+", "-", "@")), r


def test_dashboard_results_csv_keeps_formula_names_as_text():
    """A table called like a formula (a topic level is any text) in the results CSV."""
    from support.game import new_game
    from host_tools.tournament import tables

    g = new_game("hoth")
    snap = g.snapshot()
    snap.update(gid="g1", board_hash=snap["state_hash"], hash_match=True, t=100.0)
    tb = tables.Tables("cup", 300, warn=lambda m: None, clock=lambda: 100.0)
    tb.take("fleetref/cup/=1+2/state", json.dumps(snap))
    rows = list(csv.reader(tb.results_csv().splitlines()))
    assert rows[1][0] == "'=1+2" and rows[1][1] == "Escape from Hoth"
