"""The log sentences each game says (its ``words``, published on ``events``), as the phone panel
showed them before they moved out of ``web_panel``: the same sentences, now asserted on
the game side (docs/rules/coinwar.md CW-4 … CW-8, docs/rules/coup.md CP-1 … CP-5)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.games import registry

PLAYERS = [{"seat": 1, "name": "Ann", "coin": "c1", "alive": True}, {"seat": 2, "name": "Bo", "coin": "c2", "alive": True},
           {"seat": 3, "name": "Cy", "coin": "c3", "alive": True}]
STATE = {"players": PLAYERS}

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=True) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


def coinwar_words(effects, inp=None):
    return registry()["coinwar"].words(inp or {}, effects, STATE)


def coup_words(effects, inp=None):
    return registry()["coup"].words(inp or {}, effects, STATE)


@settings(max_examples=60, deadline=None)
@given(st.lists(json_values | st.fixed_dictionaries({"kind": st.sampled_from(
    ["shot", "out", "foul", "turn", "game_over", "placed", "question", "steal", "end_turn"])},
    optional={"seat": st.integers(1, 6) | json_values, "cause": st.sampled_from(["goal", "execution"]),
              "flown": st.lists(st.sampled_from(["c1", "c2"])), "winner": json_values}), max_size=6))
def test_coinwar_words_never_fail_and_give_one_line_each(effects):
    lines = coinwar_words(effects)
    assert all(isinstance(line, str) and "\n" not in line for line in lines)


def test_cw_4_words_name_who_knocked_whom_into_the_goal():
    effects = [{"kind": "shot", "seat": 1, "coin": "c1", "dead": ["c2"], "flown": []},
               {"kind": "out", "seat": 2, "cause": "goal", "rule": "CW-4.2"},
               {"kind": "turn", "seat": 3, "extra": False}]
    assert coinwar_words(effects) == ["Ann knocked Bo's coin into the goal", "Cy's turn"]
    assert coinwar_words([{"kind": "foul", "seat": 1, "flown": ["c3"], "rule": "CW-6.3", "extra_turn": 3}]) == \
        ["Foul by Ann: Cy's coin flew (CW-6.3); Cy gets an extra turn"]
    # an effect no game has words for: generic but readable (the shared words' fallback)
    assert coinwar_words([{"kind": "bang", "seat": 2, "target": 1, "amount": 2}]) == \
        ["Bo: bang (target Ann, amount 2)"]


def test_cp_2_coup_words_say_a_steal():
    assert coup_words([{"kind": "steal", "seat": 2, "target": 1, "coins": 2}]) == ["Bo steals 2 from Ann"]


COUP_KINDS = ["declare", "window", "pass", "timeout", "challenge", "show", "bluff", "block", "blocked", "choose",
              "reveal", "lose_influence", "coins", "steal", "assassinate", "coup", "refund", "exchange_draw",
              "exchange_return", "out"]


@settings(max_examples=80, deadline=None)
@given(st.lists(json_values | st.fixed_dictionaries({"kind": st.sampled_from(COUP_KINDS)},
    optional={"seat": st.integers(1, 6) | json_values, "target": st.integers(1, 6) | json_values,
              "claimant": st.integers(1, 6), "claim": st.sampled_from(["duke", "captain"]) | json_values,
              "card": st.sampled_from(["contessa", "assassin"]) | json_values, "move": json_values,
              "coins": json_values, "count": json_values, "seats": st.lists(st.integers(1, 6))}), max_size=6))
def test_coup_words_never_fail_and_give_one_line_per_coup_effect(effects):
    lines = coup_words(effects)
    assert len(lines) == sum(1 for e in effects if isinstance(e, dict) and e.get("kind") in COUP_KINDS)
    assert all(isinstance(line, str) and line and "\n" not in line for line in lines)


def test_cp_1_coup_words_name_roles_with_their_poker_rank():
    effects = [{"kind": "declare", "seat": 2, "move": "steal", "target": 1, "claim": "captain", "paid": 0},
               {"kind": "challenge", "seat": 3, "claimant": 2, "claim": "captain", "had": False},
               {"kind": "bluff", "seat": 2, "claim": "captain", "rule": "CP-3.3"},
               {"kind": "reveal", "seat": 2, "card": "contessa", "rule": "CP-5.1"},
               {"kind": "exchange_return", "seat": 3, "count": 2, "rule": "CP-2.4"}]
    assert coup_words(effects) == [
        "Bo steals from Ann, claiming Captain (10)", "Cy challenges Bo's Captain (10)",
        "Bo had no Captain (10): the claim fails (CP-3.3)", "Bo turns Contessa (9) face up",
        "Cy returns 2 cards to the deck"]


def test_three_kingdoms_effects_read_as_players_say_them():
    """"Ann draws 1 card", not "Ann: draw (count 1)"; hidden cards never named."""
    from controller.games import registry

    coinwar = registry()["coinwar"]
    state = {"players": [{"seat": 1, "name": "Ann", "coin": "c1"}, {"seat": 2, "name": "Bo", "coin": "c2"}]}
    effects = [{"kind": "draw", "seat": 1, "count": 1, "rule": "CW-7.5"},
               {"kind": "combo", "seat": 1, "card": {"kind": "combo", "points": 3, "id": "k2"}, "strikes_allowed": 3},
               {"kind": "shot", "seat": 1, "coin": "c1", "dead": [], "flown": []},
               {"kind": "damage", "seat": 2, "cause": "goal", "health": 2, "rule": "CW-7.5"},
               {"kind": "revealed", "seat": 2, "identity": "lord", "rule": "CW-7.5"},
               {"kind": "burning_camps", "seat": 1, "target": 2, "card": {"kind": "burning_camps", "points": 1}},
               {"kind": "out", "seat": 2, "cause": "burning_camps", "identity": "rebel", "rule": "CW-7.5"}]
    assert coinwar.words({"type": "move"}, effects, state) == [
        "Ann draws 1 card", "Ann plays Combo (3): 3 strikes this turn", "Ann flicked their coin",
        "Bo loses 1 health: 2 left", "Bo is revealed: the Lord", "Ann sets Bo's camp on fire (Burning Camps (1))",
        "Bo is out to the fire: a Rebel"]
