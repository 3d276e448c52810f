"""Writes firmware/package.json, the manifest that lets ``mip`` install the firmware:

    mpremote mip install --target / github:<owner>/<repo>/firmware/package.json

Paths are relative to the board's root (hence ``--target /``); sources are relative to the
manifest. Run ``python -m devtools.mip_package`` after adding a firmware file (a test checks
the manifest lists every file)."""

import json
import os

from referee import FW_VERSION

from host_tools import paths


def manifest():
    urls = []
    for pkg in ("referee", "drivers"):
        for rel in paths.firmware_modules(pkg):
            urls.append(["lib/" + rel, rel])
    urls.append(["main.py", "main.py"])
    for name in sorted(os.listdir(paths.ROSTERS)):
        if name.endswith(".json"):
            urls.append(["rosters/" + name, "rosters/" + name])
    urls.append(["board.json", "../boards/%s.json" % paths.DEFAULT_BOARD])
    return {"urls": urls, "version": FW_VERSION}


if __name__ == "__main__":
    with open(os.path.join(paths.FIRMWARE, "package.json"), "w") as f:
        json.dump(manifest(), f, indent=1)
        f.write("\n")
