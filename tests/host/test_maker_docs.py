"""What a maker building the default board reads and prints: the parts lists (README.md and
docs/build.md) agree and name the level shifter; the power budget counts the dark LEDs'
current and its figures in the guide are the firmware's; `fleetref pictures` says in one line
what to install when a drawing package is missing; the screen-layout picture's bands are the
renderer's; the wiring diagram draws the whole key matrix with K-numbers and no overlapping
labels; the legend fits A4 and Letter, keys the status LED, has no counter chart for rulesets
without counters, and writes PDF; the cautions (Pico 2, inrush) are in both documents."""

import importlib
import json
import os
import re
import subprocess
import sys
import tomllib
import xml.etree.ElementTree as ET

import pytest

from support import FAKES, ROOT
from support.game import default_board
from host_tools.board import buildguide_power, legend, pictures
from support.process import python

DOCS = os.path.join(ROOT, "docs")
NS = "{http://www.w3.org/2000/svg}"


def _read(*parts):
    with open(os.path.join(ROOT, *parts), encoding="utf-8") as f:
        return f.read()


def parts_table(text):
    """The rows of the first "| qty | part | note |" table in Markdown ``text``."""
    lines = text.splitlines()
    i = lines.index("| qty | part | note |")
    rows = []
    for line in lines[i + 2 :]:
        if not line.startswith("|"):
            break
        rows.append(tuple(c.strip() for c in line.strip("|").split("|")))
    return rows


# -- parts lists ---------------------------------------------------------------------------


def test_parts_lists_agree_and_name_the_level_shifter():
    readme, guide = _read("README.md"), _read("docs", "build.md")
    ours, theirs = parts_table(readme), parts_table(guide)
    assert ours == theirs
    assert any("74AHCT125" in part for _, part, _ in ours)
    assert any("1N4148" in part for _, part, _ in ours)
    # the sentence in "Flash a real Pico" that lists the parts names the shifter too
    sentence = readme[readme.index("Parts: a Raspberry Pi Pico") :]
    assert "74AHCT125" in sentence[: sentence.index("\n\n")]


# -- power budget --------------------------------------------------------------------------


def _budget_rows(guide):
    text = guide[guide.index("### Power budget") :]
    return {m.group(1): m.group(2) for m in re.finditer(r"^\| (.+?) \| (.+?) \|$", text, re.M)}


def test_profile_counts_the_dark_leds():
    d = default_board()["display"]
    assert isinstance(d["idle_ma"], int)  # the firmware's current arithmetic is integer
    assert d["idle_ma"] >= buildguide_power.WS2812B_STATIC_MA > 0


def test_budget_in_the_guide_is_the_firmwares(monkeypatch):
    """The guide's figures are the computation's, and the firmware's scaling keeps a full-white
    frame plus the dark LEDs' current within the limit the guide states."""
    board = default_board()
    d, n = board["display"], board["grid"]["w"] * board["grid"]["h"]
    rows = _budget_rows(_read("docs", "build.md"))
    assert rows["all %d LEDs dark" % n] == "%d mA" % (d["idle_ma"] * n)
    assert rows["left for colour after the dark LEDs"] == "%d mA" % (
        d["budget_ma"] - d["idle_ma"] * n
    )
    total = int(rows["total at the limit"].split()[0])
    assert total == d["budget_ma"] + buildguide_power.PICO_MA
    supply = int(re.search(r"at least (\d+) mA", rows["supply to use (5 V)"]).group(1))
    assert supply >= total
    guide = _read("docs", "build.md")
    assert "Worldsemi WS2812B-V5 datasheet" in guide and "0.6 mA" in guide
    # the firmware (drivers/ws2812.py, on fake rp2/machine modules) with the profile's figures
    monkeypatch.syspath_prepend(FAKES)
    for m in [m for m in sys.modules if m in ("machine", "rp2") or m.startswith("drivers")]:
        monkeypatch.delitem(sys.modules, m)
    ws = importlib.import_module("drivers.ws2812")
    g = board["grid"]
    panel = ws.WS2812Panel.from_profile(d, board)
    assert (panel.w, panel.h, panel.budget_ma, panel.idle_ma) == (
        g["w"],
        g["h"],
        d["budget_ma"],
        d["idle_ma"],
    )
    panel.show(bytearray([255] * (n * 3)))
    level = (255 * panel.last_scale) >> 16
    colour = n * 3 * level / 255 * d["ma_per_channel"]
    assert colour + d["idle_ma"] * n <= d["budget_ma"]
    assert colour > d["budget_ma"] - d["idle_ma"] * n - n * 3 * d["ma_per_channel"] / 255
    for m in [m for m in sys.modules if m in ("machine", "rp2") or m.startswith("drivers")]:
        del sys.modules[m]


