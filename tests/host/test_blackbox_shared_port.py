"""Several host tools on one serial port at once (docs/protocol.md "Sharing a board among
host tools": "The mirror, `fleetref web`, `fleetref publish`, `save`, `load` and `roster
push` can follow one board at the same time"): a logging mirror and the web view follow a
simulator while its key script plays; `fleetref save` runs twice meanwhile; afterwards every
tool holds the board's game (same seq and state hash) and the dice verify."""

import json
import os
import socket
import time
import urllib.request

import support.blackbox  # noqa: F401  (the tools started run this checkout's firmware)
from support import ROOT
from support.process import SimProcess, Tool, cli

SCRIPT = os.path.join(ROOT, "docs", "scripts", "swsb-3-rounds.txt")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def web_state(http):
    with urllib.request.urlopen("http://%s/api/state" % http, timeout=5) as reply:
        return json.loads(reply.read())


def wait_for(check, timeout=120):
    end = time.monotonic() + timeout
    last = None
    while time.monotonic() < end:
        try:
            last = check()
            if last:
                return last
        except (OSError, ValueError) as exc:
            last = exc
        time.sleep(0.5)
    raise AssertionError("not reached in %s s: %r" % (timeout, last))


def web_holds(http, want):
    """Whether the web view on ``http`` shows the game ``want`` (seq, state hash)."""
    state = web_state(http)
    return (state.get("seq"), state.get("state_hash")) == want


def tool_env():
    """The environment of the tools: a plain terminal of 100 x 40."""
    return dict(os.environ, TERM="dumb", COLUMNS="100", LINES="40")


def scripted_sim(pace):
    """A held simulator that plays the swsb script once a host has spoken, one key press
    every ``pace`` ms."""
    return SimProcess(
        "--headless",
        "--hold",
        "--scenario",
        "swsb-example",
        "--script",
        SCRIPT,
        "--wait-for-host",
        "--pace",
        pace,
    )


def save(port, path):
    """`fleetref save` of the board on ``port`` to ``path``, which must succeed; its result."""
    out = cli("save", "--port", port, str(path))
    assert out.returncode == 0, out.stdout + out.stderr
    return out


def check_running(tools):
    """Every tool still runs and has printed no traceback."""
    for tool in tools:
        assert tool.proc.poll() is None, tool.text()
        assert "Traceback" not in tool.text(), tool.text()


def log_newest(path):
    """(seq, hash) of the newest event line in a mirror log."""
    newest = None
    for line in open(path).read().splitlines():
        row = json.loads(line) if line.strip() else {}
        if isinstance(row, dict) and "hash" in row and "seq" in row:
            newest = (row["seq"], row["hash"])
    return newest


def test_mirror_web_and_saves_on_one_simulator(tmp_path):
    env = tool_env()
    sim = scripted_sim("40")
    log = tmp_path / "mirror.log"
    http = "127.0.0.1:%d" % free_port()
    tools = []
    try:
        tools.append(Tool("mirror", "--port", sim.port, "--log", str(log), env=env))
        tools.append(Tool("web", "--port", sim.port, "--http", http, env=env))
        wait_for(lambda: web_state(http))
        save(sim.port, tmp_path / "mid.json")
        final = sim.final(timeout=300)
        save(sim.port, tmp_path / "end.json")
        want = (final["seq"], final["state_hash"])
        wait_for(lambda: log_newest(log) == want)
        wait_for(lambda: web_holds(http, want))
        assert log_newest(log) == want
        for path in (tmp_path / "mid.json", tmp_path / "end.json", log):
            out = cli("verify", str(path))
            assert out.returncode == 0, out.stdout + out.stderr
        replay = cli("replay", "--check", str(tmp_path / "end.json"))
        assert replay.returncode == 0, replay.stdout + replay.stderr
        check_running(tools)
    finally:
        for tool in tools:
            tool.stop()
        sim.stop()


def test_the_tool_holding_the_port_dies_and_the_others_go_on(tmp_path):
    """docs/protocol.md "Leaving": "When the process holding the port ends, the other tools
    see their link drop, say so once (`link lost (...); retrying`), attach again a second
    later, and one of them holds the port from then on; each catches up from the newest
    event it holds". The mirror (first, so it holds the port) is killed with SIGKILL while
    the script plays; the web view still reaches the final state, and a save afterwards has
    every event."""
    env = tool_env()
    sim = scripted_sim("60")
    http = "127.0.0.1:%d" % free_port()
    tools = []
    try:
        holder = Tool("mirror", "--port", sim.port, env=env)
        tools.append(holder)
        time.sleep(2)
        tools.append(Tool("web", "--port", sim.port, "--http", http, env=env))
        wait_for(lambda: web_state(http).get("seq", 0) > 5)
        holder.proc.kill()
        final = sim.final(timeout=300)
        want = (final["seq"], final["state_hash"])
        wait_for(lambda: web_holds(http, want))
        out = save(sim.port, tmp_path / "end.json")
        assert ("saved %d events" % final["seq"]) in out.stdout, out.stdout
        check_running(tools[1:])
    finally:
        for tool in tools:
            tool.stop()
        sim.stop()


def test_load_while_mirror_and_web_follow(tmp_path):
    """docs/protocol.md: "`fleetref load` takes as the answer to its `load` only a `game`
    line of a game other than the one the board held"; a mirror takes "A `game` line of
    another game ... as before (a new game on the board: `NEW GAME`)". A save of another
    game (the squadrons-d6 demo, played on a second simulator) is loaded with --force onto
    a board that a mirror and the web view follow: load succeeds, and the web view and a
    save afterwards show the loaded game's seq and hash."""
    env = tool_env()
    other = SimProcess(
        "--headless",
        "--hold",
        "--scenario",
        "squadrons-d6-example",
        "--script",
        os.path.join(ROOT, "docs", "scripts", "squadrons-d6-demo.txt"),
    )
    try:
        other_final = other.final(timeout=300)
        path = tmp_path / "other.json"
        save(other.port, path)
    finally:
        other.stop()
    want = (other_final["seq"], other_final["state_hash"])
    sim = SimProcess("--headless", "--hold", "--scenario", "swsb-example", "--script", SCRIPT)
    sim.final(timeout=300)
    http = "127.0.0.1:%d" % free_port()
    tools = []
    try:
        tools.append(Tool("mirror", "--port", sim.port, env=env))
        tools.append(Tool("web", "--port", sim.port, "--http", http, env=env))
        wait_for(lambda: web_state(http).get("seq"))
        out = cli("load", "--force", "--port", sim.port, str(path))
        assert out.returncode == 0, out.stdout + out.stderr
        wait_for(lambda: web_holds(http, want))
        out = save(sim.port, tmp_path / "after.json")
        assert ("saved %d events" % want[0]) in out.stdout, out.stdout
        check_running(tools)
    finally:
        for tool in tools:
            tool.stop()
        sim.stop()
