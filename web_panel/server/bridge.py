"""The bridge to the Flask app: a parsed request as a WSGI environ, and the app's answer collected."""

from __future__ import annotations

import io
import sys
from collections.abc import Callable
from typing import Any
from urllib.parse import unquote_to_bytes, urlsplit

from web_panel.server.parsing import _Request


class StreamRequest:
    """Handed to the app in ``environ["gametable.sse"]``: the app calls it to admit the stream."""

    def __init__(self) -> None:
        self.snapshot: Callable[[], list[bytes]] | None = None
        self.seat: int | None = None
        self.host = False

    def __call__(self, seat: int | None, host: bool, snapshot: Callable[[], list[bytes]]) -> None:
        self.seat, self.host, self.snapshot = seat, host, snapshot


def wsgi_environ(req: _Request, stream: StreamRequest | None, addr: str, port: int,
                 server_name: str, server_port: int) -> dict[str, Any]:
    """The WSGI environ of ``req`` (PEP 3333), from what was read; ``stream`` is how the app admits a stream."""
    target = req.target
    if target.startswith(("http://", "https://")):
        parts = urlsplit(target)
        target = (parts.path or "/") + ("?" + parts.query if parts.query else "")
    path, _, query = target.partition("?")
    env: dict[str, Any] = {
        "REQUEST_METHOD": req.method, "SCRIPT_NAME": "",
        "PATH_INFO": unquote_to_bytes(path).decode("latin-1"), "QUERY_STRING": query,
        "SERVER_NAME": server_name, "SERVER_PORT": str(server_port),
        "SERVER_PROTOCOL": req.version, "REMOTE_ADDR": addr, "REMOTE_PORT": str(port),
        "wsgi.version": (1, 0), "wsgi.url_scheme": "http", "wsgi.input": io.BytesIO(req.body),
        "wsgi.errors": sys.stderr, "wsgi.multithread": True, "wsgi.multiprocess": False,
        "wsgi.run_once": False,
    }
    for name, value in req.headers:
        key = name.upper().replace("-", "_")
        if "_" in name:  # Foo_Bar would pose as Foo-Bar: dropped, as other servers do
            continue
        if key == "CONTENT_TYPE":
            env["CONTENT_TYPE"] = value
        elif key == "CONTENT_LENGTH":
            continue  # set below from what was read
        else:
            key = "HTTP_" + key
            env[key] = env[key] + "," + value if key in env else value
    # What was read; a body too big to read keeps its declared length (the app answers 413 from it).
    env["CONTENT_LENGTH"] = str(req.declared if req.close_after else len(req.body)) if req.declared else ""
    if stream is not None:
        env["gametable.sse"] = stream
    return env



def call_wsgi(app: Callable[..., Any], environ: dict[str, Any]) -> tuple[str, list[tuple[str, str]], bytes]:
    """Run the Flask app in a worker thread; the whole body is collected (streams have none)."""
    started: list[Any] = []

    def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
        started[:] = [status, headers]
        return lambda data: chunks.append(data)

    chunks: list[bytes] = []
    result = app(environ, start_response)
    try:
        for chunk in result:
            chunks.append(chunk)
    finally:
        close = getattr(result, "close", None)
        if close:
            close()
    return started[0], list(started[1]), b"".join(chunks)
