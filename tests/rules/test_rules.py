"""Rules core against the seed rules (seed 000 for swsb, seed 004 for smb)."""

import pytest

from support.game import new_game, smb_move_all
from referee.game import (
    EV_INIT,
    EV_HIT,
    EV_COUNTER,
    EV_PHASE,
    EV_UNDO,
    EV_LAUNCH,
    NONE,
    DAMAGED,
    DESTROYED,
    OK,
)
from referee.rules.smb_defs import EV_POWER

PH = (EV_PHASE, 0, 0, 0)
UNDO = (EV_UNDO, 0, 0, 0)


def ok(g, ev):
    r = g.submit(ev)
    assert r is None, r


def refused(g, ev, words):
    before = (g.state_hash(), len(g.log))
    r = g.submit(ev)
    assert r is not None and words in r, r
    assert (g.state_hash(), len(g.log)) == before  # a refusal changes nothing


def idx(g, name):
    return g.names.index(name)


# ---- initiative ------------------------------------------------------------------------------
def test_swsb_initiative_highest_moves_last_attacks_first_and_ties_reroll():
    g = new_game("swsb-example")
    ok(g, (EV_INIT, 9, 9, 0))
    assert g.init == NONE  # seed 000: "Reroll ties."
    refused(g, PH, "tied")
    ok(g, (EV_INIT, 4, 17, 1))
    assert g.init == 1 and g.moves_first() == 0  # highest moves last
    refused(g, (EV_INIT, 3, 2, 0), "already decided")


def test_smb_tie_keeps_last_rounds_holder_and_holder_moves_first():
    g = new_game("hoth")
    ok(g, (EV_INIT, 3, 3, 0))
    assert g.init == NONE  # round 1: nobody to keep it
    ok(g, (EV_INIT, 2, 11, 0))
    assert g.init == 1 and g.moves_first() == 1  # seed 004: initiative player moves first
    ok(g, PH)
    smb_move_all(g)
    ok(g, PH)
    ok(g, PH)
    assert g.round == 2 and g.phase == 0
    ok(g, (EV_INIT, 14, 14, 0))
    assert g.init == 1  # tie kept by last round's holder


def test_smb_first_round_tie_setting():
    g = new_game("hoth", {"first_tie_reroll": 0})
    ok(g, (EV_INIT, 5, 5, 0))
    assert g.init == 0


def test_init_wrong_phase_and_bad_values():
    g = new_game("hoth")
    refused(g, (EV_INIT, 0, 5, 0), "1..20")
    refused(g, (EV_INIT, 21, 5, 0), "1..20")
    ok(g, (EV_INIT, 5, 4, 0))
    ok(g, PH)
    refused(g, (EV_INIT, 5, 4, 0), "initiative phase")


# ---- damage ----------------------------------------------------------------------------------
def _to_attack(g):
    ok(g, (EV_INIT, 10, 2, 0))
    ok(g, PH)  # move
    ok(g, PH)  # attack-pd
    ok(g, PH)  # attack


def test_swsb_damage_waits_for_damage_phase_and_hp_x_y_with_carry_over():
    g = new_game("swsb-example")
    luke = idx(g, "Luke's X-wing")  # 1/1 (digest 2.2, W1)
    falcon = idx(g, "Millennium Falcon")  # 3/2 in the example roster
    refused(g, (EV_HIT, luke, 1, NONE), "not marked in the initiative phase")
    _to_attack(g)
    ok(g, (EV_HIT, luke, 2, NONE))  # one 2-point hit
    assert g.dmg[luke] == 0 and g.pending[luke] == 2
    assert g.status(luke) == OK  # still fires this round
    ok(g, (EV_HIT, falcon, 3, NONE))
    ok(g, PH)  # -> damage phase: damage applied
    assert g.phase_name() == "damage"
    assert g.dmg[luke] == 2 and g.status(luke) == DESTROYED  # carry-over past X
    assert g.status(falcon) == DAMAGED  # X used: card flipped
    ok(g, PH)
    assert g.round == 2


def test_damage_bounds_destroyed_and_lethal():
    g = new_game("swsb-example")
    x = idx(g, "X-wing 1")
    _to_attack(g)
    ok(g, (EV_HIT, x, 1, NONE))
    refused(g, (EV_HIT, x, 1, NONE), "lethal")
    ok(g, (EV_HIT, x, -1, NONE))  # remove pending
    assert g.pending[x] == 0
    refused(g, (EV_HIT, x, -1, NONE), "no pending")
    ok(g, (EV_HIT, x, 5, NONE))
    assert g.pending[x] == 1  # capped at what is left
    ok(g, PH)
    ok(g, PH)
    _to_attack(g)
    refused(g, (EV_HIT, x, 1, NONE), "destroyed")


