"""Reading an HTTP/1.1 request head, and the short answers the server writes itself (refusals)."""

from __future__ import annotations

# A CR, LF or NUL inside a line of the head (RFC 9112 5.5, 3.2): a value that ends early for one
# reader and not for another, or a header smuggled inside another; never passed on.
FORBIDDEN_IN_HEAD = (b"\r", b"\n", b"\x00")
# Headers a request may carry once: a second Content-Length smuggles a body, a second Host a name.
SINGLE_HEADERS = ("content-length", "host")


class _Request:
    """A parsed request head plus its body."""

    __slots__ = ("method", "target", "version", "headers", "body", "close_after", "declared")

    def __init__(self, method: str, target: str, version: str, headers: list[tuple[str, str]]) -> None:
        self.method, self.target, self.version, self.headers = method, target, version, headers
        self.body = b""
        self.close_after = False  # the body was not read: the connection cannot carry another request
        self.declared = 0  # the Content-Length sent

    def header(self, name: str) -> str | None:
        for k, v in self.headers:
            if k.lower() == name:
                return v
        return None

    def keep_alive(self) -> bool:
        conn = (self.header("connection") or "").lower()
        if self.version == "HTTP/1.1":
            return "close" not in conn
        return "keep-alive" in conn


class _BadRequest(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def _parse_head(head: bytes) -> _Request:
    lines = head.split(b"\r\n")
    if any(bad in head.replace(b"\r\n", b"") for bad in FORBIDDEN_IN_HEAD):
        raise _BadRequest(400, "a bare CR, LF or NUL in the request head")
    parts = lines[0].split(b" ")
    if len(parts) != 3 or not parts[0].isalpha() or not parts[1]:
        raise _BadRequest(400, "malformed request line")
    version = parts[2].decode("latin-1")
    if version not in ("HTTP/1.0", "HTTP/1.1"):
        raise _BadRequest(505, "HTTP/1.0 or HTTP/1.1 only")
    if len(lines) > 101:
        raise _BadRequest(431, "too many header lines")
    headers = []
    for line in lines[1:]:
        name, sep, value = line.partition(b":")
        if not sep or not name or name.strip() != name or b" " in name or b"\t" in name:
            raise _BadRequest(400, "malformed header line")
        headers.append((name.decode("latin-1"), value.strip(b" \t").decode("latin-1")))
    for single in SINGLE_HEADERS:  # two answers to one question: which one a proxy used is unknowable
        if sum(1 for k, _ in headers if k.lower() == single) > 1:
            raise _BadRequest(400, f"more than one {single.title()} header")
    return _Request(parts[0].decode("ascii").upper(), parts[1].decode("latin-1"), version, headers)


def _simple_response(status: int, message: str, *, close: bool = True, extra: str = "") -> bytes:
    body = ('{"ok":false,"error":"' + message.replace('"', "'") + '"}').encode()
    reason = {400: "Bad Request", 408: "Request Timeout", 431: "Request Header Fields Too Large",
              503: "Service Unavailable", 505: "HTTP Version Not Supported", 500: "Internal Server Error"}
    return (f"HTTP/1.1 {status} {reason.get(status, 'Error')}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n{extra}Connection: {'close' if close else 'keep-alive'}\r\n\r\n"
            ).encode() + body
