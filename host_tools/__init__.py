"""fleetref host tools: the laptop side (simulator, mirror, flashing, save/load)."""
