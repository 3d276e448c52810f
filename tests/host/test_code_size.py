"""Every Python file of firmware/ and host_tools/ stays short enough to read (CONTRIBUTING.md,
"Rules the tests hold you to"): at most MAX_FILE_LINES lines a file and MAX_FUNCTION_LINES
lines a function (a ``def``'s last line - its first + 1, as ``ast`` counts them, nested
functions and methods each counted on their own). One test per tree, so that a failure says
which tree, and its message lists every file and function over the limit."""

import ast
import os

import pytest

from support import ROOT

MAX_FILE_LINES = 400
MAX_FUNCTION_LINES = 60
TREES = ("firmware", "host_tools")


def python_files(tree):
    """The .py files under ``tree`` (a folder of the checkout), as paths from the checkout."""
    out = []
    for folder, dirs, files in os.walk(os.path.join(ROOT, tree)):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        out += [
            os.path.relpath(os.path.join(folder, f), ROOT)
            for f in sorted(files)
            if f.endswith(".py")
        ]
    return out


def read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return f.read()


def long_files(tree, limit=MAX_FILE_LINES):
    """["path: N lines", ...] for each file of ``tree`` over ``limit`` lines."""
    out = []
    for path in python_files(tree):
        n = len(read(path).splitlines())
        if n > limit:
            out.append("%s: %d lines" % (path, n))
    return out


def long_functions(tree, limit=MAX_FUNCTION_LINES):
    """["path:line name(): N lines", ...] for each function of ``tree`` over ``limit`` lines."""
    out = []
    for path in python_files(tree):
        for node in ast.walk(ast.parse(read(path), filename=path)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                n = (node.end_lineno or node.lineno) - node.lineno + 1
                if n > limit:
                    out.append("%s:%d %s(): %d lines" % (path, node.lineno, node.name, n))
    return out


@pytest.mark.parametrize("tree", TREES)
def test_every_file_is_at_most_400_lines(tree):
    over = long_files(tree)
    assert not over, "%d file(s) of %s/ over %d lines (split a job into its own module):\n%s" % (
        len(over),
        tree,
        MAX_FILE_LINES,
        "\n".join(over),
    )


@pytest.mark.parametrize("tree", TREES)
def test_every_function_is_at_most_60_lines(tree):
    over = long_functions(tree)
    assert not over, (
        "%d function(s) of %s/ over %d lines (split them into named steps or tables):\n%s"
        % (len(over), tree, MAX_FUNCTION_LINES, "\n".join(over))
    )


def test_the_checks_find_what_is_over_the_limit():
    """The limits bite: a limit below the longest file and function of host_tools finds them."""
    assert long_files("host_tools", limit=10)
    assert long_functions("host_tools", limit=5)
    assert any("main()" in f for f in long_functions("host_tools", limit=5))
