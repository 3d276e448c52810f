"""Saved games: the full event log and a snapshot, hash-chained so that a tampered or
truncated file is refused with the place where it breaks.

File (JSON)::

    {"format": "fleetref-save", "version": 1, "game": {"scenario", "roster"},
     "base_seq": S, "base": hex state at S or null,
     "events": [{"seq", "ev", "hash", "chain"}, ...],
     "count": number of events, "head": chain of the last event,
     "snapshot": the final snapshot (state_hash included)}

``chain`` of an event = SHA-256 (hex) of the previous chain, its seq, event and state hash;
the first link starts from the SHA-256 of the game and base.
"""

import hashlib
import json

from referee import rules as profiles, scenarios
from referee.game import Game


class SaveError(ValueError):
    pass


def _start(game, base_seq, base):
    text = json.dumps({"roster": game["roster"], "base_seq": base_seq, "base": base},
                      sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def link(prev, seq, ev, h):
    return hashlib.sha256(("%s|%d|%s|%s" % (prev, seq, json.dumps(list(ev)), h))
                          .encode()).hexdigest()


def build(game_msg, base_seq, base, events, snapshot):
    """The save dict. ``events``: list of (seq, ev, state hash after it)."""
    game = {"scenario": game_msg.get("scenario", ""), "roster": game_msg["roster"]}
    prev = _start(game, base_seq, base)
    rows = []
    for seq, ev, h in events:
        prev = link(prev, seq, ev, h)
        rows.append({"seq": seq, "ev": list(ev), "hash": h, "chain": prev})
    return {"format": "fleetref-save", "version": 1, "game": game, "base_seq": base_seq,
            "base": base, "events": rows, "count": len(rows), "head": prev,
            "snapshot": snapshot}


def new_game_of(save):
    norm, _ = scenarios.load_text(json.dumps(save["game"]["roster"]))
    return Game(profiles.get(norm["ruleset"]), norm, window=1 << 30)


def verify(save):
    """Check a save dict: format, chain, truncation, and a replay through the rules core.
    Returns the replayed Game. Raises SaveError saying where the file breaks."""
    if not isinstance(save, dict) or save.get("format") != "fleetref-save":
        raise SaveError("not a fleetref save file")
    if save.get("version") != 1:
        raise SaveError("save format version %r is not supported" % save.get("version"))
    try:
        game, base_seq, base = save["game"], save["base_seq"], save["base"]
        rows, count, head = save["events"], save["count"], save["head"]
    except KeyError as e:
        raise SaveError("save file lacks %s" % e)
    prev = _start(game, base_seq, base)
    want = base_seq + 1
    for i, row in enumerate(rows):
        try:
            seq, ev, h, chain = row["seq"], row["ev"], row["hash"], row["chain"]
        except (KeyError, TypeError):
            raise SaveError("event record %d is malformed" % (i + 1))
        if seq != want:
            raise SaveError("breaks at event %d: expected event %d (events missing or "
                            "reordered)" % (seq, want))
        prev = link(prev, seq, ev, h)
        if chain != prev:
            raise SaveError("breaks at event %d: hash chain does not match (the file was "
                            "changed there)" % seq)
        want += 1
    if count != len(rows) or head != prev:
        last = rows[-1]["seq"] if rows else base_seq
        raise SaveError("truncated: %d of %d events, the file ends after event %d"
                        % (len(rows), count, last))
    try:
        g = new_game_of(save)
    except ValueError as e:
        raise SaveError("the roster in the file is bad: %s" % e)
    if base:
        g.set_window(base_seq, bytes.fromhex(base), b"", b"", [])
    for row in rows:
        r = g.submit(tuple(row["ev"]))
        if r:
            raise SaveError("breaks at event %d: the rules refuse it (%s)" % (row["seq"], r))
        if g.state_hash() != row["hash"]:
            raise SaveError("breaks at event %d: state hash %s, the file says %s"
                            % (row["seq"], g.state_hash(), row["hash"]))
    snap = save.get("snapshot") or {}
    if snap.get("state_hash") not in (None, g.state_hash()):
        raise SaveError("the snapshot's state_hash does not match the replayed log")
    return g


def load_file(path):
    try:
        with open(path) as f:
            data = json.load(f)
    except OSError as e:
        raise SaveError("cannot read %s: %s" % (path, e))
    except ValueError as e:
        raise SaveError("%s is not JSON (truncated?): %s" % (path, e))
    return data
