"""What the board publishes (docs/mqtt.md section 1, the payloads of ``fleetref publish``):
the event message, the retained state and status, read from the referee as it stands. The
board has no replica, so ``board_hash`` is its own ``hash``. Each message is built when it is
sent and dropped after (no copy of the game is kept), and the settings file is read here.

An event's words (its sentence, ``round``, ``phase``, ``undone``) tell of the game just after
it, so :class:`Words` takes them when the referee applies the event (its ``on_applied``) and
keeps the newest HELD events' until they are sent: events sent in one poll, after newer ones
were played, read as the laptop's. An event older than those is a catch-up's (null
``round``/``phase``).

Times (``t``, unix seconds) come from the board's clock; a clock that was never set (before
2023) gives none (null), and the dashboard then has no time of the table's last news.
"""

import json
import time

from referee.events import EV_UNDO, NONE
from referee.fleet import STATUS_NAMES

HELD = 16  # newest events whose words (Words) are kept from when they happened
RECENT = 5  # newest events' sentences in the state, as the laptop publisher sends
NAME_MAX = 32  # an event's or a table's name: 1-32 letters, digits, - or _
CLOCK_SET_AFTER = 1700000000  # unix seconds: a clock behind this was never set
# the settings file's fields: (name, type) ; "user" and "password" may be absent (no login)
FIELDS = (("host", str), ("port", int), ("event", str), ("table", str))


def read_settings(path):
    """The settings at ``path`` (JSON: ``host`` an IPv4 address, ``port`` 1-65535, ``event``
    and ``table`` names (:func:`is_name`), optional ``user`` and ``password``) as a dict.
    ValueError or OSError (one line, never holding the password) when missing or malformed."""
    with open(path) as f:
        try:
            cfg = json.load(f)
        except ValueError:
            raise ValueError("%s is not JSON" % path)
    if not isinstance(cfg, dict):
        raise ValueError("%s is not a JSON object" % path)
    for name, kind in FIELDS:
        if not isinstance(cfg.get(name), kind):
            raise ValueError("%s needs %s (%s)" % (path, name, kind.__name__))
    for name in ("user", "password"):
        if not isinstance(cfg.get(name, ""), str):
            raise ValueError("%s: %s must be text" % (path, name))
    for name in ("event", "table"):
        if not is_name(cfg[name]):
            raise ValueError(
                "%s: %s name %r: use 1-32 letters, digits, - or _" % (path, name, cfg[name])
            )
    if not 1 <= cfg["port"] <= 65535:
        raise ValueError("%s: port %d is not a TCP port (1-65535)" % (path, cfg["port"]))
    parts = cfg["host"].split(".")
    if len(parts) != 4 or not all(p.isdigit() and int(p) < 256 for p in parts):
        raise ValueError("%s: host must be an IPv4 address (the board resolves no names)" % path)
    return cfg


def is_name(text):
    """True when ``text`` is an event's or a table's name (docs/mqtt.md section 1): 1-32
    letters, digits, ``-`` or ``_``, so one topic level (no ``/``, ``+`` or ``#``)."""
    if not 1 <= len(text) <= NAME_MAX:
        return False
    for ch in text:
        if not (ch.isalpha() or ch.isdigit() or ch in "-_") or ord(ch) > 127:
            return False
    return True


def now():
    """Unix seconds (float) from the board's clock, or None when it was never set."""
    t = time.time()
    return t if t > CLOCK_SET_AFTER else None


