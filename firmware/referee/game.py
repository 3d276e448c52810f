"""The referee's game: state derived from an append-only event log.

An event is a tuple of four ints ``(kind, a, b, c)``:

====================  =========================================  ===========================
kind                  a, b, c                                    rule
====================  =========================================  ===========================
EV_INIT (1)           roll of side 0, roll of side 1, source      initiative (profile.tie)
                      (0 = board's dice, 1 = physical dice)
EV_HIT (2)            ship, points (+ mark, - remove pending),    damage, hit points X/Y
                      attacker ship or 255
EV_COUNTER (3)        source ship, option index, ship it is for   fleet command
EV_PHASE (4)          0, 0, 0                                     phase order, end of round
EV_UNDO (5)           0, 0, 0                                     reverts the newest change
                                                                  not yet undone
EV_POWER (6)          ship, 0, 0                                  smb full-power move
EV_LAUNCH (7)         ship, 0, 0                                  fighter launched
====================  =========================================  ===========================

Dice values live in the events, so replaying a log needs no random source: the board and the
host mirror apply the same events with this same code and compare :meth:`Game.state_hash`.
A rejected action returns a reason (str) and changes nothing; it never enters the log.
Hot state is bytearrays and ints (RAM on the Pico is about 190 KB).

RAM holds a bounded window of the newest events (4 bytes each, plus the state hash after each)
on top of a base state; when the window fills, its oldest quarter is folded into the base.
Undo reaches back as far as the window; the whole log lives in the journal on flash
(journal.py) and on the host.
"""

EV_INIT = 1
EV_HIT = 2
EV_COUNTER = 3
EV_PHASE = 4
EV_UNDO = 5
EV_POWER = 6
EV_LAUNCH = 7
EV_AIM = 8        # ship, weapon (W_*), arg: inches (swsb-addon) or facing 0-2 (smb)
EV_ATTACK = 9     # attacker, d20 roll, target: the attack helper (profile decides the hit)
EV_TRANSFER = 10  # ship with Emperor's Will, points, allied fighter (swsb)
EV_MOVE = 11      # ship, mode (profile's), arg
EV_RESPONSE = 12  # responder, kind (1 countermove, 2 rapid fire; +4 mover ended behind), mover
EV_OVERLAP = 13   # mover, hits | crits << 4 (dice rolled), other ship (xwing-overlap)
EV_CHOOSE = 14    # side that moves first (swsb-addon: the initiative winner chooses)
EV_DONE = 15      # ship finished its activation (swsb-addon)
EV_EXIT = 16      # ship, 1 left by the far table edge / 2 hit the target port (victory)
EV_ION = 17       # target, d20 roll, facing: the planetary Ion Cannon (smb, Hoth)

EV_NAMES = ("", "initiative", "hit", "counter", "phase", "undo", "full-power", "launch", "aim",
            "attack", "transfer", "move", "response", "overlap", "choose", "done", "exit",
            "ion")

# weapons for EV_AIM
W_PRIMARY = 0
W_PD = 1
W_BROAD_L = 2
W_BROAD_R = 3
W_CAPITAL = 4
W_HEAVY = 5
W_RAPID = 6

# per-ship flag bits of Game.fl2
G_BROAD_L = 1     # broadside fired to the left this round
G_BROAD_R = 2     # and to the right
G_FULL_THROTTLE = 4   # squadrons-d6: flew (or its squadron flew) at Full Throttle this round
G_MOVED = 8       # moved this round / activation
G_ATTACK_SPEED_LAST = 16  # squadrons-d6: moved at Attack Speed last round
G_SKIP_ACTION = 32    # xwing-overlap: skips its Perform Action step this round
G_ION = 64        # smb: hit by the Ion Cannon: cannot move or fire next round
G_ION_NOW = 128   # smb: ionized this round
ROUND_FLAGS2 = G_BROAD_L | G_BROAD_R | G_FULL_THROTTLE | G_MOVED | G_SKIP_ACTION | G_ION_NOW

# ability bits of Game.ab, from roster stats
A_EMPERORS_WILL = 1
A_INFINITE = 2
A_CLOAK = 4
A_BROADSIDE = 8
A_HERO = 16
A_CAPITAL = 32    # a capital ship (smb type capital, squadrons-d6 capital)
A_FIGHTER = 64    # smb type fighter (snub weapons)
A_NO_SNUB = 128   # cannot be damaged by snub (fighter) weapons

