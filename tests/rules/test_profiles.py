"""Every rule system in the seeds, each test built from its seed's own text."""

import json
import os

import pytest

from support import ROOT
from support.game import new_game, smb_move_all
from referee import game as G, rules, scenarios
from referee.game import NONE
from referee.rules.d20 import EV_AIM, EV_ATTACK
from referee.rules.swsb import EV_TRANSFER, EV_DONE, W_PRIMARY, W_PD, W_BROAD_L, W_BROAD_R
from referee.rules.swsb_addon_defs import EV_CHOOSE, range_band
from referee.rules.base import EV_MOVE
from referee.rules.squadrons_d6 import movement_figures, dice_code, move_b, FULL_THROTTLE
from referee.rules.xwing_overlap import EV_OVERLAP, xwing_die, overlap_dice, SKIP_ACTION
from referee.rules.smb_defs import (
    EV_POWER,
    EV_RESPONSE,
    EV_EXIT,
    EV_ION,
    W_CAPITAL,
    W_RAPID,
    ION_NEXT,
    S_SNUB_DEF,
)

PH = (G.EV_PHASE, 0, 0, 0)


def ok(g, ev):
    r = g.submit(ev)
    assert r is None, r


def refused(g, ev, words):
    h = g.state_hash()
    r = g.submit(ev)
    assert r is not None and words in r, r
    assert g.state_hash() == h


def idx(g, name):
    return g.names.index(name)


def game_of(roster):
    norm, _ = scenarios.load_text(json.dumps(roster))
    return G.Game(rules.get(norm["ruleset"]), norm)


# ---- swsb completed (seed 000; digest 2-4) ---------------------------------------------------
def swsb_roster(extra_light=(), extra_dark=(), settings=None):
    r = {
        "name": "t",
        "ruleset": "swsb",
        "sides": [
            {
                "name": "Light",
                "ships": [
                    {
                        "name": "Cruiser",
                        "class": 2,
                        "hp": [2, 2],
                        "cc": 1,
                        "stats": {
                            "defense": 15,
                            "attack": 6,
                            "pd": 4,
                            "damaged": {"defense": 11, "attack": 3, "pd": 0},
                        },
                    },
                    {"name": "X-wing", "class": 4, "hp": 1, "stats": {"defense": 15, "attack": 4}},
                ]
                + list(extra_light),
            },
            {
                "name": "Dark",
                "ships": [
                    {
                        "name": "Flagship",
                        "class": 1,
                        "hp": [4, 4],
                        "stats": {"defense": 16, "attack": 7, "pd": 3, "emperors_will": True},
                    },
                    {
                        "name": "Invisible Hand",
                        "class": 2,
                        "hp": [4, 2],
                        "stats": {"defense": 14, "attack": 5, "broadside": True},
                    },
                    {
                        "name": "TIE",
                        "class": 4,
                        "hp": 1,
                        "count": 2,
                        "stats": {"defense": 14, "attack": 3, "infinite": True},
                    },
                ]
                + list(extra_dark),
            },
        ],
    }
    if settings:
        r["settings"] = settings
    return r


def to_attack(g, pd=False, rolls=(12, 3)):
    ok(g, (G.EV_INIT, rolls[0], rolls[1], 0))
    ok(g, PH)
    ok(g, PH)
    if not pd:
        ok(g, PH)


def test_swsb_damaged_side_stat_block():
    g = game_of(swsb_roster())
    c = idx(g, "Cruiser")
    assert (g.rules.defense(g, c), g.rules.attack_bonus(g, c), g.rules.point_defense(g, c)) == (
        15,
        6,
        4,
    )
    to_attack(g)
    ok(g, (G.EV_HIT, c, 2, NONE))
    ok(g, PH)  # damage phase: the card flips
    assert g.status(c) == G.DAMAGED
    assert (g.rules.defense(g, c), g.rules.attack_bonus(g, c), g.rules.point_defense(g, c)) == (
        11,
        3,
        0,
    )
    ok(g, PH)
    to_attack(g, pd=True)
    refused(g, (G.EV_HIT, idx(g, "TIE 1"), 1, c), "no point defense")  # damaged PD 0


