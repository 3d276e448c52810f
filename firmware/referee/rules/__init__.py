"""The rulesets: one module each in this folder, imported only when a game uses it (the Pico's
heap holds the bytecode of what is imported). A new ruleset is one module (a class ``Rules``
built on rules.base.Ruleset), one line below, its rosters in firmware/rosters and its tests.
"""

# name -> module in referee/rules/ (one line per ruleset)
RULESETS = {
    "swsb": "swsb",  # seed 000: Star Wars Starship Battles, May 2007 errata
    "swsb-addon": "swsb_addon",  # seed 001: the fan add-on rules
    "squadrons-d6": "squadrons_d6",  # seed 002: fan squadron game on WEG D6 stats
    "xwing-overlap": "xwing_overlap",  # seed 003: X-Wing Miniatures overlap rules
    "smb": "smb",  # seed 004: fan Starwars Miniatures Battlegame
}
_loaded = {}


def get(name):
    """Return the ruleset called ``name``. Raises ValueError listing the known names."""
    p = _loaded.get(name)
    if p is not None:
        return p
    mod = RULESETS.get(name)
    if mod is None:
        raise ValueError("unknown ruleset %r (known: %s)" % (name, ", ".join(sorted(RULESETS))))
    m = __import__("referee.rules." + mod, None, None, ["Rules"])
    p = m.Rules()
    _loaded[name] = p
    return p


def release(keep):
    """Let the rulesets not named in ``keep`` (names of rulesets in use) go: their objects,
    their modules and their helper modules (``module_*``) leave the registry and
    ``sys.modules``, so once no game refers to them the heap gets back what importing them
    took (a ruleset's classes and functions live in RAM even with its bytecode in flash: about
    2 KB each). A later :func:`get` imports it again. Returns the module names let go."""
    import sys

    used = [RULESETS[n] for n in keep if n in RULESETS]
    for name in list(_loaded):
        if name not in keep:
            del _loaded[name]
    pkg = sys.modules.get("referee.rules")
    gone = []
    for key in list(sys.modules):
        if not key.startswith("referee.rules."):
            continue
        mod = key[len("referee.rules.") :]
        if mod in used or mod == "base" or _helper_of(mod, used):
            continue
        del sys.modules[key]
        gone.append(mod)
        if pkg is not None:
            try:
                delattr(pkg, mod)
            except (AttributeError, TypeError):
                pkg.__dict__.pop(mod, None)
    return gone


def _helper_of(mod, used):
    for u in used:
        if mod.startswith(u + "_") and mod not in tuple(RULESETS.values()):
            return True
    return False
