"""The simulator's key reader, `--port auto`'s choice, refusals that clear,
and the simulator's and mirror's views at 80x24."""

import io
import json
import os

from rich.console import Console

from support.process import cli, start_cli
from support.simboard import sim_board, sim_view

from host_tools.link import ports
from host_tools.sim.termkeys import KeyReader


class FakeKeymap:
    def find(self, action):
        return {"sel-": (0, False), "sel+": (1, False)}[action]


def test_arrow_keys_are_not_pad_keys():
    r = KeyReader(FakeKeymap().find)
    # Up, Down: select; Right, Left, F1 (SS3), F5 (CSI 15~), Home, Ctrl+Right: ignored
    assert r.feed(b"\x1b[A") == [(0, False)]
    assert r.feed(b"\x1b[B") == [(1, False)]
    for seq in (b"\x1b[C", b"\x1b[D", b"\x1bOP", b"\x1b[15~", b"\x1b[H", b"\x1b[1;5C", b"\x1b[6~"):
        assert r.feed(seq) == [], seq
    assert r.ignored == 7
    # the letters of a sequence are never pad keys ("A" would be a long press of "a")
    assert KeyReader().feed(b"\x1b[A\x1b[C\x1b[D") == []


def test_sequence_split_across_reads_and_plain_keys_around_it():
    r = KeyReader(FakeKeymap().find)
    assert r.feed(b"a\x1b") == [(8, False)]
    assert r.feed(b"[") == []
    assert r.feed(b"Cq") == [(4, False)]  # Right ignored, q = key 4
    assert r.feed(b"Q") == [(4, True)]  # shifted = long press
    assert r.feed(b"\x1b") == []
    r.flush()  # a lone Esc
    assert r.pending == b"" and r.last_ignored == "Esc"
    assert r.feed(b"\x1bx1") == [(0, False)]  # Alt+x ignored, then 1


def test_port_choice_prefers_pico_and_lists_candidates():
    sims = [
        {"pid": 11, "path": "/dev/pts/7", "scenario": "hoth"},
        {"pid": 10, "path": "/dev/pts/5", "scenario": "deathstar"},
    ]
    port, note = ports.choose(["/dev/ttyACM0"], sims)
    assert port == "/dev/ttyACM0"
    assert "Pico on /dev/ttyACM0" in note and "/dev/pts/7" in note and "/dev/pts/5" in note
    port, note = ports.choose([], sims)
    assert port == "/dev/pts/7" and "newest" in note and "pid 10" in note
    port, note = ports.choose([], sims[1:])
    assert port == "/dev/pts/5" and "candidates" not in note
    try:
        ports.choose([], [], [{"pid": 3, "path": "/dev/pts/9", "root": "/elsewhere"}])
        raise AssertionError("chose a simulator of another checkout")
    except ports.NoBoard as e:
        assert "/elsewhere" in str(e) and "--port" in str(e)


def test_only_simulators_of_this_checkout(tmp_path, monkeypatch):
    monkeypatch.setattr(ports, "PORT_DIR", str(tmp_path))
    monkeypatch.delenv("FLEETREF_SIM_UNLISTED", raising=False)
    f = ports.register("/dev/pts/42", "hoth")
    other = tmp_path / ("%d.port" % os.getppid())
    other.write_text(
        json.dumps({"path": "/dev/pts/43", "root": "/another/clone", "started": 1e12})
    )
    (tmp_path / "999999999.port").write_text(json.dumps({"path": "/dev/pts/44"}))  # ended
    mine = ports.simulators(ports.paths.ROOT)
    assert [d["path"] for d in mine] == ["/dev/pts/42"]
    assert {d["path"] for d in ports.simulators()} == {"/dev/pts/42", "/dev/pts/43"}
    assert not os.path.exists(tmp_path / "999999999.port")
    monkeypatch.setattr(ports, "picos", list)
    assert ports.find()[0] == "/dev/pts/42"
    os.remove(f)
    monkeypatch.setenv("FLEETREF_SIM_UNLISTED", "1")
    assert ports.register("/dev/pts/45", "hoth") is None


def rows_of(text, width, height):
    c = Console(file=io.StringIO(), width=width, height=height, record=True, color_system=None)
    c.print(text)
    return c.export_text().rstrip("\n").split("\n")


def test_sim_view_fits_80x24_and_refusal_clears():
    built = sim_board()
    app, ser = built[0], built[2]
    try:
        v = sim_view(built, 80, 24)
        app.pad.key("undo")  # nothing to undo: refused
        assert app.error_text
        lines = rows_of(v.render(80, 24), 80, 24)
        assert len(lines) <= 24 and max(len(x) for x in lines) <= 80
        text = "\n".join(lines)
        assert "refused: " in text and "selected:" in text and "round" in text
        assert "1 sel-" in text  # the key legend is there, not cut
        app.pad.key("sel+")  # the next action succeeds
        text = "\n".join(rows_of(v.render(80, 24), 80, 24))
        assert "refused:" not in text
        big = rows_of(v.render(160, 50), 160, 50)
        assert len(big) <= 50
    finally:
        ser.close()


