"""swsb: outcomes worked out by hand from seed 000 (Star Wars Starship Battles errata and FAQ,
May 2007, `../shared/seeds/000_baeb94c29db4f7aa.txt`), played through the serial commands of
docs/protocol.md on the simulator. The ship stats below are roster data (the seed has no card
numbers); every expected outcome follows from the seed sentence quoted in each test.

Ships (index: name, side): 0 Cruiser (class 2), 1 Falcon (class 3), 2 X-wing (class 4) for
the Light Side (side 0); 3 Invisible Hand (class 2, broadside), 4 Slave I (class 3, PD),
5-6 TIE 1-2 (class 4) for the Dark Side (side 1).
"""

import copy

from support.rosters import ship, two_sides
from support.seedplay import board_fixture, ships

board = board_fixture("--ruleset", "swsb")

LIGHT_SIDE = [
    ship("Cruiser", 2, [2, 2], {"defense": 15, "attack": 6, "pd": 4}, cc=3),
    ship("Falcon", 3, [3, 2], {"defense": 17, "attack": 5, "pd": 0}, cc=2),
    ship("X-wing", 4, 1, {"defense": 15, "attack": 4, "pd": 0}, cc=1),
]
DARK_SIDE = [
    ship(
        "Invisible Hand",
        2,
        [6, 4],
        {"defense": 14, "attack": 6, "pd": 4, "broadside": True},
        cc=2,
    ),
    ship("Slave I", 3, [3, 2], {"defense": 17, "attack": 5, "pd": 4}, cc=1),
    ship(
        "TIE",
        4,
        1,
        {"defense": 14, "attack": 3, "pd": 0},
        count=2,
        launched=False,
        carrier="Invisible Hand",
    ),
]
ROSTER = two_sides("seed 000 checks", "swsb", LIGHT_SIDE, DARK_SIDE)

CRUISER, FALCON, XWING, HAND, SLAVE, TIE1, TIE2 = range(7)
PRIMARY, PD, BROAD_L, BROAD_R = 0, 1, 2, 3


def new_game(b, roster=None):
    b.load(roster_obj=copy.deepcopy(roster or ROSTER))


def to_attack_step(b, dice):
    """A new game of ROSTER; initiative with physical dice, then Move, Attack (point defense),
    Attack (ships)."""
    new_game(b)
    b.ok("roll", values=dice)
    b.ok("phase")  # -> move
    b.ok("phase")  # -> attack, point defense first
    b.ok("phase")  # -> attack, one ship at a time
    assert b.snap()["phase"] == "attack"


def fire(b, ship, weapon, target, roll):
    """Aim ``ship``'s ``weapon`` (arg 0) and attack ``target`` with the d20 ``roll``: both
    accepted."""
    b.ok("aim", ship=ship, weapon=weapon, arg=0)
    b.ok("attack", ship=ship, target=target, roll=roll)


def test_initiative_highest_roll_moves_last_and_attacks_first(board):
    """Seed 000, errata "initiative check": "Each player rolls the d20 for initiative. Whoever
    rolls highest moves last and attacks first."

    Dice 14 (Light Side) and 9 (Dark Side): the Light Side rolled highest, so it holds the
    initiative and the Dark Side moves first. Dice 3 and 18 the next round: the Dark Side."""
    new_game(board)
    board.ok("roll", values=[14, 9])
    s = board.snap()
    assert (s["initiative"], s["moves_first"]) == (0, 1), (
        "seed: 14 beats 9, side 0 moves last (side 1 first); got initiative %s, moves_first %s"
        % (s["initiative"], s["moves_first"])
    )
    for _ in range(4):
        board.ok("phase")  # move, attack-pd, attack, damage
    board.ok("phase")  # end of round 1
    board.ok("roll", values=[3, 18])
    s = board.snap()
    assert s["round"] == 2, "seed: a new round after the damage phase; round %s" % s["round"]
    assert (s["initiative"], s["moves_first"]) == (1, 0), (
        "seed: 18 beats 3, side 1 holds the initiative and side 0 moves first; got %s, %s"
        % (s["initiative"], s["moves_first"])
    )


