"""Where the repository's firmware, rosters and board profiles are (the folders themselves are
named in host_tools/__init__.py), and reading the board profiles and roster files a user names."""

import os
import sys

from host_tools import BOARDS, DEFAULT_BOARD, FIRMWARE, ROOT, ROSTERS  # (paths.ROOT, ...)


def fleetref_argv(*args):
    """The command line (list of str) that runs ``fleetref ARGS`` from this checkout with the
    running Python: the simulator, benchmarks and tests start the command through it."""
    return [sys.executable, "-m", "host_tools.cli", *args]


def headless_sim_argv(scenario, seed, *args):
    """``fleetref sim --headless --scenario SCENARIO --seed SEED ARGS`` as fleetref_argv."""
    return fleetref_argv("sim", "--headless", "--scenario", scenario, "--seed", str(seed), *args)


def board_names():
    """The board profiles' names (boards/<name>.json), sorted."""
    return sorted(f[:-5] for f in os.listdir(BOARDS) if f.endswith(".json"))


def board_profile(name=DEFAULT_BOARD):
    """Load board profile ``name`` (file boards/<name>.json). Raises SystemExit with the known
    names when there is no such board."""
    import json

    path = os.path.join(BOARDS, name + ".json")
    if not os.path.exists(path):
        from host_tools import names

        raise SystemExit("fleetref: " + names.unknown("board profile", name, board_names()))
    with open(path) as f:
        return json.load(f)


def load_roster_file(path):
    """Read a roster file (.json or .toml) and return its text as JSON (str).

    Raises SystemExit with a clear message when the file is missing or not parseable.
    """
    import json

    from host_tools import userfiles

    try:
        if path.endswith(".toml"):
            import tomllib

            data = tomllib.loads(userfiles.read_text(path))
            text = json.dumps(data)
        else:
            text = userfiles.read_text(path)
            data = json.loads(text)
    except userfiles.FileRefused as e:
        raise SystemExit("fleetref: roster file %s" % e)
    except FileNotFoundError:
        from host_tools import names

        try:
            names.check_roster_file(path)
        except names.NameError_ as e:
            raise SystemExit("fleetref: %s" % e)
        raise SystemExit("fleetref: roster file %s not found" % path)
    except Exception as e:
        raise SystemExit(
            "fleetref: roster file %s is not valid %s: %s"
            % (path, "TOML" if path.endswith(".toml") else "JSON", e)
        )
    check_roster_size(path, data)
    return text


def check_roster_size(path, data):
    """SystemExit (one line) when roster ``data`` is longer as one serial line than a board
    takes (docs/protocol.md: lines up to protocol.MAX_ROSTER bytes for a roster)."""
    from referee import protocol

    size = len(protocol.encode(data))
    if size > protocol.MAX_ROSTER:
        raise SystemExit(
            "fleetref: roster file %s is %d bytes as one line; a board takes "
            "rosters up to %d (its serial lines are at most %d): shorten the "
            "notes and abilities texts" % (path, size, protocol.MAX_ROSTER, protocol.MAX_LINE)
        )


def firmware_modules(pkg):
    """The .py files of firmware package ``pkg`` and its subpackages (e.g. referee/rules), as
    paths relative to firmware/ with "/" ("referee/rules/smb.py"), sorted."""
    out = []
    for dirpath, dirs, files in os.walk(os.path.join(FIRMWARE, pkg)):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for f in files:
            if f.endswith(".py"):
                out.append(
                    os.path.relpath(os.path.join(dirpath, f), FIRMWARE).replace(os.sep, "/")
                )
    return sorted(out)