def test_cautions_in_both_documents():
    for text in (_read("README.md"), _read("docs", "build.md")):
        assert "Pico 2 (RP2350) is not supported" in text
        assert "Inrush" in text and "VBUS" in text and "soft-start" in text


# -- fleetref pictures without its drawing packages ---------------------------------------


def test_demo_install_has_what_pictures_draws_with():
    """`make demo` installs pyproject.toml's main dependencies (pip install -e .)."""
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        deps = tomllib.load(f)["project"]["dependencies"]
    names = {re.split(r"[<>=!~ \[]", d, maxsplit=1)[0].lower() for d in deps}
    for _, dist in pictures.NEEDS:
        assert dist in names, dist


@pytest.mark.parametrize("module", ["schemdraw", "PIL"])
def test_pictures_says_what_to_install(tmp_path, module):
    code = (
        "import sys; sys.modules[%r] = None\n"  # as if the package were not installed
        "from host_tools import cli\n"
        "sys.exit(cli.main(['pictures', '--out', %r]))" % (module, str(tmp_path / "out"))
    )
    r = python("-c", code)
    assert r.returncode == 2
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1
    dist = dict(pictures.NEEDS)[module]
    assert "needs the Python package %s" % dist in r.stderr and "pip install" in r.stderr
    assert not (tmp_path / "out").exists()  # nothing written


# -- screen layout -------------------------------------------------------------------------


def _frame(app):
    from referee.render import Renderer

    w, h = app.board["grid"]["w"], app.board["grid"]["h"]
    fb = Renderer(w, h).render(app)
    return {
        (y, x): tuple(fb[(y * w + x) * 3 : (y * w + x) * 3 + 3])
        for y in range(h)
        for x in range(w)
    }


def _band(bands, word):
    ((rows, cols),) = [(r, c) for name, r, c in bands if name.startswith(word)]
    return {(y, x) for y in rows for x in cols}


def test_screen_layout_bands_are_what_the_renderer_paints():
    from referee import palette, render

    app = pictures.sample_app()
    w, h = app.board["grid"]["w"], app.board["grid"]["h"]
    bands = pictures.layout_bands(w, h, app.game.option_count)
    px = _frame(app)
    lit = {k for k, c in px.items() if c != (0, 0, 0)}
    assert lit <= set().union(*(_band(bands, n) for n, _, _ in bands))
    # each kind of pixel in its own band
    status = _band(bands, "status")
    assert {
        k
        for k, c in px.items()
        if c in (render.WHITE, render.CYAN, render.MAGENTA) and k[0] >= 2 and k[0] < h - 2
    } <= status
    assert [c for k, c in px.items() if k in status].count(render.CYAN) == 1  # the mark
    counters = _band(bands, "command counters")
    assert {k for k, c in px.items() if c in (render.YELLOW, render.DIM_YELLOW)} <= counters
    chart = _band(bands, "fleet command chart")
    opts = {k for k, c in px.items() if c in palette.OPTION_RGB and k[0] == h - 2}
    assert opts and opts <= chart
    phases = _band(bands, "phase pips")
    assert {k for k, c in px.items() if c in (palette.PURPLE, palette.DIM_PURPLE)} <= phases
    dice = _band(bands, "last initiative roll")
    assert {k for k in lit if k[0] == h - 1} <= dice and any(k[0] == h - 1 for k in lit)
    # the round's bits: round 255 lights exactly the round band
    app.game.round = 255
    px = _frame(app)
    assert {k for k, c in px.items() if k[0] == 0 and c == render.WHITE} == _band(bands, "round")
    # a ruleset without fleet command counters has no chart band
    assert not [b for b in pictures.layout_bands(w, h, 0) if "chart" in b[0]]