def sentence(text):
    """``text`` with a capital first letter and a full stop (host_tools.views.webfeed's)."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


def event_sentence(game, seq, ev):
    """The firmware's sentence for event ``seq`` (referee/texts.py); results are read from
    the game only for its newest event."""
    from referee.texts import event_text

    return sentence(event_text(game, ev, seq, seq == game.seq))


def words_now(game, seq, ev):
    """``(sentence, round, phase, undone)`` of event ``seq`` (``ev``) read from ``game`` as
    it stands: round/phase/undone only when ``seq`` is its newest event, else None."""
    if seq != game.seq:
        return event_sentence(game, seq, ev), None, None, None
    undone = None
    if ev[0] == EV_UNDO:
        from referee.texts import undone_seq

        undone = undone_seq(game, seq)
    return event_sentence(game, seq, ev), game.round, game.phase_name(), undone


class Words:
    """The words (:func:`words_now`) of the newest HELD events of ``app`` (app.Referee), each
    taken as the referee applies it (its ``on_applied`` hook, set here: the game then stands
    just after the event, even when a key's journal commit holds it and newer ones before
    they are announced): ``slots[seq % HELD]`` is ``(seq, gid, sentence, round, phase,
    undone)`` or None. Built once when the service starts; a board without it has none."""

    def __init__(self, app):
        self.app = app
        self.slots = [None] * HELD
        app.on_applied = self.took

    def took(self, seq, ev):
        """Event ``seq`` (``ev``) applied: its words kept (an event taken back and replaced
        by another of the same seq: that one's). Never raises into the referee's path (a
        fault leaves the slot empty: the event is then sent as a catch-up's)."""
        app = self.app
        slot = seq % HELD
        self.slots[slot] = None
        try:
            self.slots[slot] = (seq, app.gid) + words_now(app.game, seq, ev)
        except Exception:  # (MemoryError): sent as a catch-up's
            pass

    def of(self, seq, ev):
        """The words of event ``seq`` (``ev``) of the game in play: as kept, else as read
        now (:func:`words_now`)."""
        app = self.app
        kept = self.slots[seq % HELD]
        if kept is not None and kept[0] == seq and kept[1] == app.gid:
            return kept[2:]
        return words_now(app.game, seq, ev)


def event_message(app, table, seq, ev, state_hash, words):
    """The event message (str, JSON) of event ``seq`` (``ev``: its tuple) of ``app``'s game;
    ``state_hash`` the board's hash after it ("" for one streamed from the journal, which
    holds none); ``words``: (sentence, round, phase, undone), Words.of's. ``round``/``phase``
    are null for an event whose words were not kept (as the laptop publisher sends an event
    of a catch-up)."""
    text, round_, phase, undone = words
    return json.dumps(
        {
            "seq": seq,
            "ev": [ev[0], ev[1], ev[2], ev[3]],
            "hash": state_hash,
            "board_hash": state_hash or None,
            "text": text,
            "round": round_,
            "phase": phase,
            "undone": undone,
            "gid": app.gid,
            "table": table,
            "t": now(),
        }
    )


def ship(game, i):
    """The fields of ship ``i`` the dashboard reads (host_tools/tournament/tables.py)."""
    return {
        "i": i,
        "name": game.names[i],
        "side": game.side[i],
        "hp": [game.hp1[i], game.hp2[i]],
        "damage": game.dmg[i],
        "status": STATUS_NAMES[game.status(i)],
    }


def state_message(app, event, table, acked_seq, words):
    """The retained state (str, JSON): the fields of the board's ``snap`` the dashboard reads
    (seq, gid, state_hash, scenario, ruleset, sides, round, phase, initiative, ships,
    winner, the clock as the board has it now), with ``board_hash`` (= ``state_hash``),
    ``hash_match`` (true), ``table``, ``event``, ``t``, ``acked_seq``, ``link`` (true: the
    board is its own link) and ``recent`` ([[seq, sentence], ...] of the newest events, their
    sentences from ``words``, a Words)."""
    from referee import extensions

    game = app.game
    seq = game.seq
    h = game.state_hash()
    first = max(game.base_seq + 1, seq - RECENT + 1)
    out = {
        "seq": seq,
        "gid": app.gid,
        "state_hash": h,
        "board_hash": h,
        "hash_match": True,
        "scenario": game.roster_name,
        "ruleset": game.rules.name,
        "sides": list(game.side_names),
        "round": game.round,
        "phase": game.phase_name(),
        "initiative": None if game.init == NONE else game.init,
        "ships": [ship(game, i) for i in range(game.n)],
        "winner": game.winner(),
        "table": table,
        "event": event,
        "t": now(),
        "acked_seq": acked_seq,
        "link": True,
        "recent": [[s, words.of(s, game.event(s))[0]] for s in range(first, seq + 1)],
    }
    extensions.view(game, out, app)  # "clock": the time banks as the board has them now
    return json.dumps(out)


def status_message(online):
    """The retained status: ``{"online": true, "t": ...}``; the will is ``{"online": false}``
    with no time (fixed at connect time: docs/mqtt.md section 1)."""
    if not online:
        return '{"online": false}'
    return json.dumps({"online": True, "t": now()})
