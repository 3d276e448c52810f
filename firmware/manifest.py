# fleetref's firmware packages, frozen into fleetref's MicroPython image (make firmware;
# host_tools/board/firmware_steps.py includes this beside the port's own manifest and the
# build-info module). Their bytecode then runs from flash and leaves the heap to the game.
# main.py, /board.json and the rosters stay on the filesystem (fleetref flash writes them).
package("referee")  # noqa: F821 (manifest functions of MicroPython's build)
package("drivers")  # noqa: F821
