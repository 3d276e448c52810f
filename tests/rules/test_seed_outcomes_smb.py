"""smb: outcomes worked out by hand from seed 004 ("Starwars Miniatures Battlegame", fan rules,
`../shared/seeds/004_e5d94d5ce87da14f.txt`) with its two scenarios, Escape from Hoth and Attack
on the Death Star, played through the serial commands of docs/protocol.md and key scripts
(docs/script.md) on the simulator.

Escape from Hoth (roster `hoth`, stats as printed in the seed's table):
0 Star Destroyer (Capital, speed 2, defence 12/22/27, Main Guns capital +5, Turbolasers rapid
+1, 3 hits), 1-3 TIE Fighter 1-3 (aboard; Fighter, speed 4, 18/20/12, Lasers rapid +2),
4 Troop Transport (Ship, speed 3, 14/20/23, Turbolasers rapid +0, 2 hits, +4 defence against
snub weapons), 5-6 X-Wing 1-2 (Fighter, speed 4, 21/18/12, Lasers rapid +3, Torpedos heavy +0).
Side 0 Empire, side 1 Rebels. Facing 0/1/2 = front/side/rear (the seed's three defence
columns "No Screens/Front", "Minimum/Side", "Full/Rear").
"""

import copy

from support.seedplay import board_fixture, roster, run_script, ships
from support.rosters import capital_duel

board = board_fixture("--scenario", "hoth")

SD, TIE1, TIE2, TIE3, TRANSPORT, XW1, XW2 = range(7)
CAPITAL, HEAVY, RAPID = 4, 5, 6
STANDARD, FULL_POWER, ATTACK_MOVE = 1, 2, 3
FRONT, SIDE, REAR = 0, 1, 2
COUNTERMOVE, RAPID_FIRE = 1, 2
EMPIRE, REBELS = 0, 1


def hoth_tie_out():
    """The Hoth roster with TIE Fighter 1 on the table (as if launched in an earlier turn: the
    seed does not say whether a fighter moves in the turn it is launched), the other two
    (renamed "TIE Fighter (aboard) 1-2") still aboard."""
    r = roster("hoth")
    tie = r["sides"][0]["ships"][1]
    out = copy.deepcopy(tie)
    del out["count"]
    out["name"], out["launched"] = "TIE Fighter 1", True
    tie["name"], tie["count"] = "TIE Fighter (aboard)", 2
    r["sides"][0]["ships"].insert(1, out)
    return r


def hoth(b, tie_out=False):
    """A new game of Escape from Hoth (``tie_out``: see hoth_tie_out)."""
    if not tie_out:
        b.load(scenario="hoth")
        return
    b.load(roster_obj=hoth_tie_out())
    assert ships(b.snap())["TIE Fighter 1"]["i"] == TIE1


def empire_moves_first(b, tie_out=False):
    """Round start with the Empire holding the initiative (15 against 8), Movement phase; the
    Empire moves its ships on the table (standard moves): the Star Destroyer, and TIE 1 if it
    is out."""
    b.ok("roll", values=[15, 8])
    b.ok("phase")
    b.ok("move", ship=SD, mode=STANDARD)
    if tie_out:
        b.ok("move", ship=TIE1, mode=STANDARD)


def rapid_fire(b, ship, mover, arc, target, roll):
    """``ship`` answers ``mover``'s move with rapid fire, aimed at the ``arc`` facing, and
    attacks ``target`` with the d20 ``roll``: all three accepted."""
    b.ok("respond", ship=ship, mover=mover, kind=RAPID_FIRE)
    b.ok("aim", ship=ship, weapon=RAPID, arg=arc)
    b.ok("attack", ship=ship, target=target, roll=roll)


def rebels_move(b, which=(TRANSPORT, XW1, XW2)):
    for s in which:
        b.ok("move", ship=s, mode=STANDARD)


# --- initiative and phases -----------------------------------------------------------------


def test_initiative_tie_keeps_last_rounds_holder(board):
    """Seed 004, Initiative Phase: "At the start of each turn the players roll a d20, the player
    with the higher roll has the initiative for the turn. In the case of a tie the player who
    had the initiative last turn keeps it for this turn." Turns: "Initiative Phase, Movement
    Phase, Capital Weapons Phase".

    Round 1: 15 / 8, the Empire. Round 2: 12 / 12, a tie: the Empire keeps it. Round 3: 5 / 17,
    the Rebels. The phases run initiative -> movement -> capital -> round 2 initiative."""
    hoth(board)
    board.ok("roll", values=[15, 8])
    assert board.snap()["initiative"] == EMPIRE
    board.ok("phase")
    assert board.snap()["phase"] == "movement"
    board.ok("move", ship=SD, mode=STANDARD)
    rebels_move(board)
    board.ok("phase")
    assert board.snap()["phase"] == "capital"
    board.ok("phase")
    s = board.snap()
    assert (s["round"], s["phase"]) == (2, "initiative"), (s["round"], s["phase"])
    board.ok("roll", values=[12, 12])
    assert board.snap()["initiative"] == EMPIRE, "seed: on a tie the last holder keeps it"
    board.ok("phase")
    board.ok("move", ship=SD, mode=STANDARD)
    rebels_move(board)
    board.ok("phase")
    board.ok("phase")
    board.ok("roll", values=[5, 17])
    assert board.snap()["initiative"] == REBELS, "seed: 17 beats 5"


