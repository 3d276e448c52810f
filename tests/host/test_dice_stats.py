"""Dice statistics per player and source: counts worked out from the rolls
entered, the chi-square test against a table value, and board rolls told from physical ones."""

import hashlib

import pytest

from host_tools.files.dicestats import chi2_sf, stats, lines
from support.dice import Board


@pytest.mark.parametrize(
    "x,df,p",
    [
        (30.144, 19, 0.05),
        (36.191, 19, 0.01),
        (11.070, 5, 0.05),
        (3.841, 1, 0.05),
        (18.307, 10, 0.05),
        (1.0, 19, 1.0),
    ],
)
def test_chi2_survival_matches_the_table(x, df, p):
    # critical values from the standard chi-square table; chi2 = 1 on 19 df is ~1.0
    assert chi2_sf(x, df) == pytest.approx(p, abs=5e-4)


def test_physical_initiative_rolls_counted_per_player():
    b = Board("swsb-example")
    entered = [(20, 3), (20, 7), (14, 2), (20, 19)]  # side 0 wins each: no tie, no reroll
    for a, c in entered:
        b.serial({"c": "roll", "values": [a, c]})
        for _ in range(5):
            b.serial({"c": "phase"})
    b.key("roll")  # one board roll of both sides
    _seq, ev = b.events[-1]
    st = stats(b.game["roster"], b.events, b.log.as_dict())
    by = {(gr["side"], gr["source"]): gr for gr in st["groups"]}
    p0, p1 = by[(0, "physical")], by[(1, "physical")]
    assert p0["n"] == 4 and p0["counts"][19] == 3 and p0["counts"][13] == 1
    assert p0["mean"] == pytest.approx(74 / 4) and p0["expected_mean"] == 10.5
    # by hand: expected 0.2 a face; 18 empty faces give 0.2 each, 14 gives (1-0.2)^2/0.2 = 3.2,
    # 20 gives (3-0.2)^2/0.2 = 39.2
    assert p0["chi2"] == pytest.approx(18 * 0.2 + 3.2 + 39.2)
    assert p0["p"] < 0.01 and not p0["reliable"]
    assert sorted(v for v, c in enumerate(p1["counts"], 1) for _ in range(c)) == [2, 3, 7, 19]
    assert by[(0, "board")]["n"] == 1 and by[(0, "board")]["counts"][ev[1] - 1] == 1
    assert by[(1, "board")]["counts"][ev[2] - 1] == 1
    text = "\n".join(lines(st))
    assert st["sides"][0] in text and "physical d20: 4 rolls" in text


def test_board_dice_fit_a_fair_die():
    # 4000 d20 and d6 from the documented construction with a fixed secret: a fair die's
    # statistic (not a timed or random test: the same numbers every run)
    from referee.dice import derive

    secret = hashlib.sha256(b"fixed").digest()
    from host_tools.files.dicestats import _group

    for faces in (20, 6, 8):
        vals = []
        for seq in range(1, 2001):
            vals += derive(secret, seq, seq * 7919, faces, 2)
        gr = _group(faces, vals)
        assert gr["reliable"] and gr["p"] > 0.001 and abs(gr["mean"] - (faces + 1) / 2) < 0.3
    # a loaded die is caught
    gr = _group(20, [20] * 100 + list(range(1, 21)) * 10)
    assert gr["p"] < 1e-6


def test_a_corrected_physical_entry_stays_in_the_log_but_not_in_the_statistics():
    b = Board("hoth")
    b.key("enter")  # enter side 0's d20 on the pad: 10 ...
    for k in ("dmg+", "dmg+", "enter", "dmg-", "enter"):  # ... 12, then side 1's 9
        b.key(k)
    assert b.events[-1][1] == [1, 12, 9, 1]  # marked physical (source 1)
    b.key("undo")  # the die showed 13: take it back
    b.key("enter")
    for k in ("dmg+", "dmg+", "dmg+", "enter", "dmg-", "enter"):
        b.key(k)
    kinds = [ev for _s, ev in b.events]
    assert kinds == [[1, 12, 9, 1], [5, 0, 0, 0], [1, 13, 9, 1]]  # nothing deleted
    st = stats(b.game["roster"], b.events, b.log.as_dict())
    by = {(gr["side"], gr["source"]): gr for gr in st["groups"]}
    assert by[(0, "physical")]["n"] == 1 and by[(0, "physical")]["counts"][12] == 1
    b.key("undo")
    b.key("roll")  # a board roll undone still counts
    b.key("undo")
    st = stats(b.game["roster"], b.events, b.log.as_dict())
    assert {(gr["side"], gr["source"]): gr["n"] for gr in st["groups"]}[(0, "board")] == 1
