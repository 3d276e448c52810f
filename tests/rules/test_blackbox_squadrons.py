"""squadrons-d6 (seed 002, 002_0e4d093935edf526.txt, "Movement") played through the serial
port of a simulator only: outcomes worked out from the seed text, and the edge cases where
play must go on (no state without a way forward: a move, the phase, undo).

The example roster (firmware/rosters/squadrons-d6-example.json, docs/scripts/
squadrons-d6-demo.txt): Rebels 0-2 Red 1-3 (Space 8, 4D+1, 3D; Red Squadron), 3 Red Leader
(Space 8, 6D, 3D, hero, Red Squadron), 4 Corellian Corvette (capital); Empire 5-8 Black 1-4
(Space 10, 4D, 2D; Black Squadron), 9 Star Destroyer (Space 6, 4D, 1D, capital)."""

import pytest

from support.blackbox import start

REBELS = (0, 1, 2, 3, 4)
EMPIRE = (5, 6, 7, 8, 9)


@pytest.fixture
def board():
    sim, host = start("--ruleset", "squadrons-d6", "--seed", "5")
    yield host
    host.close()
    sim.stop()


def move(host, ship, mode=1, **kw):
    return host.ok(dict({"c": "move", "ship": ship, "mode": mode}, **kw))


def play_round_one(host, rebel_mode=1, empire_mode=1):
    """Red Squadron, Black Squadron, Corvette, Star Destroyer: the sides alternate units."""
    for ship in (0, 1, 2, 3):
        move(host, ship, rebel_mode)
    for ship in (5, 6, 7, 8):
        move(host, ship, empire_mode)
    move(host, 4, 1)
    move(host, 9, 1)
    snap = host.ok({"c": "phase"})
    assert snap["phase"] == "combat", snap["phase"]
    return snap


def test_movement_rates_from_the_seed_formulas(board):
    """Seed 002 "Movement Rates": "Attack Speed: craft's Space/2 + piloting skill", "Full
    Throttle: craft's Space + piloting skill"; "# of Turns ... taken directly from the
    starship's 'Maneuverability' die code"; "10 - (starfighter piloting + maneuverability) =
    Turn Distance". Worked by hand: X-wing (8, 4D+1, 3D) 8/12, 3 turns, TD 3 (the seed's own
    example); Red Leader (8, 6D, 3D) 4+6=10 / 8+6=14, 3 turns, TD 10-9=1; TIE (10, 4D, 2D)
    5+4=9 / 14, 2 turns, TD 4; Star Destroyer (6, 4D, 1D) 3+4=7 / 10, 1 turn, TD 5."""
    _, snap = board.send({"c": "snap"})
    got = snap["profile"]["movement"]
    want = {
        "Red 1": (8, 12, 3, 3),
        "Red Leader": (10, 14, 3, 1),
        "Black 1": (9, 14, 2, 4),
        "Star Destroyer": (7, 10, 1, 5),
    }
    for name, (attack, full, turns, distance) in want.items():
        row = got[name]
        assert (row["attack_speed"], row["full_throttle"], row["turns"], row["turn_distance"]) == (
            attack,
            full,
            turns,
            distance,
        ), (name, row)


def test_turn_distance_before_each_turn(board):
    """Seed 002 "Turn Distance": "it must move three hexes before each of those turns" (the
    X-wing, TD 3). At Full Throttle (12 hexes) 3 turns need 9 hexes: 9 hexes pass, 8 do not;
    4 turns are more than its # of Turns (3)."""
    board.refused({"c": "move", "ship": 0, "mode": 2, "turns": 3, "hexes": 8})
    board.refused({"c": "move", "ship": 0, "mode": 2, "turns": 4, "hexes": 12})
    board.refused({"c": "move", "ship": 0, "mode": 1, "turns": 0, "hexes": 9})  # AS is 8
    move(board, 0, 2, turns=3, hexes=9)


def test_full_throttle_squadron_rate_and_no_fire(board):
    """Seed 002: "all ships in a Squadron must move at the same rate"; "Ships flying at Full
    Throttle may not fire in the Combat Phase". Red 1 at Full Throttle: Red 2 may not move at
    Attack Speed; in combat Red 1 may not fire (a hit by it is refused), Black 1 (Attack
    Speed) may."""
    move(board, 0, 2)
    board.refused({"c": "move", "ship": 1, "mode": 1})
    for ship in (1, 2, 3):
        move(board, ship, 2)
    for ship in (5, 6, 7, 8):
        move(board, ship, 1)
    move(board, 4, 1)
    move(board, 9, 1)
    board.ok({"c": "phase"})
    board.refused({"c": "hit", "ship": 5, "by": 0})
    snap = board.ok({"c": "hit", "ship": 0, "by": 5})
    assert snap["ships"][0]["status"] == "destroyed"


def test_dead_stop_only_after_attack_speed(board):
    """Seed 002: "only Capital Ships and Heroes may choose to come to a dead stop - and only
    then if they moved at Attack Speed in the prior round". Round 1: the Corvette moves at
    Full Throttle, the Star Destroyer at Attack Speed; round 2: the Star Destroyer may stop
    dead, the Corvette may not, nor may a squadron fighter (Black 1)."""
    for ship in (0, 1, 2, 3):
        move(board, ship, 1)
    for ship in (5, 6, 7, 8):
        move(board, ship, 1)
    move(board, 4, 2)
    move(board, 9, 1)
    board.ok({"c": "phase"})
    snap = board.ok({"c": "phase"})
    assert (snap["round"], snap["phase"]) == (2, "movement")
    board.refused({"c": "move", "ship": 0, "mode": 3})
    for ship in (0, 1, 2, 3):
        move(board, ship, 1)
    board.refused({"c": "move", "ship": 5, "mode": 3})
    move(board, 9, 3)
    board.refused({"c": "move", "ship": 4, "mode": 3})


