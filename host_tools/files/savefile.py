"""Saved games: the full event log and a snapshot, hash-chained so that a tampered, truncated
or malformed file is refused with the place where it breaks.

File (JSON)::

    {"format": "fleetref-save", "version": 2, "proto": the serial protocol whose state
     hashes it holds (docs/protocol.md; absent in files of protocol 8 and older),
     "game": {"scenario", "gid", "roster"}, "base_seq": S, "base": hex state at S or null,
     "events": [{"seq", "ev", "hash", "chain"}, ...],
     "count": number of events, "head": chain of the last event,
     "snapshot": the final snapshot (state_hash included)}

``chain`` of an event = SHA-256 (hex) of the previous chain, its seq, event and state hash;
the first link starts from the SHA-256 of the game (scenario label, gid and roster) and base.
:func:`verify` checks every field's type and range, the chain, and replays every event through
the rules core (linear in the number of events, undo included) before anything is sent to a
board.
"""

import hashlib
import json

from referee import PROTO_VERSION, rules, scenarios
from referee.events import EV_UNDO
from referee.game import Game

VERSION = 2
MAX_SEQ = 1 << 30


class SaveError(ValueError):
    pass


def _start(game, base_seq, base):
    text = json.dumps(
        {
            "roster": game["roster"],
            "scenario": game.get("scenario", ""),
            "gid": game.get("gid", ""),
            "base_seq": base_seq,
            "base": base,
        },
        sort_keys=True,
    )
    return hashlib.sha256(text.encode()).hexdigest()


def link(prev, seq, ev, h):
    return hashlib.sha256(
        ("%s|%d|%s|%s" % (prev, seq, json.dumps(list(ev)), h)).encode()
    ).hexdigest()


def build(game_msg, base_seq, base, events, snapshot):
    """The save dict. ``events``: iterable of (seq, ev, state hash after it), hashes of this
    fleetref's serial protocol (``proto``)."""
    game = {
        "scenario": game_msg.get("scenario", ""),
        "gid": game_msg.get("gid", ""),
        "roster": game_msg["roster"],
    }
    prev = _start(game, base_seq, base)
    rows = []
    for seq, ev, h in events:
        prev = link(prev, seq, ev, h)
        rows.append({"seq": seq, "ev": list(ev), "hash": h, "chain": prev})
    return {
        "format": "fleetref-save",
        "version": VERSION,
        "proto": PROTO_VERSION,
        "game": game,
        "base_seq": base_seq,
        "base": base,
        "events": rows,
        "count": len(rows),
        "head": prev,
        "snapshot": snapshot,
    }


def hash_note(save):
    """What a state hash that differs from the file's may mean besides a changed file: ""
    when the file was saved under this fleetref's serial protocol, else a note (with its
    leading space) that another protocol may hash the same events otherwise (protocol 9:
    swsb and swsb-addon, docs/protocol.md)."""
    p = save.get("proto")
    if p == PROTO_VERSION:
        return ""
    said = (
        "the file names no serial protocol (files of protocol 8 and older do not)"
        if p is None
        else "the file was saved under serial protocol %s" % p
    )
    return (
        " (%s, this fleetref speaks %d: a protocol may hash the same events otherwise, as 9 "
        "did for swsb and swsb-addon; docs/protocol.md)" % (said, PROTO_VERSION)
    )


def replayable(game_msg, base_seq, base, events):
    """``(base_seq, base, events)`` that replay one after another from the base, as a save
    must. A board's undo window folds its oldest events into its base state with the undos
    that came later already applied, so an undo that reached back past the base finds nothing
    to undo in a replay from it. When that undo was made nothing newer was left to undo, so
    the state just after it is the base state itself: the save starts there (the events up to
    it are no longer held in a form that replays). ``events``: list of (seq, ev, hash)."""
    if not base:
        return base_seq, base, events
    g = new_game_of({"game": game_msg})
    g.set_window(base_seq, bytes.fromhex(base), b"", b"", [])
    base_hash = g.state_hash()
    start = 0
    for i, (seq, ev, h) in enumerate(events):
        if g.submit(tuple(ev)) and ev[0] == EV_UNDO and h == base_hash:
            start = i + 1  # an undo of a folded event: the base holds its effect
            base_seq = seq
    return base_seq, base, list(events[start:])


def new_game_of(save):
    """A Game of the file's roster with the board's RAM window (so an undo costs what it costs
    there: verify stays linear). Raises SaveError naming the bad roster field."""
    try:
        norm, _ = scenarios.load_text(json.dumps(save["game"]["roster"]))
        return Game(rules.get(norm["ruleset"]), norm)
    except Exception as e:  # a roster the checks let through must still not crash the CLI
        raise SaveError("the roster in the file is bad: %s" % e)


def _int(v, lo, hi):
    return isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi


def _hex(v, n=None):
    if not isinstance(v, str) or (n is not None and len(v) != n) or len(v) % 2:
        return False
    try:
        bytes.fromhex(v)
    except ValueError:
        return False
    return True


def check_fields(save):
    """Types, lengths and ranges of every field (no rules yet). Raises SaveError."""
    if not isinstance(save, dict) or save.get("format") != "fleetref-save":
        raise SaveError("not a fleetref save file")
    if save.get("version") != VERSION:
        raise SaveError(
            "save format version %r is not supported (this fleetref reads "
            "version %d)" % (save.get("version"), VERSION)
        )
    for k in ("game", "base_seq", "base", "events", "count", "head"):
        if k not in save:
            raise SaveError("save file lacks %r" % k)
    game = save["game"]
    if not isinstance(game, dict) or not isinstance(game.get("roster"), dict):
        raise SaveError("game must be an object with a roster object")
    if not isinstance(game.get("scenario", ""), str) or not isinstance(game.get("gid", ""), str):
        raise SaveError("game.scenario and game.gid must be text")
    if not _int(save["base_seq"], 0, MAX_SEQ):
        raise SaveError("base_seq must be an integer 0..%d" % MAX_SEQ)
    if save["base"] is not None and (not _hex(save["base"]) or not save["base"]):
        raise SaveError("base must be hex text or null")
    if save["base"] is None and save["base_seq"]:
        raise SaveError("base_seq %d needs a base state" % save["base_seq"])
    if not isinstance(save["events"], list):
        raise SaveError("events must be a list")
    if not _int(save["count"], 0, MAX_SEQ) or not _hex(save["head"], 64):
        raise SaveError("count must be an integer and head 64 hex digits")
    for i, row in enumerate(save["events"]):
        where = "event record %d" % (i + 1)
        if not isinstance(row, dict):
            raise SaveError("%s is not an object" % where)
        ev = row.get("ev")
        if not _int(row.get("seq"), 1, MAX_SEQ):
            raise SaveError("%s: seq must be an integer 1..%d" % (where, MAX_SEQ))
        if not isinstance(ev, list) or len(ev) != 4 or not all(_int(x, -255, 255) for x in ev):
            raise SaveError("%s: ev must be 4 integers" % where)
        if not _hex(row.get("hash"), 8) or not _hex(row.get("chain"), 64):
            raise SaveError("%s: hash must be 8 and chain 64 hex digits" % where)
    snap = save.get("snapshot")
    if snap is not None and not isinstance(snap, dict):
        raise SaveError("snapshot must be an object")
    if "proto" in save and not _int(save["proto"], 1, 999):
        raise SaveError("proto must be an integer 1..999 (a serial protocol version)")
    if save.get("dice") is not None:
        check_dice(save["dice"])


def _boot(v):
    return v is None or _hex(v, 8)


def _need(ok, what):
    """SaveError naming the dice field ``what`` unless ``ok``."""
    if not ok:
        raise SaveError("dice: " + what)


def check_dice(dice):
    """The ``dice`` section's shape (docs/dice.md: the board's commitments, roll and reveal
    lines, as host_tools.files.dicelog.DiceLog.as_dict keeps them): SaveError naming the field.
    Whether the rolls are true is ``fleetref verify``'s question, not this one."""
    need = _need
    need(isinstance(dice, dict), "must be an object")
    need(
        dice.get("commit") is None or _hex(dice.get("commit"), 64),
        "commit must be 64 hex digits or null",
    )
    need(_int(dice.get("epoch", 0), 0, MAX_SEQ), "epoch must be an integer 0..%d" % MAX_SEQ)
    boots, commits = dice.get("boots", []), dice.get("commits", [])
    need(
        _boot(dice.get("boot")) and isinstance(boots, list) and all(_boot(b) for b in boots),
        "boot and boots must be boot ids (8 hex digits)",
    )
    need(
        isinstance(commits, list)
        and all(
            isinstance(c, dict)
            and _boot(c.get("boot"))
            and _int(c.get("ep"), 0, MAX_SEQ)
            and _hex(c.get("commit"), 64)
            for c in commits
        ),
        "commits must be a list of {boot, ep, commit}",
    )
    rolls, reveals = dice.get("rolls", []), dice.get("reveals", [])
    need(isinstance(rolls, list) and isinstance(reveals, list), "rolls and reveals must be lists")
    for i, r in enumerate(rolls):
        _check_roll("rolls[%d]" % i, r)
    for i, r in enumerate(reveals):
        _check_reveal("reveals[%d]" % i, r)


