"""squadrons-d6: outcomes worked out by hand from seed 002 (a fan squadron game on WEG D6 stats,
the "Movement" page, `../shared/seeds/002_0e4d093935edf526.txt`), played through the serial
commands of docs/protocol.md on the simulator, with the `squadrons-d6-example` roster:

Rebels (side 0): 0-2 Red 1-3 (Space 8, piloting 4D+1, Maneuverability 3D, Red Squadron),
3 Red Leader (Space 8, 6D, 3D, hero, Red Squadron), 4 Corellian Corvette (Space 6, 3D, 2D,
capital). Empire (side 1): 5-8 Black 1-4 (Space 10, 4D, 2D, Black Squadron), 9 Star
Destroyer (Space 6, 4D, 1D, capital). `move` modes: 1 Attack Speed, 2 Full Throttle, 3 stop
dead; `turns` = hexside turns used in the move.

The seed gives no initiative roll and does not say who moves first; these tests do not
assume a first player.
"""

from support.seedplay import board_fixture
from support.rosters import ship, two_sides

board = board_fixture("--ruleset", "squadrons-d6")

RED1, RED2, RED3, LEADER, CORVETTE, BLACK1, BLACK2, BLACK3, BLACK4, SD = range(10)
ATTACK_SPEED, FULL_THROTTLE, STOP = 1, 2, 3


def new_game(b):
    b.load(ruleset="squadrons-d6")


def test_movement_figures_from_the_seed_formulas(board):
    """Seed 002, Movement Rates: "Attack Speed: craft's Space/2 + piloting skill / Full
    Throttle: craft's Space + piloting skill"; "# of Turns ... taken directly from the
    starship's 'Maneuverability' die code (rounding down the pips"; "10 - (starfighter piloting
    + maneuverability) = Turn Distance". Example: "A Rebel X-wing (Space: 8) flown by a pilot
    with 4D+1 ... has an Attack Speed of 8, and a Full Throttle of 12" and "Its # of Turns is
    3, and its Turn Distance, then, is 3".

    Red 1: 8/2+4 = 8, 8+4 = 12, 3, 10-7 = 3. Corvette: 6/2+3 = 6, 9, 2, 10-5 = 5.
    Black 1: 10/2+4 = 9, 14, 2, 4. Red Leader: 4+6 = 10, 14, 3, 10-9 = 1."""
    new_game(board)
    m = board.snap()["profile"]["movement"]
    want = {
        "Red 1": (8, 12, 3, 3),
        "Corellian Corvette": (6, 9, 2, 5),
        "Black 1": (9, 14, 2, 4),
        "Red Leader": (10, 14, 3, 1),
    }
    for name, figures in want.items():
        got = tuple(
            m[name][k] for k in ("attack_speed", "full_throttle", "turns", "turn_distance")
        )
        assert got == figures, "seed formulas give %s %s; the referee shows %s" % (
            name,
            figures,
            got,
        )


def test_turns_must_fit_the_distance_at_attack_speed(board):
    """Seed 002, Turn Distance: "This value determines how many hexes must be crossed, in a
    straight line, before a ship may make one of its hexside turns." "The craft may turn three
    hexsides in its move, but it must move three hexes before each of those turns."

    Red 1 at Attack Speed crosses at most 8 hexes; each turn needs 3 hexes before it: 2 turns
    need 6, a third would need 9 > 8. Attack Speed with 3 turns is refused."""
    new_game(board)
    why = "seed: at Attack Speed (8 hexes) with Turn Distance 3 Red 1 fits at most 2 turns; 3 turns were accepted: %s"
    board.must_refuse(why, "move", ship=RED1, mode=ATTACK_SPEED, turns=3)


def test_turns_fit_the_distance_at_full_throttle(board):
    """Seed 002, Turn Distance example: "Red Leader, shown in the example here, is flying at Full
    Throttle (12 hexes). The final segment of his move covers enough hexes to get him another
    turn, but they've already been used."

    Red 1 at Full Throttle (12 hexes): 3 turns need 9 hexes: accepted."""
    new_game(board)
    board.ok("move", ship=RED1, mode=FULL_THROTTLE, turns=3)


def test_corvette_turns_must_fit_the_distance(board):
    """Seed 002, Turn Distance: "how many hexes must be crossed, in a straight line, before a
    ship may make one of its hexside turns."

    Corellian Corvette: Attack Speed 6, Turn Distance 5: one turn needs 5 hexes, two need 10 >
    6: Attack Speed with 2 turns is refused."""
    new_game(board)
    why = "seed: 6 hexes with Turn Distance 5 fit one turn; 2 turns were accepted: %s"
    board.must_refuse(why, "move", ship=CORVETTE, mode=ATTACK_SPEED, turns=2)


