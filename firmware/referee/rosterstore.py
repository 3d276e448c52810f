"""Storing a custom roster on the board: the ``roster-put`` serial command
(``fleetref roster push``; docs/rosters.md, docs/protocol.md).

``{"c": "roster-put", "name": NAME, "roster": {...}}`` checks the roster exactly as a game
would load it (scenarios.load_text: every field, the ruleset's own stats and settings) and
then writes ``<rosters>/<NAME>.json`` atomically: the text goes to a hidden temporary file
first, which is renamed over the old file (littlefs and POSIX renames are atomic), so a power
cut leaves the old roster or the new one, never half of one. The pad's scenario menu lists
the folder when it opens, so the roster is in it at once. Replies ``{"t": "ok", "c":
"roster-put", "name": NAME, "replaced": bool}``; a bad roster or name gets an ``err`` line and
writes nothing. Loaded only when the command arrives.
"""

import os

from referee import protocol, scenarios

MAX_ROSTER_NAME = 24  # a roster's file name (its entry in the pad's menu), in characters


def check_name(name):
    """``name`` if it is a usable file name for a roster; ValueError otherwise."""
    if not isinstance(name, str) or not 0 < len(name) <= MAX_ROSTER_NAME:
        raise ValueError("a roster name is 1..%d characters" % MAX_ROSTER_NAME)
    for ch in name:
        if not (ch.isalpha() or ch.isdigit() or ch in "-_"):
            raise ValueError("a roster name uses letters, digits, - and _ only (%r)" % name)
    return name


def _exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


def put(base, name, roster):
    """Check ``roster`` (dict) and store it as ``<base>/<name>.json``. Returns True when it
    replaced a roster of that name. Raises ValueError (bad name or roster) or OSError (the
    flash refused the write; the old file, if any, is intact)."""
    check_name(name)
    if not isinstance(roster, dict):
        raise ValueError("roster must be an object")
    text = protocol.encode(roster)
    scenarios.load_text(text)  # refuses a roster a game could not load
    path = scenarios.path_of(name, base)
    tmp = base + "/." + name + ".tmp"
    replaced = _exists(path)
    try:
        os.mkdir(base)
    except OSError:
        pass  # exists
    with open(tmp, "w") as f:
        f.write(text)
    try:
        os.rename(tmp, path)
    except OSError:
        if not replaced:
            raise
        os.remove(path)  # a filesystem whose rename does not replace
        os.rename(tmp, path)
    return replaced


def command(app, msg):
    """The ``roster-put`` command for app.Referee ``app``."""
    name = msg.get("name")
    replaced = put(app.scenario_dir, name, msg.get("roster"))
    app._out({"t": "ok", "c": "roster-put", "name": name, "replaced": replaced})