def test_emperors_will_moves_damage_to_an_allied_fighter_at_once():
    # seed 000 errata: "shift the damage taken from a nonadjacent enemy's attack to any
    # adjacent allied fighter. Resolve damage transferred in this fashion immediately rather
    # than during the damage phase."
    g = game_of(swsb_roster())
    f, tie, x = idx(g, "Flagship"), idx(g, "TIE 1"), idx(g, "X-wing")
    to_attack(g)
    ok(g, (G.EV_HIT, f, 2, NONE))
    assert g.pending[f] == 2
    ok(g, (EV_TRANSFER, f, 1, tie))
    assert g.pending[f] == 1 and g.dmg[f] == 0
    assert g.flags[tie] & G.F_LAUNCHED == 0  # destroyed at once: Infinite, back to the pool
    refused(g, (EV_TRANSFER, f, 1, x), "allied fighter")
    refused(g, (EV_TRANSFER, idx(g, "Invisible Hand"), 1, tie), "no Emperor's Will")
    refused(g, (EV_TRANSFER, f, 5, idx(g, "TIE 2")), "has not 5 damage pending")


def test_infinite_fighters_return_to_the_pool():
    g = game_of(swsb_roster())
    tie = idx(g, "TIE 1")
    to_attack(g)
    ok(g, (G.EV_HIT, tie, 1, NONE))
    ok(g, PH)
    assert g.dmg[tie] == 0 and not g.flags[tie] & G.F_LAUNCHED and not g.destroyed(tie)
    ok(g, PH)
    ok(g, (G.EV_INIT, 12, 3, 0))
    ok(g, PH)
    ok(g, (G.EV_LAUNCH, tie, 0, 0))  # it can come back in


def test_broadside_fires_once_to_each_side():
    # seed 000 FAQ: "Can a single broadside weapon fire twice if there are enemy starships on
    # both the left and right sides of the starship?" "Yes"
    g = game_of(swsb_roster())
    h, c, x = idx(g, "Invisible Hand"), idx(g, "Cruiser"), idx(g, "X-wing")
    to_attack(g, rolls=(3, 12))  # the Dark Side attacks first
    refused(g, (EV_AIM, c, W_BROAD_L, 0), "no broadside")
    ok(g, (EV_AIM, h, W_BROAD_L, 0))
    ok(g, (EV_ATTACK, h, 18, c))
    refused(g, (EV_ATTACK, h, 18, c), "broadside to the left")
    ok(g, (EV_AIM, h, W_BROAD_R, 0))
    ok(g, (EV_ATTACK, h, 18, x))
    refused(g, (EV_ATTACK, h, 18, x), "broadside to the right")


@pytest.mark.parametrize(
    "roll,settings,hit",
    [
        (10, {}, True),  # X-wing 10 + 4 = 14 meets the TIE's Defense 14
        (10, {"tie_hits": 0}, False),
        (11, {"tie_hits": 0}, True),
        (9, {}, False),
        (20, {}, False),
        (20, {"nat20_hits": 1}, True),  # 20 + 4 = 24 against Defense 25
        (1, {}, True),
        (1, {"nat1_misses": 1}, False),
    ],
)  # 1 + 4 = 5 against Defense 2
def test_attack_helper_d20_plus_attack_against_defense(roll, settings, hit):
    # digest 2.2 (W6): d20 + attack against Defense; TIE fighter Defense 14 (W4)
    r = swsb_roster(settings=settings)
    r["sides"][1]["ships"].append(
        {"name": "Wall", "class": 1, "hp": 9, "stats": {"defense": 25, "attack": 0}}
    )
    g = game_of(r)
    x, tie, wall = idx(g, "X-wing"), idx(g, "TIE 1"), idx(g, "Wall")
    target = wall if roll == 20 else tie
    to_attack(g)
    if roll == 1:
        g.stats = bytearray(g.stats)
        g.stats[tie * g.stat_count] = 2  # front Defense 2
    ok(g, (EV_ATTACK, x, roll, target))
    assert g.game_state[0] == (1 if hit else 2)
    assert g.pending[target] == (1 if hit else 0)
    assert g.active == x  # the attacker is the ship firing now


