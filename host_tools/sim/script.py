"""Key-press scripts for the simulator (format in docs/script.md).

A script is text: tokens separated by spaces or new lines, ``#`` starts a comment.

- an action name (``sel+``, ``dmg+``, ``phase``, ...; long-press actions such as ``page+``
  press the key that has it as its long press): one key press;
- ``K<n>`` / ``K<n>~``: a short / long press of key index n (row-major on the pad);
- ``select <ship name>``: presses ``sel+`` until that ship is selected (underscores in the
  name stand for spaces);
- ``dice <a> <b>``: enters physical initiative dice a (side 0) and b (side 1) with the keys
  (``enter``, ``dmg+``/``dmg-``/``sel+``/``sel-``, ``enter``, ..., ``enter``);
- ``wait <ms>``: pause.
"""

from referee.app import ACTIONS


class ScriptError(ValueError):
    pass


def parse(text):
    """Parse script ``text`` into a list of steps: ("key", action) | ("raw", index, long) |
    ("select", name) | ("dice", a, b) | ("wait", ms). Raises ScriptError naming the line."""
    steps = []
    for lineno, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0]
        toks = line.split()
        i = 0
        while i < len(toks):
            t = toks[i]
            where = "script line %d: " % lineno
            if t in ACTIONS:
                steps.append(("key", t))
            elif t[0] in "Kk" and t[1:].rstrip("~").isascii() and t[1:].rstrip("~").isdigit():
                steps.append(("raw", int(t[1:].rstrip("~")), t.endswith("~")))
            elif t in ("select", "wait", "dice"):
                need = 2 if t == "dice" else 1
                args = toks[i + 1 : i + 1 + need]
                if len(args) < need:
                    raise ScriptError(where + "%s needs %d argument(s)" % (t, need))
                i += need
                if t == "select":
                    steps.append(("select", args[0].replace("_", " ")))
                else:
                    try:
                        nums = [int(a) for a in args]
                    except ValueError:
                        raise ScriptError(where + "%s takes numbers" % t)
                    if t == "dice":
                        if not all(1 <= v <= 20 for v in nums):
                            raise ScriptError(where + "a d20 shows 1..20")
                        steps.append(("dice", nums[0], nums[1]))
                    else:
                        steps.append(("wait", nums[0]))
            else:
                raise ScriptError(where + "unknown token %r" % t)
            i += 1
    return steps


def read(path):
    """The steps of the script file at ``path`` (:func:`parse`). Raises ScriptError when it
    cannot be read or is not UTF-8 text."""
    from host_tools import userfiles

    try:
        return parse(userfiles.read_text(path))
    except OSError as e:
        raise ScriptError("cannot read script: %s" % e)
    except userfiles.FileRefused as e:
        raise ScriptError(str(e))
    except UnicodeDecodeError:
        raise ScriptError("%s is not UTF-8 text (a key script: docs/script.md)" % path)


def _adjust(v, target):
    """Key actions that move the entry value from v to target (entry starts at 10)."""
    out = []
    d = target - v
    while d >= 5:
        out.append("sel+")
        d -= 5
    while d <= -5:
        out.append("sel-")
        d += 5
    out += ["dmg+"] * d if d > 0 else ["dmg-"] * (-d)
    return out


def ship_index(names, name):
    """The index of ship ``name`` in ``names``: its exact name, else the one name that
    differs only in upper and lower case. Raises ScriptError naming the ships there are."""
    if name in names:
        return names.index(name)
    low = [i for i, n in enumerate(names) if n.lower() == name.lower()]
    if len(low) == 1:
        return low[0]
    raise ScriptError(
        "select: no ship named %r (the ships: %s)"
        % (name, ", ".join(n.replace(" ", "_") for n in names))
    )


def check_keys(steps, n):
    """Raise ScriptError when a ``K<n>`` step names a key the board (``n`` keys) lacks."""
    for st in steps:
        if st[0] == "raw" and not 0 <= st[1] < n:
            raise ScriptError("K%d: this board's keys are K0..K%d" % (st[1], n - 1))


def expand(step, app):
    """The key actions (list of str) or raw presses for one step, given the app's state now.
    Raises ScriptError when a ``select`` names no ship."""
    kind = step[0]
    if kind == "key":
        return [step[1]]
    if kind == "dice":
        return ["enter"] + _adjust(10, step[1]) + ["enter"] + _adjust(10, step[2]) + ["enter"]
    if kind == "select":
        g = app.game
        target = ship_index(g.names, step[1])
        n = (target - app.pad.cursor) % g.n
        return ["sel+"] * n
    return []


async def play(steps, app, keys, keymap, pace_ms, rejected):
    """Press the keys of ``steps`` one at a time through the key driver (``keys``: push and
    busy, host_tools/sim/virtual.QueueKeys), ``pace_ms`` apart; each refusal is appended to
    ``rejected`` as {"key", "msg"}. Raises ScriptError when a ``select`` names no ship."""
    from referee.loop import sleep_ms

    for step in steps:
        if step[0] == "wait":
            await sleep_ms(step[1])
            continue
        if step[0] == "raw":
            presses = [(step[1], step[2])]
        else:
            presses = [keymap.find(a) for a in expand(step, app)]
        for idx, is_long in presses:
            before = app.error_until, app.error_text
            keys.push(idx, is_long)
            while keys.busy():
                await sleep_ms(1)
            await sleep_ms(3)
            if (app.error_until, app.error_text) != before and app.error_text:
                rejected.append({"key": keymap.action(idx, is_long), "msg": app.error_text})
            if pace_ms:
                await sleep_ms(pace_ms)
