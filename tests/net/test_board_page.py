"""The board's spectator page (firmware/referee/net/page.py) on MicroPython's unix port: its
``/api/state`` is the board's ``snap``; no request of any method changes the game; the page,
in headless Chromium, shows the fleets and follows a key sent over serial."""

import pytest

from support.boardpage import OPENING, PageBoard
from support.game import new_game
from support.web import page_value, ship_rows, wait_until


@pytest.fixture
def board(tmp_path):
    b = PageBoard(tmp_path / "flash")
    yield b
    b.stop()


def test_api_state_is_the_boards_snap(board):
    for name in OPENING + ("dmg+",):
        board.key(name)
    snap = board.snap()
    got = board.state()
    assert got["seq"] == snap["seq"] == 3
    for field in ("state_hash", "round", "phase", "initiative", "rolls", "winner", "gid"):
        assert got[field] == snap[field], field
    assert [(s["name"], s["hp"], s["damage"], s["status"]) for s in got["ships"]] == [
        (s["name"], s["hp"], s["damage"], s["status"]) for s in snap["ships"]
    ]
    assert sum(s["damage"] for s in got["ships"]) == 1  # the hit is there


def test_no_request_changes_the_game(board):
    board.key(OPENING[0])
    before = board.snap()
    answers = {}
    for method in ("GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"):
        for path in ("/", "/api/state", "/api/key?key=dmg+", "/api/state?c=phase"):
            answers[method, path] = board.get(path, method)[0]
    after = board.snap()
    assert (after["seq"], after["state_hash"]) == (before["seq"], before["state_hash"])
    assert answers["GET", "/"] == answers["GET", "/api/state?c=phase"] == 200
    assert answers["HEAD", "/api/state"] == 200
    assert answers["GET", "/api/key?key=dmg+"] == 404
    for method in ("POST", "PUT", "DELETE", "PATCH", "OPTIONS"):
        assert answers[method, "/api/state"] == 405, method
    _status, headers, body = board.get("/api/state", "HEAD")
    assert body == b"" and int(headers["content-length"]) > 100
    assert board.get("/", "POST")[1]["allow"] == "GET, HEAD"


def test_page_in_chromium_shows_the_fleets_and_follows_a_serial_key(board, chrome):
    chrome.get(board.base + "/")
    wait_until(lambda: page_value(chrome, "seq") == "0", 20)
    assert sorted(ship_rows(chrome)) == sorted(new_game("hoth").names)
    assert page_value(chrome, "side-0").startswith("Empire")
    assert page_value(chrome, "side-1").startswith("Rebels")
    assert page_value(chrome, "rolls") == "none yet"
    board.key("roll")
    want = board.state()
    # the page polls every 2 s: within two polls it shows the roll and the new state
    wait_until(lambda: page_value(chrome, "state-hash") == want["state_hash"], 5)
    assert page_value(chrome, "seq") == "1"
    assert page_value(chrome, "rolls").startswith("Empire %d" % want["rolls"][0])
    assert page_value(chrome, "round") == str(want["round"])
    assert page_value(chrome, "phase") == want["phase"]
