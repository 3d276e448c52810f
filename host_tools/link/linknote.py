"""The mirror's news about its link to the board, for the views (``Mirror.link_note``): "link
lost (...); retrying" while the board is away, then, once it is back, the line saying the
board restored the game in play from its flash journal when it restarted meanwhile (a power
cut, a reset), or nothing when only the link had gone. The views show the note and drop it
once the link is back (mirrorview.py)."""


def lost(m, e):
    """The link of mirror ``m`` went (a pulled cable, a reset board, error ``e``): said as
    its ``link_note`` (the newest reason) and, once until the link is back, through its
    ``warn`` (the tries that fail meanwhile say nothing more); what it followed is kept for
    :func:`back`."""
    first = m.lost_from is None
    if first:
        m.lost_from = (m.port, (m.hello or {}).get("boot"), m.rep.gid)
    m.link_note = "link lost (%s); retrying" % e
    if first:
        m.warn(m.link_note)


def back(m):
    """Mirror ``m`` synced again: the "link lost" note goes; the restore is said when the
    board restarted (:func:`restore_note`)."""
    if m.lost_from is None:
        return
    m.link_note = restore_note(m, m.lost_from)
    m.lost_from = None
    if m.link_note:
        m.warn(m.link_note)


def restore_note(m, lost_at):
    """After the link was lost at ``lost_at`` (port, boot, gid): when the same game is there
    and the board restarted (its ``hello`` names another boot, or it came back on another
    port), "Restored the game in play: N events, round R (the board restarted)"; else ""."""
    port, boot, gid = lost_at
    g = m.rep.game
    if g is None or m.rep.gid != gid:
        return ""  # another game: the NEW GAME warning says so
    now = m.hello.get("boot")
    if port == m.port and (now is None or now == boot):
        return ""
    from referee.texts import plural

    return "Restored the game in play: %s, round %d (the board restarted)" % (
        plural(m.hello.get("seq") or 0, "event"),
        g.round,
    )
