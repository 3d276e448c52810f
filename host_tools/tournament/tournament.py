"""``fleetref tournament init``: the broker set-up for an event of N tables: a Mosquitto
password file, an access list (each table may write only under ``fleetref/EVENT/TABLE/``, the
dashboard may only read ``fleetref/EVENT/#``), a mosquitto.conf listening on 127.0.0.1 with
persistence, and one password file per user for ``fleetref publish`` / ``fleetref dashboard``.

Passwords are random (16 bytes, URL-safe base64) and stored in the broker's password file as
Mosquitto 2.0's PBKDF2-SHA512 hashes (``$7$`` format, as ``mosquitto_passwd`` writes them).

Mosquitto started as root switches to the user ``mosquitto`` before it reads the password file
and the ACL and writes its store, and newer versions refuse files that others may read or that
belong to another user. So the files the broker reads are mode 600 and belong to the user who
will run it: ``mosquitto`` when init runs as root (and that user exists), else the user running
init, who then starts the broker too; ``data/`` likewise (mode 700). The users' clear passwords
(``passwords/``) stay with whoever ran init.
"""

import base64
import hashlib
import os
import secrets
import stat
import sys

from host_tools.argtypes import whole_number
from host_tools.tournament import mqttlink

COMMAND = "tournament"  # fleetref tournament; SUMMARY: its line in fleetref --help (cli.py)
SUMMARY = "the broker's passwords, ACL and configuration for N tables"

ITERATIONS = 101  # mosquitto_passwd's default for $7$ (PBKDF2-SHA512)
DASHBOARD_USER = "dashboard"
BROKER_USER = "mosquitto"  # the user Mosquitto started as root switches to (Debian's package
# makes it)


def table_names(n):
    """``table-01`` .. ``table-NN`` (two digits at least, so they sort as numbers)."""
    width = max(2, len(str(n)))
    return ["table-%0*d" % (width, i) for i in range(1, n + 1)]


def password_hash(password, salt=None):
    """One ``passwd`` entry's hash for ``password`` (str): ``$7$101$<salt b64>$<hash b64>``."""
    salt = salt if salt is not None else os.urandom(12)
    dk = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, ITERATIONS, 64)
    return "$7$%d$%s$%s" % (
        ITERATIONS,
        base64.b64encode(salt).decode(),
        base64.b64encode(dk).decode(),
    )


def acl_text(event, tables):
    """The Mosquitto ACL file: tables read and write their own subtree, the dashboard reads."""
    out = [
        "# fleetref tournament init: event %s" % event,
        "",
        "user %s" % DASHBOARD_USER,
        "topic read %s/%s/#" % (mqttlink.PREFIX, event),
        "",
    ]
    for t in tables:
        out += ["user %s" % t, "topic readwrite %s/%s/%s/#" % (mqttlink.PREFIX, event, t), ""]
    return "\n".join(out)


def conf_text(d, port, as_root=False):
    """mosquitto.conf for the files in directory ``d`` (absolute), listening on
    127.0.0.1:``port`` only, no anonymous clients, retained messages and sessions kept.
    ``as_root``: the files were made for Mosquitto started as root (else for this user)."""
    who = (
        "start it as root: it runs as the user %s, who owns passwd, acl and data/" % BROKER_USER
        if as_root
        else "start it as the user who ran init (the owner of passwd, acl and data/)"
    )
    return "\n".join(
        [
            "# fleetref tournament init; run: mosquitto -c %s" % os.path.join(d, "mosquitto.conf"),
            "# " + who,
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
            "",
        ]
    )


def broker_owner():
    """``(uid, gid, groups)`` of the user who will run Mosquitto from these files: the user
    ``mosquitto`` when this runs as root and that user exists, else this process's user;
    None as root without that user (the broker would fall back to ``nobody``)."""
    if os.geteuid() != 0:
        return os.geteuid(), os.getegid(), set(os.getgroups())
    import grp
    import pwd

    try:
        pw = pwd.getpwnam(BROKER_USER)
    except KeyError:
        return None
    groups = {g.gr_gid for g in grp.getgrall() if BROKER_USER in g.gr_mem}
    return pw.pw_uid, pw.pw_gid, groups | {pw.pw_gid}


def blocked_folder(d, owner=None):
    """The first existing folder on the way to ``d`` (absolute) that the broker's user may not
    enter, or None: Mosquitto started as root cannot read files below such a folder."""
    owner = owner or broker_owner()
    if owner is None or owner[0] == 0 or os.geteuid() != 0:
        return None
    uid, _gid, groups = owner
    path = os.path.abspath(d)
    chain = []
    while True:
        chain.append(path)
        parent = os.path.dirname(path)
        if parent == path:
            break
        path = parent
    for p in reversed(chain):
        try:
            st = os.stat(p)
        except FileNotFoundError:
            return None  # made by init (mode 755)
        bit = (
            stat.S_IXUSR
            if st.st_uid == uid
            else (stat.S_IXGRP if st.st_gid in groups else stat.S_IXOTH)
        )
        if not st.st_mode & bit:
            return p
    return None


