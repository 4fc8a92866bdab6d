"""The panel in Chinese and English (docs/i18n.md), in a real Chromium at 360 x 640 against the real
daemon, Mosquitto and panel: every game and mode starts with one phone reading Chinese and one
reading English at the same table; the first turn is played and both phones say it in their own
language. A few more inputs follow (the phones' games from bots, Coin War's strike results from random legal
facts), and every line of the log reads Chinese on the Chinese phone. The toggle is remembered, the host's table language is followed, the how-to-play pages
are reached from the lobby and a seat, and a card shows its text on a tap.
Screenshots: test-artifacts/i18n/ (checked by eye: the CJK font renders).
"""

from __future__ import annotations

import random
import re
import uuid

import pytest

from controller.bot_runner import BotRunner
from controller.games.coinwar.randomplay import random_input
from gametable.testing.games import coup_game
from gametable.testing.panel import PIN
from gametable.testing.recorder import Recorder
from tests.helpers.browser import PHONE_360, english_words, shot

pytestmark = [pytest.mark.browser, pytest.mark.mqtt, pytest.mark.usefixtures("close_contexts")]

CJK = re.compile(r"[\u4e00-\u9fff]")
NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]
# every game and mode the table offers, with a player count it allows
GAMES = [("coinwar", "ffa", 2), ("coinwar", "teams", 4), ("coinwar", "infinite", 4), ("coinwar", "biohazard", 4),
         ("coinwar", "football", 2), ("coinwar", "three_kingdoms", 4), ("coup", "classic", 2), ("bang", "classic", 4),
         ("sanguosha_map", "battle", 2)]
TEAMS = ("teams", "infinite", "football", "battle")
ERRORS: list[str] = []


def phone(browser, url: str, locale: str):
    """A phone whose browser reads ``locale`` (navigator.languages and Accept-Language)."""
    page = browser.new_context(**PHONE_360, locale=locale).new_page()
    page.set_default_timeout(10_000)
    page.on("pageerror", lambda err: ERRORS.append(str(err)))
    page.goto(url)
    return page


def command(broker, cmd):
    rec = Recorder(broker.host, broker.port, "gametable/t1/cmd/result")
    try:
        return rec.command("t1", {"id": f"i18n-test-{uuid.uuid4().hex}", **cmd})
    finally:
        rec.close()


def new_game(game: str, mode: str, n: int) -> dict:
    players = [{"seat": s, "name": NAMES[s - 1], **({"team": "AB"[(s - 1) % 2]} if mode in TEAMS else {})}
               for s in range(1, n + 1)]
    body = {"type": "new_game", "game": game, "mode": mode, "players": players, "order": list(range(1, n + 1)), "seed": 7}
    if game == "coup":
        body["options"] = {"timeout_s": 30, "setup": {"first": 1}}
    if game == "sanguosha_map":
        body["options"] = {"fights": "quick"}
    return body


def first_turn(broker, stack, game: str) -> None:
    """The first input of the games whose first move is not a phone's: Coin War's strike is the
    striker's (the table sees it); the Sheriff of Bang! may be any seat, so the table sends it."""
    seat = stack.daemon.public_state()["turn"]["seat"]
    if game == "coinwar":
        assert command(broker, {"type": "strike", "seat": seat})["ok"]
    elif game == "bang":  # the Sheriff's first choice: end the turn, or how to draw (a character's ability)
        legal = stack.panel.link.private_view(seat)["legal"]
        move = next((m for m in legal if m["move"] == "end_turn"), None) or next(m for m in legal if m["move"] == "draw_choice")
        args = {} if move["move"] == "end_turn" else {"from": "deck"} if move.get("from") else {"return": move["return"][0]}
        result = command(broker, {"type": "move", "seat": seat, "move": move["move"], "args": args})
        assert result["ok"], result


def more_turns(broker, stack, game: str, n: int, inputs: int = 5) -> None:
    """A few more inputs after the first one: bots at every seat of the phones' games, random legal
    strikes and strike results (some facts unknown: a question, CW-8) for Coin War, whose shots come
    from the table and never from a bot."""
    if game != "coinwar":
        BotRunner(stack.daemon, range(1, n + 1), seed=7).poll(max_inputs=inputs)
        return
    rnd = random.Random(7)
    for _ in range(inputs):
        inp = random_input(stack.daemon.table.state, rnd, unknown_p=0.3)
        if inp is None:
            break
        result = command(broker, inp)
        assert result["ok"], (inp, result)


