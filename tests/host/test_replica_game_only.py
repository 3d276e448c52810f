"""The mirror's replica holds the board's game alone (referee.game.Game), not a whole board:
it loads without the firmware's pad UI and serial link, and follows a game event by event to
the same state hash as the board's own Referee."""

import json
import os

from support import ROOT
from support.process import python


def test_the_replica_needs_no_pad_nor_serial_link():
    code = (
        "import sys\n"
        "from host_tools.link.replica import Replica\n"
        "from host_tools import paths\n"
        "import json\n"
        "rep = Replica()\n"
        "roster = json.load(open(paths.ROSTERS + '/hoth.json'))\n"
        "rep.load_game({'gid': 'g1', 'roster': roster, 'scenario': 'hoth'})\n"
        "print(sorted(m for m in ('referee.app', 'referee.pad', 'referee.link') "
        "if m in sys.modules), rep.scenario, rep.game.seq)\n"
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT, os.path.join(ROOT, "firmware")]))
    r = python("-c", code, env=env)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["[]", "hoth", "0"]


def test_the_replica_follows_a_referee_hash_for_hash():
    from referee.app import Referee
    from referee.dice import Dice, XorShift32
    from referee.events import EV_INIT, EV_PHASE
    from host_tools import paths
    from host_tools.link.replica import Replica

    board = paths.board_profile()
    ref = Referee(board, paths.ROSTERS, lambda line: None, Dice(XorShift32(7)), 12)
    ref.load_scenario("hoth")
    rep = Replica()
    rep.load_game(
        {
            "gid": ref.gid,
            "roster": json.loads(ref.raw_text),
            "scenario": "hoth",
            "hash": ref.game.state_hash(),
        }
    )
    assert rep.game.state_hash() == ref.game.state_hash()
    for ev in ((EV_INIT, 5, 2, 0), (EV_PHASE, 0, 0, 0)):  # the initiative roll, then on
        assert ref.game.submit(ev) is None
        seq = ref.game.seq
        assert (
            rep.apply_event(
                {
                    "gid": ref.gid,
                    "seq": seq,
                    "ev": list(ref.game.event(seq)),
                    "hash": ref.game.event_hash(seq),
                }
            )
            == "ok"
        )
    assert rep.game.state_hash() == ref.game.state_hash() and rep.checked == 2
    assert rep.history == [(1, 5, 2)]  # (round, roll0, roll1) of the roll
    assert rep.apply_event({"gid": "other", "seq": 3, "ev": [EV_PHASE, 0, 0, 0]}) == "other-game"
    assert rep.apply_event({"gid": ref.gid, "seq": 2, "ev": [EV_PHASE, 0, 0, 0]}) == "dup"
