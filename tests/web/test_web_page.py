"""`fleetref web` following a simulator, looked at in headless Chromium:
the page shows the roster's names; a key typed on the simulator's keyboard changes the page's
state hash and the damaged ship within 1 s; after the serial link drops and comes back (the
board restarts from its flash journal) and after the page's own connection drops (the web
server restarts), the page catches up; the overlay has a transparent background."""

import io

import pytest
from PIL import Image

from support.game import new_game
from devtools import webshots
from support.web import KeyedSim, WebProcess, get_json, page_value, ship_rows, wait_until
from support.web import headless

PREFIX = (
    "dice 15 8 phase select TIE_Fighter_1 launch select Star_Destroyer power "
    "select TIE_Fighter_1 opt1 select X-Wing_1 mark select TIE_Fighter_1 opt2\n"
)


def hoth_followed(script, env, procs):
    """A hoth game (seed 1) on a simulator whose keyboard the test types on, playing the key
    script ``script`` at once, and the web view following it (both stopped by ``procs``);
    returns (the simulator, the web view)."""
    sim = KeyedSim(
        env, "--scenario", "hoth", "--seed", "1", "--script", str(script), "--pace", "0"
    )
    procs.append(sim)
    web = WebProcess(sim.port, env)
    procs.append(web)
    return sim, web


def test_page_shows_names_and_follows_a_key_press_within_1s(tmp_path, env, chrome, procs):
    prefix = tmp_path / "prefix.txt"
    prefix.write_text(PREFIX)
    want = headless(env, "--scenario", "hoth", "--seed", "1", "--script", str(prefix))
    assert want["rejected"] == []
    sim, web = hoth_followed(prefix, env, procs)
    assert "on localhost only" in "".join(web.out)
    chrome.get(web.base + "/")
    wait_until(lambda: page_value(chrome, "state-hash") == want["state_hash"], 20)
    # the roster's names and sides, as the rules core expands them (count: TIE Fighter 1..3)
    g = new_game("hoth")
    rows = ship_rows(chrome)
    assert sorted(rows) == sorted(g.names)
    assert page_value(chrome, "side-0").startswith("Empire")
    assert page_value(chrome, "side-1").startswith("Rebels")
    assert rows["TIE Fighter 1"] == "ok"
    assert page_value(chrome, "seq") == str(want["seq"])
    assert page_value(chrome, "agree") == "board agrees"
    # X-Wing 1 (marked) answers TIE Fighter 1's move with rapid fire: the player presses
    # dmg+ (key q of the simulator's keyboard) and TIE Fighter 1 (1 hit point, seed 004) is
    # destroyed
    before = page_value(chrome, "state-hash")
    sim.press("q")
    took = wait_until(
        lambda: (
            page_value(chrome, "state-hash") != before
            and ship_rows(chrome)["TIE Fighter 1"] == "destroyed"
        ),
        1.0,
    )
    st = web.state()
    assert page_value(chrome, "state-hash") == st["state_hash"] and st["hash_match"]
    assert st["seq"] == want["seq"] + 1
    assert st["ships"][g.names.index("TIE Fighter 1")]["damage"] == 1
    log = chrome.execute_script("return document.querySelector('#log li').textContent")
    # the page shows the event as the firmware's own text for it (referee/texts.py)
    assert "TIE Fighter 1" in log and "X-Wing 1" in log and "destroyed" in log, log
    print("key press to page: %.3f s" % took)
    # undo (key v): the log says which event it took back, in the words of the mirror and
    # the report, and strikes that event through as the report does
    hit = st["seq"]
    sim.press("v")
    wait_until(lambda: web.state()["seq"] == hit + 1, 5)
    wait_until(lambda: page_value(chrome, "seq") == str(hit + 1), 5)
    top = chrome.execute_script("return document.querySelector('#log li .text').textContent")
    assert top.startswith("Undo: took back event %d (TIE Fighter 1 is hit" % hit), top
    struck = chrome.execute_script(
        "const li = document.querySelector('#log li[data-seq=\"%d\"]');"
        "return [li.className, getComputedStyle(li.querySelector('.text')).textDecorationLine]"
        % hit
    )
    assert "undone" in struck[0] and struck[1] == "line-through", struck
    assert ship_rows(chrome)["TIE Fighter 1"] == "ok"


def test_page_catches_up_after_the_link_drops_and_returns(tmp_path, env, chrome, procs):
    prefix = tmp_path / "prefix.txt"
    prefix.write_text(PREFIX)
    more = tmp_path / "more.txt"
    more.write_text("select TIE_Fighter_1 dmg+ select Troop_Transport opt1\n")
    flash = str(tmp_path / "flash")
    sim = KeyedSim(
        env,
        "--headless",
        "--flash",
        flash,
        "--scenario",
        "hoth",
        "--seed",
        "1",
        "--script",
        str(prefix),
        "--hold",
    )
    procs.append(sim)
    first = sim.final()
    web = WebProcess("auto", env)
    procs.append(web)
    chrome.get(web.base + "/")
    wait_until(lambda: page_value(chrome, "state-hash") == first["state_hash"], 20)
    # the link's state follows the sync that brought the state (same thread, a moment later)
    wait_until(lambda: chrome.find_element("id", "link").get_attribute("class") == "ok", 2)
    # the board goes away (power, cable): the page says the link is lost
    sim.stop()
    wait_until(lambda: "lost" in page_value(chrome, "link"), 10)
    assert chrome.find_element("id", "link").get_attribute("class") == "down"
    # it comes back from its flash journal and plays on before the host reconnects
    again = KeyedSim(
        env, "--headless", "--flash", flash, "--seed", "1", "--script", str(more), "--hold"
    )
    procs.append(again)
    final = again.final()
    assert final["rejected"] == [] and final["seq"] == first["seq"] + 2
    wait_until(lambda: page_value(chrome, "state-hash") == final["state_hash"], 20)
    assert ship_rows(chrome)["TIE Fighter 1"] == "destroyed"
    assert page_value(chrome, "agree") == "board agrees"
    seqs = chrome.execute_script("return fleetLive.events.map(function (e) { return e.seq; })")
    assert seqs == list(range(1, final["seq"] + 1))  # no event lost or doubled
    wait_until(lambda: chrome.find_element("id", "link").get_attribute("class") == "ok", 2)