def test_initiative_side_moves_all_its_ships_first(board):
    """Seed 004, Movement Phase: "The player with the initiative moves all their ships (while
    the other player takes response actions), then the other player moves".

    Empire 15, Rebels 8: an X-Wing moving before the Star Destroyer has moved is refused;
    after it, the Rebels move."""
    hoth(board)
    board.ok("roll", values=[15, 8])
    board.ok("phase")
    assert board.snap()["moves_first"] == EMPIRE
    assert board.refused("move", ship=XW1, mode=STANDARD), (
        "seed: the initiative player (Empire) moves all its ships first"
    )
    board.ok("move", ship=SD, mode=STANDARD)
    rebels_move(board)


# --- the Ion Cannon ---------------------------------------------------------------------


def ion_hit_round_1(b):
    """Round 1, Empire initiative; everyone moves; in the capital weapons phase the Ion Cannon
    fires at the Star Destroyer's side: d20 10 + 16 = 26 >= side defence 22, a hit."""
    empire_moves_first(b)
    rebels_move(b)
    b.ok("phase")
    b.ok("ion", ship=SD, roll=10, facing=SIDE)


def test_ion_cannon_hit_does_no_damage(board):
    """Seed 004, The Ion Cannon: "It fires at +16 (as a capital weapon). It cannot do any damage
    but if it hits a Star Destroyer the vessel cannot move or fire in the next round."

    10 + 16 = 26 against the side defence 22: a hit, and the Star Destroyer has no damage."""
    hoth(board)
    ion_hit_round_1(board)
    sd = ships(board.snap())["Star Destroyer"]
    assert sd["damage"] == 0 and sd["pending"] == 0, "seed: the Ion Cannon does no damage: %s" % sd


def test_ion_cannon_hit_star_destroyer_cannot_move_but_rebels_can(board):
    """Seed 004, The Ion Cannon: "if it hits a Star Destroyer the vessel cannot move or fire in
    the next round." Movement Phase: "The player with the initiative moves all their ships
    (while the other player takes response actions), then the other player moves".

    Round 2, the Empire holds the initiative again (15 / 8). The ionized Star Destroyer cannot
    move (refused) and the TIEs are still aboard, so the Empire has nothing left to move: the
    Rebels move their Transport and X-Wings (accepted)."""
    hoth(board)
    ion_hit_round_1(board)
    board.ok("phase")
    board.ok("roll", values=[15, 8])
    board.ok("phase")
    assert board.refused("move", ship=SD, mode=STANDARD), "seed: the ionized ship cannot move"
    for s, name in ((TRANSPORT, "Troop Transport"), (XW1, "X-Wing 1")):
        _evs, errs = board.cmd("move", ship=s, mode=STANDARD)
        assert not errs, (
            "seed: only the ionized Star Destroyer is stopped; the Rebels move "
            "after the Empire, but %s's move was refused: %s" % (name, errs)
        )


def test_ion_cannon_hit_star_destroyer_cannot_fire_next_round(board):
    """Seed 004, The Ion Cannon: "if it hits a Star Destroyer the vessel cannot move or fire in
    the next round." Capital Weapons: "Capital weapons cannot target fighters".

    Round 2: the Star Destroyer's Main Guns at the Troop Transport are refused; so is its
    Turbolasers' rapid-fire response to the Transport's move. Round 3: it moves again."""
    hoth(board)
    ion_hit_round_1(board)
    board.ok("phase")
    board.ok("roll", values=[15, 8])
    board.ok("phase")
    board.cmd("move", ship=TRANSPORT, mode=STANDARD)
    evs, errs = board.cmd("respond", ship=SD, mover=TRANSPORT, kind=RAPID_FIRE)
    if not errs:
        board.cmd("aim", ship=SD, weapon=RAPID, arg=FRONT)
        evs, errs = board.cmd("attack", ship=SD, target=TRANSPORT, roll=19)
    assert errs and not evs, "seed: the ionized Star Destroyer cannot fire (rapid) in round 2"
    board.cmd("move", ship=XW1, mode=STANDARD)
    board.cmd("move", ship=XW2, mode=STANDARD)
    board.ok("phase")
    assert board.snap()["phase"] == "capital"
    board.cmd("aim", ship=SD, weapon=CAPITAL, arg=FRONT)
    assert board.refused("attack", ship=SD, target=TRANSPORT, roll=19), (
        "seed: the ionized Star Destroyer cannot fire its capital weapons in round 2"
    )
    board.ok("phase")
    board.ok("roll", values=[15, 8])
    board.ok("phase")
    board.ok("move", ship=SD, mode=STANDARD)


