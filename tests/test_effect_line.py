"""One generic log line for an effect no game has words for, in the daemon and on the panel.

The daemon's shared words (``controller.games.words``) and the panel's fallback for an event
without ``words`` (``web_panel.loglines``) both say such an effect with ``gametable_core.effect_line``:
a player reads the same line whichever of the two wrote it.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.games.words import narrate
from web_panel.loglines import log_lines

PLAYERS = [{"seat": 1, "name": "Ann"}, {"seat": 2, "name": "Bo"}]

kinds = st.text(alphabet="abcxyz_", min_size=1, max_size=8).filter(lambda k: k.strip("_"))
values = st.integers(0, 5) | st.text(alphabet="abc ", max_size=6) | st.booleans()
effects = st.builds(
    lambda kind, extra: {"kind": "x_" + kind, **extra},  # never a kind the shared words say
    kinds, st.dictionaries(st.sampled_from(["seat", "target", "by", "coins", "rule", "to_seat"]), values, max_size=4))


@settings(max_examples=150, deadline=None)
@given(st.lists(effects, min_size=1, max_size=4))
def test_panel_fallback_reads_like_the_daemons_generic_words(effs: list[dict[str, Any]]) -> None:
    state = {"players": PLAYERS}
    daemon = narrate({"type": "shot"}, effs, state)
    panel = log_lines({"input": {"type": "shot"}, "effects": effs}, PLAYERS)
    assert panel == [" ".join(line.split()) for line in daemon if line.strip()]


def test_generic_line_names_seats_and_skips_the_rule() -> None:
    eff = {"kind": "x_steal", "seat": 1, "target": 2, "coins": 2, "rule": "CO-4.2"}
    assert narrate({}, [eff], {"players": PLAYERS}) == ["Ann: x steal (target Bo, coins 2)"]
    assert log_lines({"effects": [eff]}, PLAYERS) == ["Ann: x steal (target Bo, coins 2)"]


def test_panel_says_event_for_a_blank_kind_where_the_daemon_keeps_it() -> None:
    """A kind of only underscores: the panel shows "event"; the daemon's words keep the blank
    (both as before the line was shared)."""
    assert log_lines({"effects": [{"kind": "__", "seat": 2}]}, PLAYERS) == ["Bo: event"]
    assert narrate({}, [{"kind": "__", "seat": 2}], {"players": PLAYERS}) == ["Bo:   "]


def test_a_new_games_players_name_the_seats_before_the_old_state() -> None:
    inp = {"type": "new_game", "players": [{"seat": 1, "name": "Zed"}, {"seat": 3}]}
    eff = {"kind": "x_joined", "seat": 1, "by": 3}
    assert narrate(inp, [eff], {"players": PLAYERS}) == ["Zed: x joined (by Seat 3)"]
    assert log_lines({"input": inp, "effects": [eff]}, PLAYERS) == ["Zed: x joined (by Seat 3)"]
