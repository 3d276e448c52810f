"""The simulator's main loop (``fleetref sim`` without ``--periodic``): the firmware's own
steps, run when something happens instead of on a period."""

import asyncio

from referee.ticks import ticks_diff, ticks_ms


class IdleLoop:
    """The simulator's main loop: the firmware's own steps (``Runner.step_keys``,
    ``step_serial``, ``step_render``), run when something happens instead of on a period.
    It sleeps in the asyncio selector with no timeout until a byte arrives on the
    pseudo-terminal (``add_reader``), a key is pushed (``QueueKeys.on_push``) or the shown
    error expires (the only timer): an idle simulator does not wake at all. (On the Pico the
    firmware's loop.Runner scans its keys on a period: a key matrix has no other way to
    say it was pressed.)

    ``changed``: set after a frame is drawn (the terminal view waits on it); ``heard``: set
    once a host has sent a line."""

    def __init__(self, runner, ser, keys):
        self.runner = runner
        self.ser = ser
        self.keys = keys
        self.wake = asyncio.Event()
        self.changed = asyncio.Event()
        self.heard = asyncio.Event()
        self.turns = 0  # loop turns (each one after a wake-up)
        self.writing = False

    def _writable(self):
        self.ser.flush()
        if not self.ser.pending():
            asyncio.get_running_loop().remove_writer(self.ser.master)
            self.writing = False

    def timeout(self):
        """Seconds until the next timed change (the error row going out), or None."""
        app = self.runner.app
        if not app.error_on:
            return None
        return max(ticks_diff(app.error_until, ticks_ms()), 0) / 1000 + 0.001

    def turn(self):
        """Handle everything waiting: keys, host lines (all of them), a new frame."""
        r = self.runner
        self.turns += 1
        try:
            while self.keys.busy():
                r.step_keys()
            r.step_keys()  # the clock (error expiry) moves on
        except Exception as e:
            r.crash("keys", e)
        try:
            while r.step_serial():
                self.heard.set()
        except Exception as e:
            r.crash("serial", e)
        frames = r.frames
        try:
            r.step_render()
        except Exception as e:
            r.crash("render", e)
        if r.frames != frames:
            self.changed.set()
        self.ser.flush()
        if self.ser.pending() and not self.writing:  # a host not reading: write when it can
            asyncio.get_running_loop().add_writer(self.ser.master, self._writable)
            self.writing = True

    async def run(self):
        loop = asyncio.get_running_loop()
        loop.add_reader(self.ser.master, self.wake.set)
        self.keys.on_push = self.wake.set
        try:
            while self.runner.running:
                self.wake.clear()
                self.turn()
                try:
                    await asyncio.wait_for(self.wake.wait(), self.timeout())
                except asyncio.TimeoutError:
                    pass
        finally:
            loop.remove_reader(self.ser.master)
            if self.writing:
                loop.remove_writer(self.ser.master)

    def stop(self):
        self.runner.running = False
        self.wake.set()
