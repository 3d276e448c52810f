"""The board on MicroPython's unix port (the harness the network services are tested on): it
referees through the serial protocol with the same state hashes as the referee on CPython,
and after the process is killed it comes back from its journal to the same state."""

import json

from support.serialplay import Board
from support.unixport import UnixBoard, pico_w_profile

# keys and commands of an Escape from Hoth opening (seed 1001 rules 1-4): initiative, a hit,
# an undo, the next phase
LINES = (
    {"c": "roll"},
    {"c": "key", "key": "phase"},
    {"c": "hit", "ship": "X-Wing 1", "by": "Star Destroyer"},
    {"c": "hit", "ship": "X-Wing 2", "by": "Star Destroyer"},
    {"c": "undo"},
    {"c": "phase"},
)


def is_type(kind):
    return lambda line: isinstance(line, dict) and line.get("t") == kind


def test_unix_port_board_hashes_match_cpython_and_survive_a_kill(tmp_path):
    cpython = Board("hoth", seed=1)
    for line in LINES:
        cpython.line(line)
    want = cpython.snap()
    assert want["seq"] >= 3, want  # the lines did something

    board = UnixBoard(pico_w_profile(), tmp_path / "flash", seed=1)
    try:
        board.until(is_type("hello"))
        for line in LINES:
            board.send(json.dumps(line))
        board.send(json.dumps({"c": "snap"}))
        got = board.until(is_type("snap"))
    finally:
        board.stop()
    assert (got["seq"], got["state_hash"]) == (want["seq"], want["state_hash"])

    again = UnixBoard(pico_w_profile(), tmp_path / "flash", seed=1)
    try:
        hello = again.until(is_type("hello"))
        again.send(json.dumps({"c": "snap"}))
        back = again.until(is_type("snap"))
    finally:
        again.stop()
    assert hello["micropython"] == "1.28.0"
    assert (back["seq"], back["state_hash"]) == (want["seq"], want["state_hash"])
