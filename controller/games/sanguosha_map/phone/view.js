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
// A cell by what it is (the same words as the log's, controller/games/sanguosha_map/__init__.py).
const PLACES = { A: N_("castle A"), B: N_("castle B"), I: N_("side A's inner zone"), i: N_("side B's inner zone"),
  O: N_("side A's outer zone"), o: N_("side B's outer zone"), ".": N_("the road"), X: N_("side A's boss point"),
  x: N_("side B's boss point"), "#": N_("an impassable cell") };
const PILE_NAMES = { strategy: N_("Strategy card"), weapon: N_("Weapon"), horse: N_("Horse") };
const KINGDOMS = { wei: N_("Wei"), shu: N_("Shu"), wu: N_("Wu"), qun: N_("Neutral (Qun)") };
const KINDS = { weapon: N_("Weapon"), armour: N_("Armour"), horse_plus1: N_("Horse +1"), horse_minus1: N_("Horse −1") };
// The strategy deck (SG-1): the standard Sanguosha cards, by their Chinese names and what they do.
const STRATEGY = {
  peach: ["桃", N_("Peach"), N_("Regain 1 health (or save a dying general).")],
  wine: ["酒", N_("Wine"), N_("Your next Strike this turn deals 1 more damage; or, when dying, regain 1 health.")],
  dismantle: ["过河拆桥", N_("Dismantle"), N_("Discard one card of another general (hand, equipment or judgement).")],
  snatch: ["顺手牵羊", N_("Snatch"), N_("Take one card from a general at distance 1.")],
  duel: ["决斗", N_("Duel"), N_("You and a target take turns playing Strike; the first who cannot takes 1 damage.")],
  barbarians: ["南蛮入侵", N_("Barbarian Invasion"), N_("Every other general plays a Strike or takes 1 damage.")],
  arrows: ["万箭齐发", N_("Arrow Barrage"), N_("Every other general plays a Dodge or takes 1 damage.")],
  peach_garden: ["桃园结义", N_("Peach Garden Oath"), N_("Every general regains 1 health.")],
  harvest: ["五谷丰登", N_("Bountiful Harvest"), N_("Turn up one card per general; each takes one, starting with you.")],
  nullification: ["无懈可击", N_("Nullification"), N_("Cancel one strategy card aimed at anyone.")],
  borrowed_sword: ["借刀杀人", N_("Borrowed Sword"), N_("A general with a weapon must Strike a target you choose, or give you the weapon.")],
  indulgence: ["乐不思蜀", N_("Indulgence"), N_("Judgement at the target's turn: unless a heart, they skip their action phase.")],
  something_for_nothing: ["无中生有", N_("Something for Nothing"), N_("Draw 2 cards.")],
  lightning: ["闪电", N_("Lightning"), N_("Judgement passes from general to general: 2–9 of spades deals 3 damage.")],
};

