"""What the board publishes (docs/mqtt.md section 1, the payloads of ``fleetref publish``):
the event message, the retained state and status, read from the game as it stands, with the
words referee.net.mqtt_words took as each event was applied. The board has no replica, so
``board_hash`` is its own ``hash``. Each message is built when it is sent and dropped after
(no copy of it is kept), and the settings file is read here.

Times (``t``, unix seconds) come from the board's clock; a clock that was never set (before
2023) gives none (null), and the dashboard then has no time of the table's last news.
"""

import json
import time

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


def event_message(gid, table, seq, ev, state_hash, words):
    """The event message (str, JSON) of event ``seq`` (``ev``: its tuple) of game ``gid``;
    ``state_hash`` the board's hash after it ("" for one streamed from the journal, which
    holds none); ``words``: (sentence, round, phase, undone), mqtt_words.Words.of's. ``round``/``phase``
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
            "gid": gid,
            "table": table,
            "t": now(),
        }
    )


def dice_view(app):
    """The board's dice as the laptop's state has them (``dice``, host_tools/files/dicelog.py's
    view; docs/dice.md): ``commit``, ``epoch`` and ``boot`` of its committed dice (the
    ``game`` line's), ``rolls`` (this game's roll records held) and ``revealed`` (its
    reveals); ``restarts``, ``verified``, ``bad`` and ``unchecked`` are the laptop's checks of
    what it received, null here (the board does not check itself: ``fleetref verify`` does, on
    a save). For seeded test dice (not committed): null commit and boot, 0 for the rest."""
    from referee.dice import fair_of

    fair = fair_of(app)
    if fair is not None:
        fair.game_fields()  # (a new game's commitment made first, as its game line has it)
    return {
        "commit": fair.commit if fair is not None else None,
        "epoch": fair.ep if fair is not None else 0,
        "boot": fair.boot if fair is not None else None,
        "restarts": None,
        "rolls": len(fair.recs) if fair is not None else 0,
        "revealed": len(fair.reveals) if fair is not None else 0,
        "verified": None,
        "bad": None,
        "unchecked": None,
    }


def state_message(app, game, gid, names, acked_seq, words):
    """The retained state (str, JSON) of ``game`` (of ``gid``; ``app``'s game in play, or the
    one it replaced while its last events were still going out): the laptop's (the mirror's
    snapshot, referee.views.snapshot with the ships' ``state``, ``shows`` and
    ``side_plural`` of texts.add_states), with ``gid``, ``board_hash`` (= ``state_hash``: the
    board is its own replica), ``hash_match`` (true), ``initiative_history`` and ``decided``
    (``words``, a mqtt_words.Words, since the board started), ``dice`` (:func:`dice_view`),
    ``event`` and ``table`` (``names``: (event, table)), ``t``, ``acked_seq``, ``link``
    (true) and ``recent`` ([[seq, sentence], ...] of the newest events, from ``words``). The
    clock is the board's now for the game in play, the game's own for the one it replaced."""
    from referee.texts import add_states

    out = add_states(game.snapshot(app if game is app.game else None), game)
    seq = game.seq
    first = max(game.base_seq + 1, seq - RECENT + 1)
    history, decided = words.record(gid)
    out["gid"] = gid
    out["board_hash"] = out["state_hash"]
    out["hash_match"] = True
    out["initiative_history"] = history
    out["dice"] = dice_view(app)
    out["decided"] = decided
    out["event"], out["table"] = names
    out["t"] = now()
    out["acked_seq"] = acked_seq
    out["link"] = True
    out["recent"] = [[s, words.of(game, gid, s, game.event(s))[0]] for s in range(first, seq + 1)]
    return json.dumps(out)


def status_message(online):
    """The retained status: ``{"online": true, "t": ...}``; the will is ``{"online": false}``
    with no time (fixed at connect time: docs/mqtt.md section 1)."""
    if not online:
        return '{"online": false}'
    return json.dumps({"online": True, "t": now()})
