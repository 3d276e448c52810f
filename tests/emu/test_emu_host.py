"""The host tools against the emulated board over a serial port (a
pseudo-terminal bridged to its USB CDC, as /dev/ttyACM0 of a real Pico):
`fleetref flash` itself with real mpremote (copy, skip unchanged files, reset, boot),
`fleetref mirror --once --json` (same state_hash), `fleetref save` and `fleetref load`,
Ctrl-C from mpremote taking the board back while the referee runs, and `fleetref tournament
board` writing /mqtt.json (copied as /mqtt.json.new, renamed over it). One boot for all of
it."""

import json
import os
import shutil
import subprocess
import sys


from support import ROOT
from emu import pico as emu
from support.emu import board_profile, need_emu
from host_tools.board import image
from support.process import board_says
from support.process import cli, python

NAME = "pico-ws2812-16x16"


def emu_cli(*args, timeout=1200):
    """``fleetref ARGS`` against the emulated Pico, which runs several times slower than a
    real one: longer timeouts for the command and for the board's replies."""
    return cli(*args, timeout=timeout, env=dict(os.environ, FLEETREF_REPLY_TIMEOUT="120"))


def test_flash_mirror_save_load_and_ctrl_c(tmp_path):
    need_emu()
    # a Pico with MicroPython and an old main.py: what `fleetref flash` meets on a used board
    old = tmp_path / "main.py"
    old.write_text("print('an older program')\n")
    uf2 = tmp_path / "old.uf2"
    uf2.write_bytes(
        image.combined_uf2(emu.firmware_path(), image.littlefs_image([(str(old), ":/main.py")]))
    )
    with emu.EmulatedPico(str(uf2), board_profile(NAME), connect_serial=False) as pico:
        port = pico.pty()
        r = emu_cli("flash", "--board", NAME, "--port", port)
        assert r.returncode == 0, r.stdout + r.stderr
        plan_size = len(
            list(
                emu_cli("flash", "--dry-run", "--stock", "--board", NAME).stdout.splitlines()[1:-1]
            )
        )
        assert "copied %d changed file(s) of %d; board reset" % (plan_size, plan_size) in r.stdout
        hello = board_says(port, '{"c": "hello"}', "hello")  # reset and booted
        assert hello["board"] == NAME and hello["scenario"] == "hoth"
        r = emu_cli("flash", "--board", NAME, "--port", port)  # again: nothing changed
        assert r.returncode == 0, r.stderr
        assert "copied 0 changed file(s) of %d; board reset" % plan_size in r.stdout
        assert board_says(port, '{"c": "hello"}', "hello")["board"] == NAME

        # a little game over the serial port, then the mirror
        board_says(port, '{"c": "roll", "values": [15, 8]}', "ev")
        board_says(port, '{"c": "phase"}', "ev")
        snap = board_says(port, '{"c": "snap"}', "snap")
        r = emu_cli("mirror", "--once", "--json", "--port", port)
        assert r.returncode == 0, r.stderr
        mirrored = json.loads(r.stdout)
        assert mirrored["hash_match"] and mirrored["state_hash"] == snap["state_hash"]
        assert "runs fleetref from /lib .mpy files" in r.stderr  # the stock route, said
        assert mirrored["seq"] == snap["seq"] == 2

        # save, change the game on the board, load the save back
        saved = tmp_path / "game.json"
        r = emu_cli("save", str(saved), "--port", port)
        assert r.returncode == 0 and "saved 2 events" in r.stdout, r.stderr
        board_says(port, '{"c": "load", "scenario": "deathstar"}', "game")
        assert board_says(port, '{"c": "snap"}', "snap")["state_hash"] != snap["state_hash"]
        r = emu_cli("load", str(saved), "--port", port)
        assert r.returncode == 0, r.stderr
        back = board_says(port, '{"c": "snap"}', "snap")
        assert back["state_hash"] == snap["state_hash"] and back["seq"] == 2

        # Ctrl-C from mpremote takes the board back from the running referee
        r = python(
            "-m",
            "mpremote",
            "connect",
            port,
            "exec",
            "import sys; print('repl', sys.implementation.name)",
            timeout=900,
        )
        assert r.returncode == 0 and "repl micropython" in r.stdout, r.stdout + r.stderr

        tournament_board_settings_replace_mqtt_json(port, tmp_path)


# Runs on the board: prints its root's mqtt.json* names and /mqtt.json's text, then leaves a
# torn /mqtt.json.new behind, as a copy cut off by a pulled cable would.
READ_MQTT_AND_TEAR = """
import os
print('NAMES', sorted(n for n in os.listdir('/') if n.startswith('mqtt')))
print('MQTT', open('/mqtt.json').read())
open('/mqtt.json.new', 'w').write('{"host": "10.')
"""


