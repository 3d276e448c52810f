"""The MQTT benchmark: bench/mqtt.py runs against a real Mosquitto and rewrites only the MQTT
rows and notes of docs/performance.md (a copy here); the committed page holds its figures."""

import re

from support.benchpage import rerun
from support.mqtt import need_mqtt


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
