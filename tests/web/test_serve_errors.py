"""A web server that cannot listen says why in one line and stops with exit status 2; Ctrl-C
ends it quietly; either way what it started is stopped (`fleetref web`, `fleetref
dashboard`)."""

import socket

from host_tools.views import web
from support.process import cli


def test_a_port_that_is_taken_is_one_line_and_status_2(sim_factory, env):
    sim = sim_factory("--headless", "--scenario", "hoth", "--seed", "1")
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    try:
        port = taken.getsockname()[1]
        r = cli("web", "--port", sim.port, "--http", "127.0.0.1:%d" % port, timeout=60, env=env)
    finally:
        taken.close()
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert "Traceback" not in r.stderr
    assert (
        r.stderr == "fleetref web: cannot serve on 127.0.0.1:%d: Address already in use\n" % port
    )


def test_serve_until_stopped_stops_what_it_started_on_every_way_out():
    said, stopped = [], []

    def cannot_listen():
        raise OSError(98, "address already in use: 127.0.0.1:8765")

    def interrupted():
        raise KeyboardInterrupt

    def stop():
        stopped.append(1)

    assert web.serve_until_stopped(said.append, cannot_listen, stop) == 2
    assert said == ["[Errno 98] address already in use: 127.0.0.1:8765"] and stopped == [1]
    assert web.serve_until_stopped(said.append, interrupted, stop) == 0
    assert web.serve_until_stopped(said.append, lambda: None, stop) == 0
    assert len(said) == 1 and stopped == [1, 1, 1]