def test_no_more_turns_than_maneuverability(board):
    """Seed 002, # of Turns: "This value is, quite simply, the number of hexsides a ship may turn
    during its move." "If a craft has turns left over at the end of its move ... they are lost
    and cannot be 'saved' for the next Movement Phase."

    Red 1 (3 turns) at Full Throttle with 4 turns: refused."""
    new_game(board)
    assert board.refused("move", ship=RED1, mode=FULL_THROTTLE, turns=4), "seed: Red 1 has 3 turns"


def test_a_squadron_moves_at_one_rate(board):
    """Seed 002, Movement Rates: "all ships in a Squadron must move at the same rate."

    Red 1 at Attack Speed, then Red 2 at Full Throttle: refused."""
    new_game(board)
    board.ok("move", ship=RED1, mode=ATTACK_SPEED, turns=0)
    assert board.refused("move", ship=RED2, mode=FULL_THROTTLE, turns=0), (
        "seed: the squadron moves at one rate"
    )


def move_everyone(
    b,
    red=ATTACK_SPEED,
    black=ATTACK_SPEED,
    leader=ATTACK_SPEED,
    corvette=ATTACK_SPEED,
    sd=ATTACK_SPEED,
):
    """Every craft moves once, units alternating: Corvette, Star Destroyer, Red Squadron with
    Red Leader (the roster puts him in it), Black Squadron."""
    b.ok("move", ship=CORVETTE, mode=corvette, turns=0)
    b.ok("move", ship=SD, mode=sd, turns=0)
    for s in (RED1, RED2, RED3):
        b.ok("move", ship=s, mode=red, turns=0)
    b.ok("move", ship=LEADER, mode=leader, turns=0)
    for s in (BLACK1, BLACK2, BLACK3, BLACK4):
        b.ok("move", ship=s, mode=black, turns=0)


def test_full_throttle_squadron_cannot_fire(board):
    """Seed 002, Full Throttle: "Ships flying at Full Throttle may not fire in the Combat
    Phase." "if one ship in a Squadron moves at Full Throttle, all ships in the Squadron are
    considered to have moved at Full Throttle."

    Black Squadron at Full Throttle: in combat Black 2's hit on Red 1 is refused; Red 1 (Attack
    Speed) hits Black 1 (accepted)."""
    new_game(board)
    move_everyone(board, black=FULL_THROTTLE)
    board.ok("phase")
    assert board.snap()["phase"] == "combat"
    assert board.refused("hit", ship=RED1, by=BLACK2), "seed: Full Throttle craft do not fire"
    board.ok("hit", ship=BLACK1, by=RED1)


def test_only_capital_ships_and_heroes_may_stop_dead(board):
    """Seed 002, Movement: "only Capital Ships and Heroes may choose to come to a dead stop -
    and only then if they moved at Attack Speed in the prior round."

    Round 1 everyone at Attack Speed. Round 2: the Corvette (capital) stops dead: accepted; the
    Empire's Star Destroyer moves; Red 1 (neither capital nor hero) stopping: refused."""
    new_game(board)
    move_everyone(board)
    board.ok("phase")
    board.ok("phase")
    assert board.snap()["round"] == 2
    board.ok("move", ship=CORVETTE, mode=STOP, turns=0)
    board.ok("move", ship=SD, mode=ATTACK_SPEED, turns=0)
    assert board.refused("move", ship=RED1, mode=STOP, turns=0), (
        "seed: Red 1 is neither a capital ship nor a hero"
    )


def test_a_hero_stops_dead_only_after_attack_speed(board):
    """Seed 002, Movement: "only Capital Ships and Heroes may choose to come to a dead stop -
    and only then if they moved at Attack Speed in the prior round."

    Round 1 Red Squadron (with Red Leader) at Full Throttle. Round 2: the Star Destroyer moves,
    then Red Leader stopping dead is refused."""
    new_game(board)
    move_everyone(board, red=FULL_THROTTLE, leader=FULL_THROTTLE)
    board.ok("phase")
    board.ok("phase")
    board.ok("move", ship=SD, mode=ATTACK_SPEED, turns=0)
    assert board.refused("move", ship=LEADER, mode=STOP, turns=0), (
        "seed: Red Leader flew Full Throttle last round"
    )


