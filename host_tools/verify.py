"""Check every board roll of a saved game against the board's revealed secrets.

``fleetref verify GAME.json`` (a file written by ``fleetref save``) recomputes each board roll
from the secret the board revealed, the event's sequence number and the entropy recorded with
the roll (firmware/referee/dice.py ``derive``, the board's own function), checks that each
revealed secret hashes to the commitment the board published before its rolls, and names
every roll that does not match, every board roll with no record and every roll whose secret is
not revealed yet. Exit status 0 when every board roll verified, 1 when one did not, 2 when the
file cannot be read. docs/dice.md has the construction and its limits.
"""

import hashlib
import json
import sys

from referee import rules as profiles, scenarios
from referee.dice import derive
from referee.events import EV_INIT
from referee.game import Game


class DiceLog:
    """The dice record a host keeps of a board's game: the commitment of the ``game`` line,
    ``roll`` lines (by seq) and ``reveal`` lines (by epoch). JSON-ready via :meth:`as_dict`."""

    def __init__(self):
        self.commit = None
        self.rolls = {}
        self.reveals = {}
        self.gid = None
        self.epoch = 0
        self.last = None          # the live check after the newest reveal (verify_game's)

    def game(self, msg):
        """A ``game`` line: a new game (its first commitment)."""
        self.__init__()
        self.gid = msg.get("gid")
        self.commit = msg.get("commit")
        self.epoch = msg.get("epoch") or 0

    def take(self, msg):
        """A ``roll``, ``reveal`` or ``dice-end`` line from the board; returns the check of
        the epoch a reveal closed (a :func:`check_epoch` list), else None."""
        t = msg.get("t")
        if t == "roll" and isinstance(msg.get("seq"), int):
            self.rolls[msg["seq"]] = {k: msg[k] for k in ("ep", "ent", "s", "d", "phys")
                                      if k in msg}
        elif t == "reveal" and isinstance(msg.get("ep"), int):
            if msg.get("gid") not in (None, self.gid):
                return None
            self.reveals[msg["ep"]] = {k: msg.get(k) for k in ("commit", "secret", "seq",
                                                               "next")}
            if self.epoch == msg["ep"]:
                self.commit = msg.get("next")         # the board committed anew
                self.epoch = msg["ep"] + 1
        return None

    def check_live(self, roster, events):
        """Verify the rolls of the replica's events (list of (seq, ev) from event 1) now; the
        result is kept in ``last`` and returned."""
        self.last = verify_game(roster, events, self.as_dict())
        return self.last

    def view(self):
        """What the mirror and web views show (dict): ``commit`` (the current commitment),
        ``epoch``, ``rolls`` (records held), ``revealed`` (epochs), ``verified`` / ``bad`` (the
        last live check, or None before a reveal)."""
        last = self.last
        return {"commit": self.commit, "epoch": self.epoch, "rolls": len(self.rolls),
                "revealed": len(self.reveals),
                "verified": None if last is None else len(last["ok"]),
                "bad": None if last is None else last["bad"] + last["problems"]}

    def as_dict(self):
        return {"commit": self.commit, "epoch": self.epoch,
                "rolls": [dict(seq=s, **self.rolls[s]) for s in sorted(self.rolls)],
                "reveals": [dict(ep=e, **self.reveals[e]) for e in sorted(self.reveals)]}


def check_commitments(dice):
    """Problems (list of str) with the chain of commitments: each revealed secret must hash to
    its epoch's commitment, the epoch the ``game`` line named (``epoch``) must have the
    commitment it published (``commit``), and each reveal's ``next`` must be the following
    epoch's commitment. Also returns {epoch: secret bytes} of the secrets that check."""
    problems = []
    secrets = {}
    reveals = {r["ep"]: r for r in dice.get("reveals") or []}
    want = dice.get("commit")
    wep = dice.get("epoch") or 0
    if want and wep - 1 in reveals and reveals[wep - 1].get("next") != want:
        problems.append("epoch %d: the game line published commitment %s, the reveal before "
                        "it announced %s" % (wep, want, reveals[wep - 1].get("next")))
    for ep in sorted(reveals):
        r = reveals[ep]
        if ep == wep and want and r.get("commit") != want:
            problems.append("epoch %d: the reveal names commitment %s, the game line published "
                            "%s" % (ep, r.get("commit"), want))
        prev = reveals.get(ep - 1)
        if prev is not None and prev.get("next") != r.get("commit"):
            problems.append("epoch %d: commitment %s is not the one announced at the previous "
                            "reveal (%s)" % (ep, r.get("commit"), prev.get("next")))
        try:
            secret = bytes.fromhex(r.get("secret") or "")
        except ValueError:
            problems.append("epoch %d: the secret is not hex" % ep)
            continue
        if hashlib.sha256(secret).hexdigest() != r.get("commit"):
            problems.append("epoch %d: the revealed secret does not hash to its commitment %s"
                            % (ep, r.get("commit")))
            continue
        secrets[ep] = secret
    return problems, secrets


