"""Fleet state: every ship's data and the game's derived state in bytearrays, and its hash.

Per ship (index 0..n-1: side 0's ships in roster order, then side 1's): ``side``, ``cls``,
``hp1`` (X) and ``hp2`` (Y) of the hit points X/Y, ``carrier`` (NONE or the carrier's index),
``stats`` (the ruleset's stat bytes, ``len(rules.STATS)`` per ship, 255 = not given); state:
``dmg`` (applied damage), ``pending`` (marked, not yet applied), ``counters`` (command
counters left), ``flags`` (F_* core flags), ``rule_flags`` (the ruleset's FLAGS),
``ship_state`` (the ruleset's SHIP_BYTES per ship); per game ``game_state`` (the ruleset's
GAME_BYTES), ``chart`` (side * n_options + option ->
source ship or NONE), ``round``, ``phase``, ``init``, ``prev_init``, ``rolls``, ``roll_src``,
``active``, ``ext_state`` (the bytes of the game's extensions, referee/extensions.py). Hot
state is bytearrays and ints (RAM on the Pico is about 190 KB).
"""

from binascii import crc32

from referee.events import NONE
from referee.extensions import modules

# core per-ship flag bits (Fleet.flags)
F_LAUNCHED = 1
F_FIRED = 4  # finished firing this round (the ruleset's one-ship-at-a-time phase)
F_LAUNCHED_ONE = 8  # as a carrier, launched a fighter this round
ROUND_FLAGS = F_FIRED | F_LAUNCHED_ONE

# the state's arrays in the order of its canonical bytes, after the 12 bytes of the game's
# own fields (Fleet.state_buf, load_state)
STATE_ARRAYS = (
    "dmg",
    "pending",
    "counters",
    "flags",
    "chart",
    "rule_flags",
    "ship_state",
    "game_state",
    "ext_state",
)

OK = 0
DAMAGED = 1
DESTROYED = 2
STATUS_NAMES = ("ok", "damaged", "destroyed")


def _canon(v, out):
    """Append JSON value ``v`` in a canonical form (dict keys sorted) to bytearray ``out``:
    the same bytes on MicroPython and CPython."""
    if isinstance(v, dict):
        out.extend(b"{")
        for k in sorted(v):
            _canon(k, out)
            _canon(v[k], out)
        out.extend(b"}")
    elif isinstance(v, (list, tuple)):
        out.extend(b"[")
        for x in v:
            _canon(x, out)
        out.extend(b"]")
    elif isinstance(v, str):
        try:
            t = v.encode()
        except UnicodeError:
            t = repr(v).encode()
        out.extend(b'"')
        out.extend(t)
        out.extend(b'"')
    elif isinstance(v, float):
        out.extend(("f%d," % round(v * 1000)).encode())
    else:
        out.extend((str(v) + ",").encode())


def and_each(buf, m):
    """AND every byte of ``buf`` (a bytearray) with ``m`` (0..255), in place: a round's end
    clears per-round flags this way (rules digest 1.1, "End of round"). One long int and three
    calls in C instead of a Python loop: 8x faster on MicroPython for 48 ships."""
    n = len(buf)
    if n and m != 255:
        mask = int.from_bytes(bytes((m,)) * n, "little")
        buf[:] = (int.from_bytes(buf, "little") & mask).to_bytes(n, "little")


class _Crc:
    """Stands for _canon's bytearray: ``extend`` chains the CRC-32 over each piece, so the
    digest is the CRC-32 of the whole canonical form without building it (a few KB in one
    piece: on the Pico's fragmented heap that allocation could fail)."""

    def __init__(self):
        self.v = 0

    def extend(self, b):
        self.v = crc32(b, self.v)


def roster_digest(roster, settings):
    """The 32-bit digest (CRC-32, int) of a normalised roster and the game's settings that
    seeds every state hash, so a game of another roster never shows the same hash."""
    out = _Crc()
    _canon(roster, out)
    _canon(settings, out)
    return out.v


