"""The board's own publisher (docs/mqtt.md section 5, 'Never blocking the referee') against a
hostile broker played by the test: one that accepts the board, acknowledges its first events
and then stops reading (its buffers fill), and one that announces a packet of 256 MB and
dribbles it. Keys keep their ``ev`` lines within 1 s (a bound that only catches a block), the
board stays up, says no traceback, and its heap does not take the announced packet in."""

import json
import socket
import struct
import threading
import time

import pytest

from support.boardmqtt import is_ev, settings_for, start


def read_packet(conn):
    """(first byte, body) of the next MQTT packet from ``conn``; (None, None) at its end."""
    head = conn.recv(1)
    if not head:
        return None, None
    mult, size = 1, 0
    while True:
        byte = conn.recv(1)[0]
        size += (byte & 127) * mult
        mult *= 128
        if not byte & 128:
            break
    body = b""
    while len(body) < size:
        chunk = conn.recv(size - len(body))
        if not chunk:
            return None, None
        body += chunk
    return head[0], body


class HostileBroker:
    """A broker on 127.0.0.1 that answers CONNECT, SUBSCRIBE and PUBLISH as Mosquitto would
    (echoing the board's own status back, so it knows its messages pass), until the board's
    third event: then ``how`` is "stall" (it reads nothing more) or "huge" (it sends a
    PUBLISH header announcing 268,435,455 bytes and dribbles zeros)."""

    def __init__(self, how):
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(4)
        self.port = self.sock.getsockname()[1]
        self.how = how
        self.events = 0
        self.turned = threading.Event()
        self.conns = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                conn, _addr = self.sock.accept()
            except OSError:
                return
            self.conns.append(conn)
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _turn(self, conn):
        self.turned.set()
        if self.how == "stall":
            time.sleep(60)
            return
        conn.sendall(b"\x30\xff\xff\xff\x7f")
        for _k in range(200):
            conn.sendall(b"\x00" * 1000)
            time.sleep(0.05)

    def _serve(self, conn):
        try:
            while True:
                first, body = read_packet(conn)
                if first is None:
                    return
                kind = first >> 4
                if kind == 1:
                    conn.sendall(b"\x20\x02\x00\x00")
                elif kind == 8:
                    conn.sendall(b"\x90\x04" + body[:2] + b"\x01\x01")
                elif kind == 12:
                    conn.sendall(b"\xd0\x00")
                elif kind == 3:
                    size = struct.unpack(">H", body[:2])[0]
                    topic = body[2 : 2 + size]
                    payload = body[2 + size :]
                    if first & 6:
                        conn.sendall(b"\x40\x02" + payload[:2])
                        payload = payload[2:]
                    if topic.endswith(b"/status"):
                        rest = struct.pack(">H", size) + topic + payload
                        conn.sendall(bytes((0x30, len(rest))) + rest)
                    if topic.endswith(b"/events"):
                        self.events += 1
                        if self.events == 3:
                            self._turn(conn)
                            return
        except OSError:
            pass

    def stop(self):
        self.sock.close()
        for conn in self.conns:
            conn.close()


def mem(board):
    board.send('{"c": "mem"}')
    return board.until(lambda m: isinstance(m, dict) and m.get("t") == "mem")["used"]


@pytest.mark.parametrize("how", ["stall", "huge"])
def test_a_hostile_broker_never_slows_a_key(tmp_path, procs, how):
    """Keys pressed for 10 s after the broker turned hostile (over the 8 s after which the
    board drops a link that owes a PUBACK): each ``ev`` line within 1 s; afterwards the
    board is up, no traceback went over serial, and its heap grew by less than 64 KB."""
    broker = HostileBroker(how)
    procs.append(broker)
    flash = tmp_path / "flash"
    settings_for(flash, broker.port)
    board = start(flash)
    procs.append(board)
    before = mem(board)
    took = []
    keys = ["roll", "phase"] + ["dmg+", "undo"] * 1000
    end = None
    for key in keys:
        t0 = time.monotonic()
        board.send(json.dumps({"c": "key", "key": key}))
        board.until(is_ev, 10)
        took.append(time.monotonic() - t0)
        if end is None and broker.turned.is_set():
            end = time.monotonic() + 10
        if end is not None and time.monotonic() > end:
            break
        time.sleep(0.02)
    assert broker.turned.is_set()
    assert max(took) < 1.0, max(took)
    assert board.proc.poll() is None
    assert not any("Traceback" in line for line in board.seen)
    assert mem(board) - before < 64 * 1024