# ---- swsb-addon (seed 001) ------------------------------------------------------------------
def test_range_bands_by_inches():
    # seed 001: Very Close 0-8" 0, Close 9-16" -1, Medium 17-24" -2, Long 25-32" -3, Extreme 33"+ -4
    assert [range_band(d) for d in (0, 8, 9, 16, 17, 24, 25, 32, 33, 60)] == [
        0,
        0,
        1,
        1,
        2,
        2,
        3,
        3,
        4,
        4,
    ]
    with pytest.raises(ValueError):
        range_band(-1)


def addon(settings=None):
    g = new_game("swsb-addon-example", settings)
    return g


def attack_total(g, a, c, inches, roll=10, weapon=W_PRIMARY):
    ok(g, (EV_AIM, a, weapon, inches))
    res = g.rules.attack_result(g, a, c, roll)
    bonus = g.rules.point_defense(g, a) if weapon == W_PD else g.rules.attack_bonus(g, a)
    return res if isinstance(res, str) else res[1] - roll - bonus


def addon_attack_phase(g):
    ok(g, (G.EV_INIT, 3, 12, 0))
    ok(g, PH)
    ok(g, (EV_CHOOSE, 0, 0, 0))
    ok(g, PH)


def test_addon_modifiers_band_fighters_cloak_size():
    g = addon()
    addon_attack_phase(g)
    mc, xw = idx(g, "Mon Calamari Cruiser"), idx(g, "X-wing 1")
    ih, cr, vd = idx(g, "Invisible Hand"), idx(g, "Cloaked Raider"), idx(g, "Vulture Droid 1")
    assert attack_total(g, mc, ih, 20) == -2  # Medium
    assert attack_total(g, mc, vd, 1) == -1  # non-PD fire at fighters: 9-16"
    assert attack_total(g, mc, vd, 1, weapon=W_PD) == 0  # PD at a fighter: no band rule
    assert attack_total(g, mc, cr, 4) == -1  # Cloak: one band further out
    assert "Extreme" in attack_total(g, mc, cr, 28)  # Long -> Extreme: not targetable
    assert attack_total(g, xw, cr, 1) == 0  # fighters attack Cloak unmodified
    s = addon({"size_modifier": 1})
    addon_attack_phase(s)
    # "a Class 1 ship firing at a Class 3 ship would have a -2 (1 - 3) modifier"
    assert attack_total(s, mc, cr, 4) == -1 + (2 - 3)  # class 2 at class 3, cloak band
    assert attack_total(s, mc, vd, 1) == 0 + (2 - 4)  # fighter band rule dropped
    assert attack_total(s, mc, vd, 1, weapon=W_PD) == 0  # never for PD


def test_addon_roll_of_20_always_hits():
    g = addon()
    addon_attack_phase(g)
    mc, cr = idx(g, "Mon Calamari Cruiser"), idx(g, "Cloaked Raider")
    g.stats = bytearray(g.stats)
    g.stats[cr * g.stat_count] = 60
    ok(g, (EV_AIM, mc, W_PRIMARY, 20))
    assert g.rules.attack_result(g, mc, cr, 19)[0] is False
    ok(g, (EV_ATTACK, mc, 20, cr))
    assert g.game_state[0] == 1 and g.pending[cr] == 1


