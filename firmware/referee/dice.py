"""Dice for the referee: d20 and d6 from an injectable random source.

The source is a xorshift32 generator, so the same seed gives the same rolls under
MicroPython and CPython (tests seed it; the board seeds it from ``os.urandom``).
A player may instead enter the value of a physical die; that goes straight into the
event log, so replaying a game never needs the random source.
"""

import hashlib
from binascii import crc32 as _crc32, hexlify


class XorShift32:
    """Deterministic 32-bit xorshift generator (Marsaglia 2003, shifts 13/17/5).

    ``seed``: int; 0 is replaced by a fixed non-zero constant.
    """

    def __init__(self, seed):
        seed = int(seed) & 0xFFFFFFFF
        self.s = seed or 0x9E3779B9

    def next32(self):
        """Return the next value, an int in [0, 2**32)."""
        x = self.s
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.s = x
        return x

    def below(self, n):
        """Uniform int in [0, n) by rejection sampling (no modulo bias). Raises ValueError if n < 1."""
        if n < 1:
            raise ValueError("n must be >= 1")
        limit = 0x100000000 - (0x100000000 % n)
        while True:
            x = self.next32()
            if x < limit:
                return x % n


def board_seed():
    """A 32-bit seed from ``os.urandom`` (hardware entropy on the rp2 port)."""
    try:
        import os

        b = os.urandom(4)
        return b[0] | (b[1] << 8) | (b[2] << 16) | (b[3] << 24)
    except Exception:  # a port without urandom: fall back to the clock
        import time

        return int(time.time() * 1000) & 0xFFFFFFFF


class Dice:
    """Rolls dice from ``source`` (anything with ``below(n)``, e.g. :class:`XorShift32`)."""

    def __init__(self, source):
        self.source = source

    def roll(self, sides):
        """One die with ``sides`` faces: int in [1, sides]."""
        return self.source.below(sides) + 1

    def d20(self):
        return self.roll(20)

    def d6(self):
        return self.roll(6)


# ---- verifiable board rolls: commit, then reveal (docs/dice.md, issue 14) ---------------

DOMAIN = b"fleetref-roll-v1"
MAX_RECORDS = 600  # roll records held per game (RAM); older ones are dropped


def hexs(b):
    """Lowercase hex text of bytes ``b``."""
    return hexlify(b).decode()


def commitment(secret):
    """The commitment to ``secret`` (bytes): SHA-256, 64 hex digits."""
    return hexs(hashlib.sha256(secret).digest())


def u32le(v):
    return bytes((v & 255, (v >> 8) & 255, (v >> 16) & 255, (v >> 24) & 255))


def draw32(secret, seq, ent, j):
    """Draw ``j`` (0, 1, ...) of the event ``seq`` with entropy ``ent`` (32-bit int): the first
    4 bytes (little-endian) of SHA-256(DOMAIN | secret | seq | ent | j), an int in [0, 2**32)."""
    h = hashlib.sha256(DOMAIN)
    h.update(secret)
    h.update(u32le(seq))
    h.update(u32le(ent))
    h.update(u32le(j))
    d = h.digest()
    return d[0] | (d[1] << 8) | (d[2] << 16) | (d[3] << 24)


def derive(secret, seq, ent, sides, n):
    """The ``n`` dice of ``sides`` faces (list of ints 1..sides) the board rolls for event
    ``seq`` with entropy ``ent``: draw32 values by rejection sampling (no modulo bias), draw
    counter j running over every draw, rejected ones included. The verifier and the board
    share this one function."""
    out = []
    limit = 0x100000000 - (0x100000000 % sides)
    j = 0
    while len(out) < n:
        x = draw32(secret, seq, ent, j)
        j += 1
        if x < limit:
            out.append(x % sides + 1)
    return out


def new_secret(rng):
    """32 secret bytes: ``os.urandom`` (the rp2 port's ring-oscillator entropy, CPython's OS
    source); a port without it falls back to SHA-256 of ``rng`` output and the clock (weak:
    docs/dice.md says so)."""
    try:
        import os

        return os.urandom(32)
    except Exception:
        import time

        h = hashlib.sha256(u32le(rng.next32()) + u32le(rng.next32()))
        t = getattr(time, "ticks_us", None)
        h.update(u32le(t() if t else int(time.time() * 1e6)))
        return h.digest()


try:  # bound once: an import inside stir() cost ~3 ms a key press on the Pico
    from time import ticks_us as now_us  # pyright: ignore[reportAssignmentType]
