"""``venue.toml``: the venue service's config, checked at load with errors that name the key
(written by ``gametable venue-setup``; hardware_docs/multi_table.md)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gametable.venue.setup import TABLE_ID


class VenueConfigError(ValueError):
    """One line naming the bad key."""


@dataclass(frozen=True)
class VenueConfig:
    mqtt_host: str = "127.0.0.1"
    mqtt_port: int = 1883
    mqtt_username: str | None = None
    mqtt_password: str | None = None
    client_id: str = "gametable-venue"  # persistent session: two services need two ids
    database_url: str = "sqlite:///venue.sqlite"
    board_host: str = "127.0.0.1"
    board_port: int = 8090
    tables: tuple[str, ...] = ()
    spectator: dict[str, str] = field(default_factory=dict)  # table id -> its panel's /table URL
    schedule: bool = True  # run tournaments (offer matches); exactly one service of a venue does


def _get(section: dict[str, Any], key: str, kind: type, where: str, default: Any) -> Any:
    value = section.get(key, default)
    if value is not None and not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise VenueConfigError(f"{where}{key}: expected {kind.__name__}, got {value!r}")
    return value


def parse(data: dict[str, Any], base: Path = Path(".")) -> VenueConfig:
    unknown = set(data) - {"mqtt", "database", "board"}
    if unknown:
        raise VenueConfigError(f"unknown section(s): {', '.join(sorted(unknown))} (mqtt, database, board)")
    mqtt, db, board = (data.get(k, {}) for k in ("mqtt", "database", "board"))
    for name, section in (("mqtt", mqtt), ("database", db), ("board", board)):
        if not isinstance(section, dict):
            raise VenueConfigError(f"[{name}] must be a table")
    port = _get(mqtt, "port", int, "mqtt.", 1883)
    board_port = _get(board, "port", int, "board.", 8090)
    for key, value in (("mqtt.port", port), ("board.port", board_port)):
        if not 0 < value < 65536:
            raise VenueConfigError(f"{key}: a TCP port 1-65535, got {value}")
    tables = _get(board, "tables", list, "board.", [])
    for t in tables:
        if not isinstance(t, str) or not TABLE_ID.fullmatch(t):
            raise VenueConfigError(f"board.tables: {t!r} is not a table id (letters, digits, '-', '_')")
    spectator = _get(board, "spectator", dict, "board.", {})
    for t, url in spectator.items():
        if not isinstance(url, str) or not url.startswith(("http://", "https://")):
            raise VenueConfigError(f"board.spectator.{t}: an http(s) URL of that table's panel, got {url!r}")
    url = _get(db, "url", str, "database.", "sqlite:///venue.sqlite")
    if url.startswith("sqlite:///") and not url.startswith("sqlite:////") and url != "sqlite:///:memory:":
        url = f"sqlite:///{(base / url.removeprefix('sqlite:///')).resolve()}"  # relative to the config
    return VenueConfig(
        mqtt_host=_get(mqtt, "host", str, "mqtt.", "127.0.0.1"), mqtt_port=port,
        mqtt_username=_get(mqtt, "username", str, "mqtt.", None),
        mqtt_password=_get(mqtt, "password", str, "mqtt.", None),
        client_id=_get(mqtt, "client_id", str, "mqtt.", "gametable-venue"),
        database_url=url, board_host=_get(board, "host", str, "board.", "127.0.0.1"), board_port=board_port,
        tables=tuple(tables), spectator=dict(spectator), schedule=_get(board, "schedule", bool, "board.", True))


def load(path: str | Path) -> VenueConfig:
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise VenueConfigError(f"cannot read {path}: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise VenueConfigError(f"{path} is not valid TOML: {exc}") from None
    return parse(data, path.parent)
