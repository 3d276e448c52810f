"""Short games worked out by hand from the seed texts (/work/shared/seeds, and the rules
digest where it marks a figure as roster data or a setting), played on a simulated board
through its serial protocol (docs/protocol.md) with the dice given, and compared with the
hand-worked outcome: hit points, round, phase, initiative holder, winner.

Every expected value below is derived in the comments from the seed text, never copied from
the board. Rosters (firmware/rosters):
swsb-example: 0 Mon Calamari Cruiser (class 2, hp 6/4, cc 3), 1 Millennium Falcon (3, 3/2,
cc 2), 2 Luke's X-wing (4, 1/1, cc 1), 3-4 X-wing 1-2 (4, 1) | 5 Imperial Star Destroyer
(2, 6/4, cc 3), 6 Slave I (3, 3/2, cc 1), 7-9 TIE Fighter 1-3 (aboard).
swsb-addon-example: 0 Mon Calamari Cruiser (2; Defense 15, attack 6), 1 Millennium Falcon
(3; 17, 5), 2-3 X-wing (4; 15, 4) | 4 Invisible Hand (2; 14, 6), 5 Cloaked Raider (3; 16,
5, cloak), 6-7 Vulture Droid (4; 14, 3).
hoth (seed 004 Scenario 1): 0 Star Destroyer (takes 3 hits; defence 12/22/27; Main Guns
capital +5), 1-3 TIE Fighter (aboard; Lasers rapid +2) | 4 Troop Transport (takes 2 hits;
14/20/23; +4 against snub), 5-6 X-Wing (21/18/12; Lasers rapid +3).
xwing-overlap-example: 0-1 X-wing (small, hp 5), 2 YT-1300 (large), 3 CR90 (huge, 20) |
4-5 TIE Fighter (small, hp 3), 6 VT-49 (large), 7 Raider (huge, 20)."""

import pytest

from support.checkhost import host_fixture, new_game
from support import rosters


host = host_fixture("--scenario", "swsb-example", "--seed", "7")


def ship(snap, index):
    row = snap["ships"][index]
    return row["damage"], row["pending"], row["status"]


def phase_until(host, phase, limit=8):
    """Send `phase` until the board is in ``phase``; returns that snap."""
    for _ in range(limit):
        snap = host.ok({"c": "phase"})
        if snap["phase"] == phase:
            return snap
    raise AssertionError("never reached %s: %r" % (phase, snap["phase"]))


# ---- swsb (seed 000, the WotC errata and FAQ) ------------------------------------------


def swsb_to_attack(host, values):
    """Initiative with physical dice, then on to the attack step (after all PD)."""
    host.ok({"c": "roll", "values": values})
    return phase_until(host, "attack")


def test_swsb_three_rounds_damage_waits_flips_and_destroys(host):
    """Seed 000 "initiative check": "Each player rolls the d20 for initiative. Whoever rolls
    highest moves last and attacks first. Reroll ties." Errata "Emperor's Will": damage is
    normally resolved "during the damage phase". Digest 2.2 (W1): hp X/Y, damaged at X,
    destroyed at X+Y, excess carries over. The Falcon is 3/2.

    Round 1: 12 v 7: side 0 has the initiative, side 1 moves first. Falcon hit for 2 in the
    attack step: pending 2, damage 0; at the damage phase damage 2 (< 3: not damaged).
    Round 2: 4 v 18: side 1 holds it, side 0 moves first. Hit 2 more: damage 4 >= 3:
    damaged (card flipped), not destroyed (4 < 5).
    Round 3: 10 v 10 ties: no phase may follow; reroll 11 v 10: side 0. Hit 3: damage 7 >=
    5: destroyed."""
    new_game(host, scenario="swsb-example")
    snap = host.ok({"c": "roll", "values": [12, 7]})
    assert (snap["round"], snap["initiative"], snap["moves_first"]) == (1, 0, 1)
    swsb_snap = phase_until(host, "attack")
    assert swsb_snap["round"] == 1
    snap = host.ok({"c": "hit", "ship": 1, "n": 2})
    assert ship(snap, 1) == (0, 2, "ok")
    snap = phase_until(host, "damage")
    assert ship(snap, 1)[:2] == (2, 0) and ship(snap, 1)[2] != "destroyed"
    assert ship(snap, 1)[2] != "damaged"
    snap = host.ok({"c": "phase"})
    # End of round: round 2 starts with a fresh initiative check.
    assert (snap["round"], snap["phase"], snap["initiative"]) == (2, "initiative", None)

    snap = host.ok({"c": "roll", "values": [4, 18]})
    assert (snap["initiative"], snap["moves_first"]) == (1, 0)
    phase_until(host, "attack")
    host.ok({"c": "hit", "ship": 1, "n": 2})
    snap = phase_until(host, "damage")
    assert ship(snap, 1) == (4, 0, "damaged")
    host.ok({"c": "phase"})

    host.ok({"c": "roll", "values": [10, 10]})
    host.refused({"c": "phase"})  # "Reroll ties."
    snap = host.ok({"c": "roll", "values": [11, 10]})
    assert (snap["round"], snap["initiative"], snap["moves_first"]) == (3, 0, 1)
    phase_until(host, "attack")
    host.ok({"c": "hit", "ship": 1, "n": 3})
    snap = phase_until(host, "damage")
    assert ship(snap, 1)[2] == "destroyed"


