"""One benchmark's own rows and notes on docs/performance.md: the lines that start ``| PREFIX``
(table rows) or ``- PREFIX`` (notes). A bench script run alone rewrites only its own
(``rewrite``); bench/run.py keeps them as they are when it does not run that bench
(``kept``). A row is (label, value, baseline, how, target, verdict); on the page its cells
are in the order label, value, target, verdict, baseline, how."""


def rewrite(path, prefix, new_rows, notes=()):
    """Replace the rows and notes named ``prefix`` of the page at ``path``: the other lines
    are kept as they are, the rows go where the old ones stood (none: after the table's last
    row), the notes at the end."""
    lines = open(path).read().splitlines()
    mine = [i for i, l in enumerate(lines) if l.startswith("| " + prefix)]
    lines = [l for l in lines if not l.startswith(("| " + prefix, "- " + prefix))]
    if mine:
        at = mine[0]
    else:
        at = 1 + max(i for i, l in enumerate(lines) if l.startswith("|"))
    lines[at:at] = [
        "| %s | %s | %s | %s | %s | %s |" % (lab, val, tgt, ver, base, how)
        for lab, val, base, how, tgt, ver in new_rows
    ]
    while lines and not lines[-1]:
        lines.pop()
    with open(path, "w") as f:
        f.write("\n".join(lines + list(notes)) + "\n")


def kept(path, prefix):
    """The rows and notes named ``prefix`` on the page at ``path``: (rows, note lines);
    both empty when there is no page."""
    rows, notes = [], []
    try:
        text = open(path).read()
    except OSError:
        return rows, notes
    for line in text.splitlines():
        if line.startswith("| " + prefix):
            c = [x.strip() for x in line.strip().strip("|").split(" | ")]
            rows.append((c[0], c[1], c[4], c[5], c[2], c[3]))
        elif line.startswith("- " + prefix):
            notes.append(line)
    return rows, notes
