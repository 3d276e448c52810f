"""Black-box checks of docs/mqtt.md section 5 ('Same topics, same messages'): a Pico W
publishing its own game (the unix-port board, tests/support/boardmqtt.py) and a laptop
(`fleetref sim` + `fleetref publish`) play the same decided game of Escape from Hoth (seed
004: the Empire wins by destroying the Troop Transport, the Rebels by its exit by the far
edge); their retained states, `decided` and the events' words must be equal value for
value. Also games replaced during a Wi-Fi outage, an outage of wins and undos, and an undo
of a win after a restart of the board."""

import itertools
import os
import signal
import time

import pytest

from support.boardmqtt import snap, start, write_settings
from support.boardplay import committed_board, events_once
from support.boardplay import first_by_seq, last_state, load_hoth, outage_board, own_broker
from support.boardplay import press_each, sent_once
from support.boardplay import NO_EVENT, event_diffs, last_state_at, of, play_both, serial_line
from support.boardplay import state_diffs, stream_of
from support.mqtt import EVENT, Recorder, wait_until

# The game (committed dice on both, as a real board has; the initiative rolled with
# physical dice so that both play the same rolls): a roll taken back and rolled again, the
# movement phase, the Star Destroyer's standard move (the Empire moves first), the Rebels'
# side selected (the Troop Transport), a hit on it, its exit by the far edge (the Rebels
# win, seq 7), that exit undone (no side has won, seq 8), a second hit (destroyed: the
# Empire wins, seq 9). A pause (2.5 s) lets each publisher send a state around the wins
# (states go at most once a second).
GAME = ("dice 10 2", "undo", "dice 16 14")
GAME += tuple("phase opt1 side dmg+ alt4 pause undo pause dmg+".split())
LAST = sum(key not in NO_EVENT for key in GAME)
REBELS_WIN, UNDONE, EMPIRE_WINS = 7, 8, 9
# the laptop's own checks of the dice, null from a board (section 5)
DICE_CHECKS = ("restarts", "verified", "bad", "unchecked")
DESTROYED = (
    "Troop Transport is hit: 1 damage point marked (now 2 of 2); "
    "Troop Transport is destroyed. The Empire wins."
)
EXIT = "Troop Transport leaves by the far edge"
NO_WINNER = " No side has won any more, the game goes on."


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    """The game above, played by the laptop and by the board (play_both)."""
    yield from play_both(tmp_path_factory, "parity", GAME)


def test_the_decided_games_states_are_the_laptops_value_for_value(pair):
    """Section 5: the retained state is 'field for field the laptop's', ships included, with
    `initiative_history` and `decided`. At the Rebels' win (seq 7), its undo (8) and the
    Empire's win (9), every value of the board's state equals the laptop's but the table's
    name, the time, the gid (each board draws its own), `acked_seq` (when the broker's
    acknowledgement came) and `dice` (each board's own secret; next test)."""
    diffs = state_diffs(pair, (REBELS_WIN, UNDONE, EMPIRE_WINS))
    assert not diffs, diffs
    final = last_state_at(pair, "table-01", EMPIRE_WINS)
    assert final["gid"] == serial_line(pair, "game")["gid"]
    assert final["initiative_history"] == [[1, 10, 2], [1, 16, 14]]
    assert [final["ships"][4][k] for k in ("name", "status", "state")] == [
        "Troop Transport",
        *("destroyed", "destroyed"),
    ]


def test_the_states_dice_are_the_boards_commitment(pair):
    """Section 5: the state's `dice` holds 'the board's `commit`, `epoch`, `boot` and its
    counts of `rolls` and `revealed`'; only `restarts`, `verified`, `bad` and `unchecked`
    are null from a board. A board with committed dice (a real board's) names them in its
    ``game`` line on serial; the laptop's state names the sim's the same way."""
    game = serial_line(pair, "game")
    board = last_state_at(pair, "table-01", EMPIRE_WINS)["dice"]
    laptop = last_state_at(pair, "table-02", EMPIRE_WINS)["dice"]
    assert laptop["commit"] and laptop["boot"] and laptop["epoch"] == 0  # the laptop's view
    assert [board[k] for k in DICE_CHECKS] == [None] * 4
    assert (board["rolls"], board["revealed"]) == (laptop["rolls"], laptop["revealed"])
    got = {k: board[k] for k in ("commit", "epoch", "boot")}
    assert got == {k: game[k] for k in ("commit", "epoch", "boot")}, (got, game)


