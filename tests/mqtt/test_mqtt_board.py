"""A Pico W publishing its own game (firmware/referee/net/mqtt.py) on MicroPython's unix port,
against a real Mosquitto with `fleetref tournament init`'s credentials and access list: a game
played with keys over serial reaches `fleetref dashboard` with the board's hashes, every seq
once; the broker stopped or killed mid-game and restarted, or the Wi-Fi dropping, loses and
duplicates no event, and events older than the RAM window come from the journal; a table's
board with another table's credentials publishes nothing; with the broker down or hanging,
keys get their ``ev`` lines as promptly as without the service; the password shows nowhere
(serial, the board's folder, stderr); the publisher's loop allocates nothing while idle."""

import json
import os
import signal
import subprocess
import time

import pytest

from devtools import webshots
from support.boardmqtt import (
    EVENTS,
    KEYS,
    SilentPort,
    free_port,
    is_ev,
    keys_timed,
    play,
    reader_and_board,
    seqs_once,
    settings_for,
    snap,
    start,
    write_settings,
)
from support.mqtt import EVENT, Recorder, dashboard, wait_until
from support import ROOT
from support.unixport import run_script
from support.web import get_json

IDLE = os.path.join(ROOT, "tests", "mpvm", "mqtt_idle.py")


def password_nowhere(board, flash, password):
    """The password appears in no serial line, no file of the board's folder but mqtt.json,
    and not in the board's stderr."""
    board.stop()
    assert password not in "\n".join(board.seen)
    assert password.encode() not in board.proc.stderr.read()
    for where, _dirs, files in os.walk(str(flash)):
        for name in files:
            if name == "mqtt.json":
                continue
            with open(os.path.join(where, name), "rb") as f:
                assert password.encode() not in f.read(), name


def test_a_board_publishes_its_game_to_the_dashboard(broker, procs, tmp_path):
    http = webshots.free_port()
    procs.append(dashboard(broker, http, "dash-board"))
    url = "http://127.0.0.1:%d/api/tables" % http
    webshots.wait_http(url, 30)
    rec = Recorder(broker, "fleetref/%s/#" % EVENT, client_id="board-reader")
    procs.append(rec)
    flash = tmp_path / "flash"
    password = write_settings(broker, flash)
    board = start(flash)
    procs.append(board)
    evs = play(board)
    final = snap(board)
    assert final["seq"] == EVENTS == len(evs)

    def card():
        cards = [c for c in get_json(url)["tables"] if c["table"] == "table-01"]
        return cards[0] if cards else {}

    wait_until(lambda: card().get("seq") == final["seq"], 20, 0.2)
    got = card()
    assert got["state_hash"] == final["state_hash"] and got["events_seen"] == final["seq"]
    assert got["online"] is True and got["gid"] == final["gid"]
    assert not got["warnings"] and got["sides"] == ["Empire", "Rebels"]
    once = seqs_once(rec.of("/table-01/events"))
    assert sorted(once) == list(range(1, EVENTS + 1))
    for line in evs:  # the board's own hash and sentence, as its ev lines said
        e = once[line["seq"]]
        assert e["hash"] == e["board_hash"] == line["hash"] and e["ev"] == line["ev"]
        assert e["text"][0].isupper() and e["text"].endswith(".") and e["table"] == "table-01"
    state = rec.of("/table-01/state")[-1]
    assert state["acked_seq"] == state["seq"] == final["seq"]
    assert rec.of("/table-01/status")[0]["online"] is True
    password_nowhere(board, flash, password)
    wait_until(lambda: card().get("online") is False, 10, 0.2)  # its will, once it is gone


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["stopped", "killed"])
def test_the_broker_restarted_mid_game_loses_and_duplicates_no_event(broker, procs, tmp_path, sig):
    if sig == signal.SIGKILL:  # the reader's session is saved before the game starts
        broker.autosave_every_second()
    rec = Recorder(broker, "fleetref/%s/+/events" % EVENT, client_id="board-reader-%d" % sig)
    procs.append(rec)
    if sig == signal.SIGKILL:
        broker.wait_for_autosave()
    flash = tmp_path / "flash"
    write_settings(broker, flash)
    board = start(flash)
    procs.append(board)
    play(board, KEYS[:7])
    wait_until(lambda: len(rec.of("/events")) >= 5, 20)
    broker.kill(sig)  # mid-game: the board plays on meanwhile
    play(board, KEYS[7:12])
    time.sleep(1.0)
    broker.start()
    play(board, KEYS[12:])
    final = snap(board)
    assert final["seq"] == EVENTS
    every = list(range(1, EVENTS + 1))
    wait_until(lambda: sorted(seqs_once(rec.of("/events"))) == every, 30, 0.2)
    once = seqs_once(rec.of("/events"))
    assert once[EVENTS]["hash"] == final["state_hash"]
    late = Recorder(broker, "fleetref/%s/table-01/state" % EVENT, client_id="late-reader")
    procs.append(late)
    wait_until(lambda: late.of("/state") and late.of("/state")[-1]["seq"] == EVENTS, 15, 0.2)
    assert late.of("/state")[-1]["acked_seq"] == EVENTS


