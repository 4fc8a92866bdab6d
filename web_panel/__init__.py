"""The phone panel: Flask app (pages, API, SSE) talking to the daemon only through MQTT."""

from __future__ import annotations

from typing import Any


def create_app(config: Any, mqtt: Any = None, **kwargs: Any) -> Any:
    from web_panel.app import create_app as _create

    return _create(config, mqtt, **kwargs)


def serve(config: Any, link: Any = None, **kwargs: Any) -> Any:
    from web_panel.server import serve as _serve

    return _serve(config, link, **kwargs)


__all__ = ["create_app", "serve"]
