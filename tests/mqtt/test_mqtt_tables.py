"""Without a broker: the dashboard's model of the tables (host_tools.tournament.tables) drops
repeated events by seq, warns when hashes disagree and when a table in play goes silent, shows
time banks, survives malformed messages with one warning each; broker URLs and names are
checked; `tournament init` writes Mosquitto's $7$ (PBKDF2-SHA512) hashes and an ACL that
confines each table to its own topics."""

import base64
import hashlib
import json
import os
import pathlib
import stat

import pytest

from support.game import new_game
from host_tools.tournament import mqttlink, tables, tournament
from support.mqtt import reachable_folder


@pytest.fixture
def folder(tmp_path):
    """A folder for `tournament init` that Mosquitto started as root may enter (pytest's own
    are private to root)."""
    import shutil

    d, made = reachable_folder(tmp_path / "cup")
    yield d
    if made:
        shutil.rmtree(os.path.dirname(d), ignore_errors=True)


def snap_of(g, gid="g1", **extra):
    s = g.snapshot()
    s.update(gid=gid, board_hash=s["state_hash"], hash_match=True, t=100.0)
    s.update(extra)
    return json.dumps(s)


def ev_msg(seq, h, gid="g1", t=100.0, board_hash=None, text="x"):
    return json.dumps(
        {
            "seq": seq,
            "ev": [4, 0, 0, 0],
            "hash": h,
            "board_hash": board_hash,
            "text": text,
            "round": 1,
            "phase": "p",
            "gid": gid,
            "t": t,
        }
    )


def board(now=100.0, silent_after=30):
    warned = []
    return tables.Tables("cup", silent_after, warn=warned.append, clock=lambda: now), warned


def test_events_are_counted_once_per_seq_and_the_card_shows_the_state():
    g = new_game("hoth")
    tb, warned = board()
    tp = "fleetref/cup/t1/"
    assert tb.take(tp + "events", ev_msg(1, "aa")) == "event"
    assert tb.take(tp + "events", ev_msg(1, "aa")) == "dup"
    assert tb.take(tp + "events", ev_msg(2, "bb", text="two")) == "event"
    g.submit((4, 0, 0, 0))
    assert tb.take(tp + "state", snap_of(g, seq=2, state_hash="bb")) == "state"
    assert tb.take("fleetref/other/t1/state", snap_of(g)) is None  # another event
    c = tb.view()["tables"][0]
    assert (c["table"], c["seq"], c["state_hash"], c["events_seen"], c["dups_dropped"]) == (
        "t1",
        2,
        "bb",
        2,
        1,
    )
    assert c["recent"] == ["x", "two"] and c["warnings"] == [] and warned == []
    hp = sum(s["hp"][0] + s["hp"][1] for s in g.snapshot()["ships"] if s["side"] == 0)
    assert c["strength"][0][:2] == (hp, hp)
    assert c["phase"] == g.phase_name() and c["sides"] == ["Empire", "Rebels"]


def test_hashes_that_disagree_and_silence_are_warned():
    g = new_game("hoth")
    tb, _ = board(now=200.0, silent_after=30)
    tb.take("fleetref/cup/t1/events", ev_msg(1, "aa", board_hash="ff"))
    tb.take("fleetref/cup/t2/events", ev_msg(3, "cc"))
    tb.take("fleetref/cup/t2/state", snap_of(g, seq=3, state_hash="dd", t=190.0))
    tb.take(
        "fleetref/cup/t3/state",
        snap_of(g, seq=0, hash_match=False, board_hash="ee", t=100.0, winner=1),
    )
    cards = {c["table"]: c for c in tb.view()["tables"]}
    assert cards["t1"]["warnings"] == ["event 1: board hash ff, replica aa"]
    assert cards["t2"]["warnings"] == ["event 3: state dd, event cc"]  # not silent
    w3 = cards["t3"]["warnings"]
    assert any("board hash ee" in w for w in w3)
    assert not any(w.startswith("silent") for w in w3)  # it has ended
    tb2, _ = board(now=200.0, silent_after=30)
    tb2.take("fleetref/cup/t4/state", snap_of(g, seq=0, t=150.0))
    assert tb2.view()["tables"][0]["warnings"] == ["silent for 50 s"]
    tb2.take("fleetref/cup/t4/status", json.dumps({"online": False, "t": 199}))
    assert "publisher offline for 1 s" in tb2.view()["tables"][0]["warnings"]


