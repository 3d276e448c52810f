"""The legend sheet (host_tools/board/legend.py's ``Sheet``: rectangles, lines and texts
placed in mm on a page) written out: as SVG text, or as a one-page PDF through matplotlib."""

PT_PER_MM = 72 / 25.4


def _esc(t):
    return (
        str(t)
        .replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
    )


def svg_text(sheet):
    """``sheet`` as SVG text (user units: mm)."""
    o = [
        '<svg xmlns="http://www.w3.org/2000/svg" width="%.1fmm" height="%.1fmm" '
        'viewBox="0 0 %.1f %.1f" font-family="sans-serif">' % (sheet.w, sheet.h, sheet.w, sheet.h)
    ]
    for it in sheet.items:
        if it[0] == "rect":
            _, x, y, w, h, fill, stroke, lw, dash, rx = it
            o.append(
                '<rect x="%.2f" y="%.2f" width="%.2f" height="%.2f"%s fill="%s" '
                'stroke="%s" stroke-width="%.2f"%s/>'
                % (
                    x,
                    y,
                    w,
                    h,
                    ' rx="%.1f"' % rx if rx else "",
                    _rgb(fill),
                    _rgb(stroke),
                    lw,
                    ' stroke-dasharray="1,1"' if dash else "",
                )
            )
        elif it[0] == "line":
            _, x1, y1, x2, y2, stroke, lw, dash = it
            o.append(
                '<line x1="%.2f" y1="%.2f" x2="%.2f" y2="%.2f" stroke="%s" '
                'stroke-width="%.2f"%s/>'
                % (x1, y1, x2, y2, _rgb(stroke), lw, ' stroke-dasharray="1,1"' if dash else "")
            )
        else:
            _, x, y, s, size, anchor, middle, bold, fill, row, cls = it
            o.append(
                '<text x="%.2f" y="%.2f" font-size="%.2f"%s%s%s%s%s%s>%s</text>'
                % (
                    x,
                    y,
                    size,
                    ' text-anchor="%s"' % anchor if anchor != "start" else "",
                    ' dominant-baseline="middle"' if middle else "",
                    ' font-weight="bold"' if bold else "",
                    ' fill="%s"' % _rgb(fill) if fill != (0, 0, 0) else "",
                    ' data-row="%d"' % row if row is not None else "",
                    ' class="%s"' % cls if cls else "",
                    _esc(s),
                )
            )
    o.append("</svg>")
    return "\n".join(o) + "\n"


def _rgb(c):
    return "none" if c is None else "rgb(%d,%d,%d)" % tuple(c)


def write_pdf(sheet, path):
    """Write ``sheet`` as a one-page PDF of its size (matplotlib's PDF backend)."""
    from matplotlib.figure import Figure
    from matplotlib.patches import FancyBboxPatch, Rectangle

    fig = Figure(figsize=(sheet.w / 25.4, sheet.h / 25.4))
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, sheet.w)
    ax.set_ylim(sheet.h, 0)
    ax.set_axis_off()
    for it in sheet.items:
        if it[0] == "rect":
            _, x, y, w, h, fill, stroke, lw, dash, rx = it
            kw = {
                "facecolor": _mpl(fill),
                "edgecolor": _mpl(stroke),
                "linewidth": lw * PT_PER_MM,
                "linestyle": (0, (1, 1)) if dash else "-",
            }
            ax.add_patch(
                FancyBboxPatch((x, y), w, h, boxstyle="round,pad=0,rounding_size=%g" % rx, **kw)
                if rx
                else Rectangle((x, y), w, h, **kw)
            )
        elif it[0] == "line":
            _, x1, y1, x2, y2, stroke, lw, dash = it
            ax.plot(
                [x1, x2],
                [y1, y2],
                color=_mpl(stroke),
                linewidth=lw * PT_PER_MM,
                linestyle=(0, (1, 1)) if dash else "-",
            )
        else:
            _, x, y, s, size, anchor, middle, bold, fill, _row, _cls = it
            ax.text(
                x,
                y,
                s,
                fontsize=size * PT_PER_MM,
                color=_mpl(fill),
                ha={"start": "left", "middle": "center", "end": "right"}[anchor],
                va="center" if middle else "baseline",
                fontweight="bold" if bold else "normal",
                family="sans-serif",
            )
    fig.savefig(path, format="pdf", metadata={"CreationDate": None})


def _mpl(c):
    return "none" if c is None else tuple(v / 255.0 for v in c)