NONE = 255

# per-ship flag bits (Game.fl)
F_LAUNCHED = 1
F_POWER = 2       # made a full-power move this round (smb)
F_FIRED = 4       # finished firing this round (one ship at a time)
F_LAUNCHED_ONE = 8  # as a carrier, launched a fighter this round
ROUND_FLAGS = F_POWER | F_FIRED | F_LAUNCHED_ONE

# per-ship capability bits (Game.cap), from roster stats
CAP_NO_PD = 1       # stats say pd 0
CAP_NO_CAPITAL = 2  # stats list weapons and none is a capital weapon

OK = 0
DAMAGED = 1
DESTROYED = 2
STATUS_NAMES = ("ok", "damaged", "destroyed")

_FNV_OFFSET = 0x811C9DC5


def fnv1a32(data, h=_FNV_OFFSET):
    """32-bit FNV-1a of ``data`` (bytes-like) continuing from ``h``; returns an int.

    Computed in 16-bit halves so every intermediate stays a small int on MicroPython (a
    32-bit multiply would allocate a long int per byte): the prime is 2**24 + 0x193.
    """
    hi = h >> 16
    lo = h & 0xFFFF
    for b in data:
        lo ^= b
        t = lo * 0x193
        hi = (hi * 0x193 + ((lo & 0xFF) << 8) + (t >> 16)) & 0xFFFF
        lo = t & 0xFFFF
    return (hi << 16) | lo


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


def roster_digest(roster, settings):
    """The 32-bit digest of a normalised roster and the game's settings that seeds every state
    hash, so a game of another roster never shows the same hash."""
    out = bytearray()
    _canon(roster, out)
    _canon(settings, out)
    return fnv1a32(out)


def _b(v):
    """A stat as a byte: ints 0..254 as they are, anything else 255 (not given)."""
    if isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 255:
        return v
    return 255


def dice_code(v):
    """WEG D6 dice code to whole dice, pips dropped: "4D+1" -> 4, "3D" -> 3, 4 -> 4
    (seed 002 "# of Turns": "rounding down the pips"). Anything else -> 255."""
    if isinstance(v, int) and not isinstance(v, bool):
        return v
    if isinstance(v, str):
        t = v.upper().split("D")[0].strip()
        if t.isdigit():
            return int(t)
    return 255


class Rejected(Exception):
    """Raised by :meth:`Game.replay` when a log holds an event the rules refuse."""


