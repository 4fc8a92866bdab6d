"""Random and mutated request heads and bodies against the real served panel (web_panel/server/).

Every request a hostile LAN can write (methods, targets, header names and values with CR/LF/NUL,
duplicate and folded headers, Content-Length forms, bodies shorter or longer than said,
Transfer-Encoding) gets either no answer and a closed socket, or well-formed HTTP/1.1 answers;
a kept-alive connection still serves a plain request; nothing raises in the server; and a
seated phone's command still goes through afterwards.
"""

from __future__ import annotations

import logging
import re
import socket
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.security.conftest import host_of, seated, start_game
from tests.security.lan import lan

pytestmark = pytest.mark.mqtt

STATUS_LINE = re.compile(rb"HTTP/1\.1 ([1-5]\d\d) [^\r\n]*")
READ_TIMEOUT_S = 4.0  # the tests' head deadline is 1 s (tests/security/conftest.py): an answer comes before

METHODS = st.one_of(
    st.sampled_from([b"GET", b"POST", b"HEAD", b"PUT", b"DELETE", b"OPTIONS", b"PATCH", b"TRACE",
                     b"CONNECT", b"get", b"PRI", b"G\x00T", b"", b"GET GET"]),
    st.binary(min_size=0, max_size=12),
)
TARGETS = st.one_of(
    st.sampled_from([b"/", b"/api/info", b"/api/cmd", b"/api/seat/claim", b"/api/host/unlock",
                     b"/api/stream", b"/qr.svg", b"/join?code=x", b"*", b"http://evil.example/",
                     b"/%00", b"/..%2f..%2fetc/passwd", b"/api/info?" + b"a=1&" * 50, b"//", b"/\r\n",
                     b"/ /", b"/\x00", b"/%ff%fe", b"/" + b"x" * 3000]),
    st.binary(min_size=0, max_size=40),
)
VERSIONS = st.sampled_from([b"HTTP/1.1", b"HTTP/1.0", b"HTTP/2.0", b"HTTP/1.1 ", b"http/1.1", b"HTTP/1.", b"",
                            b"HTTP/1.1\x00"])
HEADER_NAMES = st.one_of(
    st.sampled_from([b"Host", b"Content-Length", b"Transfer-Encoding", b"Connection", b"Expect", b"Cookie",
                     b"Content-Type", b"X-CSRF-Token", b"Host ", b" Host", b"Content-Length\x00", b"",
                     b"X\r\nInjected", b"X\nY", b"Accept", b"Upgrade"]),
    st.binary(min_size=0, max_size=16),
)
HEADER_VALUES = st.one_of(
    st.sampled_from([b"", b"close", b"keep-alive", b"chunked", b"gzip, chunked", b"100-continue",
                     b"0", b"5", b"-1", b"+5", b" 5", b"5 ", b"0x10", b"1e3", b"99999999999999999999",
                     b"65537", b"\x00", b"a\r\nb", b"a\nX-Injected: 1", b"\xff\xfe", b"websocket",
                     b"application/json", b"text/event-stream", b"evil.example"]),
    st.binary(min_size=0, max_size=30),
)


@st.composite
def requests(draw: st.DrawFn, port: int) -> tuple[bytes, bool]:
    """A request (maybe broken) and whether it was well framed: a valid head and exactly the body it declared."""
    kind = draw(st.sampled_from(["well framed", "mutated", "mutated", "random"]))
    host = f"127.0.0.1:{port}".encode()
    if kind != "random":
        method = draw(st.sampled_from([b"GET", b"POST", b"HEAD", b"PUT", b"OPTIONS"]))
        target = draw(st.sampled_from([b"/", b"/api/info", b"/api/cmd", b"/api/seat/claim", b"/qr.svg",
                                       b"/nowhere", b"/api/info?x=%00"]))
        body = draw(st.binary(max_size=200))
        extra = draw(st.lists(st.tuples(st.sampled_from([b"Content-Type", b"Cookie", b"X-CSRF-Token",
                                                         b"Accept", b"X-Thing"]), HEADER_VALUES.filter(
            lambda v: not any(c in v for c in b"\r\n\x00"))), max_size=4))
        lines = [method + b" " + target + b" HTTP/1.1", b"Host: " + host, b"Content-Length: %d" % len(body)]
        lines += [k + b": " + v.strip(b" \t") for k, v in extra]
        if kind == "well framed":
            return b"\r\n".join(lines) + b"\r\n\r\n" + body, True
        return mutate(draw, lines, body), False
    line = draw(METHODS) + draw(st.sampled_from([b" ", b"  ", b"\t", b""])) + draw(TARGETS) + b" " + draw(VERSIONS)
    headers = draw(st.lists(st.tuples(HEADER_NAMES, st.sampled_from([b": ", b":", b" : ", b""]), HEADER_VALUES),
                            max_size=8))
    head_lines = [line]
    if draw(st.booleans()):
        head_lines.append(b"Host: " + host)
    for name, sep, value in headers:
        head_lines.append(name + sep + value)
        if draw(st.integers(0, 9)) == 0:  # a folded continuation line (obsolete in RFC 9112)
            head_lines.append(draw(st.sampled_from([b" folded", b"\tfolded", b" "])))
    if draw(st.booleans()):  # duplicated headers
        head_lines += draw(st.lists(st.sampled_from([b"Host: " + host, b"Host: other", b"Content-Length: 3",
                                                     b"Content-Length: 4", b"Transfer-Encoding: chunked"]),
                                    max_size=3))
    eol = draw(st.sampled_from([b"\r\n", b"\r\n", b"\n", b"\r"]))
    body = draw(st.one_of(st.binary(max_size=120), st.just(b"5\r\nhello\r\n0\r\n\r\n")))
    return eol.join(head_lines) + b"\r\n\r\n" + body, False