def test_ion_cannon_miss_on_rear(board):
    """Seed 004, The Ion Cannon: "It fires at +16 (as a capital weapon)"; Capital Weapons:
    "roll 1d20 and add the attack value, compare this with the defence value of the other
    ship."

    At the rear (defence 27): 10 + 16 = 26 < 27, a miss; the Star Destroyer moves in round 2."""
    hoth(board)
    empire_moves_first(board)
    rebels_move(board)
    board.ok("phase")
    board.ok("ion", ship=SD, roll=10, facing=REAR)
    board.ok("phase")
    board.ok("roll", values=[15, 8])
    board.ok("phase")
    board.ok("move", ship=SD, mode=STANDARD)


def test_ion_cannon_at_most_two_bursts(board):
    """Seed 004, The Ion Cannon: "The Ion Cannon may fire up to two bursts from the planet."

    A third burst in the same capital weapons phase is refused (under either reading: two a
    round or two a game)."""
    hoth(board)
    empire_moves_first(board)
    rebels_move(board)
    board.ok("phase")
    board.ok("ion", ship=SD, roll=2, facing=REAR)
    board.ok("ion", ship=SD, roll=3, facing=REAR)
    assert board.refused("ion", ship=SD, roll=4, facing=REAR), "seed: up to two bursts"


def test_ion_cannon_cannot_target_a_fighter(board):
    """Seed 004, The Ion Cannon: "It fires at +16 (as a capital weapon)." Capital Weapons:
    "Capital weapons cannot target fighters, they simply move too fast to be targeted".

    TIE 1 has launched; the Ion Cannon firing at it is refused."""
    hoth(board, tie_out=True)
    empire_moves_first(board, tie_out=True)
    rebels_move(board)
    board.ok("phase")
    why = "seed: the Ion Cannon fires as a capital weapon and capital weapons cannot target fighters; the shot at TIE Fighter 1 was accepted: %s"
    board.must_refuse(why, "ion", ship=TIE1, roll=10, facing=FRONT)


# --- response actions ---------------------------------------------------------------------


def test_one_rapid_fire_response_is_one_shot(board):
    """Seed 004, Response Actions: "No matter how many possible response actions they have they
    can only take one of them." Shoot Rapid Weapons: "Remember, you can only make 1 response
    action, so no matter how many threat zones a ship finishes in it can only be shot at once."
    Stats: Troop Transport "Takes 2 hits to destroy".

    TIE 1 answers the Transport's move with rapid fire and marks its hit; a second hit by the
    same response is refused, so the Transport has 1 damage and is not destroyed."""
    hoth(board, tie_out=True)
    empire_moves_first(board, tie_out=True)
    board.ok("move", ship=TRANSPORT, mode=STANDARD)
    board.ok("respond", ship=TIE1, mover=TRANSPORT, kind=RAPID_FIRE)
    board.ok("hit", ship=TRANSPORT, by=TIE1)
    board.cmd("hit", ship=TRANSPORT, by=TIE1)
    s = board.snap()
    t = ships(s)["Troop Transport"]
    assert t["damage"] + t["pending"] == 1 and t["status"] != "destroyed", (
        "seed: one response is one shot, one hit at most; the Transport has %s damage, %s"
        % (t["damage"] + t["pending"], t["status"])
    )
    assert s["winner"] is None, (
        "seed: the Transport survives, nobody has won; winner %s" % s["winner"]
    )


def test_one_rapid_fire_response_is_one_shot_on_the_pad(board):
    """Seed 004, Shoot Rapid Weapons: "Remember, you can only make 1 response action, so no
    matter how many threat zones a ship finishes in it can only be shot at once." Stats: Troop
    Transport "Takes 2 hits to destroy".

    On the pad: TIE 1 (marked) answers the Transport's move with rapid fire (`opt2`) and `dmg+`
    is pressed twice: one hit at most, the Transport survives and nobody has won."""
    snap = run_script(
        """
        dice 15 8 phase
        select Star_Destroyer opt1
        select TIE_Fighter_1 opt1
        select Troop_Transport opt1
        select TIE_Fighter_1 mark select Troop_Transport opt2 dmg+ dmg+
    """,
        roster_obj=hoth_tie_out(),
    )
    t = ships(snap)["Troop Transport"]
    assert t["damage"] + t["pending"] <= 1 and snap["winner"] is None, (
        "seed: one response is one shot; after dmg+ dmg+ the Transport has %s damage (%s), "
        "winner %s" % (t["damage"] + t["pending"], t["status"], snap["winner"])
    )


