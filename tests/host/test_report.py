"""`fleetref report` (with the dice statistics): the battle
report of games played on the simulator from the shipped scenarios' scripts, one per ruleset,
saved with `fleetref save`. What the report must show is read from the save file itself (the
board's snapshot and event log), never from the report's own code."""

import base64
import csv
import html
import json
import re

import pytest

from support.reportgames import GAMES, cli, load, play_and_save
from host_tools.files import gamefile, report
from host_tools.files.savefile import SaveError
from support.process import python

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    folder = tmp_path_factory.mktemp("games")
    return {rs: play_and_save(rs, folder) for rs in GAMES}


def pngs(page):
    return [base64.b64decode(m) for m in re.findall(r'src="data:image/png;base64,([^"]+)"', page)]


def roll_rows(page):
    """The roll table's rows as (event, source cell text)."""
    part = page.split("<h2>Every roll</h2>", 1)[1].split("<h2>", 1)[0]
    rows = re.findall(r"<tr class=\"(\w+)\"><td>(\d+)</td>.*?</tr>", part)
    return {int(seq): cls for cls, seq in rows}


@pytest.mark.parametrize("ruleset", sorted(GAMES))
def test_report_of_every_ruleset(games, tmp_path, ruleset):
    path, _log = games[ruleset]
    data = load(path)
    out = tmp_path / "report.html"
    r = cli(
        "report",
        path,
        "-o",
        str(out),
        "--csv",
        str(tmp_path / "ev.csv"),
        "--png",
        str(tmp_path / "plot.png"),
    )
    assert r.returncode == 0, r.stderr
    page = out.read_text()
    snap = data["snapshot"]
    for ship in snap["ships"]:
        assert html.escape(ship["name"]) in page
    for side in snap["sides"]:
        assert html.escape(side) in page
    if snap["winner"] is not None:
        assert re.search(
            r'Winner: <span class="s%d">%s</span>'
            % (snap["winner"], re.escape(html.escape(snap["sides"][snap["winner"]]))),
            page,
        )
    else:
        assert "No winner yet" in page and "round %d" % snap["round"] in page
    images = pngs(page)
    assert len(images) >= 1 and all(i.startswith(PNG) for i in images)
    assert (tmp_path / "plot.png").read_bytes() == images[0]
    # self-contained: nothing is fetched from elsewhere
    assert (
        not re.search(r'(src|href)="(?!data:)', page)
        and "http://" not in page
        and "https://" not in page
    )
    # every roll with its source: initiative events carry it (c = 1 physical), other rolls
    # the board's roll records
    want = {}
    for e in data["events"]:
        if e["ev"][0] == 1:
            want[e["seq"]] = "physical" if e["ev"][3] else "board"
    for rec in data["dice"]["rolls"]:
        want[rec["seq"]] = "physical" if rec.get("phys") else "board"
    assert roll_rows(page) == want
    for seq, src in want.items():
        assert "%s dice" % src in page
    # each player's statistics against a fair die
    stats = page.split("<h2>Dice statistics</h2>", 1)[1]
    if want:
        assert "chi-square" in stats and "expected a face" in stats
        for side in {d for e in data["events"] if e["ev"][0] == 1 for d in (0, 1)}:
            assert html.escape(snap["sides"][side]) in stats
    # the account is the firmware's event texts, round by round: every round played (the
    # end of a round is its own; a round the log only reached was never played)
    played = max(r["played_round"] for r in report.analyse(gamefile.load(path))["records"])
    for n in range(1, played + 1):
        assert "<h3>Round %d</h3>" % n in page
    assert "<h3>Round %d</h3>" % (played + 1) not in page
    rows = list(csv.DictReader(open(tmp_path / "ev.csv", newline="")))
    assert [int(x["seq"]) for x in rows] == [e["seq"] for e in data["events"]]
    assert [x["hash"] for x in rows] == [e["hash"] for e in data["events"]]
    assert all(x["text"] and x["phase"] for x in rows)
    assert int(rows[-1]["round"]) == snap["round"] and rows[-1]["phase"] == snap["phase"]
    for x in rows:
        if x["text"] not in ("",) and not x["text"].startswith("Next phase"):
            assert html.escape(x["text"]) in page


