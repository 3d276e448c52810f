"""Renderer: game state -> RGB frame buffer for an LED grid (WS2812 panel on the default board).

The frame buffer is a preallocated ``bytearray(width * height * 3)``, row-major from the top-left,
3 bytes R, G, B per pixel; drivers reorder (WS2812 wants GRB) and scale brightness. Rendering
writes into it in place and allocates nothing.

Layout for a grid of width W (even, >= 16) and height H (>= 8); each side gets one half (W/2
columns), side 0 on the left:

- row 0: the round in binary (columns 0-7, most significant bit left); the phases as pips from
  column W/2+1 (current phase bright purple); column W-2 the side whose turn it is (who moves
  first, or whose activation it is); column W-1 the initiative holder (dim white while
  undecided); column W/2 in the winner's colour while the game has a winner.
- row 1: page pips (one per page, current one bright); the whole row red while an error shows;
  while the game has a winner, the whole row in its colour (the current page's pip white) and
  the gap between the fleets (column W/2 - 1, rows 2 .. H-3) too: a banner.
- rows 2 .. H-3: one ship per row per half (``rows_per_page`` = H - 4 ships per side per page).
  Columns 0-3 of the half: hit point bar (applied damage red, pending damage amber, the X part
  of X/Y in the side's colour, the Y part dimmer; scaled when X+Y > 4; a destroyed ship is dark
  red; a fighter not yet launched is grey). Columns 4-5: command counters left (yellow, 1 pixel
  each, both bright for 3 or more). Column 6: white = selected, cyan = marked as
  attacker/source, magenta = firing now, blue = made a full-power move, dim white = yet to act
  this phase. Column 7 stays dark: the gap between the fleets.
- row H-2: the fleet command chart: option k of side s lit at column s*W/2 + k when it holds a
  counter this round.
- row H-1: the last initiative roll per half as a bar (d20 value * W/2 / 20 pixels), the
  holder's bright; while a physical roll is being entered, the value in white.
- the scenario menu (long press of phase): row 1 one pip per scenario, the chosen one white.
- on a board with a network (referee/net): row 1's last column is the link (palette.LINK_RGB:
  off, joining, up, down; not while the error row shows), and while the ``net`` action shows
  the address, one of its four numbers in white over the ship rows, a pip per number below.
- on top (overlay.py): entered dice, the round and the last rolls in a 3x5 pixel font (the
  initiative rolls, and the die of the newest event that rolled one: an attack's d20 in the
  attacker's half, bright on a hit, dim on a miss), and the kind of a refusal as a colour
  code on row 1.
"""

from referee.events import NONE
from referee.fleet import F_LAUNCHED
from referee import overlay, glyphs, shiprow, render_edges
from referee.shiprow import STATUS_X  # status pixel; column 7 is the gap between the fleets
from referee.palette import (
    SIDE_RGB,
    SIDE_DIM,
    RED,
    DARK_RED,
    AMBER,
    GREY,
    WHITE,
    DIM_WHITE,
    YELLOW,
    DIM_YELLOW,
    CYAN,
    MAGENTA,
    BLUE,
)

# the status pixel (column 6): none, selected, marked, firing now, full-power move, to act
ST_SELECTED, ST_MARKED, ST_FIRING, ST_FULL_POWER, ST_TO_ACT = 1, 2, 3, 4, 5
STATUS_RGB = (None, WHITE, CYAN, MAGENTA, BLUE, DIM_WHITE)
STATUS_B = tuple(None if c is None else bytes(c) for c in STATUS_RGB)  # (one slice each)
ZERO_B = bytes(3)
# the ship rows' colours for shiprow.paint, 3 bytes each in its C_* order
PALETTE = bytearray()
for _c in (
    (RED, DARK_RED, AMBER, GREY) + SIDE_RGB + SIDE_DIM + (YELLOW, DIM_YELLOW) + STATUS_RGB[1:]
):
    PALETTE.extend(bytes(_c))
K_STATUS = 7 << 19  # a half-row key's status bits (below: what else the row shows)