def test_a_board_with_another_tables_credentials_publishes_nothing(broker, procs, tmp_path):
    rec = Recorder(broker, "fleetref/%s/#" % EVENT, client_id="acl-reader")
    procs.append(rec)
    flash = tmp_path / "flash"
    write_settings(broker, flash, table="table-01", user="table-02")
    board = start(flash)
    procs.append(board)
    said = board.until(lambda m: isinstance(m, dict) and m.get("src") == "mqtt", 15)
    assert "drops what table table-01 publishes as user table-02" in said["msg"]
    play(board, KEYS[:4])
    time.sleep(2.0)
    assert rec.msgs == []  # nothing under table-01's topics, nor anywhere
    board.stop()
    assert "Traceback" not in board.proc.stderr.read().decode()


@pytest.mark.parametrize("broker_is", ["down", "hanging"])
def test_keys_are_answered_promptly_whatever_the_broker_does(tmp_path, procs, broker_is):
    quiet = start(tmp_path / "quiet", services=())
    procs.append(quiet)
    plain = keys_timed(quiet)
    silent = SilentPort()
    procs.append(silent)
    port = free_port() if broker_is == "down" else silent.port
    flash = tmp_path / "flash"
    password = settings_for(flash, port)
    board = start(flash)
    procs.append(board)
    # 12 s of keys: over several tries to connect (refused at once, or a CONNACK awaited 5 s)
    timed = keys_timed(board, 48, 0.25)
    # a generous bound, only to catch a block: the figures are the bench's (bench/mqtt_board.py)
    assert max(timed) < 1.0, (timed, plain)
    assert sorted(timed)[len(timed) // 2] < max(0.25, 5 * sorted(plain)[len(plain) // 2])
    password_nowhere(board, flash, password)


def test_the_wifi_dropping_mid_game_loses_no_event(broker, procs, tmp_path):
    rec, board, down = reader_and_board(broker, procs, tmp_path, "wifi-reader")
    play(board, KEYS[:7])
    wait_until(lambda: len(seqs_once(rec.of("/events"))) >= 5, 20)
    open(down, "w").close()
    board.wait_link(("down", "joining"))  # the board has seen its link go
    play(board, KEYS[7:])
    time.sleep(1.0)
    assert len(seqs_once(rec.of("/events"))) < EVENTS  # nothing went while it was down
    os.remove(down)
    every = list(range(1, EVENTS + 1))
    wait_until(lambda: sorted(seqs_once(rec.of("/events"))) == every, 20, 0.2)


def test_events_older_than_the_window_come_from_the_journal(broker, procs, tmp_path):
    """Wi-Fi down from boot while more events than the board's RAM window holds (256) are
    played: once it is up, every seq reaches the broker once, the oldest read from the
    journal (no hash: the journal keeps none), the newest with the board's hashes."""
    rec = Recorder(broker, "fleetref/%s/+/events" % EVENT, client_id="journal-reader")
    procs.append(rec)
    flash = tmp_path / "flash"
    write_settings(broker, flash)
    down = tmp_path / "wifi-down"
    down.write_text("")
    board = start(flash, env={"FLEETREF_WIFI_DOWN": str(down)})
    procs.append(board)
    lines = play(board, KEYS[:2] + ("dmg+", "undo") * 150, pace=0.002)
    final = snap(board)
    assert final["seq"] == len(lines) == 302
    os.remove(down)
    every = list(range(1, 303))
    wait_until(lambda: sorted(seqs_once(rec.of("/events"))) == every, 30, 0.2)
    once = seqs_once(rec.of("/events"))
    old = [s for s in every if once[s]["hash"] == ""]
    assert old and old == list(range(1, len(old) + 1)), old  # the oldest, from flash
    for line in lines:
        e = once[line["seq"]]
        assert e["ev"] == line["ev"]
        assert e["hash"] in ("", line["hash"]) and (e["board_hash"] or "") == e["hash"]
    assert once[302]["hash"] == final["state_hash"]


def test_the_publisher_allocates_nothing_while_the_game_is_idle():
    """Its loop over a second without news (the collector off): no byte allocated over its
    ticks; the same loop with a state to send allocates (so the count can fail)."""

    def run(*extra):
        r = run_script(IDLE, *extra)
        assert r.returncode == 0, r.stderr
        return json.loads(r.stdout.strip().splitlines()[-1])

    idle, busy = run(), run("busy")
    assert idle["ticks"] >= 5 and idle["allocated"] == 0 and idle["caught"] == 0, idle
    assert busy["caught"] >= 5 and busy["allocated"] > 0, busy


def test_bad_settings_give_one_line_and_the_game_goes_on(tmp_path, procs):
    flash = tmp_path / "flash"
    password = settings_for(flash, 1883)
    path = flash / "mqtt.json"
    cfg = json.loads(path.read_text())
    cfg["host"] = "broker.local"  # a name: the board resolves none
    path.write_text(json.dumps(cfg))
    board = start(flash)
    procs.append(board)
    said = board.until(lambda m: isinstance(m, dict) and m.get("src") == "mqtt", 10)
    assert "host must be an IPv4 address" in said["msg"]
    assert max(keys_timed(board, 4)) < 1.0
    password_nowhere(board, flash, password)
    assert sum('"src": "mqtt"' in line for line in board.seen) == 1
