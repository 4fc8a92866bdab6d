/* Coin War (币战) on the phones (docs/rules/coinwar.md): the turn with its strikes (CW-3), your coin, the
 * questions only a player can answer (CW-8) with coin chips, coins to put back (CW-4.3), ending a
 * turn (CW-5.4), and the virtual table's top-down drawing where the active player flicks a coin
 * like a slingshot. Loaded by the panel from /games/coinwar/view.js (this game's own package) and
 * registered with GameViews; it uses the panel's helpers (esc, nameOf, coinBadge, post, …, see
 * web_panel/PANEL.md) at call time only. */
"use strict";

(function () {
  const TABLE_W = 425, TABLE_H = 625, GOAL_W = 60, GOAL_H = 160, COIN_R = 15;
  const MM_PER_S_PER_MM = 8, MAX_FLICK = 3000, DRAWN = 1.3;
  // Football (CW-7.3): team coins in their team's colour, a white ball, mouths in the short rails
  // (team A defends mouth A at the top rail, y = 0; B the bottom one).
  const TEAM_COLOURS = { A: "#c62828", B: "#1565c0" }, TEAM_COLOUR_NAMES = { A: N_("red"), B: N_("blue") }, MOUTH_W = 100;
  // ... and by a shape and a pattern as well, never by colour alone (docs/phones.md): A wears
  // stripes and a triangle, B a ring and a square, on the drawing, the chips and the badges.
  const TEAM_SHAPES = { A: "▲", B: "■" }, TEAM_PATTERN_NAMES = { A: N_("stripes ▲"), B: N_("ring ■") };
  /** A team's badge: its colour, pattern and shape (in place of a seat's colour in Football). */
  /** A seat's badge: its team's in Football, else its own coin colour and shape. */
  function seatBadge(seat, opts = {}) {
    const p = playerBySeat(seat);
    return football() && p && TEAM_COLOURS[p.team] ? teamBadge(p.team, { ...opts, label: seat }) : coinBadge(seat, opts);
  }
  function teamBadge(team, { big = false, dead = false, label = team } = {}) {
    const name = t("team {team}: {colour}, {pattern}", { team, colour: t(TEAM_COLOUR_NAMES[team]), pattern: t(TEAM_PATTERN_NAMES[team]) });
    return `<span class="coin team-${team} ${big ? "big" : ""} ${dead ? "dead" : ""}" role="img" aria-label="${esc(name)}">${esc(label)}<span class="shape" aria-hidden="true">${TEAM_SHAPES[team]}</span></span>`;
  }
  const football = () => !!(S.state && S.state.mode === "football");
  // The seat LEDs on the rail in front of each seat (as on the real table), lit as the daemon's LED
  // plan says (gametable/T/leds, gametable_core/led_patterns.py): solid, dim, blink, pulse, chase, off.
  const SEAT_LEDS = { 1: [212.5, 5, 1], 2: [420, 160, 0], 3: [420, 465, 0], 4: [212.5, 620, 1], 5: [5, 465, 0], 6: [5, 160, 0] };
  function ledLevel(pattern, t, seat) {
    if (pattern === "solid") return 1;
    if (pattern === "dim") return 0.18;
    if (pattern === "blink") return Math.floor(t / 0.125) % 2 ? 1 : 0.1;
    if (pattern === "pulse") return 0.25 + 0.75 * (0.5 - 0.5 * Math.cos((2 * Math.PI * t) / 1.2));
    if (pattern === "chase") return Math.floor(t / 0.15) % 7 === seat - 1 ? 1 : 0.3;
    if (pattern === "fault") return Math.floor(t / 0.5) % 2 ? 1 : 0;
    return 0;
  }
  function teamOfCoin(coin) { const m = /^([AB])\d$/.exec(coin || ""); return m ? m[1] : null; }
  /** A coin as players see it: "Ann's coin (red ●, 1)", "team A coin 2 (red)", "the ball". */
  function coinName(coin) {
    if (coin === "ball") return t("the ball");
    const team = teamOfCoin(coin);
    if (team) return t("team {team}'s coin {n} ({colour}, {pattern})", { team, n: coin.slice(1), colour: t(TEAM_COLOUR_NAMES[team]), pattern: t(TEAM_PATTERN_NAMES[team]) });
    const owner = coinOwner(coin);
    if (!owner) return coin;
    const look = { colour: COLOUR_NAMES()[owner - 1], shape: SHAPE_NAMES()[owner - 1], n: owner };
    return coin === "c" + S.me.seat ? t("your coin ({colour} {shape} {n})", look) : t("{who}'s coin ({colour} {shape} {n})", { who: nameOf(owner), ...look });
  }

  function coinOwner(coin) { const p = players().find((p) => p.coin === coin); if (p) return p.seat; const m = /^c(\d)$/.exec(coin || ""); return m ? +m[1] : null; }
  function coinChipLabel(coin) {
    const team = teamOfCoin(coin);
    if (team) return `${teamBadge(team, { label: coin.slice(1) })}<span>${esc(coinName(coin))}</span>`;
    if (coin === "ball") return `<span class="coin team-ball">⚽</span><span>${esc(coinName(coin))}</span>`;
    const owner = coinOwner(coin);
    return owner ? `${coinBadge(owner)}<span>${esc(nameOf(owner))}</span>` : `${coinBadge(null, { label: coin })}<span>${esc(coin)}</span>`;
  }
  /** A question in the phone's language, each coin named as players see it ("Which coins did your
   * coin (red circle 1) touch?"), escaped. The referee sends it as a message (``says``, like a log
   * line: docs/i18n.md), so a new question is in the catalogue or fails its test, never silently English. */
  function questionText(text, q) {
    const asked = q && q.says ? say(q.says) : String(text || "");
    return esc(asked).replace(/\b(c[1-6]|[AB][1-3]|ball)\b/g, (coin) => esc(coinName(coin)));
  }
  const QUESTION = { label: coinChipLabel, get hint() { return t("Tap every coin that applies"); }, text: questionText };
  const WITHDRAW_BUTTON = () => `<button class="btn wide" data-action="withdraw" id="withdraw-strike">${esc(t("Withdraw strike (the table saw nothing)"))}</button>`;  // CW-5.6

  /** The turn with its strikes left as pips (CW-3.1); other phases are the panel's own banner. */
  function banner(st, mine) {
    const turn = st.turn;
    const allowed = st.strikes_allowed ?? 0, left = Math.max(0, allowed - (turn.strikes || 0)), hasStrikes = st.strikes_allowed !== undefined;
    const strikesText = hasStrikes ? esc(tn("{n} strike left", "{n} strikes left", left)) : "";
    const pips = allowed ? `<div class="pips" aria-hidden="true">${Array.from({ length: allowed }, (_, i) => `<span class="pip ${i < turn.strikes ? "used" : ""}"></span>`).join("")}</div>` : "";
    if (mine && turn.seat === S.me.seat) {
      return `<section class="banner mine" id="turn-banner" aria-live="polite"><div class="big">${esc(t("YOUR TURN"))}${turn.extra ? esc(t(" (extra)")) : ""}</div>
        <div class="sub" id="strikes-left">${strikesText || esc(t("Make your move"))}</div>${pips}${lastLine()}</section>`;
    }
    return `<section class="banner" id="turn-banner" aria-live="polite"><div class="row">${seatBadge(turn.seat, { big: true })}<div class="grow">
      <div class="big" style="font-size:28px">${esc(t("{who}'s turn", { who: nameOf(turn.seat) }))}</div><div class="sub">${strikesText}${turn.extra ? " · " + esc(t("extra turn")) : ""}</div></div></div>${pips}${lastLine()}</section>`;
  }

  function myCoin(st, seat) {
    const me = playerBySeat(seat), colour = `${COLOUR_NAMES()[seat - 1]} ${SHAPE_NAMES()[seat - 1]}`;
    // Football: the badge is the team's (a seat's own colour would contradict the team's coins)
    const teamPlay = football() && me && TEAM_COLOURS[me.team];
    const badge = teamPlay ? teamBadge(me.team, { big: true, dead: !me.alive }) : coinBadge(seat, { big: true, dead: me && !me.alive });
    const about = [t("Seat {n}", { n: seat }),  // the coin by its look, as the players name it (not its id)
      football() ? "" : colour, me && me.team ? t("team {team}", { team: teamName(me.team) }) : "",
      teamPlay ? t("your team flicks the {colour} coins {first}–{last} ({pattern})", { colour: t(TEAM_COLOUR_NAMES[me.team]), first: me.team + "1", last: me.team + "3", pattern: t(TEAM_PATTERN_NAMES[me.team]) }) : ""];
    return `<section class="card row" id="my-coin">${badge}<div class="grow">
      <div style="font-size:22px;font-weight:900">${esc(me ? displayName(me.name) : t("Seat {n}", { n: seat }))}</div>
      <div class="muted small" id="my-coin-about">${esc(about.filter(Boolean).join(" · "))}</div>
      ${me && threeKingdoms(st) && me.alive ? `<div>${hearts(me)}</div>` : ""}
      ${me && !me.alive ? `<div style="color:var(--bad);font-weight:900">${esc(t("You are out"))}</div>` : ""}</div></section>`;
  }

  function shotAvailable(legal) { return legal.some((m) => m.type === "shot"); }

  /** Put a coin back (CW-4.3), withdraw an unseen strike (CW-5.6; on the question card instead
   * while its shot is asked about), end the turn (CW-5.4), and the hint to flick while strikes are left. */
  function movesCard(pv, st, withdrawAsked = false) {
    const legal = legalMoves(pv);
    const parts = [];
    for (const m of legal) {
      if (m.type === "placed") parts.push(`<button class="btn good wide" data-action="placed" data-coin="${esc(m.coin)}">${esc(t("I put {coin} back on the table", { coin: m.coin === "c" + S.me.seat ? t("my coin") : m.coin }))}</button>`);
      else if (m.type === "withdraw" && !withdrawAsked) parts.push(WITHDRAW_BUTTON());  // CW-5.6
      else if (m.type === "end_turn") parts.push(`<button class="btn ${shotAvailable(legal) ? "" : "primary"} wide" data-action="end_turn" data-confirm="${m.confirm ? 1 : 0}" id="end-turn">${esc(t("End my turn"))}</button>`);
      else if (m.move && !threeKingdoms(st)) parts.push(...cardMoveButtons(m));
    }
    const shot = legal.find((m) => m.type === "shot");
    const which = shot && shot.coins.length > 1 ? t("one of {coins}", { coins: shot.coins.map(coinName) }) : t("your coin");
    const hint = shot ? `<p class="flick-hint" id="flick-hint">🎯 ${esc(t("Flick {which} now", { which }))}${S.table ? ` — <a href="/table" class="tap">${esc(t("or drag it on the table view"))}</a>` : ""}.</p>` : "";
    if (!parts.length && !hint) {
      const pend = (st.pending_placements || []).filter((p) => p.by !== S.me.seat);
      if (pend.length) return `<section class="card"><p>${esc(pend.length > 1 ? t("Waiting for {who} to put coins back.", { who: pend.map((p) => nameOf(p.by)) }) : t("Waiting for {who} to put a coin back.", { who: pend.map((p) => nameOf(p.by)) }))}</p></section>`;
      return "";
    }
    return `<section class="card" id="moves"><h2>${esc(t("Your moves"))}</h2>${hint}<div class="moves">${parts.join("")}</div></section>`;
  }

  function pendingCard(st) {
    const pend = st.pending_placements || [];
    if (!pend.length) return "";
    return `<section class="card" id="pending"><h2>${esc(t("Coins to put back"))}</h2>${pend.map((p) =>
      `<p>${coinBadge(coinOwner(p.coin))} ${esc(t("{who} puts {coin} back ({where})", { who: nameOf(p.by), coin: p.coin, where: p.where === "initial" ? t("where it started") : t("anywhere outside the goal") }))}</p>`).join("")}</section>`;
  }

  /* ---------- Three Kingdoms (CW-7.5): cards as cards, health as hearts, the Lord's crown ---------- */
  const TK_KINDS = () => ({ elixir: { name: N_("Elixir"), what: t("Heals 1 when you would lose health (and may keep you hidden)."), icon: "🍑" },
    burning_camps: { name: N_("Burning Camps"), what: t("Sets another player's camp on fire: they lose health unless the fire goes out."), icon: "🔥" },
    combo: { name: N_("Combo"), what: t("One more strike this turn."), icon: "⚡" } });
  const IDENTITY = { lord: N_("Lord"), loyalist: N_("Loyalist"), rebel: N_("Rebel"), traitor: N_("Traitor") };
  const identityName = (id) => (IDENTITY[id] ? t(IDENTITY[id]) : String(id || ""));
  const CROWN = `<svg class="crown" viewBox="0 0 24 18" aria-hidden="true"><path d="M2 16h20l1-11-6 5-5-8-5 8-6-5z" fill="#f5b400" stroke="#111" stroke-width="1.5" stroke-linejoin="round"/></svg>`;
  const threeKingdoms = (st) => !!(st && st.mode === "three_kingdoms");
  function hearts(p) {
    const max = p.max_health || 0, h = Math.max(0, p.health || 0);
    return `<span class="hearts" aria-label="${esc(t("{health} of {max} health", { health: h, max }))}">${"<b>♥</b>".repeat(Math.min(h, max))}${"<i>♡</i>".repeat(Math.max(0, max - h))}</span>`;
  }
  function tkCard(card, { pick = null, picked = false } = {}) {
    const k = TK_KINDS()[card.kind] || { name: card.kind, what: "", icon: "🂠" };
    const attrs = pick ? `data-action="tk-pick" data-key="${esc(pick)}" data-id="${esc(card.id)}" aria-pressed="${picked}"`
      : `data-action="card-info" data-card-title="${esc(k.name)}" data-card-text="${esc(k.what)}"`;  // its text on a tap
    return `<${pick ? "button" : "div"} class="tk-card tk-${esc(card.kind)}" ${attrs} title="${esc(k.what)}">
      <span class="pts">${esc(card.points)}</span><span class="icon" aria-hidden="true">${k.icon}</span><span class="nm">${esc(t(k.name))}</span></${pick ? "button" : "div"}>`;
  }
  function identityCard(identity) {
    if (!identity) return "";
    return `<div class="tk-identity tk-${esc(identity)}">${identity === "lord" ? CROWN : ""}<span>${esc(t("You are the"))} <b>${esc(identityName(identity))}</b></span></div>`;
  }
  /** The hand and the moves of Three Kingdoms (the seat's legal ``move`` entries). */
  function tkHandCard(st, pv, seat) {
    if (!pv || !Array.isArray(pv.hand)) return "";
    const hand = pv.hand, byId = Object.fromEntries(hand.map((c) => [c.id, c]));
    const legal = legalMoves(pv).filter((m) => m.move);
    const btn = (text, move, args, cls = "") => `<button class="btn wide ${cls}" data-action="move" data-move="${esc(move)}" data-args="${esc(JSON.stringify(args))}">${text}</button>`;
    const parts = [];
    for (const m of legal) {
      const cardOf = (id) => byId[id] || { kind: "?", points: "?", id };
      if (m.move === "combo") parts.push(btn("⚡ " + esc(t("Play a Combo: one more strike ({n} in hand)", { n: m.cards.length })), "combo", { card: m.cards[0] }));
      else if (m.move === "burning_camps") {
        for (const id of m.cards) for (const to of m.targets) parts.push(btn("🔥 " + esc(t("Burning Camps ({points}) on {who}", { points: cardOf(id).points, who: nameOf(to) })), "burning_camps", { card: id, target: to }));
      } else if (m.move === "elixir") {
        parts.push(btn("🍑 " + esc(t("Drink Elixir ({points}): heal 1", { points: cardOf(m.card).points })), "elixir", { card: m.card }, "good"));
        if (m.hide_allowed) parts.push(btn("🍑 " + esc(t("Elixir and stay hidden")), "elixir", { card: m.card, hide: true }));
      } else if (m.move === "take_damage") parts.push(btn(esc(t("Take the damage")), "take_damage", {}, "danger"));
      else if (m.move === "discard") {
        const key = "move:discard", sel = (S.sel[key] || []).map(String);
        parts.push(`<p class="small"><b>${esc(t("Too many cards:"))}</b> ${esc(t("tap {n} to discard.", { n: m.count }))}</p><div class="tk-hand">${hand.map((c) => tkCard(c, { pick: key, picked: sel.includes(String(c.id)) })).join("")}</div>
          <button class="btn primary wide" data-action="move" data-move="discard" data-args="${esc(JSON.stringify({ cards: sel }))}" ${sel.length === m.count ? "" : "disabled"}>${esc(t("Discard"))} (${sel.length}/${m.count})</button>`);
      }
    }
    const reaction = st.reaction && st.reaction.seat === seat
      ? `<p class="tk-ask"><b>${esc(st.reaction.cause === "burning_camps" ? t("You are about to lose 1 health to the fire.") : t("You are about to lose 1 health."))}</b> ${esc(t("Drink an Elixir?"))}</p>` : "";
    const discarding = legal.some((m) => m.move === "discard");
    return `<section class="card" id="tk-hand">${identityCard(pv.identity)}
      ${discarding ? "" : `<h2>${esc(t("Your hand ({n})", { n: hand.length }))}</h2><div class="tk-hand">${hand.map((c) => tkCard(c)).join("") || `<p class='muted'>${esc(t("No cards."))}</p>`}</div>`}
      ${reaction}${parts.length ? `<div class="moves">${parts.join("")}</div>` : ""}</section>`;
  }
  function tkPlayersCard(st) {
    const items = players().map((p) => {
      const turn = st.turn && st.turn.seat === p.seat, lord = p.identity === "lord";
      const id = p.identity ? `<span class="tag">${lord ? CROWN : ""}${esc(identityName(p.identity))}</span>` : "";
      return `<li class="${turn ? "active" : ""}">${coinBadge(p.seat, { dead: !p.alive })}<span class="name">${esc(displayName(p.name))}</span>
        ${p.alive ? hearts(p) : `<span class="tag out">${esc(t("out"))}</span>`}<span class="tag" title="${esc(t("cards in hand"))}">🂠 ${esc(p.cards ?? 0)}</span>${p.burning_camps ? `<span class="tag" title="${esc(t("Burning Camps"))}">🔥</span>` : ""}${id}</li>`;
    }).join("");
    return `<section class="card" id="players"><ul class="players tk-players">${items}</ul><p class="muted small">${esc(t("Deck {deck} · discard pile {discard}", { deck: st.deck ?? "?", discard: st.discard_pile ?? 0 }))}</p></section>`;
  }

  /** The guided first game (web_panel/static/learn.js): you, your turn, a flick on the table view,
   * what the referee does, ending the turn, and the mode's goal (CW-3, CW-5, CW-7). */
  const GOALS = {
    ffa: N_("A coin inside the goal is out. The last coin on the table wins."),
    teams: N_("Knock the other team's coins into the goal and keep your team's out: the team with a coin left wins."),
    infinite: N_("Nobody is out: every coin in the goal scores a point for the other team. The first team to the target wins."),
    biohazard: N_("Mothers and zombies against humans: a human who dies may come back as a zombie. Read your side on your card."),
    football: N_("Flick your team's coins to push the white ball through the other team's goal mouth."),
    three_kingdoms: N_("Your identity is secret: play your cards (Elixir, Burning Camps, Combo) to help your side."),
  };
  function tutorial(mode, kit) {
    const steps = [
      { id: "coin", text: N_("This is you: your seat, and the coin you flick."), target: "#my-coin", route: "seat", next: true,
        why: football() ? N_("Your team flicks the coins of its colour; the white coin is the ball.") : N_("Your coin's colour and shape are how the table and the other players tell it apart.") },
      ...(mode === "three_kingdoms" ? [{ id: "hand", text: N_("Your identity and your cards: only your phone shows them."), target: "#tk-hand", route: "seat", next: true,
        why: N_("Tap a card to read what it does. Its button appears here when you may play it.") }] : []),
      kit.waitTurn({ done: (c) => c.mine && c.has("shot") }),
      { id: "flick", text: N_("Drag your coin back and let go, like a slingshot, to flick it."), target: "#board", route: "table",
        why: N_("On the real table you flick it with your striker. Aim at the other coins: knock them into the goal in the middle."),
        done: (c) => c.acted("flick") || !c.mine },
      { id: "referee", text: N_("The table referees by itself: it saw your strike and where the coins stopped."), target: "#turn-banner", next: true,
        why: N_("When it cannot be sure (did a coin fly?), every phone asks. Answer what you saw: the others see the answer.") },
      { id: "end-turn", text: N_("Flick again while strikes are left, or end your turn."), target: ["#end-turn", "#flick-hint"], route: "seat",
        why: N_("The pips in the banner are the strikes left. Touching another coin ends the turn by itself."), done: (c) => !c.mine },
      kit.finish(GOALS[mode] || GOALS.ffa),
    ];
    return steps;
  }

  function seatView(st, pv, seat) {
    let html = turnBanner(true) + myCoin(st, seat);
    const tk = threeKingdoms(st);
    // CW-5.6: a shot no beam saw is withdrawn from its question, where the player is looking
    const asked = (st.questions || []).length > 0 && legalMoves(pv).some((m) => m.type === "withdraw");
    const how = asked ? { label: QUESTION.label, hint: QUESTION.hint, text: QUESTION.text, extra: WITHDRAW_BUTTON() } : QUESTION;
    if (st.phase === "playing") html += answerCard(st) + questionCard(st, seat, false, how) + (tk ? tkHandCard(st, pv, seat) : privateCard(pv, st)) + movesCard(pv, st, asked);
    else if (!playerBySeat(seat)) html += heldSeatCard(seat);
    return html;
  }

  /** The table view's banner: one line, so the whole board fits under it on a 360 x 640 phone. */
  function slimBanner(st) {
    const turn = st.turn;
    if (st.phase !== "playing" || !turn) return turnBanner(true);
    const left = Math.max(0, (st.strikes_allowed ?? 0) - (turn.strikes || 0));
    const strikes = st.strikes_allowed !== undefined ? " · " + esc(tn("{n} strike left", "{n} strikes left", left)) : "";
    const mine = turn.seat === S.me.seat;
    return `<section class="banner slim ${mine ? "mine" : ""}" id="turn-banner" aria-live="polite">${seatBadge(turn.seat)}
      <span class="grow"><b>${esc(mine ? t("YOUR TURN") : t("{who}'s turn", { who: nameOf(turn.seat) }))}</b>${turn.extra ? esc(t(" (extra)")) : ""}${strikes}</span></section>`;
  }

  function tableView(st) {
    const q = (st.questions || [])[0];
    return slimBanner(st) + `<div id="board-slot"${S.table ? "" : " hidden"}></div>` + answerCard(st)
      + (q ? questionCard(st, S.me.seat, false, QUESTION) : "")  // answer where you are: the table view too
      + pendingCard(st) + (threeKingdoms(st) ? tkPlayersCard(st) : playersCard(st));
  }

  /* ---------- the table drawing (virtual table) ---------- */
  const Board = {
    canvas: null, ctx: null, target: {}, shown: {}, moving: false, drag: null, raf: 0,
    update(d) {
      this.target = (d && d.coins) || {}; this.moving = !!(d && d.moving);
      for (const k of Object.keys(this.shown)) if (!(k in this.target)) delete this.shown[k];
      for (const [k, v] of Object.entries(this.target)) if (!this.shown[k]) this.shown[k] = v.slice();
      this.kick();
    },
    mount(slot) {
      if (!slot) return;
      if (!this.canvas) {
        const c = document.createElement("canvas"); c.className = "board"; c.id = "board";
        c.setAttribute("role", "img"); c.setAttribute("aria-label", "Top-down view of the table with the coins");
        c.addEventListener("pointerdown", (e) => this.down(e)); c.addEventListener("pointermove", (e) => this.move(e));
        c.addEventListener("pointerup", (e) => this.up(e)); c.addEventListener("pointercancel", () => { this.drag = null; this.kick(); });
        // the page scrolls over the board, except for a touch that starts on a coin you may flick
        c.addEventListener("touchstart", (e) => { const t = e.touches[0]; if (t && this.hit(t)) e.preventDefault(); }, { passive: false });
        this.canvas = c; this.ctx = c.getContext("2d");
        this.wrap = document.createElement("div"); this.wrap.className = "board-wrap"; this.wrap.appendChild(c);
        this.hint = document.createElement("p"); this.hint.className = "board-hint"; this.wrap.appendChild(this.hint);
      }
      slot.appendChild(this.wrap); this.resize(); this.kick();
    },
    /** A font size in table mm: ``mm``, or more where the board is drawn so small that text would
     * be under 12 px on the screen. */
    mmFor(mm) { const css = (this.canvas && this.canvas.clientWidth) || 360; return Math.max(mm, 12 * TABLE_W / css); },
    resize() {
      const w = this.canvas.clientWidth || 360, dpr = window.devicePixelRatio || 1;
      this.scale = (w * dpr) / TABLE_W; this.canvas.width = Math.round(w * dpr); this.canvas.height = Math.round((w * TABLE_H / TABLE_W) * dpr);
    },
    flickable() {
      if (S.table && S.table.source === "camera") return [];  // a real table: the coins as its camera sees them; flick with the pen
      const shot = legalMoves(S.priv).find((m) => m.type === "shot");
      return shot && S.state && S.state.turn && S.state.turn.seat === S.me.seat ? shot.coins : [];
    },
    mm(e) { const r = this.canvas.getBoundingClientRect(); return [(e.clientX - r.left) * TABLE_W / r.width, (e.clientY - r.top) * TABLE_H / r.height]; },
    /** The flickable coin under a pointer or touch, if any. */
    hit(e) {
      const p = this.mm(e);
      return this.flickable().find((c) => { const pos = this.shown[c]; return pos && Math.hypot(pos[0] - p[0], pos[1] - p[1]) < COIN_R * 2.2; }) || null;
    },
    down(e) {
      const c = this.hit(e);
      if (c) { this.drag = { coin: c, at: this.mm(e) }; this.canvas.setPointerCapture(e.pointerId); this.kick(); }
    },
    move(e) { if (this.drag) { this.drag.at = this.mm(e); this.kick(); } },
    velocity() {
      const pos = this.shown[this.drag.coin]; let vx = (pos[0] - this.drag.at[0]) * MM_PER_S_PER_MM, vy = (pos[1] - this.drag.at[1]) * MM_PER_S_PER_MM;
      const sp = Math.hypot(vx, vy); if (sp > MAX_FLICK) { vx *= MAX_FLICK / sp; vy *= MAX_FLICK / sp; }
      return [vx, vy, Math.min(sp, MAX_FLICK)];
    },
    async up() {
      if (!this.drag) return;
      const [vx, vy, sp] = this.velocity(), coin = this.drag.coin; this.drag = null; this.kick();
      if (sp < 60) return;
      toast(`Flicking at ${(sp / 1000).toFixed(1)} m/s…`, true);
      // the panel answers once the table has played the flick (or refused it): its real outcome
      const d = await post("/api/flick", { coin, vx: Math.round(vx), vy: Math.round(vy) });
      if (d.ok) toast(t("Flick played"), true);
    },
    kick() { if (!this.raf && this.canvas) this.raf = requestAnimationFrame((t) => this.frame(t)); },
    /** The seat LEDs as glowing bars on the rail; animated patterns keep the drawing running. */
    drawLeds(c) {
      const plan = (S.leds && S.leds.seats) || {}, t = performance.now() / 1000;
      this.ledsOn = {};
      let animated = false;
      for (const [seat, [x, y, across]] of Object.entries(SEAT_LEDS)) {
        const pattern = plan[seat];
        if (!pattern) continue;
        const level = ledLevel(pattern, t, +seat), w = across ? 56 : 10, h = across ? 10 : 56;
        animated = animated || ["blink", "pulse", "chase", "fault"].includes(pattern);
        this.ledsOn[seat] = level;
        c.save();
        c.globalAlpha = 0.25 + 0.75 * level; c.shadowColor = COLOURS[seat - 1]; c.shadowBlur = 14 * level;
        c.fillStyle = pattern === "off" ? "#1b1b1b" : COLOURS[seat - 1];
        c.beginPath(); c.roundRect(x - w / 2, y - h / 2, w, h, 5); c.fill();
        c.restore();
      }
      if (animated) setTimeout(() => this.kick(), 80);
    },
    frame() {
      this.raf = 0;
      if (!this.canvas || !this.canvas.isConnected) return;
      if (Math.abs(this.canvas.width - (this.canvas.clientWidth * (window.devicePixelRatio || 1))) > 2) this.resize();
      let again = !!this.drag;
      for (const [k, t] of Object.entries(this.target)) {
        const s = this.shown[k]; const dx = t[0] - s[0], dy = t[1] - s[1];
        if (Math.abs(dx) + Math.abs(dy) > 0.3) { s[0] += dx * 0.35; s[1] += dy * 0.35; again = true; } else { s[0] = t[0]; s[1] = t[1]; }
      }
      this.draw();
      const can = this.flickable();
      this.hint.textContent = !S.table ? t("The live drawing appears when the virtual table runs.") : can.length ? t("Your turn: drag back from your coin like a slingshot and let go.") : this.moving ? t("Coins moving…") : "";
      if (again) this.kick();
    },
    /** Football: team A's coins striped, team B's ringed (docs/phones.md: not by colour alone). */
    teamPattern(c, team, pos, r) {
      c.save(); c.beginPath(); c.arc(pos[0], pos[1], r, 0, Math.PI * 2); c.clip();
      c.strokeStyle = "rgba(255,255,255,.55)";
      if (team === "A") {
        c.lineWidth = 4;
        for (let d = -2 * r; d <= 2 * r; d += 10) { c.beginPath(); c.moveTo(pos[0] + d - r, pos[1] + r); c.lineTo(pos[0] + d + r, pos[1] - r); c.stroke(); }
      } else {
        c.lineWidth = 4; c.beginPath(); c.arc(pos[0], pos[1], r * 0.72, 0, Math.PI * 2); c.stroke();
      }
      c.restore();
    },
    draw() {
      const c = this.ctx, k = this.scale; c.setTransform(k, 0, 0, k, 0, 0);
      c.fillStyle = "#2f6b3d"; c.fillRect(0, 0, TABLE_W, TABLE_H);
      c.strokeStyle = "rgba(255,255,255,.12)"; c.lineWidth = 1;
      for (let x = 25; x < TABLE_W; x += 50) { c.beginPath(); c.moveTo(x, 0); c.lineTo(x, TABLE_H); c.stroke(); }
      for (let y = 25; y < TABLE_H; y += 50) { c.beginPath(); c.moveTo(0, y); c.lineTo(TABLE_W, y); c.stroke(); }
      this.drawLeds(c);
      if (football()) {
        const mx = (TABLE_W - MOUTH_W) / 2;
        const fs = this.mmFor(11);  // the mouth's label: 12 px at least as drawn (docs/phones.md "Sizes")
        for (const [team, y] of [["A", 0], ["B", TABLE_H - 12]]) {
          c.fillStyle = TEAM_COLOURS[team]; c.fillRect(mx, y, MOUTH_W, 12);
          c.fillStyle = "#fff"; c.font = `900 ${fs}px system-ui, sans-serif`; c.textAlign = "center"; c.textBaseline = "middle";
          // inside its 12 mm strip while it fits, else just inside the table beside it
          const ty = fs <= 11.5 ? y + 6.5 : team === "A" ? 12 + fs / 2 + 1 : TABLE_H - 12 - fs / 2 - 1;
          c.fillText(t("{team} GOAL", { team }), TABLE_W / 2, ty);
        }
      }
      const gx = (TABLE_W - GOAL_W) / 2, gy = (TABLE_H - GOAL_H) / 2;
      c.fillStyle = "rgba(0,0,0,.28)"; c.fillRect(gx, gy, GOAL_W, GOAL_H);
      c.strokeStyle = "#fff"; c.lineWidth = 3; c.strokeRect(gx + 1.5, gy + 1.5, GOAL_W - 3, GOAL_H - 3);
      c.fillStyle = "rgba(255,255,255,.8)"; c.font = `bold ${this.mmFor(14)}px system-ui, sans-serif`; c.textAlign = "center"; c.textBaseline = "middle";
      c.save(); c.translate(TABLE_W / 2, TABLE_H / 2); c.rotate(-Math.PI / 2); c.fillText(t("GOAL"), 0, 0); c.restore();
      const mine = new Set(this.flickable());
      for (const [coin, pos] of Object.entries(this.shown)) {
        const team = teamOfCoin(coin), seat = team ? null : coinOwner(coin);
        const col = team ? TEAM_COLOURS[team] : coin === "ball" ? "#f5f5f5" : seat ? COLOURS[seat - 1] : "#9e9e9e";
        const r = COIN_R * DRAWN;  // drawn a little larger than life: readable at arm's length
        c.beginPath(); c.arc(pos[0] + 1.5, pos[1] + 2, r, 0, Math.PI * 2); c.fillStyle = "rgba(0,0,0,.35)"; c.fill();
        c.beginPath(); c.arc(pos[0], pos[1], r, 0, Math.PI * 2); c.fillStyle = col; c.fill();
        if (team) this.teamPattern(c, team, pos, r);
        c.beginPath(); c.arc(pos[0], pos[1], r, 0, Math.PI * 2); c.lineWidth = 2.5; c.strokeStyle = "#111"; c.stroke();
        if (mine.has(coin)) { c.beginPath(); c.arc(pos[0], pos[1], r + 5, 0, Math.PI * 2); c.lineWidth = 3.5; c.strokeStyle = "#ffe45c"; c.stroke(); }
        c.fillStyle = coin === "ball" ? "#111" : "#fff"; c.font = "900 24px system-ui, sans-serif";
        c.fillText(team ? coin.slice(1) : coin === "ball" ? "⚽" : seat ? String(seat) : coin, pos[0], pos[1] + 1);
      }
      if (this.drag) {
        const pos = this.shown[this.drag.coin], [vx, vy, sp] = this.velocity(), len = sp / MM_PER_S_PER_MM;
        c.setLineDash([6, 6]); c.strokeStyle = "rgba(255,255,255,.8)"; c.lineWidth = 2;
        c.beginPath(); c.moveTo(pos[0], pos[1]); c.lineTo(this.drag.at[0], this.drag.at[1]); c.stroke(); c.setLineDash([]);
        if (sp > 0) {
          const ux = vx / sp, uy = vy / sp, off = COIN_R + 6, ex = pos[0] + ux * (len + off), ey = pos[1] + uy * (len + off);
          c.strokeStyle = "#ffe45c"; c.lineWidth = 5; c.beginPath(); c.moveTo(pos[0] + ux * off, pos[1] + uy * off); c.lineTo(ex, ey); c.stroke();
          c.beginPath(); c.moveTo(ex, ey); c.lineTo(ex - ux * 14 - uy * 8, ey - uy * 14 + ux * 8); c.lineTo(ex - ux * 14 + uy * 8, ey - uy * 14 - ux * 8); c.closePath(); c.fillStyle = "#ffe45c"; c.fill();
          c.fillStyle = "#fff"; c.font = `bold ${this.mmFor(14)}px system-ui, sans-serif`; c.fillText(`${(sp / 1000).toFixed(1)} m/s`, pos[0] - uy * 34 - ux * 30, pos[1] + ux * 34 - uy * 30);
        }
      }
    },
  };

  const FACTIONS = { humans: N_("humans"), biohazard: N_("biohazard") };  // Biohazard's teams (CW-7.2)
  GameViews.register("coinwar", {
    /** A team by the players' word for it: Biohazard's factions by name, the others by letter. */
    teamName: (team) => (FACTIONS[team] ? t(FACTIONS[team]) : ""),
    /** How to play (the /rules pages, web_panel/static/rules.js): mode -> {pic, lines}, each line a
     * t() msgid; a drawing where it helps (inline SVG). Written for players: no rule numbers. */
    rules: () => {
      const P = (...lines) => lines;
      const pic = {
        table: `<svg viewBox="0 0 220 300" class="rules-pic" role="img" aria-label="${esc(t("The table from above: rails, the goal in the middle, coins and a flick"))}">
        <rect x="8" y="8" width="204" height="284" rx="10" fill="#1d5c3a" stroke="#8d6e63" stroke-width="8"/>
        <rect x="85" y="110" width="50" height="80" fill="#111" stroke="#fff" stroke-width="2"/>
        <circle cx="60" cy="240" r="13" fill="#d32f2f"/><circle cx="165" cy="70" r="13" fill="#1565c0"/><circle cx="150" cy="220" r="13" fill="#2e7d32"/>
        <circle cx="110" cy="150" r="13" fill="#b26a00" opacity=".55"/>
        <path d="M60 240 L98 170" stroke="#fff" stroke-width="3" stroke-dasharray="6 5" marker-end="url(#arr)"/>
        <defs><marker id="arr" viewBox="0 0 10 10" refX="6" refY="5" markerWidth="6" markerHeight="6" orient="auto"><path d="M0 0 L10 5 L0 10z" fill="#fff"/></marker></defs></svg>`,
        football: `<svg viewBox="0 0 220 300" class="rules-pic" role="img" aria-label="${esc(t("Football: two goal mouths on the short rails, three coins a team and the ball"))}">
        <rect x="8" y="8" width="204" height="284" rx="10" fill="#1d5c3a" stroke="#8d6e63" stroke-width="8"/>
        <rect x="60" y="2" width="100" height="10" fill="#fff"/><rect x="60" y="288" width="100" height="10" fill="#fff"/>
        <circle cx="110" cy="150" r="11" fill="#f5f5f5" stroke="#111"/>
        ${[[70, 80], [110, 60], [150, 80]].map(([x, y]) => `<rect x="${x - 11}" y="${y - 11}" width="22" height="22" fill="#c62828"/>`).join("")}
        ${[[70, 220], [110, 240], [150, 220]].map(([x, y]) => `<circle cx="${x}" cy="${y}" r="11" fill="#1565c0"/>`).join("")}</svg>`,
      };
      return {
          ffa: { pic: pic.table, lines: P(
            t("Everyone has one coin and a striker (a pen refill). The goal is the dark box in the middle."),
            t("On your turn flick your own coin, up to 2 times. If it touches another coin, your turn ends when the coins stop."),
            t("A coin lying entirely inside the goal is dead: its owner is out. The last coin on the table wins."),
            t("A coin that flies (off the table, or tilted on a coin or a rail) is a foul: the turn ends; an opponent's flown coin gives that opponent an extra turn; two or more flown coins and the flicker is out."),
            t("The table sees the goal and the strikes by itself; when it is not sure, your phone asks you (\"which coins flew?\"). Answer honestly: the others see the answer.")) },
          teams: { pic: pic.table, lines: P(
            t("Two teams of 2 or 3 take turns: a player of team A, then of team B, and so on."),
            t("Flick your own coin up to 2 times; touching an enemy coin ends the turn. Knock the other team's coins into the goal and keep your own team's out."),
            t("A team wins when the other team has nobody left on the table."),
            t("Fouls are as in free-for-all: a flown coin ends the turn; two or more flown coins and the flicker is out.")) },
          infinite: { pic: pic.table, lines: P(
            t("Teams, but nobody is ever out: a dead coin comes straight back (to where it started, if it died in the goal)."),
            t("Every death scores a point for the other team — even a coin you knock in yourself."),
            t("The first team to the target score wins (3 unless the host changes it).")) },
          biohazard: { pic: pic.table, lines: P(
            t("Two sides: the mothers (black coins) and their zombies (blue coins) against the humans (green coins)."),
            t("The mothers share 2 lives: a dead mother comes back while lives are left. Several mothers play as one body: on her turn a mother flicks her own coin or another mother's."),
            t("A human who dies on a mother's or a zombie's turn — or on a human's turn after touching a biohazard coin — becomes a zombie and comes back with a blue coin. A zombie who dies again is out."),
            t("No humans left: the mothers win. The mothers' lives at 0: the humans win.")) },
          football: { pic: pic.football, lines: P(
            t("Two teams of 1 to 3; each team owns three coins in its colour, and there is one ball."),
            t("On your turn flick one of your team's coins up to 2 times; the turn ends when it touches the ball."),
            t("Put the ball through the other team's goal mouth on the short rail to score. Any other coin through a mouth is a foul, and a foul gives the other team a free kick."),
            t("The first team to the target number of goals wins (3 unless the host changes it).")) },
          three_kingdoms: { pic: pic.table, lines: P(
            t("Free-for-all with secret identities: the Lord (everyone knows), Loyalists, Rebels and a Traitor. Only your phone shows yours."),
            t("A coin in the goal costs 1 health instead of a life; you come back while you have health. The Lord has 4, everyone else 3."),
            t("Hand cards (points 1–5): Elixir heals 1 when you lose health; Burning Camps sets another player's camp on fire; Combo gives one more strike this turn. Tap a card to read it."),
            t("Lord and Loyalists win when every Rebel and the Traitor are dead; the Rebels win when the Lord dies; the Traitor wins by being the last one left.")) },
      };
    },
    css: true,
    tutorial,
    banner,
    seatView,
    tableView,
    badge: (p, dead) => (football() && TEAM_COLOURS[p.team] ? seatBadge(p.seat, { dead }) : null),
    hostView: (st) => turnBanner(false) + answerCard(st) + questionCard(st, null, true, QUESTION),
    hostControls: (st) => (st.pending_placements || []).map((p) =>
      `<button class="btn good" data-action="host-placed" data-coin="${esc(p.coin)}">${esc(t("{coin} is back on the table", { coin: p.coin }))}</button>`).join(""),
    optionLabel: coinChipLabel,
    onTable: (d) => Board.update(d),
    onLeds: () => Board.kick(),
    afterRender: (r) => { if (r === "table") Board.mount($("#board-slot")); },
    actions: {
      async end_turn(el) {
        if (el.dataset.confirm === "1" && !(await ask(t("End your turn without striking?"), t("End turn")))) return;
        const d = await post("/api/cmd", { type: "end_turn", confirm: true }); if (d.ok) toast(t("Turn ended"), true);
      },
      async withdraw() { const d = await post("/api/cmd", { type: "withdraw" }); if (d.ok) toast(t("Strike withdrawn"), true); },  // CW-5.6
      async placed(el) { const d = await post("/api/cmd", { type: "placed", coin: el.dataset.coin }); if (d.ok) toast(t("Thanks!"), true); },
      "tk-pick"(el) {  // a card to discard (CW-7.5 hand limit), by its id
        const key = el.dataset.key, id = el.dataset.id, sel = new Set(S.sel[key] || []);
        if (sel.has(id)) sel.delete(id); else sel.add(id);
        S.sel[key] = [...sel]; render();
      },
      async "host-placed"(el) { await post("/api/host/cmd", { type: "placed", coin: el.dataset.coin }); },
    },
  });
  if (S.table) Board.update(S.table);
  window.addEventListener("resize", () => { if (Board.canvas) { Board.resize(); Board.kick(); } });
})();
