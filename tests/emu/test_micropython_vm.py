"""The referee core inside real MicroPython (WebAssembly port under Node):
three rounds of Escape from Hoth and an swsb game with fleet command and undo give the same
state_hash and the same rendered frame after every key press as under CPython, within a Pico's
192 KB heap."""

import json
import os
import subprocess

import pytest

from support import ROOT
from host_tools.sim import script as scriptmod
from referee.app import Referee
from referee.dice import Dice, XorShift32
from binascii import crc32
from referee.render import Renderer
from support.vm import PLAY, RUNNER, run_in_micropython

BOARD = json.load(open(os.path.join(ROOT, "boards", "pico-ws2812-16x16.json")))
HEAP = 192 * 1024


def cpython_steps(scenario, script_file, seed=1):
    """Expand the key script on CPython and record (seq, hash, frame hash) per action."""
    r = Renderer(16, 16)
    app = Referee(
        BOARD,
        os.path.join(ROOT, "firmware", "rosters"),
        lambda l: None,
        Dice(XorShift32(seed)),
        r.rows_per_page,
    )
    app.load_scenario(scenario)
    steps = scriptmod.parse(open(os.path.join(ROOT, "docs", "scripts", script_file)).read())
    actions, rows = [], []
    for st in steps:
        for a in scriptmod.expand(st, app):
            app.pad.key(a)
            r.render(app)
            actions.append(a)
            rows.append(
                "%d %s %08x" % (app.game.seq, app.game.state_hash(), crc32(r.fb) & 0xFFFFFFFF)
            )
    return actions, rows, app


@pytest.mark.parametrize(
    "scenario,script_file,rounds",
    [
        ("hoth", "hoth-3-rounds.txt", 4),
        ("swsb-example", "swsb-3-rounds.txt", 4),
        ("swsb-addon-example", "swsb-addon-demo.txt", 2),
        ("squadrons-d6-example", "squadrons-d6-demo.txt", 2),
        ("xwing-overlap-example", "xwing-overlap-demo.txt", 2),
    ],
)
def test_same_hashes_on_micropython(scenario, script_file, rounds, tmp_path):
    actions, rows, app = cpython_steps(scenario, script_file)
    assert app.game.round == rounds  # the rounds the script plays were played
    lines = run_in_micropython(
        {"scenario": scenario, "actions": actions, "board": BOARD, "seed": 1}, tmp_path
    )
    impl = [l for l in lines if l.startswith("IMPL")]
    assert impl and "micropython" in impl[0]
    steps = [l.split(" ", 2)[2] for l in lines if l.startswith("STEP")]
    assert len(steps) == len(actions)
    for i, (mine, theirs) in enumerate(zip(rows, steps)):
        assert mine == theirs, "after action %d (%s)" % (i, actions[i])
    mem = next(l for l in lines if l.startswith("MEM")).split()
    peak, live = int(mem[2]), int(mem[3])
    assert live <= peak <= HEAP


def test_soak_20000_events_on_micropython_with_pico_heap(tmp_path):
    """20,000 random events on a 2x24-ship game inside MicroPython; the full
    log goes to the journal on the VM's filesystem, RAM holds the state and the undo window."""
    lines = run_in_micropython(
        {"events": 20000, "per_step": 10, "seed": 9, "window": 256, "ruleset": "swsb"},
        tmp_path,
        os.path.join(ROOT, "tests", "mpvm", "soak.py"),
    )
    soak = next(l for l in lines if l.startswith("SOAK")).split()
    accepted, seq, h, restored = int(soak[1]), int(soak[2]), soak[3], soak[4]
    event_peak, _live_min, live_early, live_late = map(int, soak[5:9])
    assert accepted == seq == 20000
    assert restored == h  # the journal restores the same state
    assert int(soak[10]) == 20000  # and holds the full log, 1..20,000
    assert live_late + event_peak <= HEAP  # never a MemoryError on a Pico's heap
    assert live_late - live_early < 4096  # the heap stays bounded: no growth per event


def test_compiled_mpy_files_run_the_same_game(tmp_path):
    """The .mpy files mpy-cross makes (bytecode, as the Pico loads them) play Escape from Hoth
    with the same hashes and frames as CPython after every key press."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "bench_run", os.path.join(ROOT, "bench", "run.py")
    )
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    tree = bench.mpy_tree()
    assert not any(n.endswith(".py") for n in os.listdir(os.path.join(tree, "referee")))
    actions, rows, _app = cpython_steps("hoth", "hoth-3-rounds.txt")
    p = tmp_path / "data.json"
    p.write_text(json.dumps({"scenario": "hoth", "actions": actions, "board": BOARD, "seed": 1}))
    out = subprocess.run(
        ["node", RUNNER, tree, PLAY, str(p)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
        check=False,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    steps = [l.split(" ", 2)[2] for l in out.stdout.splitlines() if l.startswith("STEP")]
    assert steps == rows
