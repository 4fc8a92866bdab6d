"""Serving the venue board with waitress, a production WSGI server (pure Python, runs on a Pi).

Why not the panel's own server (web_panel/server/): it is built around one table's panel (its
config, seat cookies and hub). Why waitress fits here though the panel left it: the board has a few
wall screens and phones open, not a table's hundred phones; each open board holds one worker
thread for its stream (gametable/venue/board.py ``/api/stream``), so ``threads`` is how many boards
may be open at once plus room for the other requests.
"""

from __future__ import annotations

import threading
from typing import Any

from waitress.server import create_server

BOARD_THREADS = 64  # open boards (one stream each) plus ordinary requests


class BoardServer:
    """The board's HTTP server in a thread of its own: ``port``, ``start()``, ``stop()``."""

    def __init__(self, app: Any, host: str, port: int, threads: int = BOARD_THREADS) -> None:
        # channel_timeout: a stream writes a keepalive every 15 s, so only dead connections time out.
        self._server: Any = create_server(app, host=host, port=port, threads=threads, channel_timeout=60,
                                          ident="gametable-venue", clear_untrusted_proxy_headers=True)
        self.port: int = int(self._server.effective_port)
        self._thread = threading.Thread(target=self._server.run, name="venue-board", daemon=True)
        self._stopped = False

    def start(self) -> BoardServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        """Close every connection (open streams end at their next write) and the listening socket."""
        if self._stopped:
            return
        self._stopped = True
        server = self._server
        server.task_dispatcher.shutdown(timeout=1)
        server.close()
        for channel in list(server._map.values()):  # the loop ends when its map is empty
            channel.close()
        self._thread.join(timeout=3)
