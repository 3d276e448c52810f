"""A benchmark script run against a copy of docs/performance.md, as `make bench` runs it: it
must exit 0 and rewrite only its own rows and notes (the lines that start ``| PREFIX`` or
``- PREFIX``)."""

import os
import shutil

from support import ROOT
from support.process import python

PAGE = os.path.join(ROOT, "docs", "performance.md")


def own_lines(text, prefix):
    """The lines of page ``text`` that belong to the rows and notes named ``prefix``."""
    return [l for l in text.splitlines() if l.startswith(("| " + prefix, "- " + prefix))]


def rerun(tmp_path, script, prefix, *args, timeout=300):
    """Run ``bench/SCRIPT --out COPY ARGS`` on a copy of the committed page; asserts that it
    exits 0 and leaves every line but its own as it was. Returns (its lines in the committed
    page, its lines in the rewritten copy)."""
    out = tmp_path / "perf.md"
    shutil.copy(PAGE, out)
    before = open(PAGE).read()
    r = python(os.path.join(ROOT, "bench", script), "--out", str(out), *args, timeout=timeout)
    assert r.returncode == 0, r.stderr
    after = out.read_text()

    def rest(text):
        own = own_lines(text, prefix)
        return [l for l in text.splitlines() if l not in own]

    assert rest(after) == rest(before)
    return own_lines(before, prefix), own_lines(after, prefix)
