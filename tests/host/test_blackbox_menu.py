"""No pad menu action loses a game without a confirmation and a way back (docs/script.md
`menu`: "over a game in play `enter` twice, and the game replaced is kept (its last entry,
"previous game", brings it back"). Played with the `key` command on a simulator; a game is
known by its `gid`, `seq` and state hash."""

import pytest

from support.blackbox import start


@pytest.fixture
def board():
    """squadrons-d6 example, one move made (a game in play)."""
    sim, host = start("--ruleset", "squadrons-d6", "--seed", "4")
    host.ok({"c": "move", "ship": 0})
    yield host
    host.close()
    sim.stop()


def game_of(snap):
    return (snap["gid"], snap["seq"], snap["state_hash"])


def errors(msgs):
    return [m["msg"] for m in msgs if m.get("t") == "err"]


def menu_load(host, presses, confirm=True):
    """Open the menu, press sel+ (or sel- for negative) ``presses`` times, enter (twice
    when ``confirm``). Returns (messages, snap)."""
    step = "sel+" if presses >= 0 else "sel-"
    keys = ["menu"] + [step] * abs(presses) + ["enter"] + (["enter"] if confirm else [])
    return host.key(*keys)


def test_one_enter_only_warns(board):
    _, before = board.send({"c": "snap"})
    msgs, after = menu_load(board, 1, confirm=False)
    assert any("press enter again" in e for e in errors(msgs)), msgs
    assert game_of(after) == game_of(before)
    msgs, after = board.key("cancel")
    assert game_of(after) == game_of(before)


def test_moving_the_selection_after_the_warning_warns_again(board):
    """A warning is about the entry it names: after it, choosing another entry and pressing
    enter once must warn again, not load that other entry."""
    _, before = board.send({"c": "snap"})
    msgs, _ = menu_load(board, 1, confirm=False)
    first = errors(msgs)
    msgs, after = board.key("sel+", "enter")
    assert game_of(after) == game_of(before), (first, msgs)
    assert any("press enter again" in e for e in errors(msgs)), msgs


def test_cancel_forgets_the_warning(board):
    _, before = board.send({"c": "snap"})
    menu_load(board, 1, confirm=False)
    board.key("cancel")
    msgs, after = menu_load(board, 1, confirm=False)
    assert game_of(after) == game_of(before)
    assert any("press enter again" in e for e in errors(msgs)), msgs


def test_previous_game_brings_the_replaced_game_back_both_ways(board):
    """A (1 event) replaced by B (Escape from Hoth, the menu's second entry) with the
    confirmation; B gets an event (its initiative); "previous game" (the menu's last entry:
    sel- from the top), confirmed, brings A back as it was, and the same again brings B
    back as it was."""
    _, game_a = board.send({"c": "snap"})
    _, game_b = menu_load(board, 1)
    assert game_b["gid"] != game_a["gid"] and game_b["seq"] == 0
    game_b = board.ok({"c": "roll", "values": [15, 3]})
    msgs, back = menu_load(board, -1)
    assert game_of(back) == game_of(game_a), msgs
    msgs, again = menu_load(board, -1)
    assert game_of(again) == game_of(game_b), msgs


def test_an_empty_game_in_between_does_not_lose_the_kept_one(board):
    """A (1 event) replaced by B (confirmed); B, still empty, replaced by C (no confirmation
    needed: nothing to lose); "previous game" must still bring A back, not the empty B."""
    _, game_a = board.send({"c": "snap"})
    menu_load(board, 1)
    menu_load(board, 2, confirm=False)
    msgs, back = menu_load(board, -1, confirm=False)
    if errors(msgs):
        back = board.key("enter")[1]
    assert game_of(back) == game_of(game_a), msgs


def test_previous_game_survives_a_power_cut(tmp_path):
    """The replaced game is the way back (docs/script.md: "the game replaced is kept"); on a
    board with flash (`sim --flash DIR`, docs/reliability.md) a power cut right after the
    menu replaced it must not take that way back away: after the restart, "previous game"
    brings A back as it was."""
    from support.blackbox import Host
    from support.process import SimProcess

    args = ("--headless", "--hold", "--flash", str(tmp_path))
    sim = SimProcess(*args, "--ruleset", "squadrons-d6")
    host = Host(sim.port)
    try:
        host.send({"c": "hello"})
        game_a = host.ok({"c": "move", "ship": 0})
        _, game_b = menu_load(host, 1)
        assert game_b["gid"] != game_a["gid"]
        host.close()
        sim.proc.kill()
        sim.proc.wait(10)
        sim = SimProcess(*args)
        host = Host(sim.port)
        _, restored = host.send({"c": "hello"})
        assert restored["gid"] == game_b["gid"]
        msgs, back = menu_load(host, -1)
        assert game_of(back) == game_of(game_a), msgs
    finally:
        host.close()
        sim.stop()
