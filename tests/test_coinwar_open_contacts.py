"""CW-8/CW-9 contacts known in part (``contacts_open``, controller/games/coinwar/open_contacts.py):
the referee asks only about the pairs the observer could not decide, only when one changes the
outcome, and reaches the same state as with the whole truth."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from controller.games import coinwar as cw
from controller.games.base import GameError
from tests.coinwar_helpers import ffa, play, players, teams


def _partial(seat: int, known: list[list[str]], open_pairs: list[list[str]], coin: str | None = None) -> dict[str, Any]:
    return {"type": "shot", "seat": seat, "coin": coin or f"c{seat}", "dead": [], "flown": [],
            "contacts": known, "contacts_open": open_pairs}


def _struck(state: dict[str, Any], seat: int) -> dict[str, Any]:
    return cw.apply(state, {"type": "strike", "seat": seat})


def test_cw8_an_open_pair_without_the_struck_coin_is_not_asked_in_free_for_all():
    state = play(_struck(ffa(1, 2, 3, 4), 1), _partial(1, [], [["c2", "c3"]]))
    assert state["questions"] == []
    assert state["turn"]["seat"] == 1  # CW-5.2: a move strike (no enemy touched), the turn goes on


def test_cw8_an_open_pair_with_the_struck_coin_asks_about_that_partner_only():
    state = play(_struck(ffa(1, 2, 3, 4), 1), _partial(1, [], [["c1", "c3"]]))
    (q,) = state["questions"]
    assert q["kind"] == "contacts" and q["subject"] == "c1" and q["options"] == ["c3"]
    hit = cw.apply(state, {"type": "answer", "question": q["id"], "value": ["c3"], "seat": 1})
    missed = cw.apply(state, {"type": "answer", "question": q["id"], "value": [], "seat": 1})
    assert hit["turn"]["seat"] != 1 and missed["turn"]["seat"] == 1  # attack strike ends the turn (CW-5.2)


def test_cw8_a_known_touch_decides_and_nothing_is_asked():
    state = play(_struck(ffa(1, 2, 3, 4), 1), _partial(1, [["c1", "c2"]], [["c1", "c3"]]))
    assert state["questions"] == []
    assert state["turn"]["seat"] != 1


def test_cw5_2_an_open_pair_with_a_teammate_is_not_asked():
    state = _struck(teams([1, 2, 3, 4], {1: "A", 2: "B", 3: "A", 4: "B"}), 1)
    assert play(state, _partial(1, [], [["c1", "c3"]]))["questions"] == []
    assert play(state, _partial(1, [], [["c1", "c3"], ["c1", "c2"]]))["questions"][0]["options"] == ["c2", "c3"]


@pytest.mark.parametrize(("contacts", "open_pairs", "says"), [
    (None, [["c1", "c2"]], "needs 'contacts'"),
    ([], [["c1", "c9"]], "not on the table"),
    ([], [["c1", "c1"]], "with itself"),
    ([["c1", "c2"]], [["c2", "c1"]], "says touched"),
    ([], [["c1", "c2"], ["c2", "c1"]], "twice"),
    ([], "c1-c2", "list of coin pairs"),
    ([], [["c1"]], "pairs of coin ids"),
])
def test_cw9_bad_contacts_open_is_refused_and_changes_nothing(contacts, open_pairs, says):
    state = _struck(ffa(1, 2, 3), 1)
    bad = {**_partial(1, [], []), "contacts": contacts, "contacts_open": open_pairs}
    with pytest.raises(GameError, match=says):
        cw.apply(state, bad)
    assert cw.apply(state, _partial(1, [], []))["turn"]["seat"] == 1  # the table goes on


def _outcome(state: dict[str, Any]) -> Any:
    return {k: state[k] for k in ("turn", "winner", "phase", "players", "coins", "pending_placements")}


ALL = ["c1", "c2", "c3", "c4"]
PAIRS = [list(p) for p in itertools.combinations(ALL, 2)]


@settings(max_examples=150, deadline=None)
@given(mode=st.sampled_from(["ffa", "teams", "biohazard"]), seat=st.just(1),
       truth=st.lists(st.sampled_from(PAIRS), unique_by=lambda p: tuple(p), max_size=4),
       dead=st.lists(st.sampled_from(ALL), unique=True, max_size=2),
       unsure=st.lists(st.sampled_from(PAIRS), unique_by=lambda p: tuple(p), min_size=1, max_size=4))
def test_cw8_partial_contacts_answered_truthfully_end_where_the_whole_truth_does(mode, seat, truth, dead, unsure):
    """Property: whatever the observer leaves open, answering the questions from the truth ends
    in the state the whole truth gives, and a question only shows pairs that were open."""
    if mode == "teams":
        state = teams([1, 2, 3, 4], {1: "A", 2: "B", 3: "A", 4: "B"})
    elif mode == "biohazard":
        options = {"roles": {"1": "mother", "2": "human", "3": "human", "4": "human"}}
        state = cw.new(options, 1, players=players(1, 2, 3, 4), mode="biohazard", order=[1, 2, 3, 4])
    else:
        state = ffa(1, 2, 3, 4)
    assume(state["turn"]["seat"] == seat)
    state = _struck(state, seat)
    coin = f"c{seat}"
    known = [p for p in truth if p not in unsure]
    full = {"type": "shot", "seat": seat, "coin": coin, "dead": dead, "flown": [], "contacts": truth}
    try:
        want = cw.apply(state, full)
    except GameError:
        assume(False)  # not a shot this mode takes
        raise
    got = cw.apply(state, {**full, "contacts": known, "contacts_open": unsure})
    while got["questions"]:
        q = got["questions"][0]
        assert q["kind"] == "contacts"
        assert all(sorted([q["subject"], o]) in [sorted(p) for p in unsure] for o in q["options"])
        touched = [o for o in q["options"] if sorted([q["subject"], o]) in [sorted(p) for p in truth]]
        got = cw.apply(got, {"type": "answer", "question": q["id"], "value": touched, "seat": seat})
    assert want["questions"] == []  # the whole truth leaves nothing to ask
    assert _outcome(got) == _outcome(want)
