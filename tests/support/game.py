"""New games and referees for the tests: a scenario's roster text, a Game of it, the default
board profile, a Referee on that board, and small drivers of a game's events."""

import json
import os

from referee.events import EV_HIT, EV_INIT, EV_PHASE, EV_UNDO
from support import ROOT


def scenario_text(name):
    with open(os.path.join(ROOT, "firmware", "rosters", name + ".json")) as f:
        return f.read()


def new_game(name, settings=None):
    from referee import rules, scenarios
    from referee.game import Game

    norm, _raw = scenarios.load_text(scenario_text(name))
    return Game(rules.get(norm["ruleset"]), norm, settings)


def default_board():
    with open(os.path.join(ROOT, "boards", "pico-ws2812-16x16.json")) as f:
        return json.load(f)


def make_referee(scenario="hoth", seed=3):
    """A Referee on the default board with ``scenario`` loaded; returns (app, output lines)."""
    a, out = bare_referee(seed)
    a.load_scenario(scenario)
    return a, out


def bare_referee(seed=3, board=None):
    """A Referee on ``board`` (a profile; by default the default board) with nothing loaded,
    12 rows a page, its dice seeded with ``seed``; returns (app, the lines it sends)."""
    from referee.app import Referee
    from referee.dice import Dice, XorShift32

    out = []
    rosters = os.path.join(ROOT, "firmware", "rosters")
    app = Referee(board or default_board(), rosters, out.append, Dice(XorShift32(seed)), 12)
    return app, out


def smb_move_all(g):
    """smb (seed 004: every ship on the table moves): each ship still to move makes a standard
    move, the initiative side first; refused moves (moved, ionized, off the table) are skipped."""
    from referee.rules.base import EV_MOVE

    for side in (g.init, 1 - g.init):
        for i in range(g.n):
            if g.side[i] == side:
                g.submit((EV_MOVE, i, 1, 0))


def accepted_events(g, n):
    """A deterministic stream of ``n`` events the rules accept: rounds of initiative and phases
    with hits and chains of undos."""
    k = 0
    phases = len(g.rules.phases)
    hp = g.rules.hit_phases[0]
    ships = [i for i in range(g.n) if g.in_play(i)]
    while k < n:
        yield (EV_INIT, 3 + k % 15, 19, 0)
        k += 1
        for p in range(phases):
            if p == hp and k % 11 == 0:
                yield (EV_HIT, ships[k % len(ships)], 1, 255)
                yield (EV_UNDO, 0, 0, 0)
                k += 2
            yield (EV_PHASE, 0, 0, 0)
            k += 1


def counting(g):
    """Count the events ``g`` applies (its rules' one way in): a list holding the count."""
    n = [0]
    apply = g._apply

    def counted(ev):
        n[0] += 1
        return apply(ev)

    g._apply = counted
    return n


def played_referee(folder, n, scenario="swsb-example", **journal_options):
    """A referee (``make_referee``) journaling to the flash directory ``folder`` that played
    ``n`` events of ``accepted_events``; returns (app, its output lines)."""
    from referee.journal import OSFS, Journal

    app, out = make_referee(scenario)
    app.set_journal(Journal(OSFS(str(folder)), "/game", **journal_options))
    app.load_scenario(scenario)
    g = app.game
    for ev in accepted_events(g, n):
        if g.seq >= n:
            break
        assert app.submit(ev) is None
    return app, out


def count_applies(monkeypatch):
    """Count the events every Game applies from now on (the rules' one way in), through
    ``monkeypatch``: a list holding the count."""
    from referee.game import Game

    calls = [0]
    apply = Game._apply

    def counted(self, *args):
        calls[0] += 1
        return apply(self, *args)

    monkeypatch.setattr(Game, "_apply", counted)
    return calls


def events(text):
    """Event tuples written as text: events separated by ``;``, the fields of each by spaces
    (``"1 15 8 1; 4 0 0 0"`` is [(1, 15, 8, 1), (4, 0, 0, 0)])."""
    return [tuple(int(field) for field in event.split()) for event in text.split(";")]
