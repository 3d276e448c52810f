"""Fleet rosters: validation of the data that sets up a game.

A roster is a dict (JSON on the board; JSON or TOML on the laptop)::

    {"name": str, "ruleset": a name in referee.rules.RULESETS, "source": str (optional),
     "settings": {name: int} (optional, see the profile's SETTINGS),
     "sides": [{"name": str, "ships": [SHIP, ...]}, {"name": ..., "ships": [...]}]}

    SHIP = {"name": str (1-24 chars),
            "class": int 1-4 (seed 000 / digest 2.1: 1 flagship .. 4 starfighter),
            "hp": int or [X, Y] (X/Y as on the card: damaged once X is used, destroyed at X+Y;
                  digest 2.2), or the hits that destroy it,
            "cc": int >= 0 (command counters on the card, default 0),
            "launched": bool (default true; false = a fighter still aboard/in the pool),
            "carrier": str (optional, the name of the ship on the same side that launches it),
            "count": int (optional, adds that many copies, numbered "Name 1", "Name 2", ...),
            "stats": dict (optional, the ruleset's own stats: its STAT_KEYS)}

Errors raise :class:`RosterError` whose message names the field, e.g.
``sides[1].ships[2].hp: must be an int >= 1 or [X, Y]``. Validation builds a new dict and
never changes its input.
"""

MAX_SHIPS = 96  # ship indices fit a byte with 255 kept for "none"
MAX_NAME = 24
MAX_HP = 99
MAX_CC = 20
MAX_STAT = 99  # defense, attack, bonuses, speed...: two-digit card values
MAX_COST = 9999  # a card's point cost (digest 2.1): up to the largest point limit


class RosterError(ValueError):
    pass


def _stat_int(v, where, lo=0, hi=MAX_STAT):
    return _int(v, where, lo, hi)


def _cost(v, where):
    return _int(v, where, 0, MAX_COST)


def _defense(v, where):
    if isinstance(v, list):
        if len(v) != 3:
            raise _e(where, "must be an integer 0..%d or [front, side, rear]" % MAX_STAT)
        for k in range(3):
            _stat_int(v[k], "%s[%d]" % (where, k))
    else:
        _stat_int(v, where)


def _dice(v, where):
    if isinstance(v, int) and not isinstance(v, bool):
        return _stat_int(v, where)
    if isinstance(v, str) and len(v) <= 8:
        t = v.upper().split("D")
        if len(t) == 2 and t[0].strip().isdigit():
            return v
    raise _e(where, 'must be a die code like "4D+1" or an integer')


def _damaged(v, w):
    """``damaged``: the card's damaged side, an object of defense, attack and pd."""
    if not isinstance(v, dict):
        raise _e(w, "must be an object (the card's damaged side)")
    for dk in v:
        if dk == "defense":
            _defense(v[dk], w + ".defense")
        elif dk in ("attack", "pd"):
            _stat_int(v[dk], w + "." + dk)
        else:
            raise _e(w, "unknown field %r (defense, attack, pd)" % dk)


def _weapons(v, w):
    """``weapons``: at most 8 objects with text ``kind`` and ``name`` and a ``bonus`` of
    -99..99."""
    if not isinstance(v, list) or len(v) > 8:
        raise _e(w, "must be a list of at most 8 weapons")
    for j in range(len(v)):
        wp = v[j]
        ww = "%s[%d]" % (w, j)
        if not isinstance(wp, dict):
            raise _e(ww, "must be an object")
        if not isinstance(wp.get("kind", ""), str) or not isinstance(wp.get("name", ""), str):
            raise _e(ww, "kind and name must be text")
        if "bonus" in wp:
            _int(wp["bonus"], ww + ".bonus", -MAX_STAT, MAX_STAT)


def _abilities(v, w):
    """``abilities``: at most 16 texts of at most 200 characters."""
    if not isinstance(v, list) or len(v) > 16:
        raise _e(w, "must be a list of texts")
    for j in range(len(v)):
        if not isinstance(v[j], str) or len(v[j]) > 200:
            raise _e("%s[%d]" % (w, j), "must be a text of at most 200 characters")


def _size(v, w):
    """``size``: small, large or huge."""
    if v not in ("small", "large", "huge"):
        raise _e(w, "must be small, large or huge")


def _squadron(v, w):
    """``squadron``: a name (1..40 characters) or a number."""
    if not (isinstance(v, str) and 0 < len(v) <= 40) and (
        isinstance(v, bool) or not isinstance(v, int)
    ):
        raise _e(w, "must be a name or a number")


def _text(v, w):
    """A text of at most 200 characters (``type``, ``zone``, ``note``, ``name``)."""
    if not isinstance(v, str) or len(v) > 200:
        raise _e(w, "must be a text of at most 200 characters")


