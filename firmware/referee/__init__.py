"""fleetref referee core: plain Python for MicroPython 1.24+ and CPython 3.10+.

Nothing in this package imports ``machine``, ``neopixel`` or ``rp2``: hardware lives in
``firmware/drivers`` and in the host simulator.
"""

FW_VERSION = "0.1.0"
PROTO_VERSION = 9  # 9: swsb and swsb-addon keep each ship's newest pending hit (what Fly
#                     Casual avoids, whole) in a state byte more: their state hashes changed
# 8: `boot` (a random id per start of the board) in `hello`, `game`, `roll`,
#                     `reveal`, `dice-end`; `hello` has `commit` and `epoch` (docs/dice.md)
# 7: `hello` says what the board runs (`micropython`, `code`, `src`); `mem`
#                     command and reply (heap used, free, largest free block)
# 6: committed board rolls: `commit`/`epoch` in `game`; `roll`, `reveal`,
#                     `dice-end` lines; `reveal` and `dice` commands (docs/dice.md)
# 5: the state hash is CRC-32 (binascii.crc32) seeded with the roster digest
# 4: compact `ev` lines (no gid, no spaces), `events` sent in batches
# 3: the state hash covers the roster; the round takes 4 bytes
