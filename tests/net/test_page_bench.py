"""The spectator page's heap benchmark: bench/page.py runs the page on MicroPython's unix port
and rewrites only the "Board page" rows and notes of docs/performance.md (a copy here); its
figures are heap sizes, labelled as unix port figures, and serving requests again takes no
more heap (nothing grows per request)."""

import re

from support.benchpage import rerun
from support.unixport import micropython_unix


def test_bench_page_rewrites_only_its_rows(tmp_path):
    micropython_unix()  # skips (or fails) where the unix port cannot be built
    before, after = rerun(tmp_path, "page.py", "Board page")
    rows = [l for l in after if l.startswith("|")]
    assert len(rows) == 2 and all("(unix port figures)" in l for l in rows), rows
    imports = re.fullmatch(r"(\d+) / (\d+) B", rows[0].split(" | ")[1].strip())
    assert imports and int(imports.group(2)) > 2000, rows[0]  # the page's bytes, at least
    heap = re.fullmatch(r"(\d+) / (\d+) / (\d+) / (\d+) B", rows[1].split(" | ")[1].strip())
    assert heap, rows[1]
    without, opened, served, again = (int(x) for x in heap.groups())
    assert without < opened <= served
    assert again - served <= 256, rows[1]  # a second round of requests keeps nothing
    assert any(l.startswith("- Board page rows") for l in after)
    assert len(before) == 3  # the committed page holds them
