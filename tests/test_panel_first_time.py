"""The phone panel as a first-time player meets it, on a 360 x 640 phone (Chromium), with
the real daemon, Mosquitto, panel and virtual table. Screenshots go to test-artifacts/."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from gametable.testing.panel import PIN, start_sim
from tests.helpers.browser import PHONE_360, drawn_box, flick_on_table_view, shot, start_from_lobby

pytestmark = [pytest.mark.browser, pytest.mark.mqtt, pytest.mark.usefixtures("close_contexts")]

COINWAR_MODES = ["ffa", "teams", "infinite", "biohazard", "football", "three_kingdoms"]


def _host(stack, browser, width: int = 360, height: int = 640):
    page = browser.new_context(**{**PHONE_360, "viewport": {"width": width, "height": height}}).new_page()
    page.set_default_timeout(20_000)
    page.goto(stack.url + "/host")
    # the page has its stream and the table's games: no redraw lands between typing and tapping
    page.wait_for_function("() => S.online && Object.keys(S.games).length > 0")
    page.fill("#pin", PIN)
    page.click("#unlock")
    page.locator("#lobby, #lobby-open").first.wait_for()  # (while a game is on, the lobby is folded)
    if page.locator("#lobby-open").is_visible():
        page.click("#lobby-open")
    page.locator("#lobby").wait_for()
    return page


def _until(predicate, what: str, timeout: float = 20.0):
    """Bounded wait for something that crosses MQTT and the daemon (real I/O)."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


@pytest.mark.parametrize("width", [360, 390])
def test_every_mode_button_is_whole_and_tappable(stack, browser, width):
    """Item 5: no mode is clipped (Three Kingdoms had 0 px, Football 6 px at 360 and 390 wide)."""
    host = _host(stack, browser, width, 640)
    buttons = host.locator("[data-action=lobby-set][data-key=mode]")
    assert buttons.count() == len(COINWAR_MODES)
    for mode in COINWAR_MODES:
        button = host.locator(f"[data-action=lobby-set][data-key=mode][data-value={mode}]")
        box = drawn_box(button)
        assert box["x"] >= 0 and box["x"] + box["width"] <= width and box["width"] >= 100, (mode, box)
        assert box["height"] >= 44, (mode, box)
        button.click()
        expect(button).to_have_attribute("aria-pressed", "true")  # the lobby redraws on each tap
    shot(f"lobby-modes-{width}.png", host)



def _claim(page, stack, seat: int) -> None:
    """The player's phone holds ``seat`` (leaving the one it held)."""
    page.goto(stack.url + "/join")
    held = page.evaluate("S.me.seat")
    if held == seat:
        return
    if held:
        page.evaluate("post('/api/seat/leave')")
        _until(lambda: seat not in stack.panel.link.hub and True, "the seat to be left", 2)
        page.goto(stack.url + "/join")
    page.click(f"#seat-{seat}")
    page.locator("#my-coin, #coup-seat, #turn-banner").first.wait_for()


def _flick_first_turn(page, stack, seat: int) -> None:
    """Drag the turn's first legal coin back like a slingshot on the table view; the phone shows
    the table's real outcome and the daemon counts the strike."""
    shot_move = _until(lambda: next((m for m in (stack.daemon.seat_view(seat) or {}).get("legal", [])
                                     if m.get("type") == "shot"), None), "a legal shot")
    coin = shot_move["coins"][0]
    page.goto(stack.url + "/table")
    page.get_by_text("drag back from").wait_for()
    pos = _until(lambda: (stack.panel.link.table or {}).get("coins", {}).get(coin), f"{coin} on the table")
    flick_on_table_view(page, pos)
    state = stack.daemon.public_state()
    assert (state["turn"] or {}).get("seat") != seat or state["turn"]["strikes"] >= 1 or state["phase"] != "playing"


