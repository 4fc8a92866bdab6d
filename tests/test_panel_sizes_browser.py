"""Every control a fingertip's size and every text readable (docs/phones.md "Sizes"): on the join
page and the host's lobby, in zh-CN at 360×740 in a real Chromium against the real panel, every
visible control's tap target (a checkbox's: its label) is at least 44×44 px and no visible text
is under 12 px."""

from __future__ import annotations

import pytest

from tests.helpers.browser import SEEN_JS, phone_page, shot, unlocked_host

pytestmark = [pytest.mark.browser, pytest.mark.mqtt, pytest.mark.usefixtures("close_contexts")]

MEASURE = """() => {
""" + SEEN_JS + """  const small = [];
  for (const e of document.querySelectorAll('button, a[href], input, select, textarea, [role=button], [data-action]')) {
    if (!seen(e) || e.type === 'hidden') continue;
    const target = (e.type === 'checkbox' || e.type === 'radio') && e.closest('label') ? e.closest('label') : e;
    const r = target.getBoundingClientRect();
    if (r.width < 44 || r.height < 44)
      small.push(`${e.tagName.toLowerCase()}#${e.id}.${e.className} "${(target.textContent || '').trim().slice(0, 20)}" ${Math.round(r.width)}x${Math.round(r.height)}`);
  }
  const tiny = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const p = n.parentElement;
    if (!n.textContent.trim() || !p || !seen(p)) continue;
    const size = parseFloat(getComputedStyle(p).fontSize);
    if (size < 12) tiny.push(`${p.tagName.toLowerCase()}.${p.className} "${n.textContent.trim().slice(0, 20)}" ${size}px`);
  }
  return {small, tiny};
}"""


def _check(page) -> None:
    found = page.evaluate(MEASURE)
    assert not found["small"], "\n".join(found["small"])
    assert not found["tiny"], "\n".join(found["tiny"])


def test_phones_join_page_controls_are_fingertip_sized_and_text_readable(stack, browser):
    errors: list[str] = []
    page = phone_page(browser, stack.url + "/", errors, locale="zh-CN")
    page.wait_for_function("() => S.online && Object.keys(S.games).length > 0")
    _check(page)
    shot("sizes/join.png", page, full=True)
    assert not errors


def test_phones_host_lobby_controls_are_fingertip_sized_and_text_readable(stack, browser):
    errors: list[str] = []
    host = unlocked_host(browser, stack, errors)
    _check(host)
    shot("sizes/host-lobby.png", host, full=True)
    assert not errors
