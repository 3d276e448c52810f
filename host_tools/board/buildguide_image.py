"""The build guide's sections on flashing and on fleetref's MicroPython image (docs/build.md,
written by ``fleetref pictures``; host_tools/board/buildguide.py puts them in)."""

# the upstream sources of the image: (repository, tag or version, commit), as the kit pins them
# (../shared/mpy-build/SOURCES; tests/host/test_build_guide.py checks these against it)
UPSTREAM = [
    ("micropython/micropython", "v1.28.0", "e0e9fbb17ed6fd06bb76e266ae554784c9c80804"),
    ("raspberrypi/pico-sdk (lib/pico-sdk)", "2.2.0", "a1438dff1d38bd9c65dbd693f0e5db4b9ae91779"),
    ("hathach/tinyusb (lib/tinyusb)", "", "aa0fc2e08f1c2dd6f026a431e8989357fbb4c5bf"),
    (
        "micropython/micropython-lib (lib/micropython-lib)",
        "",
        "8380c7bb8f9e5e5260e9539156742925e00366b2",
    ),
    ("Mbed-TLS/mbedtls (lib/mbedtls)", "", "107ea89daaefb9867ea9121002fbbdf926780e98"),
    (
        "georgerobotics/cyw43-driver (lib/cyw43-driver, Pico W)",
        "",
        "055d64274b014dd7b1c2fc94d26e8a18face7124",
    ),
    ("lwip-tcpip/lwip (lib/lwip, Pico W)", "", "77dcd25a72509eb83f72b033d219b1d40cd8eb95"),
    ("raspberrypi/picotool", "2.2.0", "a7eb3988f0645239185fadb4e25d8279478c2dbb"),
]

