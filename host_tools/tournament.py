"""``fleetref tournament init``: the broker set-up for an event of N tables: a Mosquitto
password file, an access list (each table may write only under ``fleetref/EVENT/TABLE/``, the
dashboard may only read ``fleetref/EVENT/#``), a mosquitto.conf listening on 127.0.0.1 with
persistence, and one password file per user for ``fleetref publish`` / ``fleetref dashboard``.

Passwords are random (16 bytes, URL-safe base64) and stored in the broker's password file as
Mosquitto 2.0's PBKDF2-SHA512 hashes (``$7$`` format, as ``mosquitto_passwd`` writes them).
"""

import base64
import hashlib
import os
import secrets
import sys

from host_tools import mqttlink

ITERATIONS = 101          # mosquitto_passwd's default for $7$ (PBKDF2-SHA512)
DASHBOARD_USER = "dashboard"


def table_names(n):
    """``table-01`` .. ``table-NN`` (two digits at least, so they sort as numbers)."""
    width = max(2, len(str(n)))
    return ["table-%0*d" % (width, i) for i in range(1, n + 1)]


def password_hash(password, salt=None):
    """One ``passwd`` entry's hash for ``password`` (str): ``$7$101$<salt b64>$<hash b64>``."""
    salt = salt if salt is not None else os.urandom(12)
    dk = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, ITERATIONS, 64)
    return "$7$%d$%s$%s" % (ITERATIONS, base64.b64encode(salt).decode(),
                           base64.b64encode(dk).decode())


def acl_text(event, tables):
    """The Mosquitto ACL file: tables read and write their own subtree, the dashboard reads."""
    out = ["# fleetref tournament init: event %s" % event, "",
           "user %s" % DASHBOARD_USER, "topic read %s/%s/#" % (mqttlink.PREFIX, event), ""]
    for t in tables:
        out += ["user %s" % t, "topic readwrite %s/%s/%s/#" % (mqttlink.PREFIX, event, t), ""]
    return "\n".join(out)


def conf_text(d, port):
    """mosquitto.conf for the files in directory ``d`` (absolute), listening on
    127.0.0.1:``port`` only, no anonymous clients, retained messages and sessions kept."""
    return "\n".join([
        "# fleetref tournament init; run: mosquitto -c %s" % os.path.join(d, "mosquitto.conf"),
        "# TLS and other machines: docs/mqtt.md section 4",
        "per_listener_settings false",
        "listener %d 127.0.0.1" % port,
        "allow_anonymous false",
        "password_file %s" % os.path.join(d, "passwd"),
        "acl_file %s" % os.path.join(d, "acl"),
        "persistence true",
        "persistence_location %s/" % os.path.join(d, "data"),
        "autosave_interval 10",
        "max_queued_messages 100000",
        "max_inflight_messages 100",
        ""])


def _write(path, text, mode=0o600):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)


def init(d, n, event, port):
    """Write the set-up for ``n`` tables of ``event`` into directory ``d``; returns
    ``{user: password file}``. Raises MqttError for a bad name or count, OSError for files."""
    mqttlink.check_name("event", event)
    if not 1 <= n <= 999:
        raise mqttlink.MqttError("--tables wants 1 to 999 (got %d)" % n)
    d = os.path.abspath(d)
    os.makedirs(os.path.join(d, "data"), exist_ok=True)
    os.makedirs(os.path.join(d, "passwords"), exist_ok=True)
    tables = table_names(n)
    files, entries = {}, []
    for user in [DASHBOARD_USER] + tables:
        pw = secrets.token_urlsafe(16)
        entries.append("%s:%s" % (user, password_hash(pw)))
        files[user] = os.path.join(d, "passwords", user)
        _write(files[user], pw + "\n")
    _write(os.path.join(d, "passwd"), "\n".join(entries) + "\n")
    _write(os.path.join(d, "acl"), acl_text(event, tables), 0o644)
    _write(os.path.join(d, "mosquitto.conf"), conf_text(d, port), 0o644)
    return files


def mosquitto_path():
    """The ``mosquitto`` program (Debian puts it in /usr/sbin), or None."""
    import shutil
    return shutil.which("mosquitto") or (os.path.exists("/usr/sbin/mosquitto")
                                         and "/usr/sbin/mosquitto") or None


def run_mosquitto(conf, port, log=None, timeout=10.0):
    """Start ``mosquitto -c conf`` (its output appended to ``log``, a path, or dropped);
    returns the Popen once 127.0.0.1:``port`` accepts connections. Run as root, the
    configuration gets a ``user`` line for this user first (else mosquitto switches to the
    user ``mosquitto``, who cannot read a private folder). Raises RuntimeError."""
    import pwd
    import socket
    import subprocess
    import time
    exe = mosquitto_path()
    if exe is None:
        raise RuntimeError("mosquitto is missing (Debian: apt-get install mosquitto)")
    if os.geteuid() == 0:
        with open(conf) as f:
            text = f.read()
        line = "user %s\n" % pwd.getpwuid(os.geteuid()).pw_name
        if line not in text:
            with open(conf, "a") as f:
                f.write(line)
    out = open(log, "a") if log else subprocess.DEVNULL
    proc = subprocess.Popen([exe, "-c", conf], stdout=out, stderr=subprocess.STDOUT)
    end = time.monotonic() + timeout
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return proc
        except OSError:
            if proc.poll() is not None or time.monotonic() > end:
                proc.kill()
                raise RuntimeError("mosquitto -c %s did not start listening on port %d"
                                   % (conf, port))
            time.sleep(0.05)


def add_arguments(p):
    sub = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    i = sub.add_parser("init", help="write the broker's password file, ACL and configuration")
    i.add_argument("--tables", type=int, required=True, help="how many tables (1-999)")
    i.add_argument("--dir", required=True, help="directory to write into (created)")
    i.add_argument("--event", default=mqttlink.DEFAULT_EVENT,
                   help="the event's name (default %s)" % mqttlink.DEFAULT_EVENT)
    i.add_argument("--listen-port", type=int, default=mqttlink.DEFAULT_PORT,
                   help="the broker's port on 127.0.0.1 (default %d)" % mqttlink.DEFAULT_PORT)


def main(args):
    try:
        files = init(args.dir, args.tables, args.event, args.listen_port)
    except (mqttlink.MqttError, OSError) as e:
        print("fleetref tournament: %s" % e, file=sys.stderr)
        return 2
    d = os.path.abspath(args.dir)
    first = table_names(args.tables)[0]
    print("wrote %s: mosquitto.conf, passwd, acl, passwords/ (%d tables and %s)"
          % (d, args.tables, DASHBOARD_USER))
    print("  broker:     mosquitto -c %s" % os.path.join(d, "mosquitto.conf"))
    print("  each table: fleetref publish --port auto --broker mqtt://127.0.0.1:%d --event %s "
          "--table %s --user %s --password-file %s"
          % (args.listen_port, args.event, first, first, files[first]))
    print("  organiser:  fleetref dashboard --broker mqtt://127.0.0.1:%d --event %s --user %s "
          "--password-file %s" % (args.listen_port, args.event, DASHBOARD_USER,
                                  files[DASHBOARD_USER]))
    return 0
