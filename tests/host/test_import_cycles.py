"""No two modules import each other in a circle (CONTRIBUTING.md, "Rules the tests hold you
to"), in firmware/ (the packages ``referee`` and ``drivers``, and ``main``) nor in host_tools/.
The import graph is read with ``ast``: every ``import`` and ``from ... import`` at module level
and inside functions (the firmware imports lazily inside functions on purpose, to keep the
board's heap small: such an import still makes the two modules need each other). Imports under
``if TYPE_CHECKING:`` never run and are left out. ``from package import name`` is an edge to
the submodule ``package.name`` when there is one, else to the package's ``__init__``."""

import ast
import os

import pytest

from support import ROOT

# tree -> (the folder the modules' names start from, the packages and modules in it)
TREES = {
    "firmware": ("firmware", ("referee", "drivers", "main.py")),
    "host_tools": ("", ("host_tools",)),
}
MODULE_LEVEL, IN_FUNCTION = "module level", "in a function"


def modules(base, names):
    """{dotted module name: file path} of the packages and modules ``names`` under the folder
    ``base``."""
    out = {}
    for name in names:
        path = os.path.join(base, name)
        if name.endswith(".py"):
            out[name[:-3]] = path
            continue
        for folder, dirs, files in os.walk(path):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for f in sorted(files):
                if f.endswith(".py"):
                    parts = os.path.relpath(os.path.join(folder, f), base)[:-3].split(os.sep)
                    if parts[-1] == "__init__":
                        parts.pop()
                    out[".".join(parts)] = os.path.join(folder, f)
    return out


def _targets(node, importer, is_package, mods):
    """The modules of ``mods`` that import statement ``node`` in module ``importer`` names."""
    if isinstance(node, ast.Import):
        named = [alias.name for alias in node.names]
    else:
        assert isinstance(node, ast.ImportFrom)
        base = node.module or ""
        if node.level:  # relative: from its package (a package's __init__ is its own)
            parts = importer.split(".")[: None if is_package else -1]
            parts = parts[: len(parts) - (node.level - 1)]
            base = ".".join(parts + ([node.module] if node.module else []))
        named = [
            base + "." + alias.name if base + "." + alias.name in mods else base
            for alias in node.names
        ]
    out = []
    for name in named:
        while name not in mods and "." in name:  # a name in a module: the module
            name = name.rsplit(".", 1)[0]
        if name in mods and name != importer and name not in out:
            out.append(name)
    return out


def imports(mods):
    """[(importer, imported, MODULE_LEVEL or IN_FUNCTION, line)] among the modules ``mods``."""
    edges = []

    def visit(node, importer, path, where):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                visit(child, importer, path, IN_FUNCTION)
            elif isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                visit(ast.Module(body=child.orelse, type_ignores=[]), importer, path, where)
            else:
                if isinstance(child, (ast.Import, ast.ImportFrom)):
                    is_package = path.endswith("__init__.py")
                    for target in _targets(child, importer, is_package, mods):
                        edges.append((importer, target, where, child.lineno))
                visit(child, importer, path, where)

    for name, path in mods.items():
        with open(path, encoding="utf-8") as f:
            visit(ast.parse(f.read(), filename=path), name, path, MODULE_LEVEL)
    return edges


def cycles(mods, edges):
    """The circles of ``edges``: each a sorted list of the modules that all reach each other
    (the strongly connected components of more than one module; Tarjan, iterative)."""
    after = {name: sorted({b for a, b, _w, _l in edges if a == name}) for name in mods}
    index, low, stack, on_stack, out = {}, {}, [], set(), []
    for root in sorted(mods):
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            nexts = after[node]
            if i < len(nexts):
                work.append((node, i + 1))
                nxt = nexts[i]
                if nxt not in index:
                    work.append((nxt, 0))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    out.append(sorted(component))
    return sorted(out)


def describe(found, edges):
    """Each circle with the imports inside it, the ones in a function marked."""
    lines = []
    for circle in found:
        lines.append("circle of %s:" % ", ".join(circle))
        seen = set()
        for a, b, where, line in sorted(edges):
            if a in circle and b in circle and (a, b, where) not in seen:
                seen.add((a, b, where))
                lines.append("    %s imports %s (%s, line %d)" % (a, b, where, line))
    return "\n".join(lines)


def graph(tree):
    base, names = TREES[tree]
    mods = modules(os.path.join(ROOT, base), names)
    return mods, imports(mods)


@pytest.mark.parametrize("tree", sorted(TREES))
def test_no_import_cycle_at_module_level(tree):
    mods, edges = graph(tree)
    top = [e for e in edges if e[2] == MODULE_LEVEL]
    found = cycles(mods, top)
    assert not found, "%s/: modules import each other at module level:\n%s" % (
        tree,
        describe(found, top),
    )


@pytest.mark.parametrize("tree", sorted(TREES))
def test_no_import_cycle_counting_imports_in_functions(tree):
    mods, edges = graph(tree)
    found = cycles(mods, edges)
    assert not found, (
        "%s/: modules import each other in a circle, the circle closed by an import in a "
        "function (move what both need into a module of its own):\n%s"
        % (tree, describe(found, edges))
    )


def test_the_graph_finds_a_circle_through_an_import_in_a_function(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from pkg import b\n")
    (pkg / "b.py").write_text("def f():\n    from . import c\n")
    (pkg / "c.py").write_text("import pkg.a\nfrom pkg.d import x\n")
    (pkg / "d.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pkg.a\n"
    )
    mods = modules(str(tmp_path), ("pkg",))
    edges = imports(mods)
    assert ("pkg.b", "pkg.c", IN_FUNCTION, 2) in edges
    assert not any(a == "pkg.d" for a, _b, _w, _l in edges)  # TYPE_CHECKING: never runs
    assert cycles(mods, edges) == [["pkg.a", "pkg.b", "pkg.c"]]
    assert cycles(mods, [e for e in edges if e[2] == MODULE_LEVEL]) == []
