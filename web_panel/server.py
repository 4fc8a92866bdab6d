"""Serving the panel with waitress (pure Python, Debian-packaged, fine on a Pi).

Each open Server-Sent-Events stream holds one waitress worker thread, so ``threads`` is sized for
the streams (default 100 phones/screens) plus spare workers for ordinary requests; the hub refuses
streams beyond its cap so the spare workers always remain. ``connection_limit`` is raised to match.
"""

from __future__ import annotations

import logging
import threading
import warnings
from typing import Any

from waitress.server import create_server

from controller.config import Config
from web_panel.app import create_app, link_for
from web_panel.link import TableLink

log = logging.getLogger("gametable.panel")

MAX_STREAMS = 120
SPARE_THREADS = 16


class PanelServer:
    """A running panel: ``url``, ``port`` and ``stop()``."""

    def __init__(self, config: Config, link: TableLink | None = None, *, host: str | None = None,
                 port: int | None = None, max_streams: int = MAX_STREAMS, **app_kwargs: Any) -> None:
        self.owns_link = link is None
        self.link = link or link_for(config)
        self.link.hub.max_clients = max_streams
        if self.owns_link:
            self.link.start()
        self.app = create_app(config, self.link, **app_kwargs)
        options: dict[str, Any] = dict(
            host=host if host is not None else config.panel.host,
            port=port if port is not None else config.panel.port,
            threads=max_streams + SPARE_THREADS,
            connection_limit=max_streams + 4 * SPARE_THREADS,
            channel_timeout=60,
            asyncore_loop_timeout=0.25,  # stop() returns quickly; 4 idle wake-ups a second are free
            ident="gametable",
            clear_untrusted_proxy_headers=True,
        )
        # Flush every write at once: below send_bytes (18000 by default) waitress leaves a small SSE
        # frame in its buffer until its main loop next wakes. Deprecated in waitress 3, so it is
        # only passed while waitress still knows it.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            try:
                self.server = create_server(self.app, send_bytes=1, **options)
            except (TypeError, ValueError):
                self.server = create_server(self.app, **options)
        self.port: int = self.server.effective_port
        shown = "127.0.0.1" if self.server.effective_host in ("0.0.0.0", "::") else self.server.effective_host
        self.url = f"http://{shown}:{self.port}"
        self._thread = threading.Thread(target=self._run, name="gametable-panel", daemon=True)

    def _run(self) -> None:
        try:
            self.server.run()
        except OSError:  # closed by stop()
            pass

    def start(self) -> PanelServer:
        self._thread.start()
        log.info("panel on %s", self.url)
        return self

    def stop(self) -> None:
        self.link.hub.close_all()  # frees the stream threads first, while waitress still runs
        try:
            self.server.task_dispatcher.shutdown(cancel_pending=True, timeout=2)
        except Exception:  # pragma: no cover - best effort on shutdown
            log.debug("waitress shutdown", exc_info=True)
        self.server.close()
        if self.owns_link:
            self.link.stop()
        self._thread.join(timeout=3)


def serve(config: Config, link: TableLink | None = None, **kwargs: Any) -> PanelServer:
    """Start the panel in a thread (``gametable sim`` / ``gametable run``); host/port from ``[panel]``."""
    return PanelServer(config, link, **kwargs).start()