def test_the_states_dice_count_the_boards_rolls_and_reveals(broker, procs, tmp_path):
    """Section 5: `dice` holds the board's counts of `rolls` and `revealed`, its `commit`
    and `epoch`. A board with committed dice rolls the initiative with its own dice (a
    ``roll`` line), then the Empire wins (the Troop Transport destroyed) and the board
    reveals its secret (a ``reveal`` line naming the next commitment): the state after it
    counts one roll and one reveal, at epoch 1 with that next commitment (as `fleetref
    publish` says for the same keys on `fleetref sim`)."""
    rec = Recorder(broker, "fleetref/%s/table-01/state" % EVENT, client_id="dice-reader")
    procs.append(rec)
    write_settings(broker, tmp_path / "flash")
    board = committed_board(tmp_path / "flash")
    procs.append(board)
    press_each(board, ("roll", "phase", "side", "dmg+", "dmg+"))
    reveal = board.until(lambda m: isinstance(m, dict) and m.get("t") == "reveal")
    wait_until(lambda: rec.of("/state") and rec.of("/state")[-1]["seq"] == 4, 20, 0.1)
    time.sleep(1.5)  # a later state, if one comes
    dice = rec.of("/state")[-1]["dice"]
    got = [dice[k] for k in ("rolls", "revealed", "epoch", "commit", "boot")]
    assert got == [1, 1, 1, reveal["next"], reveal["boot"]], got


def test_each_event_reads_as_the_laptops(pair):
    """Section 5: each event's `seq`, `ev`, `text` (with what it decided: a side winning,
    or no longer winning), `round`, `phase` and `undone` as the laptop's for the same seq,
    `hash` = `board_hash` = the hash of the board's own ``ev`` line (round/phase may be null
    only for the laptop's first event, read in its first catch-up)."""
    board = first_by_seq(of(pair, "table-01", "events"))
    laptop = first_by_seq(of(pair, "table-02", "events"))
    assert sorted(board) == sorted(laptop) == list(range(1, LAST + 1))
    serial = [e["hash"] for e in pair["evs"]]
    assert [(board[s]["hash"], board[s]["board_hash"]) for s in sorted(board)] == [
        (h, h) for h in serial
    ]
    diffs = event_diffs(board, laptop, [1], ("ev", "hash", "text", "undone"))
    diffs += event_diffs(board, laptop, range(2, LAST + 1))
    assert not diffs, diffs
    assert board[REBELS_WIN]["text"] == EXIT + ": the Rebels win."
    assert board[EMPIRE_WINS]["text"] == DESTROYED


def test_undoing_the_win_says_no_side_has_won(pair):
    """Section 5 ('the side that wins or no longer wins'): the undo of the winning exit
    (seq 8) says no side has won any more, and the state after it has `winner` and
    `decided` null; the win before it and the one after it are `decided` by their own
    event (seq, round, text) as the laptop's."""
    undo = first_by_seq(of(pair, "table-01", "events"))[UNDONE]
    assert undo["undone"] == REBELS_WIN
    assert "No side has won any more" in undo["text"], undo["text"]
    after = last_state_at(pair, "table-01", UNDONE)
    assert (after["winner"], after["decided"]) == (None, None)
    assert after["recent"][-1] == [UNDONE, undo["text"]]
    for seq, side in ((REBELS_WIN, 1), (EMPIRE_WINS, 0)):
        state = last_state_at(pair, "table-01", seq)
        text = first_by_seq(of(pair, "table-01", "events"))[seq]["text"]
        assert state["winner"] == side
        assert state["decided"] == {"seq": seq, "round": 1, "text": text}


def test_each_state_comes_after_its_events_and_is_acknowledged(pair):
    """Sections 1 and 5: the state goes after the events ('then the retained state'), at
    most once a second; the last one's `acked_seq` reaches the last seq, `link` true,
    `hash_match` true, `board_hash` = `state_hash` = the board's own snap's."""
    seen, times = set(), []
    for topic, m in pair["msgs"]:
        if topic.endswith("table-01/events"):
            seen.add(m["seq"])
        elif topic.endswith("table-01/state"):
            assert set(range(1, m["seq"] + 1)) <= seen, (m["seq"], sorted(seen))
            times.append(m["t"])
    assert all(b - a >= 0.9 for a, b in itertools.pairwise(times)), times
    final = of(pair, "table-01", "state")[-1]
    assert final["seq"] == final["acked_seq"] == LAST
    assert final["link"] is True and final["hash_match"] is True
    assert final["board_hash"] == final["state_hash"] == pair["board"]["state_hash"]


