"""Fault injection on the game journal in a littlefs image with the rp2 port's geometry.

A game is played on the referee (firmware/referee/app.py) with its journal on a littlefs image
(littlefs-python) laid out as MicroPython's rp2 port mounts the Pico's flash: 352 blocks of
4096 bytes, ``VfsLfs2(bdev, progsize=256)`` (ports/rp2/modules/_boot.py; read size and
lookahead 32, the VfsLfs2 defaults; extmod/vfs_lfsx.c sets cache size 4 * max(read, prog) =
1024 and block_cycles 100). Then the image is damaged on purpose (every truncation
offset of every journal file, bit flips across every file, zeroed 4 KB flash blocks, deleted
files, stale temporary files) and the board boots on it (``Referee.boot``, as firmware/main.py
does). Every outcome is classified against the events the game really had:

- ``exact``: the whole game, nothing said (the damage hit nothing needed);
- ``exact-noted``: the whole game, the damage was found and said;
- ``prefix-noted``: the first k events of the game, the loss said over serial;
- ``prefix-silent``: the first k events, nothing said (only when whole trailing log records are
  cut: a power cut before they were written leaves the same flash);
- ``refused``: no game restored, said so, the damaged files kept aside, a new game started;
- ``fs-rollback``: a zeroed block made littlefs itself show older files (a metadata block of a
  pair lost: the other, older revision is used) and the journal restored what those files
  hold, which it cannot tell from an older game (an earlier prefix, or no game at all);
- ``unmountable``: littlefs itself does not mount (MicroPython's _boot.py would then format);
- ``wrong``: any other outcome (another game passing as this one, a silent new game, a
  crash): a bug.
"""

import json
import random

import littlefs

from host_tools import paths
from devtools.flashsim import LfsFS, PowerCutDevice
from referee.app import Referee
from referee.dice import Dice, XorShift32
from referee.journal import Journal
from referee import game as G

RP2_GEOMETRY = {
    "block_size": 4096,
    "block_count": 352,
    "read_size": 32,
    "prog_size": 256,
    "lookahead_size": 32,
    "cache_size": 1024,
    "block_cycles": 100,
}  # type: dict  # LittleFS's keyword arguments
SIZE = RP2_GEOMETRY["block_size"] * RP2_GEOMETRY["block_count"]
SCENARIO = "swsb-example"
ROOT = "/game"


def mount(image, fmt=False):
    """(device, LfsFS) over a copy of ``image`` (bytes), or raises littlefs errors."""
    dev = (
        PowerCutDevice(SIZE, buffer=bytearray(image))
        if image is not None
        else PowerCutDevice(SIZE)
    )
    fs = littlefs.LittleFS(context=dev, mount=False, **RP2_GEOMETRY)
    if fmt:
        fs.format()
    fs.mount()
    return dev, LfsFS(fs)


BOARD = paths.board_profile()


def referee(fs, out, seed=99):
    """The referee on the default board with its journal on ``fs``. Each boot's dice start
    from ``seed``; the game is played with another seed, so a new game never has its gid."""
    app = Referee(BOARD, paths.ROSTERS, out.append, Dice(XorShift32(seed)), 12)
    app.set_journal(Journal(fs, ROOT))
    return app


def candidates(g, rng):
    """The events one random step may submit to the game ``g`` (any of them may be refused):
    phase, initiative, hit, undo, counter, launch and full-power (kind 6, smb), their fields
    drawn from ``rng``."""
    n = g.n
    return [
        (G.EV_PHASE, 0, 0, 0),
        (G.EV_INIT, rng.randint(1, 20), rng.randint(1, 20), 0),
        (
            G.EV_HIT,
            rng.randrange(n),
            rng.choice((1, 1, 2, -1)),
            rng.choice((255, rng.randrange(n))),
        ),
        (G.EV_UNDO, 0, 0, 0),
        (G.EV_COUNTER, rng.randrange(n), rng.randrange(4), rng.randrange(n)),
        (G.EV_LAUNCH, rng.randrange(n), 0, 0),
        (6, rng.randrange(n), 0, 0),
    ]  # 6: full-power


class Played:
    """A game of ``events`` events played through the referee on a formatted image:
    ``image`` (bytes), ``events`` (list of tuples), ``hashes`` (state hash after k events,
    index 0 = none), ``gid``, ``raw`` (the roster text), ``files`` {name: bytes}."""

    def __init__(self, events, seed=5):
        dev, fs = mount(None, fmt=True)
        out = []
        app = referee(fs, out, seed=seed + 1000)
        g = app.load_scenario(SCENARIO)
        rng = random.Random(seed)
        self.hashes = [g.state_hash()]
        self.events = []
        while g.seq < events:
            ev = rng.choice(candidates(g, rng))
            if ev[0] == G.EV_UNDO and rng.random() < 0.7:
                continue
            if g.check(ev) is None:
                assert app.submit(ev) is None
                self.events.append(g.event(g.seq))
                self.hashes.append(g.state_hash())
        self.gid = app.gid
        self.raw = app.raw_text
        self.image = bytes(dev.buffer)
        self.files = {}
        for name in fs.listdir(ROOT):
            with fs.open(ROOT + "/" + name, "rb") as f:
                self.files[name] = f.read()


