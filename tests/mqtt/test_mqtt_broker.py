"""Publishing and the dashboard against a real Mosquitto (tests/support/mqtt.py): a table's
credentials cannot write another table's topics nor the dashboard's write anything, and a
publisher whose topics the ACL denies says so in one line within seconds; bad input gives one
line and exit 2; the configuration `tournament init` writes starts Mosquitto as docs/mqtt.md
says, as root (it switches to the user mosquitto) and as an ordinary user; the broker is
stopped and restarted mid-game and every event reaches a subscriber with a persistent session,
each seq once after dropping repeats, with the board's hashes."""

import json
import os
import signal
import time

import pytest

from support import ROOT
from support.process import SimProcess
from host_tools.tournament import mqttlink
from support.mqtt import (
    EVENT,
    Recorder,
    dashboard_args,
    fleetref,
    need_mqtt,
    publish_args,
    publisher,
    wait_until,
)

SCRIPT = os.path.join(ROOT, "docs", "scripts", "hoth-3-rounds.txt")


def state_topic(table):
    return mqttlink.topic(EVENT, table, "state")


def test_a_table_cannot_write_another_tables_state_nor_the_dashboard_any(broker, procs):
    def client(user, cid):
        c = mqttlink.Client(broker.url, cid, user, mqttlink.read_password(broker.password(user)))
        c.start()
        return c

    t1, t2 = client("table-01", "t1"), client("table-02", "t2")
    genuine = json.dumps({"seq": 5, "gid": "g2", "by": "table-02"})
    t2.publish(state_topic("table-02"), genuine, retain=True)
    t1.publish(state_topic("table-01"), json.dumps({"seq": 1, "by": "table-01"}), retain=True)
    # the rogue: table-01's credentials aimed at table-02's retained state and events
    t1.publish(state_topic("table-02"), json.dumps({"seq": 99, "by": "rogue"}), retain=True)
    t1.publish(mqttlink.topic(EVENT, "table-02", "events"), json.dumps({"seq": 6}))
    dash = client("dashboard", "d")
    dash.publish(state_topic("table-03"), json.dumps({"seq": 1, "by": "dashboard"}), retain=True)
    time.sleep(0.5)  # every PUBACK is back (3.1.1: a denied one too)
    for c in (t1, t2, dash):
        c.stop()
    rec = Recorder(broker, "fleetref/%s/#" % EVENT, client_id="reader")
    procs.append(rec)
    wait_until(lambda: len(rec.msgs) >= 2, 10)
    time.sleep(0.5)
    got = dict(rec.msgs)
    assert got == {
        state_topic("table-02"): json.loads(genuine),
        state_topic("table-01"): {"seq": 1, "by": "table-01"},
    }


def test_bad_input_gives_one_line_and_exit_2(broker, tmp_path):
    wrong = tmp_path / "wrong"
    wrong.write_text("not-the-password\n")
    free = broker.port + 1 if broker.port < 65000 else broker.port - 1
    cases = [
        (["--broker", "http://x"], "--broker wants mqtt://HOST[:PORT]"),
        (
            ["--broker", broker.url, "--user", "table-01", "--password-file", str(wrong)],
            "not authorised (wrong user name or password",
        ),
        (["--broker", broker.url], "not authorised"),
        (["--broker", "mqtt://127.0.0.1:%d" % free], "cannot reach the broker"),
        (
            [
                "--broker",
                broker.url,
                "--user",
                "table-01",
                "--password-file",
                str(tmp_path / "none"),
            ],
            "cannot read the password file",
        ),
        (["--broker", broker.url, "--table", "a/b"], "table name 'a/b'"),
    ]
    for extra, want in cases:
        args = ["publish", "--port", "/dev/null", "--table", "table-01", *extra]
        if extra.count("--table") == 1:
            args[args.index("--table") + 1 : args.index("--table") + 2] = []
            args.remove("--table")
        r = fleetref(*args)
        lines = r.stderr.strip().splitlines()
        assert r.returncode == 2 and len(lines) == 1 and want in lines[0], (extra, r.stderr)
    r = fleetref(*dashboard_args(broker, "127.0.0.1:1", str(wrong)))
    assert r.returncode == 2 and "not authorised" in r.stderr
    assert "Traceback" not in r.stderr
    r = fleetref("tournament", "init", "--tables", "0", "--dir", str(tmp_path / "t"))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "1 to 999" in r.stderr


