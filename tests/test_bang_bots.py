"""Bang!'s heuristic bot: answers when it can, equips better blue cards, and plays to
its role from public events — Outlaws go for the Sheriff, the Renegade keeps the Sheriff for last."""

from __future__ import annotations

from controller.games import bang
from controller.games.bang.bot import HeuristicBot
from tests.bang.helpers import move, table


def _choose(state, seat, bot=None):
    view = bang.view(state, seat)
    return (bot or HeuristicBot(1)).choose(view, {"seat": seat, "moves": view["legal"]})


def test_it_answers_a_bang_with_a_missed_when_it_holds_one():
    s = table(hands={1: ["bang-AS"], 2: ["missed-2S", "beer-6H"]})
    s = move(s, 1, "play", card="bang-AS", target=2)
    assert _choose(s, 2)["move"] == "respond" and _choose(s, 2)["args"] == {"cards": ["missed-2S"]}


def test_an_outlaw_shoots_the_sheriff():
    s = table(hands={2: ["bang-AS"]}, first=2)
    inp = _choose(s, 2)
    assert inp["move"] == "play" and inp["args"]["target"] == 1


def test_the_renegade_spares_the_sheriff_while_others_live():
    s = table(hands={4: ["bang-AS"]}, first=4)
    inp = _choose(s, 4)
    assert not (inp["move"] == "play" and inp["args"].get("target") == 1)


def test_it_equips_a_longer_weapon_but_not_a_shorter_one():
    s = table(hands={1: ["remington-KC", "schofield-JC"]}, top=["missed-2S", "missed-3S"])
    assert _choose(s, 1)["args"]["card"] == "remington-KC"
    s = move(s, 1, "play", card="remington-KC")
    assert _choose(s, 1)["args"].get("card") != "schofield-JC"


def test_the_sheriff_reads_who_shot_at_him():
    bot = HeuristicBot(1)
    s = table(hands={3: ["bang-AS"], 1: ["bang-8D"]}, first=3, characters={3: "rose_doolan"},
              in_play={1: ["scope-AS"]}, top=["missed-2S", "missed-3S", "missed-4S", "missed-5S",
                                               "missed-6S", "missed-7S"])
    s = move(s, 3, "play", card="bang-AS", target=1)
    bot.observe(bang.view(s, 1))
    s = move(s, 1, "pass") if s["window"] else s
    s = move(s, 3, "end_turn")
    s = move(s, 4, "end_turn")
    inp = _choose(s, 1, bot)  # back to the Sheriff: he shoots Cy, who shot him
    assert inp["move"] == "play" and inp["args"]["target"] == 3


def test_heuristic_bots_alone_finish_every_game():
    from tests.bang.helpers import players

    for seed in range(24):
        n = 4 + seed % 3
        s = bang.new({}, seed, players=players(n))
        bots = {x["seat"]: HeuristicBot(seed * 10 + x["seat"]) for x in s["players"]}
        for _ in range(4000):
            if s["phase"] != "playing":
                break
            seat = s["window"]["seats"][0] if s["window"] else s["turn"]["seat"]
            s = bang.apply(s, _choose(s, seat, bots[seat]))
        assert s["phase"] == "over", seed


def test_a_deputy_reads_the_log_and_shoots_who_shot_the_sheriff():
    s = table(5, hands={3: ["bang-AS"], 2: ["bang-8D"]}, first=3,
              roles={1: "sheriff", 2: "deputy", 3: "outlaw", 4: "outlaw", 5: "renegade"},
              characters={3: "rose_doolan", 2: "willy_the_kid", 5: "sid_ketchum"},
              top=["missed-2S", "missed-3S", "missed-4S", "missed-5S", "missed-6S", "missed-7S", "missed-8S",
                   "missed-10C", "missed-JC", "missed-QC"])
    s = move(s, 3, "play", card="bang-AS", target=1)  # Cy (Rose Doolan) reaches the Sheriff at 2
    s = move(s, 3, "end_turn")
    s = move(s, 4, "end_turn")
    s = move(s, 5, "end_turn")
    s = move(s, 1, "end_turn")  # Bo, the Deputy, was never asked anything until his own turn
    inp = _choose(s, 2)
    assert inp["move"] == "play" and inp["args"] == {"card": "bang-8D", "target": 3}
