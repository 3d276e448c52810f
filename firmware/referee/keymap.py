"""Key map: key positions on the pad -> referee actions, from the board profile.

``board["keys"]`` is a list of rows of action names (row-major key index = row * cols + col);
``board["long"]`` maps an action to the one its long press triggers (a key without a long
entry does its short action on a long press too).
"""


class KeyMap:
    """``short(i)`` / ``long(i)``: the action name of key index ``i`` (int). Raises ValueError
    for a board profile whose key layout is not a list of equal rows of known actions."""

    def __init__(self, board, actions):
        rows = board.get("keys")
        if not isinstance(rows, list) or not rows:
            raise ValueError("board profile: keys must be a list of rows")
        self.cols = len(rows[0])
        flat = []
        for r in rows:
            if not isinstance(r, list) or len(r) != self.cols:
                raise ValueError("board profile: every key row needs %d keys" % self.cols)
            for a in r:
                if a not in actions:
                    raise ValueError("board profile: unknown action %r" % (a,))
                flat.append(a)
        self.short_actions = tuple(flat)
        lg = board.get("long", {})
        longs = []
        for a in flat:
            b = lg.get(a, a)
            if b not in actions:
                raise ValueError("board profile: unknown long action %r" % (b,))
            longs.append(b)
        self.long_actions = tuple(longs)
        self.n = len(flat)

    def action(self, i, is_long):
        return self.long_actions[i] if is_long else self.short_actions[i]

    def find(self, action):
        """(key index, is_long) that triggers ``action``; raises ValueError if none does."""
        for i in range(self.n):
            if self.short_actions[i] == action:
                return i, False
        for i in range(self.n):
            if self.long_actions[i] == action:
                return i, True
        raise ValueError("no key for action %r on this board" % action)
