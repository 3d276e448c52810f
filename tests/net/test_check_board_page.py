"""Checks of the board's spectator page (docs/board-page.md) on MicroPython's unix port,
over raw sockets, beyond the builders' own tests: HTTP/1.0 and keep-alive requests,
pipelining, a request split into many segments, query strings near the 256-byte limit,
absolute-form targets, lowercase methods, NUL bytes, HEAD, `/api/state?x`, a trailing slash,
50 clients at once and a client that reads its answer very slowly. Every answer is the one
the docs give; while each runs, keys sent over serial keep their ``ev`` lines within 1 s (a
bound that only catches a block), and `/api/state` stays the board's `snap`."""

import json
import socket
import threading
import time

import pytest

from support.boardpage import OPENING, PageBoard, parse, raw, status_of

GET_STATE = b"GET /api/state HTTP/1.1\r\nHost: board\r\n\r\n"


@pytest.fixture(scope="module")
def board(tmp_path_factory):
    b = PageBoard(tmp_path_factory.mktemp("page") / "flash")
    for name in OPENING:
        b.key(name)
    yield b
    b.stop()


def while_pressing(board, attack):
    """Run ``attack()`` in a thread while pressing keys (one at least), each ``ev`` line
    within 1 s; ``attack``'s result and the slowest key's seconds."""
    result = []
    thread = threading.Thread(target=lambda: result.append(attack()))
    thread.start()
    slowest = 0.0
    while True:
        slowest = max(slowest, board.next_key(bound=1.0))
        if not thread.is_alive():
            break
        time.sleep(0.1)
    thread.join()
    assert board.proc.poll() is None
    return result[0], slowest


def test_api_state_is_every_field_of_the_snap(board):
    """docs/board-page.md: `/api/state` is the board's snapshot; every field it has equals
    the `snap` line's, and it lacks only what the host adds (and the snap's own time)."""
    status, headers, body = parse(raw(board.port, GET_STATE))
    assert status == 200 and headers["content-type"] == "application/json"
    assert int(headers["content-length"]) == len(body)
    state = json.loads(body)
    snap = board.snap()
    assert state["seq"] == snap["seq"]
    assert {k: v for k, v in snap.items() if k not in ("t",)} == {
        k: v for k, v in state.items() if k not in ("t",)
    }
    for host_only in ("link", "first_seq", "board_hash", "hash_match"):
        assert host_only not in state


def test_http_10_keep_alive_and_pipelined_requests_get_one_whole_answer(board):
    """One answer per connection, whole (its Content-Length), then the board closes: an
    HTTP/1.0 request, an HTTP/1.1 request asking for keep-alive, and two pipelined
    requests (the first is answered, `Connection: close` says no more comes)."""
    cases = (
        b"GET /api/state HTTP/1.0\r\n\r\n",
        b"GET /api/state HTTP/1.1\r\nHost: b\r\nConnection: keep-alive\r\n\r\n",
        GET_STATE + b"GET / HTTP/1.1\r\nHost: b\r\n\r\n",
    )
    for request in cases:
        answer = raw(board.port, request, timeout=5)
        status, headers, body = parse(answer)
        assert status == 200 and headers["connection"] == "close", answer[:200]
        assert len(body) == int(headers["content-length"]) and json.loads(body)["seq"] >= 2
        assert answer.count(b"HTTP/1.") == 1


def test_a_request_in_many_segments_on_time_is_served_while_keys_go_on(board):
    """The head sent a few bytes at a time in 40 segments, well within the 2 s the docs
    allow for it: answered 200, and the keys pressed meanwhile keep their ``ev`` lines."""

    def split():
        s = socket.create_connection(("127.0.0.1", board.port), timeout=10)
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        try:
            request = GET_STATE
            step = len(request) // 40 + 1
            for k in range(0, len(request), step):
                s.sendall(request[k : k + step])
                time.sleep(0.025)
            got = b""
            while True:
                chunk = s.recv(4096)
                if not chunk:
                    return got
                got += chunk
        finally:
            s.close()

    answer, _slowest = while_pressing(board, split)
    assert status_of(answer) == 200


def test_query_strings_are_ignored_and_a_huge_one_is_414(board):
    """docs/board-page.md: the query string is ignored (`/api/state?x` is `/api/state`, so
    is a 200-byte query); a request line far over 256 bytes gets 414."""
    assert status_of(raw(board.port, b"GET /api/state?x HTTP/1.1\r\n\r\n")) == 200
    query = b"GET /api/state?" + b"q" * 200 + b" HTTP/1.1\r\n\r\n"
    assert status_of(raw(board.port, query)) == 200
    huge = b"GET /api/state?" + b"q" * 5000 + b" HTTP/1.1\r\n\r\n"
    assert status_of(raw(board.port, huge)) == 414


def request_line(size):
    """A `/api/state` request line of ``size`` bytes, its CRLF not counted."""
    head = b"GET /api/state?"
    return head + b"q" * (size - len(head) - len(b" HTTP/1.1")) + b" HTTP/1.1"


def test_the_request_line_limit_is_256_bytes(board):
    """docs/board-page.md, Limits: the request line may be 256 bytes; beyond it, 414. Read
    without its CRLF, a 256-byte line is served and a 257-byte one refused; read with it
    (RFC 7230's request-line), 254 bytes plus CRLF are served and 255 plus CRLF refused.
    Either way the answers for 254, 255 and 256 bytes are not all 200."""
    got = {n: status_of(raw(board.port, request_line(n) + b"\r\n\r\n")) for n in (254, 255, 256)}
    assert got in ({254: 200, 255: 200, 256: 200}, {254: 200, 255: 414, 256: 414}), got
    assert status_of(raw(board.port, request_line(257) + b"\r\n\r\n")) == 414


