"""The swsb-addon ruleset's numbers (seed 001, ``001_a2238b11b3f70e84.txt``): its event kind,
option effects, ability bits, per-ship flags and game byte slots, and the range table. Shared
by rules/swsb_addon.py and the modules it loads on first use (swsb_addon_io,
swsb_addon_turns), neither of which imports swsb_addon.py itself."""

# EV_MOVE (rules/base.py): ship, 1, 0: an activation's move
EV_CHOOSE = 14  # side that moves first

EFFECT_FIGHTER_REACH = 2  # the side's fighters attack within 2"
EFFECT_PD_FIGHTER_REACH = 3  # the side's point defense reaches fighters within 2"

A_CLOAK = 8
A_DOUBLE_FIGHTER_RANGE = 16
A_INTERCEPTOR = 32

MOVED = 16  # rule_flags: moved this round
DOGFIGHT = 32  # rule_flags: attacked or was attacked by an enemy fighter within 1" this round

X_FIRST = 4  # game bytes: side chosen to move first + 1 (0 = not chosen yet)
X_TURN = 5  # side whose activation it is
X_COUNT = 6  # ships activated in this turn
X_TIER = 7  # 0 class 1-3, 1 class 4


def range_band(inches):
    """Range band index for a distance in inches (seed 001 range table): 0 Very Close 0-8,
    1 Close 9-16, 2 Medium 17-24, 3 Long 25-32, 4 Extreme 33+. The attack roll gets minus the
    index. Raises ValueError for a negative distance."""
    if inches < 0:
        raise ValueError("distance must be >= 0")
    if inches <= 8:
        return 0
    if inches <= 16:
        return 1
    if inches <= 24:
        return 2
    if inches <= 32:
        return 3
    return 4
