"""The board's main loop: asyncio tasks for key scan, render, serial and autosave.

A pressed key runs one pipeline (Runner.step_keys): apply (the pad's action, its events
applied in RAM and held: the referee's ``group``, commit.GroupCommit), render (its frame,
shifted out by PIO/DMA while the flash is written), flush (app.Referee.flush: the held
records in one journal commit, then their ``ev`` lines). With the group's ``hold_ms`` 0 the
flush comes right after the frame; the board's ``commit_ms`` > 0 leaves it to the render
task's turn once it is due (Runner.step_maintain), so a few presses share one commit.

Drivers are passed in, so the same loop runs on the Pico (real drivers, MicroPython asyncio)
and in the laptop simulator (virtual drivers, CPython asyncio). The keys, display and serial
drivers build on the contracts in referee/assembly.py (Keys, Display, Serial: what is asked
of them, and the optional methods' defaults). store (optional): ``save(app)`` called when
the game changed (autosave).

An exception in a task is reported over serial and shown on the grid, and the task goes on.
KeyboardInterrupt (Ctrl-C from mpremote) is not caught, so the REPL can always take the board.
"""

import asyncio

from referee.ticks import ticks_diff, ticks_ms  # wrapping ticks: the loop's clock


async def sleep_ms(ms):
    f = getattr(asyncio, "sleep_ms", None)
    if f is not None:
        await f(ms)
    else:
        await asyncio.sleep(ms / 1000)


