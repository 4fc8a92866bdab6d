"""Property tests of the panel server's own parsers: hostile bytes give a clear refusal, never a crash."""

from __future__ import annotations

import string

from hypothesis import given
from hypothesis import strategies as st

from web_panel.security import HostCheck
from web_panel.server.parsing import _BadRequest, _parse_head

token = st.text(string.ascii_letters + string.digits + "-", min_size=1, max_size=20)
value = st.text(string.printable.replace("\r", "").replace("\n", ""), max_size=40).map(str.strip)


@given(st.binary(max_size=400))
def test_any_bytes_parse_or_are_refused_with_a_status(raw):
    try:
        req = _parse_head(raw)
    except _BadRequest as exc:
        assert exc.status in (400, 431, 505) and str(exc)
    else:
        assert req.method.isalpha() and req.version in ("HTTP/1.0", "HTTP/1.1")


@given(st.sampled_from(["GET", "POST", "HEAD"]), st.text(string.ascii_letters + "/?=&%", min_size=1, max_size=30),
       st.lists(st.tuples(token, value), max_size=10))
def test_a_well_formed_head_parses_to_what_was_sent(method, target, headers):
    head = f"{method} {target} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers)
    req = _parse_head(head.encode("latin-1")[:-2])  # as the server passes it: without the last CRLF
    assert (req.method, req.target, req.version) == (method, target, "HTTP/1.1")
    assert req.headers == [(k, v.strip(" \t")) for k, v in headers]


@given(st.lists(st.tuples(token, value), min_size=1, max_size=6), st.data())
def test_a_bare_cr_lf_or_nul_anywhere_in_the_head_is_a_400(headers, data):
    """RFC 9112 5.5: a header smuggled inside another's value (``X: a\\nHost: evil``) never reaches the app."""
    lines = ["GET /api/info HTTP/1.1"] + [f"{k}: {v}" for k, v in headers]
    at = data.draw(st.integers(0, len(lines) - 1))
    cut = data.draw(st.integers(0, len(lines[at])))
    lines[at] = lines[at][:cut] + data.draw(st.sampled_from(["\r", "\n", "\x00", "\nHost: evil.example"])) + lines[at][cut:]
    try:
        _parse_head("\r\n".join(lines).encode("latin-1"))
    except _BadRequest as exc:
        assert exc.status == 400
    else:
        raise AssertionError(f"accepted {lines!r}")


@given(st.text(max_size=80))
def test_the_host_check_never_fails_on_a_hostile_host_header(host):
    check = HostCheck()
    assert check.allowed(host) in (True, False)
    assert check.allowed("evil.example") is False and check.allowed("127.0.0.1:8080") is True