def test_alternating_activation():
    g = addon()
    mc, fal, x1, x2 = [
        idx(g, n) for n in ("Mon Calamari Cruiser", "Millennium Falcon", "X-wing 1", "X-wing 2")
    ]
    ih, cr, v1, v2 = [
        idx(g, n)
        for n in ("Invisible Hand", "Cloaked Raider", "Vulture Droid 1", "Vulture Droid 2")
    ]
    ok(g, (G.EV_INIT, 3, 12, 0))  # the Dark Side wins and chooses
    ok(g, PH)
    refused(g, (EV_MOVE, mc, 1, 0), "chooses who moves first")
    ok(g, (EV_CHOOSE, 0, 0, 0))  # the Light Side moves first
    refused(g, (EV_CHOOSE, 1, 0, 0), "already chosen")
    refused(g, (EV_MOVE, ih, 1, 0), "not Dark")
    refused(g, (EV_MOVE, x1, 1, 0), "class 1-3 ships move before class 4")
    ok(g, (EV_MOVE, mc, 1, 0))
    ok(g, (EV_MOVE, fal, 1, 0))  # two at a time: now the Dark Side
    assert g.rules.acting_side(g) == 1
    ok(g, (EV_MOVE, ih, 1, 0))
    ok(g, (EV_MOVE, cr, 1, 0))  # class 1-3 done: class 4, the first player again
    assert g.rules.acting_side(g) == 0
    ok(g, (EV_MOVE, x1, 1, 0))
    ok(g, (EV_MOVE, x2, 1, 0))
    ok(g, (EV_MOVE, v1, 1, 0))
    ok(g, (EV_MOVE, v2, 1, 0))
    ok(g, PH)  # attack: the player that moved first fires first
    assert g.rules.acting_side(g) == 0
    refused(g, (G.EV_HIT, mc, 1, ih), "not Dark")
    refused(g, (G.EV_HIT, v1, 1, x1), "class 1-3 ships fire before class 4")
    ok(g, (G.EV_HIT, ih, 2, mc))
    refused(g, (G.EV_HIT, cr, 1, fal), "finish its activation")
    assert g.pending[ih] == 2 and g.dmg[ih] == 0
    ok(g, (EV_DONE, mc, 0, 0))  # damage assessed as soon as the ship has fired
    assert g.dmg[ih] == 2 and g.pending[ih] == 0
    refused(g, (G.EV_HIT, ih, 1, fal), "not Light")
    ok(g, (G.EV_HIT, fal, 4, ih))  # the Invisible Hand (4/2) fires
    ok(g, (EV_DONE, ih, 0, 0))
    assert g.status(fal) == G.DAMAGED
    assert g.rules.yet_to_act(g, cr) and not g.rules.yet_to_act(g, ih)


def test_addon_grid_shows_whose_activation_and_who_has_yet_to_act():
    from referee.app import Referee
    from referee.dice import Dice, XorShift32
    from referee.render import Renderer, SIDE_RGB, DIM_WHITE

    app = Referee(
        {"name": "t"},
        os.path.join(ROOT, "firmware", "rosters"),
        lambda l: None,
        Dice(XorShift32(1)),
        12,
    )
    app.load_scenario("swsb-addon-example")
    for line in [
        '{"c": "roll", "values": [3, 12]}',
        '{"c": "phase"}',
        '{"c": "choose", "side": 1}',
        '{"c": "move", "ship": 4}',
    ]:
        app.link.handle_line(line)
    app.pad.cursor = 0
    r = Renderer(16, 16)
    r.render(app)
    assert r.get(14, 0) == SIDE_RGB[1]  # the Dark Side's activation
    assert r.get(8 + 6, 2) != DIM_WHITE  # the Invisible Hand has moved
    assert r.get(8 + 6, 3) == DIM_WHITE  # the Cloaked Raider has yet to act
    assert r.get(6, 3) == DIM_WHITE  # and so has the Falcon


# ---- squadrons-d6 (seed 002) ----------------------------------------------------------------
def test_movement_figures_from_the_seed_example():
    # "A Rebel X-wing (Space: 8) flown by a pilot with 4D+1 ... has an Attack Speed of 8, and a
    # Full Throttle of 12"; "maneuverability of 3 ... Its # of Turns is 3, and its Turn
    # Distance ... is 3"
    assert dice_code("4D+1") == 4 and dice_code("3D") == 3
    assert movement_figures(8, 4, 3) == (8, 12, 3, 3, "")
    assert movement_figures(8, 4, 6)[3:] == (0, "two-hexside turn")
    assert movement_figures(8, 6, 5)[3:] == (-1, "bootlegger turn")
    g = new_game("squadrons-d6-example")
    v = g.rules.view(g)["movement"]["Red 1"]
    assert (v["attack_speed"], v["full_throttle"], v["turns"], v["turn_distance"]) == (8, 12, 3, 3)


