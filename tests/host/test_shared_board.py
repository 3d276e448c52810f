"""Several host tools follow one board at once (host_tools/link/sharedport.py; docs/protocol.md,
"Sharing a board among host tools"): the first tool holds the serial port and the others
attach through its socket. On the simulator and on the emulated Pico, `fleetref mirror`,
`fleetref web` and `fleetref publish` (a real Mosquitto) run while `fleetref save` saves the
game, and all of them agree on the state hash; `roster push` and `load` work meanwhile and
`fleetref flash` is refused while they run; when the tool holding the port ends, the others
attach again and follow on. A mirror takes no answer it did not ask for (another tool's
`game`, `state` or `gone`). A tool meeting a port held by another program says so in one line
and stops."""

import json
import os
import time

import pytest
import serial

from support import ROOT
from support.process import SimProcess, start_cli
from support.gen import long_game
from devtools import webshots
from host_tools.link.mirror import Mirror
from support.mqtt import publish_args
from support.web import wait_until
from support.followers import Followers, TABLE
from support.process import cli, synced_mirror


def board_snap(port):
    """The board's own snapshot, asked by one more tool attached to the shared port."""
    m = Mirror(port, warn=lambda s: None)
    m.open()
    try:
        m.sync()
        snap = m.board_snapshot()
        assert snap["state_hash"] == m.rep.game.state_hash()
        return snap
    finally:
        m.close()


def send(port, commands, want):
    """Send ``commands`` as another tool on the shared port; wait for event ``want``."""
    m = Mirror(port, warn=lambda s: None)
    m.open()
    try:
        m.sync()
        for c in commands:
            m.send(c)
        end = time.monotonic() + 60
        while m.rep.game.seq != want and time.monotonic() < end:
            m.pump(0.1)
        assert m.rep.game.seq == want, m.rep.errors
    finally:
        m.close()


def test_mirror_web_publish_save_load_and_roster_push_share_a_simulator(tmp_path, broker, procs):
    env = dict(os.environ)
    sim = SimProcess("--headless", "--scenario", "hoth", "--seed", "1")
    procs.append(sim)
    f = Followers(sim.port, env, broker, tmp_path, procs)
    send(
        sim.port,
        [
            {"c": "roll", "values": [9, 4]},
            {"c": "phase"},
            {"c": "launch", "ship": 1},
            {"c": "hit", "ship": 1},
        ],
        4,
    )
    f.agree(board_snap(sim.port), 30)
    saved = tmp_path / "game.json"
    r = cli("save", str(saved), "--port", sim.port, env=env)
    assert r.returncode == 0 and "saved 4 events" in r.stdout, r.stderr
    snap = board_snap(sim.port)
    assert json.loads(saved.read_text())["snapshot"]["state_hash"] == snap["state_hash"]
    f.agree(snap, 30)
    r = cli("mirror", "--once", "--json", "--port", sim.port, env=env)
    assert r.returncode == 0 and json.loads(r.stdout)["state_hash"] == snap["state_hash"]
    # fleetref flash needs the port for itself: refused in one line while tools follow it
    from host_tools.board import flash, flash_board

    with pytest.raises(flash.FlashError, match="busy: close the mirror"):
        flash_board.check_port_free(sim.port)
    r = cli(
        "roster",
        "push",
        os.path.join(ROOT, "firmware", "rosters", "hoth.json"),
        "--name",
        "shared-hoth",
        "--port",
        sim.port,
        env=env,
    )
    assert r.returncode == 0 and "stored" in r.stdout, r.stderr
    # another game on the board, then the saved one loaded back: every tool follows
    send(sim.port, [{"c": "load", "scenario": "deathstar"}, {"c": "roll", "values": [3, 8]}], 1)
    r = cli("load", str(saved), "--force", "--port", sim.port, env=env)
    assert r.returncode == 0 and snap["state_hash"] in r.stdout, r.stderr
    back = board_snap(sim.port)
    assert back["state_hash"] == snap["state_hash"] and back["gid"] != snap["gid"]
    f.agree(back, 30)
    assert f.web.state()["gid"] == back["gid"]
    for out in f.outputs():
        assert "Traceback" not in out and "MISMATCH" not in out, out[-2000:]


def test_when_the_tool_holding_the_port_ends_the_others_follow_on(tmp_path, broker, procs):
    env = dict(os.environ)
    sim = SimProcess("--headless", "--scenario", "hoth", "--seed", "1")
    procs.append(sim)
    f = Followers(sim.port, env, broker, tmp_path, procs)
    send(sim.port, [{"c": "roll", "values": [9, 4]}], 1)
    f.agree(board_snap(sim.port), 30)
    f.web.stop()  # it held the port
    send(sim.port, [{"c": "phase"}, {"c": "launch", "ship": 1}], 3)
    f.agree(board_snap(sim.port), 30, without=("web",))
    assert "link lost" in f.mirror.text() + f.pub.text()
    f.mirror.stop()  # and the next one
    send(sim.port, [{"c": "hit", "ship": 1}], 4)
    wait_until(lambda: f.hashes()["publish"] == (4, board_snap(sim.port)["state_hash"]), 30)
    f.pub.stop()
    from host_tools.board import flash_board

    flash_board.check_port_free(sim.port)  # the last tool gone: the port is free
    for out in f.outputs():
        assert "Traceback" not in out, out[-2000:]


