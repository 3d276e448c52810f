"""MQTT figures (issue 15): how many tables, each at one event a second, a Mosquitto broker on
this machine carries with the dashboard's p99 end-to-end latency under 1 s, and how the cost
grows with tables. Called by bench/run.py (:func:`measure` returns rows
``(label, figure, baseline, how measured, target, verdict)`` and :data:`NOTES`);

    .venv/bin/python bench/mqtt.py [--out docs/performance.md] [--quick]

alone measures them and rewrites only the page's MQTT rows and notes (`make bench-mqtt`).

The messages are the publisher's own: the five scripted games (bench/workload.py) are replayed
through host_tools.tournament.publish.Publisher on a mirror's replica, and what it publishes (each event,
then the retained state) is what every simulated table sends. A separate process sends them on
a schedule (table i at i/N of every second, over 16 connections); this process receives them
as `fleetref dashboard` does (mqttlink.Client into host_tools.tournament.tables.Tables) and times each
event from its ``t`` (the sender's clock, the same machine) to its arrival.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "firmware"))
sys.path.insert(0, ROOT)

from bench import host, pagerows, workload  # noqa: E402
from devtools import webshots  # noqa: E402
from host_tools.tournament import mqttlink, tables  # noqa: E402
from host_tools import paths  # noqa: E402

EVENT = "bench"
SIZES = [25, 50, 100, 200, 400, 800, 1600, 3200, 6400]
QUICK_SIZES = [10, 40]
CONNECTIONS = 16
LATENCY_S = 1.0
ROW = "MQTT"  # every row of this bench starts so; notes start "- MQTT"


def payloads():
    """[[events payload, state payload], ...] per event of the five scripted games, as
    host_tools.tournament.publish.Publisher makes them (JSON dicts; ``t`` is set when sent)."""
    from host_tools.link.mirror import Mirror
    from host_tools.tournament.publish import Publisher

    class Capture:
        on_acked_cb = None

        def __init__(self):
            self.msgs = []

        def publish(self, t, payload, retain=False):
            self.msgs.append(json.loads(payload))
            return len(self.msgs)

    out = []
    for name, scenario, evs in workload.scripted_games():
        with open(os.path.join(paths.ROSTERS, scenario + ".json")) as f:
            roster = json.load(f)
        m = Mirror(None)
        cap = Capture()
        pub = Publisher(m, cap, EVENT, "t")
        m.rep.load_game({"gid": name, "scenario": scenario, "roster": roster})
        for seq, ev in enumerate(evs, 1):
            m.rep.apply_event({"seq": seq, "ev": list(ev)})
            n = len(cap.msgs)
            pub.publish_state()
            out.append(cap.msgs[n - 1 :])
    return out


def cpu_s(pid):
    """utime + stime of process ``pid`` in seconds (/proc)."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def sender(url, n, seconds):
    """Send ``n`` tables' messages for ``seconds`` (run as a child process); prints the
    messages sent and the worst lag behind the schedule (s) as JSON."""
    msgs = payloads()
    conns = []
    for k in range(min(CONNECTIONS, n)):
        c = mqttlink.Client(url, "bench-send-%d" % k)
        c.start()
        conns.append(c)
    t0 = time.time() + 0.2
    c0 = time.process_time()
    sent = lag = 0
    k = 0
    while True:
        due = t0 + k / n
        if due - t0 >= seconds:
            break
        wait = due - time.time()
        if wait > 0:
            time.sleep(wait)
        lag = max(lag, -wait)
        table = k % n
        ev, st = msgs[(k // n + table * 7) % len(msgs)]
        c = conns[table % len(conns)]
        for kind, d in (("events", ev), ("state", st)):
            d["t"] = time.time()
            c.publish(
                mqttlink.topic(EVENT, "table-%04d" % table, kind),
                json.dumps(d),
                retain=kind == "state",
            )
        sent += 1
        k += 1
    time.sleep(1.0)
    for c in conns:
        c.stop()
    print(json.dumps({"sent": sent, "lag": lag, "cpu": time.process_time() - c0}))


def start_broker(d):
    """Mosquitto on a free 127.0.0.1 port with persistence, anonymous; (Popen, URL)."""
    from host_tools.tournament.tournament import broker_folder, run_mosquitto

    port = webshots.free_port()
    conf = os.path.join(d, "mosquitto.conf")
    os.chmod(d, 0o711)  # Mosquitto started as root runs as the user mosquitto
    broker_folder(os.path.join(d, "data"))
    with open(conf, "w") as f:
        f.write(
            "listener %d 127.0.0.1\nallow_anonymous true\npersistence true\n"
            "persistence_location %s/\nautosave_interval 10\nmax_queued_messages 100000\n"
            "max_inflight_messages 100\n" % (port, os.path.join(d, "data"))
        )
    return run_mosquitto(conf, port), "mqtt://127.0.0.1:%d" % port


def run_size(url, broker_pid, n, seconds):
    """One run of ``n`` tables: dict with latencies (s), CPU seconds and counts."""
    board = tables.Tables(EVENT, 300)
    lat = []
    lock = threading.Lock()

    def on_message(t, payload, retained=False):
        now = time.time()
        if t.endswith("/events"):
            d = json.loads(payload)
            with lock:
                lat.append((d["t"], now - d["t"]))
        board.take(t, payload)

    rx = mqttlink.Client(url, "bench-dash-%d" % n, on_message=on_message)
    rx.start()
    rx.subscribe("%s/%s/+/+" % (mqttlink.PREFIX, EVENT))
    time.sleep(0.3)
    b0, r0 = cpu_s(broker_pid), cpu_s(os.getpid())
    p = subprocess.Popen(
        [sys.executable, os.path.abspath(__file__), "--send", url, str(n), str(seconds)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    out, _ = p.communicate(timeout=seconds + 120)
    wall = seconds + 1.0  # the sending, then the 1 s the sender waits: the CPU
    #                                  shares below are over this (the start-up is idle time)
    res = json.loads(out.strip().splitlines()[-1])
    b1, r1 = cpu_s(broker_pid), cpu_s(os.getpid())
    rx.stop()
    warm = min((t for t, _x in lat), default=0) + 1.5  # leave out the first 1.5 s sent
    xs = [x for t, x in lat if t >= warm] or [x for _t, x in lat]
    return {
        "n": n,
        "sent": res["sent"],
        "got": len(lat),
        "lag": res["lag"],
        "sender_cpu": res["cpu"],
        "p50": host.pct(xs, 50),
        "p99": host.pct(xs, 99),
        "broker_cpu": b1 - b0,
        "dash_cpu": r1 - r0,
        "wall": wall,
        "tables_seen": len(board.view()["tables"]),
    }


def measure(quick=False, seconds=None):
    """Rows for docs/performance.md (see the module docstring)."""
    seconds = seconds or (4 if quick else 12)
    d = tempfile.mkdtemp(prefix="fleetref-bench-mqtt-")
    proc, url = start_broker(d)
    runs = []
    try:
        for n in QUICK_SIZES if quick else SIZES:
            r = run_size(url, proc.pid, n, seconds)
            runs.append(r)
            print(
                "bench/mqtt: %d tables: p50 %.1f ms, p99 %.1f ms, %d/%d events, broker "
                "%.2f s CPU"
                % (n, r["p50"] * 1e3, r["p99"] * 1e3, r["got"], r["sent"], r["broker_cpu"]),
                file=sys.stderr,
                flush=True,
            )
            if r["p99"] >= LATENCY_S or r["got"] < r["sent"] or r["lag"] >= LATENCY_S:
                break
    finally:
        proc.terminate()
        proc.wait(10)
        shutil.rmtree(d, ignore_errors=True)
    return rows(runs, seconds)


def ok(r):
    """Carried: p99 under 1 s and every event received (a sender more than 1 s behind its
    schedule is the load generator's limit, not the broker's: the size counts as not shown)."""
    return r["p99"] < LATENCY_S and r["got"] >= r["sent"] and r["lag"] < LATENCY_S


def rows(runs, seconds):
    good = [r for r in runs if ok(r)]
    best = max((r["n"] for r in good), default=0)
    last = runs[-1]
    if ok(last):
        why, fig = "every size tried passed", "at least %d"
    elif last["lag"] >= LATENCY_S and last["p99"] < LATENCY_S and last["got"] >= last["sent"]:
        why, fig = (
            "at %d tables the sender fell %.1f s behind its schedule: the load "
            "generator's limit, not the broker's" % (last["n"], last["lag"]),
            "at least %d",
        )
    else:
        why, fig = (
            "at %d tables p99 %.0f ms, %d of %d events received within 1 s of the "
            "last sent" % (last["n"], last["p99"] * 1e3, last["got"], last["sent"]),
            "%d",
        )
    out = [
        (
            "%s: tables at 1 event/s each that one Mosquitto on this machine carries with "
            "p99 end-to-end latency < 1 s (%s)" % (ROW, why),
            fig % best,
            "",
            "bench/mqtt.py: sizes %s, %d s each" % ("/".join(str(r["n"]) for r in runs), seconds),
            ">= 20 tables",
            host.verdict(best >= 20),
        )
    ]
    for r in runs:
        ev_s = r["sent"] / seconds
        out.append(
            (
                "%s   %d tables (%.0f events/s, each with its retained state): latency "
                "p50 / p99; CPU share of a core: broker, dashboard" % (ROW, r["n"], ev_s),
                "%.1f / %.1f ms; %.1f %%, %.1f %%"
                % (
                    r["p50"] * 1e3,
                    r["p99"] * 1e3,
                    100 * r["broker_cpu"] / r["wall"],
                    100 * r["dash_cpu"] / r["wall"],
                ),
                "",
                "%d of %d events received within 1 s of the last sent; the sender: "
                "%.0f %% of a core, at most "
                "%.2f s behind its schedule"
                % (r["got"], r["sent"], 100 * r["sender_cpu"] / r["wall"], r["lag"]),
                "",
                "",
            )
        )
    if len(good) >= 2:
        a, b = good[0], good[-1]  # the smallest and the largest size carried
        per = [1e6 * r["broker_cpu"] / max(1, r["sent"]) for r in (a, b)]
        out.append(
            (
                "%s   broker CPU per event (with its state), %d vs %d tables (ratio "
                "%.2f: 1 means the cost grows in proportion to the tables)"
                % (ROW, a["n"], b["n"], per[1] / per[0] if per[0] else 0),
                "%.0f / %.0f us" % tuple(per),
                "",
                ("/proc utime+stime of mosquitto (10 ms ticks) over each run"),
                "",
                "",
            )
        )
    return out


NOTES = [
    (
        "- MQTT rows (bench/mqtt.py): Mosquitto 2 (Debian) on 127.0.0.1 with persistence, as "
        "`fleetref tournament init` configures it but anonymous. Each table sends what "
        "`fleetref publish` sends per event: the event (QoS 1) and the retained snapshot "
        "(QoS 1), the payloads made by host_tools.tournament.publish.Publisher from the five scripted games. "
        "One sender process spreads the tables evenly over each second on 16 connections; the "
        "receiver is the dashboard's code (a persistent QoS 1 subscription into "
        "host_tools.tournament.tables). Latency: from the sender's clock before publishing to the "
        "receiver's on arrival (same machine), the first 1.5 s left out. Sizes double until the "
        "p99 reaches 1 s or an event is missing; on this 2-core machine the sender and the "
        "receiver share the cores with the broker, so the largest size is a lower bound for a "
        "broker with the cores to itself."
    ),
]


def rewrite(path, new_rows, notes):
    """Replace this bench's rows and notes on the page at ``path`` (bench/pagerows.py)."""
    pagerows.rewrite(path, ROW, new_rows, notes)


def kept(path):
    """This bench's rows and notes as on the page at ``path`` (bench/run.py when it is not
    run): (rows, notes)."""
    return pagerows.kept(path, ROW)


def main():
    import argparse

    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "performance.md"))
    ap.add_argument("--quick", action="store_true", help="two small sizes, 4 s each")
    ap.add_argument("--send", nargs=3, metavar=("URL", "N", "SECONDS"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.send:
        sender(args.send[0], int(args.send[1]), float(args.send[2]))
        return
    from host_tools.tournament.tournament import mosquitto_path

    if not mosquitto_path():
        raise SystemExit("bench/mqtt.py: mosquitto is missing (make mqtt-broker)")
    new = measure(args.quick)
    rewrite(args.out, new, NOTES)
    for r in new:
        print(" | ".join(str(x) for x in r))


if __name__ == "__main__":
    main()