def test_initiative_tie_is_rerolled(board):
    """Seed 000, "initiative check": "Reroll ties."

    Dice 7 and 7: nobody holds the initiative and play cannot go on to the Move phase;
    the reroll 7 / 12 gives it to side 1."""
    new_game(board)
    board.cmd("roll", values=[7, 7])
    assert board.refused("phase"), "seed: a tie is rerolled, so the Move phase cannot start"
    assert board.snap()["phase"] == "initiative"
    board.ok("roll", values=[7, 12])
    assert board.snap()["initiative"] == 1, "seed: 12 beats 7 on the reroll"


def test_initiative_loser_cannot_attack_first(board):
    """Seed 000, "initiative check": "Whoever rolls highest moves last and attacks first."

    Dice 14 / 9: side 0 (Light Side) attacks first. In the ship-by-ship attack step the first
    ship to fire must be side 0's; Slave I (side 1) opening fire is refused."""
    to_attack_step(board, [14, 9])
    board.ok("aim", ship=SLAVE, weapon=PRIMARY, arg=0)
    why = "seed: side 0 won the initiative and attacks first; Slave I (side 1) fired first and the referee accepted it: %s"
    board.must_refuse(why, "attack", ship=SLAVE, target=FALCON, roll=15)


def test_initiative_winner_attacks_first(board):
    """Seed 000, "initiative check": "Whoever rolls highest moves last and attacks first."
    FAQ Attack Phase: "Then select one starship and resolve all its weapons in any order of
    your choosing."

    Dice 9 / 14: side 1 wins and its Invisible Hand opens fire: accepted."""
    to_attack_step(board, [9, 14])
    fire(board, HAND, PRIMARY, CRUISER, 12)


def test_a_weapon_fires_once_a_round(board):
    """Seed 000, FAQ Attack Phase: "Can a starship fire all its weapons in a round, or do you
    have to choose just one? A: It may fire all its weapons." and "Can a single broadside
    weapon fire twice if there are enemy starships on both the left and right sides of the
    starship? A: Yes" (only a broadside has two sides to fire to: each weapon fires once).

    The Cruiser (side 0, winner) fires its primary weapon at the Invisible Hand; firing the
    same primary weapon again, at Slave I, is refused."""
    to_attack_step(board, [14, 9])
    fire(board, CRUISER, PRIMARY, HAND, 10)
    board.cmd("aim", ship=CRUISER, weapon=PRIMARY, arg=0)
    why = "seed: the Cruiser's primary weapon fires once a round; a second shot was accepted: %s"
    board.must_refuse(why, "attack", ship=CRUISER, target=SLAVE, roll=19)
    assert ships(board.snap())["Slave I"]["pending"] == 0, "seed: the second shot never hits"


def test_broadside_fires_once_to_each_side(board):
    """Seed 000, FAQ Attack Phase: "Can a single broadside weapon fire twice if there are enemy
    starships on both the left and right sides of the starship? A: Yes" and "It may fire all
    its weapons."

    Invisible Hand (side 1 wins 9 / 14, so it fires first): primary, broadside
    left, broadside right are all accepted; a second broadside to the left is refused."""
    to_attack_step(board, [9, 14])
    fire(board, HAND, PRIMARY, XWING, 3)
    fire(board, HAND, BROAD_L, CRUISER, 3)
    fire(board, HAND, BROAD_R, FALCON, 3)
    board.cmd("aim", ship=HAND, weapon=BROAD_L, arg=0)
    why = "seed: a broadside fires once to each side; a third shot was accepted: %s"
    board.must_refuse(why, "attack", ship=HAND, target=XWING, roll=3)


