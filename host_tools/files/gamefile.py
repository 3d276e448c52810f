"""A saved game read back for the battle report and the replay: a ``fleetref save`` file, or a
``fleetref mirror --log`` file (JSON lines), walked event by event through the rules core.

- :func:`load` reads either kind and returns a save dict (host_tools/files/savefile.py's format; a
  mirror log's last game is turned into one, its chain made from the hashes it holds, so the
  replay through the rules still checks every hash). Raises savefile.SaveError.
- :class:`Walk` applies the events one at a time to a Game of the file's roster and checks each
  (sequence number, hash chain, the rules accept it, the state hash after it); a check that
  fails raises :class:`Broken` saying where (seq, round, phase). Each step returns the event's
  record (:func:`Walk.step`), the same dict the web view shows (host_tools/views/webfeed.py) with a
  few more fields.

Nothing here decides a rule: the texts are the firmware's (referee/texts.py), the round, phase,
damage and initiative are read from the Game after each event.
"""

import json

from host_tools import userfiles
from host_tools.files import savefile
from host_tools.files.savefile import SaveError
from host_tools.views.webfeed import sentence
from referee.events import EV_UNDO, NONE
from referee.texts import event_text, undone_seq, outcome, consequences, with_consequences

BIG_WINDOW = 1 << 20  # every event stays in RAM: undo texts name what they took back


class Broken(Exception):
    """The file breaks at event ``seq``: the game stood at ``round`` / ``phase`` (before that
    event) and ``why`` says what failed."""

    def __init__(self, seq, round_, phase, why):
        Exception.__init__(
            self, "breaks at event %d (round %d, %s phase): %s" % (seq, round_, phase, why)
        )
        self.seq = seq
        self.round = round_
        self.phase = phase
        self.why = why


def _read_text(path):
    """The text of the file at ``path`` (a regular file of at most userfiles.MAX_BYTES).
    Raises SaveError."""
    try:
        return userfiles.read_text(path)
    except OSError as e:
        raise SaveError("cannot read %s: %s" % (path, e.strerror or e))
    except UnicodeDecodeError:
        raise SaveError("%s is not a text file" % path)
    except userfiles.FileRefused as e:
        raise SaveError(str(e))


def from_mirror_log(lines):
    """A save dict of the last game in the mirror log ``lines`` (list of str: a ``{"game"}``
    line, then ``{"seq", "ev", "hash", ...}`` lines and ``{"dice"}`` lines: the board's
    ``roll``, ``reveal``, ``hello`` and ``dice-end`` lines, kept as the save's ``dice`` record,
    host_tools/files/dicelog.py). A line torn by a crash is skipped only when it is the last. Raises
    SaveError."""
    from host_tools.files.dicelog import DiceLog

    rows, game, dice = [], None, DiceLog()
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError:
            if n == len(lines):
                break
            raise SaveError("line %d of the mirror log is not JSON" % n)
        if not isinstance(row, dict):
            raise SaveError("line %d of the mirror log is not an object" % n)
        if "game" in row:
            game, rows = row["game"], []
            if isinstance(game, dict):
                dice.game(game)  # the same game again (a resync) keeps its record
        elif "dice" in row:
            if isinstance(row["dice"], dict):
                dice.take(row["dice"])
        elif "ev" in row:
            if game is None:
                raise SaveError("the mirror log has an event before its game line")
            rows.append(row)
    if not isinstance(game, dict) or not isinstance(game.get("roster"), dict):
        raise SaveError("the mirror log has no game line with a roster")
    out = []
    for i, r in enumerate(rows):
        if r.get("seq") != i + 1:
            raise SaveError(
                "the mirror log's events start at event %r or skip one near event "
                "%d (the mirror joined late or lost a line): no full log to replay"
                % (rows[0].get("seq"), i + 1)
            )
        out.append((r["seq"], r["ev"], r.get("hash") or r.get("board_hash") or ""))
    data = savefile.build(game, 0, None, out, None)
    del data["proto"]  # the log's hashes are the board's: the log names no protocol
    data["source"] = "mirror log"
    if game.get("commit"):  # committed board dice (docs/dice.md)
        data["dice"] = dice.as_dict()
    return data


