"""The referee core inside real MicroPython: the WebAssembly port under Node (tests/mpvm)."""

import json
import os
import shutil
import subprocess

import pytest

from support import ROOT

RUNNER = os.path.join(ROOT, "tests", "mpvm", "run.mjs")


PLAY = os.path.join(ROOT, "tests", "mpvm", "play.py")


def node_ready():
    return shutil.which("node") and os.path.isdir(
        os.path.join(ROOT, "node_modules", "@micropython", "micropython-webassembly-pyscript")
    )


def run_in_micropython(data, tmp_path, script=PLAY):
    if not node_ready():
        pytest.fail("MicroPython VM missing: run `make test` (it runs npm ci)")
    p = tmp_path / "data.json"
    p.write_text(json.dumps(data))
    out = subprocess.run(
        ["node", RUNNER, os.path.join(ROOT, "firmware"), script, str(p)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
        check=False,
    )
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    return out.stdout.splitlines()
