"""What this board runs and how its heap stands: the ``hello`` fields ``micropython``,
``code`` and ``src``, and the ``mem`` reply (docs/protocol.md).

``code`` says where the firmware's bytecode lives: ``frozen`` (in fleetref's MicroPython
image, in flash), ``romfs`` (a ROMFS partition, in flash), ``filesystem`` (``.mpy`` files in
``/lib``: imported into the heap) or ``host`` (the simulator on a laptop). The build writes it
with the sources' hash into the ``fleetref_build`` module; without one, the code is the plain
sources (``source``, hash unknown).
"""

import gc
import sys


def micropython_version():
    """ "1.28.0" under MicroPython, None under CPython."""
    impl = sys.implementation
    if impl.name != "micropython":
        return None
    return "%d.%d.%d" % tuple(impl.version[:3])


def describe():
    """(micropython version or None, code location str, source hash str or None)."""
    try:
        import fleetref_build as built  # written by the image build / flash  # pyright: ignore[reportMissingImports]

        return micropython_version(), built.CODE, built.SOURCE_HASH
    except ImportError:
        return micropython_version(), "source", None


def largest_block(limit):
    """The largest heap block (bytes) a ``bytearray`` can get now, found by halving from
    ``limit`` with automatic collection off (a failed try raises MemoryError at once)."""
    lo, hi = 0, limit
    gc.disable()
    try:
        while lo < hi:
            mid = (lo + hi + 1) // 2
            try:
                bytearray(mid)  # (a block of mid bytes was there; freed by the collection)
                lo = mid
            except MemoryError:
                hi = mid - 1
            gc.collect()  # the try's block goes before the next
    finally:
        gc.enable()
    return lo


def heap():
    """The ``mem`` reply: heap ``used``, ``free`` and ``largest`` free block in bytes, after a
    full collection. Raises ValueError off MicroPython (CPython has no such heap)."""
    mem_free = getattr(gc, "mem_free", None)
    mem_alloc = getattr(gc, "mem_alloc", None)
    if mem_free is None or mem_alloc is None:
        raise ValueError(
            "mem: this board runs on CPython (the simulator): it has no MicroPython heap to report"
        )
    gc.collect()
    free = mem_free()
    used = mem_alloc()
    largest = largest_block(free)
    return {"t": "mem", "used": used, "free": free, "largest": largest}


# the modules only a load uses (the roster's check and the scenario files), let go once a
# game is loaded on the board: their functions live in RAM even with the bytecode in flash
# (about 1 KB), and the next load imports them again
LOADERS = ("referee.scenarios", "referee.roster")


def release_loaders():
    """Let the roster-loading modules (LOADERS) go from ``sys.modules`` and the package, so
    the heap gets back what importing them took once nothing refers to them. Returns the
    names let go."""
    import sys

    pkg = sys.modules.get("referee")
    gone = []
    for key in LOADERS:
        if sys.modules.pop(key, None) is None:
            continue
        gone.append(key)
        if pkg is not None:
            try:
                delattr(pkg, key[8:])
            except (AttributeError, TypeError):
                pkg.__dict__.pop(key[8:], None)
    return gone


def flash_error(e):
    """What a user reads for the journal's OSError / MemoryError ``e`` (str): a full flash
    says so (ENOSPC, 28), not an errno alone."""
    if isinstance(e, MemoryError):
        return "not enough memory"
    n = e.args[0] if e.args else None
    if n == 28:
        return "flash full (no room on the filesystem)"
    return "flash error (%s)" % (n if isinstance(n, int) else e)
