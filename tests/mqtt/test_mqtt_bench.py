"""The MQTT benchmark: bench/mqtt.py runs against a real Mosquitto and rewrites only the MQTT
rows and notes of docs/performance.md (a copy here); the committed page holds its figures."""

import re

from support.benchpage import rerun
from support.mqtt import need_mqtt
from support.unixport import micropython_unix


def test_bench_mqtt_rewrites_only_its_rows(tmp_path):
    need_mqtt()
    before, after = rerun(tmp_path, "mqtt.py", "MQTT", "--quick")
    rows = [l for l in after if l.startswith("|")]
    # the mechanics, not the speed (targets live in the bench): a figure for each size run
    assert re.fullmatch(r"(at least )?\d+", rows[0].split(" | ")[1].strip()), rows[0]
    assert "sizes 10" in rows[0]
    ten = next(l for l in rows if l.startswith("| MQTT   10 tables"))
    assert "40 of 40 events received" in ten  # 10 tables, 4 s: every event came
    # the committed page: the figures of a full run, with target and verdict
    doc = before
    head = [l for l in doc if l.startswith("| MQTT: tables")]
    assert head and head[0].split(" | ")[3] in ("met", "not met")
    assert any(l.startswith("- MQTT rows") for l in doc)


def test_bench_board_publisher_rewrites_only_its_rows(tmp_path):
    """bench/mqtt_board.py (the Pico W's publisher on the unix port) rewrites only its rows:
    a key latency row for each network case, the Wi-Fi down and flapping among them, then
    the service's heap; the committed page holds them."""
    need_mqtt()
    micropython_unix()
    before, after = rerun(tmp_path, "mqtt_board.py", "Pico W publisher", "--keys", "4")
    rows = [l for l in after if l.startswith("|")]
    cases = [r.split(" | ")[0] for r in rows if "key to its ev line" in r]
    assert len(cases) == 6 and any("Wi-Fi flapping" in c for c in cases), cases
    for row in rows[:-1]:
        assert re.fullmatch(r"\d+\.\d\d / \d+\.\d\d ms", row.split(" | ")[1].strip()), row
    assert "heap the service takes" in rows[-1]
    assert len([l for l in before if l.startswith("|")]) >= 5
