/* Take Turns on the phones (tests/games/taketurns): the pile, 1-3 buttons on your turn, and
 * Doubt / Let it stand with the table's countdown when the other player took. Loaded by the panel
 * from /games/taketurns/view.js like any game's view; uses only the panel's helpers (PANEL.md).
 * Its buttons send the game's own inputs (describe()["phone_inputs"]: take, doubt, pass). */
"use strict";

(function () {
  function pile(st) {
    return `<section class="card" id="tt-pile"><h2>Tokens on the pile: <b id="tt-count">${esc(st.pile)}</b></h2>
      <p class="muted small">Take 1 to 3; whoever takes the last token wins.</p></section>`;
  }

  function windowCard(st, seat, host) {
    const w = st.window;
    if (!w) return "";
    const left = w.deadline ? Math.max(0, Math.ceil(w.deadline - Date.now() / 1000 - (S.skew || 0))) : "";
    const count = w.paused ? `<span id="tt-paused">paused</span>` : `<b id="tt-seconds" data-deadline="${esc(w.deadline)}">${esc(left)}</b> s`;
    const mine = w.seat === seat;
    const buttons = mine ? `<div class="moves"><button class="btn danger" data-action="tt-send" data-type="doubt" id="tt-doubt">Doubt</button>
      <button class="btn" data-action="tt-send" data-type="pass" id="tt-pass">Let it stand</button></div>` : "";
    const hostBtn = host ? `<button class="btn" data-action="host-window" data-type="${w.paused ? "resume" : "pause"}" id="tt-${w.paused ? "resume" : "pause"}">${w.paused ? "Resume" : "Pause"}</button>` : "";
    return `<section class="card question" id="tt-window"><h2 id="tt-claim">${esc(nameOf(w.taker))} took — ${mine ? "doubt?" : `${esc(nameOf(w.seat))} may doubt`}</h2>
      <p>${count}</p>${buttons}${hostBtn}</section>`;
  }

  function takeCard(pv) {
    const takes = legalMoves(pv).filter((m) => m.type === "take");
    if (!takes.length) return "";
    return `<section class="card" id="tt-moves"><h2>Your move</h2><div class="moves">${takes.map((m) =>
      `<button class="btn primary" data-action="tt-send" data-type="take" data-count="${+m.count}" id="tt-take-${+m.count}">Take ${+m.count}</button>`).join("")}</div></section>`;
  }

  GameViews.register("taketurns", {
    seatView: (st, pv, seat) => turnBanner(true) + windowCard(st, seat, false) + takeCard(pv) + pile(st),
    tableView: (st) => turnBanner(true) + windowCard(st, null, false) + pile(st),
    hostView: (st) => turnBanner(false) + windowCard(st, null, true) + pile(st),
    actions: {
      async "tt-send"(el) {
        const body = { type: el.dataset.type };
        if (el.dataset.count) body.count = +el.dataset.count;
        const d = await post("/api/cmd", body);
        if (d.ok) toast("Sent", true);
      },
    },
  });
})();