def test_squadron_full_throttle_and_stop_dead_and_unused_turns():
    g = new_game("squadrons-d6-example")
    r1, r2, r3, lead = [idx(g, n) for n in ("Red 1", "Red 2", "Red 3", "Red Leader")]
    cor, b1, b2 = idx(g, "Corellian Corvette"), idx(g, "Black 1"), idx(g, "Black 2")
    b3, b4, sd = idx(g, "Black 3"), idx(g, "Black 4"), idx(g, "Star Destroyer")
    refused(g, (G.EV_INIT, 3, 4, 0), "no initiative")
    ok(g, (EV_MOVE, r1, move_b(2, 9), 1))  # Red 1 at Full Throttle...
    refused(g, (EV_MOVE, r2, move_b(1, 5), 0), "same rate")
    assert g.rule_flags[r3] & FULL_THROTTLE  # ...the whole squadron counts as Full Throttle
    refused(g, (EV_MOVE, r2, move_b(2, 12), 4), "3 turns a move")
    for k in (r2, r3, lead):
        ok(g, (EV_MOVE, k, move_b(2, 10), 0))
    refused(g, (EV_MOVE, cor, move_b(1, 5), 1), "players alternate units")
    refused(g, (EV_MOVE, b1, move_b(3, 0), 0), "only capital ships and heroes")
    for k in (b1, b2, b3, b4):
        ok(g, (EV_MOVE, k, move_b(1, 4), 0))
    refused(g, (EV_MOVE, cor, move_b(3, 0), 0), "Attack Speed the round before")
    refused(g, (EV_MOVE, cor, move_b(1, 4), 1), "must cross 5 hexes before each turn")
    ok(g, (EV_MOVE, cor, move_b(1, 5), 1))  # 1 of its 2 turns used
    ok(g, (EV_MOVE, sd, move_b(1, 3), 0))
    ok(g, PH)  # combat
    refused(g, (G.EV_HIT, b1, 1, r3), "Full Throttle")
    ok(g, (G.EV_HIT, r1, 1, b2))
    ok(g, PH)  # round 2
    assert not g.rule_flags[r3] & FULL_THROTTLE
    refused(g, (EV_MOVE, cor, move_b(1, 6), 3), "2 turns a move")  # the unused turn was lost
    ok(g, (EV_MOVE, cor, move_b(3, 0), 0))  # stop dead after Attack Speed last round
    refused(g, (EV_MOVE, lead, move_b(3, 0), 0), "Attack Speed the round before")  # a hero


# ---- xwing-overlap (seed 003) ---------------------------------------------------------------
def test_xwing_attack_die_faces():
    faces = [xwing_die(f) for f in range(1, 9)]
    assert (
        faces.count("hit"),
        faces.count("crit"),
        faces.count("focus"),
        faces.count("blank"),
    ) == (3, 1, 2, 2)
    assert overlap_dice(3, 1) == 1 and overlap_dice(3, 2) == 2 and overlap_dice(1, 3) == 1
    assert overlap_dice(2, 3) == 1 and overlap_dice(1, 2) == 0 and overlap_dice(3, 3) == 0


def test_overlaps():
    g = new_game("xwing-overlap-example")
    x1, x2, yt, cr = [idx(g, n) for n in ("X-wing 1", "X-wing 2", "YT-1300", "CR90 Corvette")]
    t1, t2, _vt, rd = [
        idx(g, n) for n in ("TIE Fighter 1", "TIE Fighter 2", "VT-49 Decimator", "Raider")
    ]
    # small over small: skips Perform Action; touching ships cannot attack each other
    ok(g, (EV_OVERLAP, x1, 0, t1))
    assert g.rule_flags[x1] & SKIP_ACTION and not g.rule_flags[t1] & SKIP_ACTION
    refused(g, (EV_OVERLAP, x2, 1, t2), "rolls 0 attack dice")
    # small over huge: standard rules, and it rolls one die and suffers the result
    ok(g, (EV_OVERLAP, x2, 1 << 4, rd))  # a crit
    assert g.dmg[x2] == 1 and g.rule_flags[x2] & SKIP_ACTION
    # huge over small and large: destroyed; 1 die per small, 2 per large, fore section
    refused(g, (EV_OVERLAP, rd, 3, yt), "rolls 2 attack dice")
    ok(g, (EV_OVERLAP, rd, 1 | (1 << 4), yt))  # a hit and a crit
    assert g.destroyed(yt) and g.dmg[rd] == 2 and not g.rule_flags[rd] & SKIP_ACTION
    # huge over huge: no skip; one faceup damage card each
    ok(g, (EV_OVERLAP, cr, 0, rd))
    assert g.dmg[cr] == 1 and g.dmg[rd] == 3 and not g.rule_flags[cr] & SKIP_ACTION
    ok(g, PH)
    refused(g, (G.EV_HIT, t1, 1, x1), "touching")
    refused(g, (G.EV_HIT, x1, 1, t1), "touching")
    ok(g, (G.EV_HIT, t1, 1, x2))  # not touching each other