class Renderer:
    """Draws :class:`referee.app.Referee` state into ``self.fb``.

    ``width``, ``height``: grid size in pixels (ints; width even and >= 16, height >= 8).
    Raises ValueError for a grid too small for this layout.
    """

    def __init__(self, width, height):
        if width < 16 or width % 2 or height < 8:
            raise ValueError("grid layout needs width >= 16 (even) and height >= 8")
        self.w = width
        self.h = height
        self.half = width // 2
        self.rows_per_page = height - 4
        self.fb = bytearray(width * height * 3)
        self.zrow = bytes(width * 3)  # a dark row and half-row: blanking is a
        self.zhalf = bytes(self.half * 3)  # slice assignment (no copy made, no frame-
        # sized constant kept in the heap)
        # what each ship half-row shows, as one small int (damage, pending, launched,
        # counters, status; 0 = blank, -1 = drawn over), so a frame redraws only the
        # half-rows that changed since the last one
        self.keys = [0] * (self.rows_per_page * 2)
        # the rules' marks per half-row (Ruleset.act_marks: 1 full-power move, 2 yet to act),
        # asked again only when the state or the rows' ships changed (``marks_ok``)
        self.marks = bytearray(self.rows_per_page * 2)
        self.marks_ok = False
        # what the ship rows were drawn from (the game state's canonical bytes, the cursor and
        # the mark): when none changed, a frame redraws only the rows drawn over (-1);
        # ``rows_ok``: ``seen`` is valid
        self.seen = bytearray(0)
        self.seen_ui = [-1, -1]
        self.rows_ok = False
        self.kpage = -1
        self.full = True  # the next frame draws everything (set when the overlay
        self.kgame = None  # or the clocks drew over ship rows, or a new game came)
        self.wgame = None
        self.wseq = -1
        self.winning_side = None
        self.dgame, self.dseq, self.dice = None, -1, None  # the newest die (overlay.last_dice)
        self.gap_lit = False  # the winner's gap column is lit (overlay.win_gap)
        self.ui15 = [-1, -1]  # the dice row's entry and value drawn last time
        # round, phase, acting side, winner (None: none), initiative drawn in row 0
        self.row0 = [-1, 0, 0, 0, 0]  # type: list
        self.want = [None, None]  # the overlay's digits per half this frame (overlay.plan)
        self.drawn = [None, None]  # ... and in the frame before (still on the panel)

    def clear(self):
        self.clear_rows(0, self.h)
        self.full = True

    def clear_rows(self, y0, y1):
        """Blank rows ``y0`` .. ``y1 - 1``."""
        n = self.w * 3
        z = self.zrow
        fb = self.fb
        for y in range(y0, y1):
            fb[y * n : y * n + n] = z

    def px(self, x, y, c):
        i = (y * self.w + x) * 3
        fb = self.fb
        fb[i] = c[0]
        fb[i + 1] = c[1]
        fb[i + 2] = c[2]

    def get(self, x, y):
        i = (y * self.w + x) * 3
        return (self.fb[i], self.fb[i + 1], self.fb[i + 2])

    def winner(self, g):
        """``g.winner()``, worked out again only when the game or its seq changed."""
        if g is not self.wgame or g.seq != self.wseq:
            self.wgame = g
            self.wseq = g.seq
            self.winning_side = g.winner()
        return self.winning_side

    def render(self, app, error=False):
        """Draw ``app`` (a Referee: its .game, .mark and .pad's cursor, page, entry and menu);
        returns self.fb. One method per band of the grid (the edge rows: render_edges.py),
        each with its own cache: only what changed is redrawn, and the frame is the same as a
        full redraw's (tests/core/test_render_incremental.py). Allocates nothing in a frame."""
        g = app.game
        if g is None:
            self.clear()
            for x in range(self.w):
                self.px(x, 1, RED if error else DIM_WHITE)
            return self.fb
        pad = app.pad
        if g is not self.kgame or pad.page != self.kpage:  # other ships in the same rows
            self.kgame = g
            self.kpage = pad.page
            self.full = True
        sb = g.state_buf()  # the whole game state, in a reused buffer
        if self.full:  # a full redraw: a blank frame, every band's cache dropped
            self.clear()
            self.row0[0] = -1
            keys = self.keys
            for k in range(len(keys)):
                keys[k] = 0
            self.drawn[0] = self.drawn[1] = None
            self.full = False
            self.rows_ok = False
            self.marks_ok = False
        same = self.rows_ok and self.seen == sb  # a bytearray compare: in C, no allocation
        if not same:
            render_edges.row0(self, g)
        render_edges.row1(self, pad, error)
        self._ship_rows(app, pad, g, sb, same)
        if not same:
            render_edges.chart(self, g)
        render_edges.dice_row(self, pad, g, same)
        for x in g.extensions:  # the time banks' minutes left per side (extensions.py)
            x.draw(self, app)
            self.full = True  # the digits may cover ship rows: redraw them next time
        overlay.draw(self, app, error, self.want, self.drawn)
        if self.winning_side is not None or self.gap_lit:
            overlay.win_gap(
                self, self.winning_side
            )  # (after the digits: they blank their half-rows)
        net = getattr(app, "network", None)  # a board with a network: its link pixel and
        if net is not None:  # address (referee/net; never imported without one)
            net.draw(self, error)
        return self.fb

    def _ship_rows(self, app, pad, g, sb, same):
        """Rows 2 .. H-3, the ships: only the half-rows whose key changed (``same``: the
        state ``sb`` is the one the rows were drawn from)."""
        ask = not same or not self.marks_ok  # the rules' marks: asked again
        self.marks_ok = True
        cur = pad.cursor
        mark = app.mark
        ui = self.seen_ui
        c0 = ui[0]  # the rows of the cursor and the mark drawn last time
        m0 = ui[1]
        ui[0] = cur
        ui[1] = mark
        if not same:
            if len(self.seen) != len(sb):
                self.seen = bytearray(sb)
            else:
                self.seen[:] = sb
            self.rows_ok = True
        want = self.want
        overlay.plan(self, app, want)  # half-rows under its digits: not drawn here
        rpp = self.rows_per_page
        for s in range(2):
            first = pad.side_start[s] + pad.page * rpp
            end = pad.side_start[s] + pad.side_count[s]
            if ask:
                g.rules.act_marks(g, first, min(end, first + rpp), self.marks, s * rpp)
            cv = want[s]
            cv0 = cv[0] - 2 if cv is not None else rpp
            self._ship_half(g, s, first, end, cv0, cv0 + glyphs.H, same, cur, mark, c0, m0)

    def _ship_half(self, g, s, first, end, cv0, cv1, same, cur, mark, c0, m0):
        """The ship half-rows of side ``s`` (ships ``first`` .. ``end`` - 1 on this page)
        whose key changed; rows ``cv0`` .. ``cv1`` - 1 are under the overlay's digits."""
        rpp = self.rows_per_page
        keys = self.keys
        marks = self.marks
        x0 = s * self.half
        o = s * rpp
        act = g.active
        dmg = g.dmg
        pend = g.pending
        cc = g.counters
        fl = g.flags
        for row in range(rpp):
            i = first + row
            if cv0 <= row < cv1:
                continue
            if same and keys[o + row] != -1 and i != cur and i != mark and i != c0 and i != m0:
                continue  # the same state, not the cursor's or mark's, not drawn over
            if i < end:  # the row's key: damage (8 bits), pending (8), launched (1),
                # counters (2), status (3), bit 22 (a ship is there)
                if i == cur:
                    c = ST_SELECTED
                elif i == mark:
                    c = ST_MARKED
                elif i == act:
                    c = ST_FIRING
                elif marks[o + row] == 1:
                    c = ST_FULL_POWER
                elif marks[o + row] == 2:
                    c = ST_TO_ACT
                else:
                    c = 0
                d = dmg[i]
                p = pend[i]
                n = cc[i]
                k = (
                    (d if d < 255 else 255)
                    | (p if p < 255 else 255) << 8
                    | (1 << 16 if fl[i] & F_LAUNCHED else 0)
                    | (n if n < 3 else 3) << 17
                    | c << 19
                    | 1 << 22
                )
            else:
                k = 0
            k0 = keys[o + row]
            if k0 == k:
                continue
            keys[o + row] = k
            if k0 > 0 and k and not (k0 ^ k) & ~K_STATUS:
                # only the status changed (a phase, a side's turn, the cursor): one pixel
                b = ((2 + row) * self.w + x0 + STATUS_X) * 3
                self.fb[b : b + 3] = STATUS_B[k >> 19 & 7] or ZERO_B
                continue
            if k0:  # (0: the half-row is blank already, as after a clear)
                self.blank_half(x0, 2 + row)
            if k:
                self._ship(g, i, x0, 2 + row, s, k >> 19 & 7)

    def scribble(self, x0, y):
        """Blank the half-row (``x0``, ``y``) for something drawn over the ship rows (the
        overlay's digits): the next frame redraws it."""
        self.blank_half(x0, y)
        row = y - 2
        if 0 <= row < self.rows_per_page:
            self.keys[(x0 // self.half) * self.rows_per_page + row] = -1  # no row's key

    def blank_half(self, x0, y):
        """Blank the half-row of row ``y`` that starts at column ``x0``."""
        a = (y * self.w + x0) * 3
        self.fb[a : a + 3 * self.half] = self.zhalf

    def fill(self, x0, y, n, c):
        """Pixels ``x0`` .. ``x0 + n - 1`` of row ``y`` in colour ``c`` (an (r, g, b) tuple):
        one slice assignment, cut at the row's end."""
        n = min(n, self.w - x0)
        if n > 0:
            a = (y * self.w + x0) * 3
            self.fb[a : a + 3 * n] = bytes(c) * n

    def _ship(self, g, i, x0, y, s, status):
        """Ship ``i`` on the blank half-row (``x0``, ``y``) of side ``s`` (shiprow.py)."""
        shiprow.paint(
            self.fb,
            (y * self.w + x0) * 3,
            i,
            s | status << 1,
            g.dmg,
            g.pending,
            g.counters,
            g.flags,
            g.hp1,
            g.hp2,
            PALETTE,
        )