def test_one_response_per_ship_moved_for_the_whole_side(board):
    """Seed 004, Response Actions: "Each time a ship is moved during your movement phase your
    opponent may have the opportunity to take a response action. No matter how many possible
    response actions they have they can only take one of them."

    The Empire's TIE 1 moves; X-Wing 1 answers with rapid fire; X-Wing 2 answering the same move is refused (the Rebel player has had its one
    response)."""
    hoth(board, tie_out=True)
    empire_moves_first(board, tie_out=True)
    board.ok("respond", ship=XW1, mover=TIE1, kind=RAPID_FIRE)
    assert board.refused("respond", ship=XW2, mover=TIE1, kind=RAPID_FIRE), (
        "seed: the opponent takes one response action per ship moved, not one per ship"
    )


def test_response_fires_rapid_weapons_only(board):
    """Seed 004, Shoot Rapid Weapons: "Any ship may fire rapid class weapons (but not heavy or
    capital class) if an enemy ship finishes its movement in its threat zone."

    X-Wing 1 answers TIE 1's move with rapid fire but aims its Torpedos (heavy): refused."""
    hoth(board, tie_out=True)
    empire_moves_first(board, tie_out=True)
    board.ok("respond", ship=XW1, mover=TIE1, kind=RAPID_FIRE)
    board.cmd("aim", ship=XW1, weapon=HEAVY, arg=REAR)
    why = "seed: a rapid-fire response fires rapid weapons only; a torpedo shot was accepted: %s"
    board.must_refuse(why, "attack", ship=XW1, target=TIE1, roll=19)


def test_countermove_needs_same_or_higher_speed_and_not_directly_behind(board):
    """Seed 004, Countermoves: "To be eligible the ship must have the same or higher speed and
    the ship that moved, and it must have moved into a space other than the one directly
    behind the ship." Example: "Star destroyer D cannot counter move because it is slower
    (speed 2) than the X-Wing (speed 4)."

    The Empire moves first with TIE 1 launched. X-Wing 1 moves: the Star Destroyer (2 < 4)
    countermoving is refused. X-Wing 2 moves into the square directly behind TIE 1: TIE 1's
    countermove is refused. The Transport (speed 3) moves: TIE 1 (4 >= 3) countermoves."""
    hoth(board, tie_out=True)
    empire_moves_first(board, tie_out=True)
    board.ok("move", ship=XW1, mode=STANDARD)
    assert board.refused("respond", ship=SD, mover=XW1, kind=COUNTERMOVE), (
        "seed: the Star Destroyer is slower than the X-Wing"
    )
    board.ok("move", ship=XW2, mode=STANDARD)
    assert board.refused("respond", ship=TIE1, mover=XW2, kind=COUNTERMOVE, behind=True), (
        "seed: no countermove when the mover ended directly behind"
    )
    board.ok("move", ship=TRANSPORT, mode=STANDARD)
    board.ok("respond", ship=TIE1, mover=TRANSPORT, kind=COUNTERMOVE)


# --- which weapon fires when, at what ---------------------------------------------------------


def capital_phase(b):
    """Hoth with TIE 1 out: everyone moves, then the capital weapons phase."""
    hoth(b, tie_out=True)
    empire_moves_first(b, tie_out=True)
    rebels_move(b)
    b.ok("phase")
    assert b.snap()["phase"] == "capital"


def test_capital_weapons_never_target_fighters_attack_helper(board):
    """Seed 004, Capital Weapons: "Capital weapons cannot target fighters, they simply move too
    fast to be targeted".

    Capital weapons phase: the Star Destroyer's Main Guns at X-Wing 1: refused."""
    capital_phase(board)
    board.cmd("aim", ship=SD, weapon=CAPITAL, arg=FRONT)
    assert board.refused("attack", ship=SD, target=XW1, roll=19), (
        "seed: capital weapons cannot target fighters"
    )


def test_capital_weapons_never_target_fighters_hit_command(board):
    """Seed 004, Capital Weapons: "Capital weapons cannot target fighters".

    The same shot entered as a hit by the Star Destroyer (serial `hit` with `by`): refused,
    X-Wing 1 unharmed."""
    capital_phase(board)
    evs, errs = board.cmd("hit", ship=XW1, by=SD)
    x = ships(board.snap())["X-Wing 1"]
    assert errs and x["pending"] == 0 and x["damage"] == 0, (
        "seed: capital weapons cannot target fighters; the hit by the Star Destroyer on X-Wing 1 "
        "was accepted: %s, %s" % (evs, x)
    )