def test_a_fighter_that_does_not_move_has_stopped_dead(board):
    """Seed 002, Movement: "While no craft is required to move its full movement rate, only
    Capital Ships and Heroes may choose to come to a dead stop".

    Everyone moves except Red 3 (a squadron fighter): ending the Movement Phase with Red 3
    still where it was would be a dead stop, which it may not choose: refused."""
    new_game(board)
    board.ok("move", ship=CORVETTE, mode=ATTACK_SPEED, turns=0)
    board.ok("move", ship=SD, mode=ATTACK_SPEED, turns=0)
    for s in (RED1, RED2, LEADER):
        board.ok("move", ship=s, mode=ATTACK_SPEED, turns=0)
    # "players alternate moving their Squadrons": a squadron is one unit, so the Black
    # Squadron cannot move while the Red Squadron's move is unfinished (Red 3)
    assert board.refused("move", ship=BLACK1, mode=ATTACK_SPEED, turns=0)
    why = "seed: only capital ships and heroes may stay still; the Movement Phase ended with Red 3 unmoved: %s"
    board.must_refuse(why, "phase")


def test_players_alternate_units(board):
    """Seed 002, Movement: "In the Movement Phase, players alternate moving their Squadrons,
    Heroes, and Capital Ships."

    The Rebels move the Corvette (a unit); the Rebels moving Red 1 next is refused (the
    Empire's turn); the Empire moves its Star Destroyer; then the Rebels' Red Squadron moves."""
    new_game(board)
    board.ok("move", ship=CORVETTE, mode=ATTACK_SPEED, turns=0)
    why = "seed: players alternate units; the Rebels moved the Corvette and then Red 1: %s"
    board.must_refuse(why, "move", ship=RED1, mode=ATTACK_SPEED, turns=0)
    board.ok("move", ship=SD, mode=ATTACK_SPEED, turns=0)
    board.ok("move", ship=RED1, mode=ATTACK_SPEED, turns=0)


def test_a_craft_moves_once_a_round_and_rounds_go_movement_then_combat(board):
    """Seed 002, Movement: "In the Movement Phase, players alternate moving" and "he may not
    fire at any ships in the Combat Phase" (a Movement Phase, then a Combat Phase, each round).
    "These rates dictate how many hexes the craft may travel in a Movement Phase."

    The Corvette moves; moving it again in the same phase is refused; the phases run movement
    -> combat -> round 2 movement."""
    new_game(board)
    board.ok("move", ship=CORVETTE, mode=ATTACK_SPEED, turns=0)
    board.ok("move", ship=SD, mode=ATTACK_SPEED, turns=0)
    assert board.refused("move", ship=CORVETTE, mode=ATTACK_SPEED, turns=0), (
        "seed: one move per craft per Movement Phase"
    )
    s = board.snap()
    assert (s["round"], s["phase"]) == (1, "movement")
    for s in (RED1, RED2, RED3, LEADER):
        board.ok("move", ship=s, mode=ATTACK_SPEED, turns=0)
    for s in (BLACK1, BLACK2, BLACK3, BLACK4):
        board.ok("move", ship=s, mode=ATTACK_SPEED, turns=0)
    board.ok("phase")
    s = board.snap()
    assert (s["round"], s["phase"]) == (1, "combat"), (s["round"], s["phase"])
    board.ok("phase")
    s = board.snap()
    assert (s["round"], s["phase"]) == (2, "movement"), (s["round"], s["phase"])


def test_exemplary_turn_distance_zero_and_below(board):
    """Seed 002, Exemplary Pilots and Craft: "When calculating Turn Distance, if the number
    reached is 0, the craft may turn two hexsides at once. If the total is -1 or less, the craft
    is now able to make 180 degree bootlegger turns."

    Ace (piloting 5D+2, Maneuverability 5D): 10 - (5 + 5) = 0, 5 turns. Legend (6D, 5D+1):
    10 - 11 = -1, 5 turns. Both are marked as special (two hexsides / bootlegger)."""
    r = two_sides(
        "aces",
        "squadrons-d6",
        [
            ship("Ace", 4, 1, {"space": 8, "piloting": "5D+2", "maneuverability": "5D"}),
            ship("Legend", 4, 1, {"space": 8, "piloting": "6D", "maneuverability": "5D+1"}),
        ],
        [ship("Black", 4, 1, {"space": 10, "piloting": "4D", "maneuverability": "2D"})],
        sides=("Rebels", "Empire"),
    )
    board.load(roster_obj=r)
    m = board.snap()["profile"]["movement"]
    assert (m["Ace"]["turn_distance"], m["Ace"]["turns"]) == (0, 5)
    assert (m["Legend"]["turn_distance"], m["Legend"]["turns"]) == (-1, 5)
    assert (
        m["Ace"]["special"]
        and m["Legend"]["special"]
        and (m["Ace"]["special"] != m["Legend"]["special"])
    ), (m["Ace"], m["Legend"])
    assert (m["Ace"]["attack_speed"], m["Ace"]["full_throttle"]) == (9, 13), (
        "seed: 8/2 + 5 = 9, 8 + 5 = 13"
    )
