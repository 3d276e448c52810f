"""What the grid shows on top of the ship rows so the table can follow a round without a
laptop (docs/screen-layout.png): numbers in the 3x5 pixel font (glyphs.py) and the refusal cue.

- While a physical die is entered: its value in white digits in that side's half.
- In the initiative phase: before the roll, the round number in white in the left half;
  after it, each side's roll in its half (the initiative holder's bright, the other dim).
- Neither once the game has a winner (render.py's banner shows instead).
- Otherwise, while the newest event is one that rolled a die (an attack, the Ion Cannon):
  that die in the roller's half, bright on a hit and dim on a miss.
  The digits go below the fleets when five rows are free there, else over the lowest rows.
- While a refusal shows (row 1 red): its kind as a colour code on columns 0-2 of row 1
  (``KIND_RGB``): yellow = not in this phase, white = not this side's turn or not this
  ship's (order of play), blue = nothing to take back or remove, magenta = the flash
  journal; all red (no code) = the rules forbid it otherwise.

Everything is drawn from the state alone (no timers), so the emulated Pico's frames stay
identical to the renderer's.
"""

from referee.events import NONE, EV_INIT
from referee import glyphs
from referee.palette import SIDE_RGB, SIDE_DIM, WHITE, YELLOW, BLUE, MAGENTA, OFF

KIND_RULE = 0
KIND_PHASE = 1
KIND_ORDER = 2
KIND_NOTHING = 3
KIND_JOURNAL = 4
KIND_NAMES = ("rule", "phase", "order", "nothing", "journal")
KIND_RGB = (None, YELLOW, WHITE, BLUE, MAGENTA)

# words of the referee's refusal texts that tell the kind (first match wins)
KIND_WORDS = (
    (KIND_JOURNAL, ("journal", "flash")),
    (KIND_NOTHING, ("nothing to", "no pending", "to remove", "already has lethal")),
    (KIND_PHASE, ("phase",)),
    (
        KIND_ORDER,
        (
            "moves first",
            "has not moved",
            "not moved",
            "turn",
            "activat",
            "one response",
            "chooses who",
            "first",
        ),
    ),
)


def refusal_kind(text):
    """The kind (KIND_*) of refusal text ``text`` (str)."""
    t = text.lower()
    for kind, words in KIND_WORDS:
        for w in words:
            if w in t:
                return kind
    return KIND_RULE


def plan(r, app, want):
    """Fill ``want`` (a list of 2, one per half of renderer ``r``) with what the overlay's
    digits show there this frame: (top row, number, colour), or None. The renderer skips the
    ship half-rows the digits cover (``glyphs.H`` rows from the top row). ``app`` has a game
    (the renderer draws no ship rows without one)."""
    want[0] = want[1] = None
    g = app.game
    pad = app.pad
    if pad.entry:
        want[pad.entry - 1] = (_top(r, app), pad.entry_value, WHITE)
    elif r.winning_side is not None:
        pass  # the game is decided: the banner, no round to come
    elif g.rules.phases[g.phase] == "initiative":
        y = _top(r, app)
        if g.init == NONE or not g.rolls[0]:
            want[0] = (y, g.round, WHITE)
        else:
            for s in range(2):
                want[s] = (y, g.rolls[s], SIDE_RGB[s] if g.init == s else SIDE_DIM[s])
    else:
        d = last_dice(r, g)  # an attack's d20
        if d is not None:
            want[d[0]] = (_top(r, app), d[1], d[2])


def last_dice(r, g):
    """The die the newest event of ``g`` showed (the rules' ``dice_shown``: an attack's d20,
    seed 004 / W6, the Ion Cannon's, seed 004 Escape from Hoth) as (side, value, colour), or
    None: shown like the initiative rolls, bright on a hit, dim on a miss, so a miss shows
    too. Kept in renderer ``r`` and worked out again only when the game or its seq changed
    (no allocation in a frame that changes nothing)."""
    if g is not r.dgame or g.seq != r.dseq:
        r.dgame = g
        r.dseq = g.seq
        r.dice = None
        if g.seq > g.base_seq:
            ev = g.event(g.seq)
            shown = g.rules.dice_shown(g, ev) if ev[0] != EV_INIT else ()
            if len(shown) == 1:
                s, v = shown[0][0], shown[0][2]
                from referee.rules.d20 import D20Rules, EV_ATTACK

                miss = (
                    ev[0] == EV_ATTACK
                    and isinstance(g.rules, D20Rules)
                    and g.game_state[0] == 2
                    and g.game_state[1] == v
                )  # (rules/d20.py: 2 a miss)
                r.dice = (s, v, SIDE_DIM[s] if miss else SIDE_RGB[s])
    return r.dice


def draw(r, app, error, want, drawn):
    """Draw the overlay of ``app`` (a Referee) onto renderer ``r`` (render.Renderer), after
    the rest of the frame: the refusal cue (``error``: a refusal is showing) and the digits
    ``want`` (from :func:`plan`), except where ``drawn`` (the same list from the last frame,
    updated here) shows the same digits still there."""
    if error:
        c = KIND_RGB[refusal_kind(app.error_text or "")]
        if c is not None:
            for x in range(3):
                r.px(x, 1, c)
    for s in range(2):
        w = want[s]
        if w is not None and w != drawn[s]:
            _number(r, s * r.half, w[0], w[1], w[2])
        drawn[s] = w


def _top(r, app):
    """The top row of the digits: below the fleets if there is room, else over the lowest
    ship rows."""
    rpp = r.rows_per_page
    pad = app.pad
    shown = 0
    for s in range(2):
        left = pad.side_count[s] - pad.page * rpp
        shown = max(shown, left)
    shown = min(shown, rpp)
    return 2 + shown + 1 if 2 + shown + 1 + glyphs.H <= r.h - 2 else r.h - 2 - glyphs.H


def _number(r, x0, y, n, c):
    """``n`` centred in the half starting at column ``x0``, from row ``y``; the rows it covers
    are cleared first."""
    wid = glyphs.W if n % 100 < 10 else 2 * glyphs.W + 1
    x = x0 + (r.half - wid) // 2
    for yy in range(y, y + glyphs.H):
        r.scribble(x0, yy)
    glyphs.draw_number(r, x, y, n, c)


def win_gap(r, win):
    """The gap between the fleets (column W/2 - 1, rows 2 .. H-3) of renderer ``r`` in the
    winner's colour: with row 1 and row 0's column W/2, a banner no one misses. Drawn every
    frame last (a redrawn half-row or the overlay's digits blank its pixels; no digit reaches
    it); dark again once an undo took the win back (``winning_side`` None). Allocates nothing."""
    r.gap_lit = win is not None
    c = SIDE_RGB[win] if win is not None else OFF
    x = r.half - 1
    for y in range(2, r.h - 2):
        r.px(x, y, c)