def test_primary_weapon_waits_for_point_defense_step(board):
    """Seed 000, FAQ Attack Phase: "Resolve all Point Defense on all starships first. Then
    select one starship and resolve all its weapons in any order of your choosing."

    In the point-defense step the Cruiser's primary weapon is refused; its PD at the (launched)
    TIE 1 is allowed."""
    r = copy.deepcopy(ROSTER)
    r["sides"][1]["ships"][2]["launched"] = True
    new_game(board, r)
    board.ok("roll", values=[14, 9])
    board.ok("phase")
    board.ok("phase")
    assert board.snap()["phase"] == "attack-pd"
    board.cmd("aim", ship=CRUISER, weapon=PRIMARY, arg=0)
    assert board.refused("attack", ship=CRUISER, target=HAND, roll=10), (
        "seed: point defense is resolved first; a primary weapon fired in that step"
    )
    fire(board, CRUISER, PD, TIE1, 10)


def test_point_defense_not_after_ships_began_firing(board):
    """Seed 000, FAQ Attack Phase: "Resolve all Point Defense on all starships first. Then
    select one starship and resolve all its weapons".

    Once the ship-by-ship step has begun and the Cruiser has fired its primary weapon, Slave I
    firing point defense is out of order: refused."""
    to_attack_step(board, [14, 9])
    fire(board, CRUISER, PRIMARY, HAND, 10)
    board.cmd("aim", ship=SLAVE, weapon=PD, arg=0)
    why = "seed: all point defense comes first; Slave I's PD after the ship-by-ship fire began was accepted: %s"
    board.must_refuse(why, "attack", ship=SLAVE, target=XWING, roll=15)


def test_damage_is_resolved_in_the_damage_phase(board):
    """Seed 000, errata "Emperor's Will": "Resolve damage transferred in this fashion
    immediately rather than during the damage phase." So ordinary damage is resolved during
    the damage phase.

    The Cruiser (hp 2/2) takes 4 points from the Invisible Hand in the Attack phase: still
    undamaged on the card until the Damage phase begins, so it still fires back that round
    (accepted); when the Damage phase begins it has 4 damage and is destroyed (2 + 2)."""
    to_attack_step(board, [9, 14])
    board.ok("hit", ship=CRUISER, n=4, by=HAND)
    c = ships(board.snap())["Cruiser"]
    assert c["damage"] == 0 and c["status"] != "destroyed", (
        "seed: damage waits for the damage phase; Cruiser %s" % c
    )
    fire(board, CRUISER, PRIMARY, HAND, 10)
    board.ok("phase")
    s = board.snap()
    assert s["phase"] == "damage"
    c = ships(s)["Cruiser"]
    assert c["damage"] == 4 and c["status"] == "destroyed", (
        "seed: 4 damage on a 2/2 ship destroys it in the damage phase; got %s" % c
    )


def test_emperors_will_moves_damage_to_allied_fighter_at_once(board):
    """Seed 000, errata "Emperor's Will": "This ship can shift the damage taken from a
    nonadjacent enemy's attack to any adjacent allied fighter. Resolve damage transferred in
    this fashion immediately rather than during the damage phase."

    The Invisible Hand (with Emperor's Will) takes 1 pending point from the Cruiser; it shifts
    it to the launched TIE 1 (1 hp): TIE 1 is destroyed at once, still in the Attack phase, and
    the Invisible Hand has nothing pending. Shifting damage to Slave I (not a fighter) or to
    the enemy X-wing (not allied) is refused."""
    r = copy.deepcopy(ROSTER)
    # abilities come from named roster stats, never from ability text
    r["sides"][1]["ships"][0]["stats"]["emperors_will"] = True
    new_game(board, r)
    board.ok("roll", values=[14, 9])
    board.ok("phase")
    board.ok("launch", ship=TIE1)
    board.ok("phase")
    board.ok("phase")
    board.ok("hit", ship=HAND, n=1, by=CRUISER)
    assert board.refused("transfer", ship=HAND, to=SLAVE, n=1), (
        "seed: damage shifts only to an allied *fighter*; Slave I is class 3"
    )
    assert board.refused("transfer", ship=HAND, to=XWING, n=1), (
        "seed: damage shifts only to an *allied* fighter; the X-wing is the enemy's"
    )
    board.ok("transfer", ship=HAND, to=TIE1, n=1)
    s = board.snap()
    assert s["phase"] == "attack"
    assert ships(s)["TIE 1"]["status"] == "destroyed", (
        "seed: transferred damage is resolved immediately; TIE 1 is %s" % ships(s)["TIE 1"]
    )
    assert ships(s)["Invisible Hand"]["pending"] == 0


