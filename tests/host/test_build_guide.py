"""`docs/build.md` and its pictures are generated from the board profiles and
are current; the figures follow the profile; README names only files in the repository."""

import json
import os
import re

import pytest

from support import ROOT
from host_tools.board import buildguide

DOCS = os.path.join(ROOT, "docs")


def test_build_guide_files_are_current():
    for name, text in buildguide.files().items():
        path = os.path.join(DOCS, name)
        assert os.path.exists(path), "docs/%s missing: run fleetref pictures" % name
        assert open(path).read() == text, "docs/%s is stale: run fleetref pictures" % name
    guide = open(os.path.join(DOCS, "build.md")).read()
    for img in re.findall(r"\]\(([^)]+\.svg)\)", guide):
        assert os.path.exists(os.path.join(DOCS, img)), img


def test_figures_follow_the_profile():
    board = json.load(open(os.path.join(ROOT, "boards", "pico-ws2812-16x16.json")))
    rows = dict(buildguide.power_rows(board))
    n = board["grid"]["w"] * board["grid"]["h"]
    assert rows["LEDs"] == str(n)
    d = board["display"]  # the dark LEDs' current is part of the limit (drivers/ws2812.py)
    pct = 100.0 * (d["budget_ma"] - d["idle_ma"] * n) / (n * 3 * d["ma_per_channel"])
    assert rows["so a frame is scaled to at most"] == "%.1f %% of full white" % pct
    # a changed profile changes the guide: pins in the diagram and the budget
    b2 = dict(board, display=dict(board["display"], pin=16, budget_ma=1000))
    svg = buildguide.wiring_svg(b2)
    assert svg != buildguide.wiring_svg(board)
    assert (
        dict(buildguide.power_rows(b2))["software limit for the LEDs (profile display.budget_ma)"]
        == "1000 mA"
    )
    guide = buildguide.guide_text()
    assert (
        "GP%d (pin %d)" % (board["display"]["pin"], buildguide.GP_PIN[board["display"]["pin"]])
        in guide
    )
    assert "band (cathode) faces the column" in guide and "top-left" in guide
    assert "74AHCT125" in guide


def test_keymap_pictures_show_each_rulesets_actions():
    from referee import rules

    board = json.load(open(os.path.join(ROOT, "boards", "pico-ws2812-16x16.json")))
    smb = buildguide.keymap_svg(board, "smb")
    assert ">rapid<" in smb and "held: attack" in smb  # smb's opt2 and alt1
    sw = buildguide.keymap_svg(board, "swsb")
    assert ">Fly Casual<" in sw  # swsb's first counter option
    assert len({buildguide.keymap_svg(board, r) for r in rules.RULESETS}) == len(rules.RULESETS)


def test_readme_names_only_files_in_the_repository():
    readme = open(os.path.join(ROOT, "README.md")).read()
    assert "../shared" not in readme and "<owner>" not in readme
    assert "Python 3.11" in readme and "Node.js" in readme
    for target in re.findall(r"\]\(([^)#]+)\)", readme):
        if "://" not in target:
            assert os.path.exists(os.path.join(ROOT, target)), target
    for path in re.findall(r"`((?:docs|firmware|host_tools|boards|tests|emu)/[^` ]+)`", readme):
        assert os.path.exists(os.path.join(ROOT, path.rstrip("/"))), path


def test_the_upstream_commits_are_the_kits():
    """docs/build.md's table of upstream sources names the tags and commits the kit pins
    (../shared/mpy-build/SOURCES), so a maker with internet rebuilds the same image."""
    from host_tools.board import buildguide_image, firmware_build

    path = os.path.join(firmware_build.kit_dir(), "SOURCES")
    if not os.path.isfile(path):
        pytest.skip("no ../shared/mpy-build/SOURCES beside this checkout")
    sources = open(path).read()
    guide = open(os.path.join(ROOT, "docs", "build.md")).read()
    for repo, tag, commit in buildguide_image.UPSTREAM:
        assert commit in sources, repo
        assert commit in guide
        if tag:
            assert tag in sources
    pinned = set(re.findall(r"\b[0-9a-f]{40}\b", sources)) - {
        "77e752abd6a0992334047a48038a5a3960e5c6bc"
    }
    assert pinned == {c for _, _, c in buildguide_image.UPSTREAM}  # all but btstack (unused)