def hoth_script(seed, *more):
    """A held simulator playing the hoth key script (seed ``seed``; ``more``: further
    options) once a host has spoken."""
    return SimProcess(
        *("--headless", "--hold", "--wait-for-host", "--scenario", "hoth"),
        *("--seed", str(seed), "--script", SCRIPT, *more),
    )


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["stopped", "killed"])
def test_broker_restart_mid_game_loses_and_duplicates_no_event(broker, procs, sig):
    """Stopped (it saves) or killed (it saves nothing since its last autosave, and loses
    events it had acknowledged): either way a subscriber whose session the broker had saved
    gets every seq, each with the board's hash (docs/mqtt.md: the publisher sends again what
    follows the retained state the broker kept)."""
    if sig == signal.SIGKILL:  # the reader's session is saved before the game
        broker.autosave_every_second()  # starts, the events not all
    rec = Recorder(broker, "fleetref/%s/+/events" % EVENT, client_id="persistent-reader-%d" % sig)
    procs.append(rec)
    if sig == signal.SIGKILL:
        broker.wait_for_autosave()
    sim = hoth_script(1, "--pace", "60")
    procs.append(sim)
    procs.append(publisher(broker, sim.port, "table-01"))
    wait_until(lambda: len(rec.of("/events")) >= 5, 30)
    broker.kill(sig)  # mid-game: the board plays on meanwhile
    time.sleep(1.5)
    broker.start()
    final = sim.final()
    assert final["seq"] > 10
    every = set(range(1, final["seq"] + 1))
    wait_until(lambda: every <= {e["seq"] for e in rec.of("/events")}, 30)
    evs = rec.of("/events")
    seqs = [e["seq"] for e in evs]
    assert set(seqs) == set(range(1, final["seq"] + 1)), seqs
    once = {}
    for e in evs:  # a repeat (QoS 1) is the same event: dropped by seq
        assert once.setdefault(e["seq"], e)["hash"] == e["hash"]
    assert once[final["seq"]]["hash"] == final["state_hash"]
    assert all(e["gid"] == evs[0]["gid"] and e["table"] == "table-01" for e in evs)
    # the retained state the broker kept is the final one
    late = Recorder(broker, state_topic("table-01"), client_id="late-reader")
    procs.append(late)
    wait_until(lambda: late.of("/state") and late.of("/state")[-1]["seq"] == final["seq"], 10)
    assert late.of("/state")[-1]["state_hash"] == final["state_hash"]


def test_a_restarted_publisher_sends_only_what_the_broker_lacks(broker, procs):
    rec = Recorder(broker, "fleetref/%s/+/events" % EVENT, client_id="reader-2")
    procs.append(rec)
    sim = hoth_script(2)
    procs.append(sim)
    first = publisher(broker, sim.port, "table-02")
    procs.append(first)
    final = sim.final()
    wait_until(lambda: len(rec.of("/events")) >= final["seq"], 30)
    first.stop()
    again = publisher(broker, sim.port, "table-02")
    procs.append(again)
    wait_until(lambda: any("holds events up to %d" % final["seq"] in l for l in again.out), 30)
    time.sleep(1.0)
    seqs = [e["seq"] for e in rec.of("/events")]
    assert sorted(seqs) == list(range(1, final["seq"] + 1))  # nothing sent twice