# ---- smb completed (seed 004) ---------------------------------------------------------------
def hoth_movement(g, empire_first=True):
    ok(g, (G.EV_INIT, 15, 8, 0) if empire_first else (G.EV_INIT, 2, 9, 0))
    ok(g, PH)


def test_smb_responses():
    g = new_game("hoth")
    sd, t1 = idx(g, "Star Destroyer"), idx(g, "TIE Fighter 1")
    tt, x1, x2 = idx(g, "Troop Transport"), idx(g, "X-Wing 1"), idx(g, "X-Wing 2")
    hoth_movement(g, empire_first=False)  # the Rebels move first
    refused(g, (EV_MOVE, sd, 1, 0), "Rebels move first")
    ok(g, (EV_MOVE, x1, 1, 0))
    # "Star destroyer D cannot counter move because it is slower (speed 2) than the X-Wing"
    refused(g, (EV_RESPONSE, sd, 1, x1), "same or higher speed")
    refused(g, (EV_RESPONSE, sd, 2, tt), "has not moved")
    refused(g, (EV_RESPONSE, x2, 2, x1), "enemy")
    refused(g, (G.EV_HIT, x1, 1, sd), "only as a response")
    ok(g, (EV_RESPONSE, sd, 2, x1))  # rapid fire: the turbolasers
    refused(g, (EV_RESPONSE, sd, 2, x1), "only one response per enemy ship moved")
    ok(g, (G.EV_HIT, x1, 1, sd))
    ok(g, (EV_MOVE, x2, 1, 0))
    ok(g, (EV_MOVE, tt, 1, 0))
    ok(g, (EV_MOVE, sd, 1, 0))
    ok(g, (G.EV_LAUNCH, t1, 0, 0))
    ok(g, (EV_MOVE, t1, 1, 0))
    refused(g, (EV_RESPONSE, x2, 5, t1), "directly behind")  # countermove, behind
    ok(g, (EV_RESPONSE, x2, 1, t1))  # X-Wing speed 4 = TIE speed 4


def test_smb_defense_by_facing_snub_and_capital_targets():
    g = new_game("hoth")
    sd, t1, tt, x1 = [
        idx(g, n) for n in ("Star Destroyer", "TIE Fighter 1", "Troop Transport", "X-Wing 1")
    ]
    hoth_movement(g)
    ok(g, (G.EV_LAUNCH, t1, 0, 0))
    ok(g, (EV_MOVE, sd, 1, 0))
    ok(g, (EV_MOVE, t1, 3, 0))  # fighter attack move: fires during the move
    ok(g, (EV_AIM, t1, W_RAPID, 0))  # lasers +2 at the Transport's front (14)
    res = g.rules.attack_result(g, t1, tt, 15)  # 17 < 14 + 4 against snub weapons: a miss
    assert res == (False, 17, 18)
    ok(g, (EV_ATTACK, t1, 16, tt))  # 18: a hit
    assert g.game_state[0] == 1 and g.dmg[tt] == 1
    assert g.rules.defense(g, tt, 2) + g.stat(tt, S_SNUB_DEF) == 27  # the rear: 23 + 4
    refused(g, (EV_AIM, t1, W_CAPITAL, 0), "no capital weapon")
    smb_move_all(g)
    ok(g, PH)  # capital weapons
    ok(g, (EV_AIM, sd, W_CAPITAL, 1))
    refused(g, (EV_ATTACK, sd, 10, x1), "cannot target fighters")
    ok(g, (EV_ATTACK, sd, 15, tt))  # 15 + 5 = 20 vs side 20: a hit (pending)
    assert g.pending[tt] == 1


