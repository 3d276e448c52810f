"""Exactly once per seq for the board's own publisher (docs/mqtt.md section 5, 'When the
network is bad'): the board process restarted mid-game (it comes back from its journal), the
Wi-Fi stand-in flapping many times while keys are pressed, the broker killed right after a
burst of keys, and a board restarted while its Wi-Fi is down: a persistent subscriber ends
with every seq from 1 to the last, each once after dropping repeats (a repeat being the same
event), the last with the board's final hash, and the retained state at the last seq with
`acked_seq` equal to it. Keys keep their ``ev`` lines within 1 s throughout (a bound that
only catches a block)."""

import json
import os
import signal
import time

import pytest

from support.boardmqtt import is_ev, reader_and_board, seqs_once, snap, start, write_settings
from support.mqtt import EVENT, Recorder, wait_until

OPENING = ("roll", "phase")
AGAIN = ("dmg+", "undo")


def press_all(board, keys, pace=0.0):
    """Press ``keys`` one after another, each awaited: the seconds each ``ev`` line took."""
    took = []
    for key in keys:
        t0 = time.monotonic()
        board.send(json.dumps({"c": "key", "key": key}))
        board.until(is_ev, 10)
        took.append(time.monotonic() - t0)
        time.sleep(pace)
    return took


def burst(board, keys):
    """Send ``keys`` at once, then read their ``ev`` lines."""
    for key in keys:
        board.send(json.dumps({"c": "key", "key": key}))
    return [board.until(is_ev, 20) for _ in keys]


def ends_complete(broker, procs, rec, final, tag):
    """Every seq 1..final's once at ``rec``, the last with the final hash; the retained state
    (read by a fresh subscriber) at the last seq, acknowledged."""
    every = list(range(1, final["seq"] + 1))
    try:
        wait_until(lambda: sorted(seqs_once(rec.of("/events"))) == every, 40, 0.2)
    except AssertionError:
        got = sorted(seqs_once(rec.of("/events")))
        raise AssertionError("missing %s" % sorted(set(every) - set(got))) from None
    assert seqs_once(rec.of("/events"))[final["seq"]]["hash"] in ("", final["state_hash"])
    late = Recorder(broker, "fleetref/%s/table-01/state" % EVENT, client_id="late-" + tag)
    procs.append(late)
    wait_until(lambda: late.of("/state") and late.of("/state")[-1]["seq"] == final["seq"], 20)
    state = late.of("/state")[-1]
    assert state["state_hash"] == final["state_hash"]
    wait_until(
        lambda: late.of("/state")[-1]["acked_seq"] == final["seq"], 20, 0.2
    )  # the acknowledgement may come in a later state


def test_the_board_restarted_mid_game_resumes_without_loss(broker, procs, tmp_path):
    """The board process killed (a power cut) mid-game and started again on the same flash:
    it resumes from its journal and the broker's retained state, and the subscriber gets
    every seq once, those after the restart included."""
    rec = Recorder(broker, "fleetref/%s/+/events" % EVENT, client_id="restart-reader")
    procs.append(rec)
    flash = tmp_path / "flash"
    write_settings(broker, flash)
    board = start(flash)
    procs.append(board)
    burst(board, OPENING + AGAIN * 3)
    board.proc.send_signal(signal.SIGKILL)  # right after the burst: some not yet sent
    board.proc.wait(10)
    board = start(flash)
    procs.append(board)
    took = press_all(board, AGAIN * 3)
    final = snap(board)
    assert final["seq"] == 14, final["seq"]
    assert max(took) < 1.0, took
    ends_complete(broker, procs, rec, final, "restart")


def test_the_wifi_flapping_many_times_loses_and_doubles_nothing(broker, procs, tmp_path):
    """The Wi-Fi stand-in going down and up every 0.1-0.4 s, forty times, while keys are
    pressed: every key gets its ``ev`` line within 1 s, and once the Wi-Fi stays up every seq
    reaches the subscriber once."""
    rec, board, down = reader_and_board(broker, procs, tmp_path, "flap-reader", "events")
    took = press_all(board, OPENING)
    wait_until(lambda: len(rec.of("/events")) >= 2, 20)
    for i in range(40):
        if i % 2:
            os.remove(down)
        else:
            open(down, "w").close()
        took += press_all(board, (AGAIN[i % 2],))
        time.sleep((0.1, 0.25, 0.4)[i % 3])
    if os.path.exists(down):
        os.remove(down)
    final = snap(board)
    assert final["seq"] == 42
    assert max(took) < 1.0, took
    ends_complete(broker, procs, rec, final, "flap")


