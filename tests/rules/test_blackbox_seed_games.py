"""Hand-worked situations, three or more per seed, played over a simulator's serial port
and compared with the outcome worked out from the seed text alone (seeds in
/work/shared/seeds; squadrons-d6, seed 002, is in test_blackbox_squadrons.py).

Rosters (firmware/rosters): swsb-example: 0 Mon Calamari Cruiser, 1 Millennium Falcon,
2 Luke's X-wing, 3-4 X-wing 1-2 | 5 Imperial Star Destroyer, 6 Slave I, 7-9 TIE Fighter 1-3
(not launched). swsb-addon-example: 0 Mon Calamari Cruiser (class 2), 1 Millennium Falcon
(3), 2-3 X-wing 1-2 (4) | 4 Invisible Hand (2), 5 Cloaked Raider (3), 6-7 Vulture Droid 1-2
(4). hoth: 0 Star Destroyer, 1-3 TIE Fighter 1-3 (aboard) | 4 Troop Transport, 5-6 X-Wing
1-2. xwing-overlap-example: 0-1 X-wing 1-2 (small), 2 YT-1300 (large), 3 CR90 Corvette
(huge) | 4-5 TIE Fighter 1-2 (small), 6 VT-49 Decimator (large), 7 Raider (huge)."""

import pytest

from support.blackbox import start


@pytest.fixture
def play(request):
    boards = []

    def make(scenario):
        sim, host = start("--scenario", scenario, "--seed", "1")
        boards.append((sim, host))
        return host

    yield make
    for sim, host in boards:
        host.close()
        sim.stop()


def damage(snap, ship):
    row = snap["ships"][ship]
    return row["damage"], row["status"]


# ---- seed 000 (swsb): WotC errata and FAQ --------------------------------------------


def test_swsb_highest_roll_moves_last_and_ties_are_rerolled(play):
    """Seed 000 "initiative check": "Whoever rolls highest moves last and attacks first.
    Reroll ties." 9:9 is a tie: the phase may not go on until a new roll; 5:17: side 1 has
    the initiative and side 0 moves first."""
    host = play("swsb-example")
    host.ok({"c": "roll", "values": [9, 9]})
    assert "tied" in host.refused({"c": "phase"})
    snap = host.ok({"c": "roll", "values": [5, 17]})
    assert (snap["initiative"], snap["moves_first"]) == (1, 0)


def swsb_to_move(host):
    host.ok({"c": "roll", "values": [5, 17]})
    return host.ok({"c": "phase"})


def test_swsb_one_counter_per_option_and_the_chart_clears(play):
    """Seed 000 "Fleet Command Options": "You cannot place two counters on the same
    option--that option can't be used again for the rest of the round. At the end of the
    round, clear all the counters from the chart. (They are used for the game; they do not
    get restored...)". The Mon Calamari Cruiser (3 counters) plays Incoming Fighters; the
    Falcon may not play it again this round; in round 2 the chart is clear, the Cruiser has
    2 counters left and the Falcon may play Incoming Fighters."""
    host = play("swsb-example")
    swsb_to_move(host)
    snap = host.ok({"c": "counter", "ship": 0, "option": 1})
    assert snap["ships"][0]["counters"] == 2
    host.refused({"c": "counter", "ship": 1, "option": 1})
    for _ in range(12):
        msgs, snap = host.send({"c": "phase"})
        if snap["round"] == 2:
            break
    assert snap["round"] == 2, msgs
    assert all(holder is None for side in snap["chart"] for _, holder in side), snap["chart"]
    assert snap["ships"][0]["counters"] == 2
    host.ok({"c": "roll", "values": [5, 17]})
    host.ok({"c": "phase"})
    snap = host.ok({"c": "counter", "ship": 1, "option": 1})
    assert snap["ships"][1]["counters"] == 1


def test_swsb_counter_for_unlaunched_fighter_not_from_destroyed_ship(play):
    """Seed 000 FAQ: "Can a play a Command counter on a ship that has already been destroyed
    or a fighter that hasn't been launched yet? No to a ship that has been destroyed. Yes to
    a fighter prior to being launched." The Star Destroyer plays Incoming Fighters for TIE
    Fighter 1 (aboard): accepted. Luke's X-wing (1 counter) destroyed: its counter, and a
    counter played for it, are refused."""
    host = play("swsb-example")
    swsb_to_move(host)
    host.ok({"c": "counter", "ship": 5, "option": 1, "for": 7})
    hp = host.send({"c": "snap"})[1]["ships"][2]["hp"]
    for _ in range(6):  # on to the phase where damage is marked
        host.ok({"c": "phase"})
        msgs, snap = host.send({"c": "hit", "ship": 2, "n": hp[0] + hp[1]})
        if not [m for m in msgs if m.get("t") == "err"]:
            break
    for _ in range(6):  # on until the damage is applied
        if snap["ships"][2]["status"] == "destroyed":
            break
        msgs, snap = host.send({"c": "phase"})
    assert snap["ships"][2]["status"] == "destroyed", snap["ships"][2]
    host.refused({"c": "counter", "ship": 2, "option": 2})
    host.refused({"c": "counter", "ship": 0, "option": 3, "for": 2})


