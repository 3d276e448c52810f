"""A 3x5 pixel font for the LED grid: digits 0-9 (entered dice, the round, the last rolls).

Each glyph is 5 rows of 3 bits (bit 2 = left column), kept in one bytes object: no
allocation when drawing. ``draw_number`` writes into a renderer's frame buffer through its
``px(x, y, colour)``.
"""

W = 3
H = 5
# rows of each digit, top to bottom
DIGITS = bytes(
    (
        7,
        5,
        5,
        5,
        7,  # 0
        2,
        6,
        2,
        2,
        7,  # 1
        7,
        1,
        7,
        4,
        7,  # 2
        7,
        1,
        7,
        1,
        7,  # 3
        5,
        5,
        7,
        1,
        1,  # 4
        7,
        4,
        7,
        1,
        7,  # 5
        7,
        4,
        7,
        5,
        7,  # 6
        7,
        1,
        2,
        2,
        2,  # 7
        7,
        5,
        7,
        5,
        7,  # 8
        7,
        5,
        7,
        1,
        7,  # 9
    )
)


def draw_digit(r, x, y, d, c):
    """Draw digit ``d`` (0-9) with its top-left at (x, y) in colour ``c`` on renderer ``r``;
    pixels off the grid are skipped."""
    o = d * H
    for row in range(H):
        bits = DIGITS[o + row]
        yy = y + row
        if yy < 0 or yy >= r.h:
            continue
        for col in range(W):
            if bits & (4 >> col):
                xx = x + col
                if 0 <= xx < r.w:
                    r.px(xx, yy, c)


def draw_number(r, x, y, n, c):
    """Draw ``n`` (0-99; larger values show their last two digits) at (x, y): one digit is 3
    pixels wide, two are 7 (a 1-pixel gap). Returns the width drawn."""
    n = n % 100
    if n < 10:
        draw_digit(r, x, y, n, c)
        return W
    draw_digit(r, x, y, n // 10, c)
    draw_digit(r, x + W + 1, y, n % 10, c)
    return 2 * W + 1
