"""The lobby starts Biohazard (CW-7.2) in a real Chromium against the real daemon and Mosquitto:
the factions come from the roles (no team picker), and 5 players get 2 mothers + 3 humans by
default or 1 mother + 4 humans when the host picks it."""

from __future__ import annotations

import time

import pytest

from tests.helpers.browser import start_from_lobby, unlocked_host

pytestmark = [pytest.mark.browser, pytest.mark.mqtt, pytest.mark.usefixtures("close_contexts")]


def _lobby_with_five(stack, browser):
    errors: list[str] = []
    host = unlocked_host(browser, stack, errors)  # (waits for the stream and the games before the PIN)
    host.set_default_timeout(20_000)
    host.click("[data-action=lobby-set][data-key=mode][data-value=biohazard]")
    host.check("[data-lobby=include][data-seat='4']")
    host.check("[data-lobby=include][data-seat='5']")
    host.locator("#start").filter(has_text="5 players").wait_for()
    assert host.locator("[data-action=lobby-set][data-key=teamMode]").count() == 0  # factions, not teams
    assert errors == []
    return host


def _roles(stack) -> list[str]:
    """The roles of the game the lobby started (a bounded wait: it crosses MQTT and the daemon)."""
    deadline = time.monotonic() + 20
    while True:
        state = stack.daemon.public_state() or {}
        if state.get("mode") == "biohazard":
            return sorted(p["role"] for p in state["players"])
        assert time.monotonic() < deadline, f"no Biohazard game started: {state.get('mode')!r}"
        time.sleep(0.05)  # real I/O: the command travels browser → panel → MQTT → daemon


def test_cw_7_2_lobby_five_player_biohazard_defaults_to_two_mothers(stack, browser):
    host = _lobby_with_five(stack, browser)
    assert host.locator("[data-key=split][data-value='0']").get_attribute("aria-pressed") == "true"
    start_from_lobby(host)
    assert _roles(stack) == ["human"] * 3 + ["mother"] * 2


def test_cw_7_2_lobby_five_player_biohazard_may_play_one_mother(stack, browser):
    host = _lobby_with_five(stack, browser)
    host.click("[data-action=lobby-set][data-key=split][data-value='1']")
    start_from_lobby(host)
    assert _roles(stack) == ["human"] * 4 + ["mother"]
