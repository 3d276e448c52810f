"""The dice record a host keeps of a board's game (docs/dice.md): the commitments the board
published, its ``roll`` records and its ``reveal`` lines, across the board's restarts.

A board keeps its secret and its roll records in RAM, so a restart (a reset, a power cut)
loses them and the board starts again at epoch 0 with a new secret, under a new ``boot`` id
(protocol 8: in ``hello``, ``game``, ``roll``, ``reveal`` and ``dice-end``). Epochs are
therefore named by (boot, epoch), never by the epoch alone; a board roll whose epoch was not
revealed before its boot ended cannot be checked (its secret is gone). Lines of a board before
protocol 8 carry no boot: they all belong to one boot named None.

:class:`DiceLog` takes the board's lines; :meth:`DiceLog.as_dict` is the JSON form a save
file and a mirror log keep (``fleetref verify``, ``dicestats`` and ``report`` read it).
"""

ROLL_KEYS = ("boot", "ep", "ent", "s", "d", "phys")
REVEAL_KEYS = ("commit", "secret", "seq", "next")


def epoch_name(boot, ep, several=True):
    """How an epoch is named in a message: ``epoch 2``, or ``epoch 2 of boot 1a2b3c4d`` when
    the game ran on more than one boot."""
    return (
        "epoch %d of boot %s" % (ep, boot) if (boot is not None and several) else "epoch %d" % ep
    )


def revealed_keys(dice):
    """The (boot, epoch) of every reveal in ``dice`` (a :meth:`DiceLog.as_dict`)."""
    return {(r.get("boot"), r.get("ep")) for r in dice.get("reveals") or []}


def secret_lost(dice, rec, revealed=None):
    """True when roll record ``rec`` (a board roll of ``dice``) was made under a secret that a
    restart lost: its boot is not the board's current one and its epoch was never revealed.
    ``revealed``: :func:`revealed_keys` of ``dice`` (computed when None)."""
    if rec.get("phys"):
        return False
    boot = rec.get("boot")
    if boot is None or boot == dice.get("boot"):
        return False
    if revealed is None:
        revealed = revealed_keys(dice)
    return (boot, rec.get("ep")) not in revealed


def _id(v):
    return v is None or isinstance(v, str)


def _num(v):
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