def test_capital_weapons_never_target_fighters_pad_dmg(board):
    """Seed 004, Capital Weapons: "Capital weapons cannot target fighters".

    On the pad: mark the Star Destroyer, select X-Wing 1, `dmg+` in the capital weapons phase:
    refused, X-Wing 1 unharmed and alive at the end of the round."""
    snap = run_script(
        """
        dice 15 8 phase
        select Star_Destroyer power
        select Troop_Transport opt1 select X-Wing_1 opt1 select X-Wing_2 opt1
        phase
        select Star_Destroyer mark select X-Wing_1 dmg+
        phase
    """,
        scenario="hoth",
    )
    x = ships(snap)["X-Wing 1"]
    assert x["damage"] == 0 and x["status"] != "destroyed", (
        "seed: capital weapons cannot target fighters; dmg+ by the Star Destroyer left X-Wing 1 "
        "%s" % x
    )


def test_capital_weapons_hit_by_facing(board):
    """Seed 004, Capital Weapons: "Once a target has been chosen roll 1d20 and add the attack
    value, compare this with the defence value of the other ship." Capital weapons phase:
    "all fire is considered simultaneous" (hits land when the phase ends).

    Main Guns +5 at the Transport's side (20): 10 + 5 = 15 < 20, a miss. Next round at its
    front (14): 10 + 5 = 15 >= 14, a hit: 1 damage after the phase."""
    hoth(board)
    for arc, damage, why in (
        (SIDE, 0, "seed: 15 against side defence 20 misses"),
        (FRONT, 1, "seed: 15 against front defence 14 hits"),
    ):
        empire_moves_first(board)
        rebels_move(board)
        board.ok("phase")
        board.ok("aim", ship=SD, weapon=CAPITAL, arg=arc)
        board.ok("attack", ship=SD, target=TRANSPORT, roll=10)
        board.ok("phase")
        t = ships(board.snap())["Troop Transport"]
        assert t["damage"] == damage, "%s; damage %s" % (why, t["damage"])


def test_transport_plus_4_against_snub_weapons(board):
    """Seed 004, Troop Transport: "Gains +4 to its defence against Snub weapons." "roll 1d20 and
    add the attack value, compare this with the defence value".

    TIE 1's Lasers (+2) answer the Transport's move at its front: 14 + 2 = 16 against
    14 + 4 = 18: a miss, no damage."""
    hoth(board, tie_out=True)
    empire_moves_first(board, tie_out=True)
    board.ok("move", ship=TRANSPORT, mode=STANDARD)
    rapid_fire(board, TIE1, TRANSPORT, FRONT, TRANSPORT, 14)
    t = ships(board.snap())["Troop Transport"]
    assert t["damage"] + t["pending"] == 0, "seed: 16 < 18 misses; Transport %s" % t


def test_star_destroyer_not_damaged_by_snub_weapons(board):
    """Seed 004, Star Destroyer: "Cannot be damaged by snub weapons."

    The Star Destroyer moves; X-Wing 1 answers with rapid fire, d20 20 + 3 = 23 against the
    front 12: whatever the roll, no damage."""
    hoth(board)
    board.ok("roll", values=[15, 8])
    board.ok("phase")
    board.ok("move", ship=SD, mode=STANDARD)
    board.ok("respond", ship=XW1, mover=SD, kind=RAPID_FIRE)
    board.cmd("aim", ship=XW1, weapon=RAPID, arg=FRONT)
    board.cmd("attack", ship=XW1, target=SD, roll=20)
    sd = ships(board.snap())["Star Destroyer"]
    assert sd["damage"] + sd["pending"] == 0, "seed: no damage from snub weapons: %s" % sd


def test_full_power_move_no_capital_weapons_but_rapid_fire(board):
    """Seed 004, Movement Phase: "If the capital ship performs a full power move they cannot
    fire their capital weapons in the capital weapons phase, but they can still fire rapid
    weapons during the movement phase."

    The Star Destroyer makes a full-power move; it answers X-Wing 1's move with rapid fire
    (accepted); in the capital weapons phase its Main Guns at the Transport are refused."""
    hoth(board)
    board.ok("roll", values=[15, 8])
    board.ok("phase")
    board.ok("move", ship=SD, mode=FULL_POWER)
    board.ok("move", ship=XW1, mode=STANDARD)
    rapid_fire(board, SD, XW1, REAR, XW1, 2)
    board.ok("move", ship=XW2, mode=STANDARD)
    board.ok("move", ship=TRANSPORT, mode=STANDARD)
    board.ok("phase")
    board.cmd("aim", ship=SD, weapon=CAPITAL, arg=FRONT)
    assert board.refused("attack", ship=SD, target=TRANSPORT, roll=19), (
        "seed: no capital weapons after a full power move"
    )


