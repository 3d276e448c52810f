"""Fit a terminal view into the terminal's size: the LED grid on the left, text sections on
the right. Sections that do not fit are collapsed (a list keeps its first or newest lines
and says how many more there are; a section of low priority shrinks to its summary line or
goes), never cut off at the terminal's edge.

Used by the simulator (simview.py) and the mirror (mirrorview.py). 80×24 is the smallest
size planned for; tests/host/test_demo_screens.py renders the views at 80×24.
"""

from rich.console import Console
from rich.text import Text


class Section:
    """Lines of a view. ``lines``: list of rich Text (or str). ``priority``: higher stays
    longer. ``keep``: how many lines it may shrink to (0: it may go). ``tail``: when
    collapsed keep the newest (last) lines instead of the first. ``what``: the noun of the
    "… N more <what>" line, in the plural ("ships": "… 1 more ship" for one)."""

    def __init__(self, lines, priority=5, keep=1, tail=False, what="lines"):
        self.lines = [x if isinstance(x, Text) else Text(x) for x in lines]
        self.priority = priority
        self.keep = keep
        self.tail = tail
        self.what = what


def _wrap(lines, width):
    c = Console(width=width, color_system=None)
    out = []
    for t in lines:
        if not t.plain:
            out.append(Text(""))
            continue
        for part in t.wrap(c, width, overflow="fold"):
            part.rstrip()
            out.append(part)
    return out


def _collapse(sec, rows, width):
    """The section's wrapped rows shrunk to at most ``rows`` (>= 1), with a "more" line."""
    full = _wrap(sec.lines, width)
    if len(full) <= rows:
        return full
    wrapped_items = [_wrap([x], width) for x in sec.lines]
    kept = []
    used = 0
    order = list(reversed(wrapped_items)) if sec.tail else wrapped_items
    for item in order:
        if used + len(item) > rows - 1:
            break
        kept.append(item)
        used += len(item)
    hidden = len(sec.lines) - len(kept)
    what = sec.what[:-1] if hidden == 1 and sec.what.endswith("s") else sec.what
    more = Text("… %d more %s" % (hidden, what), style="dim")  # "1 more ship", "2 more ships"
    if sec.tail:
        kept.reverse()
        rows_out = [more]
        for item in kept:
            rows_out.extend(item)
    else:
        rows_out = []
        for item in kept:
            rows_out.extend(item)
        rows_out.append(more)
    return rows_out


def _floor(sec, width):
    """Rows a section keeps at least: its ``keep`` first (or newest) lines whole, plus the
    "… N more" line when it has more."""
    if sec.keep <= 0:
        return 0
    items = sec.lines[-sec.keep :] if sec.tail else sec.lines[: sec.keep]
    return len(_wrap(items, width)) + (1 if len(sec.lines) > sec.keep else 0)


def fit(sections, width, height):
    """Rows (list of Text, each at most ``width`` cells) of ``sections`` within ``height``
    rows. Lowest priority first, a section that may go (``keep`` 0) is dropped and any other
    is collapsed to no fewer than ``keep`` rows."""
    sizes = [len(_wrap(s.lines, width)) for s in sections]
    alive = [True] * len(sections)
    order = sorted(range(len(sections)), key=lambda i: sections[i].priority)

    def total():
        return sum(sizes[i] for i in range(len(sections)) if alive[i])

    for i in order:  # shrink, lowest priority first
        over = total() - height
        if over <= 0:
            break
        s = sections[i]
        floor = _floor(s, width)
        if s.keep == 0:
            alive[i] = False  # it may go: rather gone than a bare "… more" line
            continue
        if sizes[i] > floor:
            sizes[i] = max(floor, sizes[i] - over)
    rows = []
    for i in range(len(sections)):
        if alive[i] and sizes[i] > 0:
            rows.extend(_collapse(sections[i], sizes[i], width))
    return rows[:height]


def fit_words(text, width):
    """``text`` cut to at most ``width`` cells at a word's end (a single word longer than
    that is cut)."""
    if len(text) <= width:
        return text
    cut = text[: width + 1].rsplit(" ", 1)[0]
    return cut if len(cut) <= width and cut else text[:width]


def grid_lines(fb, w, h, cell=2):
    """The RGB frame buffer ``fb`` (w*h*3 bytes) as h rows of Text, ``cell`` columns per
    pixel (2 looks square, 1 for narrow terminals)."""
    rows = []
    for y in range(h):
        t = Text()
        for x in range(w):
            i = (y * w + x) * 3
            r, g, b = fb[i], fb[i + 1], fb[i + 2]
            if r or g or b:
                t.append("█" * cell, style="rgb(%d,%d,%d)" % (_boost(r), _boost(g), _boost(b)))
            else:
                t.append("·" + " " * (cell - 1), style="grey23")
        rows.append(t)
    return rows


def _boost(v):
    # LEDs look brighter than a terminal cell: lift dim values so they stay visible
    return int(255 * (v / 255) ** 0.5) if v else 0


def compose(fb, w, h, title, sections, width, height):
    """One screen: the grid (with ``title`` above) left, ``sections`` right; returns a Text of
    at most ``height`` rows of at most ``width`` cells. When the terminal is too narrow for
    a grid beside the text, the grid uses one column per pixel; below 24 rows or when even
    that leaves under 30 columns the text goes under the grid."""
    cell = 2 if width - 2 * w - 1 >= 40 else 1
    left = [Text(fit_words(title, w * cell), style="bold")] + grid_lines(fb, w, h, cell)
    lw = w * cell
    rw = width - lw - 1
    out = Text()
    if rw >= 30:
        right = fit(sections, rw, height)
        n = max(len(left), len(right))
        for r in range(min(n, height)):
            line = Text()
            if r < len(left):
                line.append_text(left[r])
            line.pad_right(lw - line.cell_len)
            line.append(" ")
            if r < len(right):
                line.append_text(right[r])
            line.rstrip()
            out.append_text(line)
            if r < min(n, height) - 1:
                out.append("\n")
        return out
    rows = left[:height] + fit(sections, width, max(0, height - len(left)))
    for r, line in enumerate(rows[:height]):
        out.append_text(line)
        if r < min(len(rows), height) - 1:
            out.append("\n")
    return out
