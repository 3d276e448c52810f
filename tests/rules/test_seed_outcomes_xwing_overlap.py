"""xwing-overlap: outcomes worked out by hand from seed 003 (X-Wing Miniatures Wiki, ship
overlap rules, `../shared/seeds/003_91e3d335fa0ef71a.txt`), played through the serial commands
of docs/protocol.md on the simulator with the `xwing-overlap-example` roster:

Rebels (side 0): 0-1 X-wing 1-2 (small, hp 5), 2 YT-1300 (large, 13), 3 CR90 Corvette (huge,
20). Empire (side 1): 4-5 TIE Fighter 1-2 (small, 3), 6 VT-49 Decimator (large, 16), 7 Raider
(huge, 20). `overlap` = (ship that moved, ship overlapped, optional dice faces).

The seed does not say how many damage points an attack die's faces deal (the faces are
X-Wing's own, not in the seed), so no test here depends on a face's meaning, only on counts,
on destruction and on who may attack whom.
"""

from support.seedplay import board_fixture, ships

board = board_fixture("--ruleset", "xwing-overlap")

XW1, XW2, YT, CR90, TIE1, TIE2, VT49, RAIDER = range(8)


def new_game(b):
    b.load(ruleset="xwing-overlap")


def to_combat(b):
    b.ok("phase")
    assert b.snap()["phase"] == "combat"


def touching_cannot_attack(b, ship, other):
    """A new game; ``ship`` overlaps ``other``, so they touch: in combat neither may attack
    the other (refused), while ``ship`` may attack the VT-49 it does not touch."""
    new_game(b)
    b.ok("overlap", ship=ship, other=other)
    to_combat(b)
    assert b.refused("hit", ship=other, by=ship), "seed: touching ships cannot attack"
    assert b.refused("hit", ship=ship, by=other), "seed: touching ships cannot attack"
    b.ok("hit", ship=VT49, by=ship)


def test_touching_ships_cannot_attack_each_other(board):
    """Seed 003: "Once the ship is no longer overlapping another ship, place it so that it is
    touching the last ship it overlapped." "While a ship is touching another ship, those ships
    cannot attack each other. They can still attack enemy ships that they are not touching."

    X-wing 1 overlaps TIE Fighter 1. In combat X-wing 1 -> TIE 1 and TIE 1 -> X-wing 1 are
    refused; X-wing 1 -> VT-49 (not touching) is accepted."""
    touching_cannot_attack(board, XW1, TIE1)


def test_small_overlap_does_no_damage_and_skips_action(board):
    """Seed 003: "The ship must skip its "Perform Action" step this round." "The ships do not
    damage each other unless an effect triggers to do so".

    X-wing 1 over TIE 1: no damage on either; X-wing 1 skips its action (TIE 1 does not)."""
    new_game(board)
    board.ok("overlap", ship=XW1, other=TIE1)
    s = board.snap()
    sh = ships(s)
    assert sh["X-wing 1"]["damage"] + sh["TIE Fighter 1"]["damage"] == 0, "seed: no damage"
    assert s["profile"]["skips_action"] == [XW1], (
        "seed: the moving ship skips its action; skips_action %s" % s["profile"]["skips_action"]
    )


def test_a_ship_touching_two_ships_can_attack_neither(board):
    """Seed 003: "While a ship is touching another ship, those ships cannot attack each other."

    X-wing 1 overlaps TIE 1 (they touch); X-wing 2 overlaps TIE 1 (TIE 1 now touches both
    X-wings); TIE 2 overlaps X-wing 1 (X-wing 1 now touches both TIEs). Every touching pair
    (X-wing 1/TIE 1, X-wing 2/TIE 1, X-wing 1/TIE 2) is refused in both directions."""
    new_game(board)
    board.ok("overlap", ship=XW1, other=TIE1)
    board.ok("overlap", ship=XW2, other=TIE1)
    board.ok("overlap", ship=TIE2, other=XW1)
    to_combat(board)
    names = {XW1: "X-wing 1", XW2: "X-wing 2", TIE1: "TIE Fighter 1", TIE2: "TIE Fighter 2"}
    for a, b in ((XW1, TIE1), (TIE1, XW1), (XW2, TIE1), (TIE1, XW2), (XW1, TIE2), (TIE2, XW1)):
        evs, errs = board.cmd("hit", ship=b, by=a)
        assert errs and not evs, (
            "seed: %s touches %s, they cannot attack each other; the attack was accepted: %s"
            % (names[a], names[b], evs)
        )


