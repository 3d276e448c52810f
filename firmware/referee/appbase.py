"""What the referee's parts (pad.PadUI, link.SerialLink) share: the attributes and methods
app.Referee provides. Declared here so each part names what it relies on."""

try:
    from typing import TYPE_CHECKING
except ImportError:       # MicroPython: the names below are for the type checker only
    TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Callable, Optional
    from referee.dice import Dice
    from referee.game import Game
    from referee.journal import Journal


class AppBase:
    game = None          # type: Optional[Game]
    dice = None          # type: Dice  # pyright: ignore[reportAssignmentType]
    journal = None       # type: Optional[Journal]
    scenario_dir = ""
    rows_per_page = 12
    version = 0
    gid = ""
    unsent = []          # type: list[int]
    send_parts = None    # type: Optional[Callable[[tuple], None]]
    batching = False

    def send(self, line):
        raise NotImplementedError

    def _out(self, obj):
        raise NotImplementedError

    def _g(self):
        raise NotImplementedError

    def submit(self, ev, origin="key", cmd=None):
        raise NotImplementedError

    def error(self, msg, origin, cmd=None):
        raise NotImplementedError

    def hello(self):
        raise NotImplementedError

    def send_game(self):
        raise NotImplementedError

    def load_text(self, text, ruleset=None, scenario="", settings=None):
        raise NotImplementedError

    def load_raw(self, raw, ruleset=None, scenario="", settings=None):
        raise NotImplementedError

    def load_scenario(self, name, ruleset=None, settings=None):
        raise NotImplementedError

    def roll_initiative(self, origin="key", cmd=None):
        raise NotImplementedError

    def key(self, action):
        raise NotImplementedError

    def commit(self, origin="key", cmd=None):
        raise NotImplementedError
