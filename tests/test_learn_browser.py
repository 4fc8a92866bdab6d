"""The guided first game (docs/phones.md "The guided first game"), as a newcomer meets it: `make
demo`'s own process (``gametable sim --bots 1``: the virtual table, its bots and the panel), one
zh-CN phone at 360×740 in a real Chromium. From the join page's "第一次玩？" the phone picks each
game and mode in turn; the guide's every step is done as the coach says (the ringed control is
tapped; the coach moves on by itself once the game shows it was done) until its last step, and
every screen the coach draws passes the size and English measures. Screenshots: test-artifacts/learn/.
"""

from __future__ import annotations

import re
import time

import pytest

from gametable.broker import free_port
from tests.helpers.browser import PHONE, english_words, flick_on_table_view, shot
from tests.helpers.demo import start_demo
from tests.test_panel_sizes_browser import MEASURE

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("close_contexts")]

# every game and mode the lobby offers, as the /learn page lists them (its buttons' ids)
GUIDES = [("coinwar", "ffa"), ("coinwar", "teams"), ("coinwar", "infinite"), ("coinwar", "biohazard"),
          ("coinwar", "football"), ("coinwar", "three_kingdoms"), ("coup", "classic"), ("bang", "classic"),
          ("sanguosha_map", "battle")]
# the steps each guide must go through, in order (others, e.g. waiting for your turn, come as the game falls)
DOING = {"coinwar": ["coin", "flick", "referee", "finish"], "coup": ["cards", "coins", "income", "watch", "finish"],
         "bang": ["role", "character", "play", "finish"], "sanguosha_map": ["general", "roll", "move", "end-turn", "finish"]}
STEP_S = 150  # the longest a step may take: the bots' turns between two of the phone's (real time, speed 20)


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    """`make demo` as it runs (its bots, virtual table and panel), on a free port."""
    folder = tmp_path_factory.mktemp("learn")
    port = free_port()
    cfg = folder / "demo.toml"
    cfg.write_text(f'table_id = "demo"\n[journal]\npath = "{folder / "j.sqlite"}"\n'
                   f'[panel]\nhost = "127.0.0.1"\nport = {port}\npin = "2468"\n')
    proc = start_demo(cfg, port, keep_output=False)
    url = f"http://127.0.0.1:{port}"
    yield url
    proc.terminate()
    proc.wait(timeout=30)


def visible(page, selector: str) -> bool:
    loc = page.locator(selector).first
    return loc.count() > 0 and loc.is_visible()


def tap(page, selector: str) -> bool:
    """Tap the first visible match (the screen may redraw between finding and tapping: then not)."""
    for loc in page.locator(selector).all():
        try:
            if loc.is_visible():
                loc.click(timeout=3000)
                return True
        except Exception:  # redrawn under the finger: the next look finds the new one  # noqa: BLE001
            return False
    return False


def answer_whatever_is_asked(page) -> None:
    """What a newcomer does with a window or a choice the bots' play put to them: let it pass
    (Coup's challenge, a BANG! taken), put back the coin asked for, lose a card when one must go."""
    for sel in ("#window [data-move=pass]", "#window [data-move=respond]", "[data-action=placed]",
                "#pending-choice [data-move]", "#window [data-move]"):
        if tap(page, sel):
            return


def flick(page) -> None:
    page.wait_for_function("() => legalMoves(S.priv).some((m) => m.type === 'shot') && S.table && S.table.coins", timeout=30_000)
    coin = page.evaluate("legalMoves(S.priv).find((m) => m.type === 'shot').coins[0]")
    pos = page.evaluate(f"S.table.coins[{coin!r}]")
    flick_on_table_view(page, pos)


def end_bang_turn(page) -> None:
    """End the turn; first the discards the phone asks for (BG-3: no more cards than your life)."""
    if tap(page, "[data-move=end_turn]"):
        return
    picks = page.locator("[data-action=pick-card]")
    for i in range(picks.count()):
        button = page.locator("button[data-move=discard]:not([disabled])")
        if button.count():
            button.first.click()
            return
        picks.nth(i).click()


def end_coinwar_turn(page) -> None:
    """End the turn (confirming it when strikes are left), or flick again when only a flick is offered."""
    if tap(page, "#end-turn"):
        if visible(page, "#confirm-yes"):
            page.click("#confirm-yes")
    elif page.evaluate("legalMoves(S.priv).some((m) => m.type === 'shot')"):
        page.click("#tab-table")
        flick(page)


def move_on_the_map(page) -> None:
    """Tap a cell the general can reach (a first tap on a small cell zooms the map), then "Move here"."""
    if not tap(page, "#sg-go"):
        tap(page, ".sg-cell.reach")


def end_sg_turn(page) -> None:
    answer_whatever_is_asked(page)
    tap(page, "[data-move=end_turn]")


# what each step that asks for a move has the player do (any other step: answer what is asked and wait)
ACTIONS = {
    ("coinwar", "flick"): flick, ("coinwar", "end-turn"): end_coinwar_turn,
    ("coup", "income"): lambda page: tap(page, "[data-move=income]"),
    ("bang", "play"): end_bang_turn, ("bang", "end-turn"): end_bang_turn,
    ("sanguosha_map", "general"): lambda page: tap(page, "[data-move=pick_general]"),
    ("sanguosha_map", "roll"): lambda page: tap(page, "[data-move=roll]"),
    ("sanguosha_map", "keep"): lambda page: tap(page, "[data-move=keep]"),
    ("sanguosha_map", "move"): move_on_the_map, ("sanguosha_map", "end-turn"): end_sg_turn,
}


