"""Headless Chromium (Debian's ``chromium`` and ``chromium-driver``, driven by selenium) for the
web view's tests and its screenshots in docs/. Nothing here downloads a browser: without the
two programs :func:`missing` says what to install.

``python -m devtools.webshots [--out docs]`` plays Escape from Hoth's three-round script on a
simulator, follows it with ``fleetref web`` and saves ``web-page.png`` and ``web-overlay.png``
(the overlay with a transparent background), then ``report-page.png``: the top of
``fleetref report``'s page for the same script.
"""

import argparse
import base64
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

from host_tools import paths

CHROMIUM = ("chromium", "chromium-browser")
DRIVER = ("chromedriver",)
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _which(names):
    for n in names:
        p = shutil.which(n) or (os.path.exists("/usr/bin/" + n) and "/usr/bin/" + n)
        if p:
            return p
    return None


def missing():
    """None when headless Chromium can be driven here, else what is missing (one line)."""
    if _which(CHROMIUM) is None or _which(DRIVER) is None:
        return (
            "headless Chromium is missing: install Debian's chromium and chromium-driver "
            "(make browser, as root: apt-get install chromium chromium-driver)"
        )
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is missing: pip install -e '.[dev]'"
    return None


def browser(width=1280, height=900):
    """A headless Chromium WebDriver (selenium), window ``width`` x ``height`` CSS pixels."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    os.environ.setdefault("SE_OFFLINE", "true")  # selenium-manager never downloads
    chromium, driver = _which(CHROMIUM), _which(DRIVER)
    if chromium is None or driver is None:
        raise RuntimeError(missing())
    opts = webdriver.ChromeOptions()
    opts.binary_location = chromium
    for a in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--hide-scrollbars",
        "--force-device-scale-factor=1",
        "--window-size=%d,%d" % (width, height),
    ):
        opts.add_argument(a)
    return webdriver.Chrome(options=opts, service=Service(executable_path=driver))


def viewport(driver, width, height):
    """Set the page's viewport to exactly ``width`` x ``height`` CSS pixels."""
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
    )


def text_of(driver, elem_id):
    """The textContent of element ``elem_id`` ("" when there is none)."""
    return driver.execute_script(
        "var e = document.getElementById(arguments[0]);return e ? e.textContent : '';", elem_id
    )


def screenshot(driver, path=None, transparent=False):
    """PNG bytes of the viewport (written to ``path`` when given). ``transparent``: what the
    page leaves unpainted stays transparent (alpha 0) instead of the browser's white."""
    if transparent:
        driver.execute_cdp_cmd(
            "Emulation.setDefaultBackgroundColorOverride",
            {"color": {"r": 0, "g": 0, "b": 0, "a": 0}},
        )
    data = base64.b64decode(
        driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png"})["data"]
    )
    if transparent:
        driver.execute_cdp_cmd("Emulation.setDefaultBackgroundColorOverride", {})
    if path:
        with open(path, "wb") as f:
            f.write(data)
    return data


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def next_line(proc):
    """The next line ``proc`` (started with ``stdout=PIPE, text=True``) prints; "" once its
    output has ended."""
    return proc.stdout.readline() if proc.stdout is not None else ""


def sim_port(sim):
    """The serial port simulator ``sim`` (started as :func:`next_line` says) prints first
    (``serial: <path>``). Raises RuntimeError when it prints anything else (it did not
    start)."""
    first = next_line(sim).strip()
    if not first.startswith("serial: "):
        raise RuntimeError("the simulator did not start: %r" % first)
    return first[len("serial: ") :]


def wait_http(url, timeout=20):
    import urllib.request

    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                return r.read()
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("%s did not answer within %d s" % (url, timeout))


def main(argv=None):
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--out", default=os.path.join(ROOT, "docs"))
    args = p.parse_args(argv)
    why = missing()
    if why:
        print("webshots: " + why, file=sys.stderr)
        return 2
    env = dict(os.environ, TMPDIR=tempfile.mkdtemp(prefix="fleetref-shots-"))
    py = paths.fleetref_argv()
    script = os.path.join(ROOT, "docs", "scripts", "hoth-3-rounds.txt")
    sim = subprocess.Popen(
        py
        + ["sim", "--headless", "--scenario", "hoth", "--seed", "1", "--script", script, "--hold"],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=env,
    )
    port = sim_port(sim)
    next_line(sim)  # the script has been played
    http = free_port()
    web = subprocess.Popen(
        py + ["web", "--port", port, "--http", "127.0.0.1:%d" % http],
        stdout=subprocess.DEVNULL,
        cwd=ROOT,
        env=env,
    )
    d = None
    try:
        base = "http://127.0.0.1:%d" % http
        wait_http(base + "/api/state")
        d = browser()
        viewport(d, 1280, 960)
        d.get(base + "/")
        _wait(lambda: text_of(d, "seq") not in ("", "-"))
        time.sleep(0.3)
        screenshot(d, os.path.join(args.out, "web-page.png"))
        viewport(d, 960, 180)
        d.get(base + "/overlay?w=960&h=180")
        _wait(lambda: text_of(d, "o-hash") not in ("", "-"))
        time.sleep(0.3)
        screenshot(d, os.path.join(args.out, "web-overlay.png"), transparent=True)
        # the battle report of the same script (fleetref report's page, host_tools.files.report)
        page = os.path.join(env["TMPDIR"], "report.html")
        subprocess.run(
            [
                sys.executable,
                "-m",
                "devtools.reportpicture",
                "--out",
                os.path.join(env["TMPDIR"], "plot.png"),
                "--html",
                page,
            ],
            check=True,
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
        )
        viewport(d, 1280, 1400)
        d.get("file://" + page)
        time.sleep(0.5)
        screenshot(d, os.path.join(args.out, "report-page.png"))
    finally:
        if d is not None:
            d.quit()
        for proc in (web, sim):
            proc.terminate()
            proc.wait(10)
    print(
        "wrote %s"
        % ", ".join(
            os.path.join(args.out, n)
            for n in ("web-page.png", "web-overlay.png", "report-page.png")
        )
    )
    return 0


def _wait(pred, timeout=15):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            if pred():
                return
        except Exception:
            pass
        time.sleep(0.05)
    raise RuntimeError("the page did not show the game within %d s" % timeout)


if __name__ == "__main__":
    sys.exit(main())
