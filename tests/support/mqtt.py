"""A real Mosquitto broker for the MQTT tests: started on a free 127.0.0.1 port in a
temporary folder with the configuration, password file and ACL `fleetref tournament init`
writes. Without the Debian package `mosquitto` the tests skip with one line;
FLEETREF_REQUIRE_MQTT=1 (set by .ci/run) makes that a failure."""

import json
import os
import shutil
import signal
import tempfile
import threading
import time

from host_tools.tournament import mqttlink, tournament
from devtools import webshots
from support.process import Tool, cli, need, stop_process

EVENT = "testcup"


def need_mqtt():
    need(
        None
        if tournament.mosquitto_path()
        else "mosquitto is missing: the MQTT tests need Debian's mosquitto (make mqtt-broker, as "
        "root: apt-get install mosquitto)",
        "FLEETREF_REQUIRE_MQTT",
    )


def wait_until(pred, timeout, step=0.05):
    """Poll ``pred`` until it is true; raises AssertionError after ``timeout`` s."""
    t0 = time.monotonic()
    while not pred():
        if time.monotonic() - t0 > timeout:
            raise AssertionError("not within %.1f s" % timeout)
        time.sleep(step)


def reachable_folder(folder):
    """``folder``, or when Mosquitto started as root could not enter it (its user
    ``mosquitto`` may not pass pytest's private temporary folders) a new folder of its own
    under the system's temporary folder, mode 711; (path, made: remove it afterwards)."""
    if not tournament.blocked_folder(str(folder)):
        return str(folder), False
    d = tempfile.mkdtemp(prefix="fleetref-broker-")
    os.chmod(d, 0o711)
    return os.path.join(d, "broker"), True


class Broker:
    """Mosquitto with `tournament init`'s files for ``tables`` tables, started as docs/mqtt.md
    says (as root it switches to the user ``mosquitto``), in ``folder`` or, where that user
    may not enter it, a folder of its own removed by stop(); .url, .password(user) (the
    password file's path), .kill(sig), .start()."""

    def __init__(self, folder, tables=3, event=EVENT):
        self.dir, self.made = reachable_folder(folder)
        self.port = webshots.free_port()
        self.files = tournament.init(self.dir, tables, event, self.port)
        self.url = "mqtt://127.0.0.1:%d" % self.port
        self.conf = os.path.join(self.dir, "mosquitto.conf")
        self.proc = None
        self.log = os.path.join(self.dir, "mosquitto.log")
        self.start()

    def password(self, user):
        return self.files[user]

    def start(self):
        self.proc = tournament.run_mosquitto(self.conf, self.port, self.log)

    def kill(self, sig=signal.SIGTERM):
        self.proc.send_signal(sig)
        self.proc.wait(10)

    def autosave_every_second(self):
        """Restart the broker saving its store every second (not every 10 s), so a SIGKILL
        loses at most the last second: a reader's session is on disk before a game starts."""
        self.kill()
        conf = open(self.conf).read().replace("autosave_interval 10", "autosave_interval 1")
        open(self.conf, "w").write(conf)
        self.start()

    def wait_for_autosave(self):
        """Return once the broker has written its store at least 1.5 s after this call."""
        db = os.path.join(self.dir, "data", "mosquitto.db")
        t0 = time.time()
        wait_until(lambda: os.path.exists(db) and os.path.getmtime(db) > t0 + 1.5, 20)

    def stop(self):
        if self.proc is not None:
            stop_process(self.proc)
        if self.made:
            shutil.rmtree(os.path.dirname(self.dir), ignore_errors=True)


class Recorder:
    """A subscriber of ``pattern`` with the dashboard's credentials and a persistent session:
    .msgs is every (topic, decoded JSON or raw bytes) received, in order."""

    def __init__(self, broker, pattern, user="dashboard", client_id="test-recorder"):
        self.msgs = []
        self.lock = threading.Lock()
        self.c = mqttlink.Client(
            broker.url,
            client_id,
            user,
            mqttlink.read_password(broker.password(user)),
            on_message=self._take,
            on_connect=lambda present: self.c.subscribe(pattern),
        )
        self.c.start()
        assert self.c.subscribe(pattern, wait=10), "the broker never confirmed " + pattern

    def _take(self, topic, payload, retained=False):
        try:
            d = json.loads(payload)
        except ValueError:
            d = payload
        with self.lock:
            self.msgs.append((topic, d))

    def of(self, suffix):
        with self.lock:
            return [d for t, d in self.msgs if t.endswith(suffix)]

    def stop(self):
        self.c.stop()


def fleetref(*args, **kw):
    """Run `fleetref ARGS` to its end; the CompletedProcess (text)."""
    return cli(*args, timeout=kw.get("timeout", 60))


def publish_args(broker, port, table, event=EVENT, user=None):
    """The words of ``fleetref publish`` from the board on ``port`` to ``broker`` as
    ``table`` of ``event``, logged in as ``user`` (by default the table's own user)."""
    user = user or table
    return (
        *("publish", "--port", port, "--broker", broker.url, "--event", event),
        *("--table", table, "--user", user, "--password-file", broker.password(user)),
    )


def dashboard_args(broker, http, password_file=None):
    """The words of ``fleetref dashboard`` on ``broker``, logged in as the dashboard user
    (its password in ``password_file``, by default the broker's), serving ``http``
    (host:port)."""
    password_file = password_file or broker.password("dashboard")
    return (
        *("dashboard", "--broker", broker.url, "--user", "dashboard"),
        *("--password-file", password_file, "--http", http),
    )


def publisher(broker, port, table, event=EVENT):
    return Tool(*publish_args(broker, port, table, event))


def dashboard(broker, http, client_id, event=EVENT, silent_after=300):
    return Tool(
        *dashboard_args(broker, "127.0.0.1:%d" % http),
        *("--event", event, "--client-id", client_id, "--silent-after", str(silent_after)),
    )
