"""The simulated board built in the test's own process, as `fleetref sim` builds it
(``host_tools.sim.sim.make_board``), and the simulator's terminal view of it."""

import argparse
import asyncio
import io

from rich.console import Console


def sim_board(scenario="hoth", board="pico-ws2812-16x16", **more):
    """``make_board`` for the simulator's options (seed 1, no flash, roster nor ruleset;
    ``more``: further options, as ``setting``); returns its (app, runner, serial, keys,
    display, keymap)."""
    from host_tools.sim import sim

    args = argparse.Namespace(
        board=board,
        seed=1,
        flash=None,
        roster=None,
        scenario=scenario,
        ruleset=None,
        new=False,
        **more,
    )
    return sim.make_board(args)


def sim_view(built, width, height):
    """The simulator's terminal view (``SimView``) of a board ``sim_board`` built, drawing
    on a console of ``width`` x ``height`` characters."""
    from host_tools.views.simview import SimView

    app, runner, ser, keys, display, _keymap = built
    console = Console(file=io.StringIO(), width=width, height=height)
    return SimView(app, runner, display, keys, ser, asyncio.Event(), console=console)
