"""CW-8 with CW-7.2 Biohazard: once a strike decides which side wins nothing more is asked (a human
whose conversion is unknown counts as a human), and CW-9: with many open pairs the known contacts
stand and only the open pairs are asked. Written from the spec's words (docs/rules/coinwar.md)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.games import coinwar as cw
from tests.coinwar_helpers import play, players

FOUR = {1: "mother", 2: "human", 3: "human", 4: "human"}
SIX = {1: "mother", 2: "mother", 3: "human", 4: "human", 5: "human", 6: "human"}


def bio(roles: dict[int, str], order: list[int]) -> dict:
    return cw.new({"roles": {str(s): r for s, r in roles.items()}}, 1, players=players(*sorted(roles)),
                  mode="biohazard", order=order)


def partial(seat: int, dead: list[str], known: list[list[str]], open_pairs: list[list[str]]) -> dict:
    return {"type": "shot", "seat": seat, "coin": f"c{seat}", "dead": dead, "flown": [],
            "contacts": known, "contacts_open": open_pairs}


def test_cw8_last_humans_die_in_a_human_turn_with_open_pairs_nothing_is_asked_biohazard_wins():
    """Human 2 strikes and all three humans die; whether c3/c4 touched the mother is open. Either
    way no human is left: the biohazard faction has won, so nothing is asked and the winner lists
    the side as known -- the mother, seat 1 (unknown conversions count as human)."""
    s = play(bio(FOUR, [2, 1, 3, 4]), {"type": "strike", "seat": 2},
             partial(2, ["c2", "c3", "c4"], [], [["c1", "c3"], ["c1", "c4"], ["c1", "c2"]]))
    assert s["questions"] == []
    assert s["phase"] == "over" and s["winner"] == [1]


def test_cw8_the_same_with_contacts_unknown_altogether():
    s = play(bio(FOUR, [2, 1, 3, 4]), {"type": "strike", "seat": 2},
             {"type": "shot", "seat": 2, "coin": "c2", "dead": ["c2", "c3", "c4"], "flown": [], "contacts": None})
    assert s["questions"] == []
    assert s["phase"] == "over" and s["winner"] == [1]


def test_cw8_a_known_conversion_on_the_winning_strike_lists_the_zombie_with_its_side():
    """Known facts stay known: c3 was seen touching the mother, so it converted and wins with her."""
    s = play(bio(FOUR, [2, 1, 3, 4]), {"type": "strike", "seat": 2},
             partial(2, ["c2", "c3", "c4"], [["c1", "c3"]], [["c1", "c4"]]))
    assert s["questions"] == [] and s["winner"] == [1, 3]


def _many_open() -> dict:
    """Six players; human 3 strikes, c3 survives and c4, c5, c6 die. c3 is known to have touched
    mother c1 (an attack, CW-5.3); ten pairs are open, more than are tried each way."""
    open_pairs = [["c2", "c3"], ["c3", "c4"], ["c3", "c5"], ["c3", "c6"], ["c1", "c4"], ["c2", "c4"],
                  ["c1", "c5"], ["c2", "c5"], ["c1", "c6"], ["c2", "c6"]]
    return play(bio(SIX, [3, 1, 4, 2, 5, 6]), {"type": "strike", "seat": 3},
                partial(3, ["c4", "c5", "c6"], [["c1", "c3"]], open_pairs))


def test_cw9_more_than_six_open_pairs_offer_only_open_partners():
    s = _many_open()
    q = s["questions"][0]
    assert q["kind"] == "contacts"
    if q["subject"] == "c3":
        assert "c1" not in q["options"]  # c1 is known touched: never offered again
    for c in q["options"]:
        assert sorted([q["subject"], c]) in s["pending_shot"]["contacts_open"]


def test_cw9_answering_none_to_every_question_keeps_the_known_attack():
    """The known touch of the mother is an attack: the turn ends (CW-5.3), however the open pairs
    are answered; answering "none" for every dead human leaves them out of the game (CW-7.2)."""
    s = _many_open()
    for _ in range(12):
        if not s["questions"]:
            break
        q = s["questions"][0]
        s = cw.apply(s, {"type": "answer", "question": q["id"], "value": [], "seat": 3})
    assert s["questions"] == [] and s["phase"] != "over"
    roles = {p["seat"]: p["role"] for p in cw.view(s)["players"]}
    assert [roles[x] for x in (4, 5, 6)] == ["human"] * 3 and not any(
        p["alive"] for p in s["players"] if p["seat"] in (4, 5, 6))
    assert roles[s["turn"]["seat"]] == "mother"  # the attack ended human 3's turn: no extra strike


@settings(max_examples=60, deadline=None)
@given(n=st.sampled_from([4, 5, 6]), data=st.data())
def test_cw8_a_strike_that_kills_every_human_is_never_followed_by_a_question(n: int, data: st.DataObject) -> None:
    """Any Biohazard table, a human's strike that kills every human, any split of the pairs into
    known-touched, known-not and open: biohazard has won; nothing is asked; the winner lists the
    mothers and exactly the humans seen touching a biohazard coin (known conversions)."""
    mothers = 1 if n == 4 else data.draw(st.sampled_from([1, 2])) if n == 5 else 2
    roles = {s: ("mother" if s <= mothers else "human") for s in range(1, n + 1)}
    humans = [s for s in roles if roles[s] == "human"]
    striker = data.draw(st.sampled_from(humans))
    order = [striker] + [s for s in roles if s != striker]
    coins = [f"c{s}" for s in roles]
    pairs = [[a, b] for i, a in enumerate(coins) for b in coins[i + 1:]]
    split = data.draw(st.lists(st.sampled_from(["touched", "not", "open"]), min_size=len(pairs), max_size=len(pairs)))
    known = [p for p, k in zip(pairs, split, strict=True) if k == "touched"]
    open_pairs = [p for p, k in zip(pairs, split, strict=True) if k == "open"]
    dead = [f"c{s}" for s in humans]
    s = play(bio(roles, order), {"type": "strike", "seat": striker}, partial(striker, dead, known, open_pairs))
    assert s["questions"] == [] and s["phase"] == "over"
    bio_coins = {f"c{m}" for m in range(1, mothers + 1)}
    converted = sorted(h for h in humans if any(f"c{h}" in p and (set(p) - {f"c{h}"}) & bio_coins for p in known))
    assert s["winner"] == sorted(list(range(1, mothers + 1)) + converted)
