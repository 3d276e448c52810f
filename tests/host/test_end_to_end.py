"""Three rounds played through key presses on the simulated board while the mirror follows
over the pseudo-terminal. Expected values are worked out by hand from the
seed rules in the comments of docs/scripts/*.txt."""

import io

import pytest
import json
import os
import time

from support import ROOT
from support.process import cli, final_snapshot, sim_headless

from host_tools.link.mirror import Mirror

SCRIPTS = os.path.join(ROOT, "docs", "scripts")


def play_with_mirror(sim_factory, args, script):
    sim = sim_factory(
        "--headless",
        "--seed",
        "1",
        "--script",
        os.path.join(SCRIPTS, script),
        "--wait-for-host",
        "--hold",
        *args,
    )
    log = io.StringIO()
    m = Mirror(sim.port, log=log, warn=lambda msg: None)
    m.open()
    m.sync()  # the board starts the script once the host has spoken
    final = sim.final()
    end = time.monotonic() + 20
    while m.rep.game.seq < final["seq"] and time.monotonic() < end:
        m.pump(0.1)
    bsnap = m.board_snapshot()
    m.close()
    rows = [json.loads(l) for l in log.getvalue().splitlines()]
    assert "game" in rows[0]  # the log starts with the game it belongs to
    rows = [r for r in rows if "seq" in r]
    return final, rows, m, bsnap


def check_mirror(final, rows, m, bsnap):
    # every event reached the mirror live, each with the board's hash, and they agree
    assert [r["seq"] for r in rows] == list(range(1, final["seq"] + 1))
    assert [r["ev"] for r in rows] == final["events"]
    for r in rows:
        assert r["board_hash"] == r["hash"], r
    assert not m.rep.mismatches
    assert m.rep.game.state_hash() == final["state_hash"] == bsnap["state_hash"]
    assert len({r["hash"] for r in rows}) > len(rows) // 2  # the hashes really move


def ships(final):
    return {s["name"]: s for s in final["ships"]}


def test_escape_from_hoth_three_rounds(sim_factory):
    final, rows, m, bsnap = play_with_mirror(
        sim_factory, ["--scenario", "hoth"], "hoth-3-rounds.txt"
    )
    check_mirror(final, rows, m, bsnap)
    s = ships(final)
    # round 1: X-Wing 1 rapid fire destroys TIE 1 (1 hit); round 2: TIE 2 destroys X-Wing 2;
    # the Star Destroyer's main guns hit the Transport once (lands at end of capital phase);
    # round 3: TIE 2 destroyed, a mis-press undone, a second capital hit destroys the Transport
    # (2 hits, seed 004).
    assert (s["TIE Fighter 1"]["status"], s["TIE Fighter 2"]["status"]) == ("destroyed",) * 2
    assert s["TIE Fighter 3"]["launched"] is False and s["TIE Fighter 3"]["status"] == "ok"
    assert s["X-Wing 2"]["status"] == "destroyed" and s["X-Wing 1"]["damage"] == 0
    assert s["Troop Transport"]["damage"] == 2 and s["Troop Transport"]["status"] == "destroyed"
    assert s["Star Destroyer"]["damage"] == 0
    # initiative: 15/8 Empire, 12/12 tie kept by the Empire, 5/17 Rebels
    assert m.snapshot()["initiative_history"] == [[1, 15, 8], [2, 12, 12], [3, 5, 17]]
    assert final["round"] == 4 and final["phase"] == "initiative"
    assert final["rolls"] == [5, 17] and final["roll_source"] == "physical"
    msgs = [r["msg"] for r in final["rejected"]]
    assert msgs == [
        "Star Destroyer has already launched a fighter this round",
        "Empire moves first: Star Destroyer has not moved",
        "only one response per enemy ship moved",
        "Star Destroyer made a full-power move and cannot fire capital weapons",
        "Troop Transport has no capital weapons",
        "Troop Transport already has lethal damage marked",
    ]
    assert [5, 0, 0, 0] in final["events"]  # the undo is in the log
    assert final["winner"] == 0  # seed 004: the Empire destroyed it


