/* The Sanguosha battlefield on the phones (docs/rules/sanguosha-map.md): the map as a grid (castles, zones,
 * roads, walls, boss points, minions, generals with health and gold); on your turn the cells you
 * can reach show their movement cost and a tap moves you there by the cheapest path (SG-8.3);
 * targets in range are tapped to attack (SG-4); the 闪 window with its countdown; duel offers with
 * the gold at stake (SG-6); the fight-result form (SG-8.11); the shop in a castle (SG-7).
 * Loaded by the panel from /games/sanguosha_map/view.js; uses the panel's helpers (esc, nameOf,
 * legalMoves, S, post, toast, …: web_panel/PANEL.md) at call time only. */
"use strict";

(function () {
const ZONE = { A: "castle-a", B: "castle-b", I: "inner-a", i: "inner-b", O: "outer-a", o: "outer-b",
  ".": "road", "#": "off", X: "boss-a", x: "boss-b" };
const PILE_NAMES = { strategy: "Strategy card", weapon: "Weapon", horse: "Horse" };

const SG = {
  me(st, seat) { return (st.players || []).find((p) => p.seat === seat) || null; },
  legal(pv, name) { return legalMoves(pv || {}).find((m) => m.move === name) || null; },
  walls(st) {
    const set = new Set();
    for (const [a, b] of (st.map && st.map.walls) || []) { set.add(`${a}|${b}`); set.add(`${b}|${a}`); }
    return set;
  },

  /** The map: one square per cell; walls as thick edges; minions, generals and boss points on it. */
  board(st, pv, seat) {
    const rows = (st.map && st.map.rows) || [], walls = this.walls(st);
    const mv = this.legal(pv, "move"), atk = this.legal(pv, "attack");
    const costs = {};
    if (mv) for (const [r, c, cost] of mv.cells) costs[`${r},${c}`] = cost;
    const targets = new Set(((atk && atk.targets) || []).map(String));
    const here = {};
    const put = (r, c, html) => { (here[`${r},${c}`] = here[`${r},${c}`] || []).push(html); };
    for (const side of ["A", "B"]) {
      for (const m of ((st.sides || {})[side] || {}).minions || []) {
        if (!m.alive || !m.cell) continue;
        const hit = targets.has(m.id);
        put(m.cell[0], m.cell[1], `<span class="sg-minion side-${side.toLowerCase()} ${hit ? "target" : ""}" ${hit
          ? `data-action="sg-attack" data-target="${esc(m.id)}"` : ""} title="minion ${esc(m.id)}">${esc(m.id)}</span>`);
      }
    }
    for (const p of st.players || []) {
      const hit = targets.has(String(p.seat));
      const turn = st.turn && st.turn.seat === p.seat;
      put(p.cell[0], p.cell[1], `<span class="sg-general side-${p.team.toLowerCase()} ${p.knocked_out ? "out" : ""} ${turn ? "turn" : ""} ${p.seat === seat ? "me" : ""} ${hit ? "target" : ""}"
        ${hit ? `data-action="sg-attack" data-target="${p.seat}"` : ""} data-seat="${p.seat}" title="${esc(p.name)}">
        <b>${esc(p.seat)}</b><i>♥${esc(p.health)}</i><i>${esc(p.gold)}g</i></span>`);
    }
    const cells = [];
    rows.forEach((row, r) => [...row].forEach((ch, c) => {
      const key = `${r},${c}`, cost = costs[key];
      const edge = [[-1, 0, "n"], [1, 0, "s"], [0, -1, "w"], [0, 1, "e"]]
        .filter(([dr, dc]) => walls.has(`${key}|${r + dr},${c + dc}`)).map(([, , d]) => `wall-${d}`).join(" ");
      const go = cost !== undefined ? `data-action="sg-go" data-cell="${key}"` : "";
      const label = ch === "X" || ch === "x" ? `<span class="sg-boss">Boss</span>` : "";
      cells.push(`<div class="sg-cell ${ZONE[ch] || "off"} ${edge} ${cost !== undefined ? "reach" : ""}" ${go} data-r="${r}" data-c="${c}">
        ${label}${(here[key] || []).join("")}${cost !== undefined ? `<span class="sg-cost">${cost}</span>` : ""}</div>`);
    }));
    const cols = rows.length ? rows[0].length : 1;
    return `<section class="card sg-board-card" id="board"><div class="sg-board" style="grid-template-columns:repeat(${cols},1fr)">${cells.join("")}</div>
      ${mv ? `<p class="muted small">Tap a numbered cell to move there (the number is its cost).</p>` : ""}</section>`;
  },

  castles(st) {
    const s = st.sides || {};
    const side = (k) => `<div class="sg-castle side-${k.toLowerCase()}"><b id="castle-${k}">${esc((s[k] || {}).castle)}</b><span>Castle ${k}</span>
      <small>Boss ${esc(((s[k] || {}).boss || {}).general || "")} ♥${esc(((s[k] || {}).boss || {}).health)}</small></div>`;
    const t = st.turn, r = st.round || {};
    return `<section class="card sg-castles" id="castles">${side("A")}<div class="grow muted small">Round ${esc(r.n)} · minions moved ${esc(r.minion_roll ?? "–")}
      ${t ? `<br>${esc(nameOf(t.seat))}: ${t.roll ? `rolled ${esc(t.roll)}, ${esc(t.movement_left)} movement left` : "to roll"}` : ""}</div>${side("B")}</section>`;
  },

  seconds(w) {
    if (w.paused) return Math.max(0, Math.ceil(w.remaining_s || 0));
    if (!w.deadline) return null;
    const left = Math.max(0, Math.ceil(w.deadline - Date.now() / 1000 - (S.skew || 0)));
    return w.timeout_s ? Math.min(w.timeout_s, left) : left;  // never more than the window lasts
  },

  sentence(st, w) {
    const f = st.fight || {};
    if (w.kind === "dodge") return `${nameOf(w.attacker)} attacks ${nameOf(w.target)} with ${w.strikes} 杀 — 闪 or take ${w.strikes} damage`;
    if (w.kind === "duel") {
      const price = f.refuse_price || 1;
      return `${nameOf(f.requester)} challenges ${(f.defenders || []).map(nameOf).join(" and ")} to a duel — refusing costs ${price} gold`
        + ` (1 to ${nameOf(f.requester)}${(f.joiners || []).length ? " and 1 to each joiner" : ""}); joining costs 1 gold`;
    }
    if (w.kind === "boss_join") return `${nameOf(f.entrant)} challenges the boss — join for 2 gold?`;
    if (w.kind === "confirm") return `Result entered: side ${(f.result || {}).winner} wins — confirm or dispute`;
    return String(w.kind);
  },

  windowCard(st, seat, host) {
    const w = st.window;
    if (!w) return "";
    const left = this.seconds(w), mine = seat != null && (w.seats || []).includes(seat);
    const count = w.paused ? `<div class="sg-count paused" id="countdown"><b>Paused</b> ${left} s left</div>`
      : left !== null ? `<div class="sg-count" id="countdown"><b data-deadline="${esc(w.deadline)}"${w.timeout_s ? ` data-total="${esc(w.timeout_s)}"` : ""} id="seconds-left">${left}</b> s</div>` : "";
    const hostBtns = host ? `<div class="row">${w.paused
      ? `<button class="btn good grow" data-action="host-window" data-type="resume">▶ Resume countdown</button>`
      : `<button class="btn grow" data-action="host-window" data-type="pause">❚❚ Pause countdown</button>`}</div>` : "";
    return `<section class="card sg-window ${mine ? "mine" : ""}" id="window" data-kind="${esc(w.kind)}">
      ${mine ? `<div class="sg-your-call">Your call</div>` : ""}<h2 id="window-text">${esc(this.sentence(st, w))}</h2>${count}
      <p class="muted small">Waiting for ${esc((w.seats || []).map(nameOf).join(", "))}</p>${hostBtns}</section>`;
  },

  /** The fight being played at the table: the requester's result form, a challenger's flee. */
  fightCard(st, pv, seat) {
    const f = st.fight;
    if (!f || st.window) return "";
    const who = f.kind === "duel" ? f.requester : f.entrant;
    const seats = f.kind === "duel" ? [f.requester, ...f.joiners, ...f.defenders] : [f.entrant, ...f.joiners];
    const what = f.kind === "duel" ? `Duel: ${seats.map(nameOf).join(", ")}` : `Boss fight: ${seats.map(nameOf).join(", ")} against boss ${esc(((st.sides[f.side] || {}).boss || {}).general)}`;
    const form = this.legal(pv, "fight_result");
    let body = `<p class="muted small">Play it with the physical deck; ${esc(nameOf(who))} enters the result.</p>`;
    if (form) {
      const sides = form.sides.map((s) => `<option value="${s}">Side ${s}${f.kind === "boss" && s === f.side ? " (the boss)" : ""}</option>`).join("");
      const hp = form.seats.map((s) => { const p = this.me(st, s) || {};
        return `<label class="sg-field">${esc(nameOf(s))} health <input type="number" min="1" max="${p.max_health}" value="${p.health}" data-health="${s}"></label>
          <label class="sg-check"><input type="checkbox" data-out="${s}"> knocked out</label>`; }).join("");
      const boss = f.kind === "boss" ? `<label class="sg-field">Boss health left <input type="number" min="1" value="${esc(((st.sides[f.side] || {}).boss || {}).health)}" id="sg-boss-health"></label>` : "";
      body = `<form id="fight-result" onsubmit="return false"><label class="sg-field">Winner <select id="sg-winner">${sides}</select></label>${hp}${boss}
        <button class="btn primary wide" data-action="sg-result">Send the result</button></form>`;
    }
    const flee = this.legal(pv, "flee") ? `<button class="btn wide" data-action="move" data-move="flee" data-args="{}">Flee (1 gold)</button>` : "";
    return `<section class="card sg-fight" id="fight"><h2>${esc(what)}</h2>${body}${flee}</section>`;
  },

  movesCard(st, pv) {
    const out = [], btn = (move, args, text, cls = "") => `<button class="btn sg-move ${cls}" data-action="move" data-move="${esc(move)}" data-args="${esc(JSON.stringify(args))}">${esc(text)}</button>`;
    const hand = (pv && pv.action) || [];
    for (const m of legalMoves(pv || {})) {
      if (m.move === "roll") out.push(m.value ? this.dieForm("roll", m.minions ? "Minions' die" : "Your die") : btn("roll", {}, "Roll the die", "primary"));
      else if (m.move === "reroll") out.push(m.value ? this.dieForm("reroll", "Re-roll") : btn("reroll", {}, "Re-roll (once)"));
      else if (m.move === "keep") out.push(btn("keep", {}, `Keep ${st.turn.roll}`));
      else if (m.move === "attack" && m.targets.includes("castle")) out.push(btn("attack", { target: "castle", cards: m.cards.slice(0, 1) }, "Attack the castle", "danger"));
      else if (m.move === "attack" && m.max_cards > 1) out.push(`<p class="small muted">Crossbow: tap a target to spend all ${m.max_cards} 杀.</p>`);
      else if (m.move === "dodge") out.push(btn("dodge", { cards: m.cards.slice(0, m.max_cards) }, `闪 Dodge (${Math.min(m.cards.length, m.max_cards)})`, "primary"));
      else if (m.move === "pass") out.push(btn("pass", {}, "Pass", "ghost"));
      else if (m.move === "accept") out.push(btn("accept", {}, "Accept the duel", "primary"));
      else if (m.move === "refuse") out.push(btn("refuse", {}, `Refuse (pay ${m.price} gold)`));
      else if (m.move === "join") out.push(btn("join", {}, "Join the duel (1 gold)"));
      else if (m.move === "join_boss") out.push(btn("join_boss", {}, "Join the boss fight (2 gold)"));
      else if (m.move === "confirm") out.push(btn("confirm", {}, "Confirm", "primary"));
      else if (m.move === "dispute") out.push(btn("dispute", {}, "Dispute", "danger"));
      else if (m.move === "shop") m.piles.forEach((pile) => out.push(btn("shop", m.strategy_full && pile === "strategy" ? { pile, drop: "new" } : { pile },
        `Buy a ${PILE_NAMES[pile]} (${(st.prices || {})[pile]} gold)`)));
      else if (m.move === "upgrade") out.push(btn("upgrade", {}, `Upgrade max health (${(st.prices || {}).upgrade} gold)`));
      else if (m.move === "request_duel") m.targets.forEach((t) => out.push(btn("request_duel", { target: t }, `Duel ${nameOf(t)}`, "danger")));
      else if (m.move === "challenge_boss") out.push(btn("challenge_boss", { point: m.points[0] }, "Challenge the boss (1 movement)", "danger"));
      else if (m.move === "end_turn") out.push(btn("end_turn", {}, "End turn", "good"));
      else if (m.move === "discard" && hand.length > 6) hand.forEach((c) => out.push(btn("discard", { cards: [c] }, `Discard ${this.card(c)}`)));
      else if (m.move === "pick_general") m.generals.forEach((g) => out.push(btn("pick_general", { general: g }, `Play ${g}`)));
    }
    if (!out.length) return "";
    return `<section class="card" id="moves"><h2>${st.window ? "Your answer" : "Your move"}</h2><div class="moves sg-moves">${out.join("")}</div></section>`;
  },

  dieForm(move, label) {
    return `<div class="sg-die" data-move="${move}">${esc(label)}: ${[1, 2, 3, 4, 5, 6].map((v) =>
      `<button class="btn" data-action="move" data-move="${move}" data-args='{"value":${v}}'>${v}</button>`).join("")}</div>`;
  },

  card(c) { return String(c).startsWith("strike-") ? "杀" : String(c).startsWith("dodge-") ? "闪" : String(c).replace(/-\d+$/, ""); },

  meCard(st, pv, seat) {
    const me = this.me(st, seat) || {};
    const hand = (pv && pv.action) || [], strat = (pv && pv.strategy) || [];
    const strikes = hand.filter((c) => c.startsWith("strike-")).length, dodges = hand.length - strikes;
    return `<section class="card sg-me" id="me"><div class="row"><div class="grow"><b>${esc(me.name || "")}</b> · ${esc(me.general || "")}
      <div class="muted small">Side ${esc(me.team)} · range ${esc(me.range)}${me.knocked_out ? " · knocked out" : ""}</div></div>
      <div class="sg-stat"><b id="my-health">${esc(me.health)}/${esc(me.max_health)}</b><span>health</span></div>
      <div class="sg-stat"><b id="my-gold">${esc(me.gold)}</b><span>gold</span></div></div>
      <p class="small" id="my-cards">杀 ×${strikes} · 闪 ×${dodges}${strat.length ? ` · strategy: ${strat.map((c) => esc(this.card(c))).join(", ")}` : ""}</p>
      <p class="small muted">${["weapon", "horse", "armour"].map((k) => `${k}: ${esc(me[k] || "–")}`).join(" · ")}</p></section>`;
  },

  playersCard(st) {
    const items = (st.players || []).map((p) => `<li class="sg-player side-${p.team.toLowerCase()} ${p.knocked_out ? "out" : ""}" data-seat="${p.seat}">
      <b>${esc(p.name)}</b> <span class="muted">${esc(p.general)}</span> <span>♥${esc(p.health)}/${esc(p.max_health)}</span>
      <span id="gold-${p.seat}">${esc(p.gold)} gold</span> <span class="muted small">杀闪 ${esc(p.action_count)}${p.weapon ? ` · ${esc(p.weapon)}` : ""}${p.horse ? ` · ${esc(p.horse)}` : ""}</span></li>`).join("");
    return `<section class="card" id="players"><ul class="players sg-players">${items}</ul></section>`;
  },

  winnerCard(st) {
    if (!st.winner) return "";
    const w = st.winner, text = w.draw ? "A draw: both castles fell" : `Side ${esc((this.me(st, w[0]) || {}).team)} wins: ${w.map(nameOf).join(", ")}`;
    return `<section class="card sg-winner" id="winner"><h2>${text}</h2></section>`;
  },

  seatView(st, pv, seat) {
    const asked = !!(st.window && (st.window.seats || []).includes(seat));
    const moves = this.movesCard(st, pv);
    return this.winnerCard(st) + this.windowCard(st, seat, false) + (asked ? moves : "") + this.fightCard(st, pv, seat)
      + this.castles(st) + this.board(st, pv, seat) + (asked ? "" : moves) + this.meCard(st, pv, seat) + this.playersCard(st);
  },

  tableView(st, host) {
    return this.winnerCard(st) + this.windowCard(st, null, host) + this.fightCard(st, null, null) + this.castles(st)
      + this.board(st, null, null) + this.playersCard(st);  // the panel shows the log in the game's words
  },
};

async function send(move, args) {
  const d = await post("/api/cmd", { type: "move", move, args });
  if (d.ok) toast("Done", true);
  return d;
}

GameViews.register("sanguosha_map", {
  css: true,
  seatView: (st, pv, seat) => SG.seatView(st, pv, seat),
  tableView: (st) => SG.tableView(st, false),
  hostView: (st) => SG.tableView(st, true),
  cardLabel: (card) => SG.card(card),
  actions: {
    /** Tap a reachable cell: move there by the cheapest path. */
    "sg-go"(el) {
      const mv = SG.legal(S.priv, "move");
      if (!mv) return;
      const i = mv.cells.findIndex(([r, c]) => `${r},${c}` === el.dataset.cell);
      if (i >= 0) send("move", { path: mv.paths[i] });  // the engine's cheapest path (SG-8.3)
    },
    /** Tap a target in range: one 杀 (all of them with the Crossbow). */
    "sg-attack"(el) {
      const atk = SG.legal(S.priv, "attack");
      if (!atk) return;
      const raw = el.dataset.target, target = /^\d+$/.test(raw) ? +raw : raw;
      send("attack", { target, cards: atk.cards.slice(0, atk.max_cards) });
    },
    /** The fight-result form (SG-8.11): winner, each fighter's health, who was knocked out. */
    "sg-result"() {
      const winner = document.getElementById("sg-winner").value;
      const health = {}, knocked = [];
      for (const el of document.querySelectorAll("[data-health]")) health[el.dataset.health] = +el.value;
      for (const el of document.querySelectorAll("[data-out]")) if (el.checked) { knocked.push(+el.dataset.out); delete health[el.dataset.out]; }
      const args = { winner, health, knocked_out: knocked };
      const boss = document.getElementById("sg-boss-health");
      if (boss && S.state.fight && winner === S.state.fight.side) args.boss_health = +boss.value;
      send("fight_result", args);
    },
  },
});
})();