def _write(path, text, mode=0o600, owner=None):
    """Write ``text`` to ``path`` with ``mode`` (also when it existed), owned by ``owner``
    (``(uid, gid, ...)``) when given."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, mode)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        os.fchmod(fd, mode)
        if owner is not None:
            os.fchown(fd, owner[0], owner[1])
        f.write(text)


def _make(path):
    """Make folder ``path`` and any missing one above it, mode 755 whatever the umask."""
    if os.path.isdir(path):
        return
    _make(os.path.dirname(path))
    os.mkdir(path)
    os.chmod(path, 0o755)


def _folder(path, mode, owner=None):
    _make(path)
    os.chmod(path, mode)
    if owner is not None:
        os.chown(path, owner[0], owner[1])


def broker_folder(path):
    """Make folder ``path`` the broker's own (its store: mode 700, belonging to the user
    ``mosquitto`` when this runs as root and that user exists, as Mosquitto started as root
    runs as that user)."""
    owner = broker_owner() if os.geteuid() == 0 else None
    _folder(path, 0o700, owner)


def init(d, n, event, port):
    """Write the set-up for ``n`` tables of ``event`` into directory ``d``; returns
    ``{user: password file}``. The broker's files (passwd, acl, data/) belong to the user who
    will run Mosquitto (broker_owner). Raises MqttError for a bad name or count, or a folder
    Mosquitto started as root could not enter (nothing written then), OSError for files."""
    mqttlink.check_name("event", event)
    if not 1 <= n <= 999:
        raise mqttlink.MqttError("--tables wants 1 to 999 (got %d)" % n)
    d = os.path.abspath(d)
    owner = broker_owner()
    blocked = blocked_folder(d, owner)
    if blocked:
        raise mqttlink.MqttError(
            "Mosquitto started as root runs as the user %s, who may not enter %s (mode %o): "
            "choose a --dir it can reach"
            % (BROKER_USER, blocked, stat.S_IMODE(os.stat(blocked).st_mode))
        )
    broker = owner if os.geteuid() == 0 else None  # else: files are this user's anyway
    _make(d)
    broker_folder(os.path.join(d, "data"))
    _folder(os.path.join(d, "passwords"), 0o700)
    tables = table_names(n)
    files, entries = {}, []
    for user in [DASHBOARD_USER] + tables:
        pw = secrets.token_urlsafe(16)
        entries.append("%s:%s" % (user, password_hash(pw)))
        files[user] = os.path.join(d, "passwords", user)
        _write(files[user], pw + "\n")
    _write(os.path.join(d, "passwd"), "\n".join(entries) + "\n", 0o600, broker)
    _write(os.path.join(d, "acl"), acl_text(event, tables), 0o600, broker)
    _write(
        os.path.join(d, "mosquitto.conf"), conf_text(d, port, broker is not None), 0o644
    )  # read before Mosquitto switches users
    return files


def mosquitto_path():
    """The ``mosquitto`` program (Debian puts it in /usr/sbin), or None."""
    import shutil

    return (
        shutil.which("mosquitto")
        or (os.path.exists("/usr/sbin/mosquitto") and "/usr/sbin/mosquitto")
        or None
    )


def run_mosquitto(conf, port, log=None, timeout=10.0):
    """Start ``mosquitto -c conf`` as docs/mqtt.md says (run as root, Mosquitto switches to
    the user ``mosquitto`` itself; its output appended to ``log``, a path, or dropped);
    returns the Popen once 127.0.0.1:``port`` accepts connections. Raises RuntimeError."""
    import socket
    import subprocess
    import time

    exe = mosquitto_path()
    if exe is None:
        raise RuntimeError("mosquitto is missing (Debian: apt-get install mosquitto)")
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
                raise RuntimeError(
                    "mosquitto -c %s did not start listening on port %d" % (conf, port)
                )
            time.sleep(0.05)


def add_arguments(p):
    sub = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    i = sub.add_parser("init", help="write the broker's password file, ACL and configuration")
    i.add_argument("--tables", type=int, required=True, help="how many tables (1-999)")
    i.add_argument("--dir", required=True, help="directory to write into (created)")
    mqttlink.add_event_argument(i)
    i.add_argument(
        "--listen-port",
        type=whole_number(1, 65535),
        default=mqttlink.DEFAULT_PORT,
        help="the broker's port on 127.0.0.1 (default %d)" % mqttlink.DEFAULT_PORT,
    )
    from host_tools.tournament import boardsettings

    boardsettings.add_arguments(sub)


def main(args):
    if args.action == "board":
        from host_tools.tournament import boardsettings

        return boardsettings.main(args)
    try:
        files = init(args.dir, args.tables, args.event, args.listen_port)
    except (mqttlink.MqttError, OSError) as e:
        print("fleetref tournament: %s" % e, file=sys.stderr)
        return 2
    d = os.path.abspath(args.dir)
    first = table_names(args.tables)[0]
    if os.geteuid() == 0 and broker_owner() is None:
        print(
            "fleetref tournament: note: there is no user %s here (install Mosquitto before "
            "init): Mosquitto started as root could not read passwd and acl" % BROKER_USER,
            file=sys.stderr,
        )
    print(
        "wrote %s: mosquitto.conf, passwd, acl, passwords/ (%d tables and %s)"
        % (d, args.tables, DASHBOARD_USER)
    )
    print(
        "  broker:     mosquitto -c %s   (%s)"
        % (
            os.path.join(d, "mosquitto.conf"),
            "as root: it runs as the user %s, who owns passwd, acl and data/" % BROKER_USER
            if os.geteuid() == 0
            else "as this user, who owns passwd, acl and data/",
        )
    )
    print(
        "  each table: fleetref publish --port auto --broker mqtt://127.0.0.1:%d --event %s "
        "--table %s --user %s --password-file %s"
        % (args.listen_port, args.event, first, first, files[first])
    )
    print(
        "  organiser:  fleetref dashboard --broker mqtt://127.0.0.1:%d --event %s --user %s "
        "--password-file %s"
        % (args.listen_port, args.event, DASHBOARD_USER, files[DASHBOARD_USER])
    )
    return 0