# the shared card values of ``stats`` (the texts last) and the name of the function
# (of this module) that checks each, at the same index: constant tuples of names, not of
# functions, so the table stays in flash
CARD_STATS = (
    "defense",
    "attack",
    "pd",
    "speed",
    "space",
    "damaged",
    "weapons",
    "abilities",
    "piloting",
    "maneuverability",
    "size",
    "squadron",
    "cost",
    "type",
    "zone",
    "note",
    "name",
)
CARD_CHECKS = (
    "_defense",
    "_stat_int",
    "_stat_int",
    "_stat_int",
    "_stat_int",
    "_damaged",
    "_weapons",
    "_abilities",
    "_dice",
    "_dice",
    "_size",
    "_squadron",
    "_cost",
    "_text",
    "_text",
    "_text",
    "_text",
)


def _stats(st, where):
    """Check a ship's ``stats``: the shared card values (defense, attack, point defense,
    damaged side, weapons, abilities, speed, dice codes, size, squadron, cost 0..9999, texts:
    CARD_STATS) by type and range; any other key (a ruleset's own flag or number) must be
    true/false, an integer within -99..99 or a short text."""
    if not isinstance(st, dict):
        raise _e(where, "must be an object")
    for k in st:
        v = st[k]
        w = where + "." + str(k)
        if not isinstance(k, str):
            raise _e(where, "keys must be text")
        if k in CARD_STATS:
            globals()[CARD_CHECKS[CARD_STATS.index(k)]](v, w)
        elif isinstance(v, bool):  # a ruleset's flag (its module reads it by name)
            pass
        elif isinstance(v, int):
            _int(v, w, -MAX_STAT, MAX_STAT)
        elif not (isinstance(v, str) and len(v) <= 200):
            raise _e(w, "must be true/false, a text or an integer")
    return st


def _e(where, msg):
    """The RosterError for field ``where`` (callers ``raise`` it)."""
    return RosterError("%s: %s" % (where, msg))


def _int(v, where, lo, hi):
    if isinstance(v, bool) or not isinstance(v, int) or v < lo or v > hi:
        raise _e(where, "must be an integer %d..%d" % (lo, hi))
    return v


def _name(v, where):
    if not isinstance(v, str) or not v:
        raise _e(where, "must be a text of 1..%d characters" % MAX_NAME)
    if len(v) > MAX_NAME:
        raise _e(where, "longer than %d characters" % MAX_NAME)
    for ch in v:
        o = ord(ch)
        if o < 32 or 0xD800 <= o <= 0xDFFF:
            raise _e(where, "must be printable text (no control characters or lone surrogates)")
    return v


def _ship(s, where):
    """A ship's fields; the error names the ship: ``sides[1].ships[0] "Name": ...``."""
    if not isinstance(s, dict):
        raise _e(where, "must be an object")
    nm = s.get("name")
    if isinstance(nm, str):
        t = nm[:40]
        for ch in t:
            if ord(ch) < 32 or 0xD800 <= ord(ch) <= 0xDFFF:
                t = "?"
        where = '%s "%s"' % (where, t)
    try:
        return _ship_fields(s, where)
    except RosterError as e:
        m = str(e)
        if m.startswith(where + "."):  # sides[1].ships[0] "X": name longer than ...
            m = where + ": " + m[len(where) + 1 :].replace(": ", " ", 1)
        raise RosterError(m)


def _ship_fields(s, where):
    for k in s:
        if k not in ("name", "class", "hp", "cc", "launched", "carrier", "count", "stats", "note"):
            raise _e(where, "unknown field %r" % k)
    if "name" not in s:
        raise _e(where + ".name", "is missing")
    name = _name(s["name"], where + ".name")
    if "class" not in s:
        raise _e(where + ".class", "is missing")
    cls = _int(s["class"], where + ".class", 1, 4)
    if "hp" not in s:
        raise _e(where + ".hp", "is missing")
    hp = s["hp"]
    if isinstance(hp, list) and len(hp) == 2:
        x = _int(hp[0], where + ".hp[0]", 1, MAX_HP)
        y = _int(hp[1], where + ".hp[1]", 0, MAX_HP)
    elif isinstance(hp, int) and not isinstance(hp, bool):
        x = _int(hp, where + ".hp", 1, MAX_HP)
        y = 0
    else:
        raise _e(where + ".hp", "must be an int >= 1 or [X, Y]")
    cc = _int(s.get("cc", 0), where + ".cc", 0, MAX_CC)
    launched = s.get("launched", True)
    if not isinstance(launched, bool):
        raise _e(where + ".launched", "must be true or false")
    if not isinstance(s.get("note", ""), str):
        raise _e(where + ".note", "must be text")
    carrier = s.get("carrier")
    if carrier is not None:
        _name(carrier, where + ".carrier")
    stats = _stats(s.get("stats", {}), where + ".stats")
    count = _int(s.get("count", 1), where + ".count", 1, MAX_SHIPS)
    out = []
    for k in range(count):
        nm = name if count == 1 else "%s %d" % (name, k + 1)
        if len(nm) > MAX_NAME:
            raise _e(where + ".name", "too long once numbered")
        out.append(
            {
                "name": nm,
                "class": cls,
                "hp": [x, y],
                "cc": cc,
                "launched": launched,
                "carrier": carrier,
                "stats": stats,
            }
        )
    return out


