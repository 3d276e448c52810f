"""Twenty simulated tables play the shipped key scripts
(docs/scripts/, the five rulesets, each with its own dice seed), each followed by its own
`fleetref publish` with its own credentials, through a real Mosquitto; `fleetref dashboard`
shows all twenty with the boards' state hashes in headless Chromium, its results CSV holds
them, and a dashboard started afresh rebuilds every card from the retained messages (and flags
the unfinished games silent)."""

import concurrent.futures
import csv
import io
import os
import urllib.request

import pytest

from support import ROOT
from support.process import SimProcess, cli
from devtools import webshots
from support.mqtt import Broker, dashboard, dashboard_args, need_mqtt, publisher, wait_until
from support.reportgames import GAMES
from support.web import get_json, need_browser

N = 20


@pytest.fixture(scope="module")
def event(tmp_path_factory):
    """The broker, twenty tables played to the end of their scripts and published, and a
    dashboard: yields (broker, {table: final snapshot of its board}, dashboard URL)."""
    need_mqtt()
    broker = Broker(tmp_path_factory.mktemp("broker"), tables=N)
    procs = []
    games = sorted(GAMES)

    def table(i):
        args, script, _extra = GAMES[games[i % len(games)]]
        sim = SimProcess(
            "--headless",
            "--hold",
            "--wait-for-host",
            *args,
            "--seed",
            str(i + 1),
            "--script",
            os.path.join(ROOT, "docs", "scripts", script),
        )
        return sim

    try:
        with concurrent.futures.ThreadPoolExecutor(8) as ex:
            sims = list(ex.map(table, range(N)))
        procs += sims
        names = ["table-%02d" % (i + 1) for i in range(N)]
        http = webshots.free_port()
        procs.append(dashboard(broker, http, "dash-1"))
        base = "http://127.0.0.1:%d" % http
        webshots.wait_http(base + "/api/tables", 30)  # serving: subscribed, so it gets all
        procs += [publisher(broker, sim.port, name) for sim, name in zip(sims, names)]
        finals = {name: sim.final() for sim, name in zip(sims, names)}
        yield broker, finals, base
    finally:
        for p in reversed(procs):
            p.stop()
        broker.stop()


def hashes(view):
    return {c["table"]: (c["seq"], c["state_hash"]) for c in view["tables"]}


def check_a_restarted_dashboard_rebuilds_from_retained_messages(broker, finals, base):
    want = {t: (f["seq"], f["state_hash"]) for t, f in finals.items()}
    wait_until(lambda: hashes(get_json(base + "/api/tables")) == want, 90, 0.5)
    http = webshots.free_port()
    fresh = dashboard(broker, http, "dash-2", silent_after=1)  # a new session: no queue
    try:
        url = "http://127.0.0.1:%d/api/tables" % http
        webshots.wait_http(url, 30)
        wait_until(lambda: hashes(get_json(url)) == want, 20, 0.2)
        wait_until(lambda: all(c["idle_s"] > 1.5 for c in get_json(url)["tables"]), 10, 0.2)
        for c in get_json(url)["tables"]:
            silent = [w for w in c["warnings"] if w.startswith("silent for")]
            assert bool(silent) == (finals[c["table"]]["winner"] is None), c
            assert c["online"] is True
            assert len(c["recent"]) == min(5, finals[c["table"]]["seq"])  # from the state
    finally:
        fresh.stop()


def check_the_page_in_chromium(broker, finals, base):
    want = {t: (f["seq"], f["state_hash"]) for t, f in finals.items()}
    assert len({h for _s, h in want.values()}) > 5  # the games differ
    wait_until(lambda: hashes(get_json(base + "/api/tables")) == want, 90, 0.5)
    d = webshots.browser()
    try:
        webshots.viewport(d, 1400, 1000)
        d.get(base + "/")

        def shown():
            return d.execute_script(
                "var o = {}; document.querySelectorAll('.card').forEach(function (c) {"
                " o[c.dataset.table] = [c.dataset.seq, c.dataset.hash]; }); return o;"
            )

        wait_until(lambda: shown() == {t: [str(s), h] for t, (s, h) in want.items()}, 20, 0.2)
        assert webshots.text_of(d, "count") == str(N)
        view = get_json(base + "/api/tables")
        for c in view["tables"]:
            f = finals[c["table"]]
            card = d.execute_script(
                "return document.getElementById(arguments[0]).textContent", "table-" + c["table"]
            )
            assert "round %d · %s" % (f["round"], f["phase"]) in card, card
            assert c["winner"] == f["winner"] and c["warnings"] == [], c
            if f["winner"] is not None:
                assert "Winner: " + f["sides"][f["winner"]] in card
            left = sum(s["hp"][0] + s["hp"][1] - s["damage"] for s in f["ships"] if s["side"] == 0)
            assert c["strength"][0][0] == left
            assert c["events_seen"] == f["seq"]  # every event, each once
        rows = d.execute_script("return document.querySelectorAll('#results tbody tr').length")
        assert rows == N
    finally:
        d.quit()
    with urllib.request.urlopen(base + "/results.csv", timeout=10) as r:
        table = list(csv.DictReader(io.StringIO(r.read().decode())))
    assert {row["table"]: (int(row["seq"]), row["state_hash"]) for row in table} == want


def test_twenty_tables_on_the_dashboard_and_after_its_restart(event):
    """One test, so that pytest-xdist never starts the twenty tables twice: the restarted
    dashboard first (no browser needed), then the page in Chromium (skips with one line
    without it, unless FLEETREF_REQUIRE_BROWSER)."""
    broker, finals, base = event
    check_a_restarted_dashboard_rebuilds_from_retained_messages(broker, finals, base)
    need_browser()
    check_the_page_in_chromium(broker, finals, base)


def test_a_taken_http_port_is_named_in_one_line(tmp_path):
    """`dashboard --http` on a port another program listens on says which port, once, and
    stops (it said the broker link was lost and went on reconnecting)."""
    import socket

    need_mqtt()
    broker = Broker(tmp_path / "broker", tables=1)
    try:
        with socket.create_server(("127.0.0.1", 0)) as taken:
            port = taken.getsockname()[1]
            r = cli(*dashboard_args(broker, "127.0.0.1:%d" % port), timeout=60)
    finally:
        broker.stop()
    assert r.returncode == 2, r.stdout + r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "127.0.0.1:%d" % port in lines[0], r.stderr
    assert "broker" not in r.stderr and "Traceback" not in r.stderr