def test_mirror_view_fits_80x24_collapses_and_announces_new_game():
    from host_tools.link.mirror import Mirror
    from host_tools.views.mirrorview import MirrorScreen

    app, _runner, ser, _keys, _display, _keymap = sim_board("deathstar")
    try:
        m = Mirror("/dev/null", warn=lambda s: None)
        m.rep.load_game(json.loads(app.game_line()))
        assert app.pad.key("roll") is None
        while app.game.seq < 29:
            assert app.pad.key("roll" if app.game.seq % 2 == 0 else "undo") is None
        for seq in range(1, 30):
            assert (
                m.rep.apply_event({"gid": m.rep.gid, "seq": seq, "ev": list(app.game.event(seq))})
                == "ok"
            )
        m.rep.errors.append("nothing to undo")
        scr = MirrorScreen(m, console=Console(file=io.StringIO(), width=80, height=24))
        lines = rows_of(scr.build(80, 24), 80, 24)
        assert len(lines) <= 24 and max(len(x) for x in lines) <= 80
        text = "\n".join(lines)
        assert "more ships" in text
        assert "refused: nothing to undo" in text
        assert "29 " in text  # the newest event is kept
        small = "\n".join(rows_of(scr.build(80, 16), 80, 16))
        assert "earlier events" in small and "29 " in small
        assert app.pad.key("undo") is None
        assert (
            m.rep.apply_event({"gid": m.rep.gid, "seq": 30, "ev": list(app.game.event(30))})
            == "ok"
        )
        assert "refused:" not in "\n".join(rows_of(scr.build(80, 24), 80, 24))
        msg = json.loads(app.game_line())
        msg["gid"] = "0badc0de"
        said = []
        m.warn = said.append
        m.handle(dict(msg, t="game"))
        assert said and "NEW GAME 0badc0de" in said[0]
        assert "NEW GAME 0badc0de" in "\n".join(rows_of(scr.build(80, 24), 80, 24))
        # a won game: the view layout only (the victory rules are tested in test_seed_*),
        # so the replica's game reports side 1 the winner; the collapsed view still says so
        g = m.rep.game
        g.winner = lambda: 1
        for h in (24, 12, 9):
            shown = "\n".join(rows_of(scr.build(80, h), 80, h))
            assert "WINNER: %s" % g.side_names[1] in shown, (h, shown)
    finally:
        ser.close()


def test_simulator_key_reader_gets_terminal_bytes(monkeypatch):
    built = sim_board()
    ser, keys, keymap = built[2], built[3], built[5]
    r, w = os.pipe()
    try:
        v = sim_view(built, 80, 24)
        monkeypatch.setattr("sys.stdin", os.fdopen(r, "rb", buffering=0))
        # Up, q, Right, F5, A (a long press of a): Up selects, Right and F5 do nothing
        os.write(w, b"\x1b[Aq\x1b[C\x1b[15~A")
        v._on_key()
        assert keys.q == [keymap.find("sel-"), (4, False), (8, True)]
        assert v.reader.ignored == 2
        assert "ignored key" in "\n".join(rows_of(v.render(80, 24), 80, 24))
    finally:
        os.close(w)
        ser.close()


def test_did_you_mean_for_scenario_ruleset_roster_and_board(tmp_path):
    r = cli("sim", "--headless", "--scenario", "hot")
    assert r.returncode != 0 and "did you mean 'hoth'?" in r.stderr and "Errno" not in r.stderr
    r = cli("sim", "--headless", "--ruleset", "swsb-adon")
    assert "did you mean 'swsb-addon'" in r.stderr
    r = cli("sim", "--headless", "--roster", "firmware/rosters/hoht.json")
    assert "did you mean firmware/rosters/hoth.json" in r.stderr
    r = cli("sim", "--headless", "--board", "pico-ws2812")
    assert "did you mean 'pico-ws2812-16x16'" in r.stderr
    # flash refuses a scenario the board would not have (it would fail at boot)
    out = tmp_path / "files"
    r = cli("flash", "--scenario", "hot", "--out", str(out))
    assert r.returncode == 2 and "did you mean 'hoth'" in r.stderr and not out.exists()
    r = cli("flash", "--scenario", "deathstar", "--dry-run")
    assert r.returncode == 0


def test_second_simulator_warns_and_mirror_auto_says_which(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "FLEETREF_SIM_UNLISTED"}
    env["TMPDIR"] = str(tmp_path)  # a private registry of running simulators
    procs = []
    try:
        for scen in ("hoth", "deathstar"):
            p = start_cli("sim", "--headless", "--scenario", scen, env=env)
            procs.append(p)
            first = p.stdout.readline()
            assert first.startswith("serial: ")
        import time

        time.sleep(0.5)
        r = cli("mirror", "--once", "--json", "--port", "auto", env=env, timeout=60)
        assert r.returncode == 0, r.stderr
        assert "using the newest: simulator pid %d (deathstar)" % procs[1].pid in r.stderr
        assert "pid %d (hoth)" % procs[0].pid in r.stderr and "--port PATH" in r.stderr
        assert json.loads(r.stdout)["scenario"] == "Attack on the Death Star"
    finally:
        for p in procs:
            p.terminate()
            p.wait(10)
    assert (
        "other simulator(s) of this checkout running (pid %d)" % procs[0].pid
        in procs[1].stderr.read()
    )
