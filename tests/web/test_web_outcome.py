"""The web page tells the deciding moment (seed 004 Victory): after Escape from Hoth decided
in round 3 (docs/scripts/hoth-3-rounds.txt: the Troop Transport destroyed at the end of the
round), the page shows round 3 and "game over", not "round 4 · initiative undecided"; the
winner line and the log say "the Empire wins"; a fighter still aboard reads "aboard"."""

import os

from support import ROOT
from support.web import headless
from support.web import KeyedSim, WebProcess, page_value, wait_until


def test_page_shows_the_round_decided_and_the_winner(env, chrome, procs):
    script = os.path.join(ROOT, "docs", "scripts", "hoth-3-rounds.txt")
    want = headless(env, "--scenario", "hoth", "--seed", "1", "--script", script)
    sim = KeyedSim(env, "--scenario", "hoth", "--seed", "1", "--script", script, "--pace", "0")
    procs.append(sim)
    web = WebProcess(sim.port, env)
    procs.append(web)
    chrome.get(web.base + "/")
    wait_until(lambda: page_value(chrome, "state-hash") == want["state_hash"], 30)
    assert page_value(chrome, "round") == "3"
    assert page_value(chrome, "phase") == "game over"
    assert page_value(chrome, "initiative") == "-"
    assert "the Empire wins" in page_value(chrome, "winner")
    log = chrome.execute_script("return document.querySelector('#log li .text').textContent")
    assert log.endswith("Troop Transport is destroyed: the Empire wins."), log
    states = chrome.execute_script(
        "var o = {}; document.querySelectorAll('tr.ship').forEach(function (tr) {"
        " o[tr.querySelector('.name').textContent] = tr.querySelector('.state').textContent;"
        " }); return o;"
    )
    assert states["TIE Fighter 3"] == "aboard" and states["Troop Transport"] == "destroyed"
