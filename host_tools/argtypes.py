"""The numbers a user types on the command line, checked as argparse reads them: a whole
number or a finite number within bounds, and the arguments several commands share. A value out of bounds, ``nan`` or ``inf`` is refused
by argparse in one line (``fleetref CMD: argument --NAME: wants ..., not ...``, exit 2),
before the command does anything."""

import argparse
import math

# The longest wait between scripted key presses or a demo's lines (ms): a minute.
MAX_PACE_MS = 60_000
# The fastest serial link a host tool opens (bit/s): the USB-serial ceiling of pyserial's ports.
MAX_BAUD = 4_000_000


def whole_number(low, high=None):
    """An argparse ``type``: an int from ``low`` to ``high`` (both included; no upper bound
    when ``high`` is None). Raises argparse.ArgumentTypeError (one sentence) otherwise."""

    def parse(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                "wants a whole number %s, not %r" % (_span(low, high), text)
            ) from None
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(
                "wants a whole number %s, not %d" % (_span(low, high), value)
            )
        return value

    return parse


def finite_number(low, high=None, above=False):
    """An argparse ``type``: a finite float from ``low`` (excluded when ``above``) to ``high``
    (included; no upper bound when None). ``nan`` and ``inf`` are refused. Raises
    argparse.ArgumentTypeError (one sentence) otherwise."""
    wants = "wants a number %s" % _span(low, high, above)

    def parse(text):
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError("%s, not %r" % (wants, text)) from None
        if not math.isfinite(value):
            raise argparse.ArgumentTypeError("%s, not %r" % (wants, text))
        if value < low or (above and value == low) or (high is not None and value > high):
            raise argparse.ArgumentTypeError("%s, not %s" % (wants, text))
        return value

    return parse


def _span(low, high, above=False):
    """The bounds in words: "from 0 to 60000", "above 0", "of 1 or more"."""
    if above:
        return "above %s" % _shown(low) + (
            "" if high is None else " and at most %s" % _shown(high)
        )
    if high is None:
        return "of %s or more" % _shown(low)
    return "from %s to %s" % (_shown(low), _shown(high))


def _shown(bound):
    """A bound as typed: 4000000, 0.5."""
    return "%d" % bound if float(bound).is_integer() else "%g" % bound


PORT_HELP = "serial port or pseudo-terminal path; auto finds a Pico or a simulator"


def add_port_argument(p, help=PORT_HELP):
    """``--port PORT`` (default ``auto``) on argparse parser ``p``: the board's serial port."""
    p.add_argument("--port", default="auto", help=help)