@pytest.mark.parametrize("mode", COINWAR_MODES)
def test_every_coin_war_mode_starts_from_the_lobby_and_plays_its_first_flick(stack, browser, mode):
    """Each Coin War mode starts from the lobby on a 360 x 640 phone (the
    lobby sends what the mode needs: teams, or no teams and roles drawn for Biohazard, identities
    for Three Kingdoms) and the first player's flick on the table view is played."""
    sim = start_sim(stack)
    try:
        host = _host(stack, browser)
        host.click(f"[data-action=lobby-set][data-key=mode][data-value={mode}]")
        host.check("[data-lobby=include][data-seat='4']")
        host.locator("#start").filter(has_text="4 players").wait_for()
        start_from_lobby(host)
        state = _until(lambda: (s := stack.daemon.public_state()) and s.get("mode") == mode and s, f"{mode} to start")
        assert not host.locator("#lobby-error").count()
        shot(f"first-time-{mode}-host.png", host)
        seat = state["turn"]["seat"]
        player = browser.new_context(**PHONE_360).new_page()
        player.set_default_timeout(20_000)
        _claim(player, stack, seat)
        shot(f"first-time-{mode}-seat.png", player)
        _flick_first_turn(player, stack, seat)
        shot(f"first-time-{mode}-table.png", player)
    finally:
        sim.stop()


def test_three_kingdoms_cards_hearts_crown_and_readable_log(stack, browser):
    """Item 6 (CW-7.5): the host chooses identities per seat and a deck of Combos only in the lobby;
    the Lord's phone shows its cards as cards, its health as hearts, its crown, and plays a Combo;
    the table view shows everyone's hearts and card backs, the Lord's crown and a readable log."""
    host = _host(stack, browser)
    host.click("[data-action=lobby-set][data-key=mode][data-value=three_kingdoms]")
    host.check("[data-lobby=include][data-seat='4']")
    host.click("[data-action=lobby-set][data-key=rolesMode][data-value=manual]")
    for seat, identity in ((1, "lord"), (2, "loyalist"), (3, "rebel"), (4, "traitor")):
        host.select_option(f"[data-lobby=role][data-seat='{seat}']", identity)
    host.click("[data-action=lobby-set][data-key=orderMode][data-value=manual]")
    for option, count in (("elixirs", 0), ("burning_camps", 0), ("combos", 24)):  # every card a Combo
        host.fill(f"#opt-{option}", str(count))
    start_from_lobby(host)
    state = _until(lambda: (s := stack.daemon.public_state()) and s.get("mode") == "three_kingdoms" and s, "the game")
    assert state["turn"]["seat"] == 1  # the manual order 1, 2, 3, 4 starts with seat 1
    lord = browser.new_context(**PHONE_360).new_page()
    lord.set_default_timeout(20_000)
    _claim(lord, stack, 1)
    lord.locator(".tk-identity").filter(has_text="You are the Lord").wait_for()
    assert lord.locator(".tk-identity svg.crown").count() == 1
    assert lord.locator("#tk-hand .tk-card").count() == len(stack.daemon.seat_view(1)["hand"]) >= 2
    assert lord.locator("#my-coin .hearts").get_attribute("aria-label") == "4 of 4 health"
    assert "{" not in lord.locator("#view").inner_text()  # no raw JSON anywhere
    shot("tk-lord-seat.png", lord, full=True)
    lord.locator("[data-action=move][data-move=combo]").first.click()
    _until(lambda: stack.daemon.public_state().get("strikes_allowed") == 3, "the Combo's third strike")
    lord.locator("#strikes-left").filter(has_text="3 strikes left").wait_for()
    lord.goto(stack.url + "/table")
    players = lord.locator("#players")
    players.locator("svg.crown").first.wait_for()
    assert players.locator(".hearts").count() == 4
    log = lord.locator("#log").inner_text()
    assert "Seat 1 draws 1 card" in log and "Seat 1 plays Combo" in log and "(count" not in log
    shot("tk-table.png", lord, full=True)


@pytest.mark.parametrize("players", [5, 6])
def test_cw_7_5_three_kingdoms_starts_from_the_lobby_with_five_and_six_players(stack, browser, players):
    """CW-7.5: 5 players add a second Rebel, 6 a third (1/1/3/1); identities drawn when the host
    picks none; the Lord (known to all) plays first and each phone shows only its own identity."""
    host = _host(stack, browser)
    host.click("[data-action=lobby-set][data-key=mode][data-value=three_kingdoms]")
    for seat in range(4, players + 1):
        host.check(f"[data-lobby=include][data-seat='{seat}']")
    host.locator("#start").filter(has_text=f"{players} players").wait_for()
    start_from_lobby(host)
    state = _until(lambda: (s := stack.daemon.public_state()) and s.get("mode") == "three_kingdoms" and s, "the game")
    assert not host.locator("#lobby-error").count()
    assert len(state["players"]) == players
    identities = {seat: stack.daemon.seat_view(seat)["identity"] for seat in range(1, players + 1)}
    assert sorted(identities.values()) == sorted(["lord", "loyalist", "traitor"] + ["rebel"] * (players - 3))
    lord = next(seat for seat, identity in identities.items() if identity == "lord")
    assert state["turn"]["seat"] == lord
    rebel = next(seat for seat, identity in identities.items() if identity == "rebel")
    phone = browser.new_context(**PHONE_360).new_page()
    phone.set_default_timeout(20_000)
    _claim(phone, stack, rebel)
    phone.locator(".tk-identity").filter(has_text="Rebel").wait_for()
    shot(f"tk-{players}-players-rebel.png", phone)