def faults(played, flip_stride=1, cut_stride=1, rng_seed=1):
    """Yield (kind, detail, image) for every fault of the campaign on ``played``:
    truncations at every ``cut_stride``-th offset of every file (1: every offset), one bit
    flipped in every ``flip_stride``-th byte of every file, every used 4 KB block zeroed, every
    file deleted, stale temporary files."""
    files = played.files
    for name in sorted(files):
        data = files[name]
        for off in range(0, len(data), cut_stride):
            yield "truncate", "%s@%d" % (name, off), rewrite(played.image, {name: data[:off]})
        for off in range(0, len(data), flip_stride):
            bad = bytearray(data)
            bad[off] ^= 1 << (off % 8)
            yield "bit flip", "%s@%d" % (name, off), rewrite(played.image, {name: bytes(bad)})
        yield "deleted", name, rewrite(played.image, {name: None})
        half = data[: len(data) // 2]
        yield "stale temp", name + ".tmp (half)", rewrite(played.image, {name + ".tmp": half})
        yield "stale temp", name + ".tmp (whole)", rewrite(played.image, {name + ".tmp": data})
    other = Played(20, seed=rng_seed + 100)  # another game's set-up left as a temp file
    yield (
        "stale temp",
        "setup.json.tmp (other game)",
        rewrite(played.image, {"setup.json.tmp": other.files["setup.json"]}),
    )
    bs = RP2_GEOMETRY["block_size"]
    img = played.image
    for b in range(RP2_GEOMETRY["block_count"]):
        blk = img[b * bs : (b + 1) * bs]
        if blk.count(0xFF) == bs:
            continue  # erased, unused
        bad = bytearray(img)
        bad[b * bs : (b + 1) * bs] = bytes(bs)
        yield "zeroed block", "block %d" % b, bytes(bad)


def rewrite(image, changes):
    """A copy of littlefs ``image`` (bytes) with /game file ``changes`` ({name: bytes, or None:
    deleted}) made through littlefs; raises littlefs errors (as mount) if it does not mount."""
    dev, fs = mount(image)
    for name, data in changes.items():
        p = ROOT + "/" + name
        if data is None:
            fs.remove(p)
        else:
            with fs.open(p, "wb") as f:
                f.write(data)
    return bytes(dev.buffer)


def boot(image):
    """Boot the referee on ``image``: (app, output lines, device) or None when littlefs does
    not mount."""
    try:
        dev, fs = mount(image)
    except littlefs.errors.LittleFSError:
        return None
    out = []
    app = referee(fs, out)
    app.boot(SCENARIO)
    return app, out, dev


def _listing(image):
    """{name: size} of the journal's files as littlefs shows them in ``image``."""
    try:
        _, fs = mount(image)
        return {n: fs.stat(ROOT + "/" + n).size for n in fs.listdir(ROOT)}
    except (littlefs.errors.LittleFSError, OSError):
        return {}


def classify(played, kind, detail, image, reboot=False):
    """The outcome (see the module docstring) of booting on ``image``: (class, seq, text)."""
    c = _classify(played, kind, detail, image, reboot)
    if (
        c[0] in ("prefix-silent", "wrong")
        and kind == "zeroed block"
        and _listing(image) != {n: len(d) for n, d in played.files.items()}
    ):
        return ("fs-rollback",) + c[1:]
    return c


def _classify(played, kind, detail, image, reboot):
    r = boot(image)
    if r is None:
        return "unmountable", 0, "littlefs does not mount"
    app, out, dev = r
    g, j = app.game, app.journal
    if g is None or j is None:  # (boot restores a game or starts one, or raises)
        return "wrong", 0, "the board booted without a game on its journal"
    said = [json.loads(x) for x in out if '"code": "journal"' in x]
    noted = bool(app.boot_note) and len(said) == 1
    n = len(played.events)
    if app.gid != played.gid:
        aside = _aside_holds(dev, played)
        if noted and aside and g.seq == 0:
            return "refused", 0, app.boot_note
        return "wrong", g.seq, "another game without a word: %r" % app.boot_note
    if app.raw_text != played.raw:
        return "wrong", g.seq, "the roster differs"
    k = g.seq
    if k > n or g.state_hash() != played.hashes[k]:
        return "wrong", k, "state differs from the game's after %d events" % k
    for s, ev in j.events(0):  # the events still on flash are the game's
        if s > k:
            break
        if tuple(ev) != tuple(played.events[s - 1]):
            return "wrong", k, "event %d on flash differs" % s
    for s in range(g.base_seq + 1, g.seq + 1):
        if g.event(s) != tuple(played.events[s - 1]):
            return "wrong", k, "event %d in RAM differs" % s
    if reboot:  # the repaired journal boots clean
        r2 = boot(bytes(dev.buffer))
        g2 = r2[0].game if r2 is not None else None
        if r2 is None or r2[0].boot_note or g2 is None or g2.state_hash() != g.state_hash():
            return "wrong", k, "the repaired journal does not boot back to the same game"
    if k == n:
        return ("exact-noted" if noted else "exact"), k, app.boot_note
    if noted:
        return "prefix-noted", k, app.boot_note
    return "prefix-silent", k, ""


def _aside_holds(dev, played):
    """True when the damaged files sit in /game.bad (the set-aside copy)."""
    try:
        _, fs = mount(bytes(dev.buffer))
        names = fs.listdir(ROOT + ".bad")
    except (littlefs.errors.LittleFSError, OSError):
        return False
    return bool(set(names) & set(played.files) | {n for n in names if n.endswith(".tmp")})


def campaign(events, flip_stride=1, cut_stride=1, reboot_every=5):
    """Run every fault on a game of ``events`` events. Returns (played, results): results are
    (kind, detail, class, seq, text)."""
    played = Played(events)
    results = []
    for i, (kind, detail, image) in enumerate(faults(played, flip_stride, cut_stride)):
        c, k, text = classify(played, kind, detail, image, reboot=(i % reboot_every == 0))
        results.append((kind, detail, c, k, text))
    return played, results