def do_step(page, game: str, step: str) -> None:
    """What the coach asks for at ``step``, done as a player does it: the ringed control."""
    go = page.locator("#coach-go")
    if go.count() and go.is_visible():  # the control is on the other tab: the coach points at it
        page.locator(".tabs .coach-target").click()
    elif visible(page, "#coach-next"):
        page.click("#coach-next")
    else:
        ACTIONS.get((game, step), answer_whatever_is_asked)(page)


# the ringed control is where the player sees it: below the sticky bars, above the coach (or, taller
# than that room, its top is in it)
IN_SIGHT = """() => {
  const el = document.querySelector('.coach-target'), coach = document.getElementById('coach');
  if (!el || !coach || el.closest('.tabs')) return '';
  const r = el.getBoundingClientRect(), top = document.querySelector('.tabs').getBoundingClientRect().bottom;
  const bottom = coach.getBoundingClientRect().top;
  const ok = r.top >= top - 1 && (r.bottom <= bottom + 1 || (r.height > bottom - top && r.top < bottom - 40));
  return ok ? '' : `#${el.id || el.className} at ${Math.round(r.top)}-${Math.round(r.bottom)}, free room ${Math.round(top)}-${Math.round(bottom)}`;
}"""


def settle(page) -> None:
    """Give the coach the time it takes (its ring looks again every 250 ms for 1.5 s) to bring the
    step's control into sight; a control still out of sight after that is what measure() reports."""
    for _ in range(8):
        page.wait_for_timeout(250)
        if not page.evaluate(IN_SIGHT):
            return


def measure(page, names) -> list[str]:
    found = page.evaluate(MEASURE)
    hidden = page.evaluate(IN_SIGHT)
    return found["small"] + found["tiny"] + english_words(page, names) + ([f"the ringed control is out of sight: {hidden}"] if hidden else [])


def play_the_guide(page, game: str, mode: str, locale: str, errors: list[str]) -> tuple[list[str], list[str]]:
    """Follow the coach from its first step to its last, as a newcomer does; returns the steps seen
    and what the screens' measures found."""
    coach = page.locator("#coach")
    try:
        coach.wait_for()
    except Exception as exc:  # say what the newcomer saw instead (a toast, a page error)
        raise AssertionError(f"no coach: toast {page.locator('#toast').all_inner_texts()}, errors {errors}") from exc
    steps: list[str] = []
    problems: list[str] = []
    deadline = time.monotonic() + STEP_S
    while True:
        step = coach.get_attribute("data-step") or ""
        if not steps or steps[-1] != step:
            steps.append(step)
            deadline = time.monotonic() + STEP_S
            settle(page)  # (the coach has drawn its ring and scrolled to it, as the newcomer sees it)
            if locale == "zh-CN":
                problems += [f"{step}: {p}" for p in measure(page, ["demo"])]  # (the table's id, in its title)
            else:  # the same guide, every word English
                assert not re.search(r"[\u4e00-\u9fff]", coach.inner_text()), coach.inner_text()
            shot(f"learn/{game}-{mode}-{locale}-{len(steps):02d}-{step or 'start'}.png", page)
        if step == "finish":
            assert page.locator(".coach-target").count() == 1, "the last step points at the how-to-play link"
        if step in ("finish", "over"):  # the guide's last step, or the game ended first (a bot won)
            page.click("#coach-done")
            break
        assert time.monotonic() < deadline, f"stuck at step {step!r} after {steps}"
        do_step(page, game, step)
        page.wait_for_timeout(250)
    assert not page.locator("#coach").count(), "Done closes the coach"
    return steps, problems


def leave(page, demo: str) -> None:
    page.goto(demo + "/seat")
    page.locator("[data-action=leave], #join-learn").first.wait_for()  # (drawn once the panel's info came)
    if page.locator("[data-action=leave]").count():
        page.click("[data-action=leave]")
        page.click("#confirm-yes")
    page.locator("#join-learn").wait_for()


# every guide in Chinese; one in English too (the coach's words are the catalogue's msgids)
RUNS = [(g, m, "zh-CN") for g, m in GUIDES] + [("coup", "classic", "en-US")]


@pytest.mark.parametrize(("game", "mode", "locale"), RUNS, ids=[f"{g}-{m}-{loc}" for g, m, loc in RUNS])
def test_a_newcomer_finishes_the_guided_first_game(demo, browser, game, mode, locale):
    errors: list[str] = []
    page = browser.new_context(**PHONE, locale=locale).new_page()
    page.set_default_timeout(20_000)
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(demo + "/join")
    page.click("#join-learn")  # "第一次玩？来一局教学局"
    if locale == "en-US":
        assert page.locator("#learn-coup-classic").inner_text() == "Coup"
    try:
        page.locator(f"#learn-{game}-{mode}").click()
    except Exception as exc:  # say what the newcomer saw instead
        raise AssertionError(f"no {game} {mode} at {page.url}: {page.locator('body').inner_text()[:600]!r}") from exc
    try:
        steps, problems = play_the_guide(page, game, mode, locale, errors)
    finally:  # the newcomer leaves the seat, even after a failure: the next newcomer's guided game may replace this one
        leave(page, demo)
    must = DOING[game][:-1] if steps[-1] == "over" else DOING[game]
    assert [s for s in steps if s in must] == must, f"a step the guide must show was not: {steps}"
    assert not problems, "\n".join(problems)
    assert not errors, errors
