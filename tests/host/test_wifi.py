"""fleetref wifi against the simulated Pico W board (`fleetref sim --board
pico-w-ws2812-16x16 --flash DIR` serves a port): set stores the credentials in the board's
own file, status says the state, the network and the address, and the password shows up
nowhere else: not in the command's output, the board's serial lines, its snapshot, the game
journal, a saved game or the simulator's own output. Bad input gets one line and changes
nothing, on the command line and on the serial link."""

import json
import os
import subprocess
import sys

from support import ROOT
from support.process import drive, refused

PICO_W = "pico-w-ws2812-16x16"
PASSWORD = "s3cret-table-pass"


def wifi(*args, password=None):
    """``fleetref wifi ARGS`` with ``password`` on stdin (not a terminal)."""
    return subprocess.run(
        [sys.executable, "-m", "host_tools.cli", "wifi", *args],
        input=(password + "\n") if password is not None else "",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )


def files_under(folder):
    out = {}
    for dirpath, _dirs, names in os.walk(folder):
        for n in names:
            with open(os.path.join(dirpath, n), "rb") as f:
                out[os.path.relpath(os.path.join(dirpath, n), folder)] = f.read()
    return out


def test_set_then_status_round_trip_and_the_password_stays_put(sim_factory, tmp_path):
    flash = tmp_path / "flash"
    sim = sim_factory("--headless", "--board", PICO_W, "--seed", "1", "--flash", str(flash))
    before = wifi("status", "--port", sim.port)
    assert before.returncode == 0, before.stderr
    assert before.stdout.splitlines()[:2] == [
        "Wi-Fi: off (no credentials stored, or no Wi-Fi chip)",
        "network: (none stored)",
    ]
    r = wifi("set", "--ssid", "tablenet", "--port", sim.port, password=PASSWORD)
    assert r.returncode == 0, r.stderr
    assert "stored the Wi-Fi network tablenet" in r.stdout
    st = wifi("status", "--port", sim.port)
    assert st.stdout.splitlines() == ["Wi-Fi: up", "network: tablenet", "address: 127.0.0.1"]
    # on the serial link: the answers, a snapshot and the events carry no password
    replies = drive(sim.port, [{"c": "wifi"}, {"c": "snap"}, {"c": "events", "since": 0}])
    assert {"t": "wifi", "state": "up", "ssid": "tablenet", "address": "127.0.0.1"} in replies
    assert any(m.get("t") == "snap" for m in replies)
    saved = tmp_path / "game.json"
    s = subprocess.run(
        [sys.executable, "-m", "host_tools.cli", "save", str(saved), "--port", sim.port],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    assert s.returncode == 0, s.stderr
    sim.stop()
    outputs = [before.stdout, before.stderr, r.stdout, r.stderr, st.stdout, st.stderr]
    outputs += [json.dumps(replies), saved.read_text(), s.stdout, s.stderr]
    outputs += [sim.proc.stdout.read(), sim.proc.stderr.read()]
    assert all(PASSWORD not in text for text in outputs)
    stored = files_under(flash)
    assert json.loads(stored.pop("wifi.json")) == {"ssid": "tablenet", "password": PASSWORD}
    assert stored and all(PASSWORD.encode() not in data for data in stored.values())
    # a restart reads it back: up again with no set
    sim2 = sim_factory("--headless", "--board", PICO_W, "--seed", "1", "--flash", str(flash))
    again = wifi("status", "--port", sim2.port)
    assert again.stdout.splitlines()[0] == "Wi-Fi: up"


def test_bad_credentials_are_one_line_and_change_nothing(sim_factory, tmp_path):
    flash = tmp_path / "flash"
    sim = sim_factory("--headless", "--board", PICO_W, "--seed", "1", "--flash", str(flash))
    ok = wifi("set", "--ssid", "tablenet", "--port", sim.port, password=PASSWORD)
    assert ok.returncode == 0, ok.stderr
    stored = (flash / "wifi.json").read_bytes()
    for ssid, password, says in [
        ("", PASSWORD, "ssid must be 1-32 characters"),
        ("x" * 33, PASSWORD, "ssid must be 1-32 characters"),
        ("tablenet", "short", "password must be empty (an open network) or 8-64"),
        ("tablenet", "p" * 65, "password must be empty (an open network) or 8-64"),
    ]:
        out = wifi("set", "--ssid", ssid, "--port", sim.port, password=password)
        refused(out, says)
        assert password not in out.stderr + out.stdout
    # straight onto the serial link: one err line each, the file as it was
    bad = [
        {"c": "wifi-set", "ssid": "", "password": PASSWORD},
        {"c": "wifi-set", "ssid": "n" * 40, "password": PASSWORD},
        {"c": "wifi-set", "ssid": "tablenet", "password": "q" * 200},
        {"c": "wifi-set", "ssid": 7, "password": PASSWORD},
        {"c": "wifi-set", "ssid": "tablenet", "password": ["x"]},
        {"c": "wifi-set"},
    ]
    replies = drive(sim.port, bad + [{"c": "wifi"}])
    errs = [m for m in replies if m.get("t") == "err"]
    assert len(errs) == len(bad) and all(m["c"] == "wifi-set" for m in errs), replies
    assert all("q" * 20 not in m["msg"] and PASSWORD not in m["msg"] for m in errs)
    assert {"t": "wifi", "state": "up", "ssid": "tablenet", "address": "127.0.0.1"} in replies
    assert (flash / "wifi.json").read_bytes() == stored


def test_a_board_without_a_network_says_so(sim_factory):
    sim = sim_factory("--headless", "--seed", "1")
    out = wifi("status", "--port", sim.port)
    refused(out, "this board has no network")
    replies = drive(sim.port, [{"c": "wifi-set", "ssid": "tablenet", "password": PASSWORD}])
    assert [m["msg"] for m in replies if m.get("t") == "err"] == [
        "this board has no network (its profile has no network section)"
    ]
