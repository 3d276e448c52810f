"""The mirror (and `fleetref web`, which follows the board through it) warns in one line when
the board's firmware was built from other sources than this checkout's, or runs its code from
/lib .mpy files; it says nothing for this checkout's own image or simulator."""

from host_tools.board.firmware_build import source_hash
from host_tools.link.mirror import firmware_note


def hello(**kw):
    base = {"t": "hello", "micropython": "1.28.0", "code": "frozen", "src": source_hash()}
    base.update(kw)
    return base


def test_this_checkouts_image_and_simulator_are_quiet():
    assert firmware_note(hello()) is None
    assert firmware_note(hello(micropython=None, code="host")) is None
    assert firmware_note(hello(code="source", src=None)) is None  # plain sources: unknown


def test_other_sources_are_named_with_both_hashes():
    note = firmware_note(hello(src="0123456789ab"))
    assert note and "\n" not in note
    assert "0123456789ab" in note and source_hash() in note and "fleetref flash" in note
    assert "MicroPython 1.28.0" in note and "code frozen" in note


def test_the_stock_route_says_what_it_costs():
    note = firmware_note(hello(micropython="1.24.1", code="filesystem"))
    assert note and "/lib .mpy files" in note and "heap" in note