def test_fighter_attack_move_fires_each_weapon_once(board):
    """Seed 004, Movement Phase: "Fighters have an extra move option, the Fighter Attack is 2
    spaces straight forward, but the fighter can fire any heavy or rapid weapons at a target in
    its threat zone at any point during the move."

    The Empire moves first with TIE 1 launched. X-Wing 1 makes an attack move and fires its
    Lasers and its Torpedos at TIE 1 (accepted; rolls of 1 miss: 1 + 3 < 18, 1 + 0 < 18);
    its Lasers a second time in the same move are refused."""
    hoth(board, tie_out=True)
    empire_moves_first(board, tie_out=True)
    board.ok("move", ship=XW1, mode=ATTACK_MOVE)
    board.ok("aim", ship=XW1, weapon=RAPID, arg=FRONT)
    board.ok("attack", ship=XW1, target=TIE1, roll=1)
    board.ok("aim", ship=XW1, weapon=HEAVY, arg=FRONT)
    board.ok("attack", ship=XW1, target=TIE1, roll=1)
    board.cmd("aim", ship=XW1, weapon=RAPID, arg=FRONT)
    why = "seed: the attack move fires the fighter's heavy or rapid weapons, each once; the Lasers fired twice: %s"
    board.must_refuse(why, "attack", ship=XW1, target=TIE1, roll=1)


def test_only_fighters_make_the_attack_move(board):
    """Seed 004, Movement Phase: "In addition Fighters have an extra move option, the Fighter
    Attack"; Capital ships "may make one of two different types of move".

    The Troop Transport (a Ship) making an attack move is refused."""
    hoth(board)
    board.ok("roll", values=[5, 17])
    board.ok("phase")
    assert board.refused("move", ship=TRANSPORT, mode=ATTACK_MOVE), (
        "seed: the fighter attack move is for fighters"
    )


def test_no_heavy_weapons_in_the_capital_weapons_phase(board):
    """Seed 004, Capital Weapons: "In this phase both players fire the Capital weapons for
    ships which did not make a full power move."

    X-Wing 1's Torpedos (heavy) at a TIE in the capital weapons phase: refused."""
    capital_phase(board)
    board.cmd("aim", ship=XW1, weapon=HEAVY, arg=REAR)
    assert board.refused("attack", ship=XW1, target=TIE1, roll=19), (
        "seed: only capital weapons fire in the capital weapons phase"
    )


def test_capital_fire_is_simultaneous_destroyed_ships_return_fire(board):
    """Seed 004, Capital Weapons: "The player with initiative fires first, the other player
    fires second, but all fire is considered simultaneous (unlike the movement phase) so even
    destroyed ships get to return fire."

    Roster: two capital ships (1 hit each). The Empire's destroyer hits the Rebel cruiser first;
    the cruiser still returns fire (accepted); when the phase ends both are destroyed."""
    r = capital_duel("capital duel", "Destroyer", "Cruiser", [12, 22, 27], "Main Guns")
    board.load(roster_obj=r)
    board.ok("roll", values=[15, 8])
    board.ok("phase")
    board.ok("move", ship=0, mode=STANDARD)
    board.ok("move", ship=1, mode=STANDARD)
    board.ok("phase")
    board.ok("aim", ship=0, weapon=CAPITAL, arg=FRONT)
    board.ok("attack", ship=0, target=1, roll=15)  # 20 >= 12: a hit
    board.ok("aim", ship=1, weapon=CAPITAL, arg=FRONT)
    board.ok("attack", ship=1, target=0, roll=15)  # returns fire: 20 >= 12
    board.ok("phase")
    s = ships(board.snap())
    assert s["Destroyer"]["status"] == "destroyed" and s["Cruiser"]["status"] == "destroyed"


def test_star_destroyer_launches_one_fighter_a_turn(board):
    """Seed 004, Star Destroyer: "Carries 3 fighters and may launch 1 a turn."

    Round 1: TIE 1 launches, TIE 2 is refused; round 2: TIE 2 launches."""
    hoth(board)
    board.ok("roll", values=[15, 8])
    board.ok("phase")
    board.ok("launch", ship=TIE1)
    assert board.refused("launch", ship=TIE2), "seed: one launch a turn"
    board.ok("move", ship=SD, mode=STANDARD)
    board.cmd("move", ship=TIE1, mode=STANDARD)  # the seed is silent on moving at launch
    rebels_move(board)
    board.ok("phase")
    board.ok("phase")
    board.ok("roll", values=[15, 8])
    board.ok("phase")
    board.ok("launch", ship=TIE2)


# --- exits and victory ----------------------------------------------------------------------


