"""The scenario rules of seed 004 (``004_e5d94d5ce87da14f.txt``) the smb ruleset applies:
Escape from Hoth's Ion Cannon and exit, Attack on the Death Star's target port, and the
victory conditions of the roster. Functions of (rules, game, ...) called by rules/smb.py."""

from referee.fleet import F_LAUNCHED

# Seed 004's ability texts (the scenario tables) -> the roster stat that enforces each
# (referee/roster_hints.py warns of a text whose ship lacks the stat).
ABILITY_STATS = (
    ("unwieldy", "max_turns"),
    ("only make 1 turn", "max_turns"),
    ("cannot be damaged by snub", "no_snub_damage"),
    ("against snub", "snub_defense"),
    ("fighter attack move", "fighter_attack_move"),
    ("immune to", "immune_to_rapid"),
    ("fast:", "speed"),
)


def check_ion(rules, g, a, b, c):
    """Seed 004 "The Ion Cannon" (Escape from Hoth): "The Ion Cannon may fire up to two
    bursts from the planet. It fires at +16 (as a capital weapon)"."""
    from referee.rules.smb_defs import CAPITAL_PHASE, X_BURSTS, K_FIGHTER

    ion = g.extras.get("ion_cannon")
    if not isinstance(ion, dict):
        return "this scenario has no Ion Cannon"
    r = g.ship(a)
    if r:
        return r
    if g.phase != CAPITAL_PHASE:
        return "the Ion Cannon fires as a capital weapon, in the capital weapons phase"
    if g.side[a] == ion.get("side", 1):
        return "the Ion Cannon fires at the enemy"
    if g.game_state[X_BURSTS] >= ion.get("bursts", 2):
        return "the Ion Cannon has fired its %d bursts this round" % ion.get("bursts", 2)
    if rules.kind(g, a, K_FIGHTER):
        return "capital weapons cannot target fighters"
    if not 1 <= b <= 20 or not 0 <= c <= 2:
        return "ion: a d20 roll and the facing (0 front, 1 side, 2 rear)"
    if rules.defense(g, a, c) == 255 or not g.in_play(a):
        return "%s cannot be targeted" % g.names[a]
    return None


def check_exit(rules, g, a, b, c):
    """Leaving by the far table edge (Hoth: "exit the Transport from the opposite table
    edge") is a move: in the movement phase, not for an ionized ship. The target port is the
    aim of the side the roster's ``port`` condition names."""
    from referee.rules.smb_defs import MOVING, ION_NOW, MOVED, X_LAST

    r = g.ship(a)
    if r:
        return r
    if b not in (1, 2) or c:
        return "exit kinds: 1 left by the table edge, 2 hit the target port"
    if g.phase != MOVING:
        return "ships leave the table or reach the port in the movement phase"
    if not g.in_play(a):
        return "%s is not on the table" % g.names[a]
    if g.rule_flags[a] & ION_NOW:
        return "%s is ionized: it cannot move this round" % g.names[a]
    if b == 1:
        if not g.rule_flags[a] & MOVED:
            return rules.check_order(g, a)  # leaving the table is its move
        if g.game_state[X_LAST] != a + 1:
            return "%s leaves the table in its own move (it has moved already)" % g.names[a]
    if b == 2:
        sides = [v["side"] for v in g.victory if v["when"] == "port"]
        if g.side[a] not in sides:
            from referee.texts import possessive  # (a refusal: the texts load only now)

            return "the target port is %s aim" % (
                "no side's" if not sides else "the " + possessive(g.side_names[sides[0]])
            )
    return None


def apply_ion(rules, g, a, b, c):
    """The Ion Cannon fired at ship a with the d20 ``b`` at facing ``c``."""
    from referee.rules.smb_defs import X_BURSTS, K_CAPITAL, ION_NEXT

    ion = g.extras.get("ion_cannon")
    need = rules.defense(g, a, c)
    total = b + ion.get("bonus", 16)
    hit = rules.d20_hit(g, b, total, need)
    g.game_state[X_BURSTS] += 1
    g.game_state[0] = 1 if hit else 2
    g.game_state[1] = b
    g.game_state[2] = min(total, 255)
    if hit and rules.kind(g, a, K_CAPITAL):
        g.rule_flags[a] |= ION_NEXT


def apply_exit(rules, g, a, b):
    """Ship a left by the far edge (b 1) or hit the target port (b 2)."""
    from referee.rules.smb_defs import EXITED, X_PORT, MOVED, X_LAST

    if b == 1:
        g.rule_flags[a] |= EXITED | MOVED
        g.game_state[X_LAST] = a + 1
        g.flags[a] &= ~F_LAUNCHED & 255
    else:
        g.game_state[X_PORT] = g.side[a] + 1


def winner(rules, g):
    """Seed 004 Victory: the Empire by destroying the Troop Transport, the Rebels by its
    exit from the opposite table edge (whatever leaves later); the target port when the
    roster makes it a condition."""
    from referee.rules.smb_defs import EXITED, X_PORT

    for v in g.victory:
        w = v["when"]
        idx = g.index(v.get("ship"))
        if w == "destroyed" and idx >= 0 and g.destroyed(idx):
            return v["side"]
        if w == "exited" and idx >= 0 and g.rule_flags[idx] & EXITED:
            return v["side"]
        if w == "port" and g.game_state[X_PORT] == v["side"] + 1:
            return v["side"]
    return None


def _int_in(v, where, lo, hi):
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise ValueError("%s: must be an integer %d..%d" % (where, lo, hi))


def check_roster_values(norm, types, kinds):
    """The smb roster values the generic checks (roster.py) take by type only: the Ion
    Cannon's side, bonus and bursts (seed 004 Escape from Hoth), each ship's ``type``, weapon
    ``kind``, ``snub_defense`` and true/false flags (docs/rosters.md "smb"). ValueError naming
    the field and the ship."""
    ion = norm["extras"].get("ion_cannon")
    if ion is not None:
        if not isinstance(ion, dict) or ion.get("side") not in (0, 1):
            raise ValueError("extras.ion_cannon: needs side 0/1 (and bonus, bursts)")
        _int_in(ion.get("bonus", 16), "extras.ion_cannon.bonus", -99, 99)
        _int_in(ion.get("bursts", 2), "extras.ion_cannon.bursts", 0, 99)
    for si in range(2):
        ships = norm["sides"][si]["ships"]
        for j in range(len(ships)):
            st = ships[j]["stats"]
            w = 'sides[%d].ships[%d] "%s": stats.' % (si, j, ships[j]["name"])
            if "type" in st and st["type"] not in types:
                raise ValueError(w + "type: capital, cruiser, fighter or ship")
            if "snub_defense" in st:
                _int_in(st["snub_defense"], w + "snub_defense", -99, 99)
            for f in ("no_snub_damage", "fighter_attack_move", "immune_to_rapid"):
                if f in st and not isinstance(st[f], bool):
                    raise ValueError(w + f + ": true or false")
            for wp in st.get("weapons", ()):
                if wp.get("kind") not in kinds or not wp.get("name"):
                    raise ValueError(
                        w + "weapons: each has a name and a kind (%s)" % ", ".join(kinds)
                    )
