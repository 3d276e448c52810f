"""On the emulated Pico, the USB CDC line reader never locks up on bytes that
are not UTF-8, takes CR, LF and CRLF, and answers nothing to an empty line."""

from support.emu import board_profile, boot, build_uf2, need_emu


def test_bad_bytes_line_ends_and_empty_lines(uf2_dir):
    need_emu()
    name = "pico-ws2812-16x16"
    with boot(build_uf2(name, uf2_dir), board_profile(name)) as pico:
        pico.wait_msg(lambda m: m.get("t") == "hello")
        start = pico.mark()
        pico.write(b'\xff\xfe\x80{"c": "hello"}\n')  # not UTF-8: one err, then on
        pico.write(b'{"c": "hello"}\r\n')  # CRLF
        pico.write(b"\n\r\n\r\n")  # empty lines: no answer
        pico.write(b'{"c": "snap"}\r')  # CR alone ends a line
        pico.write('{"c": "load", "scenario": "h\u00f6th"}\n'.encode())  # UTF-8 text is fine
        pico.write(b'{"c": "scenarios"}\n')
        pico.wait_msg(lambda m: m.get("t") == "scenarios", 60, start)
        got = pico.messages(start)
        kinds = [m["t"] for m in got]
        assert kinds == ["err", "hello", "snap", "err", "scenarios"], got
        assert "not UTF-8" in got[0]["msg"]
        assert got[3]["c"] == "load"  # no such scenario: refused, not stuck
        assert "Traceback" not in pico.wait_serial(lambda s: True)