def test_time_banks_a_new_game_and_results_csv():
    g = new_game("hoth", {"clock_s": 600})
    tb, _ = board()
    tb.take("fleetref/cup/t1/events", ev_msg(1, "aa"))
    tb.take("fleetref/cup/t1/state", snap_of(g, gid="g2", seq=0))  # a new game
    c = tb.view()["tables"][0]
    assert c["clock"]["left"] == [600, 600] and c["gid"] == "g2" and c["events_seen"] == 0
    rows = tb.results_csv().splitlines()
    assert rows[0].startswith("table,scenario,side_0,side_1,winner")
    assert rows[1].startswith("t1,Escape from Hoth,Empire,Rebels,,")


def test_the_card_shows_paused_clocks():
    """A board's paused time banks reach the card as paused (the page then says so); a
    running clock is not paused."""
    g = new_game("hoth", {"clock_s": 600})
    tb, _ = board()
    s = json.loads(snap_of(g))
    s["clock"] = dict(s["clock"], paused=True, running=None)
    tb.take("fleetref/cup/t1/state", json.dumps(s))
    assert tb.view()["tables"][0]["clock"]["paused"] is True
    s["clock"] = dict(s["clock"], paused=False, running=0)
    tb.take("fleetref/cup/t1/state", json.dumps(s))
    assert tb.view()["tables"][0]["clock"]["paused"] is False


@pytest.mark.parametrize(
    "kind,payload",
    [
        ("state", b"not json"),
        ("state", b"[1, 2]"),
        ("state", b'{"seq": 1}'),
        ("events", b'{"seq": "x", "gid": 1, "hash": "a"}'),
        ("events", (b'{"seq": 2, "gid": "g", "hash": 5}')),
        ("status", b"{}"),
        ("state", b"\xff\xfe"),
        ("state", b"RECENT"),
    ],
)
def test_a_malformed_message_is_warned_once_and_ignored(kind, payload):
    g = new_game("hoth")
    tb, warned = board()
    tb.take("fleetref/cup/t1/state", snap_of(g, seq=0))
    if payload == b"RECENT":  # a state whose recent list is torn
        d = json.loads(snap_of(g, seq=1))
        d["recent"] = [[]]
        payload = json.dumps(d)
    assert tb.take("fleetref/cup/t1/" + kind, payload) is None
    assert len(warned) == 1 and "table t1: malformed %s message ignored" % kind in warned[0]
    c = tb.view()["tables"][0]
    assert c["malformed"] == 1 and c["state_hash"] == g.state_hash()
    assert c["malformed_last"].startswith(kind + " message: ")


def test_the_card_counts_malformed_messages_and_names_the_last():
    """docs/mqtt.md section 3: the dashboard counts malformed messages on the table's card."""
    tb, warned = board()
    tb.take("fleetref/cup/t1/events", b"not json")
    assert tb.view()["tables"][0]["warnings"] == [
        "1 malformed message ignored, the last: events message: not JSON"
    ]
    tb.take("fleetref/cup/t1/state", b'{"seq": 1}')
    assert tb.view()["tables"][0]["malformed_last"] == "state message: no field 'gid'"
    tb.take("fleetref/cup/t1/status", b'{"online": "maybe"}')
    c = tb.view()["tables"][0]
    assert c["malformed"] == 3 and len(warned) == 3
    assert c["warnings"] == [
        ("3 malformed messages ignored, the last: status message: online must be true or false")
    ]


def test_the_will_has_no_time_and_the_card_says_when_the_table_went_offline():
    """The will is fixed at connect time, so it carries no time: the dashboard takes the time
    it received the will, unless the broker sent it stored from before the dashboard
    subscribed (then when is unknown); the publisher's own status messages carry theirs."""
    from host_tools.tournament import publish

    will = json.loads(publish.will_payload())
    assert will == {"online": False}
    now = [1000.0]
    tb = tables.Tables("cup", 30, clock=lambda: now[0])
    tb.take("fleetref/cup/t1/status", json.dumps({"online": True, "t": 990.0}))
    now[0] = 1500.0  # the link died and the broker sent the will
    tb.take("fleetref/cup/t1/status", publish.will_payload())
    now[0] = 1530.0
    c = tb.view()["tables"][0]
    assert (c["online"], c["offline_since"]) == (False, 1500.0)
    assert c["warnings"] == ["publisher offline for 30 s"]
    # the dashboard subscribes again: the broker sends the stored will; the time stays
    tb.take("fleetref/cup/t1/status", publish.will_payload(), retained=True)
    assert tb.view()["tables"][0]["offline_since"] == 1500.0
    # a dashboard started afresh learns of the will from the broker's store: when is unknown
    fresh = tables.Tables("cup", 30, clock=lambda: now[0])
    fresh.take("fleetref/cup/t1/status", publish.will_payload(), retained=True)
    c = fresh.view()["tables"][0]
    assert c["offline_since"] is None
    assert c["warnings"] == ["publisher offline (since before this dashboard subscribed)"]
    # the publisher's own goodbye carries its time, stored or not; online again clears it
    fresh.take("fleetref/cup/t1/status", json.dumps({"online": False, "t": 1400.0}), True)
    assert fresh.view()["tables"][0]["offline_since"] == 1400.0
    fresh.take("fleetref/cup/t1/status", json.dumps({"online": True, "t": 1520.0}))
    c = fresh.view()["tables"][0]
    assert (c["online"], c["offline_since"], c["warnings"]) == (True, None, [])