def test_swsb_three_rounds_with_fleet_command_and_undo(sim_factory):
    final, rows, m, bsnap = play_with_mirror(
        sim_factory, ["--ruleset", "swsb"], "swsb-3-rounds.txt"
    )
    check_mirror(final, rows, m, bsnap)
    s = ships(final)
    # Falcon (3/2): R1 the ISD's hit avoided by Fly Casual; R2 2 hits - Fly Casual = 1
    assert s["Millennium Falcon"]["damage"] == 1 and s["Millennium Falcon"]["counters"] == 0
    # Slave I (3/2): 1 each from the Falcon and Luke in R1 (each weapon fires once a round),
    # 1 from the Mon Calamari in R2: 3, flipped; 1 from the Falcon in R3: 4, not destroyed
    assert s["Slave I"]["damage"] == 4 and s["Slave I"]["status"] == "damaged"
    # Luke's X-wing 1/1 takes 2 in R3: destroyed with carry-over; its counter is lost
    assert s["Luke's X-wing"]["status"] == "destroyed" and s["Luke's X-wing"]["counters"] == 1
    # ISD: 3 counters: Power to Engines R1, LRB for an unlaunched TIE R1, PtE R2
    assert s["Imperial Star Destroyer"]["counters"] == 0
    assert s["Mon Calamari Cruiser"]["damage"] == 0  # the mis-press was undone
    # TIE 1 (Infinite) was destroyed by point defense: back to the fighter pool (digest 2.2)
    assert s["TIE Fighter 1"]["status"] == "ok" and s["TIE Fighter 1"]["launched"] is False
    assert s["TIE Fighter 1"]["damage"] == 0
    assert final["round"] == 4 and final["phase"] == "move" and final["initiative"] == 0
    assert all(c[1] is None for side in final["chart"] for c in side)
    msgs = [r["msg"] for r in final["rejected"]]
    assert msgs == [
        "initiative is tied: roll again",
        "Power to Engines already holds a counter this round",
        "Millennium Falcon has no point defense",
        "Light Side attacks first (it holds the initiative)",
        "Millennium Falcon has already fired its primary weapon this round",
        "Imperial Star Destroyer has already fired its primary weapon this round",
        "Fly Casual already holds a counter this round",
        "Millennium Falcon has already fired this round",
        "Imperial Star Destroyer has no command counters left",
        "Luke's X-wing is destroyed",
        "Luke's X-wing is destroyed: its counters are lost",
    ]


def test_cli_headless_snapshot_and_mirror_once_agree(sim_factory):
    # `fleetref sim --headless --scenario hoth --seed 1 --script FILE` prints a snapshot
    hoth = (
        "--scenario",
        "hoth",
        "--seed",
        "1",
        "--script",
        os.path.join(SCRIPTS, "hoth-3-rounds.txt"),
    )
    out = sim_headless(*hoth, timeout=60)
    lines = out.stdout.splitlines()
    assert out.returncode == 0 and lines[0].startswith("serial: ") and len(lines) == 2
    snap = json.loads(lines[1])
    # a running simulator, mirrored once: the same state_hash as the board
    sim = sim_factory("--headless", *hoth, "--hold")
    board = sim.final()
    assert board["state_hash"] == snap["state_hash"]
    out = cli("mirror", "--once", "--json", "--port", sim.port, timeout=60)
    assert out.returncode == 0, out.stderr
    mirrored = json.loads(out.stdout)
    assert mirrored["state_hash"] == board["state_hash"] == mirrored["board_hash"]
    assert mirrored["seq"] == board["seq"]