def test_swsb_pd_first_then_one_ship_at_a_time():
    g = new_game("swsb-example")
    falcon = idx(g, "Millennium Falcon")  # pd 0
    moncal = idx(g, "Mon Calamari Cruiser")  # pd 4
    isd = idx(g, "Imperial Star Destroyer")
    slave = idx(g, "Slave I")
    ok(g, (EV_INIT, 10, 2, 0))
    ok(g, PH)
    ok(g, PH)
    assert g.phase_name() == "attack-pd"
    refused(g, (EV_HIT, isd, 1, falcon), "no point defense")
    ok(g, (EV_HIT, isd, 1, moncal))
    ok(g, PH)
    ok(g, (EV_HIT, slave, 1, falcon))
    refused(g, (EV_HIT, slave, 1, falcon), "already fired its primary weapon")  # once a round
    ok(g, (EV_HIT, isd, 1, moncal))  # next ship: the Falcon is done
    refused(g, (EV_HIT, isd, 1, falcon), "already fired")
    refused(g, (EV_HIT, falcon, 1, moncal), "own side")


def test_smb_hits_destroy_and_full_power_blocks_capital_weapons():
    g = new_game("hoth")
    sd = idx(g, "Star Destroyer")  # 3 hits (seed 004)
    tt = idx(g, "Troop Transport")  # 2 hits
    xw = idx(g, "X-Wing 1")  # 1 hit
    ok(g, (EV_INIT, 10, 2, 0))
    ok(g, PH)  # movement: rapid fire lands at once
    ok(g, (EV_POWER, sd, 0, 0))
    refused(g, (EV_POWER, sd, 0, 0), "already")
    ok(g, (EV_HIT, tt, 1, NONE))
    assert g.dmg[tt] == 1
    smb_move_all(g)  # every ship on the table moves
    ok(g, PH)  # capital weapons
    refused(g, (EV_HIT, tt, 1, sd), "full-power")
    refused(g, (EV_HIT, sd, 1, tt), "no capital weapons")
    refused(g, (EV_HIT, sd, 1, xw), "no capital weapons")
    ok(g, PH)  # round 2
    ok(g, (EV_INIT, 1, 2, 0))
    ok(g, PH)
    smb_move_all(g)
    ok(g, PH)
    ok(g, (EV_HIT, tt, 1, sd))  # allowed again: new round
    assert g.dmg[tt] == 1 and g.pending[tt] == 1  # simultaneous fire: lands at phase end
    ok(g, PH)
    assert g.status(tt) == DESTROYED


def test_launch_one_fighter_a_turn_from_carrier():
    g = new_game("hoth")
    t1, t2 = idx(g, "TIE Fighter 1"), idx(g, "TIE Fighter 2")
    ok(g, (EV_INIT, 10, 2, 0))
    ok(g, PH)
    refused(g, (EV_HIT, t1, 1, NONE), "not launched")
    ok(g, (EV_LAUNCH, t1, 0, 0))
    refused(g, (EV_LAUNCH, t1, 0, 0), "already launched")
    refused(g, (EV_LAUNCH, t2, 0, 0), "already launched a fighter this round")


# ---- fleet command ---------------------------------------------------------------------------
def test_fleet_command_rules():
    g = new_game("swsb-example")
    isd = idx(g, "Imperial Star Destroyer")
    slave = idx(g, "Slave I")
    tie = idx(g, "TIE Fighter 1")
    falcon = idx(g, "Millennium Falcon")
    moncal = idx(g, "Mon Calamari Cruiser")
    refused(g, (EV_COUNTER, isd, 2, isd), "initiative phase")
    ok(g, (EV_INIT, 10, 2, 0))
    ok(g, PH)
    cc = g.counters[isd]
    ok(g, (EV_COUNTER, isd, 2, isd))  # Power to Engines for a class 2 ship
    assert g.counters[isd] == cc - 1 and g.chart[1 * g.option_count + 2] == isd
    refused(g, (EV_COUNTER, slave, 2, isd), "already holds a counter")
    ok(g, (EV_COUNTER, moncal, 2, moncal))  # each side has its own chart
    refused(g, (EV_COUNTER, slave, 2, slave), "already holds")
    refused(g, (EV_COUNTER, slave, 0, isd), "class 3")  # Fly Casual: class 3 only
    refused(g, (EV_COUNTER, slave, 0, slave), "no hit")  # nothing to avoid yet
    ok(g, (EV_COUNTER, isd, 3, tie))  # for a fighter not yet launched: allowed
    refused(g, (EV_COUNTER, isd, 1, falcon), "own side")
    ok(g, PH)
    ok(g, PH)
    ok(g, (EV_HIT, falcon, 1, NONE))
    ok(g, (EV_HIT, falcon, 1, NONE))
    ok(g, (EV_COUNTER, falcon, 0, falcon))  # Fly Casual avoids one hit of the two
    assert g.pending[falcon] == 1
    ok(g, PH)
    ok(g, PH)  # end of round: chart cleared, counters spent
    assert all(v == NONE for v in g.chart)
    assert g.counters[isd] == cc - 2
    ok(g, (EV_INIT, 10, 2, 0))
    ok(g, PH)
    ok(g, (EV_COUNTER, isd, 2, isd))  # usable again in the new round
    for _ in range(10):
        if g.counters[isd] == 0:
            break
        g.submit(PH)
    assert g.counters[isd] == 0
    while g.phase_name() != "move":
        g.submit(PH)
        if g.phase == 0:
            g.submit((EV_INIT, 10, 2, 0))
    refused(g, (EV_COUNTER, isd, 3, isd), "no command counters")


