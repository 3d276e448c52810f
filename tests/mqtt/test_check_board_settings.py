"""The board's `/mqtt.json` with names and a port the docs do not allow (docs/mqtt.md:
section 1, names are 1-32 letters, digits, `-` or `_`, one topic level each; section 5, a
bad `/mqtt.json` is said once on serial as an `err` line with `src` `mqtt`), against the
real Mosquitto: the board says so once and publishes nothing, as `fleetref publish` refuses
such a `--table` in one line; keys keep their ``ev`` lines meanwhile."""

import json
import time

import pytest

from support.boardmqtt import keys_timed, start, write_settings
from support.mqtt import Recorder

BAD = [
    ("table", "table-01/x"),  # two topic levels, inside table-01's own subtree
    ("table", "+"),  # a wildcard: no topic to publish to
    ("event", "#"),
    ("port", 70000),  # no TCP port
]


@pytest.mark.parametrize(("field", "value"), BAD, ids=[f + "=" + str(v) for f, v in BAD])
def test_a_name_or_port_out_of_range_is_said_once_and_nothing_goes(
    broker, procs, tmp_path, field, value
):
    """A `mqtt.json` whose ``field`` is ``value`` (written by hand over what `fleetref
    tournament board` wrote): within 10 s one `err` line with `src` `mqtt` naming the
    field, nothing published anywhere on the broker, and keys answered within 1 s."""
    rec = Recorder(broker, "#", client_id="bad-settings-reader")
    procs.append(rec)
    flash = tmp_path / "flash"
    write_settings(broker, flash)
    path = flash / "mqtt.json"
    cfg = json.loads(path.read_text())
    cfg[field] = value
    path.write_text(json.dumps(cfg))
    board = start(flash)
    procs.append(board)
    assert max(keys_timed(board, 4)) < 1.0
    time.sleep(8.0)
    while board.line(0.3) is not None:
        pass
    said = [line for line in board.seen if '"src": "mqtt"' in line]
    published = sorted({topic for topic, _payload in rec.msgs})
    assert published == [], published
    assert len(said) == 1 and field in said[0], said