def test_a_bot_is_a_per_seat_toggle_in_the_lobby(stack, browser):
    """Item 7: the host ticks the bot toggle of seat 2; the virtual table's bot plays seat 2 (and
    only in this game), the human on seat 1 plays their turn from the phone."""
    sim = start_sim(stack)
    try:
        host = _host(stack, browser)
        host.uncheck("[data-lobby=include][data-seat='3']")
        host.click("#bot-2")
        assert host.locator("#bot-2").get_attribute("aria-pressed") == "true"
        assert host.locator("#name-2").get_attribute("placeholder") == "Bot 2"
        host.click("[data-action=lobby-set][data-key=orderMode][data-value=manual]")
        host.fill("#name-1", "Ann")
        shot("lobby-bot-toggle.png", host)
        start_from_lobby(host)
        _until(lambda: (s := stack.daemon.public_state()) and [p["name"] for p in s["players"]] == ["Ann", "Bot 2"],
               "Ann against Bot 2")
        assert sim.table.bots == {2}
        ann = browser.new_context(**PHONE_360).new_page()
        ann.set_default_timeout(20_000)
        _claim(ann, stack, 1)
        _flick_first_turn(ann, stack, 1)
        ann.goto(stack.url + "/seat")
        ann.click("#end-turn")  # after a strike: no confirmation (CW-5.4)
        _until(lambda: _bot_struck(sim), "the bot's strike on seat 2", 60)  # the bot plays seat 2 by itself
        ann.locator("#turn-banner").filter(has_text="YOUR TURN").wait_for(timeout=60_000)
    finally:
        sim.stop()


def _bot_struck(sim) -> bool:
    return any(e["cmd"].get("type") == "strike" and e["cmd"].get("seat") == 2 and e["result"].get("ok")
               for e in sim.table.log)


def test_the_table_view_fits_a_small_phone(stack, browser):
    """Item 10: on a 360 x 640 phone the table view's banner is one line and the whole board is
    visible without scrolling; coins are drawn large enough to read."""
    sim = start_sim(stack)
    try:
        host = _host(stack, browser)
        start_from_lobby(host)
        _until(lambda: (stack.panel.link.table or {}).get("coins"), "the coins on the table")
        page = browser.new_context(**PHONE_360).new_page()
        page.set_default_timeout(20_000)
        _claim(page, stack, stack.daemon.public_state()["turn"]["seat"])
        page.goto(stack.url + "/table")
        page.locator("#board").wait_for()
        page.get_by_text("drag back from").wait_for()
        # the slim one-line banner of a game in play (before the state arrives it is the big one)
        page.locator("#turn-banner.slim").filter(has_text="YOUR TURN").wait_for()
        banner = drawn_box(page.locator("#turn-banner"))
        assert banner["height"] <= 60 and "YOUR TURN" in page.locator("#turn-banner").inner_text(), \
            (banner, page.locator("#turn-banner").inner_text())
        board = drawn_box(page.locator("#board"))
        assert page.evaluate("window.scrollY") == 0
        assert board["y"] >= banner["y"] + banner["height"] and board["y"] + board["height"] <= 640, board
        assert board["width"] >= 280  # not shrunk to a stamp
        shot("table-fits-360x640.png", page)
    finally:
        sim.stop()


