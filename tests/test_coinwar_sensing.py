"""Coin War's sensing adapter on the real table: striker frame -> ``strike`` input, and the turn rule
(a strike from a seat whose turn it is not is reported, never applied)."""

from controller.games.coinwar.sensing import out_of_turn, strike_input

STRIKERS = {"s1": 1, "s3": 3}


def test_strike_of_the_seat_on_turn_is_applied():
    inp = strike_input({"t": "strike", "id": "s3", "seq": 4}, STRIKERS)
    assert inp == {"type": "strike", "seat": 3}
    assert out_of_turn(inp, {"id": "s3"}, {"turn": {"seat": 3}}) is None


def test_strike_out_of_turn_is_reported_with_the_striker_and_seat():
    inp = strike_input({"t": "strike", "id": "s1", "seq": 9}, STRIKERS)
    report = out_of_turn(inp, {"id": "s1"}, {"turn": {"seat": 3}})
    assert report == {"event": "strike_out_of_turn", "seat": 1, "striker": "s1",
                      "message": "seat 1 struck out of turn"}


def test_strike_with_no_game_or_no_turn_is_out_of_turn():
    inp = {"type": "strike", "seat": 1}
    assert out_of_turn(inp, {"id": "s1"}, None)["event"] == "strike_out_of_turn"
    assert out_of_turn(inp, {"id": "s1"}, {"turn": None})["event"] == "strike_out_of_turn"


def test_unpaired_striker_and_other_frames_make_no_input():
    assert strike_input({"t": "strike", "id": "s9", "seq": 1}, STRIKERS) is None
    assert strike_input({"t": "hb", "id": "s1", "seq": 1}, STRIKERS) is None
    # a frame without a string id names no striker: no input (a list id must not crash the reader)
    for bad in (None, 3, ["s1"]):
        assert strike_input({"t": "strike", "id": bad, "seq": 1}, STRIKERS) is None