def _check_roll(w, r):
    """One roll line of the dice section (``w``: its place, as "rolls[3]"): SaveError."""
    _need(
        isinstance(r, dict) and _int(r.get("seq"), 1, MAX_SEQ),
        w + ": seq must be 1..%d" % MAX_SEQ,
    )
    _need(_boot(r.get("boot")), w + ": boot must be 8 hex digits")
    _need(
        _int(r.get("s", 0), 0, 255)
        and _int(r.get("ep", 0), 0, MAX_SEQ)
        and _int(r.get("phys", 0), 0, 1),
        w + ": s, ep and phys must be small integers",
    )
    _need(r.get("ent") is None or _hex(r.get("ent"), 8), w + ": ent must be 8 hex digits")
    d = r.get("d", [])
    _need(
        isinstance(d, list) and all(_int(x, 0, 255) for x in d),
        w + ": d must be a list of dice values",
    )


def _check_reveal(w, r):
    """One reveal line of the dice section (``w``: its place, as "reveals[0]"): SaveError."""
    _need(
        isinstance(r, dict) and _int(r.get("ep"), 0, MAX_SEQ) and _boot(r.get("boot")),
        w + ": ep must be an integer 0..%d and boot 8 hex digits" % MAX_SEQ,
    )
    _need(
        all(r.get(k) is None or _hex(r.get(k), 64) for k in ("commit", "secret", "next")),
        w + ": commit, secret and next must be 64 hex digits or null",
    )
    _need(r.get("seq") is None or _int(r.get("seq"), 0, MAX_SEQ), w + ": seq must be an integer")


def end_problem(n, count, head, chain, last):
    """Why a save file's events do not end as its ``count`` and ``head`` say (None when they
    do): ``n`` events read, the hash chain ``chain`` after the last of them (event ``last``)."""
    if count != n:
        return "truncated: %d of %d events, the file ends after event %d" % (n, count, last)
    if head != chain:
        return (
            "the head does not match the hash chain after event %d (the head or the "
            "events and their count were changed)" % last
        )
    return None


def verify(save):
    """Check a save dict: every field, the chain, truncation, and a replay of every event
    through the rules core. Returns the replayed Game. Raises SaveError saying where the file
    breaks."""
    check_fields(save)
    game, base_seq, base = save["game"], save["base_seq"], save["base"]
    rows, count, head = save["events"], save["count"], save["head"]
    prev = _start(game, base_seq, base)
    want = base_seq + 1
    for row in rows:
        seq = row["seq"]
        if seq != want:
            raise SaveError(
                "breaks at event %d: expected event %d (events missing or reordered)" % (seq, want)
            )
        prev = link(prev, seq, row["ev"], row["hash"])
        if row["chain"] != prev:
            raise SaveError(
                "breaks at event %d: hash chain does not match (the file was changed there)" % seq
            )
        want += 1
    last = rows[-1]["seq"] if rows else base_seq
    why = end_problem(len(rows), count, head, prev, last)
    if why:
        raise SaveError(why)
    g = new_game_of(save)
    if base:
        try:
            g.set_window(base_seq, bytes.fromhex(base), b"", b"", [])
        except (ValueError, IndexError) as e:
            raise SaveError("the base state does not fit the roster: %s" % e)
    for row in rows:
        r = g.submit(tuple(row["ev"]))
        if r:
            raise SaveError("breaks at event %d: the rules refuse it (%s)" % (row["seq"], r))
        if g.state_hash() != row["hash"]:
            raise SaveError(
                "breaks at event %d: state hash %s, the file says %s%s"
                % (row["seq"], g.state_hash(), row["hash"], hash_note(save))
            )
    why = snapshot_problem(save, g)
    if why:
        raise SaveError(why)
    return g


def snapshot_problem(save, g):
    """Why the file's ``snapshot`` (a copy for reading the file) does not say what the log
    gives when replayed to Game ``g``, field by field; None when it does or has none."""
    snap = save.get("snapshot") or {}
    if snap.get("state_hash") not in (None, g.state_hash()):
        return "the snapshot's state_hash does not match the replayed log"
    if snap:
        mine = json.loads(json.dumps(g.snapshot()))
        for k in sorted(set(mine) | set(snap)):
            if snap.get(k) != mine.get(k):
                return (
                    "the snapshot's %r does not match the replayed log (the file was "
                    "changed there)" % k
                )
    return None


def load_file(path):
    from host_tools import userfiles

    try:
        data = json.loads(userfiles.read_text(path))
    except OSError as e:
        raise SaveError("cannot read %s: %s" % (path, e.strerror or e))
    except userfiles.FileRefused as e:
        raise SaveError(str(e))
    except UnicodeDecodeError:
        raise SaveError("%s is not a text file" % path)
    except (ValueError, RecursionError) as e:
        raise SaveError("%s is not JSON (truncated?): %s" % (path, e))
    return data


def write_file(path, data):
    """Write save dict ``data`` to ``path``. Raises SaveError (missing folder, no space...)."""
    try:
        with open(path, "w") as f:
            json.dump(data, f, indent=0)
    except OSError as e:
        raise SaveError("cannot write %s: %s" % (path, e.strerror or e))