def test_coup_starts_from_the_lobby_in_the_manual_order_and_seat_1_plays_first(stack, browser):
    """Done-when and item 13: Coup from the lobby on a 360 x 640 phone; a manual order 1, 2, 3
    starts with seat 1, whose phone takes the first turn (Income)."""
    host = _host(stack, browser)
    host.select_option("#game", "coup")
    host.locator("#start").filter(has_text="Coup").wait_for()
    host.click("[data-action=lobby-set][data-key=orderMode][data-value=manual]")
    host.fill("#opt-timeout_s", "20")  # a slower reaction window for beginners: a lobby choice (CP-6)
    start_from_lobby(host)
    state = _until(lambda: (s := stack.daemon.public_state()) and s.get("game") == "coup" and s, "Coup to start")
    assert state["turn"]["seat"] == 1 and state["order"][:3] == [1, 2, 3]
    assert state.get("timeout_s", 20) == 20
    ann = browser.new_context(**PHONE_360).new_page()
    ann.set_default_timeout(20_000)
    _claim(ann, stack, 1)
    # "Ambassador", the longest role, stays inside its card (the CSS the hand cards use)
    ann.evaluate("""document.body.insertAdjacentHTML('beforeend',  // outside #view: no re-render wipes it
        '<div class="cp-card r-ambassador" id="amb"><span class="corner tl">J</span><span class="role">Ambassador</span>'
        + '<span class="power">Exchange · blocks steal</span><span class="corner br">J</span></div>')""")
    card, role = drawn_box(ann.locator("#amb")), drawn_box(ann.locator("#amb .role"))
    assert card["x"] < role["x"] and role["x"] + role["width"] < card["x"] + card["width"], (card, role)
    shot("coup-first-turn-360.png", ann, full=True)
    ann.locator("[data-action=move][data-move=income]").click()
    _until(lambda: stack.daemon.public_state()["turn"]["seat"] == 2, "seat 2's turn after Income")
    assert next(p for p in stack.daemon.public_state()["players"] if p["seat"] == 1)["coins"] == 3


PIXEL_JS = """([x, y]) => { const c = document.getElementById('board'), k = c.width / 425;
    return Array.from(c.getContext('2d').getImageData(Math.round(x * k), Math.round(y * k), 1, 1).data); }"""


def _pixel(page, x_mm: float, y_mm: float) -> list[int]:
    return page.evaluate(PIXEL_JS, [x_mm, y_mm])


def _wait_for_pixel(page, x_mm: float, y_mm: float, test_js: str) -> None:
    """Wait (bounded) until the board has drawn a pixel that passes ``test_js`` (``(r, g, b) => bool``):
    the canvas redraws on its own animation frames, later on a loaded machine."""
    page.wait_for_function(f"""(xy) => {{ const [r, g, b] = ({PIXEL_JS})(xy); return ({test_js})(r, g, b); }}""",
                           arg=[x_mm, y_mm])


def test_seat_leds_on_the_table_then_game_over_with_a_summary_and_a_rematch(stack, browser):
    """Item 12: the seat LEDs glow on the virtual table as the daemon's LED plan says (the active
    seat solid, the others dim); the log hides rule numbers unless asked; the game ends on a
    summary with a Rematch button that starts the same game again."""
    from tests.coinwar_helpers import shot as shot_input

    sim = start_sim(stack)
    try:
        host = _host(stack, browser)
        host.uncheck("[data-lobby=include][data-seat='3']")
        host.fill("#name-1", "Ann")
        host.fill("#name-2", "Bo")
        host.click("[data-action=lobby-set][data-key=orderMode][data-value=manual]")
        start_from_lobby(host)
        _until(lambda: (s := stack.daemon.public_state()) and s["turn"]["seat"] == 1 and stack.panel.link.leds, "the game")
        ann = browser.new_context(**PHONE_360).new_page()
        ann.set_default_timeout(20_000)
        _claim(ann, stack, 1)
        ann.goto(stack.url + "/table")
        ann.locator("#board").wait_for()
        ann.wait_for_function("() => S.leds && S.leds.seats && S.leds.seats['1'] === 'solid'")
        _wait_for_pixel(ann, 212.5, 5, "(r, g, b) => r > 170 && g < 110 && b < 110")  # drawn (bounded wait)
        r, g, b, _ = _pixel(ann, 212.5, 5)  # seat 1's LED on the top rail: solid red
        assert r > 170 and g < 110 and b < 110, (r, g, b)
        r2, g2, b2, _ = _pixel(ann, 420, 160)  # seat 2's: dim blue, far from full
        assert b2 < 150, (r2, g2, b2)
        shot("table-leds.png", ann)
        assert "YOUR TURN" in ann.locator("#turn-banner").inner_text()
        # Ann's coin hits Bo's (an attack, CW-5.3): the banner's last line says so without the rule number
        assert stack.daemon.submit({"type": "strike", "seat": 1, "id": "t-attack-strike"})["ok"]
        assert stack.daemon.submit({**shot_input(1, touch=["c2"], coin="c1"), "id": "t-attack"})["ok"]
        ann.goto(stack.url + "/")  # the seat's page: its turn banner ends on the last thing that happened
        ann.locator("#last-event").filter(has_text="enemy coin").wait_for()
        assert "(CW-" not in ann.locator("#last-event").inner_text()
        ann.goto(stack.url + "/table")
        ann.locator("#board").wait_for()
        assert stack.daemon.submit({"type": "end_turn", "seat": 2, "id": "t-bo-ends"})["ok"]
        _until(lambda: stack.daemon.public_state()["turn"]["seat"] == 1, "Ann's turn again")
        # Ann knocks Bo's coin into the goal: game over (CW-4, CW-9) -- through the daemon, as the table reports it
        assert stack.daemon.submit({"type": "strike", "seat": 1, "id": "t-strike"})["ok"]
        assert stack.daemon.submit({**shot_input(1, dead=["c2"], coin="c1"), "id": "t-shot"})["ok"]
        ann.locator("#game-over").filter(has_text="Ann wins").wait_for()
        assert ann.locator("#game-over .tag.turn").inner_text() == "winner"
        assert ann.locator("#rematch").count() == 0  # only the host restarts
        log = ann.locator("#log").inner_text()
        assert "(CW-" not in log
        ann.click("#show-rules")
        shot("game-over-player.png", ann, full=True)
        host.locator("#rematch").click()
        _until(lambda: stack.daemon.public_state()["phase"] == "playing", "the rematch")
        again = stack.daemon.public_state()
        assert [p["name"] for p in again["players"]] == ["Ann", "Bo"] and again["turn"]["seat"] == 1
        ann.locator("#game-over").wait_for(state="detached")
    finally:
        sim.stop()


