"""Damage injected on purpose into the journal.

A 100- and a 700-event game are played through the referee with the journal on a littlefs
image of the rp2 port's geometry; then every truncation offset of every journal file, bit flips
across every file, every used 4 KB flash block zeroed, every file deleted and stale temporary
files; the board boots on each image (devtools/faults.py). Every outcome must be a correct
prefix of the game really played (said when anything was lost) or a clear refusal with the
damaged files kept aside: never another game, never a silent new game.
"""

import collections
import json

import pytest

from support.game import make_referee, new_game
from support.process import drive, hellos, sim_headless
from devtools import faults
from referee import PROTO_VERSION
from referee.journal import Journal, JournalError


def check_campaign(events, flip_stride, cut_stride):
    played, results = faults.campaign(events, flip_stride, cut_stride)
    count = collections.Counter(r[2] for r in results)
    for kind, detail, c, k, text in results:
        assert c != "wrong", (kind, detail, k, text)
        if c == "prefix-silent":  # == a power cut before those appends
            name, off = detail.split("@")
            assert kind == "truncate" and name == "log.bin" and (int(off) - 8) % 12 == 0, detail
            assert k == events - (len(played.files["log.bin"]) - int(off)) // 12
        if c in ("fs-rollback", "unmountable"):  # littlefs itself lost its newest metadata
            assert kind == "zeroed block", detail
        if detail.startswith("setup.json@"):  # the roster cannot be trusted: refused
            assert c == "refused", (detail, c, text)
        if c in ("prefix-noted", "exact-noted"):
            assert text.startswith(
                "journal damaged: kept " + ("events 1..%d" % k if k else "no events")
            ), text
    kinds = {r[0] for r in results}
    assert kinds == {"truncate", "bit flip", "deleted", "stale temp", "zeroed block"}
    assert count["prefix-noted"] and count["refused"] and count["exact-noted"]
    return played, results


def test_faults_on_a_100_event_game():
    check_campaign(100, 1, 1)  # every offset truncated, every byte with one bit flipped


def test_faults_on_a_700_event_game():
    # every 7th offset truncated (all of them: make bench), every 11th byte flipped
    played, _ = check_campaign(700, 11, 7)
    assert len(played.files["h0.bin"]) > 2048  # the history holds most of the game


def journal_on(tmp_path):
    from referee.journal import OSFS

    return Journal(OSFS(str(tmp_path)), "/game")


def test_a_roster_changed_with_a_valid_check_is_refused(tmp_path):
    """A set-up rewritten (with its CRC made to fit) to give the Star Destroyer fewer hit
    points: the snapshot, log and history were made under the old set-up's key and the
    state hash covers the roster, so none of them pass."""
    app, _out = make_referee("hoth")
    app.set_journal(journal_on(tmp_path))
    app.load_scenario("hoth")
    for c in ['{"c": "roll", "values": [9, 4]}', '{"c": "phase"}']:
        app.link.handle_line(c)
    assert app.game.seq == 2
    j = journal_on(tmp_path)
    msg = json.loads(j.setup())
    msg["roster"]["sides"][0]["ships"][0]["hp"] = [1, 1]
    forged = Journal(j.files.fs, "/game")
    line = json.dumps(msg)
    import binascii

    data = line.encode()
    with open(str(tmp_path / "game" / "setup.json"), "wb") as f:
        f.write(data + b"\n%08x" % binascii.crc32(data))
    app2, out2 = make_referee("hoth", seed=8)
    app2.set_journal(forged)
    app2.boot("hoth")
    assert app2.game.seq == 0 or app2.game.hp1[0] != 1
    note = [json.loads(x) for x in out2 if '"journal"' in x]
    assert note and "journal damaged" in note[0]["msg"] and "kept no events" in note[0]["msg"]
    assert (tmp_path / "game.bad" / "snap.bin").exists()


def test_state_hash_covers_the_roster():
    a = new_game("hoth")
    b = new_game("hoth", {"damage_per_hit": 2})
    assert a.state_bytes() == b.state_bytes()
    assert a.state_hash() != b.state_hash()