def test_a_broker_killed_before_it_saved_gets_the_state_again(broker, procs):
    broker.kill()  # no autosave during this test
    conf = open(broker.conf).read().replace("autosave_interval 10", "autosave_interval 3600")
    open(broker.conf, "w").write(conf)
    broker.start()
    sim = hoth_script(3)
    procs.append(sim)
    procs.append(publisher(broker, sim.port, "table-03"))
    final = sim.final()
    first = Recorder(broker, state_topic("table-03"), client_id="first-reader")
    procs.append(first)
    wait_until(lambda: first.of("/state") and first.of("/state")[-1]["seq"] == final["seq"], 20)
    saved = os.path.getmtime(os.path.join(broker.dir, "data", "mosquitto.db"))
    broker.kill(signal.SIGKILL)  # nothing saved since the clean stop above
    assert os.path.getmtime(os.path.join(broker.dir, "data", "mosquitto.db")) == saved
    broker.start()
    late = Recorder(broker, state_topic("table-03"), client_id="late-reader-2")
    procs.append(late)
    wait_until(lambda: late.of("/state") and late.of("/state")[-1]["seq"] == final["seq"], 20)
    assert late.of("/state")[-1]["state_hash"] == final["state_hash"]


class Stopper:
    """A Popen for the ``procs`` fixture."""

    def __init__(self, proc):
        self.proc = proc

    def stop(self):
        from support.process import stop_process

        stop_process(self.proc)


def _as(user):
    """subprocess keywords to run a program as ``user`` (None: as this process)."""
    if user is None:
        return {}
    import pwd

    pw = pwd.getpwnam(user)
    return {"user": pw.pw_uid, "group": pw.pw_gid, "extra_groups": []}


@pytest.mark.parametrize("who", [None, "nobody"], ids=["as-this-user", "as-an-ordinary-user"])
def test_the_configuration_starts_mosquitto_as_the_docs_say(procs, who):
    """docs/mqtt.md section 3: `fleetref tournament init`, then `mosquitto -c
    DIR/mosquitto.conf` as it stands. Run as root (the tests' machine), Mosquitto switches to
    the user mosquitto before it reads the password file and the ACL and writes its store;
    run as an ordinary user who ran init, it reads them as that user. Either way a table's
    credentials publish under its own topic, the dashboard's read it, and a clean stop saves
    the store."""
    import pwd
    import shutil
    import tempfile

    need_mqtt()
    if who and os.geteuid() != 0:
        pytest.skip("switching to an ordinary user needs root (this run is one already)")
    base = tempfile.mkdtemp(prefix="fleetref-conf-")
    try:
        os.chmod(base, 0o711)
        d = os.path.join(base, "cup")
        if who:
            os.mkdir(d)
            os.chown(d, pwd.getpwnam(who).pw_uid, -1)
        port, broker, text = _init_and_start(base, d, who, procs)
        uid = int(
            next(l for l in open("/proc/%d/status" % broker.pid) if l.startswith("Uid:")).split()[
                2
            ]
        )
        runs_as = who or ("mosquitto" if os.geteuid() == 0 else pwd.getpwuid(os.geteuid())[0])
        assert uid == pwd.getpwnam(runs_as).pw_uid, (uid, runs_as)
        files = os.path.join(d, "passwords")
        b = type(
            "B",
            (),
            {
                "url": "mqtt://127.0.0.1:%d" % port,
                "password": lambda self, u: os.path.join(files, u),
            },
        )()
        rec = Recorder(b, "fleetref/%s/#" % EVENT, client_id="conf-reader")
        procs.append(rec)
        table = mqttlink.Client(
            b.url, "conf-t1", "table-01", mqttlink.read_password(b.password("table-01"))
        )
        table.start()
        table.publish(
            state_topic("table-01"), json.dumps({"seq": 1, "by": "table-01"}), retain=True
        )
        mine = {"seq": 1, "by": "table-01"}  # (again when it subscribed twice: retained)
        try:
            wait_until(
                lambda: (
                    rec.of("/table-01/state") and all(m == mine for m in rec.of("/table-01/state"))
                ),
                10,
            )
        except AssertionError:
            raise AssertionError(
                "the dashboard did not read table-01's state: %r\n%s" % (rec.msgs, text())
            )
        table.stop()
        broker.terminate()
        assert broker.wait(10) == 0, text()
        assert os.path.getsize(os.path.join(d, "data", "mosquitto.db")) > 0, text()
        assert not [l for l in text().splitlines() if "Error" in l or "Warning" in l], text()
    finally:
        shutil.rmtree(base, ignore_errors=True)