# ---- seed 001 (swsb-addon): alternating activation ----------------------------------


def addon_to_move(host, first=0):
    host.ok({"c": "roll", "values": [15, 3]})
    host.ok({"c": "phase"})
    return host.ok({"c": "choose", "side": first})


def test_addon_two_ships_at_a_time(play):
    """Seed 001 "Alternating Activation": "Players move two ships at a time. Once that player
    has finished moving their two ships their opponent can move two of theirs." Light Side
    chosen first: after the Cruiser alone, the Dark Side may not move yet; after the Falcon
    too, a third Light Side ship may not move and the Invisible Hand may."""
    host = play("swsb-addon-example")
    addon_to_move(host, 0)
    host.ok({"c": "move", "ship": 0})
    host.refused({"c": "move", "ship": 4})
    host.ok({"c": "move", "ship": 1})
    host.refused({"c": "move", "ship": 2})
    host.ok({"c": "move", "ship": 4})


def test_addon_capital_ships_first_then_fighters_from_the_first_player(play):
    """Seed 001: "alternate moving their Class 1 – 3 starships first. Once the players have
    finished moving all of their Class 1 – 3 ships they will, starting again with the player
    chosen to move first, move their Class 4 ships." Dark Side chosen first: Invisible Hand
    and Cloaked Raider, then the Light Side's Cruiser and Falcon; a Light X-wing before that
    is refused; then the Dark Side's Vulture Droids start the class 4 moves (a Light X-wing
    first is refused)."""
    host = play("swsb-addon-example")
    addon_to_move(host, 1)
    host.ok({"c": "move", "ship": 4})
    host.ok({"c": "move", "ship": 5})
    host.refused({"c": "move", "ship": 2})
    host.ok({"c": "move", "ship": 0})
    host.ok({"c": "move", "ship": 1})
    host.refused({"c": "move", "ship": 2})
    host.ok({"c": "move", "ship": 6})


def test_addon_one_turn_per_class_number(play):
    """Seed 001: "Units can make one turn per Class number ... Fighters, Class 4 ships, are
    an exception in that they can simply be turned to face any direction". Class 2 Cruiser:
    3 turns refused, 2 taken; class 3 Falcon: 4 refused, 3 taken."""
    host = play("swsb-addon-example")
    addon_to_move(host, 0)
    host.refused({"c": "move", "ship": 0, "turns": 3})
    host.ok({"c": "move", "ship": 0, "turns": 2})
    host.refused({"c": "move", "ship": 1, "turns": 4})
    host.ok({"c": "move", "ship": 1, "turns": 3})


# ---- seed 004 (smb): Starwars Miniatures Battlegame ---------------------------------


def hoth_to_move(host):
    host.ok({"c": "roll", "values": [15, 3]})
    return host.ok({"c": "phase"})


def test_smb_capital_ship_moves(play):
    """Seed 004: a capital ship's standard move is "up to one space forward, and make one
    turn of 90 degrees"; "a full power move, in which they move two spaces straight
    forward". The Star Destroyer: 2 turns refused, a full-power move with a turn refused,
    a standard move with 1 turn taken."""
    host = play("hoth")
    hoth_to_move(host)
    host.refused({"c": "move", "ship": 0, "turns": 2})
    host.refused({"c": "move", "ship": 0, "mode": 2, "turns": 1})
    host.ok({"c": "move", "ship": 0, "turns": 1})


def test_smb_fighter_two_turns_transport_one(play):
    """Seed 004: fighters' standard moves "make up to two 90 degree turns"; the Troop
    Transport is "Unwieldy: May only make 1 turn". TIE Fighter 1 (launched): 3 refused, 2
    taken; then the Transport: 2 refused, 1 taken."""
    host = play("hoth")
    hoth_to_move(host)
    host.ok({"c": "launch", "ship": 1})
    host.refused({"c": "move", "ship": 1, "turns": 3})
    host.ok({"c": "move", "ship": 1, "turns": 2})
    host.ok({"c": "move", "ship": 0})
    host.refused({"c": "move", "ship": 4, "turns": 2})
    host.ok({"c": "move", "ship": 4, "turns": 1})