const SG = {
  desc() { return GameViews.describe("sanguosha_map") || {}; },
  /** A general by name: the Chinese name alone in Chinese (a Chinese reader needs no pinyin); in
   * English the pinyin with the Chinese under it. */
  general(id) {
    const g = (this.desc().generals || {})[id], pinyin = String(id || "").charAt(0).toUpperCase() + String(id || "").slice(1);
    if (!g) return esc(pinyin);
    return I18N.lang === "zh" ? esc(g.name) : `${esc(pinyin)}<span class="en-sub">${esc(g.name)}</span>`;
  },
  generalPlain(id) { const g = (this.desc().generals || {})[id]; const pinyin = String(id || "").charAt(0).toUpperCase() + String(id || "").slice(1); return g ? (I18N.lang === "zh" ? g.name : `${pinyin} ${g.name}`) : pinyin; },
  generalInfo(id) {
    const g = (this.desc().generals || {})[id] || {};
    return `data-action="card-info" data-card-title="${esc(this.generalPlain(id))}" data-card-text="${esc(t("{kingdom} · {n} health on the card", { kingdom: t(KINGDOMS[g.kingdom] || g.kingdom || "?"), n: g.health ?? "?" }))}"`;
  },
  equipment(id) {
    const e = (this.desc().equipment || {})[id], english = String(id || "").replace(/_/g, " ");
    if (!e) return english;
    return I18N.lang === "zh" ? `${e.name} (${english})` : `${english} (${e.name})`;
  },
  equipmentInfo(id) {
    const e = (this.desc().equipment || {})[id] || {};
    const text = e.range != null ? t("{kind}, range {n}", { kind: t(KINDS[e.kind] || e.kind || "?"), n: e.range }) : t(KINDS[e.kind] || e.kind || "?");
    return `data-action="card-info" data-card-title="${esc(this.equipment(id))}" data-card-text="${esc(text)}"`;
  },
  me(st, seat) { return (st.players || []).find((p) => p.seat === seat) || null; },
  legal(pv, name) { return legalMoves(pv || {}).find((m) => m.move === name) || null; },
  walls(st) {
    const set = new Set();
    for (const [a, b] of (st.map && st.map.walls) || []) { set.add(`${a}|${b}`); set.add(`${b}|${a}`); }
    return set;
  },

  /** The map (docs/phones.md): the whole map fits the phone's width; fingers pinch to zoom and
   * drag to pan (the − / ⤢ / + buttons do the same). Each cell is coloured by its kind (the legend
   * under it names them), walls are thick edges; minions are dots, generals tokens with their
   * seat and a health bar. A tap on a cell you can reach shows the cheapest path and its cost
   * before you move (SG-8.3); a tap on any other cell says what stands there. */
  board(st, pv, seat) {
    const rows = (st.map && st.map.rows) || [], walls = this.walls(st);
    const mv = this.legal(pv, "move"), atk = this.legal(pv, "attack");
    const costs = {};
    if (mv) for (const [r, c, cost] of mv.cells) costs[`${r},${c}`] = cost;
    const pick = this.picked(mv), path = {};
    if (pick) pick.path.forEach(([r, c], i) => { path[`${r},${c}`] = i + 1; });
    const targets = new Set(((atk && atk.targets) || []).map(String));
    const here = {};
    const put = (r, c, html) => { (here[`${r},${c}`] = here[`${r},${c}`] || []).push(html); };
    for (const side of ["A", "B"]) {
      for (const m of ((st.sides || {})[side] || {}).minions || []) {
        if (!m.alive || !m.cell) continue;
        const hit = targets.has(m.id);
        put(m.cell[0], m.cell[1], `<span class="sg-minion side-${side.toLowerCase()} ${hit ? "target" : ""}" ${hit
          ? `data-action="sg-attack" data-target="${esc(m.id)}"` : ""} title="${esc(t("minion {id}", { id: m.id }))}"></span>`);
      }
    }
    for (const p of st.players || []) {
      const hit = targets.has(String(p.seat));
      const turn = st.turn && st.turn.seat === p.seat;
      const hp = Math.max(0, Math.min(100, Math.round(100 * (p.health || 0) / (p.max_health || 1))));
      put(p.cell[0], p.cell[1], `<span class="sg-general side-${p.team.toLowerCase()} ${p.knocked_out ? "out" : ""} ${turn ? "turn" : ""} ${p.seat === seat ? "me" : ""} ${hit ? "target" : ""}"
        ${hit ? `data-action="sg-attack" data-target="${p.seat}"` : ""} data-seat="${p.seat}" title="${esc(p.name)}"><b>${esc(p.seat)}</b><i class="sg-hp" style="width:${hp}%"></i></span>`);
    }
    const cells = [];
    rows.forEach((row, r) => [...row].forEach((ch, c) => {
      const key = `${r},${c}`, cost = costs[key];
      const edge = [[-1, 0, "n"], [1, 0, "s"], [0, -1, "w"], [0, 1, "e"]]
        .filter(([dr, dc]) => walls.has(`${key}|${r + dr},${c + dc}`)).map(([, , d]) => `wall-${d}`).join(" ");
      const label = ch === "X" || ch === "x" ? `<span class="sg-boss">${esc(t("Boss"))}</span>` : "";
      const step = path[key] ? `<span class="sg-step">${path[key]}</span>` : "";
      cells.push(`<div class="sg-cell ${ZONE[ch] || "off"} ${edge} ${cost !== undefined ? "reach" : ""} ${path[key] ? "on-path" : ""} ${pick && pick.key === key ? "picked" : ""}"
        data-cell="${key}" data-r="${r}" data-c="${c}">${label}${(here[key] || []).join("")}${step}${cost !== undefined && !step ? `<span class="sg-cost">${cost}</span>` : ""}</div>`);
    }));
    const cols = rows.length ? rows[0].length : 1, z = this.zoom;
    const zoomBar = `<div class="sg-zoom row"><button class="btn ghost" data-action="sg-zoom" data-z="out" id="sg-zoom-out" aria-label="${esc(t("Zoom out"))}">−</button>
      <button class="btn ghost grow" data-action="sg-zoom" data-z="fit" id="sg-zoom-fit">${esc(t("⤢ Whole map"))}</button>
      <button class="btn ghost" data-action="sg-zoom" data-z="in" id="sg-zoom-in" aria-label="${esc(t("Zoom in"))}">+</button></div>`;
    const hint = mv ? t("Tap a green cell: the path and its cost show, then move.") : t("Pinch or + to zoom; drag to look around; tap a cell to see what is there.");
    return `<section class="card sg-board-card" id="board">${zoomBar}
      <div class="sg-viewport ${z.s > 1 ? "zoomed" : ""}" id="sg-viewport" data-action="sg-map" style="aspect-ratio:${cols}/${rows.length || 1};--cols:${cols};--rows:${rows.length || 1}"><div class="sg-board" id="sg-board" data-zoom="${z.s}"
        style="grid-template-columns:repeat(${cols},1fr);grid-template-rows:repeat(${rows.length || 1},1fr);transform:translate(${z.x}px,${z.y}px) scale(${z.s})">${cells.join("")}</div></div>
      ${this.pickCard(st, mv, pick)}<p class="muted small" id="sg-hint">${esc(hint)}</p>${this.legend()}</section>`;
  },

  /** Zoom and pan of the map, kept across redraws (a state update must not reset the view) and
   * across a reload of the page (this tab's sessionStorage). */
  zoom: (() => {
    try { const z = JSON.parse(sessionStorage.getItem("sg-zoom") || "null"); if (z && [z.s, z.x, z.y].every(Number.isFinite)) return z; } catch { /* private mode */ }
    return { s: 1, x: 0, y: 0 };
  })(),
  MAX_ZOOM: 4,
  /** A cell is a fingertip's target (44 px, docs/phones.md "Sizes") from this size on; a tap on
   * smaller cells (the whole map of a big board on a phone) zooms in on them instead. */
  TAP_PX: 44,
  /** The cell tapped last: { key } (what it is, or the path to it when reachable). */
  sel: null,

  /** The reachable cell the player picked, with the engine's cheapest path to it (SG-8.3). */
  picked(mv) {
    if (!mv || !this.sel) return null;
    const i = mv.cells.findIndex(([r, c]) => `${r},${c}` === this.sel.key);
    return i >= 0 ? { key: this.sel.key, cell: mv.cells[i], path: mv.paths[i], cost: mv.cells[i][2] } : null;
  },

  /** What a cell is, in words: its kind and its row and column counted from 1. */
  place(st, r, c) {
    const ch = (((st.map || {}).rows || [])[r] || "")[c] || "#";
    return t("{place} (row {row}, column {column})", { place: t(PLACES[ch] || PLACES["#"]), row: r + 1, column: c + 1 });
  },

  /** Under the map: the tapped cell. Reachable: its path, its cost, and "Move here"; else who stands there. */
  pickCard(st, mv, pick) {
    if (!this.sel) return "";
    const [r, c] = this.sel.key.split(",").map(Number);
    const who = (st.players || []).filter((p) => p.cell[0] === r && p.cell[1] === c)
      .map((p) => `<li>${esc(displayName(p.name))} · <span class="sg-gen" ${this.generalInfo(p.general)}>${this.general(p.general)}</span> · ♥${esc(p.health)}/${esc(p.max_health)} · ${esc(t("{n} gold", { n: p.gold }))}${p.knocked_out ? " · " + esc(t("knocked out")) : ""}</li>`);
    for (const side of ["A", "B"]) {
      for (const m of ((st.sides || {})[side] || {}).minions || []) {
        if (m.alive && m.cell && m.cell[0] === r && m.cell[1] === c) who.push(`<li>${esc(t("Side {side}'s minion", { side }))}</li>`);
      }
    }
    const go = pick ? `<p id="sg-path">${esc(t("Path: {n} steps, costs {cost} of your {left} movement", { n: pick.path.length, cost: pick.cost, left: (st.turn || {}).movement_left }))}</p>
      <div class="row"><button class="btn primary grow" data-action="sg-go" data-cell="${esc(pick.key)}" id="sg-go">${esc(t("Move here ({cost})", { cost: pick.cost }))}</button>
      <button class="btn ghost" data-action="sg-unpick" id="sg-unpick">${esc(t("Cancel"))}</button></div>` : "";
    return `<div class="sg-pick" id="sg-pick"><b id="sg-pick-place">${esc(this.place(st, r, c))}</b>${who.length ? `<ul class="sg-here">${who.join("")}</ul>` : ""}${go}</div>`;
  },

  legend() {
    const kinds = [["castle-a", N_("Castle A")], ["castle-b", N_("Castle B")], ["inner-a", N_("A's inner zone")], ["inner-b", N_("B's inner zone")],
      ["outer-a", N_("A's outer zone")], ["outer-b", N_("B's outer zone")], ["road", N_("Road")], ["boss-a", N_("Boss point")], ["off", N_("Impassable")]];
    const items = kinds.map(([cls, name]) => `<li><span class="sg-swatch ${cls}"></span>${esc(t(name))}</li>`).join("");
    const marks = `<li><span class="sg-swatch wall"></span>${esc(t("Wall (only a horse jumps it)"))}</li>
      <li><span class="sg-swatch reach"></span>${esc(t("You can move there (number: cost)"))}</li>
      <li><span class="sg-minion side-a"></span><span class="sg-minion side-b"></span>${esc(t("Minions"))}</li>
      <li><span class="sg-general side-a"><b>1</b><i class="sg-hp" style="width:100%"></i></span>${esc(t("A general: seat and health"))}</li>`;
    return `<details class="sg-legend" id="sg-legend" data-tv-side ${this.legendOpen ? "open" : ""}><summary>${esc(t("Map legend"))}</summary><ul>${items}${marks}</ul></details>`;
  },
  legendOpen: true,

  /** Apply a zoom ``s`` about the point (px, py) of the viewport, kept inside the map. */
  zoomTo(s, px, py) {
    const vp = document.getElementById("sg-viewport"), z = this.zoom;
    if (!vp) return;
    const w = vp.clientWidth, h = vp.clientHeight, ns = Math.max(1, Math.min(this.MAX_ZOOM, s));
    const cx = px ?? w / 2, cy = py ?? h / 2;
    z.x = cx - (cx - z.x) * (ns / z.s); z.y = cy - (cy - z.y) * (ns / z.s); z.s = ns;
    this.panBy(0, 0);
  },
  panBy(dx, dy) {
    const vp = document.getElementById("sg-viewport"), z = this.zoom;
    if (!vp) return;
    const w = vp.clientWidth, h = vp.clientHeight;
    z.x = Math.min(0, Math.max(w - w * z.s, z.x + dx)); z.y = Math.min(0, Math.max(h - h * z.s, z.y + dy));
    const b = document.getElementById("sg-board");
    if (b) { b.style.transform = `translate(${z.x}px,${z.y}px) scale(${z.s})`; b.dataset.zoom = String(z.s); }
    vp.classList.toggle("zoomed", z.s > 1);
    const cell = vp.querySelector("[data-cell]"), drawn = cell ? cell.getBoundingClientRect().width : 0;
    vp.classList.toggle("tiny-cells", drawn > 0 && drawn < 30);  // too small for a cell's label
    try { sessionStorage.setItem("sg-zoom", JSON.stringify(z)); } catch { /* private mode */ }
  },
  /** Tap on the map: on a cell too small to aim at, zoom in on it (the next tap picks a cell);
   * else the cell's own tap (pickCell). */
  tapMap(cell) {
    const w = cell.getBoundingClientRect().width;
    if (w >= this.TAP_PX) return this.pickCell(cell);
    const vp = document.getElementById("sg-viewport"), box = vp.getBoundingClientRect(), c = cell.getBoundingClientRect();
    this.zoomTo(this.zoom.s * (this.TAP_PX + 4) / w, c.left + c.width / 2 - box.left, c.top + c.height / 2 - box.top);
  },
  /** Tap a cell: reachable, it shows the cheapest path and its cost (SG-8.3) and a second tap
   * (or "Move here") moves; any other cell says what it is and who stands there. */
  pickCell(el) {
    const key = el.dataset.cell, mv = this.legal(S.priv, "move");
    const again = this.sel && this.sel.key === key && this.picked(mv);
    if (again) { this.go(key); return; }
    this.sel = this.sel && this.sel.key === key ? null : { key, turn: turnKey(S.state || {}) };
    S.focus = "#sg-pick";  // the path and "Move here" come into view (web_panel/static/app.js)
    render();
  },

  castles(st) {
    const s = st.sides || {};
    const side = (k) => `<div class="sg-castle side-${k.toLowerCase()}"><b id="castle-${k}">${esc((s[k] || {}).castle)}</b><span>${esc(t("Castle {side}", { side: k }))}</span>
      <small>${esc(t("Boss"))} ${this.generalPlain(((s[k] || {}).boss || {}).general || "") ? esc(this.generalPlain(((s[k] || {}).boss || {}).general)) : ""} ♥${esc(((s[k] || {}).boss || {}).health)}</small></div>`;
    const turn = st.turn, r = st.round || {};
    return `<section class="card sg-castles" id="castles">${side("A")}<div class="grow muted small">${esc(t("Round {n} · minions moved {roll}", { n: r.n, roll: r.minion_roll ?? "–" }))}
      ${turn ? `<br>${esc(nameOf(turn.seat))}: ${esc(turn.roll ? t("rolled {roll}, {left} movement left", { roll: turn.roll, left: turn.movement_left }) : t("to roll"))}` : ""}</div>${side("B")}</section>`;
  },

  seconds(w) {
    if (w.paused) return Math.max(0, Math.ceil(w.remaining_s || 0));
    if (!w.deadline) return null;
    const left = Math.max(0, Math.ceil(w.deadline - Date.now() / 1000 - (S.skew || 0)));
    return w.timeout_s ? Math.min(w.timeout_s, left) : left;  // never more than the window lasts
  },

  sentence(st, w) {
    const f = st.fight || {};
    if (w.kind === "dodge") return t("{who} attacks {target} with {n} 杀 (Strike) — 闪 (Dodge) or take {n} damage", { who: nameOf(w.attacker), target: nameOf(w.target), n: w.strikes });
    if (w.kind === "duel") {
      const price = f.refuse_price || 1;
      return t("{who} challenges {defenders} to a duel — refusing costs {price} gold", { who: nameOf(f.requester), defenders: (f.defenders || []).map(nameOf), price })
        + " " + ((f.joiners || []).length ? t("(1 to {who} and 1 to each joiner); joining costs 1 gold", { who: nameOf(f.requester) }) : t("(1 to {who}); joining costs 1 gold", { who: nameOf(f.requester) }));
    }
    if (w.kind === "boss_join") return t("{who} challenges the boss — join for 2 gold?", { who: nameOf(f.entrant) });
    if (w.kind === "confirm") return t("Result entered: side {side} wins — confirm or dispute", { side: (f.result || {}).winner });
    return String(w.kind);
  },

  windowCard(st, seat, host) {
    const w = st.window;
    if (!w) return "";
    const left = this.seconds(w), mine = seat != null && (w.seats || []).includes(seat);
    const count = w.paused ? `<div class="sg-count paused" id="countdown"><b>${esc(t("Paused"))}</b> ${esc(t("{left} s left", { left }))}</div>`
      : left !== null ? `<div class="sg-count" id="countdown"><b data-deadline="${esc(w.deadline)}"${w.timeout_s ? ` data-total="${esc(w.timeout_s)}"` : ""} id="seconds-left">${left}</b> ${esc(t("s"))}</div>` : "";
    const hostBtns = host ? `<div class="row">${w.paused
      ? `<button class="btn good grow" data-action="host-window" data-type="resume">${esc(t("▶ Resume countdown"))}</button>`
      : `<button class="btn grow" data-action="host-window" data-type="pause">${esc(t("❚❚ Pause countdown"))}</button>`}</div>` : "";
    return `<section class="card sg-window ${mine ? "mine" : ""}" id="window" data-kind="${esc(w.kind)}">
      ${mine ? `<div class="sg-your-call">${esc(t("Your call"))}</div>` : ""}<h2 id="window-text">${esc(this.sentence(st, w))}</h2>${count}
      <p class="muted small">${esc(t("Waiting for {who}", { who: (w.seats || []).map(nameOf) }))}</p>${hostBtns}</section>`;
  },

  /** The fight being played at the table: the requester's result form, a challenger's flee. */
  fightCard(st, pv, seat) {
    const f = st.fight;
    if (!f || st.window) return "";
    const who = f.kind === "duel" ? f.requester : f.entrant;
    const seats = f.kind === "duel" ? [f.requester, ...f.joiners, ...f.defenders] : [f.entrant, ...f.joiners];
    const what = f.kind === "duel" ? t("Duel: {who}", { who: seats.map(nameOf) }) : t("Boss fight: {who} against boss {boss}", { who: seats.map(nameOf), boss: this.generalPlain(((st.sides[f.side] || {}).boss || {}).general) });
    const form = this.legal(pv, "fight_result");
    let body = `<p class="muted small">${esc(t("Play it with the physical deck; {who} enters the result.", { who: nameOf(who) }))}</p>`;
    if (form) {
      const sides = form.sides.map((s) => `<option value="${s}">${esc(t("Side {side}", { side: s }))}${f.kind === "boss" && s === f.side ? esc(t(" (the boss)")) : ""}</option>`).join("");
      const hp = form.seats.map((s) => { const p = this.me(st, s) || {};
        return `<label class="sg-field">${esc(t("{who} health", { who: nameOf(s) }))} <input type="number" min="1" max="${p.max_health}" value="${p.health}" data-health="${s}"></label>
          <label class="sg-check"><input type="checkbox" data-out="${s}"> ${esc(t("knocked out"))}</label>`; }).join("");
      const boss = f.kind === "boss" ? `<label class="sg-field">${esc(t("Boss health left"))} <input type="number" min="1" value="${esc(((st.sides[f.side] || {}).boss || {}).health)}" id="sg-boss-health"></label>` : "";
      body = `<form id="fight-result" onsubmit="return false"><label class="sg-field">${esc(t("Winner"))} <select id="sg-winner">${sides}</select></label>${hp}${boss}
        <button class="btn primary wide" data-action="sg-result">${esc(t("Send the result"))}</button></form>`;
    }
    const flee = this.legal(pv, "flee") ? `<button class="btn wide" data-action="move" data-move="flee" data-args="{}">${esc(t("Flee (1 gold)"))}</button>` : "";
    return `<section class="card sg-fight" id="fight"><h2>${esc(what)}</h2>${body}${flee}</section>`;
  },

  movesCard(st, pv) {
    const out = [], btn = (move, args, text, cls = "") => `<button class="btn sg-move ${cls}" data-action="move" data-move="${esc(move)}" data-args="${esc(JSON.stringify(args))}">${esc(text)}</button>`;
    const hand = (pv && pv.action) || [];
    for (const m of legalMoves(pv || {})) {
      if (m.move === "roll") out.push(m.value ? this.dieForm("roll", m.minions ? t("Minions' die") : t("Your die")) : btn("roll", {}, t("Roll the die"), "primary"));
      else if (m.move === "reroll") out.push(m.value ? this.dieForm("reroll", t("Re-roll")) : btn("reroll", {}, t("Re-roll (once)")));
      else if (m.move === "keep") out.push(btn("keep", {}, t("Keep {roll}", { roll: st.turn.roll })));
      else if (m.move === "attack") {  // SG-4: each target in range (a tap on its token on the map does the same)
        const cards = m.cards.slice(0, m.max_cards);
        m.targets.forEach((to) => out.push(to === "castle" ? btn("attack", { target: "castle", cards: m.cards.slice(0, 1) }, t("Attack the castle"), "danger")
          : btn("attack", { target: to, cards }, typeof to === "number" ? t("杀 Strike {who}", { who: nameOf(to) }) : t("杀 Strike minion {id}", { id: to }), "danger")));
        if (m.max_cards > 1) out.push(`<p class="small muted">${esc(t("Crossbow: a Strike at a general or minion spends all {n} 杀 (Strike).", { n: m.max_cards }))}</p>`);
      }
      else if (m.move === "dodge") out.push(btn("dodge", { cards: m.cards.slice(0, m.max_cards) }, t("闪 Dodge ({n})", { n: Math.min(m.cards.length, m.max_cards) }), "primary"));
      else if (m.move === "pass") out.push(btn("pass", {}, t("Pass"), "ghost"));
      else if (m.move === "accept") out.push(btn("accept", {}, t("Accept the duel"), "primary"));
      else if (m.move === "refuse") out.push(btn("refuse", {}, t("Refuse (pay {price} gold)", { price: m.price })));
      else if (m.move === "join") out.push(btn("join", {}, t("Join the duel (1 gold)")));
      else if (m.move === "join_boss") out.push(btn("join_boss", {}, t("Join the boss fight (2 gold)")));
      else if (m.move === "confirm") out.push(btn("confirm", {}, t("Confirm"), "primary"));
      else if (m.move === "dispute") out.push(btn("dispute", {}, t("Dispute"), "danger"));
      else if (m.move === "shop") m.piles.forEach((pile) => out.push(btn("shop", m.strategy_full && pile === "strategy" ? { pile, drop: "new" } : { pile },
        t("Buy a {pile} ({price} gold)", { pile: t(PILE_NAMES[pile] || pile), price: (st.prices || {})[pile] }))));
      else if (m.move === "upgrade") out.push(btn("upgrade", {}, t("Upgrade max health ({price} gold)", { price: (st.prices || {}).upgrade })));
      else if (m.move === "request_duel") m.targets.forEach((to) => out.push(btn("request_duel", { target: to }, t("Duel {who}", { who: nameOf(to) }), "danger")));
      else if (m.move === "challenge_boss") out.push(btn("challenge_boss", { point: m.points[0] }, t("Challenge the boss (1 movement)"), "danger"));
      else if (m.move === "end_turn") out.push(btn("end_turn", {}, t("End turn"), "good"));
      else if (m.move === "discard" && hand.length > 6) hand.forEach((c) => out.push(btn("discard", { cards: [c] }, t("Discard {card}", { card: this.card(c) }))));
      else if (m.move === "pick_general") out.push(this.generalPicker(m));
    }
    if (!out.length) return "";
    return `<section class="card" id="moves"><h2>${esc(st.window ? t("Your answer") : t("Your move"))}</h2><div class="moves sg-moves">${out.join("")}</div></section>`;
  },

  /** SG-8.1: before your first turn you pick one of the generals you were offered: each by name
   * (Chinese and pinyin), kingdom and health, with its card text on a tap. */
  generalPicker(m) {
    const one = (g) => { const d = (this.desc().generals || {})[g] || {};
      return `<div class="sg-offer"><button class="btn sg-move" data-action="move" data-move="pick_general" data-args="${esc(JSON.stringify({ general: g }))}">${esc(t("Play {general}", { general: this.generalPlain(g) }))}</button>
        <span class="muted small sg-gen" ${this.generalInfo(g)}>${this.general(g)} · ${esc(t(KINGDOMS[d.kingdom] || d.kingdom || "?"))} · ♥${esc(d.health ?? "?")} ⓘ</span></div>`; };
    return `<div class="sg-offers" id="sg-offers"><p class="small">${esc(t("Choose the general you play this game (tap a name for its card):"))}</p>${m.generals.map(one).join("")}</div>`;
  },

  /** Your own losses where you look (docs/phones.md): health lost since the last state this phone
   * saw, with the log line that says why, until you tap it away. */
  noteLoss(st, seat) {
    const me = this.me(st, seat);
    const key = `${st.game}:${seat}:${(st.players || []).map((p) => p.name).join(",")}`;
    if (!me) { this.seen = null; return; }
    const before = this.seen && this.seen.key === key ? this.seen.health : null;
    this.seen = { key, health: me.health };
    if (before !== null && me.health < before) this.loss = { n: before - me.health, at: Date.now(), before: S.log[0], entry: null };
    if (me.health > (before ?? me.health) && this.loss) this.loss = null;  // healed: the old note is stale
  },
  lossCard(st, seat) {
    const l = this.loss, me = this.me(st, seat);
    if (!l || !me) return "";
    if (!l.entry && S.log[0] && S.log[0] !== l.before && Date.now() - l.at < 3000) l.entry = S.log[0];
    const entry = l.entry || l.before, lines = entry ? entryLines(entry) : [];
    const mine = lines.filter((x) => x.includes(me.name)), why = (mine.length ? mine : lines).slice(-2).map(noRules).join(" · ");
    return `<section class="card sg-loss" id="my-loss" role="alert"><div class="row"><b class="sg-loss-n">−${esc(l.n)} ♥</b><div class="grow">
      <b>${esc(tn("You lost {n} health", "You lost {n} health", l.n))}</b> · ${esc(t("now {health}/{max}", { health: me.health, max: me.max_health }))}
      ${why ? `<div class="small muted" id="my-loss-why">${esc(why)}</div>` : ""}</div><button class="btn ghost" data-action="sg-loss-ok" aria-label="${esc(t("OK"))}">✕</button></div></section>`;
  },

  dieForm(move, label) {
    return `<div class="sg-die" data-move="${move}">${esc(label)}: ${[1, 2, 3, 4, 5, 6].map((v) =>
      `<button class="btn" data-action="move" data-move="${move}" data-args='{"value":${v}}'>${v}</button>`).join("")}</div>`;
  },

  card(c) {
    if (String(c).startsWith("strike-")) return I18N.lang === "zh" ? "杀" : t("杀 Strike");
    if (String(c).startsWith("dodge-")) return I18N.lang === "zh" ? "闪" : t("闪 Dodge");
    const k = String(c).replace(/-\d+$/, ""), s = STRATEGY[k];
    return s ? (I18N.lang === "zh" ? s[0] : `${t(s[1])} ${s[0]}`) : k;
  },
  /** A strategy card that shows its text on a tap. */
  strategyChip(c) {
    const k = String(c).replace(/-\d+$/, ""), s = STRATEGY[k];
    return s ? `<button type="button" class="chip text" data-action="card-info" data-card-title="${esc(s[1])}" data-card-sub="${esc(s[0])}" data-card-text="${esc(s[2])}">${esc(this.card(c))}</button>` : esc(this.card(c));
  },

  meCard(st, pv, seat) {
    const me = this.me(st, seat) || {};
    const hand = (pv && pv.action) || [], strat = (pv && pv.strategy) || [];
    const strikes = hand.filter((c) => c.startsWith("strike-")).length, dodges = hand.length - strikes;
    const kit = { weapon: N_("weapon"), horse: N_("horse"), armour: N_("armour") };
    return `<section class="card sg-me" id="me"><div class="row"><div class="grow"><b>${esc(displayName(me.name || ""))}</b> · <span class="sg-gen" ${this.generalInfo(me.general)}>${this.general(me.general || "")}</span>
      <div class="muted small">${esc(t("Side {side} · range {range}", { side: me.team, range: me.range }))}${me.knocked_out ? " · " + esc(t("knocked out")) : ""}</div></div>
      <div class="sg-stat"><b id="my-health">${esc(me.health)}/${esc(me.max_health)}</b><span>${esc(t("health"))}</span></div>
      <div class="sg-stat"><b id="my-gold">${esc(me.gold)}</b><span>${esc(t("gold"))}</span></div></div>
      <p class="small" id="my-cards">${esc(t("杀 (Strike) ×{strikes} · 闪 (Dodge) ×{dodges}", { strikes, dodges }))}${strat.length ? ` · ${esc(t("strategy:"))} ${strat.map((c) => this.strategyChip(c)).join(" ")}` : ""}</p>
      <p class="small muted">${Object.entries(kit).map(([k, name]) => `${esc(t(name))}: ${me[k] ? `<span ${this.equipmentInfo(me[k])}>${esc(this.equipment(me[k]))}</span>` : "–"}`).join(" · ")}</p></section>`;
  },

  playersCard(st) {
    const items = (st.players || []).map((p) => `<li class="sg-player side-${p.team.toLowerCase()} ${p.knocked_out ? "out" : ""}" data-seat="${p.seat}">
      <b>${esc(displayName(p.name))}</b> <span class="muted sg-gen" ${this.generalInfo(p.general)}>${this.general(p.general)}</span> <span>♥${esc(p.health)}/${esc(p.max_health)}</span>
      <span id="gold-${p.seat}">${esc(t("{n} gold", { n: p.gold }))}</span> <span class="muted small">杀闪 ${esc(p.action_count)}${p.weapon ? ` · <span ${this.equipmentInfo(p.weapon)}>${esc(this.equipment(p.weapon))}</span>` : ""}${p.horse ? ` · <span ${this.equipmentInfo(p.horse)}>${esc(this.equipment(p.horse))}</span>` : ""}</span></li>`).join("");
    return `<section class="card" id="players"><ul class="players sg-players">${items}</ul></section>`;
  },

  winnerCard(st) {
    if (!st.winner) return "";
    const w = st.winner, text = w.draw ? t("A draw: both castles fell") : t("Side {side} wins: {who}", { side: (this.me(st, w[0]) || {}).team, who: w.map(nameOf) });
    return `<section class="card sg-winner" id="winner"><h2>${esc(text)}</h2></section>`;
  },

  seatView(st, pv, seat) {
    this.noteLoss(st, seat);
    if (!this.legal(pv, "move") || (this.sel && this.sel.turn !== turnKey(st))) this.sel = null;  // a pick lasts one turn
    const asked = !!(st.window && (st.window.seats || []).includes(seat));
    const moves = this.movesCard(st, pv);
    return this.lossCard(st, seat) + this.winnerCard(st) + this.windowCard(st, seat, false) + (asked ? moves : "") + this.fightCard(st, pv, seat)
      + this.castles(st) + this.board(st, pv, seat) + (asked ? "" : moves) + this.meCard(st, pv, seat) + this.playersCard(st);
  },

  tableView(st, host) {
    return this.winnerCard(st) + this.windowCard(st, null, host) + this.fightCard(st, null, null) + this.castles(st)
      + this.board(st, null, null) + this.playersCard(st);  // the panel shows the log in the game's words
  },
};

