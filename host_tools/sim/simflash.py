"""The simulated board's flash: a folder (``fleetref sim --flash DIR``) that holds its game
journal (/game) and rosters (/rosters), as a Pico's littlefs does, with one owner at a time."""

import os

from host_tools import paths


def rosters_dir(flash):
    """The simulated board's rosters folder, as /rosters on a Pico: ``<flash>/rosters`` with
    ``--flash``, else a fresh temporary folder; the repository's rosters are copied in (a
    roster pushed there before, ``fleetref roster push``, is kept)."""
    import shutil

    if flash:
        d = os.path.join(os.path.abspath(flash), "rosters")
        os.makedirs(d, exist_ok=True)
    else:
        import tempfile

        d = tempfile.mkdtemp(prefix="fleetref-sim-rosters-")
    for f in os.listdir(paths.ROSTERS):
        if f.endswith(".json") and not os.path.exists(os.path.join(d, f)):
            shutil.copyfile(os.path.join(paths.ROSTERS, f), os.path.join(d, f))
    return d


def own(folder):
    """Lock ``folder`` as this simulated board's flash (an open file, kept while the process
    runs): a board's flash has one owner. SystemExit in one line when another simulator holds
    it; OSError when the folder cannot be made."""
    import fcntl

    os.makedirs(folder, exist_ok=True)
    f = open(os.path.join(folder, ".owner"), "a+")
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        f.seek(0)
        pid = f.read().strip() or "?"
        f.close()
        raise SystemExit(
            "fleetref sim: --flash %s is in use by another simulator (pid %s): a "
            "board's flash has one owner; stop that one or give another folder" % (folder, pid)
        )
    f.seek(0)
    f.truncate()
    f.write("%d\n" % os.getpid())
    f.flush()
    return f
