"""The link to a board: the serial port and its sharing between host tools, and the mirror that follows a board's game with its replica."""
