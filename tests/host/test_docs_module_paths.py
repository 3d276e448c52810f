"""The host tools' modules that README.md and docs/ name exist where they say: an import a
reader copies (`from host_tools.board import firmware_build`), a `python -m host_tools...`
line and a `host_tools/...` path all resolve in this checkout (the modules live in
sub-packages: host_tools/board/, files/, link/, sim/, tournament/, views/)."""

import glob
import importlib
import os
import re

import pytest

from support import ROOT

DOCS = sorted(glob.glob(os.path.join(ROOT, "docs", "*.md"))) + [os.path.join(ROOT, "README.md")]
FROM_IMPORT = re.compile(r"from (host_tools[\w.]*) import (\w+)")
RUN_MODULE = re.compile(r"python3? -m (host_tools[\w.]*)")
DOTTED = re.compile(r"\b(host_tools(?:\.\w+)+)\b")
SLASHED = re.compile(r"\b(host_tools(?:/[\w*.]+)+)")


def named(text):
    """(what the text names, a check that it resolves) for every host_tools reference."""
    for package, name in FROM_IMPORT.findall(text):
        yield "from %s import %s" % (package, name), lambda p=package, n=name: has(p, n)
    for module in RUN_MODULE.findall(text) + DOTTED.findall(text):
        yield module, lambda m=module: importable(m)
    for path in SLASHED.findall(text):
        path = path.rstrip(".")
        yield path, lambda p=path: bool(glob.glob(os.path.join(ROOT, p)))


def has(package, name):
    module = importlib.import_module(package)
    return hasattr(module, name) or importable(package + "." + name)


def importable(dotted):
    """True when ``dotted`` is a module, or an attribute of a module, of this checkout."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            module = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attr in parts[cut:]:
            if not hasattr(module, attr):
                return False
            module = getattr(module, attr)
        return True
    return False


@pytest.mark.parametrize("doc", DOCS, ids=lambda d: os.path.relpath(d, ROOT))
def test_docs_name_host_modules_that_exist(doc):
    with open(doc, encoding="utf-8") as f:
        text = f.read()
    stale = [what for what, resolves in named(text) if not resolves()]
    assert not stale, "%s names what this checkout lacks: %s" % (doc, stale)
