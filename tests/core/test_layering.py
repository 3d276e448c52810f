"""The game's layers use only what lies below them: fleet.Fleet (the state) reads and writes
only its own attributes, core_rules.CoreRules (the core rules) only its own and Fleet's, and
game.Game (the log, the window and undo) any of the three. No base class reaches for an
attribute or a method that only a subclass defines."""

import ast
import os

from tests.support import ROOT

LAYERS = (
    ("firmware/referee/fleet.py", "Fleet"),
    ("firmware/referee/core_rules.py", "CoreRules"),
    ("firmware/referee/game.py", "Game"),
)


def class_node(path, name):
    with open(os.path.join(ROOT, path)) as f:
        tree = ast.parse(f.read())
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == name:
            return node
    raise AssertionError("%s: no class %s" % (path, name))


def defined(cls):
    """The names a class defines: its methods, class attributes and every ``self.X = ...``."""
    names = set()
    for node in cls.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    for node in ast.walk(cls):
        targets = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        for t in targets:
            for sub in ast.walk(t):
                if (
                    isinstance(sub, ast.Attribute)
                    and isinstance(sub.value, ast.Name)
                    and sub.value.id == "self"
                    and isinstance(sub.ctx, ast.Store)
                ):
                    names.add(sub.attr)
    return names


def used(cls):
    """(method, attribute) for every ``self.X`` a class's methods read or call."""
    out = []
    for fn in cls.body:
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(fn):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "self"
            ):
                out.append((fn.name, node.attr))
    return out


def test_each_layer_uses_only_itself_and_the_layers_below():
    allowed = {"__class__", "__dict__"}
    bad = []
    for path, name in LAYERS:
        cls = class_node(path, name)
        allowed |= defined(cls)
        for method, attr in used(cls):
            if attr not in allowed:
                bad.append("%s.%s uses self.%s, defined only above it" % (name, method, attr))
    assert not bad, "\n".join(bad)


def test_the_check_sees_a_base_that_reaches_up():
    # the check itself: a Fleet method reading a Game attribute is caught
    src = "class Fleet:\n    def f(self):\n        self.x = 1\n        return self.event_window\n"
    cls = ast.parse(src).body[0]
    assert isinstance(cls, ast.ClassDef)
    assert ("f", "event_window") in used(cls) and "event_window" not in defined(cls)
