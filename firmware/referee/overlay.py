"""What the grid shows on top of the ship rows so the table can follow a round without a
laptop (docs/screen.md): numbers in the 3x5 pixel font (glyphs.py) and the refusal cue.

- While a physical die is entered: its value in white digits in that side's half.
- In the initiative phase: before the roll, the round number in white in the left half;
  after it, each side's roll in its half (the initiative holder's bright, the other dim).
  The digits go below the fleets when five rows are free there, else over the lowest rows.
- While a refusal shows (row 1 red): its kind as a colour code on columns 0-2 of row 1
  (``KIND_RGB``): yellow = not in this phase, white = not this side's turn or not this
  ship's (order of play), blue = nothing to take back or remove, magenta = the flash
  journal; all red (no code) = the rules forbid it otherwise.

Everything is drawn from the state alone (no timers), so the emulated Pico's frames stay
identical to the renderer's.
"""

from referee.events import NONE
from referee import glyphs

KIND_RULE = 0
KIND_PHASE = 1
KIND_ORDER = 2
KIND_NOTHING = 3
KIND_JOURNAL = 4
KIND_NAMES = ("rule", "phase", "order", "nothing", "journal")
KIND_RGB = (None, (255, 220, 0), (255, 255, 255), (0, 0, 255), (255, 0, 200))

# words of the referee's refusal texts that tell the kind (first match wins)
KIND_WORDS = (
    (KIND_JOURNAL, ("journal", "flash")),
    (KIND_NOTHING, ("nothing to", "no pending", "to remove", "already has lethal")),
    (KIND_PHASE, ("phase",)),
    (KIND_ORDER, ("moves first", "has not moved", "not moved", "turn", "activat",
                  "one response", "chooses who", "first")),
)


def refusal_kind(text):
    """The kind (KIND_*) of refusal text ``text`` (str)."""
    t = text.lower()
    for kind, words in KIND_WORDS:
        for w in words:
            if w in t:
                return kind
    return KIND_RULE


_COLOURS = []


def _colours():
    """render.py's side colours, imported once (render imports this module first)."""
    if not _COLOURS:
        from referee.render import SIDE_RGB, SIDE_DIM
        _COLOURS.append(SIDE_RGB)
        _COLOURS.append(SIDE_DIM)
    return _COLOURS[0], _COLOURS[1]


def draw(r, app, error):
    """Draw the overlay of ``app`` (a Referee) onto renderer ``r`` (render.Renderer), after
    the rest of the frame; ``error``: a refusal is showing. Returns True when digits were
    drawn (the rows they cover are marked for the renderer's next frame)."""
    g = app.game
    if g is None:
        return False
    if error:
        c = KIND_RGB[refusal_kind(app.error_text or "")]
        if c is not None:
            for x in range(3):
                r.px(x, 1, c)
    half = r.half
    if app.entry:
        s = app.entry - 1
        _number(r, app, s * half, app.entry_value, (255, 255, 255))
        return True
    if g.profile.phases[g.phase] != "initiative":
        return False
    side_rgb, side_dim = _colours()
    if g.init == NONE or not g.rolls[0]:
        _number(r, app, 0, g.round, (255, 255, 255))
        return True
    for s in range(2):
        _number(r, app, s * half, g.rolls[s], side_rgb[s] if g.init == s else side_dim[s])
    return True


def _number(r, app, x0, n, c):
    """``n`` centred in the half starting at column ``x0``, below the fleets if there is room;
    the rows it covers are cleared first."""
    rpp = r.rows_per_page
    shown = 0
    for s in range(2):
        left = app.side_count[s] - app.page * rpp
        if left > shown:
            shown = left
    if shown > rpp:
        shown = rpp
    y = 2 + shown + 1 if 2 + shown + 1 + glyphs.H <= r.h - 2 else r.h - 2 - glyphs.H
    wid = glyphs.W if n % 100 < 10 else 2 * glyphs.W + 1
    x = x0 + (r.half - wid) // 2
    for yy in range(y, y + glyphs.H):
        r.scribble(x0, yy)
    glyphs.draw_number(r, x, y, n, c)
