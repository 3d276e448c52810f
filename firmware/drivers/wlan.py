"""The Pico W's Wi-Fi (the CYW43439 behind MicroPython's ``network.WLAN``): joins the network
stored in /wifi.json in the background and keeps joined (referee/net/__init__.py says what a
network part is; docs/build.md how a board gets its credentials).

Nothing here blocks the loop for long: ``connect`` only starts a join, and the join is
followed by polling ``status()`` every ``POLL_MS`` with asyncio sleeps between. The one call
that can hold the CPU is ``active(True)`` (the chip's power-up and firmware load in C, some
hundreds of ms on a Pico W), made once, when the first credentials are there. Without the
chip (an RP2040 alone, as the emulated Pico: rp2040js has no CYW43 model) MicroPython 1.28's
``active(True)`` does not raise: the cyw43 driver's bus start finds no test pattern, prints
``[CYW43] Failed to start CYW43`` on the console and returns after some 350 ms, and the
interface stays down, so ``connect`` raises OSError EPERM at once (it would try the chip
again only at the next ``active(True)``, which is never made). The driver takes that EPERM
(or an ``active`` that raises) as "no chip": the network is ``"off"`` for good and its task
ends; the board referees on.
"""

from referee.compat import TYPE_CHECKING
from referee.loop import sleep_ms
from referee.net import Network, octets_of, read_settings, service
from referee.ticks import ticks_diff, ticks_ms

POLL_MS = 250  # the join's status looked at this often
CHECK_MS = 2000  # the link looked at this often while up
# network.STAT_* of the cyw43 port (used when the module lacks the names)
STAT_CONNECTING = 1
STAT_GOT_IP = 3
EPERM = 1  # connect on an interface that never came up: no chip answered

if TYPE_CHECKING:  # (MicroPython has no typing module)
    from typing import Any  # noqa: F401  (for type comments)


class WLANNetwork(Network):
    """The station interface of ``network`` (the ``network`` module, or an object with its
    ``WLAN`` class and ``STA_IF``; tests give a fake). ``path``: the credentials' file;
    ``join_ms``: a join that has no address after this long is given up (state ``"down"``);
    ``backoff_ms``: (first, longest) wait before the next try, doubled after each failure;
    ``services``: the names of the services to start once up (referee/net SERVICES).
    ``poll_ms`` / ``check_ms``: how often a join's status / a joined link is looked at."""

    def __init__(
        self, network, path="/wifi.json", join_ms=20000, backoff_ms=(1000, 60000), services=()
    ):
        self.network = network
        self.path = path
        self.join_ms = join_ms
        self.backoff_ms = backoff_ms
        self.services = services
        self.wlan = None  # type: Any
        self.ip = None
        self.creds = None  # type: Any
        self.changed = True  # the credentials are to be read (again) from the file
        self.state = "off"
        self.absent = False  # no chip answered: off for good
        self.poll_ms = POLL_MS
        self.check_ms = CHECK_MS

    @classmethod  # pyright: ignore[reportArgumentType]  (the MicroPython stubs: cls alone)
    def from_profile(cls, section, board):
        """The Wi-Fi of a profile's ``network`` section: ``settings`` (file, default
        /wifi.json), ``join_timeout_s`` (20), ``backoff_s`` ([first, longest], [1, 60]),
        ``services`` ([]). ValueError for a service not in referee.net.SERVICES. On an
        image without the ``network`` module (the Pico's, RPI_PICO) it is built all the same
        and stays ``"off"``: the board referees on."""
        try:
            import network  # pyright: ignore[reportMissingImports]  (RPI_PICO_W: not in the stubs)
        except ImportError:  # an image without Wi-Fi (the Pico's): the network stays off
            network = None

        services = tuple(section.get("services", ()))
        for name in services:
            service(name)  # (an unknown name: ValueError now, at boot)
        first, longest = section.get("backoff_s", (1, 60))
        return cls(
            network,
            section.get("settings", "/wifi.json"),
            int(section.get("join_timeout_s", 20) * 1000),
            (int(first * 1000), int(longest * 1000)),
            services,
        )

    def address(self):
        return self.ip if self.state == "up" else None

    def configure(self, ssid, password):
        self.settings = {"ssid": ssid}
        self.changed = True

    def _set(self, state, app):
        if state != self.state:
            self.state = state
            if app is not None:
                app.version += 1  # the grid's link pixel: drawn again

    def _power_up(self):
        """The station interface, powered up once; None when no chip answers."""
        net = self.network
        if net is None:
            return None
        try:
            wlan = net.WLAN(net.STA_IF)
            wlan.active(True)
        except (OSError, RuntimeError, AttributeError, ValueError):
            return None
        return wlan

    async def run(self, app=None):
        """Join, keep joined, and start the services once up: for ever (a task)."""
        started = False
        wait = self.backoff_ms[0]
        while True:
            if self.changed:
                self.changed = False
                self.creds = read_settings(self.path)
                if self.creds is not None:
                    self.settings = {"ssid": self.creds[0]}
                wait = self.backoff_ms[0]
                if self.wlan is not None:
                    self._leave()
            if self.creds is None:
                self._set("off", app)
                await sleep_ms(500)
                continue
            if self.wlan is None:
                self.wlan = self._power_up()
                self.absent = self.wlan is None
            if not self.absent and await self._join(app):
                wait = self.backoff_ms[0]
                if not started:
                    started = True
                    self._start_services(app)
                await self._stay(app)
            if self.absent:  # no chip: off for good (the board referees on)
                self._set("off", app)
                return
            if self.changed:
                continue
            self._set("down", app)
            await self._wait(wait)
            wait = min(wait * 2, self.backoff_ms[1])

    async def _join(self, app):
        """One join: True once it has an address, False when it failed or took too long."""
        net = self.network
        got_ip = getattr(net, "STAT_GOT_IP", STAT_GOT_IP)
        self._set("joining", app)
        try:
            self.wlan.connect(self.creds[0], self.creds[1])
        except OSError as e:
            self.absent = e.args[0] == EPERM if e.args else False
            return False
        start = ticks_ms()
        while ticks_diff(ticks_ms(), start) < self.join_ms and not self.changed:
            await sleep_ms(self.poll_ms)
            s = self.wlan.status()
            if s == got_ip:
                try:
                    self.ip = self.wlan.ifconfig()[0]
                except (OSError, IndexError):
                    self.ip = None
                self.octets = octets_of(self.ip)
                self._set("up", app)
                return True
            if s < 0:  # a wrong password, no such network, the join failed
                break
        self._leave()
        return False

    async def _stay(self, app):
        # while up: the link looked at every CHECK_MS; returns once it is lost
        while not self.changed:
            await sleep_ms(self.check_ms)
            if not self.wlan.isconnected():
                break
        self._lost()

    def _lost(self):
        # no address any more: the grid's address view closes
        self.ip = None
        self.octets = b""
        self.shown = 0

    async def _wait(self, ms):
        # the backoff, cut short by new credentials
        while ms > 0 and not self.changed:
            step = min(ms, 500)
            await sleep_ms(step)
            ms -= step

    def _leave(self):
        try:
            self.wlan.disconnect()
        except OSError:
            pass
        self._lost()

    def _start_services(self, app):
        import asyncio

        # (kept: a task nobody holds may be collected)
        self.service_tasks = tuple(
            asyncio.create_task(service(name).run(app, self)) for name in self.services
        )