def test_questions_name_coins_as_players_see_them_and_are_answered_from_the_table_view(stack, browser):
    """Item 11 (CW-8): the question says "your coin (red circle 1)", not "c1"; the player answers
    on the table view where they are; the phone vibrates at their turn and at the question."""
    host = _host(stack, browser)
    host.uncheck("[data-lobby=include][data-seat='3']")
    host.fill("#name-2", "Bo")
    host.click("[data-action=lobby-set][data-key=orderMode][data-value=manual]")
    start_from_lobby(host)
    _until(lambda: (s := stack.daemon.public_state()) and s["turn"]["seat"] == 1, "the game")
    ctx = browser.new_context(**PHONE_360)
    ctx.add_init_script("window.__buzz = []; navigator.vibrate = (p) => { window.__buzz.push(p); return true; };")
    ann = ctx.new_page()
    ann.set_default_timeout(20_000)
    _claim(ann, stack, 1)
    ann.goto(stack.url + "/table")
    ann.wait_for_function("() => window.__buzz.length === 1")  # your turn
    assert stack.daemon.submit({"type": "strike", "seat": 1, "id": "q-strike"})["ok"]
    assert stack.daemon.submit({"type": "shot", "seat": 1, "coin": "c1", "dead": [], "flown": [], "contacts": None,
                                "id": "q-shot"})["ok"]  # the table could not see the contacts: ask (CW-8)
    question = ann.locator("#question")
    question.locator("h2").filter(has_text="Which coins did your coin (red circle 1) touch?").wait_for()
    ann.wait_for_function("() => window.__buzz.length === 2")  # the question
    chip = question.locator("[data-action=pick][data-coin=c2]")
    assert "Bo" in chip.inner_text()
    shot("question-on-table-view.png", ann, full=True)
    chip.click()
    ann.click("#send-answer")
    _until(lambda: not stack.daemon.public_state()["questions"], "the answer")


