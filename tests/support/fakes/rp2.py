"""Fake ``rp2`` for driver tests on CPython (the real one runs in tests/emu/test_emu_*.py): ``asm_pio`` assembles the PIO program into a list
of instructions, and ``StateMachine`` runs it in a small PIO simulator (out/jmp/nop, side-set,
delays, autopull, wrap), producing the output pin's level for every PIO clock cycle."""

LOG = []


class PIO:
    OUT_LOW = 0
    OUT_HIGH = 1
    SHIFT_LEFT = 0
    SHIFT_RIGHT = 1


class Instr:
    def __init__(self, op, *args):
        self.op = op
        self.args = args
        self.sideset = None
        self.delay = 0

    def side(self, v):
        self.sideset = v
        return self

    def __getitem__(self, d):
        self.delay = d
        return self


class Program:
    def __init__(self, opts):
        self.opts = opts
        self.instrs = []
        self.labels = {}
        self.wrap_target = 0
        self.wrap = None


def asm_pio(**opts):
    def deco(fn):
        prog = Program(opts)

        def emit(op, *a):
            ins = Instr(op, *a)
            prog.instrs.append(ins)
            return ins

        names = {
            "wrap_target": lambda: setattr(prog, "wrap_target", len(prog.instrs)),
            "wrap": lambda: setattr(prog, "wrap", len(prog.instrs) - 1),
            "label": lambda n: prog.labels.__setitem__(n, len(prog.instrs)),
            "out": lambda dst, n: emit("out", dst, n),
            "jmp": lambda *a: emit("jmp", *a),
            "nop": lambda: emit("nop"),
            "x": "x",
            "not_x": "not_x",
        }
        # as MicroPython's rp2.asm_pio: the body sees the assembler's names and builtins only,
        # never the module's globals (a module constant used there is a NameError on the Pico)
        import builtins
        import types

        names["__builtins__"] = builtins
        types.FunctionType(fn.__code__, names)()
        return prog

    return deco


class StateMachine:
    def __init__(self, id, prog, freq=None, sideset_base=None):
        self.id = id
        self.prog = prog
        self.freq = freq
        self.pin = sideset_base
        self.active_ = 0
        self.words = []
        LOG.append(("sm", id, freq))

    def active(self, v=None):
        if v is not None:
            self.active_ = v
        return self.active_

    def put(self, words, shift=0):
        for w in words:
            self.words.append((w << shift) & 0xFFFFFFFF)

    def run(self):
        """Simulate until the TX FIFO is empty and a pull would stall; return pin levels."""
        p = self.prog
        thresh = p.opts.get("pull_thresh", 32)
        fifo = list(self.words)
        osr, count, x, pc, pin = 0, 32, 0, 0, 0
        levels = []
        while True:
            ins = p.instrs[pc]
            nxt = pc + 1
            if ins.op == "out":
                if count >= thresh:
                    if not fifo:
                        return levels
                    osr, count = fifo.pop(0), 0
                n = ins.args[1]
                x = osr >> (32 - n)
                osr = (osr << n) & 0xFFFFFFFF
                count += n
            elif ins.op == "jmp":
                if len(ins.args) == 1:
                    nxt = p.labels[ins.args[0]]
                elif ins.args[0] == "not_x" and x == 0:
                    nxt = p.labels[ins.args[1]]
            if ins.sideset is not None:
                pin = ins.sideset
            levels.extend([pin] * (1 + ins.delay))
            if p.wrap is not None and pc == p.wrap and nxt == pc + 1:
                nxt = p.wrap_target
            pc = nxt