# -- wiring diagram ------------------------------------------------------------------------


def _wiring_labels(board, monkeypatch):
    """The wiring diagram's texts as (text, (x0, y0, x1, y1)) in SVG points, as schemdraw
    places and sizes them."""
    from schemdraw.backends import svgtext
    from host_tools.board import buildguide_wiring

    seen = []
    real = svgtext.text_tosvg

    def spy(text, x, y, *a, **kw):
        seen.append((text, x, y, kw))
        return real(text, x, y, *a, **kw)

    monkeypatch.setattr(svgtext, "text_tosvg", spy)
    buildguide_wiring.wiring_svg(board)
    out = []
    for text, x, y, kw in seen:
        w, h, _ = svgtext.text_approx_size(text, font=kw.get("font", "sans"), size=kw["size"])
        ha, va = kw.get("halign", "center"), kw.get("valign", "center")
        x0 = {"center": x - w / 2, "left": x, "right": x - w}[ha]
        y0 = {"center": y - h / 2, "top": y, "bottom": y - h, "base": y - kw["size"]}[va]
        assert not kw.get("rotation"), text
        out.append((text, (x0, y0, x0 + w, y0 + h)))
    return out


def _overlaps(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("rows,cols", [(4, 4), (3, 5)])
def test_wiring_diagram_draws_every_key_without_overlapping_labels(monkeypatch, rows, cols):
    board = default_board()
    gp = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11]
    board["input"] = dict(board["input"], rows=gp[:rows], cols=gp[rows : rows + cols])
    labels = _wiring_labels(board, monkeypatch)
    keys = {t: box for t, box in labels if re.fullmatch(r"K\d+", t)}
    assert set(keys) == {"K%d" % i for i in range(rows * cols)}
    for r in range(rows):  # K<row * columns + column>: the key maps' numbering
        for c in range(cols):
            k = keys["K%d" % (r * cols + c)]
            if c:
                assert k[0] > keys["K%d" % (r * cols + c - 1)][0]
            if r:
                assert k[1] > keys["K%d" % ((r - 1) * cols + c)][1]  # lower on the page
    for i, (t1, b1) in enumerate(labels):
        for t2, b2 in labels[i + 1 :]:
            assert not _overlaps(b1, b2), "%r overlaps %r" % (t1, t2)
    texts = [t for t, _ in labels]
    assert "74AHCT125" in texts and "330 Ω" in texts


def test_committed_wiring_diagram_has_the_matrix():
    svg = _read("docs", "wiring-pico-ws2812-16x16.svg")
    texts = {"".join(t.itertext()).strip() for t in ET.fromstring(svg).iter(NS + "text")}
    assert {"K%d" % i for i in range(16)} <= texts


# -- the legend ----------------------------------------------------------------------------


def _legend(tmp_path, *args):
    r = subprocess.run(
        [sys.executable, "-m", "host_tools.cli", "legend", *args],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=dict(os.environ, PYTHONPATH=ROOT),
        check=False,
    )
    return r


def _mm(v):
    return float(v.replace("mm", ""))