/** Move by the engine's cheapest path (SG-8.3) to the cell ``key`` ("r,c"). */
SG.go = async function go(key) {
  const mv = SG.legal(S.priv, "move");
  const i = mv ? mv.cells.findIndex(([r, c]) => `${r},${c}` === key) : -1;
  if (i < 0) return null;
  SG.sel = null;
  return send("move", { path: mv.paths[i] });
};

/* Fingers on the map: one drags it (when zoomed), two pinch it; a drag is not a tap. The
 * handlers sit on the document because every state update redraws the map. */
const touch = { pts: new Map(), travel: 0, dragged: false, cell: null };
const mid = (a, b) => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });
const apart = (a, b) => Math.hypot(a.x - b.x, a.y - b.y) || 1;
document.addEventListener("pointerdown", (e) => {
  if (!(e.target.closest && e.target.closest("#sg-viewport"))) return;
  if (!touch.pts.size) { touch.travel = 0; touch.dragged = false; touch.cell = e.target.closest("[data-cell]"); }
  touch.pts.set(e.pointerId, { x: e.clientX, y: e.clientY });
});
document.addEventListener("pointermove", (e) => {
  const was = touch.pts.get(e.pointerId), vp = document.getElementById("sg-viewport");
  if (!was || !vp) return;
  const now = { x: e.clientX, y: e.clientY };
  if (touch.pts.size >= 2) {
    const [a, b] = [...touch.pts.values()], m0 = mid(a, b), d0 = apart(a, b);
    touch.pts.set(e.pointerId, now);
    const [a2, b2] = [...touch.pts.values()], m1 = mid(a2, b2), box = vp.getBoundingClientRect();
    SG.zoomTo(SG.zoom.s * apart(a2, b2) / d0, m1.x - box.left, m1.y - box.top);
    SG.panBy(m1.x - m0.x, m1.y - m0.y);
    touch.dragged = true;
  } else {
    touch.pts.set(e.pointerId, now);
    touch.travel += Math.hypot(now.x - was.x, now.y - was.y);
    if (SG.zoom.s > 1) SG.panBy(now.x - was.x, now.y - was.y);
    if (touch.travel > 10) touch.dragged = true;
  }
});
for (const end of ["pointerup", "pointercancel"]) document.addEventListener(end, (e) => { touch.pts.delete(e.pointerId); });
document.addEventListener("click", (e) => {  // the tap that ends a drag or a pinch does not pick a cell
  if (touch.dragged && e.target.closest && e.target.closest("#sg-viewport")) { e.stopPropagation(); e.preventDefault(); }
  touch.dragged = false;
}, true);

