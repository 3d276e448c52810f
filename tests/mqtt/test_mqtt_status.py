"""The dashboard against a real Mosquitto (tests/support/mqtt.py), as docs/mqtt.md section 3
says: malformed messages on a table's topics are counted on its card with the last reason
(in the JSON and on the page), and a publisher whose link dies is reported offline since the
time the broker's will reached the dashboard, not the time the publisher connected."""

import time

import pytest

from support.process import SimProcess
from host_tools.tournament import mqttlink
from devtools import webshots
from support.mqtt import EVENT, Broker, Recorder, dashboard, need_mqtt, publisher, wait_until
from support.web import get_json, need_browser


@pytest.fixture
def event(tmp_path, procs):
    """A broker for two tables and a dashboard: (broker, dashboard URL)."""
    need_mqtt()
    broker = Broker(tmp_path / "broker", tables=2)
    procs.append(broker)
    http = webshots.free_port()
    procs.append(dashboard(broker, http, "status-dash"))
    base = "http://127.0.0.1:%d" % http
    webshots.wait_http(base + "/api/tables", 30)
    return broker, base


def card(base, table):
    return {c["table"]: c for c in get_json(base + "/api/tables")["tables"]}.get(table)


def test_malformed_messages_are_counted_on_the_card(event):
    broker, base = event
    c = mqttlink.Client(
        broker.url,
        "malformed-writer",
        "table-01",
        mqttlink.read_password(broker.password("table-01")),
    )
    c.start()
    try:
        for kind, payload in (
            ("events", "not json"),
            ("state", '{"seq": 1}'),
            ("status", '{"online": "maybe"}'),
        ):
            c.publish(mqttlink.topic(EVENT, "table-01", kind), payload)
    finally:
        time.sleep(0.3)
        c.stop()
    wait_until(lambda: (card(base, "table-01") or {}).get("malformed") == 3, 10, 0.1)
    want = "3 malformed messages ignored, the last: status message: online must be true or false"
    assert card(base, "table-01")["warnings"] == [want]
    need_browser()
    d = webshots.browser()
    try:
        d.get(base + "/")

        def text():
            return d.execute_script(
                "var c = document.getElementById('table-table-01');"
                " return c ? [c.dataset.malformed, c.textContent] : null;"
            )

        wait_until(lambda: text() is not None and want in text()[1], 10, 0.2)
        assert text()[0] == "3"
        assert webshots.text_of(d, "warned") == "1"
    finally:
        d.quit()


def test_a_dead_publisher_is_offline_since_its_will_came(event, procs):
    broker, base = event
    rec = Recorder(broker, mqttlink.topic(EVENT, "table-02", "status"), client_id="status-reader")
    procs.append(rec)
    sim = SimProcess("--headless", "--scenario", "hoth", "--seed", "1")
    procs.append(sim)
    pub = publisher(broker, sim.port, "table-02")
    procs.append(pub)
    wait_until(lambda: (card(base, "table-02") or {}).get("online") is True, 30, 0.1)
    wait_until(lambda: any(s.get("online") for s in rec.of("/status")), 10, 0.1)
    online_t = [s for s in rec.of("/status") if s.get("online")][-1]["t"]
    time.sleep(2.5)  # connected long before the link dies
    died = time.time()
    pub.proc.kill()  # no goodbye: the broker sends the will
    wait_until(lambda: card(base, "table-02")["online"] is False, 15, 0.1)
    c = card(base, "table-02")
    assert died - 0.5 <= c["offline_since"] <= time.time(), (died, c["offline_since"])
    assert c["offline_since"] > online_t + 2
    assert any(w.startswith("publisher offline for ") for w in c["warnings"]), c["warnings"]
    assert rec.of("/status")[-1] == {"online": False}  # the will: no time in it