def test_swsb_one_big_hit_beyond_both_stages_destroys(host):
    """Digest 2.2 (W1): "Luke's 1/1 X-wing dies to a second hit or to one 2-point hit";
    damage beyond X carries over. A 2-point hit on Luke's X-wing (1/1) destroys it; a
    12-point hit on the Mon Calamari Cruiser (6/4, destroyed at 10) destroys it too; a
    3-point hit on an X-wing of 1 hp destroys it."""
    new_game(host, scenario="swsb-example")
    swsb_to_attack(host, [3, 9])
    host.ok({"c": "hit", "ship": 2, "n": 2})
    host.ok({"c": "hit", "ship": 0, "n": 12})
    host.ok({"c": "hit", "ship": 3, "n": 3})
    snap = phase_until(host, "damage")
    for index in (0, 2, 3):
        assert snap["ships"][index]["status"] == "destroyed", snap["ships"][index]
    assert snap["ships"][4]["status"] == "ok"


def test_swsb_counters_are_spent_for_the_game(host):
    """Seed 000 "Fleet Command Options": "Play a counter by removing it from the ship ...
    At the end of the round, clear all the counters from the chart. (They are used for the
    game; they do not get restored to the command ship.)" Slave I has 1 counter: it plays
    Incoming Fighters (option 1) in round 1; in round 2 the chart is clear but Slave I has
    no counter left, so it cannot play any option; the Star Destroyer (3) still can."""
    new_game(host, scenario="swsb-example")
    host.ok({"c": "roll", "values": [3, 9]})
    host.ok({"c": "phase"})
    snap = host.ok({"c": "counter", "ship": 6, "option": 1})
    assert snap["ships"][6]["counters"] == 0
    assert snap["chart"][1][1][1] is not None
    snap = phase_until(host, "initiative")
    assert snap["round"] == 2
    assert all(holder is None for side in snap["chart"] for _, holder in side)
    assert snap["ships"][6]["counters"] == 0  # not restored
    host.ok({"c": "roll", "values": [3, 9]})
    host.ok({"c": "phase"})
    host.refused({"c": "counter", "ship": 6, "option": 1})
    host.refused({"c": "counter", "ship": 6, "option": 3})
    snap = host.ok({"c": "counter", "ship": 5, "option": 1})
    assert snap["ships"][5]["counters"] == 2


def test_swsb_fly_casual_class_3_only_and_once_a_round(host):
    """Seed 000 "Specific Fleet Command Questions": "Does Fly Casual allow any ship to avoid
    a hit (not just class 3 starships)? Can it be used more than once per round? No and
    no." The Mon Calamari Cruiser (class 2) and the Falcon (class 3) are hit for 1 each.
    Fly Casual (option 0) for the Cruiser is refused (class 2); for the Falcon it is played
    (from the Cruiser's card) and the Falcon avoids the hit. A second hit on the Falcon
    cannot be avoided with Fly Casual again this round. At the damage phase: Cruiser 1,
    Falcon 1 (the second hit only)."""
    new_game(host, scenario="swsb-example")
    swsb_to_attack(host, [3, 9])
    host.ok({"c": "hit", "ship": 0, "n": 1})
    host.ok({"c": "hit", "ship": 1, "n": 1})
    host.refused({"c": "counter", "ship": 0, "option": 0, "for": 0})
    snap = host.ok({"c": "counter", "ship": 0, "option": 0, "for": 1})
    assert ship(snap, 1) == (0, 0, "ok")
    host.ok({"c": "hit", "ship": 1, "n": 1})
    host.refused({"c": "counter", "ship": 1, "option": 0, "for": 1})
    snap = phase_until(host, "damage")
    assert ship(snap, 0)[0] == 1 and ship(snap, 1)[0] == 1