def test_head_answers_gets_headers_without_a_body(board):
    """HEAD is allowed (docs/board-page.md, Read-only): the same status and Content-Length as
    GET, and no body, for `/` and `/api/state`."""
    for path in (b"/", b"/api/state"):
        got = parse(raw(board.port, b"GET %s HTTP/1.1\r\n\r\n" % path))
        head = parse(raw(board.port, b"HEAD %s HTTP/1.1\r\n\r\n" % path))
        assert head[0] == got[0] == 200
        assert head[2] == b""
        assert head[1]["content-length"] == got[1]["content-length"]
        assert head[1]["content-type"] == got[1]["content-type"]


def test_other_paths_and_methods_are_refused(board):
    """A trailing slash or a fragment names no route (404); a lowercase method is not GET
    nor HEAD (405 with `Allow: GET, HEAD`); a request line without a version is not a
    request (400). Nothing changes the game."""
    before = board.snap()
    assert status_of(raw(board.port, b"GET /api/state/ HTTP/1.1\r\n\r\n")) == 404
    assert status_of(raw(board.port, b"GET /api/state#x HTTP/1.1\r\n\r\n")) == 404
    assert status_of(raw(board.port, b"GET /index.html HTTP/1.1\r\n\r\n")) == 404
    for method in (b"get", b"head", b"Get"):
        status, headers, _body = parse(raw(board.port, method + b" /api/state HTTP/1.1\r\n\r\n"))
        assert status == 405 and headers["allow"] == "GET, HEAD", method
    assert status_of(raw(board.port, b"GET /api/state\r\n\r\n")) == 400
    after = board.snap()
    assert (after["seq"], after["state_hash"]) == (before["seq"], before["state_hash"])


def test_an_absolute_form_target_names_the_same_route(board):
    """RFC 7230 section 5.3.2: 'a server MUST accept the absolute-form in requests'. The
    docs' route table has `/` and `/api/state`; `GET http://board/api/state` asks for the
    latter, as a client behind a proxy-aware stack sends it."""
    request = b"GET http://board/api/state HTTP/1.1\r\nHost: board\r\n\r\n"
    status, _headers, body = parse(raw(board.port, request))
    assert status == 200, (status, body)
    assert json.loads(body)["seq"] == board.snap()["seq"]


def test_a_nul_byte_is_not_a_request(board):
    """docs/board-page.md, Limits: 'bytes that are not a request' get 400. A NUL byte is
    allowed nowhere in an HTTP/1.1 request head (RFC 7230: not a token, tchar nor
    field-vchar); in the request target or in a header value it makes the bytes no
    request."""
    got = [
        status_of(raw(board.port, b"GET /api/st\x00ate HTTP/1.1\r\n\r\n")),
        status_of(raw(board.port, b"GET /api/state HTTP/1.1\r\nX-A: a\x00b\r\n\r\n")),
        status_of(raw(board.port, b"GET\x00/api/state HTTP/1.1\r\n\r\n")),
    ]
    assert got == [400, 400, 400], got


def test_fifty_clients_at_once_are_served_or_refused_while_keys_go_on(board):
    """50 clients connect and send at once: each gets 200 or 503 (docs: 4 served at once,
    the rest refused with `Retry-After: 2`), none hangs past 10 s; keys keep their ``ev``
    lines meanwhile; afterwards the page serves again."""

    def flood():
        out = [None] * 50

        def one(k):
            t0 = time.monotonic()
            answer = raw(board.port, GET_STATE, timeout=10)
            status, headers, _body = parse(answer)
            out[k] = (status, headers.get("retry-after"), time.monotonic() - t0)

        threads = [threading.Thread(target=one, args=(k,)) for k in range(50)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return out

    out, _slowest = while_pressing(board, flood)
    statuses = [o[0] for o in out]
    assert set(statuses) <= {200, 503}, statuses
    assert all(o[1] == "2" for o in out if o[0] == 503)
    assert max(o[2] for o in out) < 10
    assert statuses.count(200) >= 4
    state = json.loads(parse(raw(board.port, GET_STATE))[2])
    assert state["seq"] == board.snap()["seq"]


def test_a_client_reading_very_slowly_holds_nothing_for_long(board):
    """A client with a tiny receive window that reads nothing for 7 s, four of them at
    once (every slot): keys keep their ``ev`` lines, and within the 5 s the docs give an
    answer to drain, a well-behaved client is served again."""

    def slow_readers():
        socks = []
        for _k in range(4):
            s = socket.socket()
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 256)
            s.settimeout(10)
            s.connect(("127.0.0.1", board.port))
            s.sendall(b"GET / HTTP/1.1\r\nHost: b\r\n\r\n")
            socks.append(s)
        time.sleep(7.0)
        for s in socks:
            s.close()
        return True

    done = []
    thread = threading.Thread(target=lambda: done.append(slow_readers()))
    thread.start()
    time.sleep(5.5)  # the 5 s to drain are over: the slots are free again
    status = status_of(raw(board.port, GET_STATE, timeout=5))
    while thread.is_alive():
        board.next_key(bound=1.0)
        time.sleep(0.2)
    thread.join()
    assert done == [True]
    assert status == 200
