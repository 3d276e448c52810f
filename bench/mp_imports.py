# Heap taken by the firmware's modules alone (compiled bytecode and module objects).
import gc
STEPS = 1


def step(i):
    gc.collect()
    print("BASE", gc.mem_alloc())
    import referee.app, referee.render, referee.journal, referee.keymap  # noqa: F401


def finish():
    gc.collect()
    print("IMPORTS", gc.mem_alloc())