EMPERORS_WILL = rosters.two_sides(
    "Emperor's Will",
    "swsb",
    [
        rosters.ship(
            "Flagship", 1, [4, 2], {"defense": 14, "attack": 6, "pd": 2, "emperors_will": True}
        ),
        rosters.ship("Escort", 3, [3, 2], {"defense": 15}),
        rosters.ship("TIE", 4, 1, {"defense": 14, "attack": 3}),
    ],
    [
        rosters.ship("Cruiser", 2, [6, 4], {"defense": 15}),
        rosters.ship("X-wing", 4, 1, {"defense": 15}),
    ],
    sides=("Dark", "Light"),
)


def test_swsb_emperors_will_moves_damage_to_an_allied_fighter_at_once(host):
    """Seed 000 errata "Emperor's Will": "This ship can shift the damage taken from a
    nonadjacent enemy's attack to any adjacent allied fighter. Resolve damage transferred in
    this fashion immediately rather than during the damage phase." The Flagship is hit for 1
    (pending). It may not shift it onto an enemy fighter, nor onto an allied ship that is no
    fighter (the Escort), and the Escort (no Emperor's Will) may shift nothing. Shifted onto
    the allied TIE (1 hp): the TIE is destroyed at once, still in the attack step, and the
    Flagship's pending damage is gone; at the damage phase the Flagship has taken 0."""
    new_game(host, roster=EMPERORS_WILL)
    # 2 v 15: the Light side attacks first (seed 000 "initiative check").
    swsb_to_attack(host, [2, 15])
    host.ok({"c": "hit", "ship": 0, "n": 1, "by": 3})
    host.ok({"c": "hit", "ship": 1, "n": 1})
    host.refused({"c": "transfer", "ship": 0, "to": 4, "n": 1})
    host.refused({"c": "transfer", "ship": 0, "to": 1, "n": 1})
    host.refused({"c": "transfer", "ship": 1, "to": 2, "n": 1})
    snap = host.ok({"c": "transfer", "ship": 0, "to": 2, "n": 1})
    assert snap["phase"] == "attack"
    assert snap["ships"][2]["status"] == "destroyed"
    assert ship(snap, 0) == (0, 0, "ok")
    snap = phase_until(host, "damage")
    assert ship(snap, 0)[0] == 0 and ship(snap, 1)[0] == 1


# ---- swsb-addon (seed 001, fan add-on rules) --------------------------------------------


