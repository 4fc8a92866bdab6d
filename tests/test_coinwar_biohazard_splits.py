"""The lobby's choice of how Biohazard's roles split (CW-7.2) comes from the game's describe()
(``seat_roles.splits``): 5 players may play 2 mothers + 3 humans (the engine's own draw, first) or
1 mother + 4 humans; every split offered is one the engine accepts."""

from __future__ import annotations

from controller.games import coinwar as cw
from tests.coinwar_helpers import players


def _biohazard() -> dict:
    return next(m for m in cw.describe()["modes"] if m["mode"] == "biohazard")


def test_cw_7_2_five_players_may_split_two_three_or_one_four_and_the_draw_is_first():
    splits = _biohazard()["seat_roles"]["splits"]
    assert list(splits) == ["5"]  # 4 and 6 players have one split only: no choice to offer
    assert [s["roles"] for s in splits["5"]] == [{"mother": 2, "human": 3}, {"mother": 1, "human": 4}]
    assert [s["title"] for s in splits["5"]] == ["2 mothers · 3 humans", "1 mother · 4 humans"]


def test_cw_7_2_every_offered_split_starts_a_game_with_those_roles():
    for n, splits in _biohazard()["seat_roles"]["splits"].items():
        for split in splits:
            seats = list(range(1, int(n) + 1))
            roles, pool = {}, [r for r, k in split["roles"].items() for _ in range(k)]
            for seat, role in zip(seats, pool, strict=True):
                roles[str(seat)] = role
            state = cw.new({"roles": roles}, 1, players=players(*seats), mode="biohazard", order=seats)
            counted = {r: sum(1 for p in state["players"] if p["role"] == r) for r in split["roles"]}
            assert counted == split["roles"]
