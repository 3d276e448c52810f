# Freeze fleetref's firmware into a MicroPython image for the Pico: its bytecode then runs
# from flash and leaves the heap to the game (docs/build.md, "A frozen firmware image").
#   make -C ports/rp2 BOARD=RPI_PICO FROZEN_MANIFEST=$FLEETREF/firmware/manifest.py
# main.py, /board.json and the rosters stay on the filesystem (fleetref flash still copies
# them; its /lib copies of frozen modules go unused: ".frozen" precedes "/lib" on sys.path).
include("$(PORT_DIR)/boards/manifest.py")  # noqa: F821 (manifest functions of MicroPython's build)
package("referee")  # noqa: F821
package("drivers")  # noqa: F821
