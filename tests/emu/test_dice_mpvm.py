"""The committed dice (firmware/referee/dice.py) inside real MicroPython (the WebAssembly port
under Node, tests/mpvm): SHA-256 from its hashlib gives the same commitment and the same rolls
as CPython's, and a Fair source there makes records and reveals a CPython verifier accepts
(the board rolls, the laptop checks)."""

import hashlib
import json

from host_tools.files.verify import DiceLog, check_commitments
from referee.dice import derive
from support.vm import run_in_micropython
from support.dice import spec_roll
from support import ROOT
import os

SCRIPT = os.path.join(ROOT, "tests", "mpvm", "dice_check.py")


def test_micropython_dice_match_cpython(tmp_path):
    secret = list(range(7, 39))
    cases = [[1, 0, 20, 2], [2, 0xFFFFFFFF, 20, 1], [77, 0x12345678, 8, 3], [1000, 5, 6, 4]]
    lines = run_in_micropython({"secret": secret, "cases": cases}, tmp_path, SCRIPT)
    res = json.loads(next(x for x in lines if x.startswith("RESULT "))[7:])
    sb = bytes(secret)
    assert res["commit"] == hashlib.sha256(sb).hexdigest()
    for (seq, ent, faces, n), got in zip(cases, res["rolls"]):
        assert got == spec_roll(sb, seq, ent, faces, n) == derive(sb, seq, ent, faces, n)
    # the roll record and reveal a MicroPython board sends verify on the laptop
    log = DiceLog()
    msgs = [json.loads(x) for x in res["fair"]["lines"]]
    roll, reveal = msgs[0], msgs[1]
    assert roll["t"] == "roll" and roll["d"] == res["fair"]["dice"] and roll["seq"] == 1
    boot = roll["boot"]
    assert reveal["boot"] == boot and len(boot) == 8 and int(boot, 16) >= 0
    log.game({"gid": "g1", "commit": reveal["commit"], "epoch": 0, "boot": boot})  # game line
    for m in msgs:
        log.take(m)
    assert log.commit == reveal["next"] and log.epoch == 1
    problems, secrets = check_commitments(log.as_dict())
    assert problems == [] and (boot, 0) in secrets
    assert derive(secrets[(boot, 0)], 1, int(roll["ent"], 16), 20, 2) == roll["d"]
    # the hello fields: the commitment after the reveal, its epoch and the same boot
    assert res["fair"]["hello"] == {"commit": reveal["next"], "epoch": 1, "boot": boot}
