"""The board's network (a Pico W's Wi-Fi): the contract a network driver builds on, the link
states the grid shows, and the table of the network services a board profile can name.

A board profile with a ``network`` section (``{"driver": "wlan", ...}``,
boards/pico-w-ws2812-16x16.json) gets a network part: referee.assembly.assemble builds the
driver the section names (drivers.DRIVERS; only firmware/drivers/ imports ``network``), the
Referee keeps it as ``app.network`` and the loop (loop.Runner.main) runs its ``run(app)``
beside the other tasks. A board without the section never imports this package.

Services: the section's ``"services"`` names modules ``referee/net/<name>.py``, each with
``async def run(app, network)``; the network starts each once, the first time it is up, and
calls a service's optional ``ready(app)`` when the board is assembled (:meth:`Network.ready`). A
service's name goes into :data:`SERVICES` (a name not there is refused at boot with one line).
A service never blocks the loop (every socket call is non-blocking or awaited) and finds its
settings file at ``network.root + "/<name>.json"``.
"""

from referee import glyphs
from referee.palette import LINK_RGB, WHITE, DIM_WHITE

# the link states, in the order of palette.LINK_RGB (the pixel the grid shows for each)
STATES = ("off", "joining", "up", "down")
# the network services a profile may name: referee/net/<name>.py, ``async def run(app,
# network)`` each
SERVICES = (
    "mqtt",  # publishes the game to the tournament broker (docs/mqtt.md section 5)
    "page",  # the spectator page and /api/state (docs/board-page.md)
)
# the stored settings' limits (802.11: an SSID is 1-32 bytes; WPA2: a passphrase 8-63)
SSID_MAX = 32
PASSWORD_MAX = 64


class Network:
    """A network part. ``state``: one of :data:`STATES` (``"off"``: no network hardware or
    no credentials; ``"joining"``; ``"up"``; ``"down"``: lost, or a join that failed, waiting
    to try again). ``settings``: the stored non-secret settings (a dict: ``ssid``) or None.
    ``shown``: the octet of the address the grid shows (0: none; 1-4, the ``net`` pad
    action). This base class is a network that is never there (state ``"off"``): what a
    board without the hardware, or the simulator, runs."""

    state = "off"
    settings = None
    shown = 0
    path = None  # the credentials' file on the board's flash (None: kept in RAM only)
    root = ""  # the prefix of the board's own files ("" on the board): services' settings
    octets = b""  # the address's four numbers while up (drawn without allocating)
    services = ()  # the names of the services it starts once up (:data:`SERVICES`)

    def ready(self, app):
        """Each service's optional ``ready(app)`` (``app``: the Referee), called once by the
        board's assembly before the loop runs, so before any event: a service that keeps
        something of each event from the first one on (the MQTT publisher's words) is in
        place whatever the network does."""
        for name in self.services:
            hook = getattr(service(name), "ready", None)
            if hook is not None:
                hook(app)

    def address(self):  # type: () -> str | None
        """The board's IP address (str, as ``"192.168.1.20"``) while up, else None."""
        return None

    def show(self, ref):
        """The ``net`` pad action for ``ref`` (app.Referee): the address's next number on the
        grid (after the fourth, the game again); while there is no address, refused with
        "no network" (the grid's link pixel says why). Returns None or the refusal."""
        if self.shown and self.shown < 4 and len(self.octets) == 4:
            self.shown += 1
        elif self.shown:
            self.shown = 0
        elif self.address() is None or len(self.octets) != 4:
            return ref.error("no network (Wi-Fi %s)" % self.state, "key")
        else:
            self.shown = 1
        return None

    def draw(self, r, error):
        """Draw onto renderer ``r`` (render.Renderer, after the rest of the frame): the link
        pixel (row 1, the last column: ``palette.LINK_RGB`` by state; not while the error row
        shows) and, while ``shown``, that number of the address in white over the ship rows
        with one pip per number (the ``shown``-th bright). Allocates nothing."""
        if not error:
            r.px(r.w - 1, 1, LINK_RGB[STATES.index(self.state)])
        k = self.shown
        if not k or len(self.octets) != 4:
            return
        r.clear_rows(2, r.h - 2)
        r.full = True  # the ship rows are drawn again in the next frame
        v = self.octets[k - 1]
        x = (r.w - 3 * glyphs.W - 2) // 2
        y = (r.h - glyphs.H) // 2 - 1
        d = 100
        while d:
            glyphs.draw_digit(r, x, y, v // d % 10, WHITE)
            x += glyphs.W + 1
            d //= 10
        for i in range(4):
            r.px(r.w // 2 - 2 + i, y + glyphs.H + 2, WHITE if i == k - 1 else DIM_WHITE)

    def configure(self, ssid, password):
        """Take new credentials (stored already by the ``wifi-set`` command): the next join
        uses them. Default: nothing to join with."""
        self.settings = {"ssid": ssid}

    async def run(self, app=None):
        """Join in the background and keep joined (``app``: the Referee, for the grid and
        the services). Never blocks the loop. Default: nothing to run."""
        return None


def octets_of(address):
    """The four numbers of IPv4 ``address`` (str) as bytes, or b"" when it is not one."""
    parts = address.split(".") if isinstance(address, str) else ()
    try:
        out = bytes(int(p) for p in parts)
    except ValueError:
        return b""
    return out if len(out) == 4 else b""


def read_settings(path):
    """The credentials stored at ``path`` (a JSON file on the board's flash): (ssid,
    password), or None when there is no file or it is unreadable."""
    import json

    try:
        with open(path) as f:
            data = json.load(f)
        ssid = data["ssid"]
        password = data.get("password", "")
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    if not isinstance(ssid, str) or not isinstance(password, str) or not ssid:
        return None
    return ssid, password


def check_credentials(ssid, password):
    """ValueError (one line, never naming the password) unless ``ssid`` is 1-32 characters
    and ``password`` is empty (an open network) or 8-64 characters."""
    if not isinstance(ssid, str) or not 1 <= len(ssid) <= SSID_MAX:
        raise ValueError("ssid must be 1-%d characters" % SSID_MAX)
    if not isinstance(password, str) or not (password == "" or 8 <= len(password) <= PASSWORD_MAX):
        raise ValueError(
            "password must be empty (an open network) or 8-%d characters" % PASSWORD_MAX
        )


def write_settings(path, ssid, password):
    """Store the credentials at ``path`` (written to ``path + ".new"`` first, then renamed:
    a power cut leaves the old file or the new one). Raises OSError from the flash."""
    import json
    import os

    tmp = path + ".new"
    with open(tmp, "w") as f:
        json.dump({"ssid": ssid, "password": password}, f)
    os.rename(tmp, path)


def service(name):
    """The module of network service ``name`` (imported now). ValueError when ``name`` is
    not in :data:`SERVICES`."""
    if name not in SERVICES:
        raise ValueError("board profile: unknown network service %r" % (name,))
    return __import__("referee.net." + name, None, None, ["run"])
