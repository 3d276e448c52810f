"""The demo explains itself and ends with three commands; `make demo`
installs only what the demo needs; `fleetref`, `--version` and every help read well."""

import os
import re
import tomllib

from support import ROOT
from support.process import python


def run(*args, timeout=300, pre=""):
    code = pre + "import sys; from host_tools.cli import main; sys.exit(main(%r))" % (list(args),)
    return python("-c", code, timeout=timeout)


def test_demo_narrates_refusals_rules_and_ends_with_three_commands():
    r = run("demo", "--plain", "--pace", "0")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    # what happened: event sentences with names and results
    assert "Initiative roll (physical dice): Empire 15, Rebels 8; Empire holds initiative." in out
    assert "TIE Fighter 1 is hit by X-Wing 1" in out
    assert "Undo: took back event" in out
    # why a refusal: the board's reason, right after the move that was tried
    lines = out.splitlines()
    i = lines.index("Try a second launch in the same turn: the referee should refuse it")
    assert lines[i + 1] == "  refused: Star Destroyer has already launched a fighter this round"
    # which seed rule applied
    assert out.count("(seed 004, ") >= 8
    assert "Empire wins" in out and "state hashes agree" in out
    tail = lines[lines.index("Three commands to try next:") + 1 :]
    cmds = [x.strip() for x in tail if x.strip().startswith(".venv/bin/fleetref ")]
    assert len(cmds) == 3
    for c in cmds:  # each one is a real command line that parses
        h = run(*c.split()[1:] + ["--help"])
        assert h.returncode == 0, c


def test_demo_needs_no_test_tools():
    deps = tomllib.load(open(os.path.join(ROOT, "pyproject.toml"), "rb"))["project"]
    base = " ".join(deps["dependencies"])
    for tool in ("pytest", "hypothesis", "ruff"):
        assert tool not in base and any(tool in d for d in deps["optional-dependencies"]["dev"])
    for tool in ("pillow", "schemdraw"):  # fleetref pictures runs from the demo's install
        assert tool in base
    mk = open(os.path.join(ROOT, "Makefile")).read()
    assert re.search(r"^demo: \$\(STAMP\)$", mk, re.M)
    assert "pip install -q -e .\n" in mk and "'.[dev]'" in mk
    # the CLI and the demo load without the test tools
    block = "import sys\nfor m in ('PIL', 'pytest', 'hypothesis', 'schemdraw'): sys.modules[m] = None\n"
    r = run("demo", "--plain", "--pace", "0", pre=block)
    assert r.returncode == 0 and "Three commands to try next:" in r.stdout, r.stderr


def test_fleetref_alone_version_and_helps_read_well():
    r = run()
    assert r.returncode == 0 and "error" not in r.stderr.lower()
    assert "commands:" in r.stdout and "first steps:" in r.stdout
    r = run("--version")
    assert r.returncode == 0 and re.match(r"fleetref \d+\.\d+\.\d+ \(firmware ", r.stdout)
    from host_tools.cli import commands

    for name, *_ in commands():
        h = run(name, "--help")
        assert h.returncode == 0, name
        assert "``" not in h.stdout and "`" not in h.stdout, (name, h.stdout)
        assert h.stdout.startswith("usage: fleetref %s" % name)
    for sub in ("check", "push"):
        h = run("roster", sub, "--help")
        assert h.returncode == 0 and "`" not in h.stdout
