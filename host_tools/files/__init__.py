"""Saved games and what is made of them: save/load, the saved-game file, replay, verify, dice statistics, the battle report."""
