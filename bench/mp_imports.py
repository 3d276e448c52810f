# Heap taken by the firmware's modules alone (compiled bytecode and module objects).
import gc

STEPS = 1


def step(i):
    gc.collect()
    print("BASE", gc.mem_alloc())
    import referee.app
    import referee.render
    import referee.journal
    import referee.keymap  # noqa: F401
    import referee.scenarios  # noqa: F401  (imported by a load: the roster check)
    import referee.rules.swsb  # noqa: F401  (the ruleset the benchmark game uses)


def finish():
    gc.collect()
    print("IMPORTS", gc.mem_alloc())
