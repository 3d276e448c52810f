"""host_tools is laid out by job (CONTRIBUTING.md, "The layout"): at its top only the command
line and what every part shares; each other module lives in the sub-package of its job."""

import os

from support import ROOT

TOP = {
    "__init__.py",
    "cli.py",
    "helptexts.py",
    "paths.py",
    "names.py",
    "argtypes.py",
    "userfiles.py",
}
JOBS = {"sim", "link", "views", "files", "board", "tournament"}


def test_the_top_holds_only_the_command_line_and_shared_modules():
    here = os.path.join(ROOT, "host_tools")
    modules = {f for f in os.listdir(here) if f.endswith(".py")}
    extra = sorted(modules - TOP)
    assert not extra, (
        "%s at the top of host_tools/: move it into the sub-package of its job (%s; "
        "CONTRIBUTING.md, 'The layout'), or, if every part shares it, add it to TOP in "
        "tests/host/test_layout.py and to the host_tools/ row of that table"
        % (extra, ", ".join(sorted(JOBS)))
    )
    gone = sorted(TOP - modules)
    assert not gone, "%s no longer at the top of host_tools/: take it out of TOP here" % gone


def test_every_job_is_a_package_named_in_contributing():
    here = os.path.join(ROOT, "host_tools")
    packages = {
        d for d in os.listdir(here) if os.path.isfile(os.path.join(here, d, "__init__.py"))
    }
    assert packages == JOBS
    with open(os.path.join(ROOT, "CONTRIBUTING.md"), encoding="utf-8") as f:
        text = f.read()
    for job in JOBS:
        assert "| `host_tools/%s/` |" % job in text, job
