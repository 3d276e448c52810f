"""The colours the board shows, each defined here once: the grid (render.py, its overlay
overlay.py, the time banks in clock.py) and the keypad base's lit keys (keypad_ui.py) draw
with these names, so a colour that means one thing looks the same everywhere.

Each colour is an ``(r, g, b)`` tuple of ints 0-255, before the display driver's
brightness scaling; the tables are tuples indexed by side (0, 1) or by fleet command option
(0-3). Constant tuples: frozen in flash, no heap.
"""

OFF = (0, 0, 0)
WHITE = (255, 255, 255)
DIM_WHITE = (30, 30, 30)
GREY = (40, 40, 40)  # a fighter not yet launched
RED = (255, 0, 0)
DARK_RED = (50, 0, 0)  # a destroyed ship on the grid
DIM_RED = (60, 0, 0)  # the keypad's undo key
AMBER = (255, 110, 0)
YELLOW = (255, 220, 0)
DIM_YELLOW = (40, 30, 0)
PURPLE = (120, 0, 255)  # phase pips: the current phase
DIM_PURPLE = (20, 0, 45)
CYAN = (0, 200, 200)  # the marked ship (acting ship, counter source)
MAGENTA = (255, 0, 200)
BLUE = (0, 0, 255)
MODE_BLUE = (0, 60, 255)  # the keypad's mode key (cyan means the marked ship)

SIDE_RGB = ((0, 90, 255), (0, 200, 60))  # side 0 blue, side 1 green
SIDE_DIM = ((0, 18, 60), (0, 45, 14))
OPTION_RGB = ((255, 140, 0), (0, 220, 220), (220, 0, 220), (255, 255, 0))  # fleet command
# the network's link pixel (referee/net: row 1, last column) by state: off (no Wi-Fi chip or
# no credentials), joining, up, down
LINK_RGB = ((40, 0, 40), DIM_YELLOW, (0, 60, 0), DIM_RED)