def test_exit_only_in_the_movement_phase(board):
    """Seed 004, Victory: "The Rebel player wins if they exit the Transport from the opposite
    table edge." Ships leave the table by moving; moves are made in the Movement Phase
    ("Each turn is divided into several phases: Initiative Phase, Movement Phase, Capital
    Weapons Phase").

    An exit entered in the capital weapons phase is refused and nobody wins."""
    capital_phase(board)
    _evs, errs = board.cmd("exit", ship=TRANSPORT, kind=1)
    s = board.snap()
    assert errs and s["winner"] is None, (
        "seed: ships move (and so exit) only in the movement phase; an exit in the capital "
        "weapons phase was accepted, winner %s" % s["winner"]
    )


def test_no_exit_before_the_rebels_turn_to_move(board):
    """Seed 004, Movement Phase: "The player with the initiative moves all their ships (while
    the other player takes response actions), then the other player moves". Victory: "The
    Rebel player wins if they exit the Transport from the opposite table edge." (Leaving the
    table is part of a move.)

    The Empire holds the initiative (15 / 8) and has not moved yet: the Transport exiting now
    is refused and nobody has won."""
    hoth(board)
    board.ok("roll", values=[15, 8])
    board.ok("phase")
    evs, errs = board.cmd("exit", ship=TRANSPORT, kind=1)
    s = board.snap()
    assert errs and not evs and s["winner"] is None, (
        "seed: the Rebels move (and exit) only after the Empire has moved; the Transport's exit "
        "was accepted (%s), winner %s" % (evs, s["winner"])
    )


def test_hoth_rebels_win_by_the_transports_exit_whatever_exits_later(board):
    """Seed 004, Escape from Hoth, Victory: "The Rebel player wins if they exit the Transport
    from the opposite table edge."

    X-Wing 1 leaving alone wins nothing; the Transport leaves: the Rebels win; X-Wing 2 leaving
    afterwards does not take the win away."""
    hoth(board)
    empire_moves_first(board)
    board.ok("move", ship=XW1, mode=STANDARD)
    board.ok("exit", ship=XW1, kind=1)
    assert board.snap()["winner"] is None, "seed: only the Transport's exit wins"
    board.ok("move", ship=TRANSPORT, mode=STANDARD)
    board.ok("exit", ship=TRANSPORT, kind=1)
    assert board.snap()["winner"] == REBELS, "seed: the Transport exited: the Rebels win"
    board.cmd("move", ship=XW2, mode=STANDARD)
    board.cmd("exit", ship=XW2, kind=1)
    w = board.snap()["winner"]
    assert w == REBELS, (
        "seed: the Rebels won when the Transport exited; after X-Wing 2 left "
        "too the winner is %s" % w
    )


def test_hoth_empire_wins_by_destroying_the_transport(board):
    """Seed 004, Escape from Hoth, Victory: "The Imperial Player wins if they destroy the Troop
    Transport." Stats: Troop Transport "Takes 2 hits to destroy".

    Main Guns +5 at its front (14) in rounds 1 and 2, rolls 12 and 18 (17, 23 >= 14): two hits,
    the Transport is destroyed when round 2's capital weapons phase ends: the Empire wins."""
    hoth(board)
    for roll in (12, 18):
        empire_moves_first(board)
        rebels_move(board)
        board.ok("phase")
        board.ok("aim", ship=SD, weapon=CAPITAL, arg=FRONT)
        board.ok("attack", ship=SD, target=TRANSPORT, roll=roll)
        board.ok("phase")
    s = board.snap()
    assert ships(s)["Troop Transport"]["status"] == "destroyed" and s["winner"] == EMPIRE, (
        "seed: two hits destroy the Transport and the Empire wins; %s, winner %s"
        % (ships(s)["Troop Transport"], s["winner"])
    )


def test_play_stops_once_a_side_has_won(board):
    """Seed 004, Escape from Hoth, Victory: "The Rebel player wins if they exit the Transport
    from the opposite table edge." (play stops, or asks, once a side has won.)

    Every ship has moved and the Transport exits: the game is decided, so moving on to the
    capital weapons phase is refused."""
    hoth(board)
    empire_moves_first(board)
    rebels_move(board, which=(XW1, XW2, TRANSPORT))
    board.ok("exit", ship=TRANSPORT, kind=1)
    assert board.snap()["winner"] == REBELS
    board.must_refuse("play should stop once the Rebels have won; the phase advanced: %s", "phase")


def test_death_star_port_is_the_rebels_aim_only(board):
    """Seed 004, Scenario 2, Attack on the Deathstar: "Simply designate a long row of squares as
    the trench. The last square in the row is the target port." The Rebels attack the Death
    Star; the TIEs defend it. (The seed states no victory conditions for this scenario.)

    A TIE Fighter (Empire) "hitting the target port" is refused and wins nothing."""
    board.load(scenario="deathstar")
    board.ok("roll", values=[15, 8])
    board.ok("phase")
    evs, errs = board.cmd("exit", ship=0, kind=2)
    s = board.snap()
    assert errs and not evs and s["winner"] is None, (
        "seed: the target port is the Rebels' aim; the Empire's TIE hitting it was accepted "
        "(%s), winner %s" % (evs, s["winner"])
    )