def test_one_counter_per_option_per_round(board):
    """Seed 000, FAQ Fleet Command Options: "You cannot place two counters on the same
    option--that option can't be used again for the rest of the round. At the end of the round,
    clear all the counters from the chart. (They are used for the game; they do not get
    restored to the command ship.)"

    The Cruiser (3 counters) plays Power to Engines; the Cruiser playing it again in the same
    round is refused. Next round the chart is clear and it may play it again; its counters go
    3 -> 2 -> 1 and never come back."""
    new_game(board)
    board.ok("roll", values=[14, 9])
    board.ok("phase")
    board.ok("counter", ship=CRUISER, option="Power to Engines")
    assert ships(board.snap())["Cruiser"]["counters"] == 2
    assert board.refused("counter", ship=CRUISER, option="Power to Engines"), (
        "seed: two counters on the same option in one round"
    )
    for _ in range(4):
        board.ok("phase")  # attack-pd, attack, damage, end of round
    s = board.snap()
    assert s["round"] == 2 and ships(s)["Cruiser"]["counters"] == 2, (
        "seed: counters are not restored at the end of the round; %s" % ships(s)["Cruiser"]
    )
    board.ok("roll", values=[14, 9])
    board.ok("phase")
    board.ok("counter", ship=CRUISER, option="Power to Engines")
    assert ships(board.snap())["Cruiser"]["counters"] == 1


def test_no_counter_for_a_destroyed_ship_yes_for_unlaunched_fighter(board):
    """Seed 000, FAQ Fleet Command Options: "Can a play a Command counter on a ship that has
    already been destroyed or a fighter that hasn't been launched yet? A: No to a ship that
    has been destroyed. Yes to a fighter prior to being launched."

    TIE 1 is still aboard: the Invisible Hand plays Long Range Bombardment for it (accepted).
    The X-wing (1 hp) is destroyed in round 1's damage phase; in round 2 the Cruiser playing a
    counter for it is refused."""
    new_game(board)
    board.ok("roll", values=[9, 14])
    board.ok("phase")
    board.ok("counter", ship=HAND, option="Long Range Bombardment", **{"for": TIE1})
    board.ok("phase")
    board.ok("phase")
    board.ok("hit", ship=XWING, n=1, by=HAND)
    board.ok("phase")  # damage: the X-wing is destroyed
    assert ships(board.snap())["X-wing"]["status"] == "destroyed"
    board.ok("phase")
    board.ok("roll", values=[9, 14])
    board.ok("phase")
    assert board.refused("counter", ship=CRUISER, option="Incoming Fighters", **{"for": XWING}), (
        "seed: no counter on a destroyed ship"
    )


def test_fly_casual_class_3_only(board):
    """Seed 000, FAQ Specific Fleet Command Questions: "Does Fly Casual allow any ship to avoid
    a hit (not just class 3 starships)? Can it be used more than once per round? A: No and no."

    The Invisible Hand hits the Cruiser (class 2) and the Falcon (class 3) once each. Fly
    Casual for the Cruiser is refused; for the Falcon it avoids the hit (pending 1 -> 0)."""
    to_attack_step(board, [9, 14])
    board.ok("hit", ship=CRUISER, n=1, by=HAND)
    # a weapon fires once a round ("a single broadside weapon fire twice ...? Yes" is the
    # exception): the second hit is the Invisible Hand's broadside
    board.ok("aim", ship=HAND, weapon=2, arg=0)
    board.ok("hit", ship=FALCON, n=1, by=HAND)
    assert board.refused("counter", ship=CRUISER, option="Fly Casual"), (
        "seed: Fly Casual is not for a class 2 ship"
    )
    board.ok("counter", ship=FALCON, option="Fly Casual")
    assert ships(board.snap())["Falcon"]["pending"] == 0, "seed: the Falcon avoids the hit"