def test_setup_with_a_flipped_bit_is_refused_not_replaced(tmp_path):
    app, _out = make_referee("hoth")
    app.set_journal(journal_on(tmp_path))
    app.load_scenario("hoth")
    app.link.handle_line('{"c": "roll", "values": [9, 4]}')
    p = tmp_path / "game" / "setup.json"
    d = bytearray(p.read_bytes())
    d[100] ^= 4
    p.write_bytes(bytes(d))
    with pytest.raises(JournalError):
        journal_on(tmp_path).setup()
    app2, out2 = make_referee("hoth", seed=8)
    app2.set_journal(journal_on(tmp_path))
    app2.boot("hoth")
    assert app2.gid != app.gid and app2.game.seq == 0
    assert "journal damaged: no game restored" in app2.boot_note
    assert (tmp_path / "game.bad" / "setup.json").read_bytes() == bytes(d)  # kept aside
    app2.link.hello()
    assert '"code": "journal"' in out2[-1]  # said again to every host that says hello


def test_a_second_fault_keeps_the_first_faults_files(tmp_path):
    """Damaged files set aside once are never destroyed by a later fault: each fault's files go
    to the next empty folder (/game.bad, /game.bad2, ...)."""
    app, _ = make_referee("hoth")
    app.set_journal(journal_on(tmp_path))
    app.load_scenario("hoth")
    app.link.handle_line('{"c": "roll", "values": [9, 4]}')
    first = {}
    for k, where in ((1, "game.bad"), (2, "game.bad2")):
        p = tmp_path / "game" / "setup.json"
        d = bytearray(p.read_bytes())
        d[100] ^= 4
        p.write_bytes(bytes(d))
        app2, _ = make_referee("hoth", seed=8 + k)
        app2.set_journal(journal_on(tmp_path))
        app2.boot("hoth")
        assert "kept in /game.bad%s" % ("2" if k == 2 else "") in app2.boot_note
        assert (tmp_path / where / "setup.json").read_bytes() == bytes(d)
        if k == 1:
            first = {f.name: f.read_bytes() for f in (tmp_path / "game.bad").iterdir()}
            app2.link.handle_line('{"c": "roll", "values": [3, 4]}')
    assert {f.name: f.read_bytes() for f in (tmp_path / "game.bad").iterdir()} == first


def test_sim_twice_with_the_same_command_resumes(sim_factory, tmp_path):
    flash = str(tmp_path / "flash")
    sim = sim_factory("--headless", "--scenario", "hoth", "--seed", "1", "--flash", flash)
    seq = 0
    for _ in range(20):  # (a loaded machine: the sim may not read at once)
        got = drive(
            sim.port, [{"c": "roll", "values": [9, 4]}, {"c": "hello", "proto": PROTO_VERSION}]
        )
        seq = [m for m in got if m["t"] == "hello"][-1]["seq"] if got else 0
        if seq:
            break
    assert seq == 1
    sim.stop()
    sim2 = sim_factory("--headless", "--scenario", "hoth", "--seed", "2", "--flash", flash)
    hello = hellos(sim2.port)
    assert hello[0]["seq"] == seq
    sim2.stop()
    r = sim_headless("--scenario", "deathstar", "--flash", flash, timeout=60)
    assert r.returncode == 2 and "--new" in r.stderr and "Traceback" not in r.stderr
    sim3 = sim_factory(
        "--headless", "--scenario", "deathstar", "--new", "--seed", "3", "--flash", flash
    )
    hello = hellos(sim3.port)
    assert hello[0]["seq"] == 0 and hello[0]["scenario"] == "deathstar"


def test_a_second_simulator_on_the_same_flash_is_refused(sim_factory, tmp_path):
    """A board's flash has one owner: a second `fleetref sim --flash DIR` beside a running one
    is refused in one line and writes nothing; once the first is killed (-9, as a power cut),
    the next one restores its game."""
    import signal

    flash = tmp_path / "flash"
    sim = sim_factory("--headless", "--scenario", "hoth", "--seed", "1", "--flash", str(flash))
    got = drive(sim.port, [{"c": "roll", "values": [9, 4]}, {"c": "phase"}])
    assert [m["seq"] for m in got if m["t"] == "ev"] == [1, 2]
    before = {p.name: p.read_bytes() for p in (flash / "game").iterdir()}
    r = sim_headless("--scenario", "hoth", "--flash", str(flash), timeout=60)
    assert r.returncode == 2 and "in use by another simulator (pid %d)" % sim.proc.pid in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr
    assert {p.name: p.read_bytes() for p in (flash / "game").iterdir()} == before
    sim.proc.send_signal(signal.SIGKILL)
    sim.proc.wait(10)
    sim2 = sim_factory("--headless", "--scenario", "hoth", "--seed", "2", "--flash", str(flash))
    hello = hellos(sim2.port)
    assert hello[0]["seq"] == 2