def test_a_mirror_takes_no_answer_another_tool_asked_for(sim_factory):
    """A board without a journal holds the newest events only: a second tool's `events` since
    0 gets `gone`, then takes the board's `state`; the first mirror, following since event 0,
    keeps its whole record and asks for nothing."""
    g, evs = long_game()
    sim = sim_factory("--headless", "--scenario", "swsb-example", "--seed", "1")
    m1 = synced_mirror(sim.port)
    for i in range(0, len(evs), 100):
        m1.send({"c": "append", "events": evs[i : i + 100]})
    end = time.monotonic() + 60
    while m1.rep.game.seq < len(evs) and time.monotonic() < end:
        m1.pump(0.1)
    assert m1.rep.game.seq == len(evs) and m1.rep.game.state_hash() == g.state_hash()
    m1.sent.clear()
    m2 = synced_mirror(sim.port)  # hello, game, events since 0: gone, state
    assert m2.rep.base0[0] > 0 and {"c": "state"} in m2.sent
    assert m2.rep.game.state_hash() == g.state_hash()
    m1.pump(1.0)
    assert m1.sent == [] and m1.rep.base0 == (0, None) and len(m1.rep.rows) == len(evs)
    assert m1.rep.gid == m2.rep.gid and m1.rep.game.seq == len(evs)
    m2.send({"c": "undo"})
    m2.pump(1.0)
    m1.pump(1.0)
    snap = m2.board_snapshot()
    assert snap["seq"] == len(evs) + 1
    for m in (m1, m2):
        m.pump(0.5)
        assert m.rep.game.state_hash() == snap["state_hash"] and not m.rep.mismatches
    assert m1.sent == [] and len(m1.rep.rows) == len(evs) + 1
    m2.close()
    m1.close()


def test_a_port_held_by_another_program_is_said_in_one_line(sim_factory, tmp_path, broker):
    sim = sim_factory("--headless", "--scenario", "hoth", "--seed", "1")
    env = dict(os.environ)
    holder = serial.Serial(sim.port, exclusive=True)  # a serial terminal, say
    try:
        runs = [
            ("mirror", "--port", sim.port),
            ("web", "--port", sim.port, "--http", "127.0.0.1:%d" % webshots.free_port()),
            ("save", str(tmp_path / "g.json"), "--port", sim.port),
            (
                "roster",
                "push",
                os.path.join(ROOT, "firmware", "rosters", "hoth.json"),
                "--port",
                sim.port,
            ),
            publish_args(broker, sim.port, TABLE),
        ]
        procs = [start_cli(*a, env=env) for a in runs]
        t0 = time.monotonic()
        outs = [p.communicate(timeout=60) for p in procs]
        took = time.monotonic() - t0
    finally:
        holder.close()
    for a, p, (out, err) in zip(runs, procs, outs):
        assert p.returncode == 2, (a, out, err)
        assert len(err.splitlines()) == 1 and "another program holds it" in err, (a, err)
        assert err.startswith("fleetref %s: cannot open %s" % (a[0], sim.port)), err
    assert took < 30
    # the port free again: the tools have it
    r = cli("mirror", "--once", "--json", "--port", sim.port, env=env)
    assert r.returncode == 0 and json.loads(r.stdout)["hash_match"], r.stderr


def test_no_such_device_is_said_in_one_line(tmp_path):
    env = dict(os.environ)
    gone = str(tmp_path / "ttyACM9")
    http = "127.0.0.1:%d" % webshots.free_port()
    for args in (("mirror", "--port", gone), ("web", "--port", gone, "--http", http)):
        r = cli(*args, timeout=30, env=env)
        assert r.returncode == 2 and len(r.stderr.splitlines()) == 1, r.stderr
        assert "cannot open %s" % gone in r.stderr and "Traceback" not in r.stderr


def test_a_board_of_another_protocol_stops_the_live_mirror_at_once():
    """Retrying would not help: the live mirror (and web, publish) stop with the reason."""
    from host_tools.link.mirror import Incompatible
    from support.process import newer_protocol_board

    port, ends = newer_protocol_board()
    m = Mirror(port, warn=lambda s: None)
    t0 = time.monotonic()
    with pytest.raises(Incompatible, match="update the host tools"):
        m.follow(lambda mm: None, stop=lambda: time.monotonic() - t0 > 20)
    assert time.monotonic() - t0 < 10 and not m.connected
    for fd in ends:
        os.close(fd)
