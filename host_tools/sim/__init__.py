"""The simulated board: the firmware on the laptop with virtual drivers, its keyboard, its flash folder, key-press scripts and the demo."""