def tournament_board_settings_replace_mqtt_json(port, tmp_path):
    """`fleetref tournament board --port` with real mpremote: the board's /mqtt.json holds the
    settings and no /mqtt.json.new is left, on a board with none and again over an older
    valid /mqtt.json with a torn /mqtt.json.new beside it."""
    from host_tools.tournament import tournament
    from support.mqtt import reachable_folder

    folder, made = reachable_folder(tmp_path / "cup")
    try:
        passwords = tournament.init(folder, 2, "cup", 1883)
        for table, event in (("table-01", "cup"), ("table-02", "cup-final")):
            r = emu_cli(
                *("tournament", "board", "--dir", folder, "--table", table),
                *("--broker", "mqtt://127.0.0.1:1883", "--event", event, "--port", port),
            )
            assert r.returncode == 0 and "/mqtt.json" in r.stdout, r.stdout + r.stderr
            r = python("-m", "mpremote", "connect", port, "exec", READ_MQTT_AND_TEAR, timeout=900)
            assert r.returncode == 0, r.stdout + r.stderr
            lines = dict(line.split(" ", 1) for line in r.stdout.splitlines() if " " in line)
            assert lines["NAMES"] == "['mqtt.json']", r.stdout  # no .new left behind
            with open(passwords[table]) as f:
                password = f.readline().strip()
            assert json.loads(lines["MQTT"]) == {
                "host": "127.0.0.1",
                "port": 1883,
                "event": event,
                "table": table,
                "user": table,
                "password": password,
            }
    finally:
        if made:
            shutil.rmtree(os.path.dirname(folder), ignore_errors=True)


def test_flash_over_serial_on_fleetrefs_image_keeps_the_game(tmp_path):
    """A board running fleetref's image (code frozen in flash) with a game in play, a roster
    that has changed since and stale /lib copies from an old stock install: `fleetref flash
    --port` copies only the changed roster, removes /lib's code, resets, and the board comes
    back with the same game at the same seq, still running its code from flash."""
    need_emu()
    from support.emu import need_image
    from host_tools.board import flash

    need_image()
    board = board_profile(NAME)
    plan = flash.plans(board)["image"]
    old_roster = tmp_path / "hoth.json"
    text = open(os.path.join(ROOT, "firmware", "rosters", "hoth.json")).read()
    old_roster.write_text(text + "\n")  # an older copy: other bytes
    stale = tmp_path / "game.mpy"
    stale.write_bytes(b"M\x06stale bytecode of an old install")
    files = [(str(old_roster), p[1]) if p[1] == ":/rosters/hoth.json" else p[:2] for p in plan]
    files += [(str(stale), ":/lib/referee/game.mpy"), (str(stale), ":/lib/fleetref_build.py")]
    from host_tools.board import firmware_build

    uf2 = tmp_path / "image.uf2"
    uf2.write_bytes(image.combined_uf2(firmware_build.build()["uf2"], image.littlefs_image(files)))
    with emu.EmulatedPico(str(uf2), board, connect_serial=False) as pico:
        port = pico.pty()
        hello = board_says(port, '{"c": "hello"}', "hello")
        assert hello["code"] == "frozen" and hello["micropython"] == "1.28.0"
        board_says(port, '{"c": "roll", "values": [15, 8]}', "ev")
        board_says(port, '{"c": "phase"}', "ev")
        before = board_says(port, '{"c": "snap"}', "snap")
        r = emu_cli("flash", "--board", NAME, "--port", port)
        assert r.returncode == 0, r.stdout + r.stderr
        assert "copied 1 changed file(s) of %d; board reset" % len(plan) in r.stdout, r.stdout
        assert "stock MicroPython" not in r.stdout
        hello = board_says(port, '{"c": "hello"}', "hello")
        assert hello["code"] == "frozen" and hello["gid"] == before["gid"] and hello["seq"] == 2
        after = board_says(port, '{"c": "snap"}', "snap")
        assert after["state_hash"] == before["state_hash"]
        r = emu_cli("mirror", "--once", "--json", "--port", port)
        assert r.returncode == 0 and json.loads(r.stdout)["hash_match"], r.stderr
        assert "firmware" not in r.stderr  # this checkout's own image
        r = python(
            "-m",
            "mpremote",
            "connect",
            port,
            "exec",
            ("import os; print('ROOT', sorted(os.listdir('/')), sorted(os.listdir('/lib')))"),
            timeout=900,
        )
        assert r.returncode == 0, r.stderr
        listing = next(l for l in r.stdout.splitlines() if l.startswith("ROOT"))
        assert "'game'" in listing and listing.endswith("[]"), listing
