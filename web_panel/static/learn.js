/* The guided first game (docs/phones.md "The guided first game"): a newcomer picks a game on /learn
 * (from the join page's "First time?" or the host's lobby), the panel starts that game with bots on
 * the other seats (web_panel/learn.py), and a coach at the bottom of the phone walks them through
 * it: each step rings the control to use, says what to do and why, and moves on by itself once the
 * player did it (or on "Next" for a step that only explains). Skippable at every step; kept for the
 * tab, so a reload goes on where it was. The steps are each game's own (its view's
 * ``tutorial(mode, kit)``); the kit below has the steps every game shares. */
"use strict";

const Learn = {
  KEY: "gt_learn",
  record() { try { return JSON.parse(sessionStorage.getItem(this.KEY) || "null"); } catch { return null; } },
  save(r) { if (r) sessionStorage.setItem(this.KEY, JSON.stringify(r)); else sessionStorage.removeItem(this.KEY); },

  /** The steps every game's guide shares (a view's ``tutorial(mode, kit)`` receives them). */
  kit: {
    /** Wait while the bots play, until it is your turn. */
    waitTurn: (extra = {}) => Object.assign({ id: "wait-turn", text: N_("Wait for your turn."),
      why: N_("Bots play the other seats. The banner at the top says whose turn it is; your phone buzzes when it is yours."),
      target: "#turn-banner", route: "seat", done: (c) => c.mine }, extra),
    /** What you have just seen, and what the rest of the game is about (the guide's last step). */
    finish: (why) => ({ id: "finish", text: N_("You know how to play! Play on to the end: the coach leaves you now."), why,
      target: "#seat-rules", route: "seat", next: true }),
  },

  /** What a step may read: the game, this seat's view and what this phone did since the step began. */
  context(r) {
    const st = S.state, pv = S.priv, seat = S.me.seat, legal = legalMoves(pv);
    return { st, pv, seat, legal, route: route(), mine: !!(st && st.turn && st.turn.seat === seat),
      has: (x) => legal.some((m) => m.move === x || m.type === x),
      // a game's named move ("income"), else an input type ("flick", "end_turn"); any input at all
      acted: (x) => (r.acts || []).some((a) => a.move === x || (a.move == null && a.type === x)),
      actedAny: () => (r.acts || []).length > 0 };
  },
  steps(r) {
    const view = GameViews.of(r.game);
    return view && view !== LOADING && typeof view.tutorial === "function" ? view.tutorial(r.mode, this.kit) : null;
  },
  /** The game on the table is this guided game (the same game and mode, this phone's seat playing). */
  ours(r) {
    const st = S.state;
    return !!(st && st.game === r.game && (st.mode || null) === (r.mode || null) && playerBySeat(r.seat));
  },

  /** Start the guided game of ``game``/``mode``: a seat first if the phone has none (the first free one). */
  async start(game, mode) {
    if (!S.me.seat) {
      const free = [1, 2, 3, 4, 5, 6].find((s) => !S.taken.includes(s));
      if (!free) { toast(t("Every seat is taken: ask the host to free one.")); return; }
      const d = await post("/api/seat/claim", Object.assign({ seat: free }, S.joinCode ? { code: S.joinCode } : {}));
      if (!d.ok) return;
      S.me.seat = free; connect();
    }
    const d = await post("/api/learn", { game, mode });
    if (!d.ok) return;
    this.save({ game, mode, seat: S.me.seat, step: 0, acts: [], shown: "" });
    S.sel = {}; go("/seat");
  },
  /** A move, answer or flick this phone made: the current step may be waiting for it. */
  acted(path, body) {
    const r = this.record();
    if (!r || !/^\/api\/(cmd|flick)$/.test(path)) return;
    r.acts = [...(r.acts || []), { type: path === "/api/flick" ? "flick" : body.type, move: body.move || null }].slice(-20);
    this.save(r);
  },
  async act(a) {
    const r = this.record();
    if (a === "coach-next" && r) { this.advance(r); render(); }
    else if (a === "coach-skip" || a === "coach-done") { this.save(null); this.draw(null); render(); }
    else if (a === "coach-again" && r) await this.start(r.game, r.mode);
  },
  advance(r) { r.step += 1; r.acts = []; this.save(r); },

  /** After every render: move past the steps already done, draw the coach, ring its target. */
  update() {
    const r = this.record();
    if (!r) { this.draw(null); return; }
    const steps = this.steps(r);
    if (!steps) { this.draw(r, { text: N_("Loading the game's screen…") }); return; }
    const st = S.state;
    if (!this.ours(r)) { this.draw(r, { text: N_("Starting your guided game…"), why: N_("Bots take the other seats.") }); return; }
    if (st.phase !== "playing") { this.draw(r, { id: "over", text: N_("Game over: you played your first game!"), why: N_("Play a real game with friends from the Host tab, or learn another game."), last: true }); return; }
    const c = this.context(r);
    // the seat's private view of this very moment (it arrives apart from the state): until then a
    // step cannot tell what the seat may do, and none is passed over
    const pv = S.priv, same = (k) => JSON.stringify(pv[k]) === JSON.stringify(st[k]);
    if (pv && pv.game === st.game && same("mode") && same("turn") && same("last"))
      while (r.step < steps.length && !steps[r.step].next && ((steps[r.step].skip && steps[r.step].skip(c)) || steps[r.step].done(c))) this.advance(r);
    if (r.step >= steps.length) { this.draw(r, steps[steps.length - 1], steps.length - 1, steps.length); return; }
    this.draw(r, steps[r.step], r.step, steps.length);
  },

  draw(r, step, i = 0, n = 0) {
    let box = document.getElementById("coach");
    for (const el of document.querySelectorAll(".coach-target")) el.classList.remove("coach-target");
    if (!r || !step) { if (box) box.remove(); document.body.style.paddingBottom = ""; return; }
    if (!box) { box = document.createElement("aside"); box.id = "coach"; box.className = "coach"; box.setAttribute("aria-live", "polite"); document.body.appendChild(box); }
    const away = step.route && route() !== step.route;  // the control is on another tab: that tab first
    const last = step.last || (n && i === n - 1);
    const tabName = step.route && document.getElementById(`tab-${step.route}`) ? document.getElementById(`tab-${step.route}`).textContent : "";
    box.dataset.step = step.id || "";
    box.innerHTML = `<div class="coach-head"><span class="coach-count">${n ? esc(t("Guided game · step {i} of {n}", { i: i + 1, n })) : esc(t("Guided game"))}</span>
      <button type="button" class="btn ghost coach-skip" data-action="coach-skip" id="coach-skip">${esc(last ? t("Close") : t("Skip the guide"))}</button></div>
      ${away ? `<p class="coach-go" id="coach-go">👉 ${esc(t("Tap “{tab}” at the top.", { tab: tabName }))}</p>` : ""}
      <p class="coach-text" id="coach-text">${esc(t(step.text))}</p>${step.why ? `<p class="coach-why" id="coach-why">${esc(t(step.why))}</p>` : ""}
      ${last ? `<div class="row"><a class="btn grow" href="/learn" id="coach-more">${esc(t("Learn another game"))}</a>${step.id === "over"
        ? `<button type="button" class="btn grow" data-action="coach-again" id="coach-again">${esc(t("Play it again"))}</button>` : ""}</div>
        <button type="button" class="btn primary wide" data-action="coach-done" id="coach-done">${esc(t("Done"))}</button>`
        : step.next ? `<button type="button" class="btn primary wide" data-action="coach-next" id="coach-next">${esc(t("Next"))}</button>` : ""}`;
    document.body.style.paddingBottom = `${box.offsetHeight + 16}px`;
    this.ringing = { r, step, away, i };
    this.ring();
    // the control may be drawn after the coach (a seat's private view arrives apart from the state,
    // a view may patch its part of the screen by itself): look again until the coach closes
    if (!this.watch) this.watch = setInterval(() => this.ring(), 250);
  },
  /** Ring the current step's control and, for a while after it first shows, keep it in sight. */
  ring() {
    const box = document.getElementById("coach"), cur = this.ringing;
    if (!box || !cur) { clearInterval(this.watch); this.watch = null; this.ringing = null; return; }
    const { r, step, away, i } = cur;
    const target = away ? document.getElementById(`tab-${step.route}`) : this.target(step);
    for (const el of document.querySelectorAll(".coach-target")) if (el !== target) el.classList.remove("coach-target");
    if (!target) return;
    target.classList.add("coach-target");
    const key = `${i}:${away}:${target.id || target.className}`;
    // on a new step, and while the screen settles after it (a redraw may move the control), once more
    if (r.shown !== key) { r.shown = key; this.save(r); this.settle = Date.now() + 1500; }
    if (Date.now() < (this.settle || 0)) this.reveal(target, box);
  },
  /** Scroll the control into the part of the screen the coach leaves free (below the sticky bars,
   * above the coach), when it is not whole there already. */
  reveal(el, box) {
    const top = ($(".tabs") || $(".bar"))?.getBoundingClientRect().bottom || 0, bottom = innerHeight - box.offsetHeight;
    const rect = el.getBoundingClientRect();
    if (el.closest(".tabs, .bar") || (rect.top >= top && rect.bottom <= bottom)) return;
    const room = bottom - top;
    window.scrollBy(0, rect.top - top - Math.max(8, (room - rect.height) / 2));
  },
  /** The step's control: the first of its selectors on the screen. */
  target(step) {
    const sels = typeof step.target === "function" ? [step.target()] : [].concat(step.target || []);
    return sels.filter(Boolean).map((s) => document.querySelector(s)).find(Boolean) || null;
  },

  /** /learn: every game and mode, one tap each, with its rules beside it. */
  view() {
    const games = lobbyGames();
    const items = Object.entries(games).flatMap(([g, d]) => (d.modes && d.modes.length ? d.modes : [{ mode: null }]).map((m) => {
      const title = m.title && d.modes.length > 1 ? `${t(d.title || g)} · ${t(m.title)}` : t(d.title || g);
      return `<div class="learn-game"><button class="btn primary grow" data-action="learn-start" data-game="${esc(g)}" data-mode="${esc(m.mode || "")}" id="learn-${esc(g)}-${esc(m.mode || "")}">${esc(title)}</button>
        <a class="btn ghost" href="/rules/${esc(g)}/${esc(m.mode || "")}">${esc(t("How to play"))}</a></div>`;
    }));
    return `<h1>${esc(t("First time?"))}</h1><p>${esc(t("Pick a game: you play one seat against bots, and a guide on this phone shows each step and why. You can skip it at any time."))}</p>
      ${S.state && S.state.phase === "playing" ? `<p class="card small" id="learn-busy">${esc(t("A game is on the table: a guided game replaces it only if nobody else plays in it (the host may always)."))}</p>` : ""}
      <section class="card stack" id="learn-games">${items.join("") || `<p>${esc(t("Waiting for the table to list its games…"))}</p>`}</section>`;
  },
};
