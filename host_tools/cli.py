"""fleetref: the laptop side of the table-side referee for space-miniatures battles.

Play on the simulated board, follow a board live, flash a Pico, check and push custom
fleets, print a legend for the panel."""

import argparse
import os
import re
import sys
import textwrap

EPILOG = """first steps:
  fleetref sim --scenario hoth       play Escape from Hoth on the simulated board
  fleetref mirror --port auto        in another terminal: follow that board live
  fleetref roster check my.toml      check a custom fleet before a game

`fleetref COMMAND --help` tells more about each command."""


def plain(doc):
    """A docstring as help text: no RST double backticks, first paragraph only."""
    doc = (doc or "").strip()
    doc = re.sub(r"``([^`]*)``", r"\1", doc)
    return doc.replace("`", "")


class Formatter(argparse.RawDescriptionHelpFormatter):
    pass


class Parser(argparse.ArgumentParser):
    """argparse's parser whose usage errors are one line (the command, what is wrong and
    where to read more) and exit status 2, as every other refusal of the CLI."""

    def error(self, message):
        self.exit(2, "%s: %s (see %s --help)\n" % (self.prog, message, self.prog))


# The modules of the fleetref commands, in the order of ``fleetref --help``. Each declares
# ``COMMAND`` (its name) and ``SUMMARY`` (its line in that list), with ``add_arguments(parser)``
# and ``main(args)``; a module of several commands declares tuples of names and summaries,
# with ``add_<command>_arguments`` and ``main_<command>`` for each.
COMMAND_MODULES = (
    "host_tools.sim.sim",
    "host_tools.views.mirrorview",
    "host_tools.sim.demo",
    "host_tools.board.flash",
    "host_tools.files.saveload",
    "host_tools.board.rostercmd",
    "host_tools.board.wificmd",
    "host_tools.board.legend",
    "host_tools.board.pictures",
    "host_tools.views.web",
    "host_tools.files.verify",
    "host_tools.files.dicestats",
    "host_tools.files.report",
    "host_tools.files.replay",
    "host_tools.tournament.publish",
    "host_tools.tournament.dashboard",
    "host_tools.tournament.tournament",
)


def declared(mod):
    """The commands module ``mod`` declares: (name, summary, add_arguments, main) each."""
    if isinstance(mod.COMMAND, str):
        return [(mod.COMMAND, mod.SUMMARY, mod.add_arguments, mod.main)]
    return [
        (name, summary, getattr(mod, "add_%s_arguments" % name), getattr(mod, "main_%s" % name))
        for name, summary in zip(mod.COMMAND, mod.SUMMARY, strict=True)
    ]


def commands():
    """Every fleetref command: (name, summary, module, add_arguments, main), in the order of
    COMMAND_MODULES."""
    import importlib

    out = []
    for path in COMMAND_MODULES:
        mod = importlib.import_module(path)
        out += [(name, summary, mod, add, run) for name, summary, add, run in declared(mod)]
    return out


def version_text():
    from importlib.metadata import version, PackageNotFoundError
    from referee import FW_VERSION, PROTO_VERSION

    try:
        v = version("fleetref")
    except PackageNotFoundError:
        v = FW_VERSION
    return "fleetref %s (firmware %s, serial protocol %d)" % (v, FW_VERSION, PROTO_VERSION)


def _complete(cmd, parser):
    """Give ``parser`` (command ``cmd``'s, or one of its own sub-commands) the help its
    arguments were declared without (helptexts.ARG_HELP), and each sub-command of it its
    one-line help as description when it has none."""
    from host_tools.helptexts import ARG_HELP

    for a in parser._actions:
        if a.help is None and (cmd, a.dest) in ARG_HELP:
            a.help = ARG_HELP[(cmd, a.dest)]
        if isinstance(a, argparse._SubParsersAction):
            said = {c.dest: c.help for c in a._choices_actions}
            for name, sp in a.choices.items():
                if not sp.description:
                    sp.description = said.get(name)
                _complete(cmd, sp)


def parser():
    """The command line: each command with its own description (helptexts.py)."""
    from host_tools.helptexts import DESCRIPTIONS

    p = Parser(
        prog="fleetref", description=plain(__doc__), epilog=EPILOG, formatter_class=Formatter
    )
    p.add_argument("--version", action="version", version=version_text())
    sub = p.add_subparsers(
        dest="cmd",
        title="commands",
        metavar="COMMAND",
        help="the command to run (fleetref COMMAND --help tells more)",
    )
    for name, helptext, mod, add, run in commands():
        said = DESCRIPTIONS.get(name)
        sp = sub.add_parser(
            name,
            help=helptext,
            formatter_class=Formatter,
            description=textwrap.fill(" ".join(said.split()), 88) if said else plain(mod.__doc__),
        )
        add(sp)
        _complete(name, sp)
        sp.set_defaults(run=run)
    return p


def dispatch(argv=None):
    """Parse ``argv`` and run the command it names; its exit status."""
    p = parser()
    args = p.parse_args(argv)
    if getattr(args, "run", None) is None:
        p.print_help()
        return 0
    try:
        return args.run(args)
    except SystemExit as e:
        if isinstance(e.code, str):  # a command's one-line refusal: said, and exit 2 as
            print(e.code, file=sys.stderr)  # every other refusal of the CLI
            return 2
        raise


def stdout_closed():
    """True when nothing reads this process's standard output any more (``| head`` has
    ended: the pipe's reading end is closed)."""
    import select

    try:
        poll = select.poll()
        poll.register(sys.stdout.fileno(), select.POLLOUT)
        return any(ev & (select.POLLERR | select.POLLHUP) for _fd, ev in poll.poll(0))
    except (AttributeError, ValueError, OSError):
        return True


def main(argv=None):
    """The command line; a reader of the output that stops early (``fleetref ... | head``)
    ends the command quietly: no traceback, exit status 1."""
    try:
        try:
            return dispatch(argv)
        finally:
            if sys.stdout is not None:
                sys.stdout.flush()  # a closed pipe shows here, not at the interpreter's exit
    except BrokenPipeError as e:
        if not stdout_closed():  # another pipe (not the output's): say it in one line
            print("fleetref: %s" % (e.strerror or e), file=sys.stderr)
            return 2
        # the output's reader has gone: what is still buffered goes nowhere, without a word
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
        except (AttributeError, ValueError, OSError):
            pass
        return 1


if __name__ == "__main__":
    sys.exit(main())