def verify_game(roster, events, dice):
    """Check the rolls of one game. ``roster``: the game's roster (dict, as in the ``game``
    line); ``events``: list of (seq, [kind, a, b, c]) from the first event; ``dice``: a
    :meth:`DiceLog.as_dict`. Returns a dict: ``ok`` (verified board rolls, list of seqs),
    ``bad`` (list of str naming each roll that does not match), ``unrevealed`` (seqs whose
    secret is not revealed yet), ``unrecorded`` (seqs of initiatives marked as the board's
    dice with no roll record: the board keeps its records in RAM, so a restart or power cut
    loses those not yet saved or mirrored; they cannot be checked either way, docs/dice.md
    "Power cuts"), ``physical`` (seqs of physical rolls), ``problems`` (the commitment
    chain's)."""
    norm, _raw = scenarios.load_text(json.dumps(roster))
    g = Game(profiles.get(norm["ruleset"]), norm, window=1 << 20)
    rolls = {r["seq"]: r for r in dice.get("rolls") or []}
    problems, secrets = check_commitments(dice)
    ok, bad, unrevealed, physical, unrecorded = [], [], [], [], []
    seen = set()
    for seq, ev in events:
        ev = tuple(ev)
        r = g.submit(ev)
        if r:
            bad.append("event %d %r does not replay: %s" % (seq, list(ev), r))
            break
        rec = rolls.get(seq)
        if rec is None:
            if ev[0] == EV_INIT and ev[3] == 0:
                unrecorded.append(seq)
            continue
        seen.add(seq)
        faces, draws = rec.get("s"), rec.get("d") or []
        if not g.profile.roll_matches(g, ev, faces, draws):
            bad.append("event %d %r: shows other dice than the %s roll recorded for it (%s)"
                       % (seq, list(ev), "physical" if rec.get("phys") else "board", draws))
            continue
        if rec.get("phys"):
            if ev[0] == EV_INIT and ev[3] == 0:
                bad.append("event %d: a physical roll marked as the board's dice" % seq)
            else:
                physical.append(seq)
            continue
        if ev[0] == EV_INIT and ev[3] != 0:
            bad.append("event %d: a board roll marked as physical dice" % seq)
            continue
        secret = secrets.get(rec.get("ep"))
        if secret is None:
            unrevealed.append(seq)
            continue
        try:
            ent = int(rec.get("ent"), 16)
            again = derive(secret, seq, ent, faces, len(draws))
        except (TypeError, ValueError):
            bad.append("event %d: the roll record is malformed" % seq)
            continue
        if again != draws:
            bad.append("event %d %r: the board rolled %s but secret %d, seq %d and entropy %s "
                       "give %s" % (seq, list(ev), draws, rec.get("ep"), seq, rec.get("ent"),
                                    again))
        else:
            ok.append(seq)
    for s in sorted(set(rolls) - seen):
        if not any(seq == s for seq, _ in events):
            bad.append("roll record for event %d, which is not in the log" % s)
    return {"ok": ok, "bad": bad, "unrevealed": unrevealed, "physical": physical,
            "problems": problems, "unrecorded": unrecorded}


def verify_file(path):
    """:func:`verify_game` of the save file at ``path``. Raises ValueError / OSError."""
    from host_tools import savefile
    data = savefile.load_file(path)
    savefile.verify(data)
    if data.get("base_seq"):
        raise ValueError("this file starts at event %d: rolls before it cannot be checked"
                         % data["base_seq"])
    dice = data.get("dice")
    if not isinstance(dice, dict):
        raise ValueError("this file has no dice record (saved by a board or host before "
                         "protocol 6, or from seeded test dice)")
    events = [(e["seq"], e["ev"]) for e in data["events"]]
    return verify_game(data["game"]["roster"], events, dice)


def report(res):
    """Lines saying what :func:`verify_game` found."""
    out = ["%d board rolls verified, %d physical rolls, %d not yet revealed"
           % (len(res["ok"]), len(res["physical"]), len(res["unrevealed"]))]
    for p in res["problems"]:
        out.append("COMMITMENT: " + p)
    for b in res["bad"]:
        out.append("MISMATCH: " + b)
    if res["unrevealed"]:
        out.append("not revealed yet (reveal on the board, then save again): events %s"
                   % ", ".join(str(s) for s in res["unrevealed"]))
    if res["unrecorded"]:
        out.append("CANNOT BE CHECKED: initiative marked as the board's dice with no roll "
                   "record (the board keeps them in RAM: lost in a restart or power cut "
                   "unless a mirror was connected or the game saved before): events %s"
                   % ", ".join(str(s) for s in res["unrecorded"]))
    if res["bad"] or res["problems"]:
        out.append("FAILED")
    elif res["unrecorded"]:
        out.append("the board rolls with a record match; %d cannot be checked"
                   % len(res["unrecorded"]))
    else:
        out.append("all board rolls match")
    return out


def add_arguments(p):
    p.add_argument("game", help="a saved game (fleetref save)")


def main(args):
    try:
        res = verify_file(args.game)
    except (OSError, ValueError) as e:
        print("fleetref verify: %s" % e, file=sys.stderr)
        return 2
    for line in report(res):
        print(line)
    return 1 if (res["bad"] or res["problems"]) else 0
