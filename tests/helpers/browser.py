"""Shared Playwright fixtures for the panel's browser tests: Debian's Chromium, phone-sized pages.

A pytest plugin (see tests/conftest.py): browser test modules ask for ``browser`` and the rig's
``stack`` (gametable/testing/fixtures.py) and
mark themselves ``pytest.mark.usefixtures("close_contexts")``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gametable.testing.chromium import ARGS, CHROMIUM

ARTIFACTS = Path(__file__).resolve().parent.parent.parent / "test-artifacts"
PHONE = {"viewport": {"width": 360, "height": 740}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
PHONE_360 = {**PHONE, "viewport": {"width": 360, "height": 640}}  # a small phone, whole screens


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium through Playwright (no browser download)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian chromium is not installed")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def close_contexts(browser):
    """Each test's phones close at its end, so their streams do not outlive the panel."""
    yield
    for ctx in list(browser.contexts):
        ctx.close()


def shot(path: str, page, full: bool = False) -> None:
    """A screenshot kept as a test artifact (test-artifacts/, not committed)."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / path), full_page=full)


def drawn_box(locator) -> dict:
    """The element's box once it is drawn: a tap or a state update may redraw it, and an element
    replaced between finding and measuring it has no box (bounded: each try waits until visible)."""
    for _ in range(20):
        locator.wait_for(state="visible")
        found = locator.bounding_box()
        if found is not None:
            return found
    raise AssertionError(f"{locator} never stayed drawn long enough to be measured")



def flick_on_table_view(page, pos) -> None:
    """On the table view, drag the coin at ``pos`` (table mm) back 30 mm towards the nearer rail,
    like a slingshot (it goes towards the middle), and wait for the phone's "Flick played"."""
    board = page.locator("#board")
    top = page.evaluate("document.getElementById('board').getBoundingClientRect().top + window.scrollY")
    scale = drawn_box(board)["width"] / 425
    page.evaluate(f"window.scrollTo(0, {top + pos[1] * scale - 320})")
    box = drawn_box(board)
    x, y = box["x"] + pos[0] * scale, box["y"] + pos[1] * scale
    pull = -30 if pos[1] < 312 else 30
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x, y + pull * scale, steps=4)
    page.mouse.up()
    page.locator("#toast").filter(has_text=re.compile("Flick played|已击币")).wait_for(timeout=30_000)

def start_from_lobby(host, unfilled: str = "wait") -> None:
    """Tap the lobby's Start; a seat that no phone holds and no bot plays makes the panel ask what to
    do with it (docs/phones.md): answer ``unfilled`` ("wait" for its phone, or "bot"). The dialog
    opens within the tap's own handler, so it is there (or not) once the click returns."""
    host.click("#start")
    if host.locator("#unfilled").is_visible():
        host.click(f"#unfilled-{unfilled}")


def phone_page(browser, url: str, errors: list[str], *, locale: str | None = None, timeout_ms: int = 15_000):
    """A 360x640 phone (PHONE_360) at ``url``; any script error of the page lands in ``errors``."""
    page = browser.new_context(**PHONE_360, **({"locale": locale} if locale else {})).new_page()
    page.set_default_timeout(timeout_ms)
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(url)
    return page


def unlocked_host(browser, stack, errors: list[str]):
    """The host's phone, unlocked, at its lobby: the page has its stream and the table's games first, so
    no redraw lands between typing the PIN and tapping Unlock."""
    from gametable.testing.panel import PIN

    host = phone_page(browser, stack.url + "/host", errors)
    host.wait_for_function("() => S.online && Object.keys(S.games).length > 0")
    host.fill("#pin", PIN)
    host.click("#unlock")
    host.locator("#lobby, #lobby-open").first.wait_for()  # (during a game the lobby is folded)
    return host


# Latin words on a Chinese screen that are no English left behind: the language button's "English",
# the table's id, Bang! (the game's and its card's name as the Chinese edition prints it; the
# players' names are added)
NOT_ENGLISH = ("English", "t1", "BANG", "Bang")
# the measures' test of an element the player sees (drawn, not hidden): a line of JavaScript
SEEN_JS = """  const seen = e => { const r = e.getBoundingClientRect(); const s = getComputedStyle(e);
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none'; };
"""
_ENGLISH = """(typed) => {
""" + SEEN_JS + """  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const p = n.parentElement;
    if (!p || !seen(p) || p.closest('.toast, .url')) continue;  // (a link's address is no English)
    for (const w of n.textContent.match(/[A-Za-z]{2,}/g) || []) if (!typed.includes(w)) out.push(`${p.tagName.toLowerCase()}.${p.className} "${n.textContent.trim().slice(0, 40)}"`);
  }
  return [...new Set(out)];
}"""


def english_words(page, names) -> list[str]:
    """Where English is left on a page shown in Chinese: each visible text with a Latin word that is
    not a player's typed name (``names``) nor one of ``NOT_ENGLISH``."""
    return page.evaluate(_ENGLISH, sorted({*names, *NOT_ENGLISH}))