def test_addon_round_chosen_side_fires_first_damage_after_each_ship(host):
    """Seed 001 "Alternating Activation": "The Player that won the Initiative roll can
    determine who moves first. This player will also fire first." 6 v 14: side 1 wins and
    lets side 0 move first, so side 0 fires first: a side 1 ship may not open the firing.
    "Damage is assessed as soon as a ship has finished firing all of its weapons."
    Range table: "Very Close 0-8" 0", "Medium 17-24" -2"; "Combat is resolved as usual": d20
    + attack against Defense (digest 2.2).
    - Mon Calamari Cruiser (attack 6) at the Invisible Hand (Defense 14), 5": roll 12 ->
      18 >= 14, hit. Its damage is assessed when it is done: Invisible Hand damage 1.
    - Invisible Hand (attack 6) at the Falcon (17), 20" (Medium, -2): roll 14 -> 18 >= 17,
      hit; done: Falcon damage 1.
    - Falcon (attack 5) at the Cloaked Raider (16, Cloak), 5": "The Cloak ability moves any
      fire directed at the ship to the next range band": Close, -1: roll 11 -> 15 < 16:
      a miss (it would hit at Very Close: 16)."""
    new_game(host, scenario="swsb-addon-example")
    snap = host.ok({"c": "roll", "values": [6, 14]})
    assert snap["initiative"] == 1
    host.ok({"c": "phase"})
    snap = host.ok({"c": "choose", "side": 0})
    assert snap["moves_first"] == 0
    snap = phase_until(host, "attack")
    host.ok({"c": "aim", "ship": 4, "weapon": 0, "arg": 20})
    host.refused({"c": "attack", "ship": 4, "target": 1, "roll": 14})
    host.ok({"c": "aim", "ship": 0, "weapon": 0, "arg": 5})
    snap = host.ok({"c": "attack", "ship": 0, "target": 4, "roll": 12})
    assert snap["ships"][4]["damage"] + snap["ships"][4]["pending"] == 1
    snap = host.ok({"c": "done", "ship": 0})
    assert ship(snap, 4) == (1, 0, "ok")
    snap = host.ok({"c": "attack", "ship": 4, "target": 1, "roll": 14})
    snap = host.ok({"c": "done", "ship": 4})
    assert ship(snap, 1) == (1, 0, "ok")
    host.ok({"c": "aim", "ship": 1, "weapon": 0, "arg": 5})
    snap = host.ok({"c": "attack", "ship": 1, "target": 5, "roll": 11})
    snap = host.ok({"c": "done", "ship": 1})
    assert ship(snap, 5) == (0, 0, "ok")


NATURAL_20 = rosters.two_sides(
    "Long odds",
    "swsb-addon",
    [rosters.ship("Gunboat", 2, [2, 1], {"attack": 0})],
    [rosters.ship("Fortress", 2, [2, 1], {"defense": 30})],
    sides=("A", "B"),
)


def test_addon_a_roll_of_20_always_hits(host):
    """Seed 001: "A roll of 20 always hits regardless of the cumulative die roll
    modifiers." Gunboat (attack 0) at the Fortress (Defense 30), 40" (Extreme, -4): 19 ->
    15, a miss; 20 -> 16 < 30 but hits. Damage assessed when the Gunboat is done: 1."""
    new_game(host, roster=NATURAL_20)
    host.ok({"c": "roll", "values": [18, 2]})
    host.ok({"c": "phase"})
    host.ok({"c": "choose", "side": 0})
    phase_until(host, "attack")
    host.ok({"c": "aim", "ship": 0, "weapon": 0, "arg": 40})
    snap = host.ok({"c": "attack", "ship": 0, "target": 1, "roll": 19})
    assert snap["ships"][1]["damage"] + snap["ships"][1]["pending"] == 0
    host.ok({"c": "undo"})
    host.ok({"c": "attack", "ship": 0, "target": 1, "roll": 20})
    snap = host.ok({"c": "done", "ship": 0})
    assert snap["ships"][1]["damage"] == 1


# ---- smb (seed 004, fan Starwars Miniatures Battlegame, Escape from Hoth) ----------------

HOTH_TABLE = {0: (0,), 1: (4, 5, 6)}  # ships on the table at the start, by side


def smb_movement(host, values, launched=()):
    """Initiative with ``values``, then the movement phase: the initiative player moves all
    their ships, then the other player (seed 004 "Movement Phase"). Returns the holder."""
    snap = host.ok({"c": "roll", "values": values})
    holder = snap["initiative"]
    host.ok({"c": "phase"})
    table = {0: HOTH_TABLE[0] + tuple(launched), 1: HOTH_TABLE[1]}
    for side in (holder, 1 - holder):
        for index in table[side]:
            host.ok({"c": "move", "ship": index})
    return holder


