"""The serial link of the referee: host commands in, ``ev``/``state``/``err`` lines out
(docs/protocol.md). :class:`SerialLink` is the referee's ``link`` (app.Referee builds it).
The core's commands are :data:`COMMANDS`, run by the handlers named in :data:`HANDLERS` (those
of a host that follows or restores a game in link_sync.py, imported only when one is asked);
an extension's (``clock``, ``reveal``, ``dice``) go to its ``command`` (referee/extensions.py);
a ruleset's own commands (its ``COMMANDS``) are built into events by the ruleset."""

from referee import FW_VERSION, PROTO_VERSION, extensions, protocol, rules
from referee.events import EV_INIT, EV_HIT, EV_COUNTER, EV_PHASE, EV_UNDO, EV_LAUNCH, NONE

BATCH = 16  # events of one ``append`` line written in one journal commit, at most
LOAD_FIELDS = ("c", "scenario", "roster", "ruleset", "settings")
# the core's commands and the SerialLink method (game or None, command, message) that runs
# each, at the same index: constant names (in flash), looked up once known to be here
COMMANDS = (
    "hello",
    "mem",
    "load",
    "scenarios",
    "roster-put",
    "wifi-set",
    "wifi",
    "game",
    "snap",
    "events",
    "state",
    "base",
    "append",
    "roll",
    "hit",
    "counter",
    "launch",
    "phase",
    "undo",
    "key",
)
HANDLERS = (
    "_hello",
    "_mem",
    "_load",
    "_scenarios",
    "_stored",
    "_stored",
    "_stored",
    "_game",
    "_snap",
    "_sync",
    "_sync",
    "_sync",
    "_append",
    "_roll",
    "_hit",
    "_counter",
    "_launch",
    "_step",
    "_step",
    "_key",
)
NO_GAME_NEEDED = 7  # COMMANDS before this index answer while no game is loaded


def is_int(v, lo, hi):
    """True when ``v`` is an int (not a bool) in lo..hi: a protocol field's number."""
    return isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi


