"""The grid's edge bands, above and below the ship rows (the layout: render.py): row 0 (round,
phases, whose turn, initiative), row 1 (pages, refusal, scenario menu or winner's banner),
row H-2 (the fleet command chart) and row H-1 (the initiative rolls or the die being
entered).

Each function draws one band into renderer ``r`` (a render.Renderer) through its pixel
methods, with the renderer's own cache for that band (``r.row0``, ``r.ui15``): what did not
change since the last frame is not redrawn. Constant colours (palette.py), no allocation.
"""

from referee.events import NONE
from referee.palette import RED, WHITE, DIM_WHITE, YELLOW, PURPLE, DIM_PURPLE
from referee.palette import SIDE_RGB, SIDE_DIM, OPTION_RGB


def row0(r, g):
    """Row 0 of ``r`` for game ``g``: round, phases, who moves first, initiative (drawn from
    the state alone; redrawn only when one of them changed)."""
    w = r.w
    half = r.half
    mf = g.rules.acting_side(g)
    win = r.winner(g)
    rnd = g.round
    r0 = r.row0
    if r0[0] == rnd and r0[1] == g.phase and r0[2] == mf and r0[3] == win and r0[4] == g.init:
        return
    r0[0] = rnd
    r0[1] = g.phase
    r0[2] = mf
    r0[3] = win
    r0[4] = g.init
    r.clear_rows(0, 1)
    for b in range(8):
        if rnd & (1 << (7 - b)):
            r.px(b, 0, WHITE)
    nph = len(g.rules.phases)
    for k in range(nph):
        x = half + 1 + k
        if x < w - 2:
            r.px(x, 0, PURPLE if k == g.phase else DIM_PURPLE)
    if mf != NONE:
        r.px(w - 2, 0, SIDE_RGB[mf])
    if win is not None:
        r.px(half, 0, SIDE_RGB[win])
    r.px(w - 1, 0, DIM_WHITE if g.init == NONE else SIDE_RGB[g.init])


def row1(r, pad, error):
    """Row 1 of ``r``: the pages, the error, the menu or the winner (the UI's: every frame)."""
    w = r.w
    r.clear_rows(1, 2)
    if error:
        r.fill(0, 1, w, RED)
    elif pad.menu is not None:  # over the game (menu.py); red: enter again loads
        for k in range(min(len(pad.menu), w)):
            r.px(k, 1, YELLOW if k != pad.menu_i else RED if pad.menu_arm == k else WHITE)
    elif r.winning_side is not None:
        _win_row(r, pad, r.winning_side)
    else:
        for k in range(min(pad.pages(), w)):
            r.px(k, 1, WHITE if k == pad.page else DIM_WHITE)


def _win_row(r, pad, win):
    """Row 1 while the game has a winner (seed 004 Victory): the whole row in the winner's
    colour, the current page's pip white (every frame, constant colours: no allocation)."""
    c = SIDE_RGB[win]
    for x in range(r.w):
        r.px(x, 1, c)
    if pad.pages() > 1:
        r.px(pad.page, 1, WHITE)


def chart(r, g):
    """Row H-2: the fleet command chart (from the state alone)."""
    y = r.h - 2
    half = r.half
    r.clear_rows(y, y + 1)
    for s in range(2):
        for k in range(min(g.option_count, half)):
            if g.chart[s * g.option_count + k] != NONE:
                r.px(s * half + k, y, OPTION_RGB[k % 4])


def dice_row(r, pad, g, same):
    """Row H-1: the state's rolls, or the value being entered (``same``: the state is the
    one the last frame was drawn from)."""
    y = r.h - 1
    half = r.half
    u = r.ui15
    if same and u[0] == pad.entry and u[1] == pad.entry_value:
        return
    u[0] = pad.entry
    u[1] = pad.entry_value
    r.clear_rows(y, y + 1)
    if pad.entry:
        s = pad.entry - 1
        _bar(r, s * half, y, pad.entry_value, WHITE)
    else:
        for s in range(2):
            v = g.rolls[s]
            if v:
                _bar(r, s * half, y, v, SIDE_RGB[s] if g.init == s else SIDE_DIM[s])


def _bar(r, x0, y, v, c):
    """A d20 value ``v`` as a bar from column ``x0`` of row ``y``: v * W/2 / 20 pixels."""
    r.fill(x0, y, (v * r.half + 19) // 20, c)
