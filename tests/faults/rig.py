"""The fault rig: a real Mosquitto, the real daemon process, a recording phone and a bot."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from controller.command_client import CommandClient, CommandTimeout
from controller.daemon import led_plan_for
from gametable.broker import Broker
from gametable.replay import replay_lines
from gametable.testing.bots import Bot, comparable
from gametable.testing.daemon_proc import DaemonProcess
from gametable.testing.recorder import Recorder

TABLE = "t1"
T = f"gametable/{TABLE}"


@dataclass
class Rig:
    broker: Broker
    daemon: DaemonProcess
    phone: Recorder
    cc: CommandClient
    bot: Bot

    def start_daemon(self, timeout: float = 40.0) -> int:
        """Start the daemon process; wait for ``online``; returns the phone's message index before."""
        return self.daemon.start_online(self.phone, timeout)

    def wait_online(self, mark: int, timeout: float = 40.0) -> None:
        self.daemon.wait_online(self.phone, mark, timeout)

    def play(self, n: int) -> None:
        """``n`` random legal commands, each acknowledged ok; returns once the phone saw them all."""
        cmd = None
        for _ in range(n):
            cmd = self.bot.next_command()
            try:
                result = self.cc.send(cmd)
            except CommandTimeout:
                raise AssertionError(f"no answer to {cmd}; daemon alive: {self.daemon.alive()}; its log:\n"
                                     + self.daemon.log_text()[-3000:]) from None
            assert result["ok"], result
            self.bot.accepted(cmd)
        if cmd is not None:  # the result is the daemon's last message for a command: all effects are in
            self.phone.wait_for(f"{T}/cmd/result", lambda m: m.json().get("id") == cmd["id"], timeout=30)

    def expected(self) -> dict[str, Any] | None:
        """The public state the bot's mirror says the table must have."""
        return comparable(self.bot.mirror.public_view())

    def journal_state(self) -> dict[str, Any] | None:
        """The public state a replay of the daemon's journal gives (gametable.replay)."""
        rows = self.daemon.journal_rows()
        return comparable(replay_lines([body for _s, _c, body in rows]).public_view())

    def journal_leds(self) -> Any:
        """The LED plan that goes with a replay of the daemon's journal (from the game's table view)."""
        table = replay_lines([body for _s, _c, body in self.daemon.journal_rows()])
        view = table.game.table_view(table.state) if table.game is not None and table.state is not None else None
        return expected_leds(view)

    def settled(self, mark: int, timeout: float = 30.0) -> tuple[Any, Any]:
        """(latest state the phone got after ``mark``, replay of the journal) once they agree.

        After a restart on a damaged journal the broker may redeliver a command whose record was
        lost (the daemon acknowledges commands only once journalled), and the daemon applies it
        again: the journal grows by it, and the published state follows. This waits (bounded, real
        I/O) until both have settled; on timeout it returns the last pair, so the assert shows them.
        """
        deadline = time.monotonic() + timeout
        while True:
            journalled = self.journal_state()
            states = [m for m in self.phone.messages[mark:] if m.topic == f"{T}/state"]
            published = comparable(states[-1].json()) if states else None
            if published == journalled or time.monotonic() > deadline:
                return published, journalled
            time.sleep(0.05)

    def journal_ids(self) -> list[str | None]:
        return [cid for _s, cid, _b in self.daemon.journal_rows()]

    def state_after(self, mark: int, expect: dict[str, Any] | None = None, timeout: float = 30.0) -> dict[str, Any]:
        """The state the phone received after ``mark``; with ``expect``, the first one equal to it.

        A state the killed daemon published just before it died can still reach the phone after
        ``mark`` on a loaded machine: waiting for the expected one skips such stale messages
        (and times out, failing the test, if the restarted daemon never publishes it).
        """
        if expect is None:
            return comparable(self.phone.wait_for(f"{T}/state", start=mark, timeout=timeout).json())
        try:
            msg = self.phone.wait_for(f"{T}/state", lambda m: comparable(m.json()) == expect, start=mark,
                                      timeout=timeout)
        except TimeoutError:
            seen = [comparable(m.json()) for m in self.phone.messages[mark:] if m.topic == f"{T}/state"]
            return seen[-1] if seen else {}
        return comparable(msg.json())

    def leds_after(self, mark: int, expect: Any = None, timeout: float = 30.0) -> Any:
        """The LED plan received after ``mark``; with ``expect``, the first equal to it (see state_after)."""
        if expect is None:
            return self.phone.wait_for(f"{T}/leds", start=mark, timeout=timeout).json()
        try:
            return self.phone.wait_for(f"{T}/leds", lambda m: m.json() == expect, start=mark, timeout=timeout).json()
        except TimeoutError:
            seen = [m.json() for m in self.phone.messages[mark:] if m.topic == f"{T}/leds"]
            return seen[-1] if seen else None


def expected_leds(view: Any) -> Any:
    """The LED plan of a game's table view (``Game.table_view``), as it arrives over MQTT."""
    return json.loads(json.dumps(led_plan_for(view, None)))


def retained(broker: Broker, topic: str, timeout: float = 30.0) -> Any:
    """What a phone that connects now is given for ``topic`` (the retained message)."""
    late = Recorder(broker.host, broker.port, topic)
    try:
        msg = late.wait_for(topic, lambda m: m.retain, timeout)
        if topic.endswith("/status"):
            return msg.payload.decode()
        return comparable(msg.json()) if topic.endswith("/state") else msg.json()
    finally:
        late.close()
