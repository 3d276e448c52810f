"""The MQTT benchmark: bench/mqtt.py runs against a real Mosquitto and rewrites only the MQTT
rows and notes of docs/performance.md (a copy here); the committed page holds its figures."""

import os
import re
import shutil
from support import ROOT
from support.process import python
from support.mqtt import need_mqtt

PAGE = os.path.join(ROOT, "docs", "performance.md")


def mqtt_lines(text):
    return [l for l in text.splitlines() if l.startswith(("| MQTT", "- MQTT"))]


def test_bench_mqtt_rewrites_only_its_rows(tmp_path):
    need_mqtt()
    out = tmp_path / "perf.md"
    shutil.copy(PAGE, out)
    before = open(PAGE).read()
    r = python(os.path.join(ROOT, "bench", "mqtt.py"), "--quick", "--out", str(out), timeout=300)
    assert r.returncode == 0, r.stderr
    after = out.read_text()

    def rest(t):
        return [l for l in t.splitlines() if l not in mqtt_lines(t)]

    assert rest(after) == rest(before)
    rows = [l for l in mqtt_lines(after) if l.startswith("|")]
    # the mechanics, not the speed (targets live in the bench): a figure for each size run
    assert re.fullmatch(r"(at least )?\d+", rows[0].split(" | ")[1].strip()), rows[0]
    assert "sizes 10" in rows[0]
    ten = next(l for l in rows if l.startswith("| MQTT   10 tables"))
    assert "40 of 40 events received" in ten  # 10 tables, 4 s: every event came
    # the committed page: the figures of a full run, with target and verdict
    doc = mqtt_lines(before)
    head = [l for l in doc if l.startswith("| MQTT: tables")]
    assert head and head[0].split(" | ")[3] in ("met", "not met")
    assert any(l.startswith("- MQTT rows") for l in doc)
