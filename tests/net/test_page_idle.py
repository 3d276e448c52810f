"""The spectator page allocates nothing while no client is connected: on MicroPython's unix
port, with garbage collection off, 2 s of the asyncio loop with the page's server open
allocate no more than 2 s without it (tests/mpvm/page_idle.py)."""

import json
import os

from devtools import webshots
from support import ROOT
from support.unixport import run_script


def test_the_page_allocates_nothing_while_idle(tmp_path):
    port = webshots.free_port()
    (tmp_path / "page.json").write_text(json.dumps({"port": port}))
    r = run_script(os.path.join(ROOT, "tests", "mpvm", "page_idle.py"), str(tmp_path), str(port))
    assert r.returncode == 0, r.stderr + r.stdout
    tag, alone, served, status = r.stdout.split()[-4:]
    assert tag == "IDLE" and int(served) <= int(alone), r.stdout
    assert status == "200", r.stdout  # it was serving, on the settings file's port
