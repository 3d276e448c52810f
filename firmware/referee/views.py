"""JSON-ready views of a game (the ``snap`` message, the mirror) and event texts."""

from referee.events import NONE
from referee import extensions
from referee.fleet import F_LAUNCHED, F_FIRED, STATUS_NAMES


def ship_dict(g, i):
    return {
        "i": i,
        "name": g.names[i],
        "side": g.side[i],
        "class": g.cls[i],
        "hp": [g.hp1[i], g.hp2[i]],
        "damage": g.dmg[i],
        "pending": g.pending[i],
        "counters": g.counters[i],
        "launched": bool(g.flags[i] & F_LAUNCHED),
        "full_power": g.rules.full_power(g, i),
        "fired": bool(g.flags[i] & F_FIRED),
        "status": STATUS_NAMES[g.status(i)],
    }


def chart_list(g):
    """Per side, a list of [option name, source ship index or None]."""
    out = []
    for s in range(2):
        row = []
        for k in range(g.option_count):
            v = g.chart[s * g.option_count + k]
            row.append([g.rules.options[k].name, None if v == NONE else v])
        out.append(row)
    return out


def snapshot(g, app=None):
    """The derived state of game ``g`` as a JSON-ready dict (with ``state_hash``, ``seq``),
    each extension's view last (the time banks' ``clock``; null in a game without them; with
    the board's ``app`` (app.Referee) as that board has it now: referee/extensions.py)."""
    init = None if g.init == NONE else g.init
    mf = g.moves_first()
    out = {
        "ruleset": g.rules.name,
        "scenario": g.roster_name,
        "sides": list(g.side_names),
        "seq": g.seq,
        "round": g.round,
        "phase": g.phase_name(),
        "initiative": init,
        "moves_first": None if mf == NONE else mf,
        "rolls": list(g.rolls),
        "roll_source": ("board", "physical")[g.roll_src],
        "active": None if g.active == NONE else g.active,
        "ships": [ship_dict(g, i) for i in range(g.n)],
        "chart": chart_list(g),
        "settings": g.settings,
        "winner": g.winner(),
        "profile": g.rules.view(g),
        "state_hash": g.state_hash(),
    }
    extensions.view(g, out, app)
    return out


def event_text(game, ev, seq=None, live=True):
    """A sentence for event ``ev`` of ``game`` (referee/texts.py, loaded on use); ``seq`` and
    ``live`` as there."""
    from referee.texts import event_text as text

    return text(game, ev, seq, live)