def test_huge_over_huge_a_damage_card_each_no_skipped_action(board):
    """Seed 003, Overlapping Huge Ships: "the huge ship that moved does not skip its "Perform
    Action" step. Instead, both huge ships are dealt one faceup Damage card".

    The CR90 overlaps the Raider: each has 1 damage; the CR90 does not skip its action."""
    new_game(board)
    board.ok("overlap", ship=CR90, other=RAIDER)
    s = board.snap()
    sh = ships(s)
    assert (sh["CR90 Corvette"]["damage"], sh["Raider"]["damage"]) == (1, 1), (
        "seed: one damage card each; got %s, %s"
        % (sh["CR90 Corvette"]["damage"], sh["Raider"]["damage"])
    )
    assert CR90 not in s["profile"]["skips_action"], "seed: the huge ship keeps its action"


def test_huge_over_small_destroys_it_and_rolls_one_die(board):
    """Seed 003, Overlapping Small or Large Ships: "the small or large ships overlapped by the
    huge ship are immediately destroyed and the huge ship completes its maneuver. The huge ship
    does not skip its "Perform Action" step. Then, the huge ship's player rolls one attack die
    for each small ship destroyed in the overlap and two attack dice for each large ship".

    The Raider overlaps X-wing 1: X-wing 1 is destroyed at once; two dice for one small ship is
    refused; one die is accepted; the Raider does not skip its action."""
    new_game(board)
    assert board.refused("overlap", ship=RAIDER, other=XW1, dice=[1, 2]), (
        "seed: one die for a small ship"
    )
    board.ok("overlap", ship=RAIDER, other=XW1, dice=[1])
    s = board.snap()
    assert ships(s)["X-wing 1"]["status"] == "destroyed", "seed: destroyed immediately"
    assert RAIDER not in s["profile"]["skips_action"]


def test_huge_over_large_rolls_two_dice(board):
    """Seed 003, Overlapping Small or Large Ships: "the huge ship's player rolls one attack die
    for each small ship destroyed in the overlap and two attack dice for each large ship
    destroyed in the overlap."

    The Raider overlaps the YT-1300 (large): it is destroyed; entering a single die for it is
    refused (two are rolled); two dice are accepted."""
    new_game(board)
    why = "seed: a large ship destroyed by a huge ship's overlap means two attack dice; one die was accepted: %s"
    board.must_refuse(why, "overlap", ship=RAIDER, other=YT, dice=[1])
    board.ok("overlap", ship=RAIDER, other=YT, dice=[7, 8])
    assert ships(board.snap())["YT-1300"]["status"] == "destroyed"


def test_small_over_huge_standard_rules_and_one_die(board):
    """Seed 003, Small/Large Ship Overlapping a Huge Ship: "the overlapping ship must follow the
    rules above. Additionally, the player controlling the overlapping ship rolls one attack die
    and suffers any damage". (Standard rules: it skips its action and the two touch.)

    X-wing 2 overlaps the Raider: two dice refused, one accepted; X-wing 2 skips its action
    and, in combat, cannot attack the Raider."""
    new_game(board)
    assert board.refused("overlap", ship=XW2, other=RAIDER, dice=[1, 2]), "seed: one die"
    board.ok("overlap", ship=XW2, other=RAIDER, dice=[8])
    s = board.snap()
    assert XW2 in s["profile"]["skips_action"], "seed: standard rules: it skips its action"
    to_combat(board)
    assert board.refused("hit", ship=RAIDER, by=XW2), "seed: touching ships cannot attack"


def test_huge_ships_that_overlap_touch_and_cannot_attack_each_other(board):
    """Seed 003, Overlapping Huge Ships: "When a huge ship executes a maneuver and the final
    position of one of its sections overlaps one or more huge ships, use the standard rules
    for overlapping ships as described above." Standard rules: "While a ship is touching
    another ship, those ships cannot attack each other."

    The CR90 overlaps the Raider; in combat the CR90 -> Raider and Raider -> CR90 are refused;
    the CR90 -> VT-49 is accepted."""
    touching_cannot_attack(board, CR90, RAIDER)
