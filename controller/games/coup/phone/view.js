/* Coup on the phones (docs/rules/coup.md): hand cards with role AND poker rank (CP-1), big buttons for exactly
 * the seat's legal moves, the open reaction window in words with a live countdown (CP-6), and the
 * table's public picture (coins, face-up cards, face-down count, deck size).
 * Loaded by the panel from /games/coup/view.js (this game's own package) and registered with
 * GameViews; the card table (ranks, powers, which roles block what) is the one the daemon
 * publishes in Coup's describe() on the games topic. Uses the panel's helpers (esc, nameOf,
 * players, legalMoves, S, …: web_panel/PANEL.md) at call time only. */
"use strict";

(function () {
const Coup = {
  /** The card table as the daemon describes it: {role: {rank, power}, …} (CP-1). */
  cards() { return (GameViews.describe("coup") || {}).cards || {}; },
  blocks(move) { return ((GameViews.describe("coup") || {}).blocks || {})[move]; },
  rank(card) { return ((S.state && S.state.ranks) || {})[card] || (this.cards()[card] || {}).rank || "?"; },
  title(card) { const c = String(card || ""); return c.charAt(0).toUpperCase() + c.slice(1); },
  /** "Captain (10)": the role and its poker rank, everywhere a card is named (CP-1). */
  named(card) { return `${this.title(card)} (${this.rank(card)})`; },

  /** One playing card: rank in the corners, role in the middle (a poker card with a role on it). */
  face(card, { small = false, lost = false } = {}) {
    const r = this.rank(card);
    return `<div class="cp-card r-${esc(card)} ${small ? "small" : ""} ${lost ? "lost" : ""}" role="img" aria-label="${esc(this.named(card))}${lost ? ", face up (lost)" : ""}">
      <span class="corner tl">${esc(r)}</span><span class="role">${esc(this.title(card))}</span>
      ${small ? "" : `<span class="power">${esc((this.cards()[card] || {}).power || "")}</span><span class="corner br">${esc(r)}</span>`}</div>`;
  },
  back(n) { return Array.from({ length: n }, () => `<span class="cp-back" aria-hidden="true"></span>`).join(""); },

  /** What the declared action does, in words ("steal 2 coins from Ann"). */
  effect(a) {
    if (!a) return "act";
    const target = a.target != null ? nameOf(a.target) : "";
    const p = playerBySeat(a.target), steal = p ? Math.min(2, p.coins) : 2;
    return ({ income: "take income (+1 coin)", foreign_aid: "take foreign aid (+2 coins)", coup: `launch a coup against ${target}`,
      tax: "take 3 coins in tax", assassinate: `assassinate one of ${target}'s cards`,
      steal: `steal ${steal} coin${steal === 1 ? "" : "s"} from ${target}`, exchange: "exchange cards with the deck" })[a.move] || a.move;
  },

  /** The open window as a sentence: "Bo claims Captain to steal 2 coins from Ann — challenge or block?" */
  sentence(w) {
    const a = w.action || (S.state && S.state.action) || {};
    if (w.kind === "challenge_action") {
      // the block has a window of its own after this one (CP-4): say so, not "challenge or block?"
      const blockable = !!this.blocks(a.move), blocker = a.move === "foreign_aid" ? "anyone" : a.target != null ? nameOf(a.target) : "";
      return `${nameOf(w.claimant)} claims ${this.named(w.claim)} to ${this.effect(a)} — challenge?${blockable && blocker ? ` (then ${blocker} may block)` : ""}`;
    }
    if (w.kind === "block") {
      const claims = (w.claims || this.blocks(a.move) || []).map((c) => this.named(c)).join(" or ");
      const actor = nameOf(a.seat), who = a.move === "foreign_aid" ? "anyone" : nameOf(a.target);
      const did = a.claim ? `${actor} may ${this.effect(a)}` : `${actor} wants to ${this.effect(a)}`;
      return `${did} — ${who}, block with ${claims}?`;
    }
    if (w.kind === "challenge_block") {
      const full = S.state && S.state.action;
      const actor = full && full.seat != null ? nameOf(full.seat) : "the action";
      return `${nameOf(w.claimant)} claims ${this.named(w.claim)} to block ${actor} — challenge?`;
    }
    return `${nameOf(w.claimant)}: ${String(w.kind || "").replace(/_/g, " ")}`;
  },

  secondsLeft(w) {
    if (w.paused) return Math.max(0, Math.ceil(w.remaining_s || 0));
    return w.deadline ? Math.max(0, Math.ceil(w.deadline - Date.now() / 1000 - (S.skew || 0))) : null;
  },

  /** The reaction window card: sentence, who may answer, countdown bar, host pause/resume. */
  windowCard(st, { seat = null, host = false } = {}) {
    const w = st.window;
    if (!w || typeof w !== "object") return this.pendingCard(st, seat);
    const left = this.secondsLeft(w), total = +w.timeout_s || 8, mine = seat != null && (w.seats || []).includes(seat);
    const pct = left === null ? 100 : Math.max(0, Math.min(100, (100 * left) / total));
    const count = w.paused
      ? `<div class="cp-count paused" id="countdown"><b>Paused</b><span>${left} s left when the host resumes</span></div>`
      : left !== null
        ? `<div class="cp-count" id="countdown"><b data-deadline="${esc(w.deadline)}" data-total="${esc(total)}" id="seconds-left">${left}</b><span>s</span>
           <div class="cp-bar" aria-hidden="true"><span data-bar-deadline="${esc(w.deadline)}" data-total="${esc(total)}" style="width:${pct}%"></span></div></div>`
        : "";
    const waiting = (w.seats || []).length ? `Waiting for ${esc((w.seats || []).map(nameOf).join(", "))}` : "";
    const hostBtns = host ? `<div class="row" style="margin-top:10px">${w.paused
      ? `<button class="btn good grow" data-action="host-window" data-type="resume" id="resume">▶ Resume countdown</button>`
      : `<button class="btn grow" data-action="host-window" data-type="pause" id="pause">❚❚ Pause countdown</button>`}</div>` : "";
    return `<section class="card cp-window ${mine ? "mine" : ""}" id="window" data-kind="${esc(w.kind)}">
      ${mine ? `<div class="cp-your-call">Your call</div>` : ""}
      <h2 id="claim-text">${esc(this.sentence(w))}</h2>${count}<p class="muted small">${waiting}</p>${hostBtns}</section>`;
  },

  /** Someone must choose a card (lose an influence, or return cards after an exchange). */
  pendingCard(st, seat) {
    const p = st.pending;
    if (!p || p.seat === seat) return "";
    const what = p.kind === "lose_influence" ? "must turn one card face up (loses an influence)" : `is choosing ${p.count || 2} cards to return to the deck`;
    return `<section class="card cp-window" id="pending-choice"><h2>${esc(nameOf(p.seat))} ${esc(what)}</h2></section>`;
  },

  /** The last challenge, so everyone sees how it went (CP-3.2 / CP-3.3). */
  lastChallenge(st) {
    const c = st.last_challenge;
    if (!c) return "";
    const how = c.had ? `${nameOf(c.claimant)} had ${this.named(c.claim)} — ${nameOf(c.challenger)} loses an influence`
      : `${nameOf(c.claimant)} had no ${this.named(c.claim)} — ${nameOf(c.claimant)} loses an influence`;
    return `<p class="cp-last" id="last-challenge">⚔ ${esc(nameOf(c.challenger))} challenged: ${esc(how)}</p>`;
  },

  /** Every player's public picture: coins, face-down count, face-up (lost) cards (CP-6). */
  playersCard(st, meSeat = null) {
    const items = players().map((p) => {
      const turn = st.turn && st.turn.seat === p.seat;
      const faces = (p.revealed || []).map((c) => this.face(c, { small: true, lost: true })).join("");
      return `<li class="cp-player ${turn ? "active" : ""} ${p.alive ? "" : "out"}" data-seat="${p.seat}">
        ${coinBadge(p.seat, { dead: !p.alive })}<div class="grow"><div class="name">${esc(p.name)}${p.seat === meSeat ? " (you)" : ""}
        ${turn ? `<span class="tag turn">turn</span>` : ""}${p.alive ? "" : `<span class="tag out">out</span>`}</div>
        <div class="cp-hand">${this.back(p.influence || 0)}${faces}</div></div>
        <div class="cp-coins" aria-label="${esc(p.coins)} coins"><b>${esc(p.coins)}</b><span>coins</span></div></li>`;
    }).join("");
    const deck = `<div class="cp-deck" id="deck"><span>Deck <b id="deck-size">${esc(st.deck_size)}</b></span><span>Treasury <b>${esc(st.treasury)}</b></span></div>`;
    return `<section class="card" id="players">${deck}<ul class="players">${items}</ul></section>`;
  },

  /** Big buttons for exactly the legal moves (legal.py), worded for people. */
  movesCard(pv, st) {
    const legal = legalMoves(pv), buttons = [];
    const btn = (move, args, text, sub, cls = "") => `<button class="btn cp-move ${cls}" data-action="move" data-move="${esc(move)}" data-args="${esc(JSON.stringify(args))}">
      <span class="main">${esc(text)}</span>${sub ? `<span class="sub">${esc(sub)}</span>` : ""}</button>`;
    const w = st.window;
    for (const m of legal) {
      const t = m.targets || [];
      if (m.move === "income") buttons.push(btn("income", {}, "Income", "+1 coin · safe"));
      else if (m.move === "foreign_aid") buttons.push(btn("foreign_aid", {}, "Foreign aid", "+2 coins · a Duke may block"));
      else if (m.move === "coup") t.forEach((s) => buttons.push(btn("coup", { target: s }, `Coup ${nameOf(s)}`, "pay 7 · cannot be stopped", "danger")));
      else if (m.move === "tax") buttons.push(btn("tax", {}, "Tax", `+3 coins · claim ${this.named("duke")}`));
      else if (m.move === "assassinate") t.forEach((s) => buttons.push(btn("assassinate", { target: s }, `Assassinate ${nameOf(s)}`, `pay 3 · claim ${this.named("assassin")}`)));
      else if (m.move === "steal") t.forEach((s) => buttons.push(btn("steal", { target: s }, `Steal from ${nameOf(s)}`, `2 coins · claim ${this.named("captain")}`)));
      else if (m.move === "exchange") buttons.push(btn("exchange", {}, "Exchange", `2 cards from the deck · claim ${this.named("ambassador")}`));
      else if (m.move === "challenge") buttons.push(btn("challenge", {}, `Challenge ${w ? nameOf(w.claimant) : ""}`.trim(), w && w.claim ? `"You have no ${this.named(w.claim)}!"` : "", "danger"));
      else if (m.move === "block") (m.claims || []).forEach((c) => buttons.push(btn("block", { claim: c }, `Block as ${this.title(c)}`, `claim ${this.named(c)}`, "primary")));
      else if (m.move === "pass") {
        const a = (w && w.action) || st.action || {};
        const mayBlockNext = w && w.kind === "challenge_action" && this.blocks(a.move) && (a.move === "foreign_aid" || a.target === S.me.seat);
        buttons.push(btn("pass", {}, "Pass", w && w.kind === "block" ? "let it happen" : mayBlockNext ? "you may block next" : "let it stand", "ghost"));
      }
      else if (m.move === "lose_influence") (m.cards || []).forEach((c) => buttons.push(btn("lose_influence", { card: c }, `Turn ${this.named(c)} face up`, "you lose this influence", "danger")));
      else buttons.push(...cardMoveButtons(m));
    }
    // One prompt with every reaction you have (CP-4): in the challenge window, the block you may
    // make next is offered too; tapping it passes the challenge and blocks when the block window opens.
    const a = (w && w.action) || st.action || {};
    const mayBlock = w && w.kind === "challenge_action" && legal.some((m) => m.move === "pass")
      && this.blocks(a.move) && (a.move === "foreign_aid" || a.target === S.me.seat);
    if (mayBlock) {
      for (const c of this.blocks(a.move)) {
        buttons.push(`<button class="btn cp-move primary" data-action="coup-block-next" data-claim="${esc(c)}"><span class="main">Block as ${esc(this.title(c))}</span><span class="sub">claim ${esc(this.named(c))}</span></button>`);
      }
    }
    if (!buttons.length) return "";
    const lose = legal.some((m) => m.move === "lose_influence");
    const picking = legal.some((m) => m.move === "exchange_return");
    const head = lose ? "Choose a card to lose" : picking ? "Exchange: keep your best cards" : w ? "Your answer" : "Your move";
    const pair = !lose && !picking;  // two columns: Challenge | Pass, and all six actions on one screen
    return `<section class="card ${lose ? "cp-window mine" : ""}" id="moves"><h2>${head}</h2><div class="moves cp-moves ${pair ? "pair" : ""} ${w ? "answer" : ""}">${buttons.join("")}</div></section>`;
  },

  /** A compact turn line, so the window, your cards and your buttons fit one phone screen. */
  banner(st, seat) {
    const t = st.turn;
    if (!t) return turnBanner(true);
    const mine = t.seat === seat;
    return `<section class="banner cp-banner ${mine ? "mine" : ""}" id="turn-banner" aria-live="polite"><div class="row">
      ${coinBadge(t.seat)}<div class="grow"><div class="big">${mine ? "YOUR TURN" : `${esc(nameOf(t.seat))}'s turn`}</div></div></div>${st.window ? "" : lastLine()}</section>`;
  },

  /** You: name, coins, and your two cards (never anyone else's: the private view is only ever this seat's). */
  meCard(st, pv, seat) {
    const me = playerBySeat(seat) || {};
    const hand = pv && Array.isArray(pv.hand) ? pv.hand : [];
    const drawn = pv && Array.isArray(pv.drawn) && pv.drawn.length
      ? `<p class="small" style="margin-top:10px"><b>Drawn from the deck:</b></p><div class="cp-hand big">${pv.drawn.map((c) => this.face(c)).join("")}</div>` : "";
    const lost = (me.revealed || []).map((c) => this.face(c, { small: true, lost: true })).join("");
    return `<section class="card cp-me" id="my-coin"><div class="row">${coinBadge(seat, { dead: me.alive === false })}<div class="grow">
        <div class="cp-name">${esc(me.name || `Seat ${seat}`)}</div><div class="muted small">Seat ${seat} · ${COLOUR_NAMES[seat - 1]} ${SHAPE_NAMES[seat - 1]}</div></div>
        <div class="cp-coins" id="my-coins" aria-label="${esc(me.coins)} coins"><b>${esc(me.coins)}</b><span>coins</span></div></div>
      ${me.alive === false ? `<div class="cp-out">You are out</div>` : ""}
      <div id="private"><div class="cp-hand big" id="my-cards">${hand.map((c) => this.face(c)).join("")}${lost}</div>
      <p class="muted small cp-only">Only your phone sees your cards.</p>${drawn}</div></section>`;
  },

  seatView(st, pv, seat) {
    // A reaction or a choice: the question and its buttons first. Your own turn: your cards first.
    const me = this.meCard(st, pv, seat), moves = this.movesCard(pv || {}, st);
    const asked = !!(st.window || (st.pending && st.pending.seat === seat));
    const why = st.pending ? this.lastChallenge(st) : "";  // why someone must lose a card, right above it
    return this.banner(st, seat) + this.windowCard(st, { seat }) + why + (asked ? moves + me : me + moves)
      + (why ? "" : this.lastChallenge(st)) + this.playersCard(st, seat);
  },

  tableView(st, host = false) {
    return this.banner(st, null) + this.windowCard(st, { host }) + this.lastChallenge(st) + this.playersCard(st);
  },

  /** A block chosen in the challenge window: sent once the block window for the same action opens;
   * forgotten when that action is over (a challenge decided it, or the turn moved on). */
  intent: null,
  actionKey(a) { return a ? `${a.seat}:${a.move}:${a.target ?? ""}` : ""; },
  followIntent() {
    const it = this.intent, st = S.state;
    if (!it || it.sent) return;
    const action = st && (st.action || (st.window && st.window.action));
    if (!st || st.phase !== "playing" || !action || this.actionKey(action) !== it.key) { this.intent = null; return; }
    const w = st.window;
    const block = legalMoves(S.priv).find((m) => m.move === "block");
    if (w && w.kind === "block" && block && (block.claims || []).includes(it.claim)) {
      it.sent = true;
      post("/api/cmd", { type: "move", move: "block", args: { claim: it.claim } }).then((d) => { if (d.ok) toast(`Blocked as ${this.title(it.claim)}`, true); this.intent = null; });
    }
  },

  /** Called every 250 ms: tick the countdown numbers and bars without a re-render. */
  tick() {
    const now = Date.now() / 1000 + (S.skew || 0);
    for (const el of document.querySelectorAll("[data-bar-deadline]")) {
      el.style.width = `${Math.max(0, Math.min(100, (100 * (+el.dataset.barDeadline - now)) / (+el.dataset.total || 8)))}%`;
    }
  },
};

GameViews.register("coup", {
  css: true,
  seatView: (st, pv, seat) => (st.phase === "playing" ? Coup.seatView(st, pv, seat) : null),
  // coins, face-up cards, face-down counts, deck size (CP-6); no board
  tableView: (st) => (st.phase === "playing" ? Coup.tableView(st, false) : turnBanner(true) + Coup.playersCard(st)),
  hostView: (st) => Coup.tableView(st, true),
  cardLabel: (card) => (Coup.cards()[card] || (S.state && S.state.ranks && S.state.ranks[card]) ? Coup.named(card) : null),
  tick: () => Coup.tick(),
  actions: {
    /** Block from the challenge window: pass the challenge now, block as ``claim`` once the block
     * window opens for this action (the engine's order: CP-3 challenge, then CP-4 block). */
    async "coup-block-next"(el) {
      const st = S.state, key = Coup.actionKey(st.action || (st.window && st.window.action));
      const d = await post("/api/cmd", { type: "move", move: "pass", args: {} });
      if (d.ok) { Coup.intent = { claim: el.dataset.claim, key }; toast(`You will block as ${Coup.title(el.dataset.claim)} if nobody challenges`, true); }
    },
  },
  afterRender: () => Coup.followIntent(),
  // CP-1 "First player: random or chosen": a manual turn order in the lobby chooses its first seat
  newGame: (body, { manualOrder }) => { if (manualOrder) body.options.setup = { ...(body.options.setup || {}), first: body.order[0] }; },
});
})();