class Runner:
    """Runs ``app`` (a Referee) with the given drivers. ``renderer`` owns the frame buffer.
    ``scan_ms``: key poll period while a key is down (``idle_scan_ms`` while none is, for key
    drivers with ``active()``); ``frame_ms``: the render task's period (it draws what changes without a key or a line:
    an error row timing out, the clocks; a key or a line is drawn at once);
    ``save_ms``: autosave period. ``crashes`` counts exceptions caught in tasks. A key runs
    apply -> render -> flush (step_keys; the module says when the flush comes). The periods
    are class defaults; set them on the runner to change them."""

    # timing (ms), class defaults a board or a test may set on the runner
    scan_ms = 2
    idle_scan_ms = 10
    frame_ms = 100
    save_ms = 2000
    refresh_ms = 2000
    gc_low = 0  # > 0: collect while idle once less is free (step_gc)
    gc_span = 0  # > 0: ... or once this many bytes were taken since
    render_on_input = True  # draw right after a key or a line (False: only the task)

    def __init__(self, app, keymap, keys, display, serial, renderer, store=None):
        self.app = app
        self.keymap = keymap
        self.keys = keys
        self.display = display
        self.serial = serial
        self.renderer = renderer
        self.store = store
        self.gc_after = -1  # gc.mem_alloc() after the last collection (-1: unknown)
        self.gc_total = 0  # the heap's size (gc.mem_alloc() + gc.mem_free())
        self.gc_version = -1  # the app version step_gc looked at last
        self.shown_at = ticks_ms()  # when the last frame was sent
        self.crashes = 0
        self.frames = 0
        self.shown = [-1, False]  # the app version and error flag of the frame on the grid
        self.running = True

    def crash(self, where, e):
        self.crashes += 1
        try:
            self.app.error("%s task: %s: %s" % (where, type(e).__name__, e), "task")
        except Exception:
            pass

    def step_keys(self):
        """Poll the keys; a pressed key's pipeline: apply (its action, the events held),
        render (its frame, now rather than at the render task's next turn), flush (right
        away when the group's ``hold_ms`` is 0, else when due: step_maintain)."""
        app = self.app
        app.now_ms = ticks_ms()
        k = self.keys.poll(app.now_ms)
        if k is None:
            return
        a = self.keymap.action(k[0], k[1])
        group = app.group
        if a is not None:  # None: the key only changed the UI's own mode
            group.hold()
            try:
                app.pad.key(a)
            finally:
                group.stop()
        if self.render_on_input:
            self.step_render()
        if not group.hold_ms:
            app.flush()

    def step_serial(self):
        """Handle the serial lines waiting: up to 8 a turn, and after one that changed the
        game the turn ends, so the render task's journal step (a snapshot due) gets a turn
        between two lines of events; the garbage is collected then if the heap runs low (a
        stream of lines leaves no idle turn for step_gc). Returns the lines handled."""
        app = self.app
        app.now_ms = ticks_ms()
        n = 0
        while n < 8:  # a few lines per turn, so a flood cannot starve the other tasks
            line = self.serial.read_line()
            if line is None:
                return n
            v = app.version
            self.handle_line(line)
            n += 1
            if app.version != v:
                self.step_gc(2 * self.gc_low)
                break
        if n and self.render_on_input:
            self.step_render()
        return n

    def handle_line(self, line):
        """Handle one serial line with MicroPython's collection every ``gc_span`` bytes taken
        (``gc.threshold``; off again after the line): a line of many events or a roster
        allocates far more than a key does, and the states the game keeps meanwhile then stay
        in the low part of the heap, next to what lives on (step_gc explains), instead of
        being scattered over it. A key's event never gets such a collection inside it."""
        import gc

        threshold = getattr(gc, "threshold", None) if self.gc_span else None
        if threshold is None:
            self.app.link.handle_line(line)
            return
        before = threshold()
        threshold(self.gc_span)
        try:
            self.app.link.handle_line(line)
        finally:
            threshold(before)

    def step_render(self):
        """Draw and show a frame when the game, the UI or the error row changed since the last
        one; otherwise nothing (no frame is sent for nothing)."""
        state = self.shown
        self.app.now_ms = ticks_ms()  # the error row's time runs out here too
        err = self.app.showing_error()
        v = self.app.version
        if v != state[0] or err != state[1]:
            state[0] = v
            state[1] = err
            self.renderer.render(self.app, err)
            self.display.show(self.renderer.fb)
            self.frames += 1
            self.shown_at = self.app.now_ms

    def idle(self):
        """True while no key is down or settling (the keys' ``resting()``)."""
        return self.keys.resting()

    def step_gc(self, low=None):
        """Collect the garbage while no key is down once less than ``low`` bytes of the heap
        are free (default ``gc_low``; MicroPython's ``gc.mem_alloc``; 0: never), or once
        ``gc_span`` bytes were taken since the last collection. A collection takes 15-25 ms
        on a Pico with this heap: done here (the render task's turn, and after each serial
        line that changed the game, with twice the margin: a line of events allocates more
        than a turn does) it falls neither between a key's release and its frame nor inside
        an event, as the one MicroPython starts when an allocation finds no room would.
        The span keeps the heap's free memory in one large block: MicroPython allocates from
        the lowest free block up, so between two collections the garbage and whatever the
        game keeps (a checkpoint's state, a tuple) sit at most ``gc_span`` above what lives
        on; without it the garbage fills the whole heap first and the states kept meanwhile
        end up scattered over it. Returns True when it collected."""
        if low is None:
            low = self.gc_low
        if not low or self.app.version == self.gc_version:
            return False  # nothing happened since the last look: no new garbage
        import gc

        mem_alloc = getattr(gc, "mem_alloc", None)
        if mem_alloc is None or not self.idle():
            return False
        self.gc_version = self.app.version
        used = mem_alloc()  # (walks the heap's table: ~6 ms on a Pico, so only
        if not self.gc_total:  # after a change, never every turn)
            self.gc_total = used + gc.mem_free()
        span = self.gc_span
        if self.gc_total - used >= low and not (
            span and self.gc_after >= 0 and used - self.gc_after >= span
        ):
            if self.gc_after < 0 or used < self.gc_after:
                self.gc_after = used  # (MicroPython collected on its own meanwhile)
            return False
        gc.collect()
        self.gc_after = mem_alloc()
        return True

    def step_refresh(self):
        """While no key is down, send the frame on the grid again whole every ``refresh_ms``
        (displays with ``refresh()``: a WS2812 panel gets only the changed part of a frame, so
        this repaints one that lost its data line or its power). Returns True when sent."""
        if not self.idle():
            return False
        now = ticks_ms()
        if ticks_diff(now, self.shown_at) < self.refresh_ms:
            return False
        self.shown_at = now
        return self.display.refresh()

    async def task_keys(self):
        active = self.keys.active
        wait = self.keys.wait if self.keys.flag is not None else None
        while self.running:
            try:
                self.step_keys()
            except Exception as e:
                self.crash("keys", e)
            if active():
                await sleep_ms(self.scan_ms)
            elif wait is not None:  # idle: sleep until a pin interrupt says a key went down
                await wait()
            else:  # idle, no interrupts: poll less often
                await sleep_ms(self.idle_scan_ms)

    async def task_serial(self):
        readable = self.serial.readable
        while self.running:
            try:
                n = self.step_serial()
            except Exception as e:
                self.crash("serial", e)
                n = 0
            if n:
                await sleep_ms(0)
            else:  # until a byte arrives (or 5 ms: assembly.Serial)
                await readable()

    def step_maintain(self):
        """The journal's work between events: the keys' held events committed and announced
        when the group says they are due (commit.GroupCommit.due), then a snapshot the journal
        left due (journal_write.Writer.defer), written one littlefs operation a turn while no key
        is down or settling, so it never sits between a key's release and its frame and holds
        the loop for one operation at most; with nothing due, the next fold's base or the
        next undo's state replayed ahead (game.Game.prepare_fold, prepare_undo). Returns True
        when a step was done."""
        app = self.app
        j = app.journal
        g = app.game
        if g is None:
            return False
        idle = self.idle()
        if j is not None and app.group.count:
            app.now_ms = ticks_ms()
            if app.group.due(app.now_ms, idle, g.event_window.full()):
                app.flush()
                return False  # (one littlefs commit a turn: the snapshot next time)
        if not idle:
            return False
        if j is not None and j.writer.due and j.writer.maintain(g):
            return True  # (none while events are held)
        # the next fold's base, then the next undo's state, replayed ahead (game.py; with
        # events held too: a failed commit takes the window's kept states back with them)
        return g.prepare_fold() or g.prepare_undo()

    async def task_render(self):
        # what changes without a key or a line (an error row timing out, the clocks), and
        # the journal's snapshot when one is due
        while self.running:
            busy = False
            try:
                self.step_render()
                busy = self.step_maintain()
                self.step_refresh()
                self.step_gc()
            except Exception as e:
                self.crash("render", e)
            # a snapshot's next step after the other tasks' turn, not a frame period later
            await sleep_ms(0 if busy else self.frame_ms)

    async def task_autosave(self):
        saved = -1
        while self.running:
            await sleep_ms(self.save_ms)
            try:
                if self.store is not None and self.app.version != saved:
                    saved = self.app.version
                    self.store.save(self.app)
            except Exception as e:
                self.crash("autosave", e)

    async def main(self, extra=()):
        """Run the loop's tasks, the coroutines ``extra`` (the extensions' task) and, on a
        board with a network, its ``run(app)`` (referee/net), until ``running`` is False."""
        tasks = [
            asyncio.create_task(self.task_keys()),
            asyncio.create_task(self.task_serial()),
            asyncio.create_task(self.task_render()),
            asyncio.create_task(self.task_autosave()),
        ]
        for coro in extra:
            tasks.append(asyncio.create_task(coro))
        net = getattr(self.app, "network", None)
        if net is not None:  # joins in the background: never blocks the other tasks
            tasks.append(asyncio.create_task(net.run(self.app)))
        while self.running:
            await sleep_ms(500)
        for t in tasks:
            t.cancel()
