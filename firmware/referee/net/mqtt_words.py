"""What the board publisher says of the game beyond its state bytes, taken as the referee
applies each event (its ``on_applied`` hook): each event's words (its sentence, ``round``,
``phase``, ``undone``), the initiative rolls as they were made (``initiative_history``) and the
event that made the winner (``decided``), as ``fleetref publish`` takes them from the mirror's
replica (host_tools/link/replica.py), so the board's messages read as the laptop's.

An event's words tell of the game just after it, with what the event decided beyond itself
(texts.with_consequences: a ship destroyed at a phase end, a fighter back to the pool, the side
that wins), so they are taken when it is applied and the newest HELD events' are kept until
they are sent: events sent in one poll, after newer ones were played, read as the laptop's.
An event older than those is a catch-up's (null ``round``/``phase``, no consequences).

Kept since the board started: after a restart, the rolls and the deciding event of the
restored game before it are not known (the journal keeps events, not the rounds they were
made in), nor the words of its events before it (they read as older events').
"""

from referee.events import EV_INIT, EV_UNDO

HELD = 16  # newest events whose words are kept from when they happened


def sentence(text):
    """``text`` with a capital first letter and a full stop (host_tools.views.webfeed's)."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


def words_now(game, seq, ev, before=None):
    """``(sentence, round, phase, undone)`` of event ``seq`` (``ev``) read from ``game`` as it
    stands: round/phase/undone only when ``seq`` is its newest event, else None; with
    ``before`` (texts.outcome just before the event) the sentence says what it decided."""
    words = raw_words(game, seq, ev, before)
    return (sentence(words[0]),) + words[1:]


def raw_words(game, seq, ev, before=None, after=None):
    """As :func:`words_now`, the text as texts.py makes it (not yet a :func:`sentence`);
    ``after``: texts.outcome of ``game`` now, when known."""
    from referee.texts import event_text

    if seq != game.seq:
        return event_text(game, ev, seq, False), None, None, None
    text = event_text(game, ev, seq, True)
    if before is not None:
        from referee.texts import with_consequences

        text = with_consequences(text, before, game, ev, after)
    undone = None
    if ev[0] == EV_UNDO:
        from referee.texts import undone_seq

        undone = undone_seq(game, seq)
    return text, game.round, game.phase_name(), undone


class Words:
    """The words of the newest HELD events of ``app`` (app.Referee), each taken as the referee
    applies it (its ``on_applied`` hook, set here: the game then stands just after the event,
    even when a key's journal commit holds it and newer ones before they are announced):
    ``slots[seq % HELD]`` is ``(seq, gid, sentence, round, phase, undone)`` or None. Also, for
    the game of ``gid``: ``history`` ([[round, roll, roll], ...], each initiative roll as it
    was applied, seed 000 "initiative check"), ``decided`` ({"round", "seq", "text"}: the
    event that made the winner, the round it was played in; None while no side has won).
    The game in play before (replaced by a load or the menu's kept game) keeps its own in
    ``old`` (gid, slots, history, decided) until the next one replaces it, so its last events
    still read as they happened while the publisher sends them. The referee's ``on_submit``
    hook (before an event is checked) notes a new game's outcome so far (texts.outcome), so
    the first event of a game, or the first after a restart, says what it decided. Built once
    when the service starts; a board without it has none."""

    def __init__(self, app):
        self.app = app
        self.gid = None  # the game the fields below are of
        self.slots = [None] * HELD
        self.before = None  # texts.outcome after its newest event (None: not known)
        self.round = 0  # its round after its newest event
        self.history = []
        self.decided = None
        self.old = (None, None, [], None)
        app.on_applied = self.took
        app.on_submit = self.ready

    def ready(self):
        """Before an event of the game in play is checked: a game not seen yet becomes the
        one these words are of (its outcome so far noted, the last one's kept in ``old``).
        Never raises into the referee's path."""
        app = self.app
        if app.gid == self.gid:
            return
        self.old = (self.gid, self.slots, self.history, self.decided)
        self.gid, self.slots, self.history, self.decided = app.gid, [None] * HELD, [], None
        self.before = None
        game = app.game
        self.round = game.round
        try:
            from referee.texts import outcome

            self.before = outcome(game)
        except Exception:  # (MemoryError): its first event says no consequences
            pass

    def took(self, seq, ev):
        """Event ``seq`` (``ev``) applied: its words kept (an event taken back and replaced
        by another of the same seq: that one's). Never raises into the referee's path (a
        fault leaves the slot empty: the event is then sent as a catch-up's)."""
        app = self.app
        game = app.game
        self.ready()  # (a referee that called no on_submit: the tests')
        slot = seq % HELD
        self.slots[slot] = None
        before, self.before = self.before, None
        try:
            from referee.texts import outcome

            after = outcome(game)
            words = raw_words(game, seq, ev, before, after)
            if ev[0] == EV_INIT:
                self.history.append([game.round, ev[1], ev[2]])
            if after[3] is None:
                self.decided = None
            elif before is not None and after[3] != before[3]:
                self.decided = {"round": self.round, "seq": seq, "text": words[0]}
            self.before, self.round = after, game.round
            self.slots[slot] = (seq, app.gid, sentence(words[0])) + words[1:]
        except Exception:  # (MemoryError): sent as a catch-up's
            pass

    def of(self, game, gid, seq, ev):
        """The words of event ``seq`` (``ev``) of ``game`` (of ``gid``): as kept, else as read
        now (:func:`words_now`)."""
        slots = self.slots if gid == self.gid else self.old[1] if gid == self.old[0] else None
        kept = slots[seq % HELD] if slots is not None else None
        if kept is not None and kept[0] == seq and kept[1] == gid:
            return kept[2:]
        return words_now(game, seq, ev)

    def record(self, gid):
        """``(history, decided)`` of the game of ``gid`` as taken (``([], None)`` for one
        not seen)."""
        if gid == self.gid:
            return self.history, self.decided
        if gid == self.old[0]:
            return self.old[2], self.old[3]
        return [], None
