"""A board put together from its profile: the driver contracts, the referee with its UI and
drivers, and the extensions' task. The Pico (firmware/main.py ``build``) and the simulator
(host_tools/sim/sim.py ``make_board``) both assemble their board here; the Pico's drivers come
from the profile through the registry in drivers/__init__.py, the simulator passes its own.

The contracts are what referee.loop.Runner asks of a driver: a driver class builds on one of
them and gets the optional methods' defaults from it (only firmware/drivers/ touches
``machine``, ``rp2``, ``neopixel`` or ``network``; these classes touch nothing). The network's
contract, ``Network`` (``state``, ``address()``, ``async run()``, ``settings``), lives in
referee/net/__init__.py with the rest of the network part, so that a board without a network
section imports nothing of it and keeps its heap.
"""

from referee.loop import sleep_ms


class Keys:
    """Key input. ``poll(now_ms)`` -> None or ``(key_index, is_long)`` (the driver debounces
    and times long presses; ``now_ms`` from ``ticks_ms``). ``flag``: None, or an object a pin
    interrupt sets, in which case the driver has ``async wait()`` (it returns at the next
    press; awaited instead of polling while ``active()`` is False)."""

    flag = None

    def active(self):
        """True while a key needs polling every scan period (one down or settling); False
        lets the loop poll every ``idle_scan_ms`` (or await ``wait()``). Default True: a
        driver that cannot tell is polled at the full rate."""
        return True

    def resting(self):
        """True while no key is down or settling, so the loop's work between keys may run
        (collections, journal snapshots, repaints). Default True: a driver that cannot tell
        never holds that work back."""
        return True


class Display:
    """The LEDs. ``show(fb)``: the renderer's RGB frame buffer (3 bytes per pixel, row-major)."""

    def refresh(self):
        """Send the frame last shown again, whole (called while the keys rest, every
        ``refresh_ms``). Returns True when a frame went out. Default: nothing to send (a
        display that keeps its picture), False."""
        return False


class Serial:
    """The serial link. ``read_line()`` -> str or None, never blocking; ``write_line(line)``,
    never blocking."""

    async def readable(self):
        """Return once a line may be waiting (awaited while none is). Default: after 5 ms (a
        port that cannot wake the loop is polled)."""
        await sleep_ms(5)


def assemble(board, scenario_dir, serial, dice, display=None, keys=None, network=None):
    """The referee on ``board`` (a board profile dict) and the loop that runs it: the keypad
    UI (profile ``"ui": "keypad"``: lit keys are both pad and grid) or the grid's renderer and
    key map, with ``serial`` (a Serial) and ``dice`` (referee.dice.Dice). ``display`` and
    ``keys``: driver objects (Display, Keys); None builds the one the profile's
    ``display.driver`` / ``input.driver`` names (drivers.build, imported only then). A
    profile with a ``network`` section gets a network part (referee.net.Network: ``network``,
    or the one its ``network.driver`` names) as ``app.network``, its services' ``ready(app)``
    called here, its ``run(app)`` run by the loop beside its tasks; without the section nothing of it is imported or made. Returns
    the Runner (``app``, ``keymap``, ``renderer``, ``keys``, ``display``, ``serial``), no
    game loaded yet. Raises ValueError for an unknown driver name, KeyError for a pin, bus or
    grid entry the profile lacks."""
    from referee.app import Referee
    from referee.loop import Runner

    if board.get("ui") == "keypad":
        from referee.keypad_ui import KeypadUI, PER_PAGE

        app = Referee(board, scenario_dir, serial.write_line, dice, PER_PAGE)
        renderer = keymap = KeypadUI(app)
    else:
        from referee.app import ACTIONS
        from referee.keymap import KeyMap
        from referee.render import Renderer

        grid = board["grid"]
        renderer = Renderer(grid["w"], grid["h"])
        keymap = KeyMap(board, ACTIONS)
        app = Referee(board, scenario_dir, serial.write_line, dice, renderer.rows_per_page)
    if display is None:
        from drivers import build

        display = build("display", board)
    if keys is None:
        from drivers import build

        keys = build("input", board)
    if "network" in board:
        if network is None:
            from drivers import build

            network = build("network", board)
        app.network = network  # pyright: ignore[reportAttributeAccessIssue]  (only with one)
        network.ready(app)  # the services' hooks, before any event
    return Runner(app, keymap, keys, display, serial, renderer)


async def extension_task(app):
    """The game's extensions' ``poll`` (referee/extensions.py; the time banks, docs/clock.md)
    every 250 ms while the game uses one, a look every second otherwise."""
    while True:
        game = app.game
        if game is not None and game.extensions:
            for x in game.extensions:
                x.poll(app)
            await sleep_ms(250)
        else:
            await sleep_ms(1000)
