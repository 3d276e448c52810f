"""Several host tools following one board at once (docs/protocol.md, "Sharing a board among
host tools"): long-running tools, and a web view, a logging mirror and a publisher together."""

import json

from support.mqtt import EVENT, Recorder, publish_args
from support.process import Tool
from support.web import WebProcess, wait_until

TABLE = "table-01"


def mirror_log_hash(path):
    """(seq, state hash) of the newest event a `fleetref mirror --log` wrote, or None."""
    try:
        rows = [json.loads(l) for l in open(path).read().splitlines() if l.strip()]
    except (OSError, ValueError):
        return None
    evs = [r for r in rows if "seq" in r]
    return (evs[-1]["seq"], evs[-1]["hash"]) if evs else None


class Followers:
    """web (started first: it holds the port), a live mirror with --log, and publish with a
    recorder of what reaches the broker."""

    def __init__(self, port, env, broker, tmp_path, procs):
        self.web = WebProcess(port, env)
        procs.append(self.web)
        wait_until(lambda: self.web.state()["link"]["connected"], 900, 0.2)
        self.log = str(tmp_path / "mirror.jsonl")
        self.mirror = Tool("mirror", "--port", port, "--log", self.log, env=env)
        procs.append(self.mirror)
        self.pub = Tool(*publish_args(broker, port, TABLE), env=env)
        procs.append(self.pub)
        self.rec = Recorder(broker, "fleetref/%s/#" % EVENT, client_id="shared-test")
        procs.append(self.rec)

    def hashes(self):
        """{tool: (seq, state hash)} as each follower has it now."""
        st = self.web.state() if self.web.proc.poll() is None else {}
        mq = self.rec.of("/state")
        return {
            "web": (st.get("seq"), st.get("state_hash")),
            "mirror": mirror_log_hash(self.log),
            "publish": (mq[-1]["seq"], mq[-1]["state_hash"]) if mq else None,
        }

    def wait(self, pred, timeout):
        """wait_until(pred); on a timeout the error shows where each tool is and its output."""
        try:
            wait_until(pred, timeout, 0.2)
        except AssertionError as e:
            raise AssertionError(
                "%s: %r\n%s"
                % (e, self.hashes(), "\n---\n".join(o[-1500:] for o in self.outputs()))
            )

    def agree(self, snap, timeout, without=()):
        want = (snap["seq"], snap["state_hash"])
        self.wait(
            lambda: all(v == want for k, v in self.hashes().items() if k not in without), timeout
        )

    def outputs(self):
        return [p.text() for p in (self.mirror, self.pub)] + ["".join(self.web.out)]
