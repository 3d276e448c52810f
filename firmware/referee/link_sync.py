"""The serial commands of a host that follows or restores a game (docs/protocol.md): ``state``
(the base state and the RAM window), ``events`` (the log from a seq on) and ``base`` (a saved
game's state set on a fresh game). Imported by link.SerialLink only when a host asks one of
them (the heap keeps it only then); ``link`` is that SerialLink."""

from referee import protocol


def _hex(data):
    return "".join(["%02x" % x for x in data])


def command(link, g, c, msg):
    """Run ``state``, ``events`` or ``base`` (``c``) of ``msg`` for game ``g``."""
    if c == "state":
        return state(link, g)
    if c == "events":
        return events(link, g, msg)
    return base(link, g, msg)


def state(link, g):
    """The ``state`` message: base state, RAM window with its hashes and the undo stack
    (hex), for a host that fell behind further than the events still held."""
    ref = link.referee
    base_seq, base, events, hashes, eff = g.get_window()
    hexs = "null" if base is None else '"%s"' % _hex(base)
    ref.send(
        '{"t": "state", "gid": "%s", "base_seq": %d, "base": %s, "window": "%s", '
        '"hashes": "%s", "eff": [%s], "seq": %d, "hash": "%s"}'
        % (
            ref.gid,
            base_seq,
            hexs,
            _hex(events),
            _hex(hashes),
            ", ".join([str(i) for i in eff]),
            g.seq,
            g.state_hash(),
        )
    )


def events(link, g, msg):
    """``ev`` lines for the events after ``since``, at most protocol.EVENTS_BATCH of them
    (the host asks again from the newest it holds), then ``events-end`` with the game's
    newest seq."""
    ref = link.referee
    since = link.int_arg(msg, "since", 0, 0, 1 << 30)
    if since > g.seq:
        raise ValueError("since %d is past the newest event %d" % (since, g.seq))
    left = protocol.EVENTS_BATCH
    if since < g.base_seq:
        first = True
        if ref.journal is not None:
            for seq, ev in ref.journal.events(since):  # streamed from flash
                if first and seq != since + 1:
                    break
                first = False
                if seq > g.base_seq or left <= 0:
                    break
                ref.send(protocol.ev_line(seq, ev, ""))
                since = seq
                left -= 1
        if first:
            ref._out(
                {
                    "t": "err",
                    "src": "serial",
                    "c": "events",
                    "code": "gone",
                    "msg": "events %d..%d are no longer held: ask for state"
                    % (since + 1, g.base_seq),
                }
            )
            return
        if since < g.base_seq:  # a batch's worth sent from flash
            left = 0
    for s in range(since + 1, min(g.seq, since + left) + 1):
        ref.send_event(s)
    ref._out({"t": "events-end", "gid": ref.gid, "seq": g.seq})


def base(link, g, msg):
    # restoring a saved game: its state at base_seq, right after its roster was loaded
    if g.seq != 0:
        raise ValueError("base is set only on a freshly loaded game (seq 0)")
    import binascii

    seq = link.int_arg(msg, "base_seq", 0, 0, 1 << 30)
    base = msg.get("base")
    if not isinstance(base, str):
        raise ValueError("base must be hex text")
    try:
        data = binascii.unhexlify(base)
    except (ValueError, TypeError):  # binascii.Error is a ValueError
        raise ValueError("base must be hex text")
    r = g.check_state(data)  # validated before anything changes
    rnd = data[0] | data[1] << 8 | data[2] << 16 | data[3] << 24 if len(data) > 3 else 0
    if not r and rnd > seq + 1:
        r = "round %d cannot be reached in %d events" % (rnd, seq)
    if r:
        raise ValueError(r)
    old = g.get_window()
    g.set_window(seq, data, b"", b"", [])
    ref = link.referee
    if ref.journal is not None:
        try:
            ref.journal.set_base(g)
        except OSError:
            g.set_window(*old)  # all or nothing
            raise
    ref.version += 1
    ref._out({"t": "ok", "c": "base", "seq": g.seq, "hash": g.state_hash()})
