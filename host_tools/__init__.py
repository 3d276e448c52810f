"""fleetref host tools: the laptop side (simulator, mirror, flashing, save/load).

The checkout's folders are named here, for paths.py (where the checkout's files are, and
reading them) and names.py (the checks of names a user types), which need them both: paths
reads a file a user names through names' checks, so names cannot import paths."""

import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
ROSTERS = os.path.join(FIRMWARE, "rosters")
BOARDS = os.path.join(ROOT, "boards")
DEFAULT_BOARD = "pico-ws2812-16x16"
