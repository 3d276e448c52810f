"""A board that cannot be had is said in one line and the tool stops (docs/protocol.md, "Sharing
a board among host tools"): `fleetref mirror`, `web` and `publish` on a port where nothing
answers (a pseudo-terminal nobody writes to: not a board running fleetref) stop with status 2
after the first `hello` that gets no reply, naming the port and the reason. A board that
answered and then went silent (here a simulator stopped with SIGSTOP while the tool holding
its port ends) is waited for: the tool says the link is lost once and follows again when the
board is back. `web` on an HTTP port in use says only that."""

import errno
import os
import pty
import signal
import socket
import subprocess
import time
import tty


from support.process import SimProcess, start_cli
from host_tools.link.mirror import Mirror
from support.mqtt import publish_args
from support.web import WebProcess, wait_until

REPLY_S = 2  # FLEETREF_REPLY_TIMEOUT for these tests: a board's reply within 2 s
ENV = dict(os.environ, FLEETREF_REPLY_TIMEOUT=str(REPLY_S))


def silent_port():
    """A pseudo-terminal whose other end never writes; (path, fds to close)."""
    master, slave = pty.openpty()
    tty.setraw(slave)
    return os.ttyname(slave), (master, slave)


def free_http():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return "127.0.0.1:%d" % port


def start(*args):
    return start_cli(*args, env=ENV)


def ended(procs, within=40):
    """(returncode, stdout, stderr) of each process, killed if it has not ended ``within``
    seconds (a tool that retries forever fails the test instead of hanging it)."""
    out = []
    for p in procs:
        try:
            o, e = p.communicate(timeout=within)
        except subprocess.TimeoutExpired:
            p.kill()
            o, e = p.communicate()
            o += "\n[still running after %d s: killed]" % within
        out.append((p.returncode, o, e))
    return out


def check_said_and_stopped(name, port, result):
    rc, out, err = result
    assert rc == 2, (name, rc, out, err)
    assert len(err.splitlines()) == 1, (name, err)
    assert err.startswith(
        "fleetref %s: no 'hello' reply from %s within %d s" % (name, port, REPLY_S)
    ), (name, err)
    assert "fleetref's firmware" in err and "fleetref flash" in err, err
    assert "retrying" not in out + err and "Traceback" not in out + err, (name, out, err)


def test_mirror_and_web_stop_on_a_port_where_nothing_answers():
    ports = [silent_port() for _ in range(2)]
    try:
        t0 = time.monotonic()
        procs = [
            start("mirror", "--port", ports[0][0]),
            start("web", "--port", ports[1][0], "--http", free_http()),
        ]
        results = ended(procs)
        took = time.monotonic() - t0
    finally:
        for _path, fds in ports:
            for fd in fds:
                os.close(fd)
    check_said_and_stopped("mirror", ports[0][0], results[0])
    check_said_and_stopped("web", ports[1][0], results[1])
    assert took < 6 * REPLY_S + 10  # one hello, not a retry loop


def test_publish_stops_on_a_port_where_nothing_answers(broker):
    port, fds = silent_port()
    try:
        p = start(*publish_args(broker, port, "table-01"))
        result = ended([p])[0]
    finally:
        for fd in fds:
            os.close(fd)
    check_said_and_stopped("publish", port, result)


def test_a_board_that_answered_and_went_silent_is_waited_for(tmp_path, procs):
    """`fleetref web` follows a simulator through the port a mirror holds; the simulator stops
    answering (SIGSTOP) and the mirror ends: the web view attaches again, asks its `hello`
    in vain, says the link is lost once, keeps trying, and follows when the board is back."""
    sim = SimProcess("--headless", "--scenario", "hoth", "--seed", "1")
    procs.append(sim)
    log = tmp_path / "mirror.jsonl"
    holder = start("mirror", "--port", sim.port, "--log", str(log))
    try:
        wait_until(lambda: log.exists() and "game" in log.read_text(), 30)
        web = WebProcess(sim.port, ENV)
        procs.append(web)
        wait_until(lambda: web.state()["gid"] is not None, 30)
        os.kill(sim.proc.pid, signal.SIGSTOP)  # the board goes silent ...
        try:
            holder.terminate()  # ... and the web view must attach again
            holder.communicate(timeout=30)
            wait_until(lambda: not web.state()["link"]["connected"], 10)
            time.sleep(3 * (REPLY_S + 1))  # three hellos without a reply
            assert web.proc.poll() is None, "".join(web.out)
        finally:
            os.kill(sim.proc.pid, signal.SIGCONT)  # back
        text = "".join(web.out)
        assert text.count("link lost") == 1 and text.count("retrying") == 1, text
        wait_until(lambda: web.state()["link"]["connected"], 30)
        m = Mirror(sim.port, warn=lambda s: None)  # a player's action: the web view has it
        m.open()
        try:
            m.sync()
            m.send({"c": "roll", "values": [9, 4]})
            m.pump(0.5)
        finally:
            m.close()
        wait_until(lambda: web.state()["seq"] == 1, 30)
        assert "Traceback" not in "".join(web.out)
    finally:
        if holder.poll() is None:
            holder.kill()
            holder.communicate()


def test_web_on_an_http_port_in_use_says_only_that(sim_factory):
    sim = sim_factory("--headless", "--scenario", "hoth", "--seed", "1")
    busy = socket.create_server(("127.0.0.1", 0))
    try:
        http = "127.0.0.1:%d" % busy.getsockname()[1]
        rc, out, err = ended([start("web", "--port", sim.port, "--http", http)])[0]
    finally:
        busy.close()
    assert rc == 2 and out == "", (out, err)
    assert err.splitlines() == [
        "fleetref web: cannot serve on %s: %s" % (http, os.strerror(errno.EADDRINUSE))
    ], err