def test_page_catches_up_after_its_own_connection_drops(tmp_path, env, chrome, procs):
    prefix = tmp_path / "prefix.txt"
    prefix.write_text(PREFIX)
    sim, web = hoth_followed(prefix, env, procs)
    chrome.get(web.base + "/")
    wait_until(lambda: page_value(chrome, "seq") == "6", 20)
    # the web server goes away; meanwhile a hit is marked on the board
    web.stop()
    wait_until(lambda: "offline" in page_value(chrome, "link"), 10)
    sim.press("q")
    web2 = WebProcess(sim.port, env, http=web.http)  # back on the same address
    procs.append(web2)
    wait_until(lambda: web2.state()["seq"] == 7, 20)
    wait_until(lambda: page_value(chrome, "seq") == "7", 20)
    assert page_value(chrome, "state-hash") == web2.state()["state_hash"]
    assert ship_rows(chrome)["TIE Fighter 1"] == "destroyed"
    seqs = chrome.execute_script("return fleetLive.events.map(function (e) { return e.seq; })")
    assert seqs == list(range(1, 8))


def test_overlay_is_transparent_and_sized_by_the_query(tmp_path, env, chrome, procs):
    prefix = tmp_path / "prefix.txt"
    prefix.write_text(PREFIX)
    _sim, web = hoth_followed(prefix, env, procs)
    webshots.viewport(chrome, 900, 300)
    try:
        chrome.get(web.base + "/overlay?w=640&h=110")
        wait_until(lambda: page_value(chrome, "o-hash") == web.state()["state_hash"], 20)
        assert "TIE Fighter 1" in page_value(chrome, "o-side-0")
        assert "X-Wing 1" in page_value(chrome, "o-side-1")
        bg = chrome.execute_script(
            "return [getComputedStyle(document.documentElement).backgroundColor,"
            " getComputedStyle(document.body).backgroundColor]"
        )
        assert bg == ["rgba(0, 0, 0, 0)", "rgba(0, 0, 0, 0)"]
        box = chrome.execute_script(
            "var r = document.getElementById('strip').getBoundingClientRect();"
            " return [r.width, r.height];"
        )
        assert box == [640, 110]
        img = Image.open(io.BytesIO(webshots.screenshot(chrome, transparent=True))).convert("RGBA")
        assert img.size == (900, 300)
        assert img.getpixel((800, 250))[3] == 0  # outside the strip: nothing painted
        assert img.getpixel((20, 20))[3] > 0  # the side's box is painted
        # the spectator page, shot the same way, paints its own background
        chrome.get(web.base + "/")
        wait_until(lambda: page_value(chrome, "seq") not in ("", "-"), 20)
        page = Image.open(io.BytesIO(webshots.screenshot(chrome, transparent=True)))
        assert page.convert("RGBA").getpixel((800, 250))[3] == 255
    finally:
        webshots.viewport(chrome, 1280, 900)


def test_api_and_nothing_but_the_game(tmp_path, env, procs):
    prefix = tmp_path / "prefix.txt"
    prefix.write_text(PREFIX)
    sim = KeyedSim(
        env, "--headless", "--scenario", "hoth", "--seed", "1", "--script", str(prefix), "--hold"
    )
    procs.append(sim)
    final = sim.final()
    web = WebProcess(sim.port, env)
    procs.append(web)
    wait_until(lambda: web.state()["seq"] == final["seq"], 20)
    st = web.state()
    assert st["state_hash"] == final["state_hash"] and st["gid"] == final["gid"]
    evs = get_json(web.base + "/api/events?since=4")
    assert [e["seq"] for e in evs["events"]] == [5, 6] and evs["seq"] == 6
    assert [e["ev"] for e in evs["events"]] == final["events"][4:]
    assert evs["events"][-1]["hash"] == final["state_hash"]
    assert evs["events"][-1]["text"] == "X-Wing 1 responds to TIE Fighter 1 with rapid fire."
    import urllib.error
    import urllib.request

    for path, code in [
        ("/api/events?since=-1", 400),
        ("/api/events?since=x", 400),
        ("/static/../../etc/passwd", 404),
        ("/static/index.html", 404),
        ("/etc/passwd", 404),
        ("/docs", 404),
    ]:
        with pytest.raises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(web.base + path, timeout=10)
        assert e.value.code == code, path
