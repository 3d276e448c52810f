"""Checks of the board's own MQTT publisher (docs/mqtt.md section 5) against the laptop
publisher `fleetref publish` (sections 1-3): the same game, played with the same seed and the
same keys, published both ways reaches a subscriber with the same topics and messages; each
seq reaches a persistent subscriber exactly once under broker kills, Wi-Fi flapping and a
restart of the board itself; a wrong password is said once and shows nowhere."""

import json
import os
import signal
import time

import pytest

from support.boardmqtt import KEYS, is_ev, play, seqs_once, snap, start, write_settings
from devtools import webshots
from support.mqtt import EVENT, Broker, Recorder, dashboard, need_mqtt, publisher, wait_until
from support.web import get_json
from support.process import SimProcess

# the fields of the retained state the dashboard reads (host_tools/tournament/tables.py)
DASHBOARD_STATE = (
    "seq",
    "gid",
    "state_hash",
    "board_hash",
    "hash_match",
    "scenario",
    "ruleset",
    "sides",
    "round",
    "phase",
    "initiative",
    "winner",
    "clock",
)
SHIP_FIELDS = ("i", "name", "side", "hp", "damage", "status")


class Stopper:
    def __init__(self, stop):
        self.stop = stop


@pytest.fixture(scope="module")
def both(tmp_path_factory):
    """The same scripted game (Escape from Hoth, seed 1: the board's initiative roll, the
    next phase, then a hit and its undo six times, a key every 50 ms as a player presses
    them) through `fleetref sim` + `fleetref publish` as table-02, and through the unix-port
    board publishing itself as table-01, recorded by one subscriber of the whole event:
    {"msgs": [(topic, payload)], "laptop": the sim's final snap, "board": the board's}."""
    need_mqtt()
    tmp = tmp_path_factory.mktemp("both")
    broker = Broker(tmp / "broker", tables=3)
    procs = [Stopper(broker.stop)]
    try:
        rec = Recorder(broker, "fleetref/%s/#" % EVENT, client_id="cmp-reader")
        procs.append(rec)
        http = webshots.free_port()
        procs.append(dashboard(broker, http, "cmp-dash"))
        cards_url = "http://127.0.0.1:%d/api/tables" % http
        webshots.wait_http(cards_url, 30)
        script = tmp / "keys.txt"
        script.write_text("\n".join(KEYS) + "\n")
        sim = SimProcess(
            "--headless",
            "--hold",
            "--wait-for-host",
            "--scenario",
            "hoth",
            "--seed",
            "1",
            "--script",
            str(script),
            "--pace",
            "50",
        )
        procs.append(sim)
        procs.append(publisher(broker, sim.port, "table-02"))
        laptop = sim.final()
        flash = tmp / "flash"
        password = write_settings(broker, flash)
        board = start(flash)
        procs.append(board)
        play(board)
        final = snap(board)
        n = len(KEYS)
        for table in ("table-01", "table-02"):
            wait_until(lambda t=table: any(s.get("seq") == n for s in rec.of(t + "/state")), 30)
        time.sleep(2.0)  # a state for a late acknowledgement, if one comes
        cards = {c["table"]: c for c in get_json(cards_url)["tables"]}
        board.proc.send_signal(signal.SIGKILL)  # its link dies: the broker sends its will
        wait_until(lambda: {"online": False} in rec.of("table-01/status"), 20, 0.2)
        time.sleep(0.5)
        board.proc.wait(10)
        files = {}
        for where, _dirs, names in os.walk(str(flash)):
            for name in names:
                with open(os.path.join(where, name), "rb") as f:
                    files[os.path.relpath(os.path.join(where, name), str(flash))] = f.read()
        yield {
            "msgs": list(rec.msgs),
            "laptop": laptop,
            "board": final,
            "password": password,
            "serial": "\n".join(board.seen),
            "stderr": board.proc.stderr.read(),
            "files": files,
            "cards": cards,
        }
    finally:
        for p in reversed(procs):
            p.stop()


def of(both, table, kind):
    return [d for t, d in both["msgs"] if t == "fleetref/%s/%s/%s" % (EVENT, table, kind)]


def shape(value):
    """A JSON value's type name, null kept apart."""
    return type(value).__name__