@pytest.mark.parametrize("page,size", [("a4", (210.0, 297.0)), ("letter", (215.9, 279.4))])
def test_legend_fits_the_page(tmp_path, page, size):
    out = tmp_path / "l.svg"
    r = _legend(tmp_path, "--scenario", "hoth", "--page", page, "--out", str(out))
    assert r.returncode == 0, r.stderr
    root = ET.parse(out).getroot()
    assert (_mm(root.get("width")), _mm(root.get("height"))) == size
    # everything inside the margins of both A4 and Letter: the same legend prints on either
    right, bottom = 215.9 - legend.MARGIN, 279.4 - legend.MARGIN
    right = min(right, 210.0 - legend.MARGIN)
    for e in root:
        if e.tag == NS + "rect":
            x, y = float(e.get("x")), float(e.get("y"))
            assert x >= legend.MARGIN - 1e-6 and x + float(e.get("width")) <= right + 1e-6
            assert y >= legend.MARGIN - 1e-6 and y + float(e.get("height")) <= bottom + 1e-6
        elif e.tag == NS + "text":
            x, y, fs = float(e.get("x")), float(e.get("y")), float(e.get("font-size"))
            w = legend.CHAR_W * fs * len(e.text or "")
            x0 = {"end": x - w, "middle": x - w / 2}.get(e.get("text-anchor"), x)
            assert legend.MARGIN - 1e-6 <= x0 and x0 + w <= right + 1e-6, e.text
            assert legend.MARGIN <= y - fs and y + fs <= bottom, e.text


def test_legend_keys_every_status_colour(tmp_path):
    from referee import render

    out = tmp_path / "l.svg"
    assert _legend(tmp_path, "--scenario", "hoth", "--out", str(out)).returncode == 0
    root = ET.parse(out).getroot()
    items = list(root)
    status = [
        (items[i - 1], e.text)
        for i, e in enumerate(items)
        if e.tag == NS + "text" and e.get("class") == "status"
    ]
    consts = sorted((v, k) for k, v in vars(render).items() if k.startswith("ST_"))
    assert len(status) == len(consts) == len(render.STATUS_RGB) - 1
    for (swatch, text), (v, k) in zip(status, consts):
        assert text == k[3:].lower().replace("_", " ")
        c = render.STATUS_RGB[v]
        assert swatch.get("fill") == "rgb(%d,%d,%d)" % tuple(
            int(255 * (x / 255) ** 0.5) for x in c
        )


def test_legend_has_no_counter_chart_without_counters(tmp_path):
    h = default_board()["grid"]["h"]
    for scenario, ruleset, chart in (("hoth", "smb", False), ("swsb-example", "swsb", True)):
        out = tmp_path / (scenario + ".svg")
        assert _legend(tmp_path, "--scenario", scenario, "--out", str(out)).returncode == 0
        root = ET.parse(out).getroot()
        assert json.loads(_read("firmware", "rosters", scenario + ".json"))["ruleset"] == ruleset
        texts = [(t.get("data-row"), t.text or "") for t in root.iter(NS + "text")]
        assert any("chart" in t for _, t in texts) == chart
        assert any(row == str(h - 2) for row, _ in texts) == chart


def test_legend_writes_pdf(tmp_path):
    r = _legend(tmp_path, "--scenario", "hoth", "--pdf")
    assert r.returncode == 0, r.stderr
    data = (tmp_path / "hoth-legend.pdf").read_bytes()
    assert data.startswith(b"%PDF-") and b"%%EOF" in data[-64:]
    box = [float(v) for v in re.search(rb"/MediaBox \[ *([\d. ]+)\]", data).group(1).split()]
    assert [round(v / 72 * 25.4, 1) for v in box[2:]] == [210.0, 297.0]
    r = _legend(tmp_path, "--scenario", "hoth", "--page", "letter", "--out", "x.pdf")
    assert r.returncode == 0, r.stderr
    data = (tmp_path / "x.pdf").read_bytes()
    box = [float(v) for v in re.search(rb"/MediaBox \[ *([\d. ]+)\]", data).group(1).split()]
    assert [round(v) for v in box[2:]] == [612, 792]  # 8.5 x 11 in


def test_legend_refuses_in_one_line(tmp_path):
    for args in (["--pitch", "14"], ["--out", "x.png"], ["--pdf", "--out", "x.svg"]):
        r = _legend(tmp_path, "--scenario", "hoth", *args)
        assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr
        assert "Traceback" not in r.stderr
    assert os.listdir(tmp_path) == []
