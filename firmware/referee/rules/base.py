"""The thin base every ruleset module builds on (referee/rules/<name>.py).

A ruleset declares, as class data: its phases and when damage is marked or lands, how
initiative is decided, its fleet command chart (``options``), its settings with the defaults
its seed gives (everything a seed leaves open is a setting, never a guess in code), its event
kinds beyond the core ones (``EVENTS``), its per-ship stats parsed from named roster keys
(``STATS``, :meth:`parse_stats`), its per-ship flag bits (``FLAGS``, kept in ``Game.rule_flags``), the
bytes of state it keeps per ship (``SHIP_BYTES``, ``Game.ship_state``) and per game (``GAME_BYTES``,
``Game.game_state``), its serial commands (``COMMANDS``), its pad actions (``pad``, ``power``) and its
event texts and snapshot view (hooks below). The core (game.py, fleet.py, views.py, app.py)
names no ruleset and reads only these.
"""

from referee.events import NONE, EV_INIT
from referee.fleet import and_each
from referee import extensions

# Initiative tie rules.
TIE_REROLL = 0  # seed 000 "initiative check": "Reroll ties."
TIE_KEEP = 1  # seed 004 "Initiative Phase": a tie keeps last turn's holder

# Who moves first once initiative is decided.
MOVE_LOSER_FIRST = 0  # seed 000: "Whoever rolls highest moves last and attacks first."
MOVE_HOLDER_FIRST = (
    1  # seed 004 "Movement Phase": "The player with the initiative moves all their ships"
)

# The event kind of a ship's move, shared by the rulesets that log moves (each module says
# what its fields hold); the other kinds of a ruleset are its own (``EVENTS``).
EV_MOVE = 11

# Fleet command option effects the core enforces.
EFFECT_NONE = 0  # recorded only (the players apply it on the table)
EFFECT_AVOID = 1  # cancels the newest pending hit on the ship it is played for (Fly Casual):
#                  the whole hit, however many points it marked (the ruleset's HIT_BYTE)
HIT_AVOIDED = 128  # in a HIT_BYTE: the newest hit was avoided (its points in the low 7 bits)


def possessive(name):
    """``name``'s, English style: "Rebels'" for a name ending in s, else "Empire's" (here, not
    in referee/texts.py, so a ruleset's refusal needs no texts: texts reads this module)."""
    return name + ("'" if name[-1:] in ("s", "S") else "'s")


class Option:
    """One fleet command option: ``name`` (str), ``classes`` (tuple of ints the option may be
    played for; empty = any class), ``effect`` (EFFECT_*), ``text`` (what it does, for docs),
    ``own_class``: the counter must be of the class of the ship it is played for (seed 001,
    Proximity targeting: "a Command token of the appropriate Class"; a counter comes off a
    ship's card, seed 000 "Fleet Command Options", so it is of that ship's class)."""

    def __init__(self, name, classes, effect, text, own_class=False):
        self.name = name
        self.classes = classes
        self.effect = effect
        self.text = text
        self.own_class = own_class


def byte(v):
    """A roster stat as a byte: ints 0..254 as they are, anything else 255 (not given)."""
    if isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 255:
        return v
    return 255


def flag_bits(stats, flags, bits=0):
    """``bits`` with the bit of each flag whose roster stat is true set: ``flags`` is a tuple
    of (stat name, bit) pairs. Returns an int."""
    for name, bit in flags:
        if stats.get(name):
            bits |= bit
    return bits