def test_no_counter_from_or_for_destroyed_ship():
    g = new_game("swsb-example")
    luke = idx(g, "Luke's X-wing")
    moncal = idx(g, "Mon Calamari Cruiser")
    _to_attack(g)
    ok(g, (EV_HIT, luke, 2, NONE))
    ok(g, PH)
    ok(g, PH)
    ok(g, (EV_INIT, 10, 2, 0))
    ok(g, PH)
    refused(g, (EV_COUNTER, luke, 1, moncal), "counters are lost")
    refused(g, (EV_COUNTER, moncal, 1, luke), "destroyed")


# ---- the log -----------------------------------------------------------------------------------
def test_undo_is_an_event_and_reverts_newest_change_not_yet_undone():
    g = new_game("swsb-example")
    hashes = [g.state_hash()]
    evs = [(EV_INIT, 10, 2, 0), PH, (EV_COUNTER, 5, 2, 5), PH, PH, (EV_HIT, 1, 1, NONE)]
    for ev in evs:
        ok(g, ev)
        hashes.append(g.state_hash())
    ok(g, UNDO)
    assert g.state_hash() == hashes[-2]
    ok(g, UNDO)
    assert g.state_hash() == hashes[-3]
    assert g.log[-1] == UNDO and g.log[-2] == UNDO and len(g.log) == len(evs) + 2
    ok(g, (EV_HIT, 1, 1, NONE))
    ok(g, UNDO)
    assert g.state_hash() == hashes[-3]
    for _ in range(len(evs) - 2):
        ok(g, UNDO)
    assert g.state_hash() == hashes[0]
    refused(g, UNDO, "nothing to undo")


def test_replay_reproduces_state():
    g = new_game("swsb-example")
    for ev in [
        (EV_INIT, 2, 10, 0),
        PH,
        (EV_COUNTER, 5, 2, 5),
        PH,
        PH,
        (EV_HIT, 1, 1, NONE),
        UNDO,
        (EV_HIT, 1, 2, 6),
        PH,
    ]:
        ok(g, ev)
    h = new_game("swsb-example")
    h.replay(g.log)
    assert h.state_hash() == g.state_hash()
    assert h.snapshot() == g.snapshot()


def test_state_hash_changes_with_state():
    g = new_game("hoth")
    a = g.state_hash()
    ok(g, (EV_INIT, 10, 2, 0))
    assert g.state_hash() != a and len(a) == 8


def test_dice_are_deterministic_and_in_range():
    from referee.dice import Dice, XorShift32

    a = [Dice(XorShift32(42)).d20()]
    d1, d2 = Dice(XorShift32(42)), Dice(XorShift32(42))
    r1 = [d1.d20() for _ in range(500)]
    r2 = [d2.d20() for _ in range(500)]
    assert r1 == r2 and a[0] == r1[0]
    assert set(r1) == set(range(1, 21))
    d6 = Dice(XorShift32(7))
    assert {d6.d6() for _ in range(300)} == set(range(1, 7))
    with pytest.raises(ValueError):
        XorShift32(1).below(0)


def test_bounded_window_matches_unbounded_game_and_limits_undo():
    from support.gen import play

    small = new_game("swsb-example")
    small.window_size = 16
    big = new_game("swsb-example")
    big.window_size = 100000
    hs = play(small, 300, 5)
    hb = play(big, 300, 5)
    assert hs == hb  # folding never changes the state
    assert small.base_seq > 0 and len(small.log) <= 16
    while small.submit(UNDO) is None:
        pass
    r = small.submit(UNDO)
    n = len(small.log)  # what the window holds: 12 to 16 events
    assert (
        12 <= n <= 16
        and "within the last %d events (the board holds the newest 12 to 16)" % n in r
    ), r
    with pytest.raises(IndexError):
        small.event(1)
