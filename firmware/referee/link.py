"""The serial link of the referee: host commands in, ``ev``/``state``/``err`` lines out
(docs/protocol.md). Core commands are here; a ruleset's own commands (its ``COMMANDS``) are
built into events by the ruleset. A mixin of app.Referee."""

from referee import PROTO_VERSION, protocol, rules, scenarios
from referee.appbase import AppBase
from referee.events import EV_INIT, EV_HIT, EV_COUNTER, EV_PHASE, EV_UNDO, EV_LAUNCH, NONE
from referee.dice import fair_of, stir

BATCH = 16      # events of one ``append`` line written in one journal commit, at most
LOAD_FIELDS = ("c", "scenario", "roster", "ruleset", "settings")


def _hex(data):
    return "".join(["%02x" % x for x in data])


def is_int(v, lo, hi):
    """True when ``v`` is an int (not a bool) in lo..hi: a protocol field's number."""
    return isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi


class SerialLink(AppBase):
    # ---- argument helpers (rulesets use these to build their commands' events) ----------
    def ship_arg(self, msg, key="ship"):
        """The ship index named by ``msg[key]`` (an index or the exact name). ValueError."""
        v = msg.get(key)
        g = self._g()
        if isinstance(v, str):
            i = g.index(v)
            if i < 0:
                raise ValueError("no ship named %r" % v)
            return i
        if not is_int(v, 0, g.n - 1):
            raise ValueError("%r must be a ship index 0..%d or name" % (key, g.n - 1))
        return v

    def int_arg(self, msg, key, default, lo, hi):
        # type: (dict, str, object, int, int) -> int
        """``msg[key]`` (or ``default``; None: the field is required) as an int in lo..hi.
        ValueError naming the field."""
        v = msg.get(key, default)
        if v is None and key not in msg:
            raise ValueError("%r needs %r (an integer %d..%d)" % (msg.get("c"), key, lo, hi))
        if v is None or not is_int(v, lo, hi):
            raise ValueError("%r must be an integer %d..%d" % (key, lo, hi))
        return v

    def roll_arg(self, msg):
        """``msg["roll"]`` (a physical d20) or, when absent, the board's d20."""
        if msg.get("roll") is None:
            return self.dice.d20()
        v = self.int_arg(msg, "roll", 0, 1, 20)
        f = fair_of(self)
        if f is not None:               # marked physical in its roll record (docs/dice.md)
            f.physical(20, v)
        return v

    # ---- output ------------------------------------------------------------------------
    def send_state(self):
        """The ``state`` message: base state, RAM window with its hashes and the undo stack
        (hex), for a host that fell behind further than the events still held."""
        g = self._g()
        base_seq, base, events, hashes, eff = g.get_window()
        hexs = "null" if base is None else '"%s"' % _hex(base)
        self.send('{"t": "state", "gid": "%s", "base_seq": %d, "base": %s, "window": "%s", '
                  '"hashes": "%s", "eff": [%s], "seq": %d, "hash": "%s"}'
                  % (self.gid, base_seq, hexs, _hex(events), _hex(hashes),
                     ", ".join([str(i) for i in eff]), g.seq, g.state_hash()))

    def send_event(self, seq):
        """The compact ``ev`` line of event ``seq`` (held in RAM) with its state hash."""
        g = self._g()
        self.send(protocol.ev_line(seq, g.event(seq), g.event_hash(seq)))
        f = fair_of(self)
        if f is not None:               # its roll record, if a roll went into it (dice.py)
            f.on_event(self, seq)

    # ---- commands ----------------------------------------------------------------------
    def handle_line(self, line):
        """Handle one host line (str). Never raises: bad input gets an ``err`` line back and
        changes nothing."""
        try:
            msg = protocol.decode(line)
        except protocol.ProtocolError as e:
            self.error(str(e), "serial")
            return
        c = msg["c"]
        self.commit()       # a key's held events: on flash and announced before any answer
        stir(self)                      # command timing feeds the dice entropy (dice.py)
        before = self._where()
        try:
            self._command(c, msg)
        except ValueError as e:
            self.error(str(e), "serial", c)
        except KeyError as e:
            self.error("%r needs the field %s" % (c, e), "serial", c)
        except (TypeError, IndexError) as e:
            self.error("bad arguments for %r: %s" % (c, e), "serial", c)
        except OSError as e:
            self.error("%r failed on the board's flash: %s" % (c, e), "serial", c)
        except MemoryError:
            import gc
            gc.collect()
            now = self._where()
            self.error("not enough memory on the board for %r: %s (a firmware image with "
                       "fleetref frozen in leaves the heap to the game: docs/build.md)"
                       % (c, "nothing changed" if now == before else
                          "stopped partway, the game is at seq %d" % now[1]), "serial", c)
        except Exception as e:      # never a traceback on the wire (Ctrl-C is not an Exception)
            self.error("internal error: %s: %s" % (type(e).__name__, e), "serial", c)

    def _where(self):
        # (game id, seq): what a command that failed partway may have moved
        g = self.game
        return (self.gid, g.seq if g is not None else -1)

    def _command(self, c, msg):  # noqa: PLR0911 (dispatch)
        g = self.game
        if c == "hello":
            hp = msg.get("proto", PROTO_VERSION)
            if hp != PROTO_VERSION:
                self._out({"t": "err", "src": "serial", "c": c, "code": "proto",
                           "msg": "host speaks protocol %r, this board speaks %d: update the %s"
                                  % (hp, PROTO_VERSION, "firmware (fleetref flash)"
                                     if isinstance(hp, int) and hp > PROTO_VERSION
                                     else "host tools")})
            return self.hello()
        if c == "mem":
            from referee import runtime
            return self._out(runtime.heap())
        if c == "load":
            return self._load(msg)
        if c == "scenarios":
            return self._out({"t": "scenarios", "names": scenarios.list_names(self.scenario_dir)})
        if c == "roster-put":               # fleetref roster push (referee/rosterstore.py)
            from referee import rosterstore
            return rosterstore.command(self, msg)
        if g is None:
            raise ValueError("no game loaded")
        if c == "game":
            return self.send_game()
        if c == "snap":
            snap = g.snapshot()
            snap["t"] = "snap"
            snap["gid"] = self.gid
            if g.clk:                       # the board's clocks now: paused, live (clock.py)
                from referee.clock import live_view
                snap["clock"] = live_view(self)
            return self._out(snap)
        if c == "events":
            return self._events(g, self.int_arg(msg, "since", 0, 0, 1 << 30))
        if c == "state":
            return self.send_state()
        if c == "base":
            return self._base(g, msg)
        if c == "append":
            evs = msg.get("events")
            if not isinstance(evs, list) or len(evs) > 200:
                raise ValueError("events must be a list of at most 200 events")
            # the line's events are held and written BATCH to a journal commit (littlefs
            # pads every commit to 256 bytes; docs/performance.md), each announced once its
            # record is on flash; a refused one stops the line after those before it
            self.batching = True
            try:
                done = self._append_events(evs, c)
            finally:
                self.batching = False
                if self.unsent:         # (an exception: the events before it go out first)
                    self.commit("serial", c)
            if done:
                self._out({"t": "ok", "c": c, "seq": g.seq, "hash": g.state_hash()})
            return
        if c == "roll":
            vals = msg.get("values")
            if vals is None:
                return self.roll_initiative("serial", c)
            if not isinstance(vals, list) or len(vals) != 2:
                raise ValueError("values must be [side 0 roll, side 1 roll]")
            for v in vals:
                if not is_int(v, 1, 20):
                    raise ValueError("values must be two d20 rolls, each 1..20")
            return self.submit((EV_INIT, vals[0], vals[1], 1), "serial", c)
        if c == "hit":
            ship = self.ship_arg(msg)
            n = self.int_arg(msg, "n", g.settings["damage_per_hit"], -99, 99)
            by = self.ship_arg(msg, "by") if msg.get("by") is not None else NONE
            return self.submit((EV_HIT, ship, n, by), "serial", c)
        if c == "counter":
            ship = self.ship_arg(msg)
            opt = msg.get("option")
            if isinstance(opt, str):
                names = [o.name for o in g.profile.options]
                if opt not in names:
                    raise ValueError("no option %r (options: %s)" % (opt, ", ".join(names)))
                opt = names.index(opt)
            n = len(g.profile.options)
            if not is_int(opt, 0, max(n, 1) - 1):
                raise ValueError("option must be an option's number 0..%d or its name"
                                 % (max(n, 1) - 1))
            for_ = self.ship_arg(msg, "for") if msg.get("for") is not None else ship
            return self.submit((EV_COUNTER, ship, opt, for_), "serial", c)
        if c == "launch":
            return self.submit((EV_LAUNCH, self.ship_arg(msg), 0, 0), "serial", c)
        if c == "phase":
            return self.submit((EV_PHASE, 0, 0, 0), "serial", c)
        if c == "undo":
            return self.submit((EV_UNDO, 0, 0, 0), "serial", c)
        if c == "clock":                            # pause / resume (referee/clock.py)
            if not g.clk:
                raise ValueError("this game has no clocks (setting clock_s)")
            want = msg.get("paused")
            if want is not None and not isinstance(want, bool):
                raise ValueError("paused must be true (pause) or false (resume)")
            from referee.clock import clock_of
            ck = clock_of(self)
            ck.pause(self, want)
            return self._out({"t": "ok", "c": c, "paused": ck.paused, "seq": g.seq})
        if c == "reveal" or c == "dice":            # verifiable rolls (dice.py, docs/dice.md)
            f = fair_of(self)
            if f is None:
                raise ValueError("this board's dice are not committed (seeded test dice)")
            return f.reveal(self) if c == "reveal" else f.resend(self)
        if c in g.profile.COMMANDS:
            return self.submit(g.profile.command(self, c, msg), "serial", c)
        if c == "key":
            from referee.pad import ACTIONS
            k = msg.get("key")
            if k is None:
                raise ValueError("key needs 'key': one of the pad's actions (%s) or sel:<n>"
                                 % " ".join(ACTIONS))
            if k not in ACTIONS and not (isinstance(k, str) and k[:4] == "sel:"
                                         and k[4:].isdigit()):
                raise ValueError("key must be one of the pad's actions (%s) or sel:<n>, not %r"
                                 % (" ".join(ACTIONS), k))
            self.key(k)
            return
        raise ValueError("unknown command %r (%s has none of that name)" % (c, g.profile.name))

    def _append_events(self, evs, c):
        # True when every event of the line was applied, written and announced
        for ev in evs:
            if not isinstance(ev, list) or len(ev) != 4:
                raise ValueError("an event is [kind, a, b, c]")
            if self.submit(tuple(ev), "serial", c):
                return False            # (submit committed the events before it)
            n = len(self.unsent)
            if n >= BATCH and self.commit("serial", c) != n:
                return False            # not written: taken back, and said so
        n = len(self.unsent)
        return not n or self.commit("serial", c) == n

    def _load(self, msg):
        import gc
        gc.collect()          # a 2x24-ship roster needs blocks of a few KB on the Pico's heap
        rs = msg.get("ruleset")
        if rs is not None and not isinstance(rs, str):
            raise ValueError("ruleset must be a name")
        before = self._where()
        try:
            self._load_once(msg, rs)
        except MemoryError:
            # a new game (roster, ships, journal files) on a fragmented heap: what the failed
            # try built is garbage only now (it was live while it ran, so the collection
            # MicroPython made before failing kept it): collect it and try once more, when
            # nothing changed (the game in play stays: all or nothing)
            gc.collect()
            if self._where() != before:
                raise
            self._load_once(msg, rs)

    def _load_once(self, msg, rs):
        for k in msg:                   # a misspelt field is said, never ignored
            if k not in LOAD_FIELDS:
                raise ValueError("load takes scenario, roster, ruleset and settings, not %r"
                                 % k)
        st = msg.get("settings")        # over the roster's own (scenarios.with_settings)
        if "roster" in msg:
            r = msg["roster"]
            if not isinstance(r, dict):
                raise ValueError("roster must be an object")
            self.load_raw(r, rs, msg.get("scenario") or "", st)
        elif "scenario" in msg:
            name = msg["scenario"]
            if not isinstance(name, str):
                raise ValueError("scenario must be a name")
            self._load_named(name, rs, st)
        elif rs is not None:
            self._load_named(rules.get(rs).example, None, st)
        else:
            raise ValueError("load needs scenario, roster or ruleset")

    def _load_named(self, name, rs, st):
        if st is None:
            return self.load_scenario(name, rs)
        return self.load_scenario(name, rs, st)

    def _events(self, g, since):
        """``ev`` lines for the events after ``since``, at most protocol.EVENTS_BATCH of them
        (the host asks again from the newest it holds), then ``events-end`` with the game's
        newest seq."""
        if since > g.seq:
            raise ValueError("since %d is past the newest event %d" % (since, g.seq))
        left = protocol.EVENTS_BATCH
        if since < g.base_seq:
            first = True
            if self.journal is not None:
                for seq, ev in self.journal.events(since):   # streamed from flash
                    if first and seq != since + 1:
                        break
                    first = False
                    if seq > g.base_seq or left <= 0:
                        break
                    self.send(protocol.ev_line(seq, ev, ""))
                    since = seq
                    left -= 1
            if first:
                self._out({"t": "err", "src": "serial", "c": "events", "code": "gone",
                           "msg": "events %d..%d are no longer held: ask for state"
                                  % (since + 1, g.base_seq)})
                return
            if since < g.base_seq:           # a batch's worth sent from flash
                left = 0
        for s in range(since + 1, min(g.seq, since + left) + 1):
            self.send_event(s)
        self._out({"t": "events-end", "gid": self.gid, "seq": g.seq})

    def _base(self, g, msg):
        # restoring a saved game: its state at base_seq, right after its roster was loaded
        if g.seq != 0:
            raise ValueError("base is set only on a freshly loaded game (seq 0)")
        import binascii
        seq = self.int_arg(msg, "base_seq", 0, 0, 1 << 30)
        base = msg.get("base")
        if not isinstance(base, str):
            raise ValueError("base must be hex text")
        try:
            data = binascii.unhexlify(base)
        except (ValueError, TypeError):       # binascii.Error is a ValueError
            raise ValueError("base must be hex text")
        r = g.check_state(data)               # validated before anything changes
        rnd = data[0] | data[1] << 8 | data[2] << 16 | data[3] << 24 if len(data) > 3 else 0
        if not r and rnd > seq + 1:
            r = "round %d cannot be reached in %d events" % (rnd, seq)
        if r:
            raise ValueError(r)
        old = g.get_window()
        g.set_window(seq, data, b"", b"", [])
        if self.journal is not None:
            try:
                self.journal.set_base(g)
            except OSError:
                g.set_window(*old)            # all or nothing
                raise
        self.version += 1
        self._out({"t": "ok", "c": "base", "seq": g.seq, "hash": g.state_hash()})