def log_lines(rec: Recorder, stack) -> list[str]:
    """Every line the daemon said since the game started, once its last event has arrived."""
    last = stack.daemon.journal.last_seq
    rec.wait_for("gametable/t1/events", lambda m: m.json().get("seq") == last)
    events = [m.json() for m in rec.messages if m.topic == "gametable/t1/events"]
    start = max(i for i, e in enumerate(events) if (e.get("input") or {}).get("type") == "new_game")
    return [line for e in events[start:] for line in e["words"]]


def seat_phone(browser, stack, seat: int, locale: str):
    page = phone(browser, stack.url + "/join", locale)
    page.click(f"#seat-{seat}")
    page.locator("#turn-banner").wait_for()
    return page


@pytest.mark.parametrize(("game", "mode", "n"), GAMES, ids=[f"{g}-{m}" for g, m, _ in GAMES])
def test_every_game_and_mode_plays_its_first_turn_in_chinese_and_english_at_one_table(stack, browser, broker, game, mode, n):
    zh = phone(browser, stack.url + "/join", "zh-CN")
    en = phone(browser, stack.url + "/join", "en-US")
    zh.locator("h1").filter(has_text="加入游戏桌").wait_for()
    en.locator("h1").filter(has_text="Join the table").wait_for()
    zh.click("#seat-1")
    en.click("#seat-2")
    rec = Recorder(broker.host, broker.port, "gametable/t1/events")
    assert command(broker, new_game(game, mode, n))["ok"]
    top = "#castles" if game == "sanguosha_map" else "#turn-banner"  # the battlefield's turn line
    for page in (zh, en):
        page.locator(top).wait_for()
    # The seat's own screen: the turn and the buttons in the phone's language
    zh.wait_for_function(f"() => /[\u4e00-\u9fff]/.test(document.querySelector('{top}').innerText)")
    assert "YOUR TURN" not in zh.inner_text("#view") and "'s turn" not in zh.inner_text("#view")
    assert re.search(r"YOUR TURN|'s turn|Round", en.inner_text(top))
    if game == "sanguosha_map":  # generals keep their Chinese names beside the pinyin in English too
        assert "Castle A" in en.inner_text(top) and "A 方城池" in zh.inner_text(top)
    else:  # (English mode titles keep the seed's own name: "Infinite (币战·无限)")
        assert not CJK.search(re.sub(r"\(?币战[^)]*\)?", "", en.inner_text(top)))
    shot(f"i18n/{game}-{mode}-seat-zh.png", zh, full=True)
    shot(f"i18n/{game}-{mode}-seat-en.png", en, full=True)

    if game == "bang":  # a hand card shows what it does on a tap, in the phone's language
        zh.locator("#my-cards .bg-card").first.click()
        zh.locator("#card-text").wait_for()
        assert CJK.search(zh.inner_text("#card-text"))
        shot("i18n/bang-card-text-zh.png", zh)
    if game == "coup":  # Ann (seat 1, Chinese) takes income from her phone
        zh.click("#moves [data-move=income]")
    elif game == "sanguosha_map":
        turn = stack.daemon.public_state()["turn"]["seat"]
        (zh if turn == 1 else en).click("#moves [data-move=roll]")
    else:
        first_turn(broker, stack, game)
    # The table log: the same events, each phone in its own language
    for page in (zh, en):
        page.click("#tab-table")
        page.locator("#log li").first.wait_for()
    zh.locator("#log").filter(has_text="新游戏").wait_for()
    en.locator("#log").filter(has_text="New game").wait_for()
    if game == "coup":  # one event, two languages, the plural right in each
        zh.locator("#log").filter(has_text="Ann 获得 1 元").wait_for()
        en.locator("#log").filter(has_text="Ann gets 1 coin").wait_for()
    if game == "coinwar":
        who = NAMES[stack.daemon.public_state()["turn"]["seat"] - 1]
        zh.locator("#log").filter(has_text=f"{who} 击币").wait_for()
        en.locator("#log").filter(has_text=f"{who} strikes").wait_for()
    assert "New game" not in zh.inner_text("#log")
    shot(f"i18n/{game}-{mode}-table-zh.png", zh, full=True)
    shot(f"i18n/{game}-{mode}-table-en.png", en, full=True)

    # The first turns: a few more inputs; both phones show every line, the Chinese one in Chinese
    more_turns(broker, stack, game, n)
    lines = log_lines(rec, stack)
    rec.close()
    shown = min(len(lines), 40)  # the log card keeps the last 40 lines
    newest = re.sub(r"\s*\((?:CW|CP|BG|SG)-[0-9.]+[a-z]?\)", "", lines[-1])  # the log hides rule numbers
    en.locator("#log li").first.filter(has_text=newest).wait_for()
    for page in (zh, en):
        page.wait_for_function("n => document.querySelectorAll('#log li').length === n", arg=shown)
    zh_lines = zh.locator("#log li").all_inner_texts()
    assert all(CJK.search(line) for line in zh_lines), [x for x in zh_lines if not CJK.search(x)]
    assert not any("{" in line for line in zh_lines + en.locator("#log li").all_inner_texts())
    left = english_words(zh, NAMES)  # nothing in English on the Chinese table view but typed names
    zh.click("#tab-seat")
    zh.locator("#turn-banner, #castles").first.wait_for()
    left += english_words(zh, NAMES)  # ... nor on the seat's own screen after the first turns
    assert not left, "\n".join(left)
    shot(f"i18n/{game}-{mode}-turns-zh.png", zh, full=True)
    shot(f"i18n/{game}-{mode}-turns-en.png", en, full=True)
    assert not ERRORS, ERRORS


