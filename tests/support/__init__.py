"""Helpers the tests share (fixtures live in tests/conftest.py): the checkout's paths here;
``game`` (new games and referees), ``process`` (the fleetref command and its processes),
``emu`` (the emulated Pico), ``vm`` (MicroPython's WebAssembly port), ``web`` (the web view
in a browser), ``mqtt`` (a real Mosquitto), ``dice`` and ``clock`` (referees with committed
dice or time banks), ``followers`` (several host tools on one board), ``simboard`` (the
simulator's board built in the test's process), ``rosters`` (rosters written a ship a line),
``checkhost`` (the quick host of the independent checks), and the games and scripts the
coverage tests play (``gen``, ``seedplay``, ``serialplay``, ``reportgames``, ``wording``);
``fakes`` holds the fake ``machine`` and ``rp2`` modules."""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FAKES = os.path.join(ROOT, "tests", "support", "fakes")
for _path in (os.path.join(ROOT, "firmware"), ROOT):
    if _path not in sys.path:
        sys.path.insert(0, _path)
# The processes the tests start (the simulator, fleetref commands) import this checkout's
# firmware and host_tools too, not those of the checkout the virtual environment was installed
# from (a second clone sharing one .venv would otherwise mix its host_tools with another's
# firmware).
_OWN = (os.path.join(ROOT, "firmware"), ROOT)
if not os.environ.get("PYTHONPATH", "").startswith(_OWN[0] + os.pathsep):
    os.environ["PYTHONPATH"] = os.pathsep.join(
        p for p in (*_OWN, os.environ.get("PYTHONPATH")) if p
    )