def test_smb_hoth_empire_wins_by_destroying_the_transport(host):
    """Seed 004 "Initiative Phase": "the player with the higher roll has the initiative for
    the turn. In the case of a tie the player who had the initiative last turn keeps it".
    Capital Weapons: "roll 1d20 and add the attack value, compare this with the defence
    value"; "all fire is considered simultaneous". Hoth: Troop Transport "Takes 2 hits to
    destroy"; Victory: "The Imperial Player wins if they destroy the Troop Transport."
    Round 1: 15 v 3: Empire. Main Guns (+5) at the Transport's front (14): 15 + 5 = 20, hit.
    Round 2: 8 v 8 tie: the Empire keeps it. Main Guns 10 + 5 = 15 >= 14: second hit; the
    Transport is destroyed and the Empire has won; play stops (every event but undo
    refused: docs/protocol.md "Errors"); undo takes the win back."""
    new_game(host, scenario="hoth")
    assert smb_movement(host, [15, 3]) == 0
    snap = host.ok({"c": "phase"})
    assert snap["phase"] == "capital"
    host.ok({"c": "aim", "ship": 0, "weapon": 4, "arg": 0})
    host.ok({"c": "attack", "ship": 0, "target": 4, "roll": 15})
    snap = host.ok({"c": "phase"})
    assert (snap["round"], snap["phase"]) == (2, "initiative")
    assert snap["ships"][4]["damage"] == 1 and snap["winner"] is None
    assert smb_movement(host, [8, 8]) == 0
    host.ok({"c": "phase"})
    host.ok({"c": "aim", "ship": 0, "weapon": 4, "arg": 0})
    host.ok({"c": "attack", "ship": 0, "target": 4, "roll": 10})
    snap = host.ok({"c": "phase"})
    assert snap["ships"][4]["status"] == "destroyed"
    assert snap["winner"] == 0
    host.refused({"c": "roll", "values": [5, 6]})
    snap = host.ok({"c": "undo"})
    assert snap["winner"] is None


def test_smb_hoth_rebels_win_when_the_transport_exits(host):
    """Seed 004 Hoth Victory: "The Rebel player wins if they exit the Transport from the
    opposite table edge." 3 v 15: the Rebels have the initiative and move all their ships
    first ("The player with the initiative moves all their ships ... then the other player
    moves"): the Star Destroyer may not move before them. The Transport moves and exits by
    the far edge: the Rebels win; play stops."""
    new_game(host, scenario="hoth")
    snap = host.ok({"c": "roll", "values": [3, 15]})
    assert snap["initiative"] == 1
    host.ok({"c": "phase"})
    host.refused({"c": "move", "ship": 0})
    host.ok({"c": "move", "ship": 4})
    snap = host.ok({"c": "exit", "ship": 4, "kind": 1})
    assert snap["winner"] == 1
    host.refused({"c": "move", "ship": 5})


def test_smb_tie_keeps_the_holder_of_the_last_turn_after_a_change(host):
    """Seed 004: "In the case of a tie the player who had the initiative last turn keeps
    it for this turn." 15 v 3: Empire; 2 v 19: Rebels; 7 v 7: the Rebels (last turn's
    holder) keep it, and they move first ("The player with the initiative moves all their
    ships"): the Star Destroyer is refused a move until the Rebels have moved."""
    new_game(host, scenario="hoth")
    assert smb_movement(host, [15, 3]) == 0
    phase_until(host, "initiative")
    assert smb_movement(host, [2, 19]) == 1
    phase_until(host, "initiative")
    snap = host.ok({"c": "roll", "values": [7, 7]})
    assert (snap["round"], snap["initiative"]) == (3, 1)
    host.ok({"c": "phase"})
    host.refused({"c": "move", "ship": 0})


def test_smb_ion_cannon_holds_the_star_destroyer_for_the_next_round_only(host):
    """Seed 004 "The Ion Cannon": "may fire up to two bursts ... at +16 (as a capital
    weapon). It cannot do any damage but if it hits a Star Destroyer the vessel cannot move
    or fire in the next round." Round 1 capital phase: a burst at the side (22): 5 + 16 =
    21 < 22, a miss; a burst at the front (12): 1 + 16 = 17, hit, no damage; a third burst
    is refused. Round 2: the Star Destroyer may not move, nor fire its Main Guns. Round 3:
    it moves again."""
    new_game(host, scenario="hoth")
    smb_movement(host, [15, 3])
    host.ok({"c": "phase"})
    snap = host.ok({"c": "ion", "ship": 0, "roll": 5, "facing": 1})
    assert snap["profile"]["ionized"] == []
    snap = host.ok({"c": "ion", "ship": 0, "roll": 1, "facing": 0})
    assert snap["ships"][0]["damage"] + snap["ships"][0]["pending"] == 0
    host.refused({"c": "ion", "ship": 0, "roll": 20, "facing": 0})
    phase_until(host, "initiative")
    host.ok({"c": "roll", "values": [15, 3]})
    host.ok({"c": "phase"})
    host.refused({"c": "move", "ship": 0})
    for index in (4, 5, 6):
        host.ok({"c": "move", "ship": index})
    snap = phase_until(host, "capital")
    host.ok({"c": "aim", "ship": 0, "weapon": 4, "arg": 0})
    host.refused({"c": "attack", "ship": 0, "target": 4, "roll": 15})
    phase_until(host, "initiative")
    host.ok({"c": "roll", "values": [15, 3]})
    host.ok({"c": "phase"})
    host.ok({"c": "move", "ship": 0})