def test_fly_casual_once_per_round(board):
    """Seed 000, FAQ Specific Fleet Command Questions: Fly Casual: "Can it be used more than once
    per round? A: No and no."

    The Falcon (2 counters) takes two hits; Fly Casual avoids one; a second Fly Casual in the
    same round is refused, so one hit stays pending."""
    to_attack_step(board, [9, 14])
    board.ok("hit", ship=FALCON, n=1, by=HAND)
    board.ok("hit", ship=FALCON, n=1, by=SLAVE)
    board.ok("counter", ship=FALCON, option="Fly Casual")
    assert board.refused("counter", ship=FALCON, option="Fly Casual"), "seed: once per round"
    assert ships(board.snap())["Falcon"]["pending"] == 1


def test_no_attacks_in_the_move_phase(board):
    """Seed 000, FAQ: the round has a "Move Phase" and an "Attack Phase"; "initiative check":
    "Whoever rolls highest moves last and attacks first."

    In the Move phase the Cruiser's primary weapon attack is refused."""
    new_game(board)
    board.ok("roll", values=[14, 9])
    board.ok("phase")
    assert board.snap()["phase"] == "move"
    board.cmd("aim", ship=CRUISER, weapon=PRIMARY, arg=0)
    assert board.refused("attack", ship=CRUISER, target=HAND, roll=19), (
        "seed: attacks belong to the Attack phase"
    )


def test_one_ship_at_a_time_resolves_all_its_weapons(board):
    """Seed 000, FAQ Attack Phase: "Then select one starship and resolve all its weapons in any
    order of your choosing. Continue choosing one ship at a time to resolve its weapons."

    Side 1 wins (9 / 14). The Invisible Hand fires its primary weapon; then Slave I fires; the
    Invisible Hand coming back for its broadside afterwards is refused (its turn is over)."""
    to_attack_step(board, [9, 14])
    fire(board, HAND, PRIMARY, CRUISER, 2)
    fire(board, SLAVE, PRIMARY, FALCON, 2)
    board.cmd("aim", ship=HAND, weapon=BROAD_L, arg=0)
    assert board.refused("attack", ship=HAND, target=XWING, roll=2), (
        "seed: one ship at a time; the Invisible Hand already had its turn"
    )


def test_point_defense_is_aimed_only_by_a_ship_that_has_it(board):
    """Seed 000, FAQ Attack Phase ("Resolve all Point Defense on all starships first") speaks of
    a starship's point defense as one of its weapons; the Falcon's card (roster data) has none
    (pd 0). Aiming a weapon the ship lacks is refused, as a broadside is for a ship without one
    (found by an independent check: the aim was accepted and journaled). The Cruiser (pd 4)
    aims it."""
    to_attack_step(board, [14, 9])
    evs, errs = board.cmd("aim", ship=FALCON, weapon=PD, arg=0)
    assert errs and not evs and "no point defense" in errs[0], (evs, errs)
    evs, errs = board.cmd("aim", ship=XWING, weapon=BROAD_L, arg=0)
    assert errs and not evs and "no broadside" in errs[0], (evs, errs)
    board.ok("aim", ship=CRUISER, weapon=PD, arg=0)


def test_an_attack_on_its_own_side_says_so(board):
    """A ship attacks the other fleet (the seed's attacks are all at enemy starships): an attack
    on a ship of its own side is refused with that reason, not a weapon's (found by an
    independent check: "has no point defense" came first)."""
    to_attack_step(board, [14, 9])
    board.ok("aim", ship=CRUISER, weapon=PD, arg=0)
    for target in (FALCON, CRUISER):
        evs, errs = board.cmd("attack", ship=CRUISER, target=target, roll=10)
        assert errs and not evs and "its own side" in errs[0], (target, evs, errs)