def test_a_capital_weapon_fires_once_in_the_capital_weapons_phase(board):
    """Seed 004, Capital Weapons: "In this phase both players fire the Capital weapons for ships
    which did not make a full power move. The player with initiative fires first, the other
    player fires second". (Each weapon fires in the phase; only the Ion Cannon is given more:
    "The Ion Cannon may fire up to two bursts".) Stats: Troop Transport "Takes 2 hits to
    destroy".

    The Star Destroyer's Main Guns hit the Transport's front (15 + 5 = 20 >= 14); a second
    Main Guns shot in the same phase is refused, so after the phase the Transport has 1 damage
    and nobody has won."""
    hoth(board)
    empire_moves_first(board)
    rebels_move(board)
    board.ok("phase")
    board.ok("aim", ship=SD, weapon=CAPITAL, arg=FRONT)
    board.ok("attack", ship=SD, target=TRANSPORT, roll=15)
    board.cmd("attack", ship=SD, target=TRANSPORT, roll=15)
    board.ok("phase")
    s = board.snap()
    t = ships(s)["Troop Transport"]
    assert t["damage"] == 1 and s["winner"] is None, (
        "seed: the Main Guns fire once in the phase: 1 hit; the Transport has %s damage (%s), "
        "winner %s" % (t["damage"], t["status"], s["winner"])
    )


def test_movement_phase_fire_lands_at_once_destroyed_ship_cannot_respond(board):
    """Seed 004, Capital Weapons: "all fire is considered simultaneous (unlike the movement
    phase) so even destroyed ships get to return fire." Stats: TIE Fighters 18/20/12, X-Wing
    Lasers (rapid) +3; fighters are destroyed by one hit (no hit count given for them in the
    table: roster hp 1).

    TIE 1 moves; X-Wing 1 answers with rapid fire at its front: 19 + 3 = 22 >= 18, a hit: TIE
    1 is destroyed at once. When X-Wing 2 moves, TIE 1 responding is refused."""
    hoth(board, tie_out=True)
    empire_moves_first(board, tie_out=True)
    rapid_fire(board, XW1, TIE1, FRONT, TIE1, 19)
    assert ships(board.snap())["TIE Fighter 1"]["status"] == "destroyed", (
        "seed: fire in the movement phase is not simultaneous: the hit lands at once"
    )
    board.ok("move", ship=XW2, mode=STANDARD)
    assert board.refused("respond", ship=TIE1, mover=XW2, kind=RAPID_FIRE), (
        "seed: the destroyed TIE 1 cannot respond"
    )


def test_no_rapid_weapons_in_the_capital_weapons_phase(board):
    """Seed 004, Capital Weapons: "In this phase both players fire the Capital weapons for ships
    which did not make a full power move." Shoot Rapid Weapons is a response action of the
    movement phase.

    TIE 1's Lasers (rapid) at X-Wing 1 in the capital weapons phase: refused."""
    capital_phase(board)
    board.cmd("aim", ship=TIE1, weapon=RAPID, arg=REAR)
    assert board.refused("attack", ship=TIE1, target=XW1, roll=19), (
        "seed: only capital weapons fire in the capital weapons phase"
    )


def test_responses_answer_enemy_moves_only(board):
    """Seed 004, Response Actions: "Each time a ship is moved during your movement phase your
    opponent may have the opportunity to take a response action."

    X-Wing 1 (Rebels) moves; X-Wing 2 (Rebels) answering it is refused."""
    hoth(board)
    empire_moves_first(board)
    board.ok("move", ship=XW1, mode=STANDARD)
    assert board.refused("respond", ship=XW2, mover=XW1, kind=RAPID_FIRE), (
        "seed: the opponent responds, not the mover's side"
    )


def test_every_ship_on_the_table_moves(board):
    """Seed 004, Full Movement and Collisions: "Ships must make their full forward move, though
    they 90 degree turns are optional. So a fighter that makes a normal move MUST move 2 spaces
    forward". Capital ships: "the turn is optional (though they must move one forward)".

    The Empire moves the Star Destroyer; the Rebels move the Transport and X-Wing 1 only.
    Ending the Movement Phase with X-Wing 2 unmoved is refused."""
    hoth(board)
    empire_moves_first(board)
    rebels_move(board, which=(TRANSPORT, XW1))
    why = "seed: every ship must make its forward move; the Movement Phase ended with X-Wing 2 unmoved: %s"
    board.must_refuse(why, "phase")
