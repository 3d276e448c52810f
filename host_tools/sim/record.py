"""The simulator's record of its game (``fleetref sim``): every event with its sentence, kept
on the host beyond the board's RAM window, and the final snapshot that ``--headless`` prints
after a script."""


class EventRecord:
    """Every event of the current game, kept by the host (the board's RAM holds a window),
    and the simulator's log: each event's sentence with what it decided (``texts``: a ship
    destroyed, a side winning; referee/texts.py's with_consequences, as every host view)."""

    def __init__(self, app):
        self.app = app
        self.gid = None
        self.evs = []
        self.texts = []
        self.before = None

    def __call__(self, seq, ev):
        from referee.texts import event_text, outcome, with_consequences

        g = self.app.game
        if self.app.gid != self.gid:
            self.gid = self.app.gid
            self.evs = [] if seq == 1 else None  # a restored game: only its window is known
            self.texts = []
            self.before = (0, 0, 0, None) if seq == 1 else None
        if self.evs is not None:
            self.evs.append(list(ev))
        ev = tuple(ev)
        live = g is not None and g.seq == seq
        t = event_text(g, ev, seq, live) if g is not None else ""
        self.texts.append(with_consequences(t, self.before, g, ev) if live else t)
        self.before = outcome(g) if live else None

    def events(self):
        """All events as lists when known from the first, else the game's RAM window."""
        g = self.app.game
        if self.gid == self.app.gid and self.evs is not None:
            return self.evs
        if g.base_seq == 0:
            return [list(e) for e in g.log]
        return None


def final_snapshot(app, ser, rejected):
    snap = app.game.snapshot(app)  # (the board's clocks now: paused, live; docs/clock.md)
    snap["gid"] = app.gid
    snap["events"] = app.on_event.events()
    snap["rejected"] = rejected
    snap["serial_dropped"] = ser.dropped
    snap["texts"] = app.on_event.texts  # the simulator's log (EventRecord)
    from referee.texts import add_states

    return add_states(snap, app.game)  # ship states in words, as every host view