def test_one_side_out_of_units_the_other_goes_on(board):
    """Seed 002: "players alternate moving their Squadrons, Heroes, and Capital Ships";
    docs/rules.md: "the sides alternating while the other side has units left". The Rebels
    move both units first (Red Squadron, Corvette) after the Empire's first: once the
    Rebels have none left, the Empire moves its last unit, and the phase then ends."""
    for ship in (5, 6, 7, 8):
        move(board, ship, 1)
    for ship in (0, 1, 2, 3):
        move(board, ship, 1)
    move(board, 9, 1)
    move(board, 4, 1)
    snap = board.ok({"c": "phase"})
    assert snap["phase"] == "combat"


def test_squadron_destroyed_in_combat_does_not_block_the_next_round(board):
    """Seed 002 (combat between movement phases): Black Squadron wholly destroyed, and Red
    Squadron down to Red Leader, in round 1's combat. Round 2: each side's remaining units
    move (the Empire's Star Destroyer, the Rebels' Red Leader and Corvette) and the phase
    then ends; nothing waits for a destroyed craft."""
    play_round_one(board)
    for target in (5, 6, 7, 8):
        board.ok({"c": "hit", "ship": target, "by": 4})
    for target in (0, 1, 2):
        board.ok({"c": "hit", "ship": target, "by": 9})
    snap = board.ok({"c": "phase"})
    assert (snap["round"], snap["phase"]) == (2, "movement")
    move(board, 3, 1)
    move(board, 9, 1)
    move(board, 4, 1)
    snap = board.ok({"c": "phase"})
    assert (snap["round"], snap["phase"]) == (2, "combat")


def test_squadron_partly_destroyed_completes_its_activation(board):
    """Seed 002 ("all ships in a Squadron must move at the same rate"): Red 1 and Red 2
    destroyed in round 1; in round 2 Red Squadron's activation is Red 3 and Red Leader only:
    once they moved, the Empire's unit is next (it is not refused as "finish the squadron")."""
    play_round_one(board)
    board.ok({"c": "hit", "ship": 0, "by": 9})
    board.ok({"c": "hit", "ship": 1, "by": 9})
    board.ok({"c": "phase"})
    move(board, 2, 2)
    move(board, 3, 2)
    move(board, 9, 1)
    move(board, 4, 1)
    for ship in (5, 6, 7, 8):
        move(board, ship, 1)
    snap = board.ok({"c": "phase"})
    assert snap["phase"] == "combat"


def test_undo_always_reaches_back(board):
    """Play never locks: undo takes back a move, a phase end, a hit, a round end (the event
    log is append-only, docs/protocol.md "undo reverts the newest event still in effect")."""
    _, start_snap = board.send({"c": "snap"})
    snap = play_round_one(board)
    board.ok({"c": "hit", "ship": 5, "by": 0})
    snap = board.ok({"c": "phase"})
    assert snap["round"] == 2
    for _ in range(13):  # 10 moves, 2 phase ends, 1 hit
        snap = board.ok({"c": "undo"})
    assert "nothing to undo" in board.refused({"c": "undo"})
    assert snap["state_hash"] == start_snap["state_hash"]
    assert snap["round"] == 1 and snap["phase"] == "movement"


def test_craft_with_zero_rates_can_still_be_moved(board):
    """Edge case: a squadron fighter with Space 0 and piloting 0D has Attack Speed 0 and Full
    Throttle 0 (seed 002's formulas) and may not stop dead (not a capital ship or hero); it
    must still be movable (0 hexes at Attack Speed), or the movement phase could never end."""
    roster = {
        "name": "zero",
        "ruleset": "squadrons-d6",
        "sides": [
            {
                "name": "A",
                "ships": [
                    {
                        "name": "Hulk",
                        "class": 4,
                        "hp": 1,
                        "stats": {"space": 0, "piloting": "0D", "maneuverability": "0D"},
                    }
                ],
            },
            {
                "name": "B",
                "ships": [
                    {
                        "name": "Dart",
                        "class": 4,
                        "hp": 1,
                        "stats": {"space": 8, "piloting": "4D", "maneuverability": "2D"},
                    }
                ],
            },
        ],
    }
    board.ok({"c": "load", "roster": roster})
    move(board, 0, 1)
    move(board, 1, 1)
    snap = board.ok({"c": "phase"})
    assert snap["phase"] == "combat"


def test_pad_plays_a_squadron_move_with_turns_and_hexes(board):
    """docs/script.md: squadrons-d6 `opt4` one more turn used, `alt1` one more hex moved,
    `opt1` Attack Speed. The X-wing's 2 turns need 6 hexes (TD 3): 6 presses of alt1 and 2 of
    opt4 then opt1 record a move of mode 1, hexes 6, turns 2."""
    msgs, _ = board.key("sel:0", "opt4", "opt4", *(["alt1"] * 6), "opt1")
    evs = [m["ev"] for m in msgs if m.get("t") == "ev"]
    assert evs == [[11, 0, 1 + 4 * 7, 2]], msgs
