"""Rosters for the tests, written one ship a line: ``ship`` builds a ship's entry and
``two_sides`` the roster of two sides around them, as docs/rosters.md describes a roster file."""


def ship(name, cls, hp, stats=None, **more):
    """A ship's entry: ``name``, ``class`` ``cls``, ``hp`` (a number, or [front, back]), then
    ``more`` (``cc``, ``count``, ``launched``, ``carrier``, ... in the order given) and its
    ``stats`` (a dict; no ``stats`` when None)."""
    entry = {"name": name, "class": cls, "hp": hp, **more}
    if stats is not None:
        entry["stats"] = stats
    return entry


def two_sides(name, ruleset, first, second, sides=("Light Side", "Dark Side"), **more):
    """A roster named ``name`` of ``ruleset``: side 0 (``sides[0]``) has the ships ``first``,
    side 1 the ships ``second``; ``more``: its other fields (as ``settings``)."""
    return {
        "name": name,
        "ruleset": ruleset,
        "sides": [
            {"name": sides[0], "ships": first},
            {"name": sides[1], "ships": second},
        ],
        **more,
    }


def capital_duel(name, empire_ship, rebel_ship, defense, guns):
    """An smb roster (seed 004) ``name`` of one capital ship a side, the Empire's
    ``empire_ship`` and the Rebels' ``rebel_ship``: each class 2, 1 hit, speed 2, defense
    ``defense`` ([front, side, rear]) and one capital weapon ``guns`` of +5."""
    stats = {
        "type": "capital",
        "speed": 2,
        "defense": defense,
        "weapons": [{"name": guns, "kind": "capital", "bonus": 5}],
    }
    return two_sides(
        name,
        "smb",
        [ship(empire_ship, 2, 1, stats)],
        [ship(rebel_ship, 2, 1, dict(stats))],
        sides=("Empire", "Rebels"),
    )