class Game:
    """A game of ``profile`` (a profiles.Profile) between the two sides of ``roster``
    (a dict already normalised by roster.validate).

    Attributes read by the renderer, protocol and tests: ``n`` ships; per ship ``side``,
    ``cls``, ``hp1`` (X), ``hp2`` (Y), ``dmg`` (applied damage), ``pend`` (marked, not yet
    applied), ``cc`` (command counters left), ``fl`` (F_* flags); ``round`` (from 1),
    ``phase`` (index into profile.phases), ``init`` (side holding initiative or NONE),
    ``prev_init``, ``rolls`` ((r0, r1) of the last initiative roll, 0 = none), ``active``
    (ship firing now, or NONE), ``chart`` (bytearray, side * n_options + option -> source
    ship or NONE); ``log`` (every event, in order) and ``eff`` (indices of the events in
    effect: not undo events and not undone).
    """

    def __init__(self, profile, roster, settings=None, window=256):
        self.profile = profile
        self.roster_name = roster["name"]
        given = dict(roster.get("settings") or {})
        if settings:
            given.update(settings)
        self.settings = profile.settings(given)
        names = []
        side = []
        cls = []
        hp1 = []
        hp2 = []
        cc0 = []
        fl0 = []
        carrier = []
        cap = []
        for si in range(2):
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
                st = s["stats"]
                k = 0
                if st.get("pd", 1) == 0:
                    k |= CAP_NO_PD
                w = st.get("weapons")
                if w is not None:
                    has = False
                    for wp in w:
                        if isinstance(wp, dict) and wp.get("kind") == "capital":
                            has = True
                    if not has:
                        k |= CAP_NO_CAPITAL
                cap.append(k)
        self.side_names = (roster["sides"][0]["name"], roster["sides"][1]["name"])
        all_ships = roster["sides"][0]["ships"] + roster["sides"][1]["ships"]
        self._prepare_stats(all_ships)
        self.extras = roster.get("extras") or {}
        self.victory = roster.get("victory") or []
        self.names = tuple(names)
        self.n = len(names)
        self.side = bytes(side)
        self.cls = bytes(cls)
        self.hp1 = bytes(hp1)
        self.hp2 = bytes(hp2)
        self.carrier = bytes(carrier)
        self.cap = bytes(cap)
        self._cc0 = bytes(cc0)
        self._fl0 = bytes(fl0)
        self.nopt = len(profile.options)
        self.dmg = bytearray(self.n)
        self.pend = bytearray(self.n)
        self.cc = bytearray(self.n)
        self.fl = bytearray(self.n)
        self.chart = bytearray(2 * self.nopt)
        self.fl2 = bytearray(self.n)   # G_* flags
        self.aux = bytearray(self.n)   # aim (weapon | arg << 3) or xwing touching partner + 1
        self.x = bytearray(8)          # profile state: see the profile's docs
        self.window = max(8, window)
        self._base = None         # state_bytes() at base_seq, or None for the initial state
        self.base_seq = 0
        self._w = bytearray()     # events after base_seq, 4 bytes each (b signed for EV_HIT)
        self.hlog = bytearray()   # 4 bytes per event in the window: the state hash after it
        self.eff = []             # window indices of the events in effect (the undo stack)
        self.rid = roster_digest(roster, self.settings)
        self._reset()

    def _prepare_stats(self, ships):
        """Compact per-ship stats from the rosters' ``stats`` (255 = not given)."""
        n = len(ships)
        self.defn = bytearray(3 * n)     # Defense by facing (front, side, rear)
        self.defn_d = bytearray(3 * n)   # damaged side (swsb), else the same
        self.atk = bytearray(n)          # primary attack bonus
        self.atk_d = bytearray(n)
        self.pdv = bytearray(n)          # point defense bonus (0 none)
        self.pdv_d = bytearray(n)
        self.speed = bytearray(n)
        self.ab = bytearray(n)
        self.wbonus = bytearray(3 * n)   # smb weapon bonus: capital, heavy, rapid (255 none)
        self.size = bytearray(n)         # xwing: 1 small, 2 large, 3 huge
        self.squad = bytearray(n)        # squadrons-d6: squadron number + 1 (0 none)
        self.d6 = bytearray(3 * n)       # squadrons-d6: space, piloting, maneuverability
        self.snub_def = bytearray(n)     # smb: defence bonus against snub (fighter) weapons
        self.fighter_attack = bytearray(n)   # smb: may make the fighter attack move
        self.rapid_at = bytearray(n)     # smb: rapid-fire response taken at ship + 1
        squads = []
        for i in range(n):
            st = ships[i]["stats"]
            d = st.get("defense", 255)
            if not isinstance(d, list):
                d = [d, d, d]
            dmg_side = st.get("damaged") or {}
            dd = dmg_side.get("defense", d)
            if not isinstance(dd, list):
                dd = [dd, dd, dd]
            for k in range(3):
                self.defn[3 * i + k] = _b(d[k])
                self.defn_d[3 * i + k] = _b(dd[k])
            self.atk[i] = _b(st.get("attack", 255))
            self.atk_d[i] = _b(dmg_side.get("attack", st.get("attack", 255)))
            self.pdv[i] = _b(st.get("pd", 255))
            self.pdv_d[i] = _b(dmg_side.get("pd", st.get("pd", 255)))
            self.speed[i] = _b(st.get("speed", 255))
            for k in range(3):
                self.wbonus[3 * i + k] = 255
            for w in st.get("weapons", ()):
                if isinstance(w, dict):
                    kind = w.get("kind")
                    for k in range(3):
                        if kind == ("capital", "heavy", "rapid")[k]:
                            self.wbonus[3 * i + k] = _b(w.get("bonus", 0))
            a = 0
            text = " ".join([str(x) for x in st.get("abilities", ())]).lower()
            if "emperor's will" in text:
                a |= A_EMPERORS_WILL
            if "infinite" in text:
                a |= A_INFINITE
            if "cloak" in text:
                a |= A_CLOAK
            if st.get("broadside"):
                a |= A_BROADSIDE
            if st.get("hero"):
                a |= A_HERO
            t = st.get("type")
            if t == "capital" or st.get("capital"):
                a |= A_CAPITAL
            if t == "fighter":
                a |= A_FIGHTER
            if "cannot be damaged by snub" in text:
                a |= A_NO_SNUB
            k = text.find("defence against snub")
            if k > 0:
                num = text[:k].split("+")[-1].strip()
                if num.isdigit():
                    self.snub_def[i] = int(num)
            if "fighter attack move" in text:
                self.fighter_attack[i] = 1
            self.ab[i] = a
            self.size[i] = {"small": 1, "large": 2, "huge": 3}.get(st.get("size"), 0)
            sq = st.get("squadron")
            if sq is not None:
                if sq not in squads:
                    squads.append(sq)
                self.squad[i] = squads.index(sq) + 1
            self.d6[3 * i] = _b(st.get("space", 255))
            self.d6[3 * i + 1] = _b(dice_code(st.get("piloting", 255)))
            self.d6[3 * i + 2] = _b(dice_code(st.get("maneuverability", 255)))

    def defense(self, i, facing=0):
        """Defense of ship i against an attack on ``facing`` (0 front, 1 side, 2 rear), from
        its damaged side once the card is flipped (digest 2.2); 255 when not given."""
        if self.status(i) == DAMAGED:
            return self.defn_d[3 * i + facing]
        return self.defn[3 * i + facing]

    def attack_bonus(self, i):
        return self.atk_d[i] if self.status(i) == DAMAGED else self.atk[i]

    def point_defense(self, i):
        """PD bonus now (damaged side when flipped); 0 = none, 255 = not given."""
        return self.pdv_d[i] if self.status(i) == DAMAGED else self.pdv[i]

    # ---- state -------------------------------------------------------------------------
    def _reset(self):
        self.round = 1
        self.phase = 0
        self.init = NONE
        self.prev_init = NONE
        self.rolls = (0, 0)
        self.roll_src = 0
        self.active = NONE
        n = self.n
        for i in range(n):
            self.dmg[i] = 0
            self.pend[i] = 0
            self.cc[i] = self._cc0[i]
            self.fl[i] = self._fl0[i]
        for i in range(len(self.chart)):
            self.chart[i] = NONE
        for i in range(n):
            self.fl2[i] = 0
            self.aux[i] = 0
            self.rapid_at[i] = 0
        for i in range(8):
            self.x[i] = 0

    @property
    def seq(self):
        """Sequence number of the newest event (0 before the first)."""
        return self.base_seq + len(self._w) // 4

    def event(self, seq):
        """Event ``seq`` (1-based) as a tuple; IndexError when it is older than the window."""
        i = seq - self.base_seq - 1
        if i < 0 or seq > self.seq:
            raise IndexError("event %d is not in RAM (window %d..%d)"
                             % (seq, self.base_seq + 1, self.seq))
        return self._ev(i)

    def _ev(self, i):
        w = self._w
        o = i * 4
        b = w[o + 2]
        if w[o] == EV_HIT and b >= 128:
            b -= 256
        return (w[o], w[o + 1], b, w[o + 3])

    @property
    def log(self):
        """The events in the RAM window, oldest first (a new list of tuples)."""
        return [self._ev(i) for i in range(len(self._w) // 4)]

    def load_state(self, data):
        """Set the state from ``data`` (bytes made by :meth:`state_bytes` for this roster).
        Raises ValueError when the length or ship count does not match."""
        n = self.n
        k = self.nopt
        if len(data) != 20 + 7 * n + 2 * k or data[11] != n:
            raise ValueError("state does not fit this game")
        self.round = data[0] | (data[1] << 8) | (data[2] << 16) | (data[3] << 24)
        self.phase = data[4]
        self.init = data[5]
        self.prev_init = data[6]
        self.rolls = (data[7], data[8])
        self.roll_src = data[9]
        self.active = data[10]
        o = 12
        for arr in (self.dmg, self.pend, self.cc, self.fl):
            for i in range(n):
                arr[i] = data[o + i]
            o += n
        for i in range(2 * k):
            self.chart[i] = data[o + i]
        o += 2 * k
        for arr in (self.fl2, self.aux, self.rapid_at):
            for i in range(n):
                arr[i] = data[o + i]
            o += n
        for i in range(8):
            self.x[i] = data[o + i]

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
        return bool(self.fl[i] & F_LAUNCHED) and not self.destroyed(i)

    def moves_first(self):
        """Side that moves first this round, or NONE before initiative is decided."""
        if self.init == NONE:
            return NONE
        if self.profile.move_order == 0:  # MOVE_LOSER_FIRST
            return 1 - self.init
        return self.init

    def phase_name(self):
        return self.profile.phases[self.phase]

    def state_bytes(self):
        """Canonical bytes of the state (what the hash covers; not the log)."""
        head = bytearray(12)
        r = self.round                  # 32 bits: a long game never wraps it
        head[0] = r & 255
        head[1] = (r >> 8) & 255
        head[2] = (r >> 16) & 255
        head[3] = (r >> 24) & 255
        head[4] = self.phase
        head[5] = self.init
        head[6] = self.prev_init
        head[7] = self.rolls[0]
        head[8] = self.rolls[1]
        head[9] = self.roll_src
        head[10] = self.active
        head[11] = self.n
        return bytes(head) + bytes(self.dmg) + bytes(self.pend) + bytes(self.cc) + \
            bytes(self.fl) + bytes(self.chart) + bytes(self.fl2) + bytes(self.aux) + \
            bytes(self.rapid_at) + bytes(self.x)

    def state_hash(self):
        """The state's 32-bit FNV-1a, seeded with the roster's digest, as 8 lowercase hex digits
        (same on MicroPython and CPython): a different roster never gives the same hash."""
        return "%08x" % fnv1a32(self.state_bytes(), self.rid)

    def winner(self):
        """Side that has won by the roster's victory conditions, or None (seed 004 Hoth)."""
        for v in self.victory:
            if not isinstance(v, dict):
                continue
            ship = v.get("ship")
            idx = -1
            if ship is not None:
                for i in range(self.n):
                    if self.names[i] == ship:
                        idx = i
            w = v.get("when")
            if w == "destroyed" and idx >= 0 and self.destroyed(idx):
                return v.get("side")
            if w == "exited" and idx >= 0 and self.x[7] == idx + 1:
                return v.get("side")
            if w == "port" and self.x[6]:
                return v.get("side")
        return None

    def event_hash(self, seq):
        """The state hash (8 hex digits) right after event ``seq`` (1-based); IndexError when it
        is not in the RAM window."""
        if not self.base_seq < seq <= self.seq:
            raise IndexError("no event %d in RAM" % seq)
        i = (seq - self.base_seq - 1) * 4
        h = self.hlog
        return "%08x" % (h[i] | (h[i + 1] << 8) | (h[i + 2] << 16) | (h[i + 3] << 24))

    # ---- rules -------------------------------------------------------------------------
    def _ship(self, i):
        if not isinstance(i, int) or i < 0 or i >= self.n:
            return "no ship %r" % (i,)
        return None

    def check(self, ev):
        """Return None if event ``ev`` is allowed now, else the reason (str). Changes nothing."""
        try:
            kind, a, b, c = ev
        except (TypeError, ValueError):
            return "an event is 4 integers"
        for v in ev:
            if not isinstance(v, int) or isinstance(v, bool):
                return "an event is 4 integers"
        if not (0 <= a <= 255 and -127 <= b <= 255 and 0 <= c <= 255):
            return "event values out of range"
        p = self.profile
        ph = p.phases[self.phase]
        if kind == EV_INIT:
            if p.phases[0] != "initiative":
                return "%s has no initiative roll" % p.name
            if self.phase != 0:
                return "initiative is rolled in the initiative phase (now %s)" % ph
            if self.init != NONE:
                return "initiative is already decided this round"
            if not (1 <= a <= 20 and 1 <= b <= 20):
                return "a d20 shows 1..20"
            if c not in (0, 1):
                return "roll source is 0 (board) or 1 (physical dice)"
            return None
        if kind == EV_HIT:
            r = self._ship(a)
            if r:
                return r
            nm = self.names[a]
            if b == 0:
                return "zero damage"
            if b > 99 or b < -99:
                return "damage is -99..99 points"
            if self.phase not in p.hit_phases:
                return "damage is not marked in the %s phase" % ph
            if not self.fl[a] & F_LAUNCHED:
                return "%s has not launched" % nm
            total = self.hp1[a] + self.hp2[a]
            pending = self.phase in p.pending_phases
            if b > 0:
                if self.dmg[a] >= total:
                    return "%s is destroyed" % nm
                if self.dmg[a] + self.pend[a] >= total:
                    return "%s already has lethal damage marked" % nm
            else:
                if not pending or self.pend[a] == 0:
                    return "no pending damage on %s to remove (use undo)" % nm
            r = p.check_hit(self, a, b, c)
            if r:
                return r
            if c != NONE:
                r = self._ship(c)
                if r:
                    return r
                an = self.names[c]
                if self.side[c] == self.side[a]:
                    return "%s cannot attack its own side" % an
                if self.dmg[c] >= self.hp1[c] + self.hp2[c]:
                    return "%s is destroyed and cannot attack" % an
                if not self.fl[c] & F_LAUNCHED:
                    return "%s has not launched" % an
                if b > 0:
                    if self.phase == p.pd_phase and (self.cap[c] & CAP_NO_PD or
                                                      self.point_defense(c) == 0):
                        return "%s has no point defense" % an
                    if self.phase == p.one_ship_at_a_time and self.fl[c] & F_FIRED \
                            and self.active != c:
                        return "%s has already fired this round" % an
                    if self.phase == p.capital_phase:
                        if self.fl[c] & F_POWER:
                            return "%s made a full-power move and cannot fire capital weapons" % an
                        if self.cap[c] & CAP_NO_CAPITAL:
                            return "%s has no capital weapons" % an
            return None
        if kind == EV_COUNTER:
            if not self.nopt:
                return "%s has no fleet command chart" % p.name
            r = self._ship(a) or self._ship(c)
            if r:
                return r
            if not 0 <= b < self.nopt:
                return "no fleet command option %d" % b
            if self.phase not in p.counter_phases:
                return "fleet command counters are not played in the %s phase" % ph
            opt = p.options[b]
            s = self.side[a]
            if self.side[c] != s:
                return "a counter is played for a ship of its own side"
            if self.destroyed(a):
                return "%s is destroyed: its counters are lost" % self.names[a]
            if self.cc[a] == 0:
                return "%s has no command counters left" % self.names[a]
            if self.chart[s * self.nopt + b] != NONE:
                return "%s already holds a counter this round" % opt.name
            if self.destroyed(c):
                return "%s is destroyed" % self.names[c]
            if opt.classes and self.cls[c] not in opt.classes:
                return "%s is for class %s ships only" % (
                    opt.name, "/".join([str(x) for x in opt.classes]))
            if opt.effect == 1 and self.pend[c] == 0:  # EFFECT_AVOID
                return "%s: no hit on %s to avoid" % (opt.name, self.names[c])
            return None
        if kind == EV_PHASE:
            if self.phase == 0 and self.init == NONE and p.phases[0] == "initiative":
                if self.rolls[0] and self.rolls[0] == self.rolls[1]:
                    return "initiative is tied: roll again"
                return "roll initiative first"
            return None
        if kind == EV_UNDO:
            if not self.eff:
                if self.base_seq:
                    return "nothing to undo within the last %d events" % self.window
                return "nothing to undo"
            return None
        if kind == EV_POWER:
            if p.capital_phase < 0:
                return "%s has no full-power move" % p.name
            r = self._ship(a)
            if r:
                return r
            if self.fl[a] & F_POWER:
                return "%s already made a full-power move" % self.names[a]
            return p.check_ext(self, EV_MOVE, a, 2, 0)   # a full-power move is a move
        if kind == EV_LAUNCH:
            r = self._ship(a)
            if r:
                return r
            if self.phase == 0:
                return "fighters launch after initiative"
            if self.fl[a] & F_LAUNCHED:
                return "%s is already launched" % self.names[a]
            k = self.carrier[a]
            if k != NONE:
                if self.destroyed(k):
                    return "its carrier %s is destroyed" % self.names[k]
                if self.fl[k] & F_LAUNCHED_ONE:
                    return "%s has already launched a fighter this round" % self.names[k]
            return None
        if kind >= EV_AIM:
            return p.check_ext(self, kind, a, b, c)
        return "unknown event kind %d" % kind

    def _apply(self, kind, a, b, c):
        p = self.profile
        if kind == EV_INIT:
            self.rolls = (a, b)
            self.roll_src = c
            if a > b:
                self.init = 0
            elif b > a:
                self.init = 1
            elif p.tie == 1 and self.prev_init != NONE:  # TIE_KEEP
                self.init = self.prev_init
            elif p.tie == 1 and not self.settings.get("first_tie_reroll", 1):
                self.init = 0
            # else: a tie with no holder to keep: roll again
        elif kind == EV_HIT:
            if b > 0:
                self.mark(a, b, c)
            elif self.phase in p.pending_phases:
                self.pend[a] = max(self.pend[a] + b, 0)
        elif kind == EV_COUNTER:
            s = self.side[a]
            self.cc[a] -= 1
            self.chart[s * self.nopt + b] = a
            if p.options[b].effect == 1:
                self.pend[c] = max(self.pend[c] - self.settings["damage_per_hit"], 0)
        elif kind == EV_PHASE:
            if self.phase == p.flush_phase:
                self.flush()
            if self.phase == p.one_ship_at_a_time:
                self.active = NONE
            if self.phase + 1 >= len(p.phases):
                # end of round: clear the chart (counters are spent), per-round flags
                for i in range(len(self.chart)):
                    self.chart[i] = NONE
                for i in range(self.n):
                    self.fl[i] &= ~ROUND_FLAGS & 255
                p.end_round(self)
                self.round += 1
                self.phase = 0
                self.prev_init = self.init
                self.init = NONE
                self.active = NONE
            else:
                self.phase += 1
            p.start_phase(self)
        elif kind == EV_POWER:
            p.apply_ext(self, EV_MOVE, a, 2, 0)
        elif kind == EV_LAUNCH:
            self.fl[a] |= F_LAUNCHED
            k = self.carrier[a]
            if k != NONE:
                self.fl[k] |= F_LAUNCHED_ONE
        else:
            p.apply_ext(self, kind, a, b, c)

    def mark(self, target, points, attacker):
        """Mark ``points`` of damage on ``target`` as EV_HIT does (pending in the profile's
        pending phases, else at once); ``attacker`` (or NONE) becomes the ship firing now."""
        p = self.profile
        total = self.hp1[target] + self.hp2[target]
        if self.phase in p.pending_phases:
            self.pend[target] = min(self.pend[target] + points, total - self.dmg[target])
        else:
            self.dmg[target] = min(self.dmg[target] + points, total)
            p.on_damage(self, target)
        if attacker != NONE and self.phase == p.one_ship_at_a_time:
            if self.active != NONE and self.active != attacker:
                self.fl[self.active] |= F_FIRED
            self.active = attacker

    def flush(self):
        """Apply all pending damage now (the Damage phase; digest 1.2)."""
        p = self.profile
        for i in range(self.n):
            if self.pend[i]:
                t = self.hp1[i] + self.hp2[i]
                self.dmg[i] = min(self.dmg[i] + self.pend[i], t)
                self.pend[i] = 0
                p.on_damage(self, i)

    def set_window(self, base_seq, base, events, hashes, eff):
        """Take a saved RAM window (see journal.py and the ``state`` message): ``base`` state
        bytes (or None) at ``base_seq``, ``events`` (4 bytes each), ``hashes`` (4 bytes each),
        ``eff`` (window indices in effect). The undo stack is taken as it was, so an undo
        saved in the window never reverts the wrong event. Raises ValueError when they do not
        fit together."""
        n = len(events) // 4
        if len(events) != 4 * n or len(hashes) != 4 * n:
            raise ValueError("window events and hashes differ in length")
        for i in eff:
            if not 0 <= i < n:
                raise ValueError("undo stack points outside the window")
        self._base = None if base is None else bytes(base)
        self.base_seq = base_seq
        self._w = bytearray(events)
        self.hlog = bytearray(hashes)
        self.eff = list(eff)
        self._rebuild()

    def _apply_at(self, i):
        # as self._apply(*self._ev(i)), without a tuple per event: rebuilds replay the window
        w = self._w
        o = i * 4
        b = w[o + 2]
        if w[o] == EV_HIT and b >= 128:
            b -= 256
        self._apply(w[o], w[o + 1], b, w[o + 3])

    def _rebuild(self):
        if self._base is None:
            self._reset()
        else:
            self.load_state(self._base)
        for i in self.eff:
            self._apply_at(i)

    def _fold(self):
        """Fold the oldest quarter of the window into the base state (bounded RAM)."""
        k = self.window // 4
        if self._base is None:
            self._reset()
        else:
            self.load_state(self._base)
        keep = []
        for i in self.eff:
            if i < k:
                self._apply_at(i)
            else:
                keep.append(i - k)
        self._base = self.state_bytes()
        self.base_seq += k
        self._w = self._w[4 * k:]
        self.hlog = self.hlog[4 * k:]
        self.eff = keep
        self._rebuild()

    def submit(self, ev):
        """Check event ``ev`` (tuple of 4 ints), append it to the log and apply it.

        Returns None on success or the reason it was refused (str); a refused event changes
        nothing. EV_UNDO reverts the newest event in effect and stays in the log itself.
        """
        if len(self._w) // 4 >= self.window:
            self._fold()   # before the check: an undo must see the undo stack that is left
        r = self.check(ev)
        if r:
            return r
        kind, a, b, c = ev
        w = self._w
        w.append(kind)
        w.append(a)
        w.append(b & 255)
        w.append(c)
        if kind == EV_UNDO:
            self.eff.pop()
            self._rebuild()
        else:
            self.eff.append(len(w) // 4 - 1)
            self._apply(kind, a, b, c)
        h = fnv1a32(self.state_bytes(), self.rid)
        self.hlog.append(h & 255)
        self.hlog.append((h >> 8) & 255)
        self.hlog.append((h >> 16) & 255)
        self.hlog.append(h >> 24)
        return None

    def replay(self, events):
        """Submit each event of ``events`` in order; raises Rejected(seq, reason) on a refusal."""
        for ev in events:
            r = self.submit(tuple(ev))
            if r:
                raise Rejected("event %d %r refused: %s" % (self.seq + 1, ev, r))

    # ---- views -------------------------------------------------------------------------
    def ship_dict(self, i):
        return {"i": i, "name": self.names[i], "side": self.side[i], "class": self.cls[i],
                "hp": [self.hp1[i], self.hp2[i]], "damage": self.dmg[i], "pending": self.pend[i],
                "counters": self.cc[i], "launched": bool(self.fl[i] & F_LAUNCHED),
                "full_power": bool(self.fl[i] & F_POWER), "fired": bool(self.fl[i] & F_FIRED),
                "status": STATUS_NAMES[self.status(i)]}

    def chart_list(self):
        """Per side, a list of [option name, source ship index or None]."""
        out = []
        for s in range(2):
            row = []
            for k in range(self.nopt):
                v = self.chart[s * self.nopt + k]
                row.append([self.profile.options[k].name, None if v == NONE else v])
            out.append(row)
        return out

    def snapshot(self):
        """The derived state as a JSON-ready dict (includes ``state_hash`` and ``seq``)."""
        init = None if self.init == NONE else self.init
        mf = self.moves_first()
        return {"ruleset": self.profile.name, "scenario": self.roster_name,
                "sides": list(self.side_names), "seq": self.seq, "round": self.round,
                "phase": self.phase_name(), "initiative": init,
                "moves_first": None if mf == NONE else mf,
                "rolls": list(self.rolls), "roll_source": ("board", "physical")[self.roll_src],
                "active": None if self.active == NONE else self.active,
                "ships": [self.ship_dict(i) for i in range(self.n)],
                "chart": self.chart_list(), "settings": self.settings,
                "winner": self.winner(), "profile": self.profile.view(self),
                "state_hash": self.state_hash()}
