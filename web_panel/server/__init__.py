"""Serving the panel: one asyncio event loop owns every socket; Flask runs in a few worker threads.

Why not waitress: it held one worker thread per Server-Sent-Events stream (100 threads
woke one after another for every state: p95 600-1,300 ms), its main loop polled ~24,000 times a
second with the timeout we gave it, and 185 half-open sockets or 120 streams from one client
starved every real phone. Here, on the standard library alone (it runs on a Pi):

- **One writer for all streams**: the app admits a stream (:func:`web_panel.app.create_app`'s
  ``/api/stream``); from then on the loop writes the snapshot and every later frame to the socket
  itself, the same bytes to every phone, and a slow reader whose buffer grows is dropped.
- **Idle means asleep**: the loop only wakes for I/O, per-connection deadlines and one keepalive
  timer for all streams.
- **Hostile LAN** (see :class:`Limits`): a request head must arrive within ``head_timeout_s``
  (slowloris); waiting connections are capped per client address and overall, and the *oldest
  waiting one is closed* to make room, so a real phone's request (milliseconds) always gets in;
  spectator streams are capped per address and overall; a seated phone's and the host's streams
  never count against those caps, and their requests run on a reserved worker pool.
- The table's own screen (``127.0.0.1``/``::1``) is not subject to the per-address caps.

What it does NOT support (each is refused with a clear status, never half-served;
``tests/security/test_http_fuzz.py`` sends all of them):

- **Chunked or any other Transfer-Encoding of a request body**: the body is never read, the app
  answers 411 and the connection closes (a body the server does not frame cannot smuggle a request).
- **HTTP/2, HTTP/0.9, TLS, Upgrade (WebSocket)**: HTTP/1.0 and HTTP/1.1 in plain text only (505);
  an ``Upgrade`` header is ignored. The table is on a LAN; live updates are Server-Sent Events.
- **Obsolete line folding, bare CR or LF line ends, a NUL anywhere in the head, header names
  with spaces**: 400. A head ends only at CRLF CRLF.
- **More than one Content-Length or Host**: 400 (which one a proxy used is unknowable).
- **Content-Length other than plain digits** (signs, spaces, lists, hex): 400.
- **Big requests**: a head over ``Limits.max_head_bytes`` (16 KiB) or over 100 lines is a 431;
  a body over ``Limits.max_body_bytes`` (64 KiB) is not read: 413, and the connection closes.
- **Header names with an underscore** never reach the app (``Foo_Bar`` would pose as ``Foo-Bar``).
- **Expect** other than ``100-continue`` is ignored; request trailers do not exist without chunks.
- **Concurrent pipelining**: requests sent back to back on one connection are answered one after
  another (the next is read once the previous answer is written).

Why not h11 for the parsing (weighed and measured): on this machine, one phone's command (a 10-line
head and a JSON body) parses ~2.8x faster here (19-25 us against 54-75 us with h11 0.16), importing
h11 costs ~26-48 ms and ~3.7 MB of resident memory against ~2 ms and ~0.5 MB, and every refusal
above is already ours, tested and fuzzed. h11 would not replace the writer either: streams are
written by the loop itself.

Modules: :mod:`~web_panel.server.parsing` (request heads, refusals), :mod:`~web_panel.server.limits`
(the caps), :mod:`~web_panel.server.streams` (sockets, admission, the one writer),
:mod:`~web_panel.server.bridge` (WSGI environ, the app's answer), :mod:`~web_panel.server.panel`
(the running panel).
"""

from web_panel.server.limits import MAX_STREAMS, Limits
from web_panel.server.panel import PanelServer, serve
from web_panel.server.streams import REFUSED_STREAM, STREAM_PATH

__all__ = ["MAX_STREAMS", "REFUSED_STREAM", "STREAM_PATH", "Limits", "PanelServer", "serve"]
