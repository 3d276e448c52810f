"""Game settings given on the command line (``fleetref sim``): ``--setting NAME=VALUE`` for any
setting the ruleset takes (docs/rosters.md) and ``--clock MINUTES`` for time banks (the
setting ``clock_s``, docs/clock.md), over the scenario's or roster's own settings. The
ruleset checks every name and value when the game is loaded, as the ``load`` command's
``settings`` are checked: an unknown name or a bad value is refused in one line."""


def add_arguments(p):
    p.add_argument(
        "--setting",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a game setting over the scenario's own, e.g. clock_s=2700 or "
        "clock_zero=1 (repeat for more; docs/rosters.md, docs/clock.md)",
    )
    p.add_argument(
        "--clock",
        metavar="MINUTES",
        help="time banks: each side's clock starts with MINUTES (the setting "
        "clock_s; docs/clock.md)",
    )


def parse(args):
    """The settings ``args`` give (a dict), or None when they give none. Raises ValueError
    (one sentence) for a malformed ``--setting`` or ``--clock``."""
    out = {}
    for item in getattr(args, "setting", None) or ():
        name, sep, val = item.partition("=")
        name = name.strip()
        if not sep or not name:
            raise ValueError("--setting wants NAME=VALUE, e.g. clock_s=2700 (got %r)" % item)
        try:
            out[name] = int(val.strip())
        except ValueError:
            raise ValueError(
                "--setting %s: the value must be a whole number (got %r)" % (name, val)
            ) from None
    clock = getattr(args, "clock", None)
    if clock is not None:
        if "clock_s" in out:
            raise ValueError("give --clock or --setting clock_s, not both")
        try:
            minutes = float(clock)
        except ValueError:
            minutes = -1.0
        if not 0 < minutes < 1e6:
            raise ValueError(
                "--clock wants the minutes each side starts with, e.g. 45 (got %r)" % clock
            )
        out["clock_s"] = max(1, round(minutes * 60))
    return out or None
