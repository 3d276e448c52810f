"""Scenario and roster files: ``<dir>/<name>.json`` on the board (``/rosters``) and in the
repository (``firmware/rosters``). See roster.py for the format."""

import json

from referee import roster, rules


def load_text(text, ruleset=None, settings=None):
    """Parse and validate roster JSON ``text`` (str). Returns ``(normalised, raw_dict)``.

    ``ruleset`` (str) overrides the roster's own, ``settings`` (dict) its settings
    (:func:`with_settings`). Raises roster.RosterError (a ValueError) with a clear message on
    bad JSON or bad fields, ValueError naming a setting the ruleset does not take.
    """
    try:
        raw = json.loads(text)
    except Exception as e:
        raise roster.RosterError("roster is not valid JSON: %s" % e)
    return load_raw(raw, ruleset, settings)


def with_settings(raw, settings):
    """Roster ``raw`` with ``settings`` (dict: setting name -> integer) over its own settings,
    so any scenario can be played with, say, time banks (``clock_s``); the ruleset then checks
    every name and value as it does the roster's own. Returns ``raw`` (changed in place: the
    game line and the journal carry the settings played with)."""
    if settings is None or not isinstance(raw, dict):
        return raw
    if not isinstance(settings, dict):
        raise roster.RosterError("settings must be an object of setting names and integers")
    own = raw.get("settings", {})
    if isinstance(own, dict):  # (else roster.validate says what is wrong)
        own = dict(own)
        own.update(settings)
        raw["settings"] = own
    return raw


def load_raw(raw, ruleset=None, settings=None):
    """As :func:`load_text` for a roster already parsed (``raw``: the JSON value; its
    "ruleset" is set to ``ruleset`` when given, its settings updated with ``settings``).
    Saves the board a second copy of the roster in RAM when it arrives inside a command.
    Raises roster.RosterError."""
    if ruleset is not None and isinstance(raw, dict):
        raw["ruleset"] = ruleset
    with_settings(raw, settings)
    norm = roster.validate(raw, rules.RULESETS)
    rs = rules.get(norm["ruleset"])
    rs.settings(norm["settings"])  # raises on bad settings
    try:
        rs.check_roster(norm)  # the stats, victory conditions and extras it reads
    except ValueError as e:
        raise roster.RosterError(str(e))
    return norm, raw


def path_of(name, base):
    """File path of scenario ``name`` in directory ``base``. Raises ValueError on bad names."""
    if not name or "/" in name or "\\" in name or name.startswith(".") or len(name) > 63:
        raise ValueError(
            "bad scenario name %r (a file name on the board: at most 63 "
            "characters, no / or \\, not starting with .)" % name[:80]
        )
    return base + "/" + name + ".json"


def read(name, base):
    """Read scenario ``name`` from ``base``: returns its text. Raises ValueError naming the
    scenarios there when it is missing (OSError when the flash fails otherwise)."""
    try:
        f = open(path_of(name, base))
    except OSError as e:
        if e.args and e.args[0] == 2:  # ENOENT
            raise ValueError(
                "no scenario %r on the board (it has: %s)"
                % (name, ", ".join(list_names(base)) or "none")
            )
        raise OSError(
            e.args[0] if e.args else 5, "cannot read scenario %r from the board's flash" % name
        )
    with f:
        return f.read()


def list_names(base):
    """Sorted scenario names (files ``*.json``) in directory ``base``."""
    import os

    out = []
    for f in os.listdir(base):
        if f.endswith(".json") and not f.startswith("."):
            out.append(f[:-5])
    out.sort()
    return out