def test_board_and_physical_rolls_and_verification_in_one_report(games):
    # swsb's script enters physical dice; the board rolled the last initiative
    path, _ = games["swsb"]
    m = report.analyse(gamefile.load(path))
    page = report.html_page(m, PNG + b"x")
    srcs = roll_rows(page)
    assert set(srcs.values()) == {"board", "physical"}
    by = {(g["side"], g["source"]): g["n"] for g in m["stats"]["groups"]}
    phys = sum(1 for s in srcs.values() if s == "physical")
    assert by[(0, "physical")] == by[(1, "physical")] == phys
    assert by[(0, "board")] == by[(1, "board")] == 1
    assert "1 verified" in page
    # hit points per round: one value per side at the start and after each round
    assert len(m["hp_rounds"]["labels"]) == m["round"] + 1
    assert all(len(v) == m["round"] + 1 for v in m["hp_rounds"]["values"])


def test_hit_points_follow_the_damage(games):
    path, _ = games["smb"]
    data = load(path)
    m = report.analyse(gamefile.load(path))
    snap = data["snapshot"]
    for s in (0, 1):
        left = sum(sum(sh["hp"]) - sh["damage"] for sh in snap["ships"] if sh["side"] == s)
        assert m["hp_rounds"]["values"][s][-1] == left
        assert m["hp_rounds"]["values"][s][0] == sum(
            sum(sh["hp"]) for sh in snap["ships"] if sh["side"] == s
        )


def test_a_mirror_log_gives_the_same_events(games, tmp_path):
    path, log = games["xwing-overlap"]
    r = cli("report", log, "--csv", str(tmp_path / "log.csv"))
    assert r.returncode == 0, r.stderr
    r = cli("report", path, "--csv", str(tmp_path / "save.csv"))
    assert (tmp_path / "log.csv").read_text() == (tmp_path / "save.csv").read_text()


def bad_files(tmp_path, good):
    text = open(good).read()
    data = json.loads(text)
    data["events"][3]["ev"][1] ^= 1
    yield "missing", str(tmp_path / "nothing.json")
    for name, body in [
        ("half", text[: len(text) // 2]),
        ("array", "[1, 2]"),
        ("empty", ""),
        ("tampered", json.dumps(data)),
        ("binary", None),
    ]:
        p = tmp_path / name
        if body is None:
            p.write_bytes(b"\xff\xfe\x00garbage")
        else:
            p.write_text(body)
        yield name, str(p)


def test_bad_files_one_line_and_non_zero(games, tmp_path):
    for name, p in bad_files(tmp_path, games["smb"][0]):
        r = cli("report", p, "-o", str(tmp_path / "x.html"))
        assert r.returncode == 2, name
        assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr, (
            name,
            r.stderr,
        )
        assert r.stderr.startswith("fleetref report: "), r.stderr
        with pytest.raises(SaveError):
            report.analyse(gamefile.load(p))
    assert not (tmp_path / "x.html").exists()


def test_unwritable_output_is_one_line(games, tmp_path):
    r = cli("report", games["smb"][0], "-o", str(tmp_path / "no" / "such" / "dir.html"))
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1
    assert "cannot write" in r.stderr


def test_readme_picture_is_drawn_by_code(tmp_path):
    import os
    from PIL import Image
    from support import ROOT

    out = tmp_path / "plot.png"
    r = python(
        "-m", "devtools.reportpicture", "--out", str(out), "--html", str(tmp_path / "r.html")
    )
    assert r.returncode == 0, r.stderr
    shipped = os.path.join(ROOT, "docs", "report-plot.png")
    assert Image.open(out).size == Image.open(shipped).size
    page = (tmp_path / "r.html").read_text()
    assert "Winner: " in page and "Star Destroyer" in page
    assert "docs/report-plot.png" in open(os.path.join(ROOT, "README.md")).read()
