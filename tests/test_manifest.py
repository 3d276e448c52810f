"""Issue 11: firmware/manifest.py, the freeze manifest a maker gives MicroPython's build
(``make -C ports/rp2 FROZEN_MANIFEST=...``), freezes every firmware module. It is run here with
the three manifest functions it uses recording what they are given, as MicroPython's
tools/manifestfile.py calls them (paths relative to the manifest's folder)."""

import os

from conftest import ROOT
from host_tools import paths

FW = os.path.join(ROOT, "firmware")


def frozen():
    got = {"include": [], "package": []}

    def include(p):
        got["include"].append(p)

    def package(name, files=None, base_path=".", opt=None):
        assert files is None and base_path == "."      # the whole package folder
        got["package"].append(name)

    def module(*a, **k):
        raise AssertionError("main.py stays on the filesystem: no single module is frozen")

    with open(os.path.join(FW, "manifest.py")) as f:
        exec(compile(f.read(), "manifest.py", "exec"),
             {"include": include, "package": package, "module": module})
    return got


def test_manifest_freezes_every_firmware_module_and_the_port_default():
    got = frozen()
    # the port's own frozen modules (asyncio, neopixel, ...) stay in the image
    assert got["include"] == ["$(PORT_DIR)/boards/manifest.py"]
    names = set()
    for pkg in got["package"]:
        assert os.path.isfile(os.path.join(FW, pkg, "__init__.py")), pkg
        names.update(paths.firmware_modules(pkg))
    wanted = set(paths.firmware_modules("referee")) | set(paths.firmware_modules("drivers"))
    assert wanted and names == wanted
