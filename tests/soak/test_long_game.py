"""Long games: 100,000 events through the journal, the mirror's replica and
save/load, starting near round 65,536 so a 16-bit round would wrap. Linear: each step applies
at most a RAM window's events per undo (counted, not timed); no recursion anywhere."""

import json
import os

from support.game import accepted_events, count_applies, make_referee
from host_tools.files import savefile
from host_tools.link.mirror import Replica
from referee.journal import Journal, OSFS

EVENTS = int(os.environ.get("FLEETREF_LONG_EVENTS", "100000"))
START_ROUND = 65530
B = START_ROUND  # the saved state's seq: a game in that round has played at least that


def test_100k_events_journal_mirror_save_load(tmp_path, monkeypatch):
    calls = count_applies(monkeypatch)

    rep = Replica()
    lines = []

    def board_out(line):
        msg = json.loads(line)
        if msg["t"] == "game":
            rep.load_game(msg)
        elif msg["t"] == "ev":
            assert rep.apply_event(msg) == "ok"
        elif msg["t"] == "err":
            lines.append(msg)

    app, _ = make_referee("swsb-example")
    app.send = board_out
    app.set_journal(Journal(OSFS(str(tmp_path)), "/game"))
    app.load_scenario("swsb-example")
    g = app.game
    base = bytearray(g.state_bytes())
    base[0:4] = bytes((START_ROUND & 255, START_ROUND >> 8, 0, 0))
    app.link.handle_line(json.dumps({"c": "base", "base_seq": B, "base": base.hex()}))
    assert g.seq == B
    rep.load_game(json.loads(app.game_line()))  # the host joins after the base
    rep.game.set_window(B, bytes(base), b"", b"", [])
    rep.base0 = (B, bytes(base).hex())
    for ev in accepted_events(g, EVENTS):
        if g.seq >= B + EVENTS:
            break
        assert app.submit(ev) is None, ev
    assert not lines
    assert g.seq == B + EVENTS and g.round > 65536, g.round  # past 16 bits, not wrapped
    assert rep.game.state_hash() == g.state_hash() and len(rep.rows) == EVENTS
    assert calls[0] < 300 * EVENTS // 11 + 4 * EVENTS  # linear: a window per undo

    # the journal restores it after a restart, and holds the newest events of the history
    app2, _ = make_referee("swsb-example", seed=5)
    app2.set_journal(Journal(OSFS(str(tmp_path)), "/game"))
    app2.boot("hoth")
    assert not app2.boot_note and app2.game.seq == B + EVENTS
    assert app2.game.state_hash() == g.state_hash() and app2.game.round == g.round
    held = [s for s, _ in app2.journal.events(0)]
    assert held == list(range(held[0], B + EVENTS + 1)) and EVENTS - len(held) < EVENTS // 2

    # save: the replica's full record; verify replays it; load puts it on a fresh board
    data = savefile.build(rep.game_msg, rep.base0[0], rep.base0[1], rep.rows, rep.game.snapshot())
    data = json.loads(json.dumps(data))
    calls[0] = 0
    assert savefile.verify(data).state_hash() == g.state_hash()
    assert calls[0] < 300 * EVENTS // 11 + 4 * EVENTS
    fresh, _out = make_referee("swsb-example", seed=6)
    fresh.link.handle_line(
        json.dumps(
            {"c": "load", "roster": data["game"]["roster"], "scenario": data["game"]["scenario"]}
        )
    )
    fresh.link.handle_line(json.dumps({"c": "base", "base_seq": B, "base": data["base"]}))
    evs = [r["ev"] for r in data["events"]]
    for i in range(0, len(evs), 200):
        fresh.link.handle_line(json.dumps({"c": "append", "events": evs[i : i + 200]}))
    assert fresh.game.seq == B + EVENTS and fresh.game.state_hash() == g.state_hash()
