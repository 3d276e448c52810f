"""Without a broker: host_tools.tournament.publish.Publisher on the mirror's own replica
publishes each event once with the board's texts and hashes, then the retained state;
``acked_seq`` follows the broker's acknowledgements (also one that comes before publish()
returned its message id); a restarted publisher skips what the broker holds; a new game
starts again from seq 1."""

import json
import os

from support import ROOT
from host_tools.link.mirror import Mirror
from host_tools.tournament.publish import Publisher


class FakeClient:
    """Records what is published; ``ack_now``: acknowledge inside publish() (a PUBACK that
    beats publish()'s return)."""

    def __init__(self, ack_now=False):
        self.msgs = []
        self.on_acked_cb = None
        self.ack_now = ack_now

    def publish(self, topic, payload, retain=False):
        self.msgs.append((topic, json.loads(payload), retain))
        mid = len(self.msgs)
        if self.ack_now:
            self.on_acked_cb(mid)
        return mid


def roster():
    with open(os.path.join(ROOT, "firmware", "rosters", "hoth.json")) as f:
        return json.load(f)


EVS = [[1, 15, 8, 1], [4, 0, 0, 0], [7, 1, 0, 0]]  # physical dice, next phase, a launch


def play(pub, m, gid="g1", evs=EVS):
    m.rep.load_game({"gid": gid, "scenario": "hoth", "roster": roster()})
    for seq, ev in enumerate(evs, 1):
        assert m.rep.apply_event({"seq": seq, "ev": ev}) == "ok"
        pub.on_update(m)


def test_each_event_once_then_the_retained_state_and_acks():
    m = Mirror(None)
    c = FakeClient()
    pub = Publisher(m, c, "cup", "t1")
    play(pub, m)
    evs = [(t, d) for t, d, r in c.msgs if t.endswith("/events")]
    states = [(t, d, r) for t, d, r in c.msgs if t.endswith("/state")]
    assert [d["seq"] for t, d in evs] == [1, 2, 3]
    assert all(t == "fleetref/cup/t1/events" for t, d in evs)
    assert evs[0][1]["text"].startswith("Initiative roll (physical dice)")
    assert evs[1][1]["text"] == "Next phase: round 1, movement."
    assert evs[-1][1]["hash"] == m.rep.game.state_hash() and evs[-1][1]["gid"] == "g1"
    assert states and all(r for t, d, r in states)
    assert states[-1][1]["seq"] == 3 and states[-1][1]["state_hash"] == m.rep.game.state_hash()
    assert pub.acked_seq == 0
    ev_mids = [i + 1 for i, (t, d, r) in enumerate(c.msgs) if t.endswith("/events")]
    c.on_acked_cb(ev_mids[1])  # seq 2 acknowledged, seq 1 not yet
    assert pub.acked_seq == 0
    c.on_acked_cb(ev_mids[0])
    assert pub.acked_seq == 2
    c.on_acked_cb(ev_mids[2])
    assert pub.acked_seq == 3
    for mid in range(1, len(c.msgs) + 1):
        if mid not in ev_mids:
            c.on_acked_cb(mid)  # the states' acks
    assert not pub.mid_seq and not pub.early


def test_an_ack_before_publish_returns_counts():
    m = Mirror(None)
    pub = Publisher(m, FakeClient(ack_now=True), "cup", "t1")
    play(pub, m)
    assert pub.acked_seq == 3 and not pub.unacked and not pub.early and not pub.mid_seq
    pub.publish_status(False)
    assert not pub.early and not pub.mid_seq  # nothing kept per message


def test_a_restarted_publisher_skips_what_the_broker_holds_and_a_new_game_restarts():
    m = Mirror(None)
    c = FakeClient()
    pub = Publisher(m, c, "cup", "t1", resume=("g1", 2))
    play(pub, m)
    assert [d["seq"] for t, d, r in c.msgs if t.endswith("/events")] == [3]
    play(pub, m, gid="g2", evs=EVS[:2])
    assert [(d["gid"], d["seq"]) for t, d, r in c.msgs if t.endswith("/events")] == [
        ("g1", 3),
        ("g2", 1),
        ("g2", 2),
    ]