except ImportError:

    def now_us():
        """The time in µs (CPython: perf_counter)."""
        import time

        return int(getattr(time, "perf_counter")() * 1000000)


class Fair:
    """The board's committed random source: a :class:`Dice` source (``below``) whose values
    come from :func:`derive` over a secret the board committed to (``commit``, in the ``game``
    line) before any roll, the number of the event the roll goes into and ``ent``, a 32-bit
    mix of the timing (µs) of every key press and serial command (:meth:`stir`). ``next32``
    (game ids) stays a plain xorshift. Each board or physical roll that enters the log leaves a
    record, sent as a ``roll`` line after its ``ev`` line; :meth:`reveal` publishes the secret
    (``reveal`` line) and commits to a new one. ``boot`` (8 hex digits, random at every start)
    names this run of the board: a restart loses the secret and the records (RAM only), so
    every line about a secret names its boot and a host never takes one boot's epoch for
    another's. ``app`` is the Referee (bound by :func:`stir`).
    """

    FAIR = True

    def __init__(self, seed=None):
        self.rng = XorShift32(board_seed() if seed is None else seed)
        self.app = None
        self.ent = 0
        self.gen = 0
        self.gid = None
        self.recs = []  # records (bytes): seq 4, ent 4, ep 1, sides 1, phys 1, dice
        self.rseq = []  # their seqs (same order)
        self.reveals = []  # this game's reveal lines (str)
        self.last_seq = 0  # newest event seen (the reveal line says how far it covers)
        self.boot = hexs(new_secret(self.rng)[:4])
        self._new_epoch(0)
        self._clear()

    def _new_epoch(self, ep):
        self.ep = ep
        self.secret = new_secret(self.rng)
        self.commit = commitment(self.secret)
        self.unrevealed = 0  # board rolls made under this secret

    def _clear(self):
        self.pseq = -1
        self.pgen = -1
        self.pj = 0
        self.pd = []
        self.psides = 0
        self.pphys = 0
        self.pent = 0

    def next32(self):
        return self.rng.next32()

    def stir(self, v=None):
        """Mix the time now (µs; or ``v``) into the entropy pool (CRC-32 chain)."""
        t = now_us() if v is None else v
        self.ent = _crc32(u32le(t), self.ent) & 0xFFFFFFFF
        self.gen += 1

    def _game(self):
        app = self.app
        if app is None:
            return None
        g = app.game
        if g is not None and app.gid != self.gid:  # a new game: a new secret
            if self.unrevealed:  # the game left behind: its rolls stay verifiable
                self.reveal(app)
            self.gid = app.gid
            self.recs = []
            self.rseq = []
            self.reveals = []
            self.last_seq = 0
            self._new_epoch(0)
            self._clear()
        return g

    def _pending(self, sides, phys):
        g = self._game()
        seq = (g.seq if g is not None else 0) + 1
        if seq != self.pseq or self.gen != self.pgen or phys != self.pphys or sides != self.psides:
            self.pseq = seq
            self.pgen = self.gen
            self.pj = 0
            self.pd = []
            self.psides = sides
            self.pphys = phys
            self.pent = self.ent
        return seq

    def below(self, n):
        """A board die of ``n`` faces for the next event, as an int in [0, n)."""
        if n < 1 or n > 255:
            raise ValueError("a die has 1..255 faces")
        seq = self._pending(n, 0)
        limit = 0x100000000 - (0x100000000 % n)
        while True:
            x = draw32(self.secret, seq, self.pent, self.pj)
            self.pj += 1
            if x < limit:
                self.pd.append(x % n + 1)
                return x % n

    def physical(self, sides, value):
        """Note a physical die of ``sides`` faces showing ``value`` entered for the next event
        (it is marked physical in its record)."""
        self._pending(sides, 1)
        self.pd.append(value)

    def game_fields(self):
        """``"commit": ..., "epoch": ..., "boot": ...`` for the ``game`` line (str, with a
        leading comma)."""
        self._game()
        return ', "commit": "%s", "epoch": %d, "boot": "%s"' % (self.commit, self.ep, self.boot)

    def hello_fields(self, msg):
        """Put ``commit``, ``epoch`` and ``boot`` into the ``hello`` message ``msg`` (dict): a
        host that reconnects learns there that the board restarted and its new commitment."""
        if self._game() is not None:
            msg["commit"] = self.commit
            msg["epoch"] = self.ep
            msg["boot"] = self.boot

    def on_event(self, link, seq):
        """After the ``ev`` line of event ``seq``: keep the roll that went into it and send its
        ``roll`` line; reveal at the end of the game (a side has won)."""
        g = self._game()
        if g is not None and seq == g.seq:
            self.last_seq = seq
        if (
            self.pd
            and self.pseq == seq
            and self.pgen == self.gen
            and g is not None
            and seq == g.seq
        ):
            rec = (
                u32le(seq)
                + u32le(self.pent)
                + bytes((self.ep, self.psides, self.pphys))
                + bytes(self.pd)
            )
            if not self.pphys:
                self.unrevealed += 1
            self.rseq.append(seq)
            self.recs.append(rec)
            if len(self.recs) > MAX_RECORDS:
                self.recs.pop(0)
                self.rseq.pop(0)
            self._clear()
        k = len(self.rseq) - 1
        while k >= 0 and self.rseq[k] > seq:
            k -= 1
        if k >= 0 and self.rseq[k] == seq:
            link.send(self.roll_line(self.recs[k]))
        if self.unrevealed and g is not None and seq == g.seq and g.winner() is not None:
            self.reveal(link)

    def roll_line(self, rec):
        seq = rec[0] | (rec[1] << 8) | (rec[2] << 16) | (rec[3] << 24)
        d = ",".join([str(x) for x in rec[11:]])
        if rec[10]:
            return '{"t":"roll","seq":%d,"phys":1,"s":%d,"d":[%s]}' % (seq, rec[9], d)
        ent = rec[4] | (rec[5] << 8) | (rec[6] << 16) | (rec[7] << 24)
        return '{"t":"roll","seq":%d,"boot":"%s","ep":%d,"ent":"%08x","s":%d,"d":[%s]}' % (
            seq,
            self.boot,
            rec[8],
            ent,
            rec[9],
            d,
        )

    def reveal(self, link):
        """Publish the secret of this epoch (``reveal`` line: the game id, boot, epoch,
        commitment, secret, the newest event seq it covers and the next commitment) and commit
        to a new one."""
        line = (
            '{"t":"reveal","gid":"%s","boot":"%s","ep":%d,"commit":"%s","secret":"%s",'
            '"seq":%d,'
            % (self.gid or "", self.boot, self.ep, self.commit, hexs(self.secret), self.last_seq)
        )
        self._new_epoch(self.ep + 1)
        self._clear()
        line += '"next":"%s"}' % self.commit
        self.reveals.append(line)
        link.send(line)

    def resend(self, link):
        """The ``dice`` command: every roll line and reveal line held, then ``dice-end``."""
        self._game()
        for r in self.recs:
            link.send(self.roll_line(r))
        for line in self.reveals:
            link.send(line)
        link.send(
            '{"t":"dice-end","gid":"%s","boot":"%s","ep":%d,"commit":"%s","held":%d}'
            % (self.gid or "", self.boot, self.ep, self.commit, len(self.recs))
        )


