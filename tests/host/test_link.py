"""A serial link that catches up, against the simulator's pseudo-terminal."""

import json
import os
import signal
import time

import pytest
import serial

from host_tools.link.mirror import Mirror, MirrorError
from referee import PROTO_VERSION
from support.process import drive, newer_protocol_board
from support.serialplay import HOTH_OPENING as PLAY


def pump_until(m, seq, seconds=10):
    end = time.monotonic() + seconds
    while m.rep.game.seq < seq and time.monotonic() < end:
        m.pump(0.1)
    return m.rep.game.seq


def test_pulled_cable_catches_up_from_last_seq(sim_factory):
    sim = sim_factory("--headless", "--scenario", "hoth", "--seed", "1")
    m = Mirror(sim.port, warn=lambda s: None)
    m.open()
    m.sync()
    drive_cmds = PLAY[:2]
    for c in drive_cmds:
        m.send(c)
    assert pump_until(m, 2) == 2
    m.close()  # cable pulled
    drive(sim.port, PLAY[2:])  # the board referees on meanwhile
    m.open()  # plugged back in
    m.sent.clear()
    m.sync()
    assert {"c": "events", "since": 2} in m.sent  # not everything again
    assert not any(c == {"c": "game"} for c in m.sent)
    assert m.rep.game.seq == 5 and not m.rep.mismatches
    assert m.board_snapshot()["state_hash"] == m.rep.game.state_hash()
    m.close()


def test_board_reset_restores_and_mirror_catches_up(sim_factory, tmp_path):
    flash = str(tmp_path / "flash")
    sim = sim_factory("--headless", "--scenario", "hoth", "--seed", "1", "--flash", flash)
    m = Mirror(sim.port, warn=lambda s: None)
    m.open()
    m.sync()
    for c in PLAY:
        m.send(c)
    assert pump_until(m, 5) == 5
    gid, h = m.rep.gid, m.rep.game.state_hash()
    os.kill(sim.proc.pid, signal.SIGKILL)  # power cut / reset mid-round
    sim.proc.wait()
    m.close()
    sim2 = sim_factory("--headless", "--seed", "2", "--flash", flash)  # boots, restores
    m.port = sim2.port
    m.open()
    m.sent.clear()
    m.sync()
    assert m.hello["gid"] == gid and m.hello["seq"] == 5
    assert {"c": "events", "since": 5} in m.sent and {"c": "game"} not in m.sent
    assert m.board_snapshot()["state_hash"] == h == m.rep.game.state_hash()
    assert m.board_snapshot()["phase"] == "movement"
    m.close()


def test_host_restart_resumes_from_its_log(sim_factory, tmp_path):
    sim = sim_factory("--headless", "--scenario", "hoth", "--seed", "1")
    log = tmp_path / "mirror.jsonl"
    m = Mirror(sim.port, log=open(log, "a"), warn=lambda s: None)
    m.open()
    m.sync()
    for c in PLAY[:3]:
        m.send(c)
    assert pump_until(m, 3) == 3
    m.close()
    m.log.close()
    drive(sim.port, PLAY[3:])
    m2 = Mirror(sim.port, warn=lambda s: None)  # a new host process
    assert m2.resume_from_log(str(log)) == 3
    m2.open()
    m2.sync()
    assert {"c": "events", "since": 3} in m2.sent and {"c": "game"} not in m2.sent
    assert m2.rep.game.seq == 5 and not m2.rep.mismatches
    m2.close()


def test_hash_disagreement_resyncs_fully(sim_factory):
    sim = sim_factory("--headless", "--scenario", "hoth", "--seed", "1")
    warnings = []
    m = Mirror(sim.port, warn=warnings.append)
    m.open()
    m.sync()
    m.send(PLAY[0])
    pump_until(m, 1)
    m.rep.game.counters[0] = 7  # the replica goes wrong somehow
    m.send(PLAY[1])
    end = time.monotonic() + 5
    while not warnings and time.monotonic() < end:
        m.pump(0.1)
    assert warnings and "MISMATCH" in warnings[0]
    m.pump(1.0)
    assert {"c": "events", "since": 0} in m.sent
    assert m.rep.game.counters[0] == 0
    assert m.board_snapshot()["state_hash"] == m.rep.game.state_hash()
    m.close()


def test_incompatible_protocol_versions_say_so(sim_factory):
    sim = sim_factory("--headless", "--scenario", "hoth", "--seed", "1")
    replies = drive(sim.port, [{"c": "hello", "proto": 99}])
    err = next(r for r in replies if r["t"] == "err")
    assert err["code"] == "proto" and "protocol 99" in err["msg"] and "firmware" in err["msg"]
    # and the host side refuses a board that speaks another version
    port, ends = newer_protocol_board()
    m = Mirror(port, warn=lambda s: None)
    m.open()
    with pytest.raises(
        MirrorError, match="protocol %d.*update the host tools" % (PROTO_VERSION + 1)
    ):
        m.sync()
    m.close()
    for fd in ends:
        os.close(fd)


def test_board_never_blocks_when_host_stops_reading(sim_factory):
    sim = sim_factory("--headless", "--scenario", "swsb-example", "--seed", "1")
    s = serial.Serial(sim.port, timeout=0.2)
    for _ in range(400):  # ~1.5 KB replies each, never read
        s.write(b'{"c": "snap"}\n')
    s.write(b'{"c": "roll", "values": [3, 12]}\n')
    time.sleep(1.0)
    s.reset_input_buffer()  # throw away the flood
    s.write(b'{"c": "hello"}\n')
    end = time.monotonic() + 5
    got = b""
    while b'"hello"' not in got and time.monotonic() < end:
        got += s.read(65536)
    s.close()
    assert b'"t": "hello"' in got
    hello = [json.loads(l) for l in got.decode().splitlines() if '"hello"' in l][-1]
    assert hello["seq"] == 1  # the roll was refereed during the flood


def test_a_load_that_finds_no_memory_is_tried_once_more_then_refused_whole():
    """A `load` that raises MemoryError (a fragmented heap) is tried again after a garbage
    collection, so the first try's half-built game is free; a second failure is refused with
    the game in play unchanged (all or nothing)."""
    import json as _json
    from support.game import make_referee

    app, out = make_referee("hoth")
    before = (app.gid, app.game.state_hash())
    real = app.load_scenario
    tries = []

    def flaky(name, ruleset=None, fail=[1]):
        tries.append(name)
        if fail[0]:
            fail[0] -= 1
            raise MemoryError("memory allocation failed, allocating 2552 bytes")
        return real(name, ruleset)

    app.load_scenario = flaky
    app.link.handle_line(_json.dumps({"c": "load", "scenario": "deathstar"}))
    assert tries == ["deathstar", "deathstar"] and app.scenario == "deathstar"

    def broke(name, ruleset=None):
        raise MemoryError("memory allocation failed")

    app.load_scenario = broke
    n = len(out)
    now = (app.gid, app.game.state_hash())
    app.link.handle_line(_json.dumps({"c": "load", "scenario": "hoth"}))
    errs = [_json.loads(x) for x in out[n:] if '"err"' in x]
    assert errs and "not enough memory" in errs[-1]["msg"] and "nothing changed" in errs[-1]["msg"]
    assert (app.gid, app.game.state_hash()) == now != before