class DiceLog:
    """The host's dice record of one game: ``gid``; ``boot`` (the board's current boot, None
    before protocol 8), ``boots`` (every boot seen in this game, oldest first), ``commit`` and
    ``epoch`` (the current commitment and its epoch), ``published`` (list of [boot, epoch,
    commitment] the board published in ``game``, ``hello`` and ``dice-end`` lines),
    ``rolls`` (seq -> record), ``reveals`` ((boot, epoch) -> reveal), ``last`` (the newest
    live check, see host_tools/files/verify.py's ``check_live``). JSON-ready via :meth:`as_dict`."""

    def __init__(self):
        self.gid = None
        self.boot = None
        self.boots = []
        self.commit = None
        self.epoch = 0
        self.published = []
        self.rolls = {}
        self.reveals = {}
        self.last = None
        self._notes = []

    def game(self, msg):
        """A ``game`` line: a new game (its first commitment), or the game held again (a
        resync: the record stays)."""
        if msg.get("gid") is None or msg.get("gid") != self.gid:
            self.__init__()
            self.gid = msg.get("gid")
        if (
            _id(msg.get("boot"))
            and _num(msg.get("epoch") or 0)
            and isinstance(msg.get("commit"), str)
        ):
            self._published(msg.get("boot"), msg.get("epoch") or 0, msg.get("commit"))

    def take(self, msg):
        """A ``roll``, ``reveal``, ``dice-end`` or ``hello`` line from the board. Returns the
        command (str) the host should send to learn what it lacks, else None: ``hello`` when
        a roll came from a boot whose commitment it has not seen, ``dice`` when the board
        revealed while the host was away (its reveal lines are sent again on ``dice``)."""
        t = msg.get("t")
        if not (
            _id(msg.get("boot"))
            and _id(msg.get("gid"))
            and _num(msg.get("ep", 0))
            and _num(msg.get("epoch", 0))
        ):
            return None  # not a line a board sends: ignored
        if t == "roll" and isinstance(msg.get("seq"), int):
            self.rolls[msg["seq"]] = {k: msg[k] for k in ROLL_KEYS if k in msg}
            if not msg.get("phys") and self._seen(msg.get("boot")):
                self.commit, self.epoch = None, msg.get("ep") or 0
                return "hello"
        elif t == "reveal" and isinstance(msg.get("ep"), int):
            if msg.get("gid") not in (None, self.gid):
                return None
            boot, ep = msg.get("boot"), msg["ep"]
            self._seen(boot)
            self.reveals[(boot, ep)] = {k: msg.get(k) for k in REVEAL_KEYS}
            if boot == self.boot and ep >= self.epoch:
                self.commit = msg.get("next")  # the board committed anew
                self.epoch = ep + 1
        elif t in ("hello", "dice-end") and msg.get("commit"):
            if self.gid is None or msg.get("gid") != self.gid:
                return None  # another game: its game line follows
            ep = msg.get("epoch", msg.get("ep")) or 0
            self._published(msg.get("boot"), ep, msg["commit"])
            if t == "hello":
                return self.missing()
        return None

    def missing(self):
        """``dice`` when the board revealed epochs of its current boot that this record lacks
        (the host was away), else None."""
        if self.epoch and self.commit and (self.boot, self.epoch - 1) not in self.reveals:
            return "dice"
        return None

    def _seen(self, boot):
        # note a line from ``boot``; True when it is a boot not seen before in this game
        if boot is None or boot in self.boots:
            return False
        self.boots.append(boot)
        self.boot = boot
        if len(self.boots) > 1:
            lost = self.lost()
            self._notes.append(
                "the board restarted (boot %s)%s"
                % (
                    boot,
                    ": it had not revealed the secret of the rolls of events %s, so they "
                    "CANNOT BE CHECKED" % ", ".join(str(s) for s in lost)
                    if lost
                    else "; it had revealed every roll before",
                )
            )
        return True

    def _published(self, boot, ep, commit):
        if not commit:
            return
        new = self._seen(boot)
        if [boot, ep, commit] not in self.published:
            self.published.append([boot, ep, commit])
        if new or (boot == self.boot and (ep >= self.epoch or self.commit is None)):
            self.commit, self.epoch = commit, ep

    def notes(self):
        """What happened to the record since the last call (list of str: a restart and the
        rolls it made uncheckable), for the host to say."""
        out, self._notes = self._notes, []
        return out

    def lost(self):
        """Seqs of board rolls whose secret a restart lost (never revealed, boot ended)."""
        d = self.as_dict(False)
        rev = revealed_keys(d)
        return sorted(s for s, r in self.rolls.items() if secret_lost(d, r, rev))

    def view(self):
        """What the mirror and web views show (dict): ``commit`` (the current commitment),
        ``epoch``, ``boot``, ``restarts`` (boots after the first), ``rolls`` (records held),
        ``revealed`` (epochs), ``verified`` / ``bad`` (the last live check, or None before a
        reveal), ``unchecked`` (rolls that cannot be checked: their secret lost in a restart,
        or, at the last live check, no record)."""
        last = self.last
        unchecked = set(self.lost())
        if last is not None:
            unchecked.update(last["unrecorded"] + last.get("lost", []))
        return {
            "commit": self.commit,
            "epoch": self.epoch,
            "boot": self.boot,
            "restarts": max(0, len(self.boots) - 1),
            "rolls": len(self.rolls),
            "revealed": len(self.reveals),
            "verified": None if last is None else len(last["ok"]),
            "bad": None if last is None else last["bad"] + last["problems"],
            "unchecked": len(unchecked),
        }

    def as_dict(self, rolls=True):
        """The record as JSON-ready data: ``commit``, ``epoch``, ``boot``, ``boots``,
        ``commits`` ([{boot, ep, commit}] published), ``rolls`` ([{seq, ...}], by seq) and
        ``reveals`` ([{ep, boot, commit, secret, seq, next}]); a boot of None is left out."""

        def rev(key):
            b, e = key
            out = {"ep": e}
            if b is not None:
                out["boot"] = b
            out.update(self.reveals[key])
            return out

        d = {
            "commit": self.commit,
            "epoch": self.epoch,
            "commits": [
                dict(ep=e, commit=c, **({"boot": b} if b is not None else {}))
                for b, e, c in self.published
            ],
            "reveals": [rev(k) for k in sorted(self.reveals, key=self._order)],
        }
        if self.boots:
            d["boot"], d["boots"] = self.boot, list(self.boots)
        d["rolls"] = [dict(seq=s, **self.rolls[s]) for s in sorted(self.rolls)] if rolls else []
        return d

    def _order(self, key):
        b, e = key
        return (self.boots.index(b) if b in self.boots else -1, e)