def load(path):
    """The save dict of ``path`` (a save file or a mirror log), fields checked (not yet
    replayed: see :func:`Walk` and savefile.verify). Raises SaveError."""
    text = _read_text(path)
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as e:
        first = text.lstrip().split("\n", 1)[0]
        try:
            head = json.loads(first)
        except (ValueError, RecursionError):
            head = None
        if not (isinstance(head, dict) and "game" in head):
            raise SaveError("%s is not JSON (truncated?): %s" % (path, e))
        data = from_mirror_log(text.splitlines())
    else:
        if isinstance(data, dict) and "game" in data and "format" not in data:
            data = from_mirror_log(text.splitlines())  # a log of one line
    savefile.check_fields(data)
    return data


def start_game(save):
    """A Game of the file's roster standing at its base state (event ``base_seq``), every
    event kept in RAM. Raises SaveError."""
    g = savefile.new_game_of(save)
    g.window_size = BIG_WINDOW
    if save["base"]:
        try:
            g.set_window(save["base_seq"], bytes.fromhex(save["base"]), b"", b"", [])
        except (ValueError, IndexError) as e:
            raise SaveError("the base state does not fit the roster: %s" % e)
    return g


def initiative_of(g):
    return None if g.init == NONE else g.init


class Walk:
    """Steps through the events of save dict ``data`` (fields checked) with the rules core.

    ``game``: the Game as it stands; ``pos``: events applied; ``step()`` applies the next one
    and returns its record, a dict::

        {"seq", "ev", "hash" (state hash after it), "board_hash": None, "text" (a sentence),
         "round", "phase" (as the game stands after it), "undone" (seq an undo took back, or
         None), "initiative" (side holding it after, or None), "damage" (list per ship),
         "pending" (list per ship)}

    or None once every event is applied. Raises Broken at the first event that fails a check,
    and at the end when the file is truncated (count or head do not match)."""

    def __init__(self, data):
        self.data = data
        self.rows = data["events"]
        self.game = start_game(data)
        self.prev = savefile._start(data["game"], data["base_seq"], data["base"])
        self.pos = 0

    def _broken(self, seq, why):
        g = self.game
        return Broken(seq, g.round, g.phase_name(), why)

    def step(self):
        rows, g = self.rows, self.game
        if self.pos >= len(rows):
            why = savefile.end_problem(
                len(rows), self.data["count"], self.data["head"], self.prev, g.seq
            )
            if why:
                raise self._broken(g.seq + 1, why)
            return None
        row = rows[self.pos]
        seq, ev = row["seq"], tuple(row["ev"])
        if seq != g.seq + 1:
            raise self._broken(
                seq, "expected event %d (events missing or reordered)" % (g.seq + 1)
            )
        link = savefile.link(self.prev, seq, row["ev"], row["hash"])
        if row["chain"] != link:
            raise self._broken(seq, "the hash chain does not match (the file was changed there)")
        before = self._broken(seq, "")  # where the game stood before the event
        decided = outcome(g)  # what it had decided (texts.consequences)
        r = g.submit(ev)
        if r:
            raise self._broken(seq, "the rules refuse it (%s)" % r)
        h = g.state_hash()
        if h != row["hash"]:
            raise Broken(
                seq,
                before.round,
                before.phase,
                "state hash %s after it, the file says %s%s"
                % (h, row["hash"], savefile.hash_note(self.data)),
            )
        self.prev = link
        self.pos += 1
        return self.record(seq, ev, h, decided, before.round)

    def record(self, seq, ev, h, decided=None, played=None):
        """The record of event ``seq`` just applied; ``decided``: texts.outcome before it
        (its text then adds what it decided: a ship destroyed, a side winning; ``outcome``
        holds that part alone, ``won`` the side it made the winner); ``played``: the round
        the event was played in (``played_round``: the round before it, so the end of a
        round, with the damage that lands then, counts in the round it ends)."""
        g = self.game
        text = with_consequences(event_text(g, ev, seq, True), decided, g, ev)
        more = consequences(decided, g, ev) if decided is not None else ""
        w = g.winner()
        return {
            "seq": seq,
            "ev": list(ev),
            "hash": h,
            "board_hash": None,
            "text": sentence(text),
            "round": g.round,
            "phase": g.phase_name(),
            "played_round": g.round if played is None else played,
            "outcome": sentence(more) if more else None,
            "won": w if w is not None and decided is not None and decided[3] != w else None,
            "undone": undone_seq(g, seq) if ev[0] == EV_UNDO else None,
            "initiative": initiative_of(g),
            "damage": list(g.dmg),
            "pending": list(g.pending),
        }

    def run(self):
        """Every remaining record (list); raises Broken as :meth:`step`."""
        out = []
        while True:
            r = self.step()
            if r is None:
                return out
            out.append(r)