def test_broker_urls_and_names():
    assert mqttlink.parse_broker("mqtt://127.0.0.1") == ("127.0.0.1", 1883, False)
    assert mqttlink.parse_broker("mqtts://host.example:9000") == ("host.example", 9000, True)
    for bad in (
        "127.0.0.1:1883",
        "http://x",
        "mqtt://",
        "mqtt://h:0",
        "mqtt://h:99999",
        "mqtt://u@h",
        "mqtt://h/path",
    ):
        with pytest.raises(mqttlink.MqttError):
            mqttlink.parse_broker(bad)
    for bad in ("a/b", "+", "#", "", "x" * 33, None):
        with pytest.raises(mqttlink.MqttError):
            mqttlink.check_name("table", bad)
    assert mqttlink.split_topic(mqttlink.topic("e", "t", "state")) == ("e", "t", "state")
    assert mqttlink.split_topic("fleetref/e/t/other") is None


def test_tournament_files(folder):
    files = tournament.init(folder, 12, "cup", 18830)
    tmp_path = pathlib.Path(folder)
    assert sorted(files) == ["dashboard"] + ["table-%02d" % i for i in range(1, 13)]
    entries = dict(l.split(":", 1) for l in (tmp_path / "passwd").read_text().splitlines())
    for user, path in files.items():
        pw = open(path).read().strip()
        _, seven, it, salt, digest = entries[user].split("$")
        assert seven == "7" and it == "101"
        assert base64.b64decode(digest) == hashlib.pbkdf2_hmac(
            "sha512", pw.encode(), base64.b64decode(salt), 101, 64
        )
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    acl = (tmp_path / "acl").read_text()
    assert "user dashboard\ntopic read fleetref/cup/#" in acl
    assert "user table-07\ntopic readwrite fleetref/cup/table-07/#" in acl
    assert acl.count("readwrite") == 12 and "write fleetref/cup/#" not in acl
    conf = (tmp_path / "mosquitto.conf").read_text()
    for line in ("listener 18830 127.0.0.1", "allow_anonymous false", "persistence true"):
        assert line in conf.splitlines()
    assert not any(l.startswith("user ") for l in conf.splitlines())  # never "user root"


def test_the_broker_files_belong_to_the_user_who_runs_the_broker(folder):
    """Mosquitto started as root runs as the user mosquitto, and newer versions refuse a
    password file or ACL that others may read or that belongs to another user: passwd and acl
    are mode 600 and the store's folder 700, all that user's (this user's when not root)."""
    import pwd

    d = pathlib.Path(folder)
    tournament.init(str(d), 2, "cup", 18830)
    root = os.geteuid() == 0
    user = pwd.getpwnam("mosquitto") if root else pwd.getpwuid(os.geteuid())
    for name, mode in (("passwd", 0o600), ("acl", 0o600), ("data", 0o700)):
        st = os.stat(d / name)
        assert (stat.S_IMODE(st.st_mode), st.st_uid, st.st_gid) == (
            mode,
            user.pw_uid,
            user.pw_gid if root else os.getegid(),
        ), name
    for name in ("passwords", "passwords/table-01"):  # the clear ones stay with init's user
        st = os.stat(d / name)
        assert st.st_uid == os.geteuid() and not st.st_mode & 0o077, name
    (d / "acl").chmod(0o644)  # an older set-up, written again
    tournament.init(str(d), 2, "cup", 18830)
    assert stat.S_IMODE(os.stat(d / "acl").st_mode) == 0o600


def test_a_folder_the_broker_cannot_enter_is_refused_as_root(folder):
    if os.geteuid() != 0:
        pytest.skip("only root's broker switches to the user mosquitto")
    private = pathlib.Path(folder) / "private"
    private.mkdir(parents=True)
    private.chmod(0o700)
    with pytest.raises(mqttlink.MqttError, match="may not enter %s \\(mode 700\\)" % private):
        tournament.init(str(private / "cup"), 2, "cup", 18830)
    assert list(private.iterdir()) == []
