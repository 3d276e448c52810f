"""The wheel holds every part of the fleetref command: each sub-package of host_tools is
named in pyproject.toml's package list (setuptools does not find them by itself)."""

import os
import tomllib

from support import ROOT


def test_every_host_tools_package_is_packaged():
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        listed = set(tomllib.load(f)["tool"]["setuptools"]["packages"])
    found = set()
    for d, _dirs, files in os.walk(os.path.join(ROOT, "host_tools")):
        if "__init__.py" in files:
            found.add(os.path.relpath(d, ROOT).replace(os.sep, "."))
    assert "host_tools.views" in found
    assert found - listed == set(), "host_tools packages missing from pyproject.toml"


def test_the_web_page_files_are_package_data():
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        data = tomllib.load(f)["tool"]["setuptools"]["package-data"]
    from host_tools.views import web

    assert os.path.isdir(web.STATIC_DIR)
    assert data["host_tools.views"] == ["static/*"]
    assert os.path.relpath(web.STATIC_DIR, os.path.dirname(web.__file__)) == "static"