class SerialLink:
    """The serial protocol for ``referee`` (an app.Referee): :meth:`handle_line` takes a
    host's line, the answers leave through the referee's ``send``."""

    def __init__(self, referee):
        self.referee = referee

    # ---- argument helpers (rulesets use these to build their commands' events) ----------
    def ship_arg(self, msg, key="ship"):
        """The ship index named by ``msg[key]`` (an index or the exact name). ValueError."""
        v = msg.get(key)
        g = self.referee._g()
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
            return self.referee.dice.d20()
        v = self.int_arg(msg, "roll", 0, 1, 20)
        for x in self.referee.board_extensions:  # marked physical in its roll record
            x.physical(self.referee, 20, v)
        return v

    # ---- commands ----------------------------------------------------------------------
    def handle_line(self, line):
        """Handle one host line (str). Never raises: bad input gets an ``err`` line back and
        changes nothing."""
        ref = self.referee
        try:
            msg = protocol.decode(line)
        except protocol.ProtocolError as e:
            ref.error(str(e), "serial")
            return
        c = msg["c"]
        ref.flush()  # a key's held events: on flash and announced before any answer
        for x in ref.board_extensions:  # command timing feeds the dice entropy (dice.py)
            x.stir(ref)
        before = self._where()
        try:
            self._command(c, msg)
        except ValueError as e:
            ref.error(str(e), "serial", c)
        except KeyError as e:
            ref.error("%r needs the field %s" % (c, e), "serial", c)
        except (TypeError, IndexError) as e:
            ref.error("bad arguments for %r: %s" % (c, e), "serial", c)
        except OSError as e:
            ref.error("%r failed on the board's flash: %s" % (c, e), "serial", c)
        except MemoryError:
            import gc

            gc.collect()
            now = self._where()
            ref.error(
                "not enough memory on the board for %r: %s (a firmware image with "
                "fleetref frozen in leaves the heap to the game: docs/build.md)"
                % (
                    c,
                    "nothing changed"
                    if now == before
                    else "stopped partway, the game is at seq %d" % now[1],
                ),
                "serial",
                c,
            )
        except Exception as e:  # never a traceback on the wire (Ctrl-C is not an Exception)
            ref.error("internal error: %s: %s" % (type(e).__name__, e), "serial", c)

    def _where(self):
        # (game id, seq): what a command that failed partway may have moved
        ref = self.referee
        g = ref.game
        return (ref.gid, g.seq if g is not None else -1)

    def _command(self, c, msg):
        # the core's command of that name (COMMANDS: looked up only once known), else the
        # ruleset's own (its COMMANDS, built into an event by its ``command``)
        ref = self.referee
        g = ref.game
        if c in COMMANDS:
            i = COMMANDS.index(c)
            if g is None and i >= NO_GAME_NEEDED:
                raise ValueError("no game loaded")
            return getattr(self, HANDLERS[i])(g, c, msg)
        if g is None:
            raise ValueError("no game loaded")
        x = extensions.find(ref, c)  # clock, reveal, dice: an extension's
        if x is not None:
            return x.command(ref, g, c, msg)
        if c in g.rules.COMMANDS:
            return ref.submit(g.rules.command(self, c, msg), "serial", c)
        raise ValueError("unknown command %r (%s has none of that name)" % (c, g.rules.name))

    def _hello(self, g, c, msg):
        ref = self.referee
        hp = msg.get("proto", PROTO_VERSION)
        if not is_int(hp, 0, 0xFFFF):  # not a version at all: a bad argument, no hello
            raise ValueError("proto must be a whole number (the host's protocol version)")
        if hp != PROTO_VERSION:
            ref._out(
                {
                    "t": "err",
                    "src": "serial",
                    "c": c,
                    "code": "proto",
                    "msg": "host speaks protocol %r, this board speaks %d: update the %s"
                    % (
                        hp,
                        PROTO_VERSION,
                        "firmware (fleetref flash)"
                        if isinstance(hp, int) and hp > PROTO_VERSION
                        else "host tools",
                    ),
                }
            )
        self.hello()

    def hello(self):
        """The ``hello`` message: protocol, firmware, board, the game in play (and its dice
        commitment and clocks), then the boot's journal note if there is one."""
        ref = self.referee
        g = ref.game
        from referee import runtime

        mpy, code, src = ref.build_info or runtime.describe()
        msg = {
            "t": "hello",
            "proto": PROTO_VERSION,
            "fw": FW_VERSION,
            "micropython": mpy,
            "code": code,
            "src": src,
            "board": ref.board.get("name", "?"),
            "ruleset": g.rules.name if g else None,
            "scenario": ref.scenario,
            "gid": ref.gid,
            "seq": g.seq if g else 0,
        }
        for x in ref.board_extensions + (g.extensions if g else ()):
            x.hello_fields(ref, msg)  # the dice commitment (docs/dice.md), the clocks' state
        ref._out(msg)
        if ref.boot_note:
            ref.send(ref.journal_line())

    def _mem(self, g, c, msg):
        from referee import runtime

        self.referee._out(runtime.heap())

    def _scenarios(self, g, c, msg):
        ref = self.referee
        from referee import scenarios

        ref._out({"t": "scenarios", "names": scenarios.list_names(ref.scenario_dir)})

    def _stored(self, g, c, msg):
        # what the board keeps on its flash beside the game: a roster (roster-put: fleetref
        # roster push, referee/rosterstore.py), the Wi-Fi's credentials and state (wifi-set,
        # wifi: referee/net/wificmd.py, imported only on a board with a network)
        if c != "roster-put":
            if getattr(self.referee, "network", None) is None:
                raise ValueError("this board has no network (its profile has no network section)")
            from referee.net import wificmd

            return wificmd.command(self.referee, c, msg)
        from referee import rosterstore

        rosterstore.command(self.referee, msg)

    def _game(self, g, c, msg):
        self.referee.send_game()

    def _snap(self, g, c, msg):
        ref = self.referee
        snap = g.snapshot(ref)  # (with the board's clocks now: paused, live; clock.py)
        snap["t"] = "snap"
        snap["gid"] = ref.gid
        ref._out(snap)

    def _append(self, g, c, msg):
        ref = self.referee
        evs = msg.get("events")
        if not isinstance(evs, list) or len(evs) > 200:
            raise ValueError("events must be a list of at most 200 events")
        # the line's events are held (ref.group) and written BATCH to a journal commit
        # (littlefs pads every commit to 256 bytes; docs/performance.md), each announced
        # once its record is on flash; a refused one stops the line after those before it
        group = ref.group
        group.hold()
        try:
            done = self._append_events(evs, c)
        finally:
            group.stop()
            if group.count:  # (an exception: the events before it go out first)
                ref.flush("serial", c)
        if done:
            ref._out({"t": "ok", "c": c, "seq": g.seq, "hash": g.state_hash()})

    def _roll(self, g, c, msg):
        vals = msg.get("values")
        if vals is None:
            return self.referee.roll_initiative("serial", c)
        if not isinstance(vals, list) or len(vals) != 2:
            raise ValueError("values must be [side 0 roll, side 1 roll]")
        for v in vals:
            if not is_int(v, 1, 20):
                raise ValueError("values must be two d20 rolls, each 1..20")
        return self.referee.submit((EV_INIT, vals[0], vals[1], 1), "serial", c)

    def _hit(self, g, c, msg):
        ship = self.ship_arg(msg)
        n = self.int_arg(msg, "n", g.settings["damage_per_hit"], -99, 99)
        by = self.ship_arg(msg, "by") if msg.get("by") is not None else NONE
        return self.referee.submit((EV_HIT, ship, n, by), "serial", c)

    def _counter(self, g, c, msg):
        ship = self.ship_arg(msg)
        opt = msg.get("option")
        if isinstance(opt, str):
            names = [o.name for o in g.rules.options]
            if opt not in names:
                raise ValueError("no option %r (options: %s)" % (opt, ", ".join(names)))
            opt = names.index(opt)
        n = len(g.rules.options)
        if not is_int(opt, 0, max(n, 1) - 1):
            raise ValueError(
                "option must be an option's number 0..%d or its name" % (max(n, 1) - 1)
            )
        for_ = self.ship_arg(msg, "for") if msg.get("for") is not None else ship
        return self.referee.submit((EV_COUNTER, ship, opt, for_), "serial", c)

    def _launch(self, g, c, msg):
        return self.referee.submit((EV_LAUNCH, self.ship_arg(msg), 0, 0), "serial", c)

    def _sync(self, g, c, msg):  # ``events``, ``state``, ``base``: a host following a game
        from referee import link_sync  # (imported only when a host asks one of them)

        return link_sync.command(self, g, c, msg)

    def _step(self, g, c, msg):  # ``phase`` and ``undo``: events without arguments
        return self.referee.submit((EV_PHASE if c == "phase" else EV_UNDO, 0, 0, 0), "serial", c)

    def _key(self, g, c, msg):
        from referee.pad import ACTIONS

        k = msg.get("key")
        if k is None:
            raise ValueError(
                "key needs 'key': one of the pad's actions (%s) or sel:<n>" % " ".join(ACTIONS)
            )
        if k not in ACTIONS and not (isinstance(k, str) and k[:4] == "sel:" and k[4:].isdigit()):
            raise ValueError(
                "key must be one of the pad's actions (%s) or sel:<n>, not %r"
                % (" ".join(ACTIONS), k)
            )
        self.referee.pad.key(k)

    def _append_events(self, evs, c):
        # True when every event of the line was applied, written and announced
        ref = self.referee
        group = ref.group
        for ev in evs:
            if not isinstance(ev, list) or len(ev) != 4:
                raise ValueError("an event is [kind, a, b, c]")
            if ref.submit(tuple(ev), "serial", c):
                return False  # (submit flushed the events before it)
            n = group.count
            if n >= BATCH and ref.flush("serial", c) != n:
                return False  # not written: taken back, and said so
        n = group.count
        return not n or ref.flush("serial", c) == n

    def _load(self, g, c, msg):
        import gc

        gc.collect()  # a 2x24-ship roster needs blocks of a few KB on the Pico's heap
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
        for k in msg:  # a misspelt field is said, never ignored
            if k not in LOAD_FIELDS:
                raise ValueError("load takes scenario, roster, ruleset and settings, not %r" % k)
        st = msg.get("settings")  # over the roster's own (scenarios.with_settings)
        if "roster" in msg:
            r = msg["roster"]
            if not isinstance(r, dict):
                raise ValueError("roster must be an object")
            self.referee.load_raw(r, rs, msg.get("scenario") or "", st)
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
            return self.referee.load_scenario(name, rs)
        return self.referee.load_scenario(name, rs, st)
