"""A running panel: the listening socket, the loop's thread, the Flask app and the hub's sink."""

from __future__ import annotations

import asyncio
import logging
import socket
import threading
from collections.abc import Callable
from typing import Any

from gametable_core.config import Config
from web_panel.app import create_app, host_link, link_for
from web_panel.hub import KEEPALIVE_S
from web_panel.link import TableLink
from web_panel.security import DEFAULT_PIN, resolve_pin
from web_panel.server.bridge import call_wsgi
from web_panel.server.limits import MAX_STREAMS, Limits, _raise_file_limit
from web_panel.server.streams import _Conn, _Loop

log = logging.getLogger("gametable.panel")


class PanelServer:
    """A running panel: ``url``, ``port``, ``pin`` and ``stop()``."""

    def __init__(self, config: Config, link: TableLink | None = None, *, host: str | None = None,
                 port: int | None = None, max_streams: int = MAX_STREAMS, limits: Limits | None = None,
                 pin: str | None = None, absent_s: float | None = None, **app_kwargs: Any) -> None:
        self.owns_link = link is None
        self.absent_s = float(absent_s if absent_s is not None else config.panel.absent_s)
        self.link = link or link_for(config)
        self.limits = limits or Limits(spectator_streams=max_streams)
        self.link.hub.max_clients = self.limits.spectator_streams
        if self.owns_link:
            self.link.start()
        self.pin = pin or config.panel.pin
        if self.pin == DEFAULT_PIN:
            log.warning("the host PIN is %s: anyone on the LAN can unlock the host screen; "
                        "set [panel] pin in the config", DEFAULT_PIN)
        self.app = create_app(config, self.link, pin=self.pin, absent_s=self.absent_s, **app_kwargs)
        _raise_file_limit(self.limits.max_connections + 256)
        bind_host = host if host is not None else config.panel.host
        bind_port = port if port is not None else config.panel.port
        try:  # bound before the event loop exists: a busy port leaves nothing half made behind
            self._sock = _listen(bind_host, bind_port)
        except OSError:
            if self.owns_link:
                self.link.stop()
            raise
        self._core = _Loop(self, self.limits, float(app_kwargs.get("keepalive_s", KEEPALIVE_S)))
        self._server: asyncio.Server | None = None
        self._ready = threading.Event()
        sockname = self._sock.getsockname()
        self.port: int = sockname[1]
        shown = sockname[0]
        self.host_shown = "127.0.0.1" if shown in ("0.0.0.0", "::") else shown
        self.url = f"http://{self.host_shown if ':' not in self.host_shown else '[' + self.host_shown + ']'}:{self.port}"
        self.app.extensions["gametable"]["allowed_ports"] = {self.port}
        self.config = config
        self._thread = threading.Thread(target=self._run, name="gametable-panel", daemon=True)

    # Hub sink (thread-safe): frames from the MQTT thread go to the loop in one hand-over each.
    def deliver(self, frame: bytes, seat: int | None) -> None:
        self._soon(self._core.broadcast, frame, seat)

    def close_seat(self, seat: int) -> None:
        self._soon(self._core.close_seat, seat)

    def close_all(self) -> None:
        self._soon(self._core.close_streams)

    def __len__(self) -> int:
        return self._core.stream_count

    @property
    def console_join_code(self) -> str:
        """The join code for the console's own QR code (``gametable sim``'s banner): valid this run."""
        return str(self.app.extensions["gametable"]["join_codes"].console)

    @property
    def host_link(self) -> str:
        """The host link of this run: for the console and the table's own screen only."""
        return host_link(self.config, self.url, self.app.extensions["gametable"]["login"].key)

    @property
    def refused(self) -> int:
        """Connections and requests refused or cut off so far (hostile-LAN tests and the soak)."""
        return self._core.refused

    def _soon(self, fn: Callable[..., Any], *args: Any) -> None:
        try:
            self._core.loop.call_soon_threadsafe(fn, *args)
        except RuntimeError:  # the loop is closed: nothing to write to
            pass

    def call_app(self, environ: dict[str, Any]) -> tuple[str, list[tuple[str, str]], bytes]:
        """Run the Flask app in a worker thread; the whole body is collected (streams have none)."""
        return call_wsgi(self.app, environ)


    def _run(self) -> None:
        # The loop is built and run in its own thread: the caller's thread may run another loop
        # (Playwright's sync API does).
        loop = self._core.loop
        asyncio.set_event_loop(loop)
        try:
            self._server = loop.run_until_complete(
                loop.create_server(lambda: _Conn(self._core), sock=self._sock, backlog=1024))
            loop.call_later(self._core.keepalive_s, self._core.keepalive)
            self._ready.set()
            loop.run_forever()
        finally:
            self._ready.set()
            loop.close()

    def start(self) -> PanelServer:
        self.link.hub.attach_sink(self)
        self._thread.start()
        self._ready.wait(10)
        log.info("panel on %s", self.url)
        return self

    def stop(self) -> None:
        self.link.hub.detach_sink(self)
        loop = self._core.loop
        if self._thread.is_alive():
            done = threading.Event()

            def shut() -> None:
                if self._server is not None:
                    self._server.close()
                for conn in list(self._core.conns):
                    conn.abort()
                loop.call_soon(loop.stop)
                done.set()

            loop.call_soon_threadsafe(shut)
            done.wait(3)
            self._thread.join(timeout=3)
        else:
            self._sock.close()
            loop.close()
        self._core.public.shutdown(wait=False, cancel_futures=True)
        self._core.reserved.shutdown(wait=False, cancel_futures=True)
        if self.owns_link:
            self.link.stop()


def _listen(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if family == socket.AF_INET6 and host == "::":
        sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)  # phones on IPv4 too
    sock.bind((host, port))
    sock.listen(1024)
    sock.setblocking(False)
    return sock



def serve(config: Config, link: TableLink | None = None, *, generate_pin: bool = False,
          **kwargs: Any) -> PanelServer:
    """Start the panel in a thread (``gametable sim`` / ``gametable run``); host/port from ``[panel]``.

    ``generate_pin`` (``gametable run``): a config left at the ``0000`` default gets a random PIN
    made at the first start and kept beside the journal, printed on the console.
    """
    if generate_pin and "pin" not in kwargs:
        kwargs["pin"] = resolve_pin(config)
    panel = PanelServer(config, link, **kwargs).start()
    print(f"panel host link (opens the host screen; keep it to yourself): {panel.host_link}", flush=True)
    return panel