def test_phones_claim_free_seats_before_a_game_and_the_lobby_shows_them(stack, browser):
    """Item 8: before any game two phones sit down on seats 2 and 5; the host's lobby ticks exactly
    those seats and marks them as joined; the game starts with them; the host frees a seat."""
    host = _host(stack, browser)
    phones = {}
    for seat in (2, 5):
        page = browser.new_context(**PHONE_360).new_page()
        page.set_default_timeout(20_000)
        page.goto(stack.url + "/join")
        page.locator(f"#seat-{seat}").filter(has_text="Free").wait_for()
        page.click(f"#seat-{seat}")
        page.get_by_text(f"You hold seat {seat}").wait_for()
        phones[seat] = page
    other = browser.new_context(**PHONE_360).new_page()
    other.goto(stack.url + "/join")
    other.locator("#seat-2").filter(has_text="the host can free it").wait_for()
    assert other.locator("#seat-2").is_disabled() and not other.locator("#seat-3").is_disabled()
    host.locator("#joined-5").wait_for()
    assert host.locator("#joined-2").count() == 1
    assert [host.locator(f"[data-lobby=include][data-seat='{s}']").is_checked() for s in range(1, 7)] == \
        [False, True, False, False, True, False]
    shot("lobby-joined-phones.png", host, full=True)
    start_from_lobby(host)
    state = _until(lambda: stack.daemon.public_state(), "the game")
    assert sorted(p["seat"] for p in state["players"]) == [2, 5]
    phones[5].locator("#my-coin").wait_for()
    host.locator("[data-action=release][data-seat='5']").click()
    phones[5].locator("#seat-5").wait_for()  # the freed phone is back on the seat picker
    _until(lambda: 5 not in stack.panel.app.extensions["gametable"]["seats"].taken(), "seat 5 freed")


def test_chinese_titles_and_emoji_are_drawn_not_boxes(stack, browser):
    """Item 14: with the run dependencies' fonts (Makefile run-deps: fonts-wqy-microhei,
    fonts-noto-color-emoji) Chromium draws 币战 and the emoji, not the missing-glyph box
    (compared with an unassigned code point, which is always drawn as that box)."""
    host = _host(stack, browser)
    drawn = host.evaluate("""(() => {
        const c = document.createElement('canvas'); c.width = 64; c.height = 40;
        const g = c.getContext('2d'); g.font = '28px system-ui, sans-serif';
        const ink = (t) => { g.clearRect(0, 0, 64, 40); g.fillText(t, 2, 30);
                             return Array.from(g.getImageData(0, 0, 64, 40).data).join(','); };
        const box = ink('\\u0378');
        return {zh: ink('币') !== box, zh2: ink('战') !== box, emoji: ink('🤖') !== box};
    })()""")
    assert drawn == {"zh": True, "zh2": True, "emoji": True}, drawn
    host.locator("#game").filter(has_text="币战").wait_for()
    shot("lobby-chinese-title.png", host)


def test_coup_one_prompt_offers_the_block_in_the_challenge_window(stack, browser):
    """Item 13 (CP-3, CP-4): Bo claims Captain to steal from Ann; Ann's one prompt offers Challenge,
    Pass and the blocks she may make next; "Block as Ambassador" passes the challenge and, once the
    block window opens, blocks as the Ambassador by itself."""
    players = [{"seat": s, "name": n} for s, n in ((1, "Ann"), (2, "Bo"), (3, "Cy"))]
    assert stack.daemon.submit({"type": "new_game", "game": "coup", "players": players, "order": [1, 2, 3],
                                "options": {"timeout_s": 60, "setup": {"first": 1}}, "id": "coup-block-1"})["ok"]
    assert stack.daemon.submit({"type": "move", "seat": 1, "move": "income", "args": {}, "id": "coup-block-2"})["ok"]
    ann = browser.new_context(**PHONE_360).new_page()
    ann.set_default_timeout(20_000)
    _claim(ann, stack, 1)
    assert stack.daemon.submit({"type": "move", "seat": 2, "move": "steal", "args": {"target": 1},
                                "id": "coup-block-3"})["ok"]
    ann.locator("#claim-text").filter(has_text="challenge? (then Ann may block)").wait_for()
    for text in ("Challenge Bo", "Pass", "Block as Captain", "Block as Ambassador"):
        ann.locator("#moves button").filter(has_text=text).first.wait_for()
    shot("coup-one-prompt.png", ann, full=True)
    ann.locator("[data-action=coup-block-next][data-claim=ambassador]").click()
    ann.locator("#toast").filter(has_text="You will block as Ambassador").wait_for()
    assert stack.daemon.submit({"type": "move", "seat": 3, "move": "pass", "args": {}, "id": "coup-block-4"})["ok"]
    window = _until(lambda: (w := stack.daemon.public_state().get("window")) and w["kind"] == "challenge_block" and w,
                    "Ann's block")
    assert window["claimant"] == 1 and window["claim"] == "ambassador"
