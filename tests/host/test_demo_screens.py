"""`fleetref demo`'s screens at 80x24 and 120x40 (a fixed-size rich console, recorded): the
whole script is played on the simulator and every screen is looked at. No word is broken
across lines, nothing runs past the screen's edge, all seven ships of Escape from Hoth show at
120x40, and at 80x24 the ships that do not fit are counted ("… N more ships"); at 60x20 the
grid's title is shortened at a word's end. The plain
narration, when printed on a terminal, breaks lines at the ends of words too."""

import re

import pytest

from host_tools.sim import demo, narrate
from host_tools import paths
from referee.app import ACTIONS
from referee.keymap import KeyMap
from support.wording import rendered

SHIPS = 7  # Escape from Hoth: Star Destroyer, 3 TIE Fighters, Troop Transport, 2 X-Wings


def words_of(screen):
    """Every word a screen of ``screen`` (the demo's view) may show: those of its sections'
    lines and of the grid's title, whole."""
    out = set("board grid (mirrored) … more".split())
    for sec in screen.sections():
        for t in sec.lines:
            out.update(t.plain.split())
        out.update(sec.what.split())
        out.update(w[:-1] for w in sec.what.split())  # "… 1 more ship"
    return out


def broken_words(text, words):
    """The tokens of ``text`` that are no whole word of ``words`` (grid cells and counts
    aside): the pieces of a word broken across lines."""
    return [
        tok
        for line in text.splitlines()
        for tok in line.split()
        if tok not in words and not re.fullmatch(r"[·█]+|\d+", tok)
    ]


@pytest.fixture(scope="module")
def screens():
    """The demo played line by line; after each line its screen at 80x24 and 120x40, with
    the words it may show: [(size, text, words)]."""
    proc, port = demo.start_sim(1)
    m = demo.demo_mirror(port)
    out = []
    try:
        m.open()
        m.sync()
        nar = narrate.Narrator(m, KeyMap(paths.board_profile(), ACTIONS))
        screen = demo.demo_screen(m, nar)
        for line in narrate.lines(open(demo.SCRIPT).read()):
            nar.play(line)
            words = words_of(screen)
            for size in ((80, 24), (120, 40), (60, 20)):  # 60x20: the grid's title shortens
                out.append((size, rendered(screen.build, *size), words))
        out.append(("told", nar.told, None))
    finally:
        m.close()
        proc.terminate()
        proc.wait(5)
    return out


def ships_shown(text):
    """(ships listed, ships said to be hidden) on a screen."""
    listed = len(re.findall(r"^.*[<>] .+: \d+/\d+ dmg", text, re.M))
    more = re.search(r"… (\d+) more ships?\b", text)
    return listed, int(more.group(1)) if more else 0


def test_no_word_is_broken_and_nothing_runs_off_the_screen(screens):
    for size, text, words in screens[:-1]:
        lines = text.splitlines()
        assert len(lines) <= size[1] and max(len(x) for x in lines) <= size[0], (size, text)
        assert broken_words(text, words) == [], (size, text)


def test_all_ships_show_at_120x40_and_hidden_ones_are_counted_at_80x24(screens):
    seen = 0
    for size, text, _ in screens[:-1]:
        listed, hidden = ships_shown(text)
        if size == (60, 20):
            continue
        if size == (120, 40):
            assert (listed, hidden) == (SHIPS, 0), text
        else:
            assert listed + hidden == SHIPS and listed >= 2, text
        seen += 1
    assert seen > 60  # the whole script, at both sizes


def test_the_plain_narration_breaks_lines_at_word_ends(screens):
    told = screens[-1][1]
    assert max(len(t) for _, t in told) > 80  # lines a terminal would break
    for style, text in told:
        printed = demo.wrapped(style, text, 80)
        assert max(len(x) for x in printed.splitlines()) <= 80, printed
        assert printed.split() == text.split()  # the same words, none broken
