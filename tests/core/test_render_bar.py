"""A ship's hit point bar, pixel by pixel, as render.py's layout says (columns 0-3 of its half):
applied damage red, pending damage amber, the X part of X/Y in the side's colour, the Y part
dimmer, a destroyed ship dark red, a fighter not yet launched grey; command counters in
columns 4-5; the status pixel in column 6. Expected bars are built here from that text, one
hit point a pixel (X+Y <= 4), for every mix of damage, pending damage and launch."""

import itertools

from referee import render as R
from referee.fleet import F_LAUNCHED


class Ship:
    def __init__(self, x, y, dmg, pend, launched, cc):
        self.hp1, self.hp2 = [x], [y]
        self.dmg, self.pending, self.flags, self.counters = (
            [dmg],
            [pend],
            [F_LAUNCHED if launched else 0],
            [cc],
        )


def expected(x, y, dmg, pend, launched, cc, side):
    total = x + y
    if dmg >= total:
        bar = [R.DARK_RED] * 4
    else:
        bar = []
        for hp in range(total):
            if hp < dmg:
                bar.append(R.RED)
            elif hp < dmg + pend:
                bar.append(R.AMBER)
            elif not launched:
                bar.append(R.GREY)
            elif hp < x:
                bar.append(R.SIDE_RGB[side])
            else:
                bar.append(R.SIDE_DIM[side])
        bar += [(0, 0, 0)] * (4 - total)
    c = R.YELLOW if cc >= 3 else R.DIM_YELLOW
    counters = [(0, 0, 0)] * 2 if cc == 0 or dmg >= total else [c, c if cc >= 2 else (0, 0, 0)]
    return bar + counters + [R.STATUS_RGB[R.ST_SELECTED], (0, 0, 0)]


def test_every_bar_of_up_to_four_hit_points():
    n = 0
    for x, y in [(1, 0), (2, 0), (1, 1), (3, 1), (2, 2), (4, 0), (0, 3)]:
        for dmg, pend, launched, cc, side in itertools.product(
            range(x + y + 1), range(5), (True, False), range(4), (0, 1)
        ):
            r = R.Renderer(16, 16)
            r._ship(Ship(x, y, dmg, pend, launched, cc), 0, 8 * side, 5, side, R.ST_SELECTED)
            got = [r.get(8 * side + k, 5) for k in range(8)]
            assert got == expected(x, y, dmg, pend, launched, cc, side), (x, y, dmg, pend)
            n += 1
    assert n > 1000