class Ruleset:
    """Base of the rulesets. Class-level data:

    - ``name``: short id used on the wire and in rosters; ``title``, ``source`` (seed).
    - ``phases``: tuple of phase names, in order; advancing past the last ends the round.
    - ``pending_phases``: phase indices in which marked damage waits (is "pending").
    - ``hit_phases``: phase indices in which damage may be marked.
    - ``counter_phases``: phase indices in which fleet command counters may be played.
    - ``flush_phase``: pending damage is applied when this phase ends (-1: never).
    - ``tie``: TIE_REROLL or TIE_KEEP. ``move_order``: MOVE_LOSER_FIRST or MOVE_HOLDER_FIRST.
    - ``options``: tuple of :class:`Option` (the fleet command chart), may be empty.
    - ``one_ship_at_a_time``: phase index where ships fire one at a time, or -1.
    - ``SETTINGS``: dict name -> (default, minimum, maximum) of int settings.
    - ``EVENTS``: dict kind -> name of the ruleset's own event kinds.
    - ``STATS``: names of the per-ship stat bytes :meth:`parse_stats` returns.
    - ``STAT_KEYS``: the roster ``stats`` keys this ruleset reads (others are refused).
    - ``FLAGS``: names of the per-ship flag bits in ``Game.rule_flags`` (bit k = 1 << k).
    - ``ROUND_FLAGS``: mask of the fl2 bits cleared at the end of every round.
    - ``SHIP_BYTES`` / ``GAME_BYTES``: ruleset state bytes per ship / per game (hashed).
    - ``HIT_BYTE``: which of a ship's SHIP_BYTES the core keeps the newest pending hit in
      (its points, 0..127, plus 128 once an EFFECT_AVOID option avoided it), -1 for none;
      a ruleset with an EFFECT_AVOID option needs one. Like every state byte it costs a
      byte a ship in each copy of the state the undo window keeps (some 13 in a long game).
    - ``COMMANDS``: serial commands of the ruleset (names; :meth:`command` builds the event),
      looked up after the core's (link.COMMANDS), which they never reuse.
    - ``pad``: pad actions of opt1..opt4 (used when the ruleset has no chart) and alt1..alt4
      (the core's pad.ACTIONS name the keys; :meth:`pad_event` builds the event);
      ``""`` = unused. ``PAD_MARKED``: the pad actions that need a marked acting ship.
    - ``power``: (label, action) of the ``power`` key, or ("", "") when it does nothing.
    - ``VICTORY``: the ``when`` words a roster's victory conditions may use.
    - ``example``: the scenario ``fleetref sim --ruleset NAME`` loads.
    """

    name = ""
    title = ""
    source = ""
    phases = ()
    pending_phases = ()
    hit_phases = ()
    counter_phases = ()
    flush_phase = -1
    tie = TIE_REROLL
    move_order = MOVE_LOSER_FIRST
    options = ()
    one_ship_at_a_time = -1
    SETTINGS = {}
    EVENTS = {}
    STATS = ()
    STAT_KEYS = ()
    FLAGS = ()
    STATE_WORDS = ()  # (flag name, words): said after a ship's state while the flag holds
    ROUND_FLAGS = 0
    SHIP_BYTES = 0
    GAME_BYTES = 0
    HIT_BYTE = -1
    COMMANDS = ()
    pad = ("", "", "", "", "", "", "", "")
    PAD_MARKED = ()
    ABILITY_STATS = ()  # (keyword, stat): ability texts that mean a stat (roster_hints.py)
    PAD_D20 = False  # its pad actions roll a d20 (a physical one may be entered: pad.py)
    USES_CLASS = False  # its rules read a ship's class (else the class is display only and
    #                     the host views leave it out: texts.shows)
    power = ("", "")
    VICTORY = ("destroyed",)
    example = ""

    def from_pool(self, g, i):
        """True when fighter ``i``, not on the map, waits in an endless pool (a destroyed one
        goes back there) rather than aboard its carrier; no pool by default."""
        return False

    def settings(self, given=None):
        """Return the settings dict: defaults overridden by ``given`` (dict).

        Raises ValueError naming the setting when a name is unknown or a value is out of range.
        """
        out = {}
        for k in self.SETTINGS:
            out[k] = self.SETTINGS[k][0]
        if given:
            for k in given:
                x = extensions.settings_owner(k)  # an extension's (time banks: clock_*)
                if x is not None:
                    out.update(x.settings_of(given))
                    if k in x.SETTINGS:
                        continue
                if k not in self.SETTINGS:
                    raise ValueError("unknown setting %r for ruleset %s" % (k, self.name))
                v = given[k]
                lo = self.SETTINGS[k][1]
                hi = self.SETTINGS[k][2]
                if isinstance(v, bool):
                    v = int(v)
                if not isinstance(v, int) or v < lo or v > hi:
                    raise ValueError("setting %s must be an integer %d..%d" % (k, lo, hi))
                out[k] = v
        return out

    # ---- roster ------------------------------------------------------------------------
    def check_roster(self, norm):
        """Refuse roster data this ruleset does not read (ValueError naming the field)."""
        known = self.STAT_KEYS
        for si in range(2):
            ships = norm["sides"][si]["ships"]
            for j in range(len(ships)):
                for k in ships[j]["stats"]:
                    if k not in known and k not in ("abilities", "note"):
                        raise ValueError(
                            "sides[%d].ships[%d].stats: %s does not use %r "
                            "(it reads: %s)" % (si, j, self.name, k, ", ".join(known) or "nothing")
                        )
        names = [s["name"] for si in range(2) for s in norm["sides"][si]["ships"]]
        for k in range(len(norm["victory"])):
            if norm["victory"][k]["when"] not in self.VICTORY:
                raise ValueError(
                    "victory[%d].when: %s knows %s" % (k, self.name, ", ".join(self.VICTORY))
                )
            sh = norm["victory"][k].get("ship")
            if sh is not None and sh not in names:
                raise ValueError("victory[%d].ship: no ship %r in this roster" % (k, sh))
        if norm["extras"]:
            raise ValueError("extras: %s uses none" % self.name)

    def state_limits(self, g):
        """(per ship byte, per game byte) the largest value each of this ruleset's state
        bytes can hold in game ``g`` (tuples of SHIP_BYTES / GAME_BYTES ints): a saved state
        (the ``base`` command) beyond them is refused. Default: any byte value."""
        return (255,) * self.SHIP_BYTES, (255,) * self.GAME_BYTES

    def parse_stats(self, st, ctx):
        """The ship's stat bytes (list of ints, one per ``STATS`` name) from its roster
        ``stats`` dict; named keys only, never ability text. ``ctx``: a dict shared by the
        ships of one game (``ctx["side"]`` is the ship's side)."""
        return []

    # ---- hooks the core calls (game.py); rulesets override what they use ---------------
    def start_phase(self, g):
        """Called after the phase advanced (also into a new round's first phase)."""

    def end_round(self, g):
        """End-of-round bookkeeping of the ruleset's state (before the round number moves)."""
        and_each(g.rule_flags, ~self.ROUND_FLAGS & 255)

    def on_damage(self, g, i):
        """Damage was just applied to ship i."""

    def on_fire(self, g, attacker, target):
        """A hit (or a miss of the attack helper) by ``attacker`` on ``target`` was recorded."""

    def check_phase(self, g):
        """None when the phase may advance now, else the reason."""
        return None

    def destroyed_fire(self, g, i):
        """A destroyed ship i may still fire now (simultaneous fire)."""
        return False

    def tie_without_holder(self, g):
        """Who holds the initiative after a tied roll with no holder to keep it (NONE: the
        players roll again)."""
        return NONE

    def moves_first(self, g):
        """Side that moves first this round, or NONE before initiative is decided."""
        if g.init == NONE:
            return NONE
        if self.move_order == MOVE_LOSER_FIRST:
            return 1 - g.init
        return g.init

    def check_hit(self, g, target, points, attacker):
        """Ruleset rules for marking damage (EV_HIT, and the hits of its own events)."""
        return None

    def check_counter(self, g, a, b, c):
        """Ruleset rules for a fleet command counter from ship ``a`` on option ``b`` for ship
        ``c``, after the core's (chart, counters left, the option's classes); None or the
        reason. An ``own_class`` option takes a counter of the class of the ship it is for."""
        opt = self.options[b]  # (an Option of the ruleset's own chart)
        if getattr(opt, "own_class", False) and g.cls[a] != g.cls[c]:
            return "%s takes a command counter of %s class (%d): %s counters are class %d" % (
                getattr(opt, "name", ""),
                possessive(g.names[c]),
                g.cls[c],
                possessive(g.names[a]),
                g.cls[a],
            )
        return None

    def check_ext(self, g, kind, a, b, c):
        """Check an event of one of the ruleset's own kinds; None or the reason."""
        return "%s does not use %s events" % (self.name, self.EVENTS.get(kind, "kind %d" % kind))

    def apply_ext(self, g, kind, a, b, c):
        """Apply an event of the ruleset's own kinds that check_ext accepted."""

    def acting_side(self, g):
        """Side whose turn it is to act (shown on the grid), or NONE."""
        return g.moves_first()

    # the phases in which a ship can be yet to act (None: any phase); outside them the grid
    # asks ``yet_to_act`` nothing
    TO_ACT_PHASES = None
    # what says a ship has acted, when that is a flag: (per-ship array name, mask), e.g.
    # ("flags", F_FIRED); a ship in play without it is yet to act (the base yet_to_act)
    TO_ACT_DONE = None

    def yet_to_act(self, g, i):
        """Ship i still has to act in this phase (the grid's dim white status pixel): by
        ``TO_ACT_DONE`` in ``TO_ACT_PHASES``; never when the ruleset declares neither."""
        d = self.TO_ACT_DONE
        ph = self.TO_ACT_PHASES
        return (
            d is not None
            and (ph is None or g.phase in ph)
            and g.in_play(i)
            and not getattr(g, d[0])[i] & d[1]
        )

    def full_power(self, g, i):
        """Ship i made a full-power move this round (snapshot ``full_power``)."""
        return False

    def act_marks(self, g, i0, i1, out, o):
        """The grid's status marks of ships ``i0`` .. ``i1 - 1`` into bytearray ``out`` from
        index ``o`` (one byte a ship: 1 = ``full_power``, 2 = ``yet_to_act``, 0 = neither):
        exactly ``i1 - i0`` bytes (none when ``i1 <= i0``). Asks the rules only where the
        ruleset has them (not the base's always-False) and, for ``yet_to_act``, in
        ``TO_ACT_PHASES``; a ruleset that declares ``TO_ACT_DONE`` (and keeps the base
        yet_to_act) is worked out in one loop (Fleet.to_act)."""
        cls = type(self)
        ph = self.TO_ACT_PHASES
        now = ph is None or g.phase in ph
        d = self.TO_ACT_DONE
        own = cls.yet_to_act is not Ruleset.yet_to_act
        if now and d is not None and not own:
            g.to_act(i0, i1, getattr(g, d[0]), d[1], out, o)
        else:
            ya = self.yet_to_act if now and own else None
            for i in range(i0, i1):
                out[o + i - i0] = 2 if ya is not None and ya(g, i) else 0
        if cls.full_power is not Ruleset.full_power:  # 1 over 2: a full-power move shows
            fp = self.full_power
            for i in range(i0, i1):
                if fp(g, i):
                    out[o + i - i0] = 1

    def winner(self, g):
        """Side that has won by the roster's victory conditions, or None."""
        for v in g.victory:
            idx = g.index(v.get("ship"))
            if v["when"] == "destroyed" and idx >= 0 and g.destroyed(idx):
                return v["side"]
        return None

    def view(self, g):
        """Ruleset-specific fields of the snapshot (dict)."""
        return {}

    def event_text(self, g, ev, live=True):
        """A sentence for one of the ruleset's own events (referee/texts.py). ``live``: ``g``
        stands just after ``ev``, so results may be read from it."""
        return "%s: %s." % (
            self.EVENTS.get(ev[0], "event %d" % ev[0]),
            g.names[ev[1]] if ev[1] < g.n else ev[1],
        )

    def aim_text(self, g, weapon, arg):
        """What an aim at ``weapon`` with ``arg`` means in this ruleset."""
        return "weapon %d" % weapon

    # ---- dice (host_tools/files/verify.py, files/dicestats.py; docs/dice.md) -------------
    def dice_shown(self, g, ev):
        """The dice event ``ev`` shows, as a list of (side that rolled, faces, value); [] when
        it shows none. EV_INIT: each side's d20 (seed 000 "initiative check")."""
        if ev[0] == EV_INIT:
            return [(0, 20, ev[1]), (1, 20, ev[2])]
        return []

    def roll_matches(self, g, ev, faces, draws):
        """True when event ``ev`` shows exactly the dice ``draws`` (list of ints) of ``faces``
        faces the board rolled for it."""
        shown = self.dice_shown(g, ev)
        return len(shown) == len(draws) and all(
            shown[k][1] == faces and shown[k][2] == draws[k] for k in range(len(draws))
        )

    def roller(self, g, ev):
        """Side that rolled the dice of event ``ev`` (for a roll record's dice), or None."""
        shown = self.dice_shown(g, ev)
        return shown[0][0] if shown else None

    # ---- serial commands and pad actions -------------------------------------------------
    def command(self, link, c, msg):
        """The event (tuple) of serial command ``c`` (one of ``COMMANDS``), from message
        ``msg`` read with ``link``'s helpers (link.SerialLink: ``ship_arg``, ``int_arg``,
        ``roll_arg``; ``link.referee`` the game's app.Referee). Raises ValueError."""
        raise ValueError("unknown command %r" % c)

    def pad_event(self, pad, what, i, m):
        """The event (tuple) of pad action ``what`` on selected ship ``i`` and marked ship
        ``m`` (NONE when none), or a reason (str), or None (only counted on the pad).
        ``pad``: the referee's pad.Pad (``pad_d20``, ``count``, ``count2``,
        ``counter_source``; ``pad.referee`` the game's app.Referee)."""
        return "unknown pad action %r" % what

    def pad_label(self, g, action):
        """What a pad action does in this ruleset (for the simulator's and mirror's views)."""
        if action.startswith("opt") and g.option_count:
            return self.options[int(action[3]) - 1].name
        if action.startswith("opt"):
            return self.pad[int(action[3]) - 1] or "-"
        if action.startswith("alt"):
            return self.pad[3 + int(action[3])] or "-"
        if action == "power":
            return self.power[0] or "-"
        return action