def test_smb_snub_defence_and_launch_one_a_turn(host):
    """Seed 004 Hoth: the Star Destroyer "Carries 3 fighters and may launch 1 a turn"; the
    Transport "Gains +4 to its defence against Snub weapons"; the Star Destroyer "Cannot be
    damaged by snub weapons". Round 1: TIE 1 launched, TIE 2 refused. TIE 1 makes a
    Fighter Attack move ("can fire any heavy or rapid weapons at a target in its threat
    zone at any point during the move") with Lasers (+2) at the Transport's front (14 + 4
    = 18): 14 + 2 = 16 < 18, a miss (it would hit a front of 14). Undone and rolled 17:
    19 >= 18, a hit. An X-Wing's Lasers at the Star Destroyer (front 12), 19 + 3 = 22,
    mark no damage. Round 2: TIE 2 launches."""
    new_game(host, scenario="hoth")
    host.ok({"c": "roll", "values": [15, 3]})
    host.ok({"c": "phase"})
    host.ok({"c": "launch", "ship": 1})
    host.refused({"c": "launch", "ship": 2})
    host.ok({"c": "move", "ship": 0})
    host.ok({"c": "move", "ship": 1, "mode": 3})
    host.ok({"c": "aim", "ship": 1, "weapon": 6, "arg": 0})
    snap = host.ok({"c": "attack", "ship": 1, "target": 4, "roll": 14})
    assert snap["ships"][4]["pending"] + snap["ships"][4]["damage"] == 0
    host.ok({"c": "undo"})
    snap = host.ok({"c": "attack", "ship": 1, "target": 4, "roll": 17})
    assert snap["ships"][4]["pending"] + snap["ships"][4]["damage"] == 1
    host.ok({"c": "move", "ship": 4})
    host.ok({"c": "move", "ship": 5, "mode": 3})
    host.ok({"c": "aim", "ship": 5, "weapon": 6, "arg": 0})
    host.send({"c": "attack", "ship": 5, "target": 0, "roll": 19})
    _, snap = host.send({"c": "snap"})
    assert snap["ships"][0]["pending"] + snap["ships"][0]["damage"] == 0
    host.ok({"c": "move", "ship": 6})
    phase_until(host, "initiative")
    host.ok({"c": "roll", "values": [15, 3]})
    host.ok({"c": "phase"})
    snap = host.ok({"c": "launch", "ship": 2})
    assert snap["ships"][2]["launched"]


# ---- xwing-overlap (seed 003) -------------------------------------------------------------


def test_xwing_huge_over_small_destroys_it_and_rolls_one_die(host):
    """Seed 003 "Overlapping Small or Large Ships": "the small or large ships overlapped by
    the huge ship are immediately destroyed ... the huge ship's player rolls one attack die
    for each small ship destroyed in the overlap and two attack dice for each large ship".
    CR90 over TIE Fighter 1: two dice for a small ship refused; one die: TIE 1 destroyed at
    once, whatever the die. CR90 over the VT-49 (large): one die refused, two taken; the
    VT-49 is destroyed."""
    new_game(host, scenario="xwing-overlap-example")
    host.refused({"c": "overlap", "ship": 3, "other": 4, "dice": [1, 2]})
    snap = host.ok({"c": "overlap", "ship": 3, "other": 4, "dice": [8]})
    assert snap["ships"][4]["status"] == "destroyed"
    host.refused({"c": "overlap", "ship": 3, "other": 6, "dice": [8]})
    snap = host.ok({"c": "overlap", "ship": 3, "other": 6, "dice": [8, 8]})
    assert snap["ships"][6]["status"] == "destroyed"