def _init_and_start(base, d, who, procs):
    """`fleetref tournament init` into ``d``, then `mosquitto -c d/mosquitto.conf`, both as
    ``who`` (None: this user); again on another port should another program have taken the
    free port meanwhile. Returns (port, the broker's Popen, a reader of its log)."""
    import subprocess
    from host_tools.tournament import tournament
    from devtools import webshots

    path = os.path.join(base, "mosquitto.log")

    def text():
        with open(path) as f:
            return f.read()

    for _attempt in range(3):
        port = webshots.free_port()
        init = [
            "tournament",
            "init",
            "--tables",
            "2",
            "--event",
            EVENT,
            "--dir",
            d,
            "--listen-port",
            str(port),
        ]
        if who is None:
            r = fleetref(*init)
            assert r.returncode == 0 and r.stderr == "", r.stderr
            assert "mosquitto -c %s/mosquitto.conf" % d in r.stdout
        else:
            assert _cli_as(who, init) == 0
        with open(path, "w") as log:
            broker = subprocess.Popen(
                [tournament.mosquitto_path(), "-c", os.path.join(d, "mosquitto.conf")],
                stdout=log,
                stderr=subprocess.STDOUT,
                **_as(who),
            )
        procs.append(Stopper(broker))
        wait_until(lambda: broker.poll() is not None or _listening(port), 10)
        time.sleep(0.3)  # (a broker that exits does so at once)
        if broker.poll() is None or "Address already in use" not in text():
            break
    assert broker.poll() is None, text()
    return port, broker, text


def _cli_as(user, argv):
    """`fleetref ARGV` run by ``user`` in a forked child of this interpreter (whose program
    and library may sit in root's private home, so the child imports nothing new: the
    arguments are parsed here); its exit code."""
    import pwd
    from host_tools import cli

    pw = pwd.getpwnam(user)
    args = cli.parser().parse_args(argv)
    pid = os.fork()
    if pid == 0:  # the child: never back into pytest
        rc = 1
        try:
            os.setgroups([])
            os.setgid(pw.pw_gid)
            os.setuid(pw.pw_uid)
            rc = args.run(args)
        finally:
            os._exit(rc)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])


def _listening(port):
    import socket

    try:
        socket.create_connection(("127.0.0.1", port), 0.2).close()
        return True
    except OSError:
        return False


@pytest.mark.parametrize(
    "user,table",
    [("table-01", "table-02"), ("dashboard", "table-01")],
    ids=["table-name-typo", "read-only-credentials"],
)
def test_a_publisher_the_access_list_denies_says_so_in_one_line(broker, procs, user, table):
    """A broker acknowledges a publish its ACL denies (MQTT 3.1.1) and drops it: the
    publisher must not publish into the void but say within seconds, in one line, that the
    table name or the credentials do not match the broker's access list, and stop."""
    sim = SimProcess("--headless", "--scenario", "hoth", "--seed", "1")
    procs.append(sim)
    t0 = time.monotonic()
    r = fleetref(*publish_args(broker, sim.port, table, user=user))
    took = time.monotonic() - t0
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1, r.stderr
    assert "--table %s" % table in lines[0] and "--user %s" % user in lines[0], lines[0]
    assert "access list" in lines[0] and "Traceback" not in r.stderr
    assert took < 15, took
    # and nothing of it reached the broker: no status for that table
    rec = Recorder(broker, "fleetref/%s/#" % EVENT, client_id="denied-reader")
    procs.append(rec)
    time.sleep(1.0)
    assert rec.of("/%s/status" % table) == []