ROSTER_FIELDS = ("name", "ruleset", "source", "settings", "sides", "note", "victory", "extras")


def validate(r, known_rulesets=None):
    """Check roster ``r`` (dict) and return a normalised copy.

    In the copy every ship has all fields; ``count`` is expanded; ``carrier`` becomes the global
    ship index (int, or -1). ``known_rulesets``: optional collection of valid ruleset names.
    Raises RosterError with the path of the first bad field.
    """
    name, ruleset, settings = _head(r, known_rulesets)
    out_sides = _sides(r.get("sides"))
    _carriers(out_sides)
    return {
        "name": name,
        "ruleset": ruleset,
        "source": r.get("source", ""),
        "settings": settings,
        "sides": out_sides,
        "victory": _victory(r.get("victory", [])),
        "extras": _extras(r.get("extras", {})),
    }


def _head(r, known_rulesets):
    """The roster's own fields before its sides: (name, ruleset, settings)."""
    if not isinstance(r, dict):
        raise _e("roster", "must be an object")
    for k in r:
        if k not in ROSTER_FIELDS:
            raise _e("roster", "unknown field %r" % k)
    for k in ("source", "note"):
        if not isinstance(r.get(k, ""), str):
            raise _e(k, "must be text")
    name = _name(r.get("name", "game"), "name")
    ruleset = r.get("ruleset")
    if not isinstance(ruleset, str):
        raise _e("ruleset", "is missing")
    if known_rulesets is not None and ruleset not in known_rulesets:
        raise _e("ruleset", "unknown ruleset %r" % ruleset)
    settings = r.get("settings", {})
    if not isinstance(settings, dict):
        raise _e("settings", "must be an object")
    return name, ruleset, settings


def _sides(sides):
    """The two sides, their ships checked and ``count`` expanded: [{name, ships}, ...]."""
    if not isinstance(sides, list) or len(sides) != 2:
        raise _e("sides", "must be a list of exactly 2 sides")
    out_sides = []
    total = 0
    for si in range(2):
        side = sides[si]
        w = "sides[%d]" % si
        if not isinstance(side, dict):
            raise _e(w, "must be an object")
        sname = _name(side.get("name", "Side %d" % (si + 1)), w + ".name")
        ships = side.get("ships")
        if not isinstance(ships, list) or not ships:
            raise _e(w + ".ships", "must be a non-empty list")
        out = []
        for j in range(len(ships)):
            out.extend(_ship(ships[j], "%s.ships[%d]" % (w, j)))
        total += len(out)
        out_sides.append({"name": sname, "ships": out})
    if total > MAX_SHIPS:
        raise _e("sides", "at most %d ships in a game (has %d)" % (MAX_SHIPS, total))
    return out_sides


def _carriers(out_sides):
    """Names unique within a side (carriers are found by name); each ship's ``carrier``
    becomes the carrier's index in the game (-1: none)."""
    base = 0
    for si in range(2):
        ships = out_sides[si]["ships"]
        index = {}
        for j in range(len(ships)):
            nm = ships[j]["name"]
            if nm in index:
                raise _e("sides[%d].ships" % si, "two ships are named %r" % nm)
            index[nm] = base + j
        for j in range(len(ships)):
            c = ships[j]["carrier"]
            w = "sides[%d].ships[%d].carrier" % (si, j)
            if c is None:
                ships[j]["carrier"] = -1
            else:
                if c not in index:
                    raise _e(w, "no ship %r on this side" % c)
                if index[c] == base + j:
                    raise _e(w, "a ship cannot carry itself")
                ships[j]["carrier"] = index[c]
        base += len(ships)


def _victory(v):
    """The roster's ``victory`` conditions (what the ruleset reads), checked for shape."""
    if not isinstance(v, list):
        raise _e("victory", "must be a list of conditions")
    for k in range(len(v)):
        c = v[k]
        if (
            not isinstance(c, dict)
            or c.get("side") not in (0, 1)
            or not isinstance(c.get("when"), str)
        ):
            raise _e("victory[%d]" % k, "needs side 0/1 and when (a word the ruleset knows)")
        if not isinstance(c.get("text", ""), str):
            raise _e("victory[%d].text" % k, "must be text")
    return v


def _extras(ex):
    """The roster's ``extras``: what the ruleset reads (rules.base.Ruleset.check_roster)."""
    if not isinstance(ex, dict):
        raise _e("extras", "must be an object")
    return ex