class Fleet:
    """The ships of ``roster`` (a dict normalised by roster.validate) under ``rules`` (a
    rules.base.Ruleset) with the game's ``settings`` (a dict as ``rules.settings`` gives)."""

    # the modules of the extensions the game uses (extensions.py); a game without any keeps
    # this empty tuple of the class (no slot of its own: a slot more grows the instance's
    # attribute table past a size step on MicroPython, some 80 bytes of heap)
    extensions = ()  # type: tuple

    def _take_ships(self, rules, roster):
        """The ships' set-up from the roster, side 0's ships then side 1's: names, side,
        class, hit points X and Y, carrier, the ruleset's stat bytes, and the command
        counters and flags they start with."""
        names = []
        side = []
        cls = []
        hp1 = []
        hp2 = []
        cc0 = []
        fl0 = []
        carrier = []
        st = bytearray()
        ns = len(rules.STATS)
        ctx = {}
        for si in range(2):
            ctx["side"] = si
            for s in roster["sides"][si]["ships"]:
                names.append(s["name"])
                side.append(si)
                cls.append(s["class"])
                hp1.append(s["hp"][0])
                hp2.append(s["hp"][1])
                cc0.append(s["cc"])
                fl0.append(F_LAUNCHED if s["launched"] else 0)
                c = s["carrier"]
                carrier.append(NONE if c < 0 else c)
                vals = rules.parse_stats(s["stats"], ctx)
                for k in range(ns):
                    st.append(vals[k])
        self.names = tuple(names)
        self.n = len(names)
        self.side = bytes(side)
        self.cls = bytes(cls)
        self.hp1 = bytes(hp1)
        self.hp2 = bytes(hp2)
        self.carrier = bytes(carrier)
        self.stats = bytes(st)
        self.stat_count = ns
        self._counters_start = bytes(cc0)
        self._flags_start = bytes(fl0)

    def __init__(self, rules, roster, settings):
        self.rules = rules  # the ruleset (rules.base.Ruleset)
        self.settings = settings
        self._take_ships(rules, roster)
        self.side_names = (roster["sides"][0]["name"], roster["sides"][1]["name"])
        self.roster_name = roster["name"]
        self.extras = roster.get("extras") or {}
        self.victory = roster.get("victory") or []
        n = self.n
        self.option_count = len(rules.options)
        self.dmg = bytearray(n)
        self.pending = bytearray(n)
        self.counters = bytearray(n)
        self.flags = bytearray(n)
        self.chart = bytearray(2 * self.option_count)
        self.rule_flags = bytearray(n)
        self.ship_state = bytearray(n * rules.SHIP_BYTES)
        self.game_state = bytearray(rules.GAME_BYTES)
        # the extensions the settings switch on (modules, extensions.py) and their state
        # bytes (none without: a game without clocks keeps none and imports no clock.py)
        used = modules(settings)
        if used:
            self.extensions = used
        self.ext_state = bytearray(sum([x.STATE_BYTES for x in used]))
        self.roster_id = roster_digest(roster, settings)
        # the state's canonical bytes, refilled in place (hashing allocates nothing)
        self._state_buffer = bytearray(
            12
            + 5 * n
            + len(self.chart)
            + n * rules.SHIP_BYTES
            + rules.GAME_BYTES
            + len(self.ext_state)
        )
        self.reset()

    def stat(self, i, k):
        """Stat ``k`` (index into rules.STATS) of ship i; 255 = not given."""
        return self.stats[i * self.stat_count + k]

    def index(self, name):
        """Index of the ship called ``name``, or -1."""
        for i in range(self.n):
            if self.names[i] == name:
                return i
        return -1

    def reset(self):
        """The state before the first event."""
        self.round = 1
        self.phase = 0
        self.init = NONE
        self.prev_init = NONE
        self.rolls = (0, 0)
        self.roll_src = 0
        self.active = NONE
        n = self.n
        self.dmg[:] = bytes(n)
        self.pending[:] = bytes(n)
        self.counters[:] = self._counters_start
        self.flags[:] = self._flags_start
        self.rule_flags[:] = bytes(n)
        self.chart[:] = b"\xff" * len(self.chart)
        self.ship_state[:] = bytes(len(self.ship_state))
        self.game_state[:] = bytes(len(self.game_state))
        for x in self.extensions:
            x.reset(self)

    def state_buf(self):
        """The canonical bytes of the state (what the hash covers; not the log), written into
        a buffer this game reuses: a bytearray valid until the state changes. Allocates
        nothing; :meth:`state_bytes` is the copy to keep."""
        b = self._state_buffer
        r = self.round  # 32 bits: a long game never wraps it
        b[0] = r & 255
        b[1] = (r >> 8) & 255
        b[2] = (r >> 16) & 255
        b[3] = (r >> 24) & 255
        b[4] = self.phase
        b[5] = self.init
        b[6] = self.prev_init
        b[7] = self.rolls[0]
        b[8] = self.rolls[1]
        b[9] = self.roll_src
        b[10] = self.active
        b[11] = self.n
        o = 12
        for name in STATE_ARRAYS:
            arr = getattr(self, name)
            k = len(arr)
            b[o : o + k] = arr
            o += k
        return b

    def state_bytes(self):
        """Canonical bytes of the state (what the hash covers; not the log), as bytes."""
        return bytes(self.state_buf())

    def load_state(self, data):
        """Set the state from ``data`` (bytes made by :meth:`state_bytes` for this roster).
        Raises ValueError when the length or ship count does not match."""
        n = self.n
        if (
            len(data) != len(self._state_buffer)  # (its length: the state's)
            or data[11] != n
        ):
            raise ValueError("state does not fit this game")
        self.round = data[0] | (data[1] << 8) | (data[2] << 16) | (data[3] << 24)
        self.phase = data[4]
        self.init = data[5]
        self.prev_init = data[6]
        self.rolls = (data[7], data[8])
        self.roll_src = data[9]
        self.active = data[10]
        o = 12
        for name in STATE_ARRAYS:
            arr = getattr(self, name)
            k = len(arr)
            arr[:] = data[o : o + k]
            o += k

    def state_hash_int(self):
        """The state hash as an int: CRC-32 (``binascii.crc32``, in C on MicroPython) of the
        state's canonical bytes, continued from the roster's digest (protocol 4)."""
        return crc32(self.state_buf(), self.roster_id) & 0xFFFFFFFF

    def state_hash(self):
        """The state hash (:meth:`state_hash_int`) as 8 lowercase hex digits, the same on
        MicroPython and CPython: a different roster never gives the same hash."""
        return "%08x" % self.state_hash_int()

    def status(self, i):
        """OK, DAMAGED (card flipped: X used, Y > 0) or DESTROYED (X+Y used); digest 2.2."""
        d = self.dmg[i]
        if d >= self.hp1[i] + self.hp2[i]:
            return DESTROYED
        if self.hp2[i] and d >= self.hp1[i]:
            return DAMAGED
        return OK

    def destroyed(self, i):
        return self.dmg[i] >= self.hp1[i] + self.hp2[i]

    def in_play(self, i):
        """Launched (on the map) and not destroyed."""
        return bool(self.flags[i] & F_LAUNCHED) and not self.destroyed(i)

    def to_act(self, i0, i1, done, mask, out, o):
        """For ships ``i0`` .. ``i1 - 1``: ``out[o + i - i0]`` = 2 when ship i is in play
        (:meth:`in_play`) and ``done[i] & mask`` is 0 (it has not acted yet), else 0.
        ``done``: a per-ship bytearray (``flags`` or ``rule_flags``). The grid's yet-to-act marks in one
        loop with no call per ship (Ruleset.act_marks)."""
        fl = self.flags
        dmg = self.dmg
        hp1 = self.hp1
        hp2 = self.hp2
        for i in range(i0, i1):
            out[o + i - i0] = (
                2 if fl[i] & F_LAUNCHED and dmg[i] < hp1[i] + hp2[i] and not done[i] & mask else 0
            )

    def ship(self, i):
        """None when ``i`` is a ship index, else the reason (str)."""
        if not isinstance(i, int) or i < 0 or i >= self.n:
            return "no ship %r" % (i,)
        return None

    def add_damage(self, i, points):
        """Apply ``points`` of damage to ship i at once (capped at X+Y) and tell the ruleset."""
        self.dmg[i] = min(self.dmg[i] + points, self.hp1[i] + self.hp2[i])
        self.rules.on_damage(self, i)
