"""Check every board roll of a saved game against the board's revealed secrets.

``fleetref verify GAME.json`` (a file written by ``fleetref save``, or a ``fleetref mirror
--log`` file) recomputes each board roll from the secret the board revealed, the event's
sequence number and the entropy recorded with the roll (firmware/referee/dice.py ``derive``,
the board's own function), checks that each revealed secret hashes to the commitment the board
published before its rolls, and names every roll that does not match, every roll whose secret
is not revealed yet, and every roll that cannot be checked: no record, or a secret the board
lost in a restart before revealing it (host_tools/files/dicelog.py). Exit status 0 when every board
roll with a record verified, 1 when one did not, 2 when the file cannot be read. docs/dice.md
has the construction and its limits.
"""

import hashlib
import json
import sys

from host_tools.files.dicelog import DiceLog, epoch_name  # noqa: F401  (DiceLog: the host's record)
from referee import rules, scenarios
from referee.dice import derive
from referee.events import EV_INIT
from referee.game import Game

COMMAND = "verify"  # fleetref verify; SUMMARY: its line in fleetref --help (cli.py)
SUMMARY = "recompute every board roll of a saved game from the revealed secrets"


def published_commitments(dice):
    """The commitments the board published in ``dice`` (a DiceLog.as_dict): list of (boot,
    epoch, commitment); a record before the boot ids has only its ``commit`` and ``epoch``."""
    out = [
        (c.get("boot"), c.get("ep") or 0, c.get("commit"))
        for c in dice.get("commits") or []
        if isinstance(c, dict) and c.get("commit")
    ]
    if dice.get("commit"):
        now = (dice.get("boot"), dice.get("epoch") or 0, dice["commit"])
        if now not in out:
            out.append(now)
    return out


def check_commitments(dice):
    """Problems (list of str) with the chains of commitments, one chain per boot of the board:
    each revealed secret must hash to its epoch's commitment, each commitment the board
    published (``game``, ``hello``, ``dice-end``) must be the one its epoch's reveal names and
    the one the reveal before announced, each reveal's ``next`` must be the following epoch's
    commitment, and an epoch has one commitment. Also returns {(boot, epoch): secret bytes} of
    the secrets that check."""
    problems = []
    secrets = {}
    reveals = {(r.get("boot"), r["ep"]): r for r in dice.get("reveals") or []}
    several = len(dice.get("boots") or []) > 1
    seen = {}
    for boot, ep, c in published_commitments(dice):
        name = epoch_name(boot, ep, several)
        if seen.setdefault((boot, ep), c) != c:
            problems.append(
                "%s: the board published two commitments, %s and %s" % (name, seen[(boot, ep)], c)
            )
        prev, r = reveals.get((boot, ep - 1)), reveals.get((boot, ep))
        if prev is not None and prev.get("next") != c:
            problems.append(
                "%s: the board published commitment %s, the reveal before it "
                "announced %s" % (name, c, prev.get("next"))
            )
        if r is not None and r.get("commit") != c:
            problems.append(
                "%s: the reveal names commitment %s, the board published %s"
                % (name, r.get("commit"), c)
            )
    for key in sorted(reveals, key=lambda k: (str(k[0]), k[1])):
        boot, ep = key
        name = epoch_name(boot, ep, several)
        r = reveals[key]
        prev = reveals.get((boot, ep - 1))
        if prev is not None and prev.get("next") != r.get("commit"):
            problems.append(
                "%s: commitment %s is not the one announced at the previous "
                "reveal (%s)" % (name, r.get("commit"), prev.get("next"))
            )
        try:
            secret = bytes.fromhex(r.get("secret") or "")
        except ValueError:
            problems.append("%s: the secret is not hex" % name)
            continue
        if hashlib.sha256(secret).hexdigest() != r.get("commit"):
            problems.append(
                "%s: the revealed secret does not hash to its commitment %s"
                % (name, r.get("commit"))
            )
            continue
        secrets[key] = secret
    return problems, secrets


def took_dice(g, ev):
    """True when event ``ev`` (just applied to Game ``g``) took dice: no roll of none matches
    it (the rulesets' ``roll_matches``: an initiative, an attack, an Ion Cannon shot, an
    overlap that rolls attack dice)."""
    return not g.rules.roll_matches(g, ev, 8, [])


def verify_game(roster, events, dice):
    """Check the rolls of one game. ``roster``: the game's roster (dict, as in the ``game``
    line); ``events``: list of (seq, [kind, a, b, c]) from the first event; ``dice``: a
    :meth:`DiceLog.as_dict`. Returns a dict: ``ok`` (verified board rolls, list of seqs),
    ``bad`` (list of str naming each roll that does not match), ``unrevealed`` (seqs whose
    secret is not revealed yet), ``physical`` (seqs of physical rolls: initiative marked as
    physical dice, and rolls recorded as physical), ``problems`` (the commitment chains'), and
    the rolls that CANNOT BE CHECKED either way (docs/dice.md "Power cuts"): ``unrecorded``
    (seqs of events that took dice, of any kind, with no roll record and not marked physical:
    the board keeps its records in RAM, so a restart loses those no mirror received and no
    save kept) and ``lost`` (seqs of board rolls with a record whose secret the board never
    revealed before a restart lost it)."""
    norm, _raw = scenarios.load_text(json.dumps(roster))
    g = Game(rules.get(norm["ruleset"]), norm, window=1 << 20)
    rolls = {r["seq"]: r for r in dice.get("rolls") or []}
    problems, secrets = check_commitments(dice)
    cur = dice.get("boot")
    res = {
        "ok": [],
        "bad": [],
        "unrevealed": [],
        "physical": [],
        "problems": problems,
        "unrecorded": [],
        "lost": [],
    }
    bad = res["bad"]
    seen = set()
    for seq, ev in events:
        ev = tuple(ev)
        r = g.submit(ev)
        if r:
            bad.append("event %d %r does not replay: %s" % (seq, list(ev), r))
            break
        rec = rolls.get(seq)
        if rec is None:
            if ev[0] == EV_INIT and ev[3] != 0:
                res["physical"].append(seq)
            elif took_dice(g, ev):
                res["unrecorded"].append(seq)
            continue
        seen.add(seq)
        why = _check_roll(g, seq, ev, rec, secrets, cur)
        if why in res:
            res[why].append(seq)
        else:
            bad.append(why)
    for s in sorted(set(rolls) - seen):
        if not any(seq == s for seq, _ in events):
            bad.append("roll record for event %d, which is not in the log" % s)
    return res


