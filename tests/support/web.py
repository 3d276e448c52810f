"""Shared set-up for the web view's tests in headless Chromium (devtools.webshots): a
`fleetref web` process, a simulator whose keyboard the test types on (its terminal is a
pseudo-terminal), and the page's visible values. Without chromium and chromedriver the tests
skip with one line; FLEETREF_REQUIRE_BROWSER=1 (set by .ci/run) makes that a failure."""

import json
import os
import pty
import subprocess
import threading
import time
import urllib.request

from devtools import webshots
from support.process import final_snapshot, need, sim_headless, start_cli, stop_process


def need_browser():
    need(webshots.missing(), "FLEETREF_REQUIRE_BROWSER")


def get_json(url):
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.loads(r.read())


def _drain(stream, sink):
    for line in stream:
        sink.append(line)


class WebProcess:
    """`fleetref web --port PORT --http 127.0.0.1:<free port>`; .base is its URL."""

    def __init__(self, port, env, http=None, extra_env=None):
        self.http = http or webshots.free_port()
        self.base = "http://127.0.0.1:%d" % self.http
        self.out = []
        self.proc = start_cli(
            *("web", "--port", port, "--http", "127.0.0.1:%d" % self.http),
            env=dict(env, **(extra_env or {})),
            stderr=subprocess.STDOUT,
        )
        threading.Thread(target=_drain, args=(self.proc.stdout, self.out), daemon=True).start()
        webshots.wait_http(self.base + "/api/state", 30)

    def state(self):
        return get_json(self.base + "/api/state")

    def stop(self):
        stop_process(self.proc)


class KeyedSim:
    """`fleetref sim` with its terminal view, stdin a pseudo-terminal: :meth:`press` types on
    the simulator's keyboard (the button pad: 1234/qwer/asdf/zxcv) as a player does."""

    def __init__(self, env, *args):
        self.master, slave = pty.openpty()
        self.proc = start_cli("sim", *args, env=env, stdin=slave, stderr=subprocess.DEVNULL)
        os.close(slave)
        first = self.proc.stdout.readline()
        assert first.startswith("serial: "), first
        self.port = first.split(" ", 1)[1].strip()
        self.out = []
        threading.Thread(target=_drain, args=(self.proc.stdout, self.out), daemon=True).start()

    def final(self, timeout=60):
        """The final snapshot a headless simulator prints once its script is played."""
        wait_until(lambda: any(l.startswith("{") for l in self.out), timeout)
        return json.loads(next(l for l in self.out if l.startswith("{")))

    def press(self, keys):
        os.write(self.master, keys.encode())

    def stop(self):
        stop_process(self.proc)
        try:
            os.close(self.master)
        except OSError:
            pass


def page_value(driver, elem_id):
    return webshots.text_of(driver, elem_id)


def ship_rows(driver):
    """{ship name: status} as the page shows them."""
    return driver.execute_script(
        "var o = {}; document.querySelectorAll('tr.ship').forEach(function (tr) {"
        " o[tr.querySelector('.name').textContent] = tr.dataset.status; }); return o;"
    )


def wait_until(pred, timeout, step=0.02):
    """Poll ``pred`` until it is true; returns the seconds it took. Raises AssertionError."""
    t0 = time.monotonic()
    while True:
        try:
            if pred():
                return time.monotonic() - t0
        except Exception:
            pass
        if time.monotonic() - t0 > timeout:
            raise AssertionError("not within %.1f s" % timeout)
        time.sleep(step)


def serve(feed):
    """Serve ``feed`` on the web page's server in a thread; returns (base URL, stop)."""
    from host_tools.views import web

    port = webshots.free_port()
    started = threading.Event()
    servers = []
    t = threading.Thread(
        target=web.serve,
        args=(feed, "127.0.0.1", port, "test"),
        kwargs={"started": started, "say": lambda s: None, "on_server": servers.append},
        daemon=True,
    )
    t.start()
    assert started.wait(20)

    def stop():
        servers[0].should_exit = True
        t.join(10)

    return "http://127.0.0.1:%d" % port, stop


def headless(env, *args):
    """The final snapshot of `fleetref sim --headless ... --script`."""
    return final_snapshot(sim_headless(*args, env=env))
