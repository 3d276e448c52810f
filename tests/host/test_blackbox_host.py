"""The black-box host of the tests (support.blackbox.Host) matches each command's answer to
it, however the board's lines are cut into reads: a `snap` command's two snaps (its own and
the one Host asks for after it) both belong to it, and nothing is left for the next command."""

import json

from support.blackbox import FENCE, Host


class Board:
    """A board on a fake link: `phase` adds an event (an `ev` line), `snap` answers the seq,
    an unknown command an `err` naming it. Each answer line comes back in a read of its own,
    or all in one read (``together``)."""

    def __init__(self, together=False):
        self.seq = 0
        self.together = together
        self.reads = []

    def write(self, data):
        answer = []
        for line in data.decode().splitlines():
            cmd = json.loads(line)
            if cmd["c"] == "phase":
                self.seq += 1
                answer.append({"t": "ev", "seq": self.seq})
            elif cmd["c"] == "snap":
                answer.append({"t": "snap", "seq": self.seq})
            else:
                answer.append({"t": "err", "c": cmd["c"], "msg": "unknown command"})
        lines = [json.dumps(msg).encode() + b"\n" for msg in answer]
        self.reads += [b"".join(lines)] if self.together else lines

    def read(self, size):
        return self.reads.pop(0) if self.reads else b""


def host_on(board):
    host = Host.__new__(Host)
    host.link, host.buf = board, b""
    return host


def test_a_snap_then_a_command_each_get_their_own_answer():
    for together in (False, True):
        host = host_on(Board(together))
        assert host.send({"c": "snap"}) == ([], {"t": "snap", "seq": 0})
        msgs, snap = host.send({"c": "phase"})
        assert msgs == [{"t": "ev", "seq": 1}] and snap == {"t": "snap", "seq": 1}, together
        assert host.send('{"c": "snap"}')[1]["seq"] == 1
        msgs, snap = host.send({"c": "nope"})
        assert [m["c"] for m in msgs] == ["nope"] and snap["seq"] == 1
        assert host.link.reads == [] and host.buf == b""
        assert FENCE not in json.dumps(msgs)
