"""The board's grid drawn on the host by the firmware's own renderer (referee/render.py).

The renderer draws a referee.app.Referee: its game and its pad's state (page, cursor, menus,
dice entry). The mirror's replica and the replay hold a game without a pad, so the views draw
it through a GridFace: one Referee that never takes a key (no cursor, first page), set to the
roster shown and given the game to draw at each frame."""

from referee.app import Referee
from referee.dice import Dice, XorShift32
from referee.events import NONE
from referee.render import Renderer

from host_tools import paths


class GridFace:
    """The grid of the default board (``board``: a profile dict, else paths.board_profile())
    for a game held elsewhere. ``w``, ``h``: the grid's size in LEDs."""

    def __init__(self, board=None):
        board = board or paths.board_profile()
        self.w, self.h = board["grid"]["w"], board["grid"]["h"]
        self.renderer = Renderer(self.w, self.h)
        self.ref = Referee(
            board, paths.ROSTERS, lambda line: None, Dice(XorShift32(1)), self.h - 4
        )
        self.shown = None  # (roster text, scenario) the pad's pages were set for

    def set_roster(self, roster_text, scenario):
        """Set the pages for the roster JSON ``roster_text`` (str) named ``scenario`` when
        another was shown; returns the name the grid gives it (``scenario``, else the
        roster's own name). ValueError when the roster is bad."""
        if self.shown != (roster_text, scenario):  # a new roster: the pages of its sides
            self.ref.load_text(roster_text, None, scenario)
            self.ref.pad.cursor = NONE
            self.shown = (roster_text, scenario)
        return self.ref.scenario

    def render(self, game, roster_text, scenario, clocks=None):
        """The frame (the renderer's framebuffer) of ``game`` (a referee.game.Game) started
        from the roster JSON ``roster_text`` (str) and named ``scenario``. ``clocks``: the
        holder of the game's clocks (an object with ``gid`` and ``clock``, as the mirror's
        replica; referee.clock.clock_of) whose clocks the grid shows; None: the face's own.
        ValueError when the roster is bad."""
        ref = self.ref
        self.set_roster(roster_text, scenario)
        ref.game = game
        if clocks is not None:
            if game is not None and game.extensions:  # the time banks (referee/clock.py)
                from referee.clock import clock_of, used_by

                if used_by(game):
                    clock_of(clocks)
            ref.gid = clocks.gid
            ref.clock = clocks.clock  # pyright: ignore[reportAttributeAccessIssue]  (referee.clock.clock_of keeps it on the app)
        return self.renderer.render(ref)