def test_ion_cannon():
    # "It fires at +16 (as a capital weapon). It cannot do any damage but if it hits a Star
    # Destroyer the vessel cannot move or fire in the next round." "up to two bursts"
    g = new_game("hoth")
    sd, tt = idx(g, "Star Destroyer"), idx(g, "Troop Transport")
    hoth_movement(g)
    refused(g, (EV_ION, sd, 10, 0), "capital weapons phase")
    smb_move_all(g)
    ok(g, PH)
    refused(g, (EV_ION, tt, 10, 0), "at the enemy")
    ok(g, (EV_ION, sd, 1, 2))  # 17 vs rear 27: a miss
    assert g.game_state[0] == 2
    ok(g, (EV_ION, sd, 11, 2))  # 27: a hit
    assert g.dmg[sd] == 0 and g.rule_flags[sd] & ION_NEXT
    refused(g, (EV_ION, sd, 11, 2), "fired its 2 bursts")
    ok(g, PH)
    ok(g, (G.EV_INIT, 15, 8, 0))
    ok(g, PH)
    refused(g, (EV_MOVE, sd, 1, 0), "ionized")
    refused(g, (EV_POWER, sd, 0, 0), "ionized")
    smb_move_all(g)  # the others move; the Star Destroyer cannot
    ok(g, PH)
    refused(g, (G.EV_HIT, tt, 1, sd), "ionized")
    ok(g, PH)
    ok(g, (G.EV_INIT, 15, 8, 0))
    ok(g, PH)
    ok(g, (EV_MOVE, sd, 1, 0))  # only the next round


def test_victory_conditions():
    g = new_game("hoth")
    tt = idx(g, "Troop Transport")
    assert g.winner() is None
    hoth_movement(g, empire_first=False)
    ok(g, (EV_EXIT, tt, 1, 0))  # the Transport leaves by the far edge
    assert g.winner() == 1
    g = new_game("hoth")
    hoth_movement(g)
    ok(g, (G.EV_HIT, tt, 2, NONE))
    assert g.winner() == 0
    d = new_game("deathstar")
    ok(d, (G.EV_INIT, 15, 8, 0))
    ok(d, PH)
    ok(d, (EV_EXIT, idx(d, "X-Wing 3"), 2, 0))  # a hit on the target port
    assert d.winner() == 1


def test_every_profile_ships_example_fleets_and_a_docs_page():
    doc = open(os.path.join(ROOT, "docs", "rules.md")).read()
    for name in rules.RULESETS:
        p = rules.get(name)
        g = new_game(p.example)
        assert g.rules is p
        heading = "\n## `%s`" % name
        assert heading in doc, (
            "docs/rules.md has no section for ruleset %r: add '## `%s`' saying what it "
            "enforces, what it leaves to the players and which unclear rules it reads how, "
            "citing its seed (%s) (CONTRIBUTING.md, 'A new ruleset', step 4)"
            % (name, name, p.source)
        )
        section = doc.split(heading, 1)[1].split("\n## ", 1)[0]
        seed = p.source.split()[1] if p.source.startswith("seed ") else None
        assert seed and seed in section, (
            "docs/rules.md, section '## `%s`', does not name the seed's number (the ruleset's "
            "`source` is %r, which must start 'seed NNN')" % (name, p.source)
        )


def test_ruleset_and_scenario_menu_on_the_pad():
    from referee.app import Referee
    from referee.dice import Dice, XorShift32
    from referee.keymap import KeyMap
    from referee.app import ACTIONS

    board = json.load(open(os.path.join(ROOT, "boards", "pico-ws2812-16x16.json")))
    km = KeyMap(board, ACTIONS)
    assert km.find("menu") == (14, True)  # hold the phase key
    out = []
    app = Referee(
        board, os.path.join(ROOT, "firmware", "rosters"), out.append, Dice(XorShift32(1)), 12
    )
    app.load_scenario("hoth")
    app.pad.key("menu")
    names = app.pad.menu
    assert names == sorted(
        n[:-5]
        for n in os.listdir(os.path.join(ROOT, "firmware", "rosters"))
        if n.endswith(".json")
    )
    app.pad.key("dmg+")  # the seed's own rule does not fire here
    app.pad.key("cancel")
    assert app.pad.menu is None and app.game.rules.name == "smb"
    app.pad.key("menu")
    for _ in range(names.index("squadrons-d6-example")):
        app.pad.key("sel+")
    app.pad.key("enter")
    assert app.game.rules.name == "squadrons-d6" and app.pad.menu is None
    assert json.loads(out[-1])["t"] == "game"  # the host is told of the new game