SECTIONS = """## Flash and update

1. **One file.** `.venv/bin/fleetref flash --board {name} --uf2 fleetref.uf2` writes one UF2:
   fleetref's MicroPython image (below: the firmware's code in flash) and the board's
   filesystem (`main.py`, `board.json`, the rosters). Hold BOOTSEL, plug the Pico in and
   copy the file onto the RPI-RP2 drive. It replaces the whole filesystem, game included.
2. **Updating over USB serial** (close the mirror first): `.venv/bin/fleetref flash --board
   {name}`{others}. It asks the board what it runs, copies only
   the files that changed, and resets it; `--dry-run` shows the plan. The game journal in
   `/game` is never touched. When the code itself changed, the board's image must change:
   the command says so in one line, with the path of the image-only UF2 to drop on the board
   in BOOTSEL mode. That UF2 holds no filesystem, so the game in play is kept; run
   `fleetref flash` again after it.
3. Custom fleets go on with `.venv/bin/fleetref roster push FILE --port PORT`
   (docs/rosters.md); they survive updates.
4. **The stock route** (a developer's path): on a Pico with the official MicroPython 1.24 or
   newer, `fleetref flash --port` copies the code as `.mpy` files into `/lib` (and
   `--uf2 OUT --micropython RPI_PICO.uf2` does the same in one file). Importing them copies
   their bytecode into the heap: the stock-route rows of docs/performance.md say how much.
   Big fleets then depend on how fragmented the heap is; the image does not.

The board says what it runs: its `hello` line names the MicroPython version, where the code
lives (`frozen`, `filesystem`) and the hash of the sources it was built from, and the mirror
and `fleetref web` warn when that is not this checkout's. `{{"c": "mem"}}` answers the heap
used, free and the largest free block (docs/protocol.md).

## fleetref's MicroPython image

`make firmware` builds MicroPython v1.28.0 for the RPI_PICO board (no network) and for the
RPI_PICO_W board (the CYW43 Wi-Fi driver and lwIP; a profile's `micropython_board` says which
image `fleetref flash` uses), each with the firmware's `referee` and `drivers` packages
frozen in, from the pinned kit in `../shared/mpy-build/`. It prints each UF2's path, size
and sha256; the Pico W's filesystem starts at another flash offset (848 KB from 0x12C000,
where the Pico's is 1408 KB from 0xA0000), which `fleetref flash --uf2` follows. What it needs is Debian's
`gcc-arm-none-eabi libnewlib-arm-none-eabi libstdc++-arm-none-eabi-newlib cmake
build-essential` (make installs them when it runs as root with apt-get). The first build
unpacks the kit and builds picotool and mpy-cross (minutes on 2 cores); the
result is kept in `~/.cache/fleetref` (`FLEETREF_BUILD_CACHE`), keyed by the kit and by every
file that goes into the image, so `make test` builds again only when one of them changed.

### Frozen modules, not ROMFS

MicroPython offers two ways to keep code in flash. fleetref freezes it:

- **Frozen modules** (`firmware/manifest.py`, included by the build's own manifest): the
  bytecode, its constants and the names it uses (qstrs) are compiled into the image. An
  import allocates only the module's dictionary and function objects. The heap rows of
  docs/performance.md are measured on this image.
- **ROMFS** (MicroPython 1.25 and later): `.mpy` files in a read-only partition run in place
  and can be replaced over USB with `mpremote romfs deploy`. The stock RPI_PICO build leaves
  it off (`MICROPY_HW_ROMFS_BYTES` 0). It would need a board definition of our own, whose
  ROMFS partition comes out of the filesystem's flash and moves the filesystem's start away
  from where stock MicroPython keeps it. A board moving between the routes would then lose
  its game journal. Importing a ROMFS module still interns its names in RAM.

What freezing costs: a change to the firmware's code needs the image reflashed (BOOTSEL and
one file, the game kept), where ROMFS would take it over USB. A board's code changes with a
release, its rosters and settings far more often, and those still go over USB. The heap left
to the game is what the board is for.

### Rebuilding the same image from upstream

A maker with internet gets the same sources from the upstream repositories at these tags
and commits (the kit's `SOURCES`):

{upstream}

Then, with `$FLEETREF` this checkout:

    git clone https://github.com/micropython/micropython && cd micropython
    git checkout v1.28.0
    git submodule update --init lib/pico-sdk lib/tinyusb lib/micropython-lib lib/mbedtls
    (cd lib/pico-sdk && git checkout 2.2.0)      # the commit above
    # picotool 2.2.0, so the Pico SDK downloads nothing:
    git clone -b 2.2.0 https://github.com/raspberrypi/picotool ../picotool
    cmake -S ../picotool -B ../picotool-build -DPICO_SDK_PATH=$PWD/lib/pico-sdk \\
          -DCMAKE_INSTALL_PREFIX=$PWD/../picotool-install -DPICOTOOL_FLAT_INSTALL=1
    cmake --build ../picotool-build -j2 && cmake --install ../picotool-build
    export picotool_DIR=$PWD/../picotool-install/picotool
    make -C mpy-cross -j2
    make -C ports/rp2 BOARD=RPI_PICO -j2 FROZEN_MANIFEST=/path/to/fleetref-manifest.py
    # the Pico W: BOARD=RPI_PICO_W, with its own port manifest in the first include below

where `fleetref-manifest.py` holds what `make firmware` writes (host_tools/board/firmware_steps.py):

    include("$(PORT_DIR)/boards/manifest.py")   # RPI_PICO_W: boards/RPI_PICO_W/manifest.py
    include("$FLEETREF/firmware/manifest.py")
    module("fleetref_build.py", base_path="/folder/of/fleetref_build.py")

and `fleetref_build.py` says where the code lives and which sources it came from (`python3
-c "from host_tools.board import firmware_build as f; print(f.build_info_text('frozen'))"` prints
it). Never pass `CMAKE_ARGS=` on make's command line: it replaces the port's own and silently
builds a plain image. Set `SOURCE_DATE_EPOCH` to the same value as `make firmware` (the kit's
newest file time) for the same build date inside the image. The compiler is Debian 12's
`gcc-arm-none-eabi` 12.2.rel1; another compiler gives other bytes with the same behaviour.
`ports/rp2/build-RPI_PICO/firmware.uf2` is the image; `fleetref flash --uf2 OUT
--micropython firmware.uf2` adds a filesystem to it.

### Publishing a release

A release would attach the UF2 `make firmware` printed for the RPI_PICO board, its sha256
and the commit of this repository it was built from (whose sources' hash is the `src` the
board's `hello` reports), beside the per-board UF2s with a filesystem that `fleetref flash
--uf2` writes for each board profile. A maker without a build machine downloads one and
drops it on the RPI-RP2 drive; `sha256sum` checks it against the release notes.
"""


def sections(name, others=()):
    """The guide's flashing and image sections for default board ``name`` and the other
    boards' names ``others`` (Markdown)."""
    rows = ["| repository | tag | commit |", "|---|---|---|"]
    rows += ["| %s | %s | `%s` |" % (repo, tag or "-", commit) for repo, tag, commit in UPSTREAM]
    alt = " (or %s)" % ", ".join("`--board %s`" % n for n in others) if others else ""
    return SECTIONS.format(name=name, others=alt, upstream="\n".join(rows))