@pytest.mark.parametrize(
    "ruleset,script,refusals",
    [
        (
            "swsb-addon",
            "swsb-addon-demo.txt",
            [
                "the initiative winner first chooses who moves first",
                "class 1-3 ships move before class 4",
                ("Mon Calamari Cruiser is firing: finish its activation (done) first"),
                ("Invisible Hand has already fired its primary weapon this round"),
            ],
        ),
        (
            "squadrons-d6",
            "squadrons-d6-demo.txt",
            [
                (
                    "Red 1 must cross 3 hexes before each turn: 3 turns need 9 hexes (Attack Speed is "
                    "at most 8)"
                ),
                "Red 1 must cross 3 hexes before each turn: 2 turns need 6 hexes (moved 5)",
                "all ships in a squadron move at the same rate (Red 1 moved at Attack Speed)",
                "finish moving the squadron first: Red 2 has not moved",
                "players alternate units: Empire moves next (Black 1 has not moved)",
                "players alternate units: Rebels move next (Corellian Corvette has not moved)",
                "Corellian Corvette may stop dead only after moving at Attack Speed the round before",
                "Star Destroyer has 1 turn a move (unused turns are lost)",
                "Black 2 flew at Full Throttle (or its squadron did) and cannot fire",
                "players alternate units: Empire moves next (Black 2 has not moved)",
                "Red 1 has not moved: only capital ships and heroes may come to a dead stop",
            ],
        ),
        (
            "xwing-overlap",
            "xwing-overlap-demo.txt",
            ["X-wing 1 and TIE Fighter 1 are touching: they cannot attack each other"],
        ),
    ],
)
def test_every_profile_runs_from_a_key_script_and_is_mirrored(
    sim_factory, ruleset, script, refusals
):
    final, rows, m, bsnap = play_with_mirror(sim_factory, ["--ruleset", ruleset], script)
    check_mirror(final, rows, m, bsnap)
    assert final["ruleset"] == ruleset
    assert [r["msg"] for r in final["rejected"]] == refusals
    assert final["round"] == 2


def test_keypad_board_in_the_simulator(tmp_path):
    """The Pimoroni RGB Keypad board's mode-based UI runs in the simulator: hold key 13 to
    roll, 13 for the next phase, 12 for actions mode, then key 0 marks damage."""
    script = tmp_path / "kp.txt"
    script.write_text("K13~ K13 K12 K0\n")
    keypad = ("--board", "pimoroni-rgb-keypad", "--seed", "1", "--script", str(script))
    snap = final_snapshot(sim_headless(*keypad, "--scenario", "hoth", timeout=60))
    assert [e[0] for e in snap["events"]] == [1, 4, 2]  # initiative, phase, hit
    assert snap["phase"] == "movement" and snap["ships"][0]["damage"] == 1
    script.write_text("dmg+\n")
    out = sim_headless(*keypad, timeout=60)
    assert out.returncode != 0 and "K<n> tokens" in out.stderr


@pytest.mark.parametrize(
    "board,text,says",
    [
        ("pico-ws2812-16x16", "sel+ select Nobody dmg+\n", "no ship named 'Nobody' (the ships: "),
        ("pico-ws2812-16x16", "K15 K16\n", "K16: this board's keys are K0..K15"),
        ("pimoroni-rgb-keypad", "K13~ K99\n", "K99: this board's keys are K0..K15"),
        ("pico-ws2812-16x16", "K\u0663\n", "unknown token 'K\u0663'"),  # not an ASCII digit
    ],
)
def test_a_script_naming_no_ship_or_key_stops_with_an_error(tmp_path, board, text, says):
    """A ``select`` of a ship the game lacks, or a ``K<n>`` beyond the board's keys, ends
    the simulator with one line and status 2 (it waited forever, found by an independent
    check)."""
    script = tmp_path / "s.txt"
    script.write_text(text)
    out = sim_headless(
        "--board", board, "--ruleset", "swsb", "--seed", "1", "--script", str(script), timeout=60
    )
    assert out.returncode == 2 and says in out.stderr and "Traceback" not in out.stderr


def test_select_takes_a_ship_name_in_any_case(tmp_path):
    script = tmp_path / "s.txt"
    script.write_text("dice 12 5 phase phase phase select slave_i dmg+\n")  # to the attack
    out = sim_headless("--ruleset", "swsb", "--seed", "1", "--script", str(script), timeout=60)
    snap = json.loads(out.stdout.splitlines()[-1])
    hit = snap["events"][-1]  # [2, ship, 1, by]: the hit marked
    assert out.returncode == 0 and hit[0] == 2 and snap["ships"][hit[1]]["name"] == "Slave I"