@pytest.fixture(scope="module")
def replaced(tmp_path_factory):
    """Section 5, a game replaced during an outage: the board rolls the initiative (seq 1,
    published), the Wi-Fi stand-in goes down, the old game goes on to the Empire's win
    (seq 2-4: the movement phase, two hits on the Troop Transport), a new game is loaded
    over serial and plays seq 1-3 (a roll, its undo, a roll: other events than the old
    game's at those seqs), then the Wi-Fi comes back. {"stream": [(kind, message)] of
    table-01's events and states in the order received, "old"/"new": the board's snaps,
    "evs"/"news": its ``ev`` lines of each game}."""
    with own_broker(tmp_path_factory, "replaced") as (broker, procs):
        folder = tmp_path_factory.mktemp("replaced-board")
        rec, board, down, evs = outage_board(broker, procs, folder, "replace-reader", ("roll",), 1)
        evs += press_each(board, ("phase", "side", "dmg+", "dmg+"))
        old = snap(board)
        assert (old["seq"], old["winner"]) == (4, 0)
        load_hoth(board)
        news = press_each(board, ("roll", "undo", "roll"))
        new = snap(board)
        assert new["gid"] != old["gid"] and new["seq"] == 3
        os.remove(down)
        wait_until(lambda: any(s["gid"] == new["gid"] for s in rec.of("/state")), 30, 0.2)
        time.sleep(4.0)  # the resend's 3 s, and more: a late repeat would show
        yield {"stream": stream_of(rec), "old": old, "new": new, "evs": evs, "news": news}


def split_at_new_game(replaced):
    """(the stream before the new game's first message, from it on)."""
    stream, gid = replaced["stream"], replaced["new"]["gid"]
    first = next(i for i, (_k, m) in enumerate(stream) if m["gid"] == gid)
    return stream[:first], stream[first:]


def test_a_replaced_game_goes_out_whole_before_the_new_one(replaced):
    """Section 5: the old game's every seq (with the hash of its ``ev`` line) and its final
    state (seq 4, its hash, the Empire's win) reach the broker before anything of the new
    game, each seq once per gid; then the new game's seqs 1-3, and the retained state ends
    as the new game's."""
    old, new = replaced["old"], replaced["new"]
    before, after = split_at_new_game(replaced)
    assert all(m["gid"] == old["gid"] for _k, m in before)
    assert all(m["gid"] == new["gid"] for _k, m in after), [
        (k, m["gid"], m["seq"]) for k, m in after
    ]
    for stream, gid, lines in ((before, old["gid"], "evs"), (after, new["gid"], "news")):
        once = events_once(stream, gid)
        assert [(s, e["hash"]) for s, e in sorted(once.items())] == [
            (e["seq"], e["hash"]) for e in replaced[lines]
        ]
    last_old = [m for k, m in before if k == "state"][-1]
    assert (last_old["seq"], last_old["state_hash"]) == (4, old["state_hash"])
    assert last_old["winner"] == 0
    last = last_state(after, new["gid"])
    assert (last["gid"], last["seq"], last["state_hash"]) == (new["gid"], 3, new["state_hash"])


def test_the_replaced_games_events_keep_their_words(replaced):
    """Section 5: the board keeps the newest 16 events' words until they are sent, so the
    old game's three events of the outage read as the laptop's (the sentences `fleetref
    sim` says for the same events) with their round and phase, whatever the new game
    played at the same seqs meanwhile."""
    before, after = split_at_new_game(replaced)
    once = events_once(before, replaced["old"]["gid"])
    got = [(once[s]["text"], once[s]["round"], once[s]["phase"]) for s in (2, 3, 4)]
    assert got == [
        ("Next phase: round 1, movement.", 1, "movement"),
        ("Troop Transport is hit: 1 damage point marked (now 1 of 2).", 1, "movement"),
        (DESTROYED, 1, "movement"),
    ]
    news = events_once(after, replaced["new"]["gid"])
    assert news[2]["text"].startswith("Undo: took back event 1 (Initiative roll")


