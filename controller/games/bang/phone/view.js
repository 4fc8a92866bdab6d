/* Bang! on the phones (docs/rules/bang.md BG-7, BG-8.14): your role (tap to reveal), character and ability,
 * life as bullets, your hand as cards with suit and rank; tapping a card lights its legal targets
 * with their distance; a response banner with a live countdown ("Bo: BANG! at you — Missed! | Take
 * it"). The table page shows the ring, the Sheriff's star, cards in play, hand counts, the deck and
 * a readable log. Card titles and character abilities come from Bang!'s describe() on the games
 * topic; cards are named by id ("bang-AS": name, rank, suit). Uses the panel's helpers (esc, nameOf,
 * players, legalMoves, cardMoveButtons, S, …: web_panel/PANEL.md) at call time only. */
"use strict";

(function () {
const SUITS = { S: ["♠", "black"], H: ["♥", "red"], D: ["♦", "red"], C: ["♣", "black"] };
const CHAR_NAMES = {
  bart_cassidy: N_("Bart Cassidy"), black_jack: N_("Black Jack"), calamity_janet: N_("Calamity Janet"), el_gringo: N_("El Gringo"),
  jesse_jones: N_("Jesse Jones"), jourdonnais: N_("Jourdonnais"), kit_carlson: N_("Kit Carlson"), lucky_duke: N_("Lucky Duke"),
  paul_regret: N_("Paul Regret"), pedro_ramirez: N_("Pedro Ramirez"), rose_doolan: N_("Rose Doolan"), sid_ketchum: N_("Sid Ketchum"),
  slab_the_killer: N_("Slab the Killer"), suzy_lafayette: N_("Suzy Lafayette"), vulture_sam: N_("Vulture Sam"), willy_the_kid: N_("Willy the Kid"),
};
const ROLE_NAMES = { sheriff: N_("Sheriff"), deputy: N_("Deputy"), outlaw: N_("Outlaw"), renegade: N_("Renegade") };
const ROLE_GOALS = () => ({
  sheriff: t("Kill every Outlaw and the Renegade."), deputy: t("Protect the Sheriff: kill the Outlaws and the Renegade."),
  outlaw: t("Kill the Sheriff."), renegade: t("Be the last one standing: the Sheriff dies last."),
});
// What each card does, shown on a tap; the seed's own words where it has them.
const CARD_TEXT = () => ({
  bang: t("Shoot a player within your weapon's range: they lose 1 life unless they play a Missed!. One BANG! per turn."),
  missed: t("Cancels a BANG! aimed at you (play it when you are shot)."),
  beer: t("Regain 1 life (not above your maximum). Also saves you when you would die. No effect with only 2 players left."),
  cat_balou: t("Make any player discard a card: from their hand (at random) or in front of them."),
  panic: t("Take a card from a player at distance 1: from their hand (at random) or in front of them."),
  duel: t("Challenge any player: you take turns discarding a BANG!; the first who cannot loses 1 life."),
  jail: t("Put it in front of another player (not the Sheriff): at their turn they draw! — a heart frees them, otherwise they skip the turn."),
  general_store: t("Turn up one card per living player; each picks one, starting with you."),
  indians: t("Every other player discards a BANG! or loses 1 life."),
  stagecoach: t("Draw 2 cards."),
  wells_fargo: t("Draw 3 cards."),
  saloon: t("Every living player regains 1 life."),
  gatling: t("A BANG! at every other player (it does not count as your BANG! this turn)."),
  dynamite: t("Put it in front of you. At your turn draw!: 2–9 of spades explodes for 3 lives; otherwise it passes to the next player."),
  barrel: t("When shot, draw!: a heart counts as a Missed!."),
  mustang: t("The others see you at distance +1."),
  scope: t("You see the others at distance −1."),
  volcanic: t("Weapon, range 1: any number of BANG! per turn."),
  schofield: t("Weapon, range 2."),
  remington: t("Weapon, range 3."),
  rev_carabine: t("Weapon, range 4."),
  winchester: t("Weapon, range 5."),
});

const Bang = {
  desc() { return GameViews.describe("bang") || {}; },
  /** "bang-10D" -> {name: "bang", rank: "10", suit: "D"} */
  parse(card) {
    const [name, rs] = String(card || "").split("-");
    const m = /^(10|[2-9AJQK])([SHDC])$/.exec(rs || "") || [];
    return { name, rank: m[1] || "?", suit: m[2] || "S" };
  },
  title(card) {
    const c = this.parse(card);
    return t(this.english(card));
  },
  english(card) { const c = this.parse(card); return ((this.desc().cards || {})[c.name] || {}).title || c.name.replace(/_/g, " "); },
  text(card) { return CARD_TEXT()[this.parse(card).name] || ""; },
  label(card) { const c = this.parse(card); return `${this.title(card)} ${c.rank}${SUITS[c.suit][0]}`; },
  blue(card) { return !!((this.desc().cards || {})[this.parse(card).name] || {}).blue; },
  face(card, { small = false, selected = false, action = "" } = {}) {
    const c = this.parse(card), [sym, colour] = SUITS[c.suit];
    const tag = action ? "button" : "div";
    return `<${tag} class="bg-card ${colour} ${this.blue(card) ? "blue" : "brown"} ${small ? "small" : ""} ${selected ? "selected" : ""}"
      ${action ? `data-action="${action}" data-card="${esc(card)}" aria-pressed="${selected}"` : `role="img" data-action="card-info" data-card-title="${esc(this.english(card))}" data-card-text="${esc(this.text(card))}"`} aria-label="${esc(this.label(card))}">
      <span class="corner">${esc(c.rank)}${sym}</span><span class="name">${esc(this.title(card))}</span></${tag}>`;
  },
  bullets(p) {
    const full = Math.max(0, p.life || 0), max = p.max_life || 0;
    return `<span class="bg-life" aria-label="${esc(t("{life} of {max} life", { life: full, max }))}">${"●".repeat(Math.min(full, max))}<span class="lost">${"○".repeat(Math.max(0, max - full))}</span></span>`;
  },
  /** A character's name in the phone's language (its English name on the card-info sheet's subtitle). */
  charName(id) { return t(this.charEnglish(id)); },
  charEnglish(id) { return CHAR_NAMES[id] || String(id || "").replace(/_/g, " "); },
  ability(id) { const a = ((this.desc().characters || {})[id] || {}).ability || ""; return a ? t(a) : ""; },
  role(role) { return ROLE_NAMES[role] ? t(ROLE_NAMES[role]) : String(role || ""); },
  star(p) { return p.role === "sheriff" ? `<span class="bg-star" title="${esc(t("Sheriff"))}" aria-label="${esc(t("Sheriff"))}">★</span>` : ""; },

  secondsLeft(w) {
    if (w.paused) return Math.max(0, Math.ceil(w.remaining_s || 0));
    return w.deadline ? Math.max(0, Math.ceil(w.deadline - Date.now() / 1000 - (S.skew || 0))) : null;
  },

  /** The window in words: "Bo: BANG! at you" / "Ann: Indians! — a BANG! or take it". */
  sentence(w, seat) {
    const who = (w.seats || [])[0], you = who === seat, name = you ? t("you") : nameOf(who);
    const src = w.source != null ? nameOf(w.source) : "", card = w.card ? this.title(w.card) : "";
    if (w.kind === "shot") return t("{src}: {card} at {who}", { src, card, who: name }) + (w.needed > 1 ? t(" ({n} Missed! needed)", { n: w.needed }) : "");
    if (w.kind === "indians") return t("{src}: Indians! — {who}: a BANG! or take it", { src, who: name });
    if (w.kind === "duel") return t("Duel with {src} — {who}: a BANG! or lose 1 life", { src, who: name });
    if (w.kind === "dying") return you ? tn("You are dying — {n} Beer to live", "You are dying — {n} Beers to live", w.needed) : tn("{who} is dying — {n} Beer to live", "{who} is dying — {n} Beers to live", w.needed, { who: name });
    if (w.kind === "store") return you ? t("General Store — your pick") : t("General Store — {who}'s pick", { who: name });
    if (w.kind === "draw_choice") return you ? t("You choose how to draw") : t("{who} chooses how to draw", { who: name });
    return `${name}: ${w.kind}`;
  },

  /** The response banner: sentence, countdown and, when it is yours, the answers side by side. */
  windowCard(st, pv, seat, host = false) {
    const w = st.window;
    if (!w || typeof w !== "object") return "";
    const mine = seat != null && (w.seats || []).includes(seat);
    const left = this.secondsLeft(w), total = +w.deadline_s || 15;
    const pct = left === null ? 100 : Math.max(0, Math.min(100, (100 * left) / total));
    const count = w.paused ? `<div class="bg-count paused"><b>${esc(t("Paused"))}</b> ${esc(t("{left} s left", { left }))}</div>`
      : left !== null ? `<div class="bg-count"><b data-deadline="${esc(w.deadline)}" id="seconds-left">${left}</b> ${esc(t("s"))}
         <div class="bg-bar"><span data-bar-deadline="${esc(w.deadline)}" data-total="${esc(total)}" style="width:${pct}%"></span></div></div>` : "";
    const store = w.kind === "store" && w.cards ? `<div class="bg-hand">${w.cards.map((c) => this.face(c, { small: true })).join("")}</div>` : "";
    const buttons = mine ? this.answerButtons(st, pv, w) : host ? `<div class="row" style="margin-top:10px">${w.paused
      ? `<button class="btn good grow" data-action="host-window" data-type="resume" id="resume">${esc(t("▶ Resume countdown"))}</button>`
      : `<button class="btn grow" data-action="host-window" data-type="pause" id="pause">${esc(t("❚❚ Pause countdown"))}</button>`}</div>` : "";
    return `<section class="card bg-window ${mine ? "mine" : ""}" id="window" data-kind="${esc(w.kind)}" aria-live="assertive">
      <h2 id="window-text">${esc(this.sentence(w, seat))}</h2>${count}${store}${buttons}</section>`;
  },

  /** Choose exactly ``count`` of your cards (discard down to your life, Sid Ketchum's two). */
  chooseCards(m) {
    const key = "move:" + m.move, sel = S.sel[key] || [];
    const chips = m.cards.map((c, i) => `<button class="chip text" data-action="pick-card" data-key="${esc(key)}" data-index="${i}" aria-pressed="${sel.includes(i)}">${esc(this.label(c))}</button>`).join("");
    const what = m.move === "discard" ? tn("Discard {n} card (down to your life)", "Discard {n} cards (down to your life)", m.count) : t("Sid Ketchum: discard 2 cards to regain 1 life");
    const args = { cards: sel.map((i) => m.cards[i]) };
    return `<div class="bg-choose" id="choose-${esc(m.move)}"><p class="small">${esc(what)}</p><div class="chips">${chips}</div>
      <button class="btn primary wide" data-action="move" data-move="${esc(m.move)}" data-args="${esc(JSON.stringify(args))}" ${sel.length === m.count ? "" : "disabled"}>${esc(m.move === "discard" ? t("Discard") : t("Regain 1 life"))} (${sel.length}/${m.count})</button></div>`;
  },

  btn(move, args, text, cls = "") {
    return `<button class="btn bg-move ${cls}" data-action="move" data-move="${esc(move)}" data-args="${esc(JSON.stringify(args))}">${esc(text)}</button>`;
  },

  answerButtons(st, pv, w) {
    const out = [];
    for (const m of legalMoves(pv)) {
      if (m.move === "respond") {
        const cards = m.cards.slice(0, m.count);
        const what = t(w.kind === "dying" ? "Beer" : w.kind === "shot" ? "Missed!" : "BANG!");
        out.push(this.btn("respond", { cards }, m.count > 1 ? `${m.count} × ${what}` : what, "primary"));
      } else if (m.move === "pass") {
        out.push(this.btn("pass", {}, w.kind === "dying" ? t("Give up") : t("Take it"), "ghost"));
      } else if (m.move === "pick") {
        m.cards.forEach((c) => out.push(this.btn("pick", { card: c }, t("Take {card}", { card: this.label(c) }))));
      } else if (m.move === "draw_choice") {
        if (m.return) m.return.forEach((c) => out.push(this.btn("draw_choice", { return: c }, t("Put back {card}", { card: this.label(c) }))));
        else (m.from || []).forEach((f) => out.push(this.btn("draw_choice", { from: f },
          f === "deck" ? t("Draw from the deck") : f === "discard" ? t("Take the discard top") : t("First card from {who}", { who: nameOf(f) }))));
      } else if (m.move === "ability") {
        out.push(this.chooseCards(m));
      }
    }
    return out.length ? `<div class="bg-answers">${out.join("")}</div>` : "";
  },

  /** You: role (tap to reveal), character and ability, life, in play, hand. */
  meCard(st, pv, seat) {
    const me = playerBySeat(seat) || {}, role = pv && pv.role;
    const shown = S.sel["bang:role"] || me.role === "sheriff";
    const roleHtml = role ? `<button class="bg-role ${shown ? "shown " + esc(role) : ""}" data-action="bang-role" id="my-role">
      ${shown ? `${role === "sheriff" ? "★ " : ""}${ROLE_NAMES[role] ? esc(t(ROLE_NAMES[role])) : esc(role)}<span class="goal">${esc(ROLE_GOALS()[role] || "")}</span>` : esc(t("Tap to see your role"))}</button>` : "";
    const inPlay = (me.in_play || []).map((c) => this.face(c, { small: true })).join("");
    const hand = (pv && pv.hand) || [], sel = S.sel["bang:card"];
    const looking = pv && pv.looking ? `<p class="small">${esc(t("Top of the deck (only you see these):"))}</p><div class="bg-hand">${pv.looking.map((c) => this.face(c, { small: true })).join("")}</div>` : "";
    return `<section class="card bg-me" id="my-coin"><div class="row">${coinBadge(seat, { dead: me.alive === false })}
      <div class="grow"><div class="bg-name">${esc(me.name ? displayName(me.name) : t("Seat {n}", { n: seat }))} ${this.star(me)}</div>
      <div class="bg-char" id="my-character"><b>${esc(this.charName(me.character))}</b> — ${esc(noRules(this.ability(me.character)))}</div></div>
      <div id="my-life">${this.bullets(me)}</div></div>${roleHtml}
      ${me.alive === false ? `<div class="bg-out">${esc(t("You are out"))}</div>` : ""}
      ${inPlay ? `<div class="bg-inplay" id="my-in-play"><span class="muted small">${esc(t("In play:"))}</span>${inPlay}</div>` : ""}${looking}
      <div id="private"><div class="bg-hand big" id="my-cards">${hand.map((c) => this.face(c, { selected: c === sel, action: "bang-card" })).join("")}</div>
      ${sel && hand.includes(sel) && this.text(sel) ? `<p class="small bg-text" id="card-text"><b>${esc(this.title(sel))}</b>: ${esc(this.text(sel))}</p>` : ""}
      <p class="muted small">${esc(t("Only your phone sees your hand and role. Tap a card to see where it can go."))}</p></div></section>`;
  },

  /** The plays of the tapped card (targets with distance), end turn, discard, Sid's ability. */
  turnCard(st, pv) {
    const legal = legalMoves(pv), sel = S.sel["bang:card"];
    if (st.window || !legal.length) return "";
    const out = [];
    const plays = legal.filter((m) => m.move === "play" && m.card === sel);
    for (const m of plays) {
      const args = { card: m.card };
      for (const k of ["target", "target_card", "as"]) if (m[k] !== undefined) args[k] = m[k];
      let text = m.as ? t("Play as {card}", { card: t(m.as === "bang" ? "BANG!" : "Beer") }) : t("Play");
      if (m.target !== undefined) text += " → " + t("{who} (distance {d})", { who: nameOf(m.target), d: m.distance });
      if (m.target_card) text += m.target_card === "hand" ? t(" · a hand card") : ` · ${this.label(m.target_card)}`;
      out.push(this.btn("play", args, text, "primary"));
    }
    if (sel && !plays.length && (pv.hand || []).includes(sel) && legal.some((m) => m.move === "play" || m.move === "end_turn"))
      out.push(`<p class="muted small" id="no-play">${esc(t("{card} cannot be played now.", { card: this.title(sel) }))}</p>`);
    for (const m of legal) {
      if (m.move === "discard" || m.move === "ability") out.push(this.chooseCards(m));
      if (m.move === "end_turn") out.push(this.btn("end_turn", {}, t("End turn"), "ghost"));
    }
    return out.length ? `<section class="card" id="moves"><h2>${sel ? esc(this.label(sel)) : esc(t("Your move"))}</h2><div class="moves bg-moves">${out.join("")}</div></section>` : "";
  },

  /** The seats in ring order, as a circle: life, hand count, cards in play; the tapped card's
   * legal targets light up with their distance. */
  ring(st, pv, meSeat = null) {
    const ring = st.ring || players().map((p) => p.seat), n = ring.length;
    const targets = {};
    const sel = S.sel["bang:card"];
    for (const m of legalMoves(pv)) if (m.move === "play" && m.card === sel && m.target !== undefined) targets[m.target] = m.distance;
    const answering = (st.window && st.window.seats) || [];
    const seats = ring.map((seat, i) => {
      const p = playerBySeat(seat) || { seat }, a = (2 * Math.PI * i) / n - Math.PI / 2;
      const x = 50 + 40 * Math.cos(a), y = 50 + 40 * Math.sin(a);
      const turn = st.turn && st.turn.seat === seat && st.phase === "playing";
      const lit = targets[seat] !== undefined;
      return `<div class="bg-seat ${turn ? "turn" : ""} ${p.alive === false ? "out" : ""} ${lit ? "target" : ""} ${answering.includes(seat) ? "answering" : ""}"
        style="left:${x}%;top:${y}%" data-seat="${seat}" id="ring-${seat}">
        <div class="who">${this.star(p)}${esc(p.name ? displayName(p.name) : nameOf(seat))}${seat === meSeat ? esc(t(" (you)")) : ""}</div>
        <div class="small" data-action="card-info" data-card-title="${esc(this.charEnglish(p.character))}" data-card-text="${esc(((this.desc().characters || {})[p.character] || {}).ability || "")}">${esc(this.charName(p.character))}</div>${this.bullets(p)}
        <div class="small">🂠 ${esc(p.hand_count ?? 0)}${p.role && p.role !== "sheriff" ? ` · ${esc(this.role(p.role))}` : ""}</div>
        <div class="bg-inplay">${(p.in_play || []).map((c) => this.face(c, { small: true })).join("")}</div>
        ${lit ? `<div class="bg-dist">${esc(t("distance {d}", { d: targets[seat] }))}</div>` : ""}</div>`;
    }).join("");
    const top = st.discard_top ? this.face(st.discard_top, { small: true }) : `<span class="muted small">${esc(t("empty"))}</span>`;
    return `<section class="card bg-table" id="players"><div class="bg-ring">${seats}
      <div class="bg-centre" id="deck"><div>${esc(t("Deck"))} <b id="deck-size">${esc(st.deck_count)}</b></div><div class="small">${esc(t("Discard"))}</div>${top}</div></div></section>`;
  },

  logCard(st) {
    const all = (st.log || []).map((l, i) => (st.log_says && st.log_says[i] ? say(st.log_says[i]) : l)), lines = all.slice(-8);
    return lines.length ? `<section class="card" id="bang-log"><h2>${esc(t("Log"))}</h2><ol class="bg-log">${lines.map((l) => `<li>${esc(noRules(l))}</li>`).join("")}</ol></section>` : "";
  },

  banner(st, seat) {
    const turn = st.turn;
    if (!turn || st.phase !== "playing") return turnBanner(true);
    const mine = turn.seat === seat;
    const step = turn.step === "discard" ? t(" — discard down to your life") : "";
    return `<section class="banner bg-banner ${mine ? "mine" : ""}" id="turn-banner" aria-live="polite"><div class="row">${coinBadge(turn.seat)}
      <div class="grow"><div class="big">${esc(mine ? t("YOUR TURN") : t("{who}'s turn", { who: nameOf(turn.seat) }))}${esc(mine ? step : "")}</div></div></div>${st.window ? "" : lastLine()}</section>`;
  },

  seatView(st, pv, seat) {
    return this.banner(st, seat) + this.windowCard(st, pv, seat) + this.meCard(st, pv, seat) + this.turnCard(st, pv || {})
      + this.ring(st, pv, seat) + this.logCard(st);
  },

  tableView(st, host = false) {
    return this.banner(st, null) + this.windowCard(st, null, null, host) + this.ring(st, null);  // the panel adds its log
  },

  tick() {
    const now = Date.now() / 1000 + (S.skew || 0);
    for (const el of document.querySelectorAll("[data-bar-deadline]")) {
      el.style.width = `${Math.max(0, Math.min(100, (100 * (+el.dataset.barDeadline - now)) / (+el.dataset.total || 15)))}%`;
    }
  },
};

GameViews.register("bang", {
  /** The guided first game (web_panel/static/learn.js): your role and character, a turn of drawing,
   * playing and ending, and what the others' cards do to you (BG-2, BG-3). */
  tutorial: (mode, kit) => [
    { id: "role", text: N_("Your role: the Sheriff's is open to all, the others are secret."), target: "#my-role", route: "seat", next: true,
      why: N_("Tap it to see whom you must beat: the Sheriff and Deputies against the Outlaws and the Renegade.") },
    { id: "character", text: N_("Your character: your life points and an ability of your own."), target: "#my-character", route: "seat", next: true,
      why: N_("Lose all your life and you are out. Beer gives one back.") },
    kit.waitTurn(),
    { id: "play", text: N_("Your turn: tap a card of your hand to play it, or end the turn."), target: ["#my-cards", "#moves"], route: "seat",
      why: N_("You drew two cards. Only one BANG! a turn; blue cards stay in front of you."), done: (c) => c.actedAny() || !c.mine },
    { id: "end-turn", text: N_("End your turn when you are done."), target: ['[data-move="end_turn"]', "#moves"], route: "seat",
      why: N_("At the end you keep no more cards than your life: the phone asks which to discard."), done: (c) => !c.mine },
    kit.finish(N_("When a bot shoots you, your phone asks you to answer with Missed! or to lose a life.")),
  ],
  /** How to play (the /rules pages, web_panel/static/rules.js): mode -> {pic, lines}, each line a
   * t() msgid; a drawing where it helps (inline SVG). Written for players: no rule numbers. */
  rules: () => {
    const P = (...lines) => lines;
    const pic = {
      bang: `<svg viewBox="0 0 220 200" class="rules-pic" role="img" aria-label="${esc(t("The ring of seats: the distance is the fewest seats between you, either way round"))}">
      <circle cx="110" cy="100" r="70" fill="none" stroke="#888" stroke-dasharray="4 4"/>
      ${[0, 1, 2, 3, 4].map((i) => { const a = (2 * Math.PI * i) / 5 - Math.PI / 2; return `<circle cx="${110 + 70 * Math.cos(a)}" cy="${100 + 70 * Math.sin(a)}" r="15" fill="${i ? "#555" : "#b26a00"}"/><text x="${110 + 70 * Math.cos(a)}" y="${106 + 70 * Math.sin(a)}" font-size="15" text-anchor="middle" fill="#fff">${i === 0 ? "★" : Math.min(i, 5 - i)}</text>`; }).join("")}</svg>`,
    };
    return {
        classic: { pic: pic.bang, lines: P(
          t("Roles are secret except the Sheriff's: the Sheriff and Deputies against the Outlaws, and a Renegade who wants to be the last one standing. Tap your role on the phone to see it."),
          t("On your turn draw 2 cards, play as many as you like (only one BANG! a turn), then keep no more cards than your life."),
          t("BANG! shoots a player within your weapon's range: the distance is the fewest seats between you, either way round. The target answers with Missed! or loses a life."),
          t("Blue cards stay in front of you (weapons, Barrel, Mustang, Scope, Jail, Dynamite). Your character has an ability; tap any card for what it does.")) },
    };
  },
  playedOnPhones: true,  // a seat no phone holds stops the game: the panel says so (docs/phones.md)
  css: true,
  seatView: (st, pv, seat) => Bang.seatView(st, pv, seat),
  tableView: (st) => Bang.tableView(st),
  hostView: (st) => Bang.tableView(st, true),
  cardLabel: (card) => (/^[a-z_]+-(10|[2-9AJQK])[SHDC]/.test(String(card)) ? Bang.label(card) : null),
  tick: () => Bang.tick(),
  actions: {
    "bang-card": (el) => { const c = el.dataset.card; S.sel["bang:card"] = S.sel["bang:card"] === c ? null : c; S.focus = "#moves"; render(); },
    "bang-role": () => { S.sel["bang:role"] = !S.sel["bang:role"]; render(); },
  },
});
})();