def fair_of(app):
    """The app's :class:`Fair` source (bound to ``app``), or None when its dice are plain."""
    d = getattr(app, "dice", None)
    s = getattr(d, "source", None)
    if s is not None and getattr(s, "FAIR", False):
        if s.app is not app:
            s.app = app
        return s
    return None


def stir(app):
    """A key press or serial command happened now: mix its timing into the entropy pool."""
    s = fair_of(app)
    if s is not None:
        s.stir()


# ---- the verifiable dice as a board extension: its hooks (referee/extensions.py) ----------
# on when app.Referee ``app``'s dice are committed: its :class:`Fair` source (else None)
on_board = fair_of


def game_fields(app):
    """The dice commitment's fields of the ``game`` line (:meth:`Fair.game_fields`), or ""."""
    s = fair_of(app)
    return s.game_fields() if s is not None else ""


def hello_fields(app, msg):
    """The commitment's fields in the ``hello`` message ``msg`` (:meth:`Fair.hello_fields`)."""
    s = fair_of(app)
    if s is not None:
        s.hello_fields(msg)


def after_event(app, seq):
    """After the ``ev`` line of event ``seq``: its roll record (:meth:`Fair.on_event`)."""
    s = fair_of(app)
    if s is not None:
        s.on_event(app, seq)


def physical(app, sides, value):
    """A physical die (``sides``, ``value``) for the next event (:meth:`Fair.physical`)."""
    s = fair_of(app)
    if s is not None:
        s.physical(sides, value)


def command(app, g, c, msg):
    """``reveal`` (command, or pad action: ``msg`` None; :meth:`Fair.reveal`) and ``dice``
    (:meth:`Fair.resend`), docs/dice.md."""
    s = fair_of(app)
    if s is not None:
        return s.reveal(app) if c == "reveal" else s.resend(app)
    return None
