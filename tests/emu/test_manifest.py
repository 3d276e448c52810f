"""`firmware/manifest.py`, the freeze manifest a maker gives MicroPython's build
(``make -C ports/rp2 FROZEN_MANIFEST=...``), freezes every firmware module. It is run here with
the three manifest functions it uses recording what they are given, as MicroPython's
tools/manifestfile.py calls them (paths relative to the manifest's folder)."""

import os

from support import ROOT
from host_tools import paths

FW = os.path.join(ROOT, "firmware")


def frozen():
    got = {"include": [], "package": []}

    def include(p):
        got["include"].append(p)

    def package(name, files=None, base_path=".", opt=None):
        assert files is None and base_path == "."  # the whole package folder
        got["package"].append(name)

    def module(*a, **k):
        raise AssertionError("main.py stays on the filesystem: no single module is frozen")

    with open(os.path.join(FW, "manifest.py")) as f:
        exec(
            compile(f.read(), "manifest.py", "exec"),
            {"include": include, "package": package, "module": module},
        )
    return got


def test_manifest_freezes_every_firmware_module_and_the_port_default():
    got = frozen()
    # one package, one manifest: the port's own modules are the image build's to include
    assert got["include"] == []
    names = set()
    for pkg in got["package"]:
        assert os.path.isfile(os.path.join(FW, pkg, "__init__.py")), pkg
        names.update(paths.firmware_modules(pkg))
    wanted = set(paths.firmware_modules("referee")) | set(paths.firmware_modules("drivers"))
    assert wanted and names == wanted


def test_the_image_manifest_adds_the_ports_modules_and_the_build_info(tmp_path, monkeypatch):
    """The manifest `make firmware` hands MicroPython's build: the port's own frozen modules
    (asyncio, neopixel, ...; the Pico W's networking), fleetref's manifest, and the
    build-info module saying the code is frozen, with this checkout's sources' hash."""
    from host_tools.board import firmware_build, firmware_steps

    for board, port in (
        ("RPI_PICO", "$(PORT_DIR)/boards/manifest.py"),
        ("RPI_PICO_W", "$(PORT_DIR)/boards/RPI_PICO_W/manifest.py"),
    ):
        path = firmware_steps.write_manifest(str(tmp_path), board)
        calls = []
        with open(path) as f:
            exec(
                f.read(),
                {
                    "include": lambda p: calls.append(("include", p)),
                    "module": lambda name, base_path: calls.append(
                        ("module", os.path.join(base_path, name))
                    ),
                },
            )
        assert calls[0] == ("include", port)
        assert calls[1] == ("include", os.path.join(FW, "manifest.py"))
        info = {}
        exec(open(calls[2][1]).read(), info)
        assert info["CODE"] == "frozen" and info["SOURCE_HASH"] == firmware_build.source_hash()