def test_keypad_guide_shows_the_scenario_menus_keys():
    """firmware/referee/keypad_ui.py: while the scenario menu is open keys 0-11 are its
    entries, 13 loads (twice over a game in play), 14 or 12 leaves, 15 the next entry; the
    guide's keypad key maps show it, as a picture and in words."""
    from xml.etree import ElementTree as ET

    from referee.keypad_ui import MENU_ACTIONS

    kp = json.load(open(os.path.join(ROOT, "boards", "pimoroni-rgb-keypad.json")))
    assert MENU_ACTIONS == ("menu", "enter", "undo", "sel+")  # keys 12, 13, 14, 15
    labels = buildguide.menu_labels()
    assert [label for label, _ in labels[:12]] == ["entry %d" % k for k in range(1, 13)]
    assert [label for label, _ in labels[12:]] == [
        "leave menu",
        "load",
        "leave menu",
        "next entry",
    ]
    assert "twice" in labels[13][1]
    svg = buildguide.keymap_svg(kp, "swsb", "menu")
    texts = [t.text for t in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}text")]
    assert "load" in texts and "next entry" in texts and "entry 12" in texts
    name = "keymap-pimoroni-rgb-keypad-menu.svg"
    assert buildguide.files()[name] == svg
    guide = open(os.path.join(DOCS, "build.md")).read()
    assert "](%s)" % name in guide
    assert "key 13 loads" in guide and "key 14 or key 12 leaves" in guide
    assert "key 15 chooses the next entry" in guide


def _copy_board(folder, shipped, name, **changes):
    """Write boards/<shipped>.json under ``name`` into ``folder``, sections updated by
    ``changes`` (section: {key: value})."""
    board = json.load(open(os.path.join(ROOT, "boards", shipped + ".json")))
    board["name"] = name
    for section, values in changes.items():
        board[section] = dict(board[section], **values)
    with open(os.path.join(str(folder), name + ".json"), "w") as f:
        json.dump(board, f)


def test_a_new_board_profile_gets_its_guide_section_and_key_maps(tmp_path, monkeypatch):
    """A profile copied under a new name gets its section and pictures from the profile alone:
    the guide's code names no board but the default one."""
    from referee import rules
    from host_tools import paths

    folder = tmp_path / "boards"
    folder.mkdir()
    for shipped in ("pico-ws2812-16x16", "pimoroni-rgb-keypad"):
        _copy_board(folder, shipped, shipped)
    _copy_board(folder, "pico-ws2812-16x16", "maker-panel", display={"pin": 16})
    _copy_board(folder, "pimoroni-rgb-keypad", "maker-keypad", input={"sda": 8, "scl": 9})
    monkeypatch.setattr(paths, "BOARDS", str(folder))
    docs_before = {
        n: open(os.path.join(DOCS, n), "rb").read() for n in os.listdir(DOCS) if "." in n
    }
    out = tmp_path / "out"
    out.mkdir()
    written = buildguide.write(str(out))
    rulesets = sorted(rules.RULESETS)
    expected = {"wiring-maker-panel.svg", "keymap-maker-keypad-ships.svg"}
    expected |= {"keymap-maker-keypad-menu.svg"}
    expected |= {
        "keymap-%s-%s.svg" % (b, r) for b in ("maker-panel", "maker-keypad") for r in rulesets
    }
    assert expected <= set(written)
    guide = (out / "build.md").read_text()
    assert guide.startswith("# Build guide") and "Four boards run the same firmware" in guide
    assert "## maker-panel" in guide and "| WS2812 data" in guide.split("## maker-panel")[1]
    assert "GP16 (pin %d)" % buildguide.GP_PIN[16] in guide.split("## maker-panel")[1]
    assert "## The Pimoroni Pico RGB Keypad Base (`maker-keypad`)" in guide
    assert "| GP8 / GP9 |" in guide and "`--board maker-keypad`" in guide
    for name in expected:
        assert "](%s)" % name in guide, name
    assert "maker-panel" in (out / "keymap-maker-panel-swsb.svg").read_text()
    # the shipped boards' pictures come out of the same code unchanged; docs/ is not touched
    for name in ("keymap-pico-ws2812-16x16-swsb.svg", "keymap-pimoroni-rgb-keypad-menu.svg"):
        assert (out / name).read_bytes() == docs_before[name]
    assert docs_before == {n: open(os.path.join(DOCS, n), "rb").read() for n in docs_before}
