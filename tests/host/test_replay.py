"""`fleetref replay`: a saved game played again through the rules core, one
event at a time, with bookmarks per round and phase; every event's hash checked as it goes and
the replay stopped at the first that fails, saying where. Games: the shipped scenarios' scripts
played on the simulator and saved with `fleetref save` (tests/support/reportgames.py)."""

import json
import os
import pty
import re
import select
import socket
import sys
import time
import urllib.request

import pytest

from support import ROOT
from support.reportgames import GAMES, cli, load, play_and_save
from host_tools.files import gamefile, savefile
from host_tools.files.replay import Replay
from host_tools.views.replayview import Controls, ReplayScreen, parse_keys, start_web


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    folder = tmp_path_factory.mktemp("games")
    return {rs: play_and_save(rs, folder)[0] for rs in GAMES}


@pytest.mark.parametrize("ruleset", sorted(GAMES))
def test_replay_reaches_the_final_state_and_every_bookmark(games, ruleset):
    data = load(games[ruleset])
    snap = data["snapshot"]
    rp = Replay(gamefile.load(games[ruleset]))
    assert rp.broken is None and rp.total == len(data["events"])
    assert rp.to_end() == rp.total and rp.stopped == "end"
    assert rp.game.state_hash() == snap["state_hash"] and rp.game.round == snap["round"]
    assert rp.rounds() == list(range(1, snap["round"] + 1))
    hashes = [e["hash"] for e in data["events"]]
    for n in rp.rounds():
        pos = rp.goto_round(n)
        assert rp.game.round == n
        if pos:  # the event before is the phase change into round n, and the file agrees
            assert data["events"][pos - 1]["ev"][0] == 4
            assert rp.game.state_hash() == hashes[pos - 1]
            rp.back()
            assert rp.game.round == n - 1 and rp.game.state_hash() == (
                hashes[pos - 2] if pos > 1 else rp.game.state_hash()
            )
    for m in rp.bookmarks():
        rp.goto_phase(m["phase"], m["round"])
        assert (rp.game.round, rp.game.phase_name()) == (m["round"], m["phase"])
        assert rp.pos == m["pos"]
    # one event at a time from the start: each state hash is the file's
    rp.goto(0)
    for k, h in enumerate(hashes, 1):
        r = rp.step()
        assert r["seq"] == k and rp.game.state_hash() == h == r["hash"]
    assert rp.step() is None and rp.stopped == "end"
    with pytest.raises(ValueError, match="no round 99"):
        rp.goto_round(99)


def rechain(data):
    rows = [(e["seq"], e["ev"], e["hash"]) for e in data["events"]]
    out = savefile.build(data["game"], data["base_seq"], data["base"], rows, data["snapshot"])
    return out


def where(data, seq):
    """Round and phase the game stood at before event ``seq``, read from the file's events."""
    g = gamefile.start_game(data)
    for e in data["events"][: seq - 1]:
        assert g.submit(tuple(e["ev"])) is None
    return g.round, g.phase_name()


@pytest.mark.parametrize(
    "how,seq,words",
    [
        ("edit", 6, "the hash chain does not match"),
        ("hash", 12, "state hash"),
        ("refused", 9, "the rules refuse it"),
        ("truncated", 39, "truncated"),
    ],
)
def test_tampered_save_stops_at_that_event(games, tmp_path, how, seq, words):
    data = load(games["smb"])
    orig = load(games["smb"])
    if how == "edit":  # one event changed, the chain left as it was
        data["events"][seq - 1]["ev"][1] ^= 1
    elif how == "hash":  # a forger rebuilds the chain over a wrong state hash
        data["events"][seq - 1]["hash"] = "deadbeef"
        data = rechain(data)
    elif how == "refused":  # ... or over an event the rules refuse (undo of nothing
        data["events"][seq - 1]["ev"] = [2, 200, 1, 255]  # is fine: a bad ship)
        data = rechain(data)
    else:
        data["events"].pop()
        seq = len(data["events"]) + 1
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(data))
    rp = Replay(gamefile.load(str(path)))
    assert rp.broken is not None and rp.broken.seq == seq  # found by the first pass
    rp.goto(0)
    assert rp.to_end() == seq - 1 and rp.stopped == "broken"
    rnd, phase = where(orig, seq)
    assert (rp.broken.seq, rp.broken.round, rp.broken.phase) == (seq, rnd, phase)
    assert words in rp.broken.why
    assert rp.step() is None and rp.pos == seq - 1
    r = cli("replay", "--check", str(path))
    assert r.returncode == 1, r.stdout + r.stderr
    assert "STOPPED at event %d (round %d, %s phase)" % (seq, rnd, phase) in r.stdout
    assert words in r.stdout


