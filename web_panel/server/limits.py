"""What one client address, and everyone together, may hold on the panel's server (hostile LAN)."""

from __future__ import annotations

import logging
import resource
from dataclasses import dataclass

log = logging.getLogger("gametable.panel")

MAX_STREAMS = 2000  # spectator streams held at once (seated phones and the host come on top)


@dataclass(frozen=True)
class Limits:
    """What one client address, and everyone together, may hold (hostile LAN)."""

    max_connections: int = 4096        # sockets in all (file descriptors)
    max_waiting: int = 1024            # connections without a request in progress (oldest closed)
    client_waiting: int = 16           # the same, per client address (its oldest closed)
    client_busy: int = 8               # requests in progress per address (more: 503)
    client_streams: int = 8            # spectator streams per address (more: 503)
    spectator_streams: int = MAX_STREAMS
    seat_streams: int = 4              # streams per seat (the oldest closed: a phone that reloaded)
    host_streams: int = 8              # streams of host screens (the oldest closed)
    head_timeout_s: float = 5.0        # a request head (and body) must arrive within this
    idle_timeout_s: float = 20.0       # an idle keep-alive connection is closed after this
    max_head_bytes: int = 16 * 1024
    max_body_bytes: int = 64 * 1024    # bigger bodies are not read (the app answers 413) and the socket closed
    stream_buffer_bytes: int = 512 * 1024  # a stream whose unsent frames exceed this is dropped
    workers: int = 16                  # threads for everyone's ordinary requests
    reserved_workers: int = 8          # threads only seated phones and the host use
    public_rate: float = 200.0         # requests a second served to strangers, all together (web_panel/budget.py)
    public_burst: float = 400.0        # ... of which this many at once (a hundred phones loading the page)


def _raise_file_limit(wanted: int) -> None:
    """Room for every socket: the soft limit of open files is often 1,024 (up to the hard limit)."""
    try:
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        if soft != resource.RLIM_INFINITY and soft < target:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    except (ValueError, OSError):  # pragma: no cover - a container may forbid it
        log.warning("cannot raise the open-file limit to %d", wanted)

