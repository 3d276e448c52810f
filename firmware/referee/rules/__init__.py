"""The rulesets: one module each in this folder, imported only when a game uses it (the Pico's
heap holds the bytecode of what is imported). A new ruleset is one module (a class ``Rules``
built on rules.base.Ruleset), one line below, its rosters in firmware/rosters and its tests.
"""

# name -> module in referee/rules/ (one line per ruleset)
RULESETS = {
    "swsb": "swsb",                    # seed 000: Star Wars Starship Battles, May 2007 errata
    "swsb-addon": "swsb_addon",        # seed 001: the fan add-on rules
    "squadrons-d6": "squadrons_d6",    # seed 002: fan squadron game on WEG D6 stats
    "xwing-overlap": "xwing_overlap",  # seed 003: X-Wing Miniatures overlap rules
    "smb": "smb",                      # seed 004: fan Starwars Miniatures Battlegame
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