def test_smb_initiative_player_moves_all_ships_first(play):
    """Seed 004: "The player with the initiative moves all their ships ..., then the other
    player moves". Initiative 15:3 for the Empire: the Troop Transport may not move before
    the Star Destroyer has moved."""
    host = play("hoth")
    snap = hoth_to_move(host)
    assert snap["initiative"] == 0
    host.refused({"c": "move", "ship": 4})
    host.ok({"c": "move", "ship": 0})
    host.ok({"c": "move", "ship": 4})


# ---- seed 003 (xwing-overlap) --------------------------------------------------------


def test_xwing_touching_ships_cannot_attack_each_other(play):
    """Seed 003: "While a ship is touching another ship, those ships cannot attack each
    other. They can still attack enemy ships that they are not touching"; "The ship must
    skip its 'Perform Action' step"; "The ships do not damage each other". X-wing 1
    overlaps TIE Fighter 1: neither may hit the other, X-wing 1 may hit TIE Fighter 2; X-wing
    1 skips its action; no damage from the overlap."""
    host = play("xwing-overlap-example")
    snap = host.ok({"c": "overlap", "ship": 0, "other": 4})
    assert snap["profile"]["skips_action"] == [0]
    assert damage(snap, 0) == (0, "ok") and damage(snap, 4) == (0, "ok")
    host.refused({"c": "hit", "ship": 4, "by": 0})
    host.refused({"c": "hit", "ship": 0, "by": 4})
    snap = host.ok({"c": "hit", "ship": 5, "by": 0})
    assert damage(snap, 5)[0] == 1


def test_xwing_huge_over_small_and_large(play):
    """Seed 003 "Overlapping Small or Large Ships": overlapped ships "are immediately
    destroyed and the huge ship ... does not skip its 'Perform Action' step"; "one attack die
    for each small ship ... and two attack dice for each large ship"; the huge ship "suffers
    any damage (hit)". Raider over X-wing 2 with one die (a hit, face 1) and over the YT-1300
    with two dice (one die refused; faces 1 and 2: two hits): both destroyed, the Raider
    takes 3 damage and does not skip its action."""
    host = play("xwing-overlap-example")
    snap = host.ok({"c": "overlap", "ship": 7, "other": 1, "dice": [1]})
    assert damage(snap, 1)[1] == "destroyed"
    host.refused({"c": "overlap", "ship": 7, "other": 2, "dice": [1]})
    snap = host.ok({"c": "overlap", "ship": 7, "other": 2, "dice": [1, 2]})
    assert damage(snap, 2)[1] == "destroyed"
    assert damage(snap, 7) == (3, "ok")
    assert 7 not in snap["profile"]["skips_action"]


def test_xwing_huge_over_huge_and_large_over_huge(play):
    """Seed 003: huge over huge: "the huge ship that moved does not skip its 'Perform Action'
    step. Instead, both huge ships are dealt one faceup Damage card"; small/large over huge:
    "rolls one attack die and suffers any damage (hit)" and skips its action. Raider over
    CR90: 1 damage each, no skip; VT-49 over the CR90 with a hit (face 1): the VT-49 takes
    1, skips its action; the CR90 takes nothing more."""
    host = play("xwing-overlap-example")
    snap = host.ok({"c": "overlap", "ship": 7, "other": 3})
    assert damage(snap, 7)[0] == 1 and damage(snap, 3)[0] == 1
    assert 7 not in snap["profile"]["skips_action"]
    snap = host.ok({"c": "overlap", "ship": 6, "other": 3, "dice": [1]})
    assert damage(snap, 6)[0] == 1 and damage(snap, 3)[0] == 1
    assert 6 in snap["profile"]["skips_action"]


def test_smb_tie_keeps_last_rounds_initiative(play):
    """Seed 004: "In the case of a tie the player who had the initiative last turn keeps it
    for this turn." Round 1: 15:3, the Empire (side 0). Round 2: 7:7 keeps it with the
    Empire, and play goes on (the phase is not refused as a tie)."""
    host = play("hoth")
    hoth_to_move(host)
    for ship in (0, 4, 5, 6):
        host.ok({"c": "move", "ship": ship})
    for _ in range(4):
        msgs, snap = host.send({"c": "phase"})
        if snap["round"] == 2:
            break
    assert snap["round"] == 2, msgs
    snap = host.ok({"c": "roll", "values": [7, 7]})
    assert snap["initiative"] == 0
    snap = host.ok({"c": "phase"})
    assert snap["phase"] == "movement"