def test_check_mode_summary_and_bad_files(games, tmp_path):
    r = cli("replay", "--check", games["swsb"])
    snap = load(games["swsb"])["snapshot"]
    assert r.returncode == 0, r.stderr
    assert "every state hash matches" in r.stdout and snap["state_hash"] in r.stdout
    bad = tmp_path / "bad.json"
    bad.write_text("{ not json")
    for p in (str(bad), str(tmp_path / "missing.json")):
        r = cli("replay", "--to-end", p)
        assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1
        assert "Traceback" not in r.stderr


def test_keys_move_the_replay(games):
    rp = Replay(gamefile.load(games["smb"]))
    c = Controls(rp)
    assert parse_keys("\x1b[Cn\x1b[D3g \x1b[5~q") == ["right", "n", "left", "3", "g", " ", "q"]
    c.key("right")
    c.key("n")
    assert rp.pos == 2
    c.key("left")
    assert rp.pos == 1
    c.key("3")
    assert c.key("g") == "start of round 3" and rp.game.round == 3
    start3 = rp.pos
    c.key("p")
    assert rp.game.phase_name() != "initiative" and rp.game.round == 3
    c.key("P")
    assert rp.pos == start3
    c.key("R")
    assert rp.game.round == 2
    start2 = rp.pos
    assert start2 == rp.bookmarks()[[m["round"] for m in rp.bookmarks()].index(2)]["pos"]
    c.key(" ")
    assert c.playing
    c.tick()
    assert rp.pos == start2 + 1
    c.key("e")
    assert rp.stopped == "end" and not c.playing
    c.key(" ")
    assert not c.playing  # nothing left to play
    c.key("s")
    assert rp.pos == 0
    c.key("q")
    assert c.quit


def test_terminal_view_fits_80x24(games):
    rp = Replay(gamefile.load(games["swsb"]))
    rp.goto_round(2)
    screen = ReplayScreen(rp, "swsb.json", Controls(rp))
    text = screen.build(80, 24).plain
    lines = text.split("\n")
    assert len(lines) <= 24 and max(len(x) for x in lines) <= 80
    assert "replay of swsb.json" in text and "round 2" in text


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url):
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.loads(r.read())


def test_web_page_follows_the_replay(games):
    rp = Replay(gamefile.load(games["smb"]))
    port = free_port()
    pub, url = start_web(rp, "hoth.json", "127.0.0.1:%d" % port)
    st = get(url + "api/state")
    assert (
        st["seq"] == 0 and st["link"]["connected"] and "replay of hoth.json" in st["link"]["note"]
    )
    rp.goto_round(3)
    pub.publish()
    st = get(url + "api/state")
    ev = get(url + "api/events?since=0")
    assert st["seq"] == rp.pos and st["round"] == 3 and st["hash_match"]
    assert len(ev["events"]) == rp.pos and ev["events"][-1]["hash"] == st["state_hash"]
    gid = ev["gid"]
    rp.back()
    pub.publish()
    ev = get(url + "api/events?since=0")
    assert ev["gid"] != gid and len(ev["events"]) == rp.pos  # the page starts its log again


def test_interactive_replay_in_a_terminal(games):
    pid, fd = pty.fork()
    if pid == 0:  # the child: fleetref replay on a terminal
        os.chdir(ROOT)
        os.execv(sys.executable, [sys.executable, "-m", "host_tools.cli", "replay", games["smb"]])
    out = b""

    def pump(seconds):
        nonlocal out
        end = time.time() + seconds
        while time.time() < end:
            r, _, _ = select.select([fd], [], [], 0.1)
            if r:
                try:
                    out += os.read(fd, 65536)
                except OSError:
                    return

    try:
        pump(3)
        for k in (b"n", b"n", b"3", b"g", b"\x1b[C"):
            os.write(fd, k)
            pump(0.3)
        os.write(fd, b"q")
        pump(2)
    finally:
        _, status = os.waitpid(pid, 0)
    text = re.sub(rb"\x1b\[[0-9;?]*[a-zA-Z]", b"", out).decode("utf-8", "replace")
    assert os.WEXITSTATUS(status) == 0, text[-2000:]
    assert "replay of" in text and "start of round 3" in text
    last = text.strip().splitlines()[-1]
    assert re.match(r"event \d+ of 38 \(seq \d+\), round 3, ", last), last


@pytest.mark.parametrize("field,value", [("winner", 1), ("round", 99)])
def test_check_refuses_an_edited_snapshot_as_report_does(games, tmp_path, field, value):
    """The file's snapshot is a copy for reading: `replay --check` refuses one that says other
    than the replayed log (its `winner` edited), as `fleetref report` and `load` do."""
    data = load(games["smb"])
    assert data["snapshot"][field] != value
    data["snapshot"][field] = value
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(data))
    r = cli("replay", "--check", str(edited))
    assert r.returncode == 1 and "the snapshot's %r does not match" % field in r.stdout, r.stdout
    assert cli("report", str(edited), "--out", str(tmp_path / "r.html")).returncode != 0