def test_the_toggle_is_remembered_and_the_hosts_table_language_is_followed(stack, browser, broker):
    en = phone(browser, stack.url + "/join", "en-US")
    en.locator("h1").filter(has_text="Join the table").wait_for()
    en.click("#lang-toggle")  # the phone's own choice: Chinese
    en.locator("h1").filter(has_text="加入游戏桌").wait_for()
    assert en.evaluate("document.documentElement.lang") == "zh-Hans"
    en.reload()
    en.locator("h1").filter(has_text="加入游戏桌").wait_for()  # remembered on the phone
    assert en.inner_text("#lang-toggle") == "English"

    host = phone(browser, stack.url + "/host", "en-US")
    host.fill("#pin", PIN)
    host.click("#unlock")
    host.locator("#table-lang").wait_for()
    host.click("#table-lang-zh")  # the table's default: Chinese
    host.locator("#toast").filter(has_text="已设置桌子语言").wait_for()  # said in the language it set
    host.locator("#table-lang-zh[aria-pressed=true]").wait_for()
    host.locator("#lobby h2").filter(has_text="新游戏").wait_for()  # the host itself made no choice: it follows
    fresh = phone(browser, stack.url + "/join", "en-US")  # an English phone with no choice of its own
    fresh.locator("h1").filter(has_text="加入游戏桌").wait_for()
    # the lobby in Chinese: modes, summaries, the start button; and its how-to-play link
    host.locator("#lobby .modes").filter(has_text="各自为战").wait_for()
    assert "开始币战" in host.inner_text("#start")
    shot("i18n/host-lobby-zh.png", host, full=True)
    host.click("#lobby-rules")
    host.locator("#rules-page").filter(has_text="球门").wait_for()
    assert host.locator("#rules-page svg").count() == 1
    assert not re.search(r"\b(CW|CP|BG|SG)-\d", host.inner_text("#rules-page"))  # rule numbers stay out of view
    host.click("#lang-toggle")  # English: the lobby's summaries and options without the referee's references
    host.goto(stack.url + "/host")
    host.locator("#lobby").wait_for()
    for game in ("coup", "bang", "sanguosha_map", "coinwar"):
        host.select_option("#game", game)
        host.locator("#lobby .modes").wait_for()
        assert not re.search(r"\b(CW|CP|BG|SG)-\d|\.md\)|\(SG\)", host.inner_text("#lobby")), game
    host.click("#lang-toggle")
    host.goto(stack.url + "/rules/coinwar/ffa")
    shot("i18n/rules-coinwar-ffa-zh.png", host, full=True)
    # back to English on the host's own phone: its choice wins over the table's default
    host.click("#lang-toggle")
    host.locator("#rules-page").filter(has_text="goal").wait_for()
    assert not ERRORS, ERRORS