def test_the_broker_killed_right_after_a_burst_loses_nothing(broker, procs, tmp_path):
    """The broker (autosaving every second) killed with SIGKILL straight after a burst of
    keys, so that it acknowledged events it never saved, then started again: the board sends
    them again and the subscriber gets every seq once; keys meanwhile within 1 s."""
    broker.kill()
    conf = open(broker.conf).read().replace("autosave_interval 10", "autosave_interval 1")
    open(broker.conf, "w").write(conf)
    broker.start()
    rec = Recorder(broker, "fleetref/%s/+/events" % EVENT, client_id="burst-reader")
    procs.append(rec)
    db = os.path.join(broker.dir, "data", "mosquitto.db")
    t0 = time.time()
    wait_until(lambda: os.path.exists(db) and os.path.getmtime(db) > t0 + 1.5, 20)
    flash = tmp_path / "flash"
    write_settings(broker, flash)
    board = start(flash)
    procs.append(board)
    press_all(board, OPENING)
    wait_until(lambda: len(rec.of("/events")) >= 2, 20)
    burst(board, AGAIN * 10)
    time.sleep(0.3)  # the burst went out and was acknowledged, not yet saved
    broker.kill(signal.SIGKILL)
    took = press_all(board, AGAIN * 2, pace=0.2)
    broker.start()
    took += press_all(board, AGAIN * 2, pace=0.2)
    final = snap(board)
    assert final["seq"] == 30
    assert max(took) < 1.0, took
    ends_complete(broker, procs, rec, final, "burst")


def test_a_board_restarted_during_an_outage_resumes_from_the_retained_state(
    broker, procs, tmp_path
):
    """docs/mqtt.md section 5: 'a board restarted mid-outage learns where to resume from the
    retained state'. Events made while the Wi-Fi is down, the board restarted with it still
    down, more events, then the Wi-Fi back: every seq reaches the subscriber once."""
    rec = Recorder(broker, "fleetref/%s/+/events" % EVENT, client_id="outage-reader")
    procs.append(rec)
    flash = tmp_path / "flash"
    write_settings(broker, flash)
    down = tmp_path / "wifi-down"
    env = {"FLEETREF_WIFI_DOWN": str(down)}
    board = start(flash, env=env)
    procs.append(board)
    press_all(board, OPENING + AGAIN)
    wait_until(lambda: len(seqs_once(rec.of("/events"))) >= 4, 20)
    open(down, "w").close()
    time.sleep(0.5)
    press_all(board, AGAIN * 2)
    board.proc.send_signal(signal.SIGKILL)
    board.proc.wait(10)
    board = start(flash, env=env)
    procs.append(board)
    press_all(board, AGAIN * 2)
    os.remove(down)
    final = snap(board)
    assert final["seq"] == 12
    ends_complete(broker, procs, rec, final, "outage")


def test_a_new_game_during_an_outage_keeps_the_old_games_tail(broker, procs, tmp_path):
    """docs/mqtt.md section 5: after an outage the board sends every event after what the
    broker acknowledged, and section 2 promises every event, each seq once (within its
    gid). A game played on while the Wi-Fi is down and then replaced by a new game (the next
    round of the tournament, `load` over serial): once the Wi-Fi is back, the subscriber
    holds the old game's every seq and the new game's, and the old game's last state (its
    result) reaches the dashboard, as it would through `fleetref publish`, which follows
    each event over USB as it happens."""
    rec, board, down = reader_and_board(broker, procs, tmp_path, "newgame-reader", "events")
    states = Recorder(broker, "fleetref/%s/table-01/state" % EVENT, client_id="newgame-states")
    procs.append(states)
    press_all(board, OPENING)
    wait_until(lambda: len(seqs_once(rec.of("/events"))) >= 2, 20)
    old = snap(board)["gid"]
    open(down, "w").close()
    time.sleep(0.5)
    press_all(board, AGAIN + ("dmg+",))
    old_final = snap(board)
    assert old_final["seq"] == 5
    board.send(json.dumps({"c": "load", "scenario": "hoth"}))
    board.until(lambda m: isinstance(m, dict) and m.get("t") == "game")
    press_all(board, OPENING)
    new = snap(board)
    assert new["gid"] != old and new["seq"] == 2
    os.remove(down)
    wait_until(lambda: any(e["gid"] == new["gid"] for e in rec.of("/events")), 20, 0.2)
    time.sleep(6.0)  # the resend's 3 s, and more

    def seqs(gid):
        return sorted({e["seq"] for e in rec.of("/events") if e["gid"] == gid})

    assert seqs(new["gid"]) == [1, 2]
    assert seqs(old) == [1, 2, 3, 4, 5], seqs(old)
    olds = [m for m in states.of("/state") if m["gid"] == old]
    assert olds and olds[-1]["seq"] == 5 and olds[-1]["state_hash"] == old_final["state_hash"]
    order = [m["gid"] for m in states.of("/state")]
    assert order.index(new["gid"]) > len(order) - 1 - order[::-1].index(old)  # old one first
    wait_until(lambda: states.of("/state")[-1]["gid"] == new["gid"], 10, 0.2)


