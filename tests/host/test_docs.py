"""The pictures in docs/ come from the real renderer and key map and are up to date."""

import os
import subprocess
import sys

from PIL import Image, ImageChops

from support import ROOT


def test_pictures_are_current(tmp_path):
    subprocess.run(
        [sys.executable, "-m", "host_tools.cli", "pictures", "--out", str(tmp_path)],
        check=True,
        cwd=ROOT,
        capture_output=True,
    )
    for name in ("screen-layout.png", "keymap.png"):
        new = Image.open(tmp_path / name).convert("RGB")
        old = Image.open(os.path.join(ROOT, "docs", name)).convert("RGB")
        assert new.size == old.size
        assert ImageChops.difference(new, old).getbbox() is None, (
            "docs/%s is stale: run `fleetref pictures`" % name
        )


def test_readme_and_ci_name_the_two_commands():
    readme = open(os.path.join(ROOT, "README.md")).read()
    assert "make demo" in readme and "make test" in readme
    assert "make test" in open(os.path.join(ROOT, ".ci", "run")).read()
