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
  english(card) { const c = String(card || ""); return c.charAt(0).toUpperCase() + c.slice(1); },
  title(card) { return t(this.english(card)); },
  /** "Captain (10)": the role and its poker rank, everywhere a card is named (CP-1). */
  named(card) { return t("{role} ({rank})", { role: this.title(card), rank: this.rank(card) }); },

  /** One playing card: rank in the corners, role in the middle (a poker card with a role on it). */
  face(card, { small = false, lost = false } = {}) {
    const r = this.rank(card);
    return `<div class="cp-card r-${esc(card)} ${small ? "small" : ""} ${lost ? "lost" : ""}" role="img" aria-label="${esc(this.named(card))}${lost ? esc(t(", face up (lost)")) : ""}" data-action="card-info" data-card-title="${esc(this.english(card))}" data-card-text="${esc((this.cards()[card] || {}).power || "")}">
      <span class="corner tl">${esc(r)}</span><span class="role">${esc(this.title(card))}</span>
      ${small ? "" : `<span class="power">${esc(t((this.cards()[card] || {}).power || ""))}</span><span class="corner br">${esc(r)}</span>`}</div>`;
  },
  back(n) { return Array.from({ length: n }, () => `<span class="cp-back" aria-hidden="true"></span>`).join(""); },

  /** What the declared action does, in words ("steal 2 coins from Ann"). */
  effect(a) {
    if (!a) return t("act");
    const target = a.target != null ? nameOf(a.target) : "";
    const p = playerBySeat(a.target), steal = p ? Math.min(2, p.coins) : 2;
    return ({ income: () => t("take income (+1 coin)"), foreign_aid: () => t("take foreign aid (+2 coins)"), coup: () => t("launch a coup against {target}", { target }),
      tax: () => t("take 3 coins in tax"), assassinate: () => t("assassinate one of {target}'s cards", { target }),
      steal: () => tn("steal {n} coin from {target}", "steal {n} coins from {target}", steal, { target }), exchange: () => t("exchange cards with the deck") })[a.move]?.() || a.move;
  },

  /** The open window as a sentence: "Bo claims Captain to steal 2 coins from Ann — challenge or block?" */
  sentence(w) {
    const a = w.action || (S.state && S.state.action) || {};
    if (w.kind === "challenge_action") {
      // the block has a window of its own after this one (CP-4): say so, not "challenge or block?"
      const blockable = !!this.blocks(a.move), blocker = a.move === "foreign_aid" ? t("anyone") : a.target != null ? nameOf(a.target) : "";
      return t("{who} claims {card} to {action} — challenge?", { who: nameOf(w.claimant), card: this.named(w.claim), action: this.effect(a) })
        + (blockable && blocker ? t(" (then {who} may block)", { who: blocker }) : "");
    }
    if (w.kind === "block") {
      const claims = (w.claims || this.blocks(a.move) || []).map((c) => this.named(c)).join(t(" or "));
      const actor = nameOf(a.seat), who = a.move === "foreign_aid" ? t("anyone") : nameOf(a.target);
      const did = a.claim ? t("{who} may {action}", { who: actor, action: this.effect(a) }) : t("{who} wants to {action}", { who: actor, action: this.effect(a) });
      return t("{did} — {who}, block with {claims}?", { did, who, claims });
    }
    if (w.kind === "challenge_block") {
      const full = S.state && S.state.action;
      const actor = full && full.seat != null ? nameOf(full.seat) : t("the action");
      return t("{who} claims {card} to block {actor} — challenge?", { who: nameOf(w.claimant), card: this.named(w.claim), actor });
    }
    return `${nameOf(w.claimant)}: ${t(String(w.kind || "").replace(/_/g, " "))}`;
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
      ? `<div class="cp-count paused" id="countdown"><b>${esc(t("Paused"))}</b><span>${esc(t("{left} s left when the host resumes", { left }))}</span></div>`
      : left !== null
        ? `<div class="cp-count" id="countdown"><b data-deadline="${esc(w.deadline)}" data-total="${esc(total)}" id="seconds-left">${left}</b><span>${esc(t("s"))}</span>
           <div class="cp-bar" aria-hidden="true"><span data-bar-deadline="${esc(w.deadline)}" data-total="${esc(total)}" style="width:${pct}%"></span></div></div>`
        : "";
    const waiting = (w.seats || []).length ? esc(t("Waiting for {who}", { who: (w.seats || []).map(nameOf) })) : "";
    const hostBtns = host ? `<div class="row" style="margin-top:10px">${w.paused
      ? `<button class="btn good grow" data-action="host-window" data-type="resume" id="resume">${esc(t("▶ Resume countdown"))}</button>`
      : `<button class="btn grow" data-action="host-window" data-type="pause" id="pause">${esc(t("❚❚ Pause countdown"))}</button>`}</div>` : "";
    return `<section class="card cp-window ${mine ? "mine" : ""}" id="window" data-kind="${esc(w.kind)}">
      ${mine ? `<div class="cp-your-call">${esc(t("Your call"))}</div>` : ""}
      <h2 id="claim-text">${esc(this.sentence(w))}</h2>${count}<p class="muted small">${waiting}</p>${hostBtns}</section>`;
  },

  /** Someone must choose a card (lose an influence, or return cards after an exchange). */
  pendingCard(st, seat) {
    const p = st.pending;
    if (!p || p.seat === seat) return "";
    const what = p.kind === "lose_influence" ? t("{who} must turn one card face up (loses an influence)", { who: nameOf(p.seat) })
      : t("{who} is choosing {count} cards to return to the deck", { who: nameOf(p.seat), count: p.count || 2 });
    return `<section class="card cp-window" id="pending-choice"><h2>${esc(what)}</h2></section>`;
  },

  /** The last challenge, so everyone sees how it went (CP-3.2 / CP-3.3). */
  lastChallenge(st) {
    const c = st.last_challenge;
    if (!c) return "";
    const how = c.had ? t("{who} had {card} — {loser} loses an influence", { who: nameOf(c.claimant), card: this.named(c.claim), loser: nameOf(c.challenger) })
      : t("{who} had no {card} — {loser} loses an influence", { who: nameOf(c.claimant), card: this.named(c.claim), loser: nameOf(c.claimant) });
    return `<p class="cp-last" id="last-challenge">⚔ ${esc(t("{who} challenged: {how}", { who: nameOf(c.challenger), how }))}</p>`;
  },

  /** Every player's public picture: coins, face-down count, face-up (lost) cards (CP-6). */
  playersCard(st, meSeat = null) {
    const items = players().map((p) => {
      const turn = st.turn && st.turn.seat === p.seat;
      const faces = (p.revealed || []).map((c) => this.face(c, { small: true, lost: true })).join("");
      return `<li class="cp-player ${turn ? "active" : ""} ${p.alive ? "" : "out"}" data-seat="${p.seat}">
        ${coinBadge(p.seat, { dead: !p.alive })}<div class="grow"><div class="name">${esc(displayName(p.name))}${p.seat === meSeat ? esc(t(" (you)")) : ""}
        ${turn ? `<span class="tag turn">${esc(t("turn"))}</span>` : ""}${p.alive ? "" : `<span class="tag out">${esc(t("out"))}</span>`}</div>
        <div class="cp-hand">${this.back(p.influence || 0)}${faces}</div></div>
        <div class="cp-coins" aria-label="${esc(tn("{n} coin", "{n} coins", p.coins))}"><b>${esc(p.coins)}</b><span>${esc(t("coins"))}</span></div></li>`;
    }).join("");
    const deck = `<div class="cp-deck" id="deck"><span>${esc(t("Deck"))} <b id="deck-size">${esc(st.deck_size)}</b></span><span>${esc(t("Treasury"))} <b>${esc(st.treasury)}</b></span></div>`;
    return `<section class="card" id="players">${deck}<ul class="players">${items}</ul></section>`;
  },

  /** Big buttons for exactly the legal moves (legal.py), worded for people. */
  movesCard(pv, st) {
    const legal = legalMoves(pv), buttons = [];
    const btn = (move, args, text, sub, cls = "") => `<button class="btn cp-move ${cls}" data-action="move" data-move="${esc(move)}" data-args="${esc(JSON.stringify(args))}">
      <span class="main">${esc(text)}</span>${sub ? `<span class="sub">${esc(sub)}</span>` : ""}</button>`;
    const w = st.window;
    for (const m of legal) {
      const to = m.targets || [];
      if (m.move === "income") buttons.push(btn("income", {}, t("Income"), t("+1 coin · safe")));
      else if (m.move === "foreign_aid") buttons.push(btn("foreign_aid", {}, t("Foreign aid"), t("+2 coins · a Duke may block")));
      else if (m.move === "coup") to.forEach((s) => buttons.push(btn("coup", { target: s }, t("Coup {who}", { who: nameOf(s) }), t("pay 7 · cannot be stopped"), "danger")));
      else if (m.move === "tax") buttons.push(btn("tax", {}, t("Tax"), t("+3 coins · claim {card}", { card: this.named("duke") })));
      else if (m.move === "assassinate") to.forEach((s) => buttons.push(btn("assassinate", { target: s }, t("Assassinate {who}", { who: nameOf(s) }), t("pay 3 · claim {card}", { card: this.named("assassin") }))));
      else if (m.move === "steal") to.forEach((s) => buttons.push(btn("steal", { target: s }, t("Steal from {who}", { who: nameOf(s) }), t("2 coins · claim {card}", { card: this.named("captain") }))));
      else if (m.move === "exchange") buttons.push(btn("exchange", {}, t("Exchange"), t("2 cards from the deck · claim {card}", { card: this.named("ambassador") })));
      else if (m.move === "challenge") buttons.push(btn("challenge", {}, (w ? t("Challenge {who}", { who: nameOf(w.claimant) }) : t("Challenge")).trim(), w && w.claim ? t("\"You have no {card}!\"", { card: this.named(w.claim) }) : "", "danger"));
      else if (m.move === "block") (m.claims || []).forEach((c) => buttons.push(btn("block", { claim: c }, t("Block as {role}", { role: this.title(c) }), t("claim {card}", { card: this.named(c) }), "primary")));
      else if (m.move === "pass") {
        const a = (w && w.action) || st.action || {};
        const mayBlockNext = w && w.kind === "challenge_action" && this.blocks(a.move) && (a.move === "foreign_aid" || a.target === S.me.seat);
        buttons.push(btn("pass", {}, t("Pass"), w && w.kind === "block" ? t("let it happen") : mayBlockNext ? t("you may block next") : t("let it stand"), "ghost"));
      }
      else if (m.move === "lose_influence") (m.cards || []).forEach((c) => buttons.push(btn("lose_influence", { card: c }, t("Turn {card} face up", { card: this.named(c) }), t("you lose this influence"), "danger")));
      else buttons.push(...cardMoveButtons(m));
    }
    // One prompt with every reaction you have (CP-4): in the challenge window, the block you may
    // make next is offered too; tapping it passes the challenge and blocks when the block window opens.
    const a = (w && w.action) || st.action || {};
    const mayBlock = w && w.kind === "challenge_action" && legal.some((m) => m.move === "pass")
      && this.blocks(a.move) && (a.move === "foreign_aid" || a.target === S.me.seat);
    if (mayBlock) {
      for (const c of this.blocks(a.move)) {
        buttons.push(`<button class="btn cp-move primary" data-action="coup-block-next" data-claim="${esc(c)}"><span class="main">${esc(t("Block as {role}", { role: this.title(c) }))}</span><span class="sub">${esc(t("claim {card}", { card: this.named(c) }))}</span></button>`);
      }
    }
    if (!buttons.length) return "";
    const lose = legal.some((m) => m.move === "lose_influence");
    const picking = legal.some((m) => m.move === "exchange_return");
    const head = esc(lose ? t("Choose a card to lose") : picking ? t("Exchange: keep your best cards") : w ? t("Your answer") : t("Your move"));
    const pair = !lose && !picking;  // two columns: Challenge | Pass, and all six actions on one screen
    return `<section class="card ${lose ? "cp-window mine" : ""}" id="moves"><h2>${head}</h2><div class="moves cp-moves ${pair ? "pair" : ""} ${w ? "answer" : ""}">${buttons.join("")}</div></section>`;
  },

  /** A compact turn line, so the window, your cards and your buttons fit one phone screen. */
  banner(st, seat) {
    const turn = st.turn;
    if (!turn) return turnBanner(true);
    const mine = turn.seat === seat;
    return `<section class="banner cp-banner ${mine ? "mine" : ""}" id="turn-banner" aria-live="polite"><div class="row">
      ${coinBadge(turn.seat)}<div class="grow"><div class="big">${esc(mine ? t("YOUR TURN") : t("{who}'s turn", { who: nameOf(turn.seat) }))}</div></div></div>${st.window ? "" : lastLine()}</section>`;
  },

  /** You: name, coins, and your two cards (never anyone else's: the private view is only ever this seat's). */
  meCard(st, pv, seat) {
    const me = playerBySeat(seat) || {};
    const hand = pv && Array.isArray(pv.hand) ? pv.hand : [];
    const drawn = pv && Array.isArray(pv.drawn) && pv.drawn.length
      ? `<p class="small" style="margin-top:10px"><b>${esc(t("Drawn from the deck:"))}</b></p><div class="cp-hand big">${pv.drawn.map((c) => this.face(c)).join("")}</div>` : "";
    const lost = (me.revealed || []).map((c) => this.face(c, { small: true, lost: true })).join("");
    return `<section class="card cp-me" id="my-coin"><div class="row">${coinBadge(seat, { dead: me.alive === false })}<div class="grow">
        <div class="cp-name">${esc(me.name ? displayName(me.name) : t("Seat {n}", { n: seat }))}</div><div class="muted small">${esc(t("Seat {n}", { n: seat }))} · ${esc(COLOUR_NAMES()[seat - 1])} ${esc(SHAPE_NAMES()[seat - 1])}</div></div>
        <div class="cp-coins" id="my-coins" aria-label="${esc(tn("{n} coin", "{n} coins", me.coins))}"><b>${esc(me.coins)}</b><span>${esc(t("coins"))}</span></div></div>
      ${me.alive === false ? `<div class="cp-out">${esc(t("You are out"))}</div>` : ""}
      <div id="private"><div class="cp-hand big" id="my-cards">${hand.map((c) => this.face(c)).join("")}${lost}</div>
      <p class="muted small cp-only">${esc(t("Only your phone sees your cards."))} ${esc(t("Tap a card for what it does."))}</p>${drawn}</div></section>`;
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
      post("/api/cmd", { type: "move", move: "block", args: { claim: it.claim } }).then((d) => { if (d.ok) toast(t("Blocked as {role}", { role: this.title(it.claim) }), true); this.intent = null; });
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
  /** The guided first game (web_panel/static/learn.js): your cards and coins, a safe first action,
   * the bot's claims you may challenge, and how the game is won (CP-2, CP-3, CP-5). */
  tutorial: (mode, kit) => [
    { id: "cards", text: N_("These two cards are your influence: only your phone shows them."), target: "#my-cards", route: "seat", next: true,
      why: N_("Lose both and you are out. Tap a card to read what its role may do.") },
    { id: "coins", text: N_("Your coins pay for actions."), target: "#my-coins", route: "seat", next: true,
      why: N_("With 7 coins you may launch a Coup: the target loses a card. With 10 you must.") },
    kit.waitTurn(),
    { id: "income", text: N_("Take Income: one coin."), target: ['[data-move="income"]', "#moves"], route: "seat",
      why: N_("Income is safe: nobody can challenge or block it. The other actions claim a role, and you may claim one you do not hold."),
      done: (c) => c.actedAny() || !c.mine },
    { id: "watch", text: N_("Now the bot plays. When it claims a role, you may challenge it or let it pass."), target: ["#window", "#turn-banner"], route: "seat",
      why: N_("Whoever is wrong about a challenge loses a card. The buttons and a countdown appear here."), done: (c) => c.mine },
    kit.finish(N_("The last player with a card wins. Watch what the others claim, and bluff when it pays.")),
  ],
  /** How to play (the /rules pages, web_panel/static/rules.js): mode -> {pic, lines}, each line a
   * t() msgid; a drawing where it helps (inline SVG). Written for players: no rule numbers. */
  rules: () => {
    const P = (...lines) => lines;
    const pic = {
      coup: `<svg viewBox="0 0 220 120" class="rules-pic" role="img" aria-label="${esc(t("Your two face-down cards and your coins"))}">
      <rect x="20" y="10" width="62" height="96" rx="8" fill="#2a2f3a" stroke="#f5b400" stroke-width="3"/><text x="51" y="66" font-size="30" text-anchor="middle" fill="#f5b400">K</text>
      <rect x="92" y="10" width="62" height="96" rx="8" fill="#2a2f3a" stroke="#f5b400" stroke-width="3"/><text x="123" y="66" font-size="30" text-anchor="middle" fill="#f5b400">9</text>
      <circle cx="185" cy="40" r="14" fill="#f5b400"/><circle cx="185" cy="75" r="14" fill="#f5b400"/></svg>`,
    };
    return {
        classic: { pic: pic.coup, lines: P(
          t("Everyone starts with 2 coins and 2 face-down role cards (only your phone shows yours). Lose both cards and you are out; the last player with a card wins."),
          t("On your turn take one action: Income (+1), Foreign aid (+2), Coup (pay 7, the target loses a card), or a role's action — Tax (Duke, +3), Assassinate (Assassin, pay 3), Steal (Captain, 2 coins), Exchange (Ambassador)."),
          t("You may claim any role, true or not. Anyone may challenge a claim: whoever is wrong loses a card. Some actions can be blocked by claiming a role (the Duke blocks foreign aid, the Contessa blocks the Assassin, the Captain or Ambassador block stealing)."),
          t("With 10 coins or more you must launch a coup. Your phone shows a countdown when you may challenge or block; tap Pass to let it stand. Tap a card to read what it does.")) },
    };
  },
  playedOnPhones: true,  // a seat no phone holds stops the game: the panel says so (docs/phones.md)
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
      if (d.ok) { Coup.intent = { claim: el.dataset.claim, key }; toast(t("You will block as {role} if nobody challenges", { role: Coup.title(el.dataset.claim) }), true); }
    },
  },
  afterRender: () => Coup.followIntent(),
  // CP-1 "First player: random or chosen": a manual turn order in the lobby chooses its first seat
  newGame: (body, { manualOrder }) => { if (manualOrder) body.options.setup = { ...(body.options.setup || {}), first: body.order[0] }; },
});
})();
