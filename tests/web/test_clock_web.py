"""The time banks on `fleetref web` (docs/clock.md), looked at in headless Chromium: a game of
a shipped scenario given clocks on the simulator's command line (`--setting`, `--clock`); the
page shows each side's clock with its warning (amber under 5 minutes, red under 1, with its
words) and counts the running side down between updates; a long press of `side` on the
simulator's keyboard pauses the clocks and the page, the overlay and the JSON say so; the
overlay shows the clocks."""

import time

from host_tools.sim.termkeys import PAD_SHIFT
from support.web import KeyedSim, WebProcess, page_value, wait_until

AMBER = "rgb(255, 176, 0)"
RED = "rgb(255, 80, 80)"


def start(tmp_path, env, procs, *settings):
    prefix = tmp_path / "prefix.txt"
    prefix.write_text("roll phase\n")  # a side's clock runs (seed 000: it moves)
    sim = KeyedSim(
        env,
        "--scenario",
        "swsb-example",
        "--seed",
        "1",
        "--script",
        str(prefix),
        "--pace",
        "0",
        *settings,
    )
    procs.append(sim)
    web = WebProcess(sim.port, env)
    procs.append(web)
    wait_until(lambda: web.state().get("seq") == 2, 20)
    return sim, web


def clock_of(driver, elem_id):
    """(text, level, colour) of a clock element as the page shows it."""
    return driver.execute_script(
        "const e = document.getElementById(arguments[0]);"
        "return e ? [e.textContent, e.dataset.level, getComputedStyle(e).color] : null;",
        elem_id,
    )


def test_page_warns_under_5_minutes_and_shows_the_pause(tmp_path, env, chrome, procs):
    sim, web = start(tmp_path, env, procs, "--setting", "clock_s=290")
    st = web.state()
    run = st["clock"]["running"]
    assert st["settings"]["clock_s"] == 290 and run in (0, 1)
    assert st["clock"]["paused"] is False
    chrome.get(web.base + "/")
    wait_until(
        lambda: clock_of(chrome, "clock-%d" % (1 - run))[0].endswith("4:50under 5 minutes"), 20
    )
    for s in (0, 1):
        text, level, colour = clock_of(chrome, "clock-%d" % s)
        assert text.startswith(st["sides"][s]) and level == "warn" and colour == AMBER
    assert not chrome.execute_script(
        "return document.getElementById('clock-paused').offsetParent !== null"
    )
    # a long press of `side` (K2) on the simulator's keyboard: the clocks pause
    sim.press(PAD_SHIFT[2])
    wait_until(lambda: web.state()["clock"]["paused"], 5)
    st = web.state()
    assert st["clock"]["running"] is None
    wait_until(lambda: page_value(chrome, "clock-paused") == "clocks paused", 5)
    frozen = clock_of(chrome, "clock-%d" % run)[0]
    time.sleep(2.2)
    assert clock_of(chrome, "clock-%d" % run)[0] == frozen  # paused: no countdown
    # the overlay: both clocks beside the sides' names, and the pause
    chrome.get(web.base + "/overlay")
    wait_until(lambda: page_value(chrome, "o-paused") == "clocks paused", 10)
    for s in (0, 1):
        text, level, colour = clock_of(chrome, "o-clock-%d" % s)
        assert "under 5 minutes" in text and level == "warn" and colour == AMBER
    # resumed: the pause goes from the page and the JSON
    sim.press(PAD_SHIFT[2])
    wait_until(lambda: not web.state()["clock"]["paused"], 5)
    assert web.state()["clock"]["running"] == run
    wait_until(
        lambda: chrome.execute_script("return document.getElementById('o-paused').hidden"), 5
    )


def test_page_turns_red_in_the_last_minute_and_counts_down(tmp_path, env, chrome, procs):
    _sim, web = start(tmp_path, env, procs, "--clock", "0.75")  # 45 s a side
    run = web.state()["clock"]["running"]
    chrome.get(web.base + "/")
    wait_until(lambda: clock_of(chrome, "clock-%d" % run)[1] == "last", 20)
    for s in (0, 1):
        text, level, colour = clock_of(chrome, "clock-%d" % s)
        assert "last minute" in text and level == "last" and colour == RED
    # no event comes while the side thinks: the page counts its clock down itself
    first = clock_of(chrome, "clock-%d" % run)[0]
    wait_until(lambda: clock_of(chrome, "clock-%d" % run)[0] != first, 3)
    assert clock_of(chrome, "clock-%d" % (1 - run))[0].endswith("0:45last minute")