def test_every_rules_page_is_short_readable_and_free_of_rule_numbers(stack, browser):
    page = phone(browser, stack.url + "/rules", "zh-CN")
    page.locator("h1").filter(has_text="玩法说明").wait_for()
    links = page.locator("a[id^=rules-]").evaluate_all("els => els.map(e => e.getAttribute('href'))")
    assert len(links) == len(GAMES)
    for href in links:
        page.goto(stack.url + href)
        page.locator("#rules-page li").first.wait_for()
        text = page.inner_text("#rules-page")
        assert CJK.search(text) and not re.search(r"\b(CW|CP|BG|SG)-\d", text)
        assert 2 <= page.locator("#rules-page li").count() <= 6  # short
        assert not english_words(page, ()), (href, english_words(page, ()))
        assert page.evaluate("document.documentElement.scrollWidth") <= 360  # fits a small phone
    shot("i18n/rules-last-zh.png", page, full=True)
    assert not ERRORS, ERRORS


def test_a_coup_card_shows_its_text_on_a_tap_and_the_seat_reaches_the_rules(stack, browser, broker):
    zh = phone(browser, stack.url + "/join", "zh-CN")
    zh.click("#seat-1")
    assert command(broker, coup_game())["ok"]
    zh.locator("#my-cards .cp-card").first.wait_for()
    assert zh.locator("#my-cards .cp-card").filter(has_text="公爵").count() == 1  # Chinese alone on the face
    assert "Duke" not in zh.inner_text("#my-cards")
    zh.locator("#my-cards .cp-card").filter(has_text="公爵").click()
    zh.locator("#card-info[open]").wait_for()
    assert "征税" in zh.inner_text("#card-info")
    assert "Duke" in zh.inner_text("#card-info")  # the English name, a tap away (what others may say)
    shot("i18n/coup-card-text-zh.png", zh)
    zh.click("#card-info-ok")
    zh.click("#seat-rules")
    zh.locator("#rules-page[data-game=coup]").filter(has_text="公爵").wait_for()
    shot("i18n/rules-coup-zh.png", zh, full=True)
    assert not ERRORS, ERRORS


def test_the_panels_refusals_are_said_in_the_phones_language(stack, browser):
    zh = phone(browser, stack.url + "/join", "zh-CN")
    zh.locator("h1").filter(has_text="加入游戏桌").wait_for()
    # a phone without a seat sends a move: the refusal carries its message, the phone says it in Chinese
    zh.evaluate("post('/api/cmd', { type: 'move', move: 'income', args: {} })")
    zh.locator("#toast").filter(has_text="这部手机没有座位；请先入座").wait_for()
    assert not ERRORS, ERRORS


def test_the_hosts_bring_up_page_is_in_the_phones_language_too(stack, browser):
    zh = phone(browser, stack.url + "/bringup", "zh-CN")
    zh.locator("#lock h2").filter(has_text="主持人 PIN 码").wait_for()
    zh.fill("#pin", PIN)
    zh.click("#unlock")
    zh.locator("#pairing-card h2").filter(has_text="配对球杆").wait_for()
    zh.locator("#walk").filter(has_text="巡检测试").wait_for()
    shot("i18n/bringup-zh.png", zh, full=True)
    assert not ERRORS, ERRORS


def test_the_names_the_table_gives_by_itself_are_said_in_the_phones_language(stack, browser, broker):
    """The demo names its players "Seat 1" and "Bot" (gametable/sim_demo.py), the bots' games
    "Bot 2": a Chinese phone shows 座位 1 and 机器人 on every screen and in the log, an English one
    the names as given; a name a person typed is never changed."""
    zh = phone(browser, stack.url + "/join", "zh-CN")
    en = phone(browser, stack.url + "/join", "en-US")
    zh.click("#seat-1")
    en.locator("h1").filter(has_text="Join the table").wait_for()
    players = [{"seat": 1, "name": "Seat 1"}, {"seat": 2, "name": "Bot", "bot": True},
               {"seat": 3, "name": "Bot 3", "bot": True}]
    assert command(broker, {"type": "new_game", "game": "coinwar", "mode": "ffa", "players": players,
                            "order": [1, 2, 3], "seed": 3})["ok"]
    zh.locator("#turn-banner").wait_for()
    left = english_words(zh, ())
    zh.click("#tab-table")
    zh.locator("#log li").first.wait_for()
    left += english_words(zh, ())
    assert not left, "\n".join(left)
    assert "机器人" in zh.inner_text("#players") and "座位 1" in zh.inner_text("#players")
    en.goto(stack.url + "/table")
    en.locator("#players").filter(has_text="Bot 3").wait_for()
    assert "Seat 1" in en.inner_text("#players")
    assert not ERRORS, ERRORS
