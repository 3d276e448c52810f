"""What differs between MicroPython (the board) and CPython (the simulator, the tests, the
host tools), said once for the whole firmware.

- ``MICROPYTHON``: True when running under MicroPython (``sys.implementation.name``).
- ``const(value)``: ``micropython.const`` on the board (the compiler folds it; a name that
  starts with ``_`` then takes no RAM at all), the value itself on CPython. For ints only.
- ``TYPE_CHECKING``: False when running; pyright reads an ``if TYPE_CHECKING:`` block as
  taken, so imports needed only by type comments (``typing``, which MicroPython lacks) stay
  out of the board.

Modules both runtimes have under the same name are imported as they are: ``asyncio``,
``binascii``, ``hashlib`` (MicroPython 1.24 is the oldest firmware runs on; the ``u``-named
fallbacks of older ports are gone).
"""

import sys

MICROPYTHON = sys.implementation.name == "micropython"
TYPE_CHECKING = False

try:
    from micropython import const  # pyright: ignore[reportAssignmentType]  (stub: positional)
except ImportError:  # CPython

    def const(expr):
        """``expr`` unchanged (an int): CPython has no compile-time constants."""
        return expr
