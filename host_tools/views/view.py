"""Terminal drawing shared by the simulator and the mirror (rich)."""

from rich.table import Table
from rich.text import Text

from referee.game import STATUS_NAMES
from referee.texts import possessive, ship_state, shows


def bar(game, i, width=10):
    total = game.hp1[i] + game.hp2[i]
    d = game.dmg[i]
    p = game.pending[i]
    t = Text()
    for k in range(total):
        if k < d:
            t.append("■", style="red")
        elif k < d + p:
            t.append("■", style="dark_orange")
        elif k < game.hp1[i]:
            t.append("■", style="green")
        else:
            t.append("■", style="dark_green")
    return t


def pad_label(game, action):
    """What a pad action does in this game's ruleset: the ruleset's own declaration
    (rules.base.Ruleset.pad_label), never a copy of its rules."""
    return game.rules.pad_label(game, action)


def ships_table(game, cursor=None):
    """The ships as a table; the class and counter columns only where the ruleset uses them
    (texts.shows)."""
    sh = shows(game)
    tab = Table(expand=False, padding=(0, 1), show_edge=False)
    for col in ("#", "ship", "side", "cl", "hit points", "cc", "state"):
        if (col != "cl" or sh["class"]) and (col != "cc" or sh["counters"]):
            tab.add_column(col)
    for i in range(game.n):
        st = STATUS_NAMES[game.status(i)]
        extra = [ship_state(game, i)]  # in words, as every view (referee/texts.py)
        if game.ship_dict(i)["full_power"]:
            extra.append("full power")
        if game.active == i:
            extra.append("firing")
        style = "bold" if i == cursor else ("dim" if st == "destroyed" else "")
        cells = [str(i), game.names[i], game.side_names[game.side[i]][:10]]
        cells += [str(game.cls[i])] if sh["class"] else []
        cells.append(bar(game, i))
        cells += [str(game.counters[i])] if sh["counters"] else []
        tab.add_row(*cells, ", ".join(extra), style=style)
    return tab


def chart_text(game):
    t = Text()
    if not game.option_count:
        return t
    for s in range(2):
        t.append("%s chart: " % possessive(game.side_names[s]), style="bold")
        for k in range(game.option_count):
            v = game.chart[s * game.option_count + k]
            name = game.rules.options[k].name
            if v == 255:
                t.append("[%s] " % name, style="dim")
            else:
                t.append("[%s <- %s] " % (name, game.names[v]), style="yellow")
        t.append("\n")
    return t


def header_text(game, scenario):
    init = game.init
    holder = "undecided" if init == 255 else game.side_names[init]
    mf = game.moves_first()
    act = game.rules.acting_side(game)
    t = Text()
    t.append("%s  (%s)" % (scenario, game.rules.name), style="bold")
    w = game.winner()
    if w is not None:  # on the first line: a collapsed header (80x24) still shows it
        t.append("  WINNER: %s" % game.side_names[w], style="bold green")
    t.append("\n")
    t.append("round %d  phase %s  initiative: %s" % (game.round, game.phase_name(), holder))
    if act != 255 and act != mf:
        t.append("  to act: %s" % game.side_names[act])
    elif mf != 255:
        t.append("  moves first: %s" % game.side_names[mf])
    if game.rolls[0]:
        t.append(
            "\nlast roll: %s %d, %s %d%s"
            % (
                game.side_names[0],
                game.rolls[0],
                game.side_names[1],
                game.rolls[1],
                " (physical dice)" if game.roll_src else "",
            )
        )
    t.append("\n")
    return t