def test_the_replaced_games_final_state_keeps_decided(replaced):
    """Section 5: `decided` and `initiative_history` are taken as each event is applied
    (null only after a restart of the board, which this is not): the old game's final state
    has the Empire's win decided by seq 4 in round 1 and its one roll; the new game's state
    its own two rolls (the undone one kept, as the laptop keeps it)."""
    before, after = split_at_new_game(replaced)
    last_old = last_state(before, replaced["old"]["gid"])
    text = events_once(before, replaced["old"]["gid"])[4]["text"]
    rolls = [e["ev"][1:3] for e in replaced["news"] if e["ev"][0] == 1]
    last_new = last_state(after, replaced["new"]["gid"])
    assert last_new["initiative_history"] == [[1, *r] for r in rolls]
    got = (last_old["initiative_history"], last_old["decided"])
    assert got == ([[1, 10, 2]], {"seq": 4, "round": 1, "text": text})


def test_an_outage_of_sixteen_wins_and_undos_keeps_every_events_words(broker, procs, tmp_path):
    """Section 5: the board keeps the newest 16 events' words until they are sent. Sixteen
    events made while the Wi-Fi is down, each alternately winning (the Troop Transport
    destroyed) and undoing that win: once the Wi-Fi is back each reads as the laptop's
    (the Empire wins / no side has won any more), with round, phase and `undone`; the
    retained state has no winner, `decided` null and these sentences in `recent`."""
    first = ("roll", "phase", "side", "dmg+")
    rec, board, down, _evs = outage_board(broker, procs, tmp_path, "sixteen-reader", first, 3)
    press_each(board, ("dmg+", "undo") * 8)
    final = snap(board)
    assert (final["seq"], final["winner"]) == (19, None)
    os.remove(down)
    wait_until(lambda: rec.of("/state") and rec.of("/state")[-1]["seq"] == 19, 30, 0.2)
    once = first_by_seq(rec.of("/events"))
    got, want = [], []
    for seq in range(4, 20):
        e = once[seq]
        got.append((seq, e["text"], e["round"], e["phase"], e["undone"]))
        if seq % 2 == 0:
            want.append((seq, DESTROYED, 1, "movement", None))
        else:
            took = "Undo: took back event %d (Troop Transport is hit: 1 damage point marked)."
            want.append((seq, took % (seq - 1) + NO_WINNER, 1, "movement", seq - 1))
    assert got == want
    state = rec.of("/state")[-1]
    assert (state["winner"], state["decided"]) == (None, None)
    assert state["recent"] == [[s, once[s]["text"]] for s in range(15, 20)]


def test_a_game_started_and_replaced_in_one_outage_never_goes(broker, procs, tmp_path):
    """Section 5: only the game being published is kept. Game A (one event published) goes
    on while the Wi-Fi is down, is replaced by game B, which plays and is replaced by game
    C within the same outage: A's every seq and final state reach the broker, then C's; B
    (started and replaced within the outage) never does; each seq once per gid."""
    rec, board, down, first = outage_board(broker, procs, tmp_path, "abc-reader", ("roll",), 1)
    lines = {"A": first + press_each(board, ("phase", "dmg+"))}
    gids = {"A": snap(board)["gid"]}
    for name, keys in (("B", ("roll", "phase")), ("C", ("roll",))):
        gids[name] = load_hoth(board)
        lines[name] = press_each(board, keys)
    final = snap(board)
    os.remove(down)
    wait_until(lambda: any(s["gid"] == gids["C"] for s in rec.of("/state")), 30, 0.2)
    time.sleep(4.0)  # the resend's 3 s, and more
    stream = stream_of(rec)
    order = [m["gid"] for _k, m in stream]
    names = {v: k for k, v in gids.items()}
    runs = [names[g] for i, g in enumerate(order) if i == 0 or order[i - 1] != g]
    assert runs == ["A", "C"], runs
    for name in ("A", "C"):
        assert sent_once(stream, gids[name]) == [(e["seq"], e["hash"]) for e in lines[name]]
    assert last_state(stream, gids["A"])["seq"] == 3
    assert rec.of("/state")[-1]["state_hash"] == final["state_hash"]