function turnKey(st) { return st.turn ? `${st.round && st.round.n}:${st.turn.seat}` : ""; }

async function send(move, args) {
  const d = await post("/api/cmd", { type: "move", move, args });
  if (d.ok) toast(t("Done"), true);
  return d;
}

GameViews.register("sanguosha_map", {
  /** The guided first game (web_panel/static/learn.js): your general, a roll, a move on the map,
   * the end of the turn, and how a side wins (SG-2, SG-3, SG-4). */
  tutorial: (mode, kit) => [
    { id: "general", text: N_("Choose the general you play."), target: "#sg-offers", route: "seat",
      why: N_("Each general has its own health and skill: tap a name to read its card."),
      skip: (c) => !c.has("pick_general"), done: (c) => c.acted("pick_general") },
    kit.waitTurn(),
    { id: "roll", text: N_("Roll the die: it says how far you may move."), target: ['[data-move="roll"]', ".sg-die"], route: "seat",
      why: N_("With real dice at the table you type what you rolled instead."), skip: (c) => !c.has("roll") && !c.acted("roll"),
      done: (c) => c.acted("roll") || !c.mine },
    { id: "keep", text: N_("Keep the roll, or roll once more."), target: ['[data-move="keep"]', "#moves"], route: "seat",
      why: N_("A second roll is allowed once, and it must be kept."), skip: (c) => !c.has("keep"), done: (c) => c.acted("keep") || c.acted("reroll") || !c.mine },
    { id: "move", text: N_("Tap a lit cell on the map, then “Move here”."), target: ["#sg-pick", "#sg-viewport"], route: "seat",
      why: N_("Each lit cell is one you can reach this turn; the phone shows its cost."), skip: (c) => !c.has("move") && !c.acted("move"),
      done: (c) => c.acted("move") || !c.mine },
    { id: "end-turn", text: N_("Attack a target in range if there is one, then end your turn."), target: ['[data-move="end_turn"]', "#moves"], route: "seat",
      why: N_("杀 (Strike) attacks; the target answers with 闪 (Dodge) or takes the damage."), done: (c) => !c.mine },
    kit.finish(N_("A side wins when the other side's castle falls.")),
  ],
  /** How to play (the /rules pages, web_panel/static/rules.js): mode -> {pic, lines}, each line a
   * t() msgid; a drawing where it helps (inline SVG). Written for players: no rule numbers. */
  rules: () => {
    const P = (...lines) => lines;
    const pic = {
      map: `<svg viewBox="0 0 220 140" class="rules-pic" role="img" aria-label="${esc(t("The battlefield: each side's castle at one end, zones and roads between"))}">
      ${Array.from({ length: 7 }, (_, c) => Array.from({ length: 4 }, (_, r) => `<rect x="${10 + c * 29}" y="${10 + r * 30}" width="27" height="28" fill="${c === 0 ? "#c62828" : c === 6 ? "#1565c0" : c === 3 ? "#5d4037" : "#37474f"}"/>`).join("")).join("")}
      <text x="24" y="75" font-size="14" fill="#fff" text-anchor="middle">A</text><text x="198" y="75" font-size="14" fill="#fff" text-anchor="middle">B</text></svg>`,
    };
    return {
        battle: { pic: pic.map, lines: P(
          t("Two sides move their generals on a map between the two castles, fighting minions, castles and bosses; a side wins when the other castle falls."),
          t("On your turn roll the die and move up to that many steps (your phone shows each cell you can reach and its cost), then attack a target in range with 杀 (Strike)."),
          t("Attacked with 杀? Answer with 闪 (Dodge) before the countdown ends, or take the damage."),
          t("Duels and boss fights are played with the real Sanguosha deck at the table; the player named on the phone enters the result. Gold buys cards and equipment in your castle. Tap a general, a card or a piece of equipment for its text.")) },
    };
  },
  playedOnPhones: true,  // a seat no phone holds stops the game: the panel says so (docs/phones.md)
  css: true,
  afterRender: () => { if (document.getElementById("sg-viewport")) SG.panBy(0, 0); },  // zoom kept, cells measured
  seatView: (st, pv, seat) => SG.seatView(st, pv, seat),
  tableView: (st) => SG.tableView(st, false),
  hostView: (st) => SG.tableView(st, true),
  cardLabel: (card) => SG.card(card),
  actions: {
    /** A tap on the map (the cell under the finger: touch.cell): SG.tapMap. */
    "sg-map"() { if (touch.cell) SG.tapMap(touch.cell); },
    /** Move by the engine's cheapest path (SG-8.3) to the picked cell. */
    "sg-go"(el) { return SG.go(el.dataset.cell); },
    "sg-unpick"() { SG.sel = null; render(); },
    "sg-loss-ok"() { SG.loss = null; render(); },
    "sg-zoom"(el) {
      const z = el.dataset.z;
      if (z === "fit") { SG.zoom.s = 1; SG.zoom.x = 0; SG.zoom.y = 0; SG.panBy(0, 0); } else SG.zoomTo(SG.zoom.s * (z === "in" ? 1.5 : 1 / 1.5));
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