def mutate(draw: st.DrawFn, lines: list[bytes], body: bytes) -> bytes:
    """A valid request with one or two things wrong: what a broken client or a smuggler sends."""
    for _ in range(draw(st.integers(1, 2))):
        how = draw(st.sampled_from(["inject", "header", "length", "encoding", "fold", "duplicate", "truncate"]))
        at = draw(st.integers(0, len(lines) - 1))
        if how == "inject":  # a CR, LF, NUL or high byte inside a line
            line = lines[at]
            cut = draw(st.integers(0, len(line)))
            lines[at] = line[:cut] + draw(st.sampled_from([b"\r", b"\n", b"\x00", b"\r\n", b"\xff", b" "])) + line[cut:]
        elif how == "header":
            lines.insert(at + 1, draw(HEADER_NAMES) + b": " + draw(HEADER_VALUES))
        elif how == "length":  # says more or less than the body
            lines[2] = b"Content-Length: " + draw(st.sampled_from(
                [b"%d" % (len(body) + 1), b"%d" % max(0, len(body) - 1), b"%d" % (len(body) + 70_000), b"",
                 b"-0", b"%d, %d" % (len(body), len(body)), b" %d" % len(body), b"0%d" % len(body)]))
        elif how == "encoding":
            lines.append(b"Transfer-Encoding: " + draw(st.sampled_from([b"chunked", b"identity", b"gzip", b" chunked"])))
            if draw(st.booleans()):
                body = b"%x\r\n" % len(body) + body + b"\r\n0\r\n\r\n"
        elif how == "fold":
            lines.insert(at + 1, draw(st.sampled_from([b" folded", b"\tX-Folded: 1", b" "])))
        elif how == "duplicate":
            lines.insert(at + 1, lines[draw(st.integers(1, 2))])
        else:  # the head ends with a bare LF, or the body comes short
            body = body[: draw(st.integers(0, len(body)))]
    return b"\r\n".join(lines) + b"\r\n\r\n" + body


def read_reply(sock: socket.socket, method_head: bool) -> tuple[int, bool, bool] | None:
    """One answer: (status, kept alive, is a stream); None when the socket closed without one."""
    data = b""
    while True:
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(65536)
            if not chunk:
                assert data == b"", f"the server closed mid-answer: {data[:200]!r}"
                return None
            data += chunk
        head, _, data = data.partition(b"\r\n\r\n")
        lines = head.split(b"\r\n")
        match = STATUS_LINE.fullmatch(lines[0])
        assert match, f"not an HTTP/1.1 status line: {lines[0]!r}"
        status = int(match.group(1))
        fields = {}
        for line in lines[1:]:
            name, sep, value = line.partition(b": ")
            assert sep and name and b" " not in name, f"malformed answer header: {line!r}"
            fields[name.lower()] = value
        if status == 100:  # the interim answer to Expect: 100-continue; the final one follows
            assert len(lines) == 1
            continue
        assert 200 <= status < 600
        if b"content-length" not in fields:
            assert fields.get(b"content-type", b"").startswith(b"text/event-stream"), head
            return status, False, True
        length = 0 if method_head else int(fields[b"content-length"])
        while len(data) < length:
            chunk = sock.recv(65536)
            assert chunk, "the server closed before the body it announced"
            data += chunk
        return status, fields.get(b"connection") == b"keep-alive", False


def test_fuzzed_heads_and_bodies_get_well_formed_answers_and_break_nothing(stack, caplog):
    host = host_of(stack)
    start_game(stack, host)
    ann = seated(stack, 1)
    port = stack.panel.port
    caplog.set_level(logging.WARNING)
    probe = f"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
    sent = [0]

    @settings(max_examples=200, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(st.data())
    def one_request(data: st.DataObject) -> None:
        raw, well_framed = data.draw(requests(port))
        sent[0] += 1
        sock = socket.create_connection(("127.0.0.1", port), timeout=READ_TIMEOUT_S,
                                        source_address=(lan(sent[0] % 200, net=50), 0))
        try:
            sock.sendall(raw)
            if not well_framed and data.draw(st.booleans()):  # the client says it is done: no waiting for more
                sock.shutdown(socket.SHUT_WR)
            reply = read_reply(sock, raw.startswith(b"HEAD "))
            if well_framed:
                assert reply is not None, raw
            head = raw.lstrip(b"\r\n").partition(b"\r\n\r\n")[0]
            if reply is not None and any(c in head.replace(b"\r\n", b"") for c in (b"\r", b"\n", b"\x00")):
                assert reply[0] == 400, (raw, reply)  # RFC 9112 5.5: nothing smuggled inside a line gets through
            if reply is not None and reply[1] and well_framed:  # kept alive: the same socket still serves
                sock.sendall(probe)
                assert read_reply(sock, False) == (200, True, False)
        except ConnectionResetError:
            assert not well_framed, raw
        finally:
            sock.close()

    started = time.monotonic()
    one_request()
    assert time.monotonic() - started < 60, "the fuzz is bounded to stay a small part of the suite"
    problems = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert problems == [], [r.getMessage() for r in problems]
    assert ann.post("/api/cmd", {"id": "after-http-fuzz", "type": "end_turn", "confirm": True}) == (200, {"ok": True})