@pytest.fixture(scope="module")
def restarted(tmp_path_factory):
    """A won game (the Transport's exit, seq 5), the board killed and started again on its
    flash, then the win undone (seq 6): {"states": table-01's states in order, "events":
    {seq: first event}, "killed": how many states came before the restart}."""
    with own_broker(tmp_path_factory, "restarted") as (broker, procs):
        rec = Recorder(broker, "fleetref/%s/table-01/#" % EVENT, client_id="restart-reader")
        procs.append(rec)
        flash = os.path.join(broker.dir, "flash")
        write_settings(broker, flash)
        board = start(flash)
        procs.append(board)
        press_each(board, ("roll", "phase", "opt1", "side", "dmg+", "alt4"))
        wait_until(lambda: rec.of("/state") and rec.of("/state")[-1]["seq"] == 5, 20, 0.1)
        time.sleep(1.5)
        board.proc.send_signal(signal.SIGKILL)
        board.proc.wait(10)
        killed = len(rec.of("/state"))
        board = start(flash)
        procs.append(board)
        wait_until(lambda: len(rec.of("/state")) > killed, 20, 0.1)
        press_each(board, ("undo",))
        wait_until(lambda: rec.of("/state")[-1]["seq"] == 6, 20, 0.1)
        time.sleep(1.5)
        events = first_by_seq(rec.of("/events"))
        yield {"states": rec.of("/state"), "events": events, "killed": killed}


def test_after_a_restart_the_undo_of_the_win_clears_it(restarted):
    """Section 5: after a restart of the board a win decided before it has `decided` null
    (the docs say so) but is still the `winner`; the undo of that win leaves `winner` and
    `decided` null, and names what it undid."""
    states = restarted["states"]
    assert states[restarted["killed"] - 1]["decided"]["text"] == EXIT + ": the Rebels win."
    back = states[restarted["killed"]]
    assert (back["seq"], back["winner"], back["decided"]) == (5, 1, None)
    assert (states[-1]["winner"], states[-1]["decided"]) == (None, None)
    assert restarted["events"][6]["undone"] == 5


def test_after_a_restart_the_undo_of_the_win_says_no_side_has_won(restarted):
    """Section 5: an event's text says 'the side that wins or no longer wins', as the
    laptop's replica says it; the board knows the Rebels had won (its restarted state's
    `winner`), so the undo must say no side has won any more, as the laptop's does."""
    text = restarted["events"][6]["text"]
    assert text == "Undo: took back event 5 (%s)." % EXIT + NO_WINNER, text


def test_after_a_restart_the_states_recent_reads_as_older_events(restarted):
    """Section 5 admits that after a restart the board's events before it read in `recent`
    as older events' (their sentences without the state part): the state the board publishes
    again at seq 5 names the same five events, each sentence the one before the restart or
    the start of it."""
    states = restarted["states"]
    before, back = states[restarted["killed"] - 1], states[restarted["killed"]]
    assert [s for s, _ in back["recent"]] == [s for s, _ in before["recent"]]
    for (seq, now), (_, then) in zip(back["recent"], before["recent"]):
        assert now == then or then.startswith(now[:-1]), (seq, now, then)


# Hits that land when the phase ends (seed 004's capital weapons phase): every ship moves,
# two hits on the Troop Transport are marked pending in the capital weapons phase (seq 8,
# 9), the next phase lands them (seq 10: destroyed, the Empire wins, in round 1 though the
# phase event starts round 2), then that phase is undone (seq 11).
LANDING = ("dice 10 2",) + tuple(
    "phase opt1 side opt1 sel+ opt1 sel+ opt1 phase sel- sel- dmg+ dmg+ phase pause undo".split()
)
LANDS, UNLANDS = 10, 11


@pytest.fixture(scope="module")
def landing(tmp_path_factory):
    yield from play_both(tmp_path_factory, "landing", LANDING)


def test_hits_landing_at_the_phases_end_decide_as_the_laptops(landing):
    """Section 5: an event's text says what it decided 'beyond itself ... a ship destroyed
    when a phase's pending hits land, ... the side that wins or no longer wins', as the
    laptop's; `decided` names the round the deciding event was played in. Every event
    reads as the laptop's; the states at the landing and after its undo equal the laptop's
    value for value (but who, when, gid, acked_seq and dice)."""
    board = first_by_seq(of(landing, "table-01", "events"))
    laptop = first_by_seq(of(landing, "table-02", "events"))
    diffs = event_diffs(board, laptop, [1], ("ev", "hash", "text"))
    diffs += event_diffs(board, laptop, range(2, UNLANDS + 1))
    assert not diffs, diffs
    assert board[LANDS]["text"].endswith("Troop Transport is destroyed: the Empire wins.")
    assert NO_WINNER.strip() in board[UNLANDS]["text"], board[UNLANDS]["text"]
    diffs = state_diffs(landing, (LANDS, UNLANDS))
    assert not diffs, diffs
    won = last_state_at(landing, "table-01", LANDS)["decided"]
    assert won == {"seq": LANDS, "round": 1, "text": board[LANDS]["text"]}