def test_xwing_huge_over_huge_one_damage_each_and_touching_ships_hold_fire(host):
    """Seed 003 "Overlapping Huge Ships": "the huge ship that moved does not skip its
    'Perform Action' step. Instead, both huge ships are dealt one faceup Damage card": CR90
    and Raider 1 damage each (of 20). Small ships: "The ship must skip its 'Perform
    Action' step"; "While a ship is touching another ship, those ships cannot attack each
    other. They can still attack enemy ships that they are not touching." X-wing 1 over
    TIE 1: it skips its action, cannot hit TIE 1, can hit TIE 2 (3 points destroy its
    3 hp)."""
    new_game(host, scenario="xwing-overlap-example")
    snap = host.ok({"c": "overlap", "ship": 3, "other": 7})
    assert snap["ships"][3]["damage"] == 1 and snap["ships"][7]["damage"] == 1
    assert 3 not in snap["profile"]["skips_action"]
    snap = host.ok({"c": "overlap", "ship": 0, "other": 4})
    assert 0 in snap["profile"]["skips_action"]
    phase_until(host, "combat")
    host.refused({"c": "hit", "ship": 4, "n": 1, "by": 0})
    snap = host.ok({"c": "hit", "ship": 5, "n": 3, "by": 0})
    assert snap["ships"][5]["status"] == "destroyed"


# ---- squadrons-d6 (seed 002) ----------------------------------------------------------------

D6_EDGE = rosters.two_sides(
    "Aces",
    "squadrons-d6",
    [
        rosters.ship("Ace", 4, 1, {"space": 9, "piloting": "7D+2", "maneuverability": "3D"}),
        rosters.ship("Legend", 4, 1, {"space": 8, "piloting": "8D", "maneuverability": "3D+1"}),
    ],
    [rosters.ship("Rookie", 4, 1, {"space": 7, "piloting": "2D", "maneuverability": "1D"})],
    sides=("A", "B"),
)


def test_d6_movement_figures_from_the_formulas(host):
    """Seed 002: "Attack Speed: craft's Space/2 + piloting skill"; "Full Throttle: craft's
    Space + piloting skill"; # of Turns from Maneuverability "rounding down the pips";
    "10 - (starfighter piloting + maneuverability) = Turn Distance"; "if the number reached
    is 0, the craft may turn two hexsides at once. If the total is -1 or less ... 180
    degree bootlegger turns". The example fleets: Red Leader (8, 6D, 3D): 10, 14, 3, 1.
    Black (10, 4D, 2D): 9, 14, 2, 4. Corvette (6, 3D, 2D): 6, 9, 2, 5. Star Destroyer
    (6, 4D, 1D): 7, 10, 1, 5. Aces: Ace (9, 7D+2, 3D): pips dropped: 9/2 = 4.5 + 7, Full
    Throttle 16, 3 turns, distance 0 (two hexsides at once); Legend (8, 8D, 3D+1): 12, 16,
    3, -1 (bootlegger); Rookie (7, 2D, 1D): Full Throttle 9, 1 turn, distance 7."""
    snap = new_game(host, ruleset="squadrons-d6")
    moves = snap["profile"]["movement"]
    figures = {
        name: (row["attack_speed"], row["full_throttle"], row["turns"], row["turn_distance"])
        for name, row in moves.items()
    }
    assert figures["Red Leader"] == (10, 14, 3, 1)
    assert figures["Black 1"] == (9, 14, 2, 4)
    assert figures["Corellian Corvette"] == (6, 9, 2, 5)
    assert figures["Star Destroyer"] == (7, 10, 1, 5)
    snap = new_game(host, roster=D6_EDGE)
    moves = snap["profile"]["movement"]
    assert moves["Ace"]["full_throttle"] == 16 and moves["Ace"]["turn_distance"] == 0
    assert moves["Legend"]["attack_speed"] == 12 and moves["Legend"]["turn_distance"] == -1
    assert moves["Rookie"]["full_throttle"] == 9 and moves["Rookie"]["turn_distance"] == 7
    assert moves["Ace"]["special"] and moves["Legend"]["special"]
    assert moves["Ace"]["special"] != moves["Legend"]["special"]
    assert moves["Rookie"]["special"] == ""
