"""The demo's narration: a key-press script (docs/script.md) played line by line over the
board's serial link, each line told as it is played: the script's comment (what is being
tried and which seed rule applies), then what the board did (the event sentences,
referee/texts.py) or why it refused (the board's own reason).

The script's keys are sent as pad actions with the ``key`` command; ``select NAME`` becomes
``sel:<index>`` and ``dice A B`` the physical-dice ``roll`` command, so the demo needs no
copy of the pad's state.
"""

from host_tools.sim import script as scriptmod


class Line:
    """One script line: its steps, its comment (str) and its number."""

    def __init__(self, lineno, steps, comment):
        self.lineno = lineno
        self.steps = steps
        self.comment = comment


def lines(text):
    """The script ``text`` as a list of Line (lines without keys are kept as headings when
    they carry a comment; the ``# plays: SCENARIO`` line names the script's scenario and is
    not narrated). Raises script.ScriptError."""
    out = []
    for n, raw in enumerate(text.splitlines(), 1):
        code, _, comment = raw.partition("#")
        steps = scriptmod.parse(code)
        comment = comment.strip().strip("-").strip()
        if not steps and comment.startswith("plays:"):
            continue
        if steps or comment:
            out.append(Line(n, steps, comment))
    return out


def commands(step, names, keymap):
    """Serial commands (list of dict) for one script step. ``names``: the ships' names;
    ``keymap``: the board's KeyMap (for K<n> presses). Raises script.ScriptError."""
    kind = step[0]
    if kind == "key":
        return [{"c": "key", "key": step[1]}]
    if kind == "raw":
        return [{"c": "key", "key": keymap.action(step[1], step[2])}]
    if kind == "select":
        if step[1] not in names:
            raise scriptmod.ScriptError("select: no ship named %r" % step[1])
        return [{"c": "key", "key": "sel:%d" % names.index(step[1])}]
    if kind == "dice":
        return [{"c": "roll", "values": [step[1], step[2]]}]
    return []


class Narrator:
    """Plays Lines on Mirror ``m`` (connected and synced) and keeps the told lines in
    ``told`` (list of (style, text)); ``say`` (optional callable(style, text)) hears each."""

    def __init__(self, m, keymap, say=None):
        self.m = m
        self.keymap = keymap
        self.told = []
        self.say = say
        self.refusals = 0

    def tell(self, style, text):
        self.told.append((style, text))
        if self.say is not None:
            self.say(style, text)

    def play(self, line):
        m = self.m
        rep = m.rep
        if line.comment:
            self.tell("why" if line.steps else "heading", line.comment)
        if not line.steps:
            return
        seen_seq = rep.game.seq
        seen_err = len(m.err_log)  # Mirror subclass keeping every refusal (demo.py)
        for step in line.steps:
            for cmd in commands(step, list(rep.game.names), self.keymap):
                m.send(cmd)
        m.send({"c": "hello"})  # a fence: every answer before it has arrived
        m.wait_for("hello")
        for seq, text in rep.recent_texts():
            if seq > seen_seq:
                self.tell("event", text)
        for msg in m.err_log[seen_err:]:
            self.refusals += 1
            self.tell("refused", "refused: " + msg)