def test_a_wrong_password_is_said_once_and_shows_nowhere(broker, procs, tmp_path):
    """docs/mqtt.md section 5: a broker that refuses the credentials (CONNACK) is said once
    on serial, an `err` line with `src` `mqtt` and no password in it; the board tries again
    every 30 s without saying it again, publishes nothing, and keys keep their ``ev`` lines
    within 1 s; the wrong password is in no serial line, not in stderr, and in no file but
    `mqtt.json`."""
    rec = Recorder(broker, "fleetref/%s/#" % EVENT, client_id="wrong-reader")
    procs.append(rec)
    flash = tmp_path / "flash"
    write_settings(broker, flash)
    path = flash / "mqtt.json"
    cfg = json.loads(path.read_text())
    cfg["password"] = "Wrong-" + cfg["password"][::-1]
    path.write_text(json.dumps(cfg))
    board = start(flash)
    procs.append(board)
    said = board.until(lambda m: isinstance(m, dict) and m.get("src") == "mqtt", 15)
    assert said["t"] == "err" and cfg["password"] not in json.dumps(said)
    took = press_all(board, OPENING + AGAIN * 20, pace=1.5)  # over 30 s: a second try
    assert max(took) < 1.0, took
    assert sum('"src": "mqtt"' in line for line in board.seen) == 1, board.seen
    assert rec.msgs == []
    board.stop()
    assert cfg["password"] not in "\n".join(board.seen)
    assert cfg["password"].encode() not in board.proc.stderr.read()
    for where, _dirs, names in os.walk(str(flash)):
        for name in names:
            if name != "mqtt.json":
                with open(os.path.join(where, name), "rb") as f:
                    assert cfg["password"].encode() not in f.read(), name


def test_a_power_cut_right_after_keys_reuses_no_published_seq(broker, procs, tmp_path):
    """docs/protocol.md: a key's events are held in RAM (the profile's `commit_ms`, 1000 ms
    by default) before they are written and announced. A board killed 0.2 s after three
    keys, before their ``ev`` lines: whatever the broker got must be in the journal the
    board comes back with, so that no seq the broker holds is later given to another event
    (each seq one event, docs/mqtt.md section 2)."""
    rec = Recorder(broker, "fleetref/%s/+/events" % EVENT, client_id="cut-reader")
    procs.append(rec)
    flash = tmp_path / "flash"
    write_settings(broker, flash)
    board = start(flash)
    procs.append(board)
    press_all(board, OPENING)
    time.sleep(2.0)
    for key in ("dmg+", "undo", "dmg+"):
        board.send(json.dumps({"c": "key", "key": key}))
    time.sleep(0.2)
    board.proc.send_signal(signal.SIGKILL)
    board.proc.wait(10)
    board = start(flash)
    procs.append(board)
    after = snap(board)["seq"]
    press_all(board, ("undo", "dmg+"))
    final = snap(board)
    assert final["seq"] == after + 2
    time.sleep(5.0)  # the resend's 3 s after the new link, and more
    published = {}
    for e in rec.of("/events"):
        published.setdefault(e["seq"], set()).add((tuple(e["ev"]), e["hash"]))
    assert max(published) == final["seq"]
    assert all(len(kinds) == 1 for kinds in published.values()), published
    ends_complete(broker, procs, rec, final, "cut")


def test_the_wifi_dropping_marks_the_table_offline_then_online(broker, procs, tmp_path):
    """docs/mqtt.md sections 1 and 5: the broker publishes the board's will
    `{"online": false}` when its link dies; the Wi-Fi dropping closes the link at once (the
    stand-in's loopback lets the close reach the broker, so the will goes at once rather
    than after 15 s), and once the Wi-Fi is back the board's retained status is
    `{"online": true, "t": ...}` again."""
    rec, board, down = reader_and_board(broker, procs, tmp_path, "will-reader", "status")
    press_all(board, OPENING)
    wait_until(lambda: rec.of("/status") and rec.of("/status")[-1]["online"] is True, 20)
    open(down, "w").close()
    wait_until(lambda: rec.of("/status")[-1] == {"online": False}, 20, 0.2)
    os.remove(down)
    wait_until(lambda: rec.of("/status")[-1]["online"] is True, 20, 0.2)
    assert set(rec.of("/status")[-1]) == {"online", "t"}
