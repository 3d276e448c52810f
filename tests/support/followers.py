"""Several host tools following one board at once (docs/protocol.md, "Sharing a board among
host tools"): long-running tools, and a web view, a logging mirror and a publisher together."""

import json
import subprocess
import sys
import threading

from support import ROOT
from support.mqtt import EVENT, Recorder
from support.process import stop_process
from support.web import WebProcess, wait_until

TABLE = "table-01"


class Tool:
    """A long-running `fleetref ARGS` process (its output kept in .out)."""

    def __init__(self, env, *args):
        self.out = []
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "host_tools.cli", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            cwd=ROOT,
            env=env,
        )
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self):
        for line in self.proc.stdout:
            self.out.append(line)

    def text(self):
        return "".join(self.out)

    def stop(self):
        stop_process(self.proc)


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
        self.mirror = Tool(env, "mirror", "--port", port, "--log", self.log)
        procs.append(self.mirror)
        self.pub = Tool(
            env,
            "publish",
            "--port",
            port,
            "--broker",
            broker.url,
            "--event",
            EVENT,
            "--table",
            TABLE,
            "--user",
            TABLE,
            "--password-file",
            broker.password(TABLE),
        )
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
