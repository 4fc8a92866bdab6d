/* Take Turns on the phones (tests/games/taketurns, TT-1 … TT-4): the scores, two buttons on your
 * turn, and Block / Pass with a countdown when the other player took points. Loaded by the panel
 * from /games/taketurns/view.js like any game's view; uses only the panel's helpers (PANEL.md). */
"use strict";

(function () {
  function scores(st) {
    return `<section class="card" id="tt-scores"><h2>First to ${esc(st.goal)}</h2><ul class="players">${players().map((p) =>
      `<li data-seat="${p.seat}">${coinBadge(p.seat)}<span class="name">${esc(p.name)}</span><b class="tt-score">${esc(p.score)}</b></li>`).join("")}</ul></section>`;
  }

  function windowCard(st, seat, host) {
    const w = st.window;
    if (!w) return "";
    const left = w.paused ? Math.ceil(w.remaining_s || 0) : w.deadline ? Math.max(0, Math.ceil(w.deadline - Date.now() / 1000 - (S.skew || 0))) : "";
    const count = w.paused ? `<span id="tt-paused">paused, ${esc(left)} s left</span>`
      : `<b id="tt-seconds" data-deadline="${esc(w.deadline)}">${esc(left)}</b> s`;
    const mine = (w.seats || []).includes(seat);
    const buttons = mine ? `<div class="moves"><button class="btn danger" data-action="move" data-move="block" data-args="{}" id="tt-block">Block</button>
      <button class="btn" data-action="move" data-move="pass" data-args="{}" id="tt-pass">Let it pass</button></div>` : "";
    const hostBtns = host ? `<button class="btn" data-action="host-window" data-type="${w.paused ? "resume" : "pause"}" id="tt-${w.paused ? "resume" : "pause"}">${w.paused ? "Resume" : "Pause"}</button>` : "";
    return `<section class="card question" id="tt-window"><h2 id="tt-claim">${esc(nameOf(w.claimant))} takes ${esc(w.n)} — ${mine ? "block?" : `${esc((w.seats || []).map(nameOf).join(", "))} may block`}</h2>
      <p>${count}</p>${buttons}${hostBtns}</section>`;
  }

  function takeCard(pv) {
    const take = legalMoves(pv).find((m) => m.move === "take");
    if (!take) return "";
    return `<section class="card" id="tt-moves"><h2>Your move</h2><div class="moves">${take.choices.map((n) =>
      `<button class="btn primary" data-action="move" data-move="take" data-args='{"n":${+n}}' id="tt-take-${+n}">Take ${+n}</button>`).join("")}</div></section>`;
  }

  GameViews.register("taketurns", {
    seatView: (st, pv, seat) => turnBanner(true) + windowCard(st, seat, false) + takeCard(pv) + scores(st),
    tableView: (st) => turnBanner(true) + windowCard(st, null, false) + scores(st),
    hostView: (st) => turnBanner(false) + windowCard(st, null, true) + scores(st),
  });
})();