def check_live(dicelog, roster, events):
    """Verify now the rolls of the replica's events (list of (seq, ev) from event 1) against
    the DiceLog ``dicelog``; the result (:func:`verify_game`) is kept in its ``last`` (what
    its view shows) and returned."""
    result = verify_game(roster, events, dicelog.as_dict())
    dicelog.last = result
    return result


def _check_roll(g, seq, ev, rec, secrets, cur):
    # one roll with a record: "ok", "physical", "unrevealed", "lost" or what is wrong (str)
    faces, draws = rec.get("s"), rec.get("d") or []
    if not g.rules.roll_matches(g, ev, faces, draws):
        return "event %d %r: shows other dice than the %s roll recorded for it (%s)" % (
            seq,
            list(ev),
            "physical" if rec.get("phys") else "board",
            draws,
        )
    if rec.get("phys"):
        if ev[0] == EV_INIT and ev[3] == 0:
            return "event %d: a physical roll marked as the board's dice" % seq
        return "physical"
    if ev[0] == EV_INIT and ev[3] != 0:
        return "event %d: a board roll marked as physical dice" % seq
    boot = rec.get("boot")
    secret = secrets.get((boot, rec.get("ep")))
    if secret is None:
        return "lost" if (boot is not None and boot != cur) else "unrevealed"
    try:
        again = derive(secret, seq, int(rec.get("ent"), 16), faces, len(draws))
    except (TypeError, ValueError):
        return "event %d: the roll record is malformed" % seq
    if again != draws:
        return "event %d %r: the board rolled %s but secret %d, seq %d and entropy %s give %s" % (
            seq,
            list(ev),
            draws,
            rec.get("ep"),
            seq,
            rec.get("ent"),
            again,
        )
    return "ok"


def verify_file(path):
    """:func:`verify_game` of the save file or mirror log (``fleetref mirror --log``) at
    ``path``. Raises ValueError / OSError."""
    from host_tools.files import gamefile, savefile

    data = gamefile.load(path)
    savefile.verify(data)
    if data.get("base_seq"):
        raise ValueError(
            "this file starts at event %d: rolls before it cannot be checked" % data["base_seq"]
        )
    dice = data.get("dice")
    if not isinstance(dice, dict):
        raise ValueError(
            "this file has no dice record (saved by a board or host before "
            "protocol 6, or from seeded test dice)"
        )
    events = [(e["seq"], e["ev"]) for e in data["events"]]
    return verify_game(data["game"]["roster"], events, dice)


def unchecked(res):
    """Seqs of the rolls that cannot be checked (no record, or their secret lost), sorted."""
    return sorted(res["unrecorded"] + res.get("lost", []))


def _events(seqs):
    return ", ".join(str(s) for s in seqs)


def report(res):
    """Lines saying what :func:`verify_game` found."""
    from referee.texts import plural

    out = [
        "%s verified, %s, %d not yet revealed"
        % (
            plural(len(res["ok"]), "board roll"),
            plural(len(res["physical"]), "physical roll"),
            len(res["unrevealed"]),
        )
    ]
    for p in res["problems"]:
        out.append("COMMITMENT: " + p)
    for b in res["bad"]:
        out.append("MISMATCH: " + b)
    if res["unrevealed"]:
        out.append(
            "not revealed yet (reveal on the board, then save again): events %s"
            % _events(res["unrevealed"])
        )
    if res.get("lost"):
        out.append(
            "CANNOT BE CHECKED: board rolls whose secret the board had not revealed "
            "when it restarted (a reset or power cut loses the secret): events %s"
            % _events(res["lost"])
        )
    if res["unrecorded"]:
        out.append(
            "CANNOT BE CHECKED: rolls with no roll record (the board keeps them in RAM: "
            "lost in a restart or power cut unless a mirror was connected or the game "
            "saved before): events %s" % _events(res["unrecorded"])
        )
    n = len(unchecked(res))
    if res["bad"] or res["problems"]:
        out.append("FAILED")
    elif n:
        out.append("the board rolls with a record match; %d cannot be checked" % n)
    else:
        out.append("all board rolls match")
    return out


def add_arguments(p):
    p.add_argument("game", help="a saved game (fleetref save) or a fleetref mirror --log file")


def main(args):
    try:
        res = verify_file(args.game)
    except (OSError, ValueError) as e:
        print("fleetref verify: %s" % e, file=sys.stderr)
        return 2
    for line in report(res):
        print(line)
    return 1 if (res["bad"] or res["problems"]) else 0