def test_same_game_same_hashes_topics_and_keys(both):
    """docs/mqtt.md section 5, 'Same topics, same messages': both publishers use the three
    topics of section 1; every event carries the same keys and the same `seq`, `ev`, `hash`
    and `gid`; the last retained state's fields the dashboard reads are equal (ships by
    name, side, hp, damage, status); the status is `online`+`t` and the will
    `{"online": false}` with no `t`."""
    assert both["laptop"]["state_hash"] == both["board"]["state_hash"]
    kinds = {t.rsplit("/", 1)[1] for t, _d in both["msgs"]}
    assert kinds == {"events", "state", "status"}
    board = seqs_once(of(both, "table-01", "events"))
    laptop = seqs_once(of(both, "table-02", "events"))
    assert sorted(board) == sorted(laptop) == list(range(1, len(KEYS) + 1))
    for seq in board:
        b, lap = board[seq], laptop[seq]
        # the laptop's events of its first catch-up lack `undone`: the board's always have it
        assert "undone" in b and set(b) - {"undone"} == set(lap) - {"undone"}, (seq, b, lap)
        for key in ("seq", "ev", "hash", "gid"):
            assert b[key] == lap[key], (seq, key, b[key], lap[key])
    sb, sl = of(both, "table-01", "state")[-1], of(both, "table-02", "state")[-1]
    for key in DASHBOARD_STATE:
        assert sb[key] == sl[key], (key, sb[key], sl[key])
    ships = [[{k: s.get(k) for k in SHIP_FIELDS} for s in st["ships"]] for st in (sb, sl)]
    assert ships[0] == ships[1]
    assert sb["acked_seq"] == len(KEYS)
    status = of(both, "table-01", "status")
    assert set(status[0]) == {"online", "t"} and status[0]["online"] is True
    assert status[-1] == {"online": False}


def test_each_event_says_what_the_laptops_says(both):
    """docs/mqtt.md section 5: the dashboard cannot tell a board from a laptop; an event's
    `text`, `round` and `phase` are section 1's (the web view's event record). Only an event
    of a catch-up may carry null round/phase; here every event went live, keys 50 ms apart,
    so each must read as the laptop publisher's for the same seq, and the retained state's
    `recent` sentences too."""
    board = seqs_once(of(both, "table-01", "events"))
    laptop = seqs_once(of(both, "table-02", "events"))
    diffs = []
    for seq in sorted(board):
        for key in ("text",) + (("round", "phase") if seq > 1 else ()):
            if board[seq][key] != laptop[seq][key]:
                diffs.append((seq, key, board[seq][key], laptop[seq][key]))
    sb, sl = of(both, "table-01", "state")[-1], of(both, "table-02", "state")[-1]
    if sb["recent"] != sl["recent"]:
        diffs.append(("recent", sb["recent"], sl["recent"]))
    assert not diffs, diffs


def test_every_undo_event_names_what_it_undid(both):
    """docs/mqtt.md section 5 lists `undone` among an event's fields: an undo event (kind
    5) names the seq it took back, as the laptop publisher's does and as its own sentence
    'Undo: took back event N' says, whether or not other events went in the same moment."""
    board = seqs_once(of(both, "table-01", "events"))
    laptop = seqs_once(of(both, "table-02", "events"))
    undos = [seq for seq in board if board[seq]["ev"][0] == 5]
    assert undos
    assert [board[s]["undone"] for s in undos] == [laptop[s]["undone"] for s in undos]
    assert all(board[s]["undone"] == s - 1 for s in undos)


def test_the_retained_state_holds_the_laptops_fields(both):
    """docs/mqtt.md section 1: the state is the mirror's snapshot (`fleetref mirror --once
    --json`'s fields, '...'), so a consumer other than the dashboard finds the same keys in
    a board's state as in a laptop's, ships included (a fighter still aboard says so).
    Section 5: the board's state is the laptop's, field for field."""
    sb, sl = of(both, "table-01", "state")[-1], of(both, "table-02", "state")[-1]
    missing = sorted(set(sl) - set(sb))
    ship_missing = sorted(set(sl["ships"][0]) - set(sb["ships"][0]))
    assert not missing and not ship_missing, (missing, ship_missing)


def test_the_password_shows_in_no_message_line_or_file(both):
    """docs/mqtt.md section 5: the password goes only into the CONNECT packet: it is in no
    MQTT payload of the whole event (events, states, status, will), no serial line, not in
    the board's stderr, and in no file of its flash but `mqtt.json` (the journal included)."""
    password = both["password"]
    assert len(password) >= 8
    for topic, payload in both["msgs"]:
        assert password not in json.dumps(payload), topic
    assert password not in both["serial"]
    assert password.encode() not in both["stderr"]
    assert "mqtt.json" in both["files"] and len(both["files"]) > 1
    for name, data in both["files"].items():
        if name != "mqtt.json":
            assert password.encode() not in data, name


def test_the_dashboard_draws_both_tables_alike(both):
    """docs/mqtt.md section 5: the dashboard cannot tell a board from a laptop. Its
    `/api/tables` card for the board's table (while the board was up) equals the laptop's for
    the same game, but for the table's name and the times."""
    cards = both["cards"]
    skip = {"table", "last", "silent", "offline_since", "t", "age", "idle_s"}
    board = {k: v for k, v in cards["table-01"].items() if k not in skip}
    laptop = {k: v for k, v in cards["table-02"].items() if k not in skip}
    diffs = {k: (board.get(k), laptop.get(k)) for k in set(board) | set(laptop)}
    diffs = {k: v for k, v in diffs.items() if v[0] != v[1]}
    assert not diffs, diffs
