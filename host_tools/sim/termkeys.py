"""The simulator's keyboard: terminal bytes in, pad presses out.

A terminal sends arrow and function keys as escape sequences (Up is ``ESC [ A``, F1 is
``ESC O P``, F5 is ``ESC [ 1 5 ~``). Read one byte at a time they would look like pad keys
(``A`` = a long press of ``a``), so :class:`KeyReader` recognises every sequence whole and
maps or ignores it on purpose:

* Up / Down: ``sel-`` / ``sel+`` (the previous / next ship), when the board's key map has
  those actions;
* every other escape sequence (Left, Right, Home, End, F1-F12, Page Up/Down, Alt+key, a lone
  Esc): ignored, and counted in ``ignored`` so the view can say so.

A sequence split across two reads is held until it is complete. Pad keys: ``1234 qwer asdf
zxcv`` (short press) and the same keys shifted (long press).
"""

PAD_KEYS = "1234qwerasdfzxcv"
PAD_SHIFT = "!@#$QWERASDFZXCV"

ESC = 0x1B
# final bytes of CSI / SS3 sequences mapped to pad actions
ARROWS = {ord("A"): "sel-", ord("B"): "sel+"}
NAMES = {
    ord("A"): "Up",
    ord("B"): "Down",
    ord("C"): "Right",
    ord("D"): "Left",
    ord("H"): "Home",
    ord("F"): "End",
    ord("P"): "F1",
    ord("Q"): "F2",
    ord("R"): "F3",
    ord("S"): "F4",
    ord("~"): "function key",
}


class KeyReader:
    """Feed it terminal bytes (``feed``); it returns the pad presses they stand for.

    ``find``: optional callable(action name) -> (key index, is_long) or raises KeyError/
    ValueError, used to map Up/Down to ``sel-``/``sel+``. A press is a (key index, is_long)
    tuple. ``last_ignored`` names the newest key that was ignored ("" when none).
    """

    def __init__(self, find=None):
        self.find = find
        self.pending = b""
        self.ignored = 0
        self.last_ignored = ""

    def _ignore(self, what):
        self.ignored += 1
        self.last_ignored = what

    def _mapped(self, final, what):
        action = ARROWS.get(final)
        if action is not None and self.find is not None:
            try:
                return [self.find(action)]
            except (KeyError, ValueError, AttributeError):
                pass
        self._ignore(what)
        return []

    def feed(self, data):
        """Bytes from the terminal -> list of (key index, is_long). A trailing incomplete
        escape sequence is kept for the next call; ``flush`` drops it (a lone Esc)."""
        buf = self.pending + bytes(data)
        self.pending = b""
        out = []
        i = 0
        n = len(buf)
        while i < n:
            b = buf[i]
            if b != ESC:
                ch = chr(b)
                if ch in PAD_KEYS:
                    out.append((PAD_KEYS.index(ch), False))
                elif ch in PAD_SHIFT:
                    out.append((PAD_SHIFT.index(ch), True))
                i += 1
                continue
            if i + 1 >= n:  # Esc at the end: maybe the start of a sequence
                self.pending = buf[i:]
                break
            nxt = buf[i + 1]
            if nxt == ord("["):  # CSI: parameters 0x30-0x3F, then a final 0x40-0x7E
                j = i + 2
                while j < n and 0x20 <= buf[j] <= 0x3F:
                    j += 1
                if j >= n:
                    self.pending = buf[i:]
                    break
                final = buf[j]
                params = buf[i + 2 : j]
                if params in (b"", b"1") or final != ord("~"):
                    out.extend(self._mapped(final, NAMES.get(final, "escape sequence")))
                else:
                    self._ignore("function key")
                i = j + 1
            elif nxt == ord("O"):  # SS3: ESC O <final> (F1-F4, arrows in app mode)
                if i + 2 >= n:
                    self.pending = buf[i:]
                    break
                final = buf[i + 2]
                out.extend(self._mapped(final, NAMES.get(final, "function key")))
                i += 3
            elif nxt == ESC:  # Esc Esc: the first one alone
                self._ignore("Esc")
                i += 1
            else:  # Alt+key: ESC then the key; not a pad press
                self._ignore("Alt+" + chr(nxt) if 32 < nxt < 127 else "Esc")
                i += 2
        return out

    def flush(self):
        """Drop a held incomplete sequence (a lone Esc pressed alone)."""
        if self.pending:
            self._ignore("Esc")
        self.pending = b""
