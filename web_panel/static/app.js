/* Game table phone panel. Vanilla JS, no build step, no external assets.
 * One EventSource (/api/stream) gives the full picture on connect and every change after it;
 * EventSource reconnects by itself and the server resends the snapshot, so a phone resyncs alone. */
"use strict";

const SHAPES = ["●", "■", "▲", "◆", "★", "⬢"];
const SHAPE_NAMES = () => [t("circle"), t("square"), t("triangle"), t("diamond"), t("star"), t("hexagon")];
const COLOURS = ["#d32f2f", "#1565c0", "#b26a00", "#2e7d32", "#7b1fa2", "#00838f"];
const COLOUR_NAMES = () => [t("red"), t("blue"), t("amber"), t("green"), t("purple"), t("teal")];

const S = {
  me: { seat: null, host: false }, taken: [], state: null, priv: null, table: null, log: [], status: "unknown",
  info: null, games: {}, sel: {}, lobby: null, online: false, pendingRender: false,
};
let es = null;

/* ---------- helpers ---------- */
const $ = (sel, root = document) => root.querySelector(sel);
const esc = (v) => String(v ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
const rid = () => { const a = new Uint8Array(12); crypto.getRandomValues(a); return Array.from(a, (b) => b.toString(16).padStart(2, "0")).join(""); };
const cookie = (name) => (document.cookie.split("; ").find((c) => c.startsWith(name + "=")) || "").slice(name.length + 1);
const randInt = (n) => { const a = new Uint32Array(1); crypto.getRandomValues(a); return a[0] % n; };
const shuffle = (xs) => { const a = xs.slice(); for (let i = a.length - 1; i > 0; i--) { const j = randInt(i + 1); [a[i], a[j]] = [a[j], a[i]]; } return a; };
const route = () => (location.pathname.replace(/^\/+/, "").split("/")[0] || "join");

function players() { return (S.state && S.state.players) || []; }
function playerBySeat(seat) { return players().find((p) => p.seat === seat); }
/** A team as the players name it: the game's own word for it (its view's ``teamName``, e.g. a
 * faction), else its id ("A"). */
function teamName(team) {
  const view = gameView();
  const own = view && view !== LOADING && view.teamName ? view.teamName(team) : "";
  return own || String(team);
}
function nameOf(seat) { const p = playerBySeat(seat); return p ? displayName(p.name) : t("Seat {n}", { n: seat }); }
function coinBadge(seat, { big = false, dead = false, label = null } = {}) {
  const i = (seat || 0) - 1, known = i >= 0 && i < 6;
  const title = known ? t("Seat {n}, {colour} {shape}", { n: seat, colour: COLOUR_NAMES()[i], shape: SHAPE_NAMES()[i] }) : String(label || t("coin"));
  return `<span class="coin ${known ? "s" + seat : ""} ${big ? "big" : ""} ${dead ? "dead" : ""}" role="img" aria-label="${esc(title)}">${esc(label ?? (known ? seat : "?"))}${known ? `<span class="shape" aria-hidden="true">${SHAPES[i]}</span>` : ""}</span>`;
}
function toast(msg, ok = false) {
  const el = $("#toast"); el.textContent = msg; el.className = "toast" + (ok ? " ok" : ""); el.hidden = false;
  clearTimeout(toast.timer); toast.timer = setTimeout(() => { el.hidden = true; }, ok ? 1800 : 4500);
}

async function post(path, body = {}) {
  const payload = Object.assign({ id: rid() }, body);
  let res, data;
  try {
    res = await fetch(path, { method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": cookie("gt_csrf") }, body: JSON.stringify(payload) });
    data = await res.json();
  } catch (err) { data = { ok: false, error: res ? t("the panel answered HTTP {status}", { status: res.status }) : t("no connection to the table") }; }
  if (!data.ok) toast(data.error ? (S.showRules ? data.error : noRules(data.error)) : t("refused"));  // in this phone's language; rule numbers behind the switch
  else Learn.acted(path, payload);  // the guided game's step may be waiting for this move (static/learn.js)
  return data;
}

/** A card's text on a tap (docs/i18n.md): its name in the phone's language (and English under
 * it in Chinese), what it does, and an optional line (a general's kingdom and health). */
function cardInfo(title, text, sub) {
  const dlg = $("#card-info");
  $("#card-info-title").innerHTML = dualName(title || "");
  $("#card-info-sub").textContent = sub || "";
  $("#card-info-text").textContent = text ? noRules(t(text)) : t("No text: it does what its name says.");
  dlg.showModal();
}

/** Start with a seat that no phone holds and no bot plays (docs/phones.md)? Ask the host: bots play
 * those seats, or the game waits for their phones (each phone joins by the QR). False: cancelled. */
async function fillSeats(L) {
  const empty = [1, 2, 3, 4, 5, 6].filter((s) => L.include[s] && !L.bots[s] && !S.taken.includes(s));
  if (!empty.length) return true;
  const dlg = $("#unfilled");
  $("#unfilled-text").textContent = tn("Seat {seats} has no phone yet.", "Seats {seats} have no phone yet.", empty.length, { seats: listOf(empty) });
  I18N.apply(dlg);
  const choice = await new Promise((resolve) => { dlg.onclose = () => resolve(dlg.returnValue); dlg.returnValue = "no"; dlg.showModal(); });
  if (choice === "bot") for (const s of empty) L.bots[s] = true;
  return choice === "bot" || choice === "wait";
}

/** While a game waits on a seat no phone holds and no bot plays: say so, and how to fill it (item 5). */
function waitingSeatCard(st) {
  const view = gameView();  // only where the game is played on the phones (a table game's turns are the table's)
  if (!st || st.phase !== "playing" || !view || view === LOADING || !view.playedOnPhones) return "";
  // the bots of this game: its "New game" entry says (web_panel/link.py); a log that does not reach
  // back to it falls back to the lobby's bot names ("Bot 2")
  const started = gameStart();
  const bots = new Set([...(started ? started.bots || []
    : players().filter((p) => /^(bot|机器人)\s*[1-6]?$/i.test(String(p.name || "").trim())).map((p) => p.seat)),
  ...(st.bots || [])]);  // and the seats the host handed to a bot since (the public state's "bots")
  const w = st.window && typeof st.window === "object" ? st.window : null;
  const answering = new Set([...((w && w.seats) || []), ...((st.questions || []).flatMap((q) => q.seats || []))]);
  const waiting = new Set([...(st.turn ? [st.turn.seat] : []), ...answering]);
  const empty = [...waiting].filter((s) => typeof s === "number" && !S.taken.includes(s) && !bots.has(s)).sort();
  if (!empty.length) return "";
  const host = S.me.host && route() === "host";
  return `<section class="card question" id="waiting-seat"><h2>${esc(t("Waiting for {who}: no phone holds the seat", { who: empty.map(nameOf) }))}</h2>
    <p class="small">${esc(host ? t("Let their phone scan the QR code above and tap the seat, or set up the game again with a bot in that seat.") : t("Their phone joins by the QR code on the host's screen."))}</p>${host ? waitedChoices(st, empty, answering) : ""}</section>`;
}

/** After [panel] absent_s of waiting on such a seat (since the game's last input, on the daemon's
 * clock), the host chooses per seat: a bot takes it (seat_to_bot), skip it (skip_seat: the
 * seat passes its answer or ends its turn, where the game's describe() "skip" allows), or end the
 * game; "Wait" asks again after as long again (docs/phones.md "A seat nobody plays"). */
function waitedChoices(st, seats, answering) {
  const after = (S.info && S.info.absent_s) || 120;
  const last = S.log[0];
  const now = Date.now() / 1000 + (S.skew || 0);
  const since = Math.max(last && typeof last.ts === "number" ? last.ts : now, S.waitedSnooze || 0);
  if (now - since < after) {  // not yet: look again when it is time
    clearTimeout(S.waitedTimer);
    S.waitedTimer = setTimeout(render, (after - (now - since)) * 1000 + 50);
    return "";
  }
  const skips = (GameViews.describe(st.game) || {}).skip || [];
  const rows = seats.map((s) => {
    const skip = answering.has(s) ? skips.includes("pass") : skips.includes("end_turn");
    return `<div class="row wrap" style="padding:4px 0">${coinBadge(s)}<span class="grow">${esc(nameOf(s))}</span>
      <button class="btn" data-action="seat-to-bot" data-seat="${s}" id="waited-bot-${s}">${esc(t("🤖 A bot takes the seat"))}</button>
      ${skip ? `<button class="btn" data-action="skip-seat" data-seat="${s}" id="waited-skip-${s}">${esc(answering.has(s) ? t("Pass for them") : t("Skip their turn"))}</button>` : ""}</div>`;
  }).join("");
  return `<div id="waited-choices"><p><b>${esc(t("The game has waited a long time for this seat. What now?"))}</b></p>${rows}
    <div class="row wrap"><button class="btn danger" data-action="abort" id="waited-end">${esc(t("End the game"))}</button>
    <button class="btn ghost" data-action="waited-wait" id="waited-wait">${esc(t("Wait longer"))}</button></div></div>`;
}

/** The host's prompt for a seat whose phone is gone (the panel's [panel] absent_s, docs/phones.md):
 * a bot plays it from now on (the daemon's seat_to_bot), free the seat so another phone may take it, or wait. */
function absentCard() {
  const handed = (S.state && S.state.bots) || [];  // seats the host already gave to a bot
  const seats = (S.absent || []).filter((s) => S.taken.includes(s) && !(S.absentOk || []).includes(s) && !handed.includes(s));
  if (!seats.length) return "";
  const rows = seats.map((s) => `<div class="row" style="padding:4px 0">${coinBadge(s)}<span class="grow">${esc(nameOf(s))}</span>
    <button class="btn" data-action="seat-to-bot" data-seat="${s}" id="absent-bot-${s}">${esc(t("🤖 A bot plays it"))}</button>
    <button class="btn" data-action="release" data-seat="${s}" id="absent-free-${s}">${esc(t("Free the seat"))}</button>
    <button class="btn ghost" data-action="absent-wait" data-seat="${s}" id="absent-wait-${s}">${esc(t("Wait"))}</button></div>`).join("");
  return `<section class="card question" id="absent-seat"><h2>${esc(t("A phone is gone: {who}", { who: seats.map(nameOf) }))}</h2>
    <p class="small">${esc(t("A bot plays the seat from now on, or free the seat so another phone can take it (the game goes on from where it is), or wait for the phone."))}</p>${rows}</section>`;
}

function ask(text, yes = t("Yes")) {
  const dlg = $("#confirm"); $("#confirm-text").textContent = text; $("#confirm-yes").textContent = yes;
  return new Promise((resolve) => { dlg.onclose = () => resolve(dlg.returnValue === "yes"); dlg.showModal(); });
}

/* ---------- live stream ---------- */
function connect() {
  if (es) es.close();
  es = new EventSource("/api/stream");
  const on = (name, fn) => es.addEventListener(name, (e) => { fn(JSON.parse(e.data)); });
  on("me", (d) => { S.me = { seat: d.seat, host: d.host }; S.taken = d.taken || []; render(); });
  on("taken", (d) => {
    const fresh = (d || []).filter((s) => !S.taken.includes(s));
    S.taken = d;
    if (S.lobby && !S.lobby.touched && d.length >= 2) S.lobby.include = Object.fromEntries(d.map((s) => [s, true]));
    if (S.lobby) for (const s of fresh) { S.lobby.include[s] = true; S.lobby.bots[s] = false; }  // a phone joined: it plays
    render();
    if (S.info && S.info.venue) loadInfo().then(loadVenue).then(render);  // a phone may have brought a venue ticket
  });
  on("status", (d) => { S.status = d; conn(); });
  on("state", (d) => { S.state = d; render(); attention(); });
  on("private", (d) => { S.priv = d; render(); attention(); });
  on("history", (d) => { S.log = d.slice().reverse(); render(); });
  on("log", (d) => { S.log.unshift(d); S.log = S.log.slice(0, 60); render(); });
  on("lang", (d) => { I18N.tableDefault = d && d.lang; if (S.info) S.info.lang = I18N.tableDefault; if (!I18N.chosen()) I18N.load().then(render); else render(); });
  on("absent", (d) => { const before = JSON.stringify(S.absent || []); S.absent = (d && d.seats) || []; S.absentOk = (S.absentOk || []).filter((s) => S.absent.includes(s)); if (JSON.stringify(S.absent) !== before) render(); });
  on("leds", (d) => { S.leds = d; hook("onLeds", d); });
  on("games", (d) => { S.games = d || {}; for (const name of Object.keys(S.games)) GameViews.load(name); render(); });
  on("table", (d) => { const fresh = !S.table; S.table = d; hook("onTable", d); if (fresh) render(); });
  on("journal", (d) => { S.journal = d; conn(); });
  on("offer", (d) => { S.offer = d; render(); });  // the venue's match offer (host streams only)
  es.onopen = () => { S.online = true; conn(); };
  es.onerror = () => {
    S.online = false; conn();
    // The browser retries network errors by itself but gives up on an HTTP error (e.g. 503 when
    // the table is full of screens): then retry ourselves, a little later.
    if (es.readyState === EventSource.CLOSED) { clearTimeout(connect.timer); connect.timer = setTimeout(connect, 3000); }
  };
}
/** Your turn, a question or a reaction window for you has just begun: the phone vibrates where it
 * may (Android Chrome; iOS ignores it), once for each such moment. */
function attention() {
  const st = S.state, seat = S.me.seat, parts = [];
  if (seat && st && st.phase === "playing") {
    if (st.turn && st.turn.seat === seat) parts.push("turn");
    for (const q of st.questions || []) if ((q.seats || []).includes(seat)) parts.push("q:" + q.id);
    const w = st.window;
    if (w && (w.seats || []).includes(seat)) parts.push(`w:${w.kind}:${w.claimant}:${w.deadline}`);
    if (!parts.length && legalMoves(S.priv).length) parts.push("asked");  // e.g. a card to lose
  }
  const before = S.attention || [];
  if (parts.some((p) => !before.includes(p)) && navigator.vibrate) { try { navigator.vibrate([180, 90, 180]); } catch { /* not allowed */ } }
  S.attention = parts;
}
function conn() {
  const c = $("#conn");
  if (!S.online) { c.textContent = t("reconnecting…"); c.className = "conn bad"; return; }
  if (S.status === "offline") { c.textContent = t("table offline"); c.className = "conn bad"; return; }
  c.textContent = S.me.host ? t("host · live") : S.me.seat ? t("seat {n} · live", { n: S.me.seat }) : t("live"); c.className = "conn ok";
  const j = S.me.host && S.journal;  // the table dropped a torn journal record at its last start
  if (j) { c.textContent += ` · ⚠ ${(j.dropped || []).length ? t("input #{inputs} lost in a power cut: check the state", { inputs: j.dropped.join(", #") }) : j.warning}`; c.className = "conn bad"; }
}

/* ---------- game views: each game's phone screens come from its own package ---------- */
/* A game ships phone/view.js (and optionally phone/view.css) in its package; the panel serves them
 * at /games/<game>/… and the script calls GameViews.register(name, view). Every member of a view is
 * optional (web_panel/PANEL.md): seatView, tableView, hostView (html or null for the generic
 * screen), banner, hostControls, cardLabel, onTable, afterRender, tick, actions, rules, css. */
const LOADING = { loading: true };
const GameViews = {
  views: {}, status: {},
  register(name, view) {
    this.views[name] = view; this.status[name] = "ready";
    if (view.css) {
      const link = document.createElement("link"); link.rel = "stylesheet"; link.href = `/games/${encodeURIComponent(name)}/view.css`;
      document.head.appendChild(link);
    }
    render();
  },
  /** Start loading a game's view once; a game without one (404) gets the generic screens. */
  load(name) {
    if (!/^[a-z][a-z0-9_]{0,31}$/.test(name || "") || this.status[name]) return;
    this.status[name] = "loading";
    const el = document.createElement("script"); el.src = `/games/${name}/view.js`; el.async = true;
    el.onerror = () => { this.status[name] = "missing"; render(); };
    el.onload = () => { if (this.status[name] === "loading") { this.status[name] = "missing"; render(); } };
    document.head.appendChild(el);
  },
  /** The view of game ``name``: the view, null (none: generic screens) or LOADING. */
  of(name) {
    if (!name) return null;
    this.load(name);
    const status = this.status[name];
    return status === "ready" ? this.views[name] : status === "loading" ? LOADING : null;
  },
  /** What the daemon published about a game (its describe(): modes, options, and its own data). */
  describe(name) { return S.games[name] || (S.info && S.info.games && S.info.games[name]) || null; },
};
function gameView() { return GameViews.of(S.state && S.state.game); }
/** Call a member of the current game's view, if it has one (undefined otherwise). */
function hook(name, ...args) {
  const view = gameView();
  return view && view !== LOADING && typeof view[name] === "function" ? view[name](...args) : undefined;
}
function loadingCard() { return `<section class="card empty" id="loading-view"><p class="muted">${esc(t("Loading the game's screen…"))}</p></section>`; }

/** Items of a list as the phone's language writes them ("Ann, Bo"; Chinese: "安、博"). */
function listOf(items) { return items.map(String).join(t(", ")); }

/* ---------- rendering ---------- */
function render() {
  const view = $("#view"), active = document.activeElement;
  if (active && view.contains(active) && /^(INPUT|SELECT|TEXTAREA)$/.test(active.tagName)) { S.pendingRender = true; return; }
  S.pendingRender = false;
  const r = route();
  document.body.dataset.route = r;  // (CSS: the table view's toast sits over the banner, not the board)
  for (const a of document.querySelectorAll(".tabs a")) a.classList.toggle("on", a.dataset.route === r || (r === "join" && a.dataset.route === "seat"));
  $("#tab-seat").textContent = S.me.seat ? t("Seat {n}", { n: S.me.seat }) : t("Join");
  I18N.apply(); langToggle();
  if (S.info) $("#table-name").textContent = tableTitle(S.info.table);
  let html;
  try {
    html = r === "rules" ? rulesView() : r === "learn" ? Learn.view() : r === "table" ? tableView() : r === "host" ? hostView() : (r === "seat" && S.me.seat) ? seatView() : joinView();
  } catch (err) {  // a drawing bug must not blank the phone: say so, and keep the stream alive
    console.error(err);
    html = `<section class="card question" id="render-error"><h2>${esc(t("This screen could not be drawn"))}</h2><p class="small">${esc(err && err.message)}</p></section>`;
  }
  if (r !== "join" && r !== "rules" && r !== "learn" && !(r === "seat" && !S.me.seat)) html = gameOverCard(S.state) + waitingSeatCard(S.state) + html;
  const typedPin = $("#pin") && $("#pin").value;  // a redraw between typing the PIN and tapping Unlock keeps it
  view.innerHTML = html;
  if (typedPin && $("#pin")) $("#pin").value = typedPin;
  tvLayout(view, r);
  hook("afterRender", r);
  Learn.update();
  bringIntoView(r);
  conn();
}

/** The shared screen (docs/phones.md): a TV or the Pi's own monitor shows the table view with the
 * board large on the left and the players and the log beside it, all drawn larger (app.css
 * ".tv"), for every game: a game's players list goes beside the board when it has one (a drawing
 * of the table, a map), else it is the board (cards, a ring of seats). */
const TV = matchMedia("(min-width: 1200px) and (min-height: 700px)");
function tvLayout(view, r) {
  const on = r === "table" && TV.matches;
  document.body.classList.toggle("tv", on);
  if (!on) return;
  const board = view.querySelector("#board, #board-slot:not([hidden])");
  // beside the board: whose turn and whom the game waits for, the players (where the board is a
  // drawing of the table or a map), a game's own [data-tv-side] parts (the map's legend), the log;
  // so the board alone takes the wide column's height
  const beside = new Set(["log-card", "turn-banner", "waiting-seat", ...(board ? ["players"] : [])]);
  const aside = [...view.children].filter((el) => beside.has(el.id));
  const main = document.createElement("div"), side = document.createElement("aside");
  main.className = "tv-main"; side.className = "tv-side";
  for (const el of [...view.children]) (aside.includes(el) ? side : main).appendChild(el);
  const log = side.querySelector("#log-card");
  for (const el of main.querySelectorAll("[data-tv-side]")) side.insertBefore(el, log);
  view.append(main, side);
}
TV.addEventListener("change", () => render());

/** What needs the player comes into view (docs/phones.md): a window or question that has just
 * opened, and what a tap asked for (``S.focus``, a selector: the targets after a card, a
 * path on a map). Only when it is off the screen: a phone that already shows it stays put. */
function bringIntoView(r) {
  const st = S.state, w = st && st.window, q = st && (st.questions || [])[0];
  const key = w && typeof w === "object" ? `w:${JSON.stringify([w.id, w.kind, w.claimant, w.seats])}` : q ? `q:${q.id}` : "";
  const wanted = [];
  if (key && key !== S.viewKey && r === "seat") wanted.push("#window", "#question");
  S.viewKey = key;
  if (S.focus) { wanted.unshift(S.focus); S.focus = null; }
  const el = wanted.map((sel) => $(sel)).find(Boolean);
  if (el && !onScreen(el) && el.scrollIntoView) el.scrollIntoView({ block: "start" });
}
/** Whole on the screen below the sticky bars (or, taller than the screen, its top is). */
function onScreen(el) {
  const box = el.getBoundingClientRect(), bars = ($(".tabs") || $(".bar"))?.getBoundingClientRect().bottom || 0;
  return box.top >= bars && (box.bottom <= innerHeight || box.height > innerHeight - bars);
}

function turnBanner(mine) {
  const st = S.state;
  const next = S.me.host && route() === "host" ? t("Set up the next game below.") : t("Waiting for the host to start a new game.");
  if (!st) return `<section class="banner" id="turn-banner"><div class="big">${esc(t("No game yet"))}</div><div class="sub">${esc(S.me.host && route() === "host" ? t("Set up a game below.") : t("The host starts one from the Host tab."))}</div></section>`;
  if (st.phase === "over") return `<section class="banner over" id="turn-banner"><div class="big">${esc(t("Game over"))}</div><div class="sub">${esc(winnerText(st.winner))}</div></section>`;
  if (st.phase === "aborted") return `<section class="banner" id="turn-banner"><div class="big">${esc(t("Game aborted"))}</div><div class="sub">${esc(next)}</div></section>`;
  const turn = st.turn;
  if (!turn) return `<section class="banner" id="turn-banner"><div class="big">${esc(t("Waiting…"))}</div></section>`;
  const own = hook("banner", st, mine);
  if (own) return own;
  if (mine && turn.seat === S.me.seat) {
    return `<section class="banner mine" id="turn-banner" aria-live="polite"><div class="big">${esc(t("YOUR TURN"))}${turn.extra ? esc(t(" (extra)")) : ""}</div>
      <div class="sub">${esc(t("Make your move"))}</div>${lastLine()}</section>`;
  }
  return `<section class="banner" id="turn-banner" aria-live="polite"><div class="row">${coinBadge(turn.seat, { big: true })}<div class="grow">
    <div class="big" style="font-size:28px">${esc(t("{who}'s turn", { who: nameOf(turn.seat) }))}</div><div class="sub">${turn.extra ? esc(t("extra turn")) : ""}</div></div></div>${lastLine()}</section>`;
}

/** The lines of one log entry in this phone's language: each line's message (``says``), or the line. */
function entryLines(e) { return e.lines.map((l, i) => (e.says && e.says[i] ? say(e.says[i]) : l)); }
/** "Ann's turn" (its message id), so the banner's last line can skip it in any language. */
const TURN_IDS = ["{who}'s turn", "{who}'s extra turn"];
function lastLine() {
  const e = S.log[0];
  if (!e || !e.lines.length) return "";
  const shown = entryLines(e), turnLine = (i) => (e.says && e.says[i] ? TURN_IDS.includes(e.says[i].id) : /'s (extra )?turn$/.test(e.lines[i]));
  const keep = shown.filter((_, i) => !turnLine(i));
  const last = keep.slice(-1)[0] || shown[shown.length - 1];
  return `<div class="last" id="last-event">${esc(S.showRules ? last : noRules(last))}</div>`;  // rule numbers: behind the switch
}

function answerCard(st) {
  const w = st.window;
  if (!w || typeof w !== "object") return "";
  const left = w.deadline ? Math.max(0, Math.ceil(w.deadline - Date.now() / 1000 - (S.skew || 0))) : null;
  const who = w.claimant !== undefined && w.claimant !== null ? nameOf(w.claimant) : "";
  return `<section class="card question" id="window"><h2>${esc(t(String(w.kind || "reaction").replace(/_/g, " ")))}${w.claim ? ` — ${esc(t("{who} claims {claim}", { who, claim: t(w.claim) }))}` : ""}</h2>
    <p>${(w.seats || []).length ? esc(t("Waiting for {who}", { who: (w.seats || []).map(nameOf) })) : ""}${left !== null ? ` · ${t("{left} s left", { left: `<b data-deadline="${esc(w.deadline)}">${left}</b>` })}` : ""}</p></section>`;
}

function legalMoves(pv) {
  const l = pv && pv.legal;
  return Array.isArray(l) ? l : (l && Array.isArray(l.moves) ? l.moves : []);
}

function winnerText(w) {
  if (!w) return t("No winner");
  if (w.draw) return t("Draw: {who}", { who: w.draw.map(nameOf) });
  if (Array.isArray(w)) return w.length > 1 ? t("{who} win!", { who: w.map(nameOf).join(" & ") }) : t("{who} wins!", { who: w.map(nameOf).join(" & ") });
  return String(w);
}

function joinView() {
  const cards = [1, 2, 3, 4, 5, 6].map((seat) => {
    const p = playerBySeat(seat), taken = S.taken.includes(seat), mine = S.me.seat === seat;
    // any seat no other phone holds may be claimed, before a game too: the host's lobby ticks it
    const playing = S.state && S.state.phase === "playing";
    const what = esc(mine ? t("Your seat") : taken ? t("Taken by another phone · the host can free it")
      : p && playing ? t("Tap to join") : playing ? t("Free · you play from the next game") : t("Free · tap to sit here"));
    return `<button class="seat-btn" data-action="claim" data-seat="${seat}" id="seat-${seat}" ${taken && !mine ? "disabled" : ""}>
      ${coinBadge(seat, { big: true })}<span><span class="who">${esc(p ? displayName(p.name) : t("Seat {n}", { n: seat }))}</span><span class="what">${what}</span></span></button>`;
  }).join("");
  const atTable = S.joinCode || (S.info && (S.info.join_url || "").includes("?code="));
  const hint = atTable ? "" : `<p class="card" id="join-hint">${esc(t("To take a seat, scan the QR code on the table's screen. Anyone may watch."))}</p>`;
  return `<h1>${esc(t("Join the table"))}</h1><p class="muted">${esc(t("Tap your seat. Your phone keeps it, even after a reload."))}</p>${hint}
    <a class="btn wide learn-link" href="/learn" id="join-learn">🎓 ${esc(t("First time? Play a guided game"))}</a>
    <div class="seats">${cards}</div>
    <div class="row" style="margin-top:14px"><a class="btn ghost grow" href="/table">${esc(t("Just watch"))}</a><a class="btn ghost grow" href="/rules" id="join-rules">${esc(t("How to play"))}</a><a class="btn ghost grow" href="/host">${esc(t("Host"))}</a></div>`;
}

const LEAVE_ROW = () => `<div class="row"><a class="btn ghost grow" href="/table">${esc(t("See the table"))}</a>${rulesLink(S.state)}<button class="btn ghost" data-action="leave">${esc(t("Leave seat"))}</button></div>`;

function seatView() {
  const st = S.state, pv = S.priv, seat = S.me.seat;
  const view = gameView();
  if (view === LOADING) return loadingCard() + LEAVE_ROW();
  const own = st && view && view.seatView ? view.seatView(st, pv, seat) : null;
  return (own ?? genericSeat(st, pv, seat)) + LEAVE_ROW();
}

function heldSeatCard(seat) {
  return `<section class="card empty"><div class="big">${esc(t("You hold seat {n}", { n: seat }))}</div><p class="muted">${esc(t("The game appears here as soon as the host starts it."))}</p></section>`;
}

/** A game without a phone view of its own: who you are, the open answer, your private view, your moves. */
function genericSeat(st, pv, seat) {
  const me = playerBySeat(seat), colour = `${COLOUR_NAMES()[seat - 1]} ${SHAPE_NAMES()[seat - 1]}`;
  let html = turnBanner(true);
  html += `<section class="card row" id="my-coin">${coinBadge(seat, { big: true, dead: me && !me.alive })}<div class="grow">
    <div style="font-size:22px;font-weight:900">${esc(me ? displayName(me.name) : t("Seat {n}", { n: seat }))}</div>
    <div class="muted small">${esc(t("Seat {n}", { n: seat }))} · ${esc(colour)}${me && me.team ? ` · ${esc(t("team {team}", { team: teamName(me.team) }))}` : ""}${me && typeof me.coins === "number" ? ` · ${esc(tn("{n} coin", "{n} coins", me.coins))}` : ""}${me && typeof me.influence === "number" ? ` · ${esc(tn("{n} influence", "{n} influence", me.influence))}` : ""}</div>
    ${me && !me.alive ? `<div style="color:var(--bad);font-weight:900">${esc(t("You are out"))}</div>` : ""}</div></section>`;
  if (st && st.phase === "playing") {
    html += answerCard(st) + questionCard(st, seat, false) + privateCard(pv, st) + movesCard(pv);
  } else if (!st || !me) {
    html += heldSeatCard(seat);
  }
  return html;
}

/** The open question (CW-8 style: pick every option that applies). ``how.label`` draws an option,
 * ``how.hint`` says what to tap (a game view passes its own words), ``how.extra`` is HTML a game view
 * puts under the quick answer (a "withdraw" of the last input). */
function questionCard(st, seat, host, how = {}) {
  const q = (st.questions || [])[0];
  if (!q) return "";
  const mine = host || (q.seats || []).includes(seat);
  if (!mine) {
    return `<section class="card"><h2>${esc(t("Waiting for an answer"))}</h2><p>${esc(t("{who} must answer:", { who: (q.seats || []).map(nameOf) }))} <b>${how.text ? how.text(q.text, q) : esc(q.text)}</b></p>${how.extra || ""}</section>`;
  }
  const sel = S.sel[q.id] || [];
  const chips = (q.options || []).map((c) => `<button class="chip" data-action="pick" data-q="${esc(q.id)}" data-coin="${esc(c)}" aria-pressed="${sel.includes(c)}">${how.label ? how.label(c) : `<span>${esc(c)}</span>`}</button>`).join("");
  return `<section class="card question" id="question" data-question="${esc(q.id)}"><h2>${how.text ? how.text(q.text, q) : esc(q.text)}</h2>
    <p class="muted small">${esc(t("{hint}, then send.", { hint: (how.hint || t("Tap every answer that applies")) + (q.multi === false ? t(" (one)") : "") }))} ${esc(host ? t("Answering as the host.") : t("The table cannot see this by itself."))}</p>
    ${q.kind === "flown" ? `<button class="btn good wide" data-action="answer" data-none="1" data-q="${esc(q.id)}" data-host="${host ? 1 : 0}" id="answer-none">${esc(t("Nobody flew"))}</button>` : ""}${how.extra || ""}
    <div class="chips">${chips}</div>
    <button class="btn primary wide" data-action="answer" data-q="${esc(q.id)}" data-host="${host ? 1 : 0}" id="send-answer">${esc(sel.length ? t("Send answer ({n})", { n: sel.length }) : t("None of them — send"))}</button></section>`;
}

/** Buttons for the seat's legal moves: those that name a ``move`` (card games: docs/architecture.md
 * "move"), and those of the game's own input types that phones may send (its describe()'s
 * ``phone_inputs``), each sent exactly as listed. */
function movesCard(pv) {
  const own = (GameViews.describe(S.state && S.state.game) || {}).phone_inputs || [];
  const label = (m) => Object.entries(m).map(([k, v]) => (k === "type" ? t(String(v).replace(/_/g, " ")) : `${t(k.replace(/_/g, " "))} ${v}`)).join(" · ");
  const parts = legalMoves(pv).flatMap((m) => (m.move ? cardMoveButtons(m) : own.includes(m.type)
    ? [`<button class="btn wide" data-action="game-input" data-body="${esc(JSON.stringify(m))}">${esc(label(m))}</button>`] : []));
  return parts.length ? `<section class="card" id="moves"><h2>${esc(t("Your moves"))}</h2><div class="moves">${parts.join("")}</div></section>` : "";
}

function cardMoveButtons(m) {
  const label = (s) => { const w = String(s).replace(/_/g, " "); return t(w.charAt(0).toUpperCase() + w.slice(1)); };
  const btn = (text, args) => `<button class="btn wide" data-action="move" data-move="${esc(m.move)}" data-args="${esc(JSON.stringify(args))}">${esc(text)}</button>`;
  if (typeof m.count === "number" && Array.isArray(m.cards)) {
    // choose exactly `count` of the cards (cards going back to a deck); a pool may hold duplicates.
    const key = "move:" + m.move, sel = S.sel[key] || [];
    const chips = m.cards.map((c, i) => `<button class="chip text" data-action="pick-card" data-key="${esc(key)}" data-index="${i}" aria-pressed="${sel.includes(i)}">${esc(hook("cardLabel", c) || label(c))}</button>`).join("");
    const args = { cards: sel.map((i) => m.cards[i]) };
    return [`<div><p class="muted small">${esc(label(m.move))}: ${esc(tn("pick the {n} card to give back", "pick the {n} cards to give back", m.count))}</p><div class="chips">${chips}</div>
      <button class="btn primary wide" data-action="move" data-move="${esc(m.move)}" data-args="${esc(JSON.stringify(args))}" ${sel.length === m.count ? "" : "disabled"}>${esc(label(m.move))} (${sel.length}/${m.count})</button></div>`];
  }
  if (Array.isArray(m.targets) && m.targets.length) return m.targets.map((to) => btn(`${label(m.move)} → ${nameOf(to)}`, { target: to }));
  if (Array.isArray(m.cards) && m.cards.length) return m.cards.map((c) => btn(`${label(m.move)}: ${label(c)}`, { card: c }));
  if (Array.isArray(m.claims) && m.claims.length) return m.claims.map((c) => btn(t("{move} as {claim}", { move: label(m.move), claim: label(c) }), { claim: c }));
  return [btn(label(m.move), {})];
}

function privateCard(pv, st) {
  if (!pv) return "";
  const skip = new Set(["legal", "seat", ...Object.keys(st || {})]);
  const extra = Object.keys(pv).filter((k) => !skip.has(k));
  if (!extra.length) return "";
  const rows = extra.map((k) => {
    const v = pv[k];
    if (Array.isArray(v) && v.every((x) => typeof x === "string")) {
      return `<h2>${esc(k === "hand" ? t("Your hand") : t(k.replace(/_/g, " ")))}</h2><div class="hand">${v.map((c) => `<div class="card-face">${esc(t(c.replace(/_/g, " ")))}</div>`).join("") || `<p class='muted'>${esc(t("none"))}</p>`}</div>`;
    }
    return `<p><b>${esc(t(k.replace(/_/g, " ")))}:</b> ${esc(typeof v === "object" ? JSON.stringify(v) : v)}</p>`;
  }).join("");
  return `<section class="card" id="private"><p class="muted small">${esc(t("Only your phone sees this."))}</p>${rows}</section>`;
}

function playersCard(st) {
  const scores = scoresRow(st);
  const items = players().map((p) => {
    const turn = st.turn && st.turn.seat === p.seat;
    const tags = [turn ? `<span class="tag turn">${esc(t("turn"))}</span>` : "", !p.alive ? `<span class="tag out">${esc(t("out"))}</span>` : "",
      p.team ? `<span class="tag">${esc(t("team {team}", { team: teamName(p.team) }))}</span>` : "", (p.influence !== undefined) ? `<span class="tag">${esc(p.influence)} ♥</span>` : "",
      (p.coins !== undefined && typeof p.coins === "number") ? `<span class="tag">${esc(p.coins)} ¢</span>` : ""].join("");
    return `<li class="${turn ? "active" : ""}">${playerBadge(p, !p.alive)}<span class="name">${esc(displayName(p.name))}</span>${tags}</li>`;
  }).join("");
  return `<section class="card" id="players">${scores}<ul class="players">${items}</ul></section>`;
}

/** A player's badge in the lists: the game's own (``badge`` hook: Football's team badge), else the seat's coin. */
function playerBadge(p, dead) { return hook("badge", p, dead) || coinBadge(p.seat, { dead }); }

/** Log entries of the game on the table: from its "New game" line on (docs/phones.md: lines of
 * earlier games do not mix in); all of them when the history does not reach back to it. */
function currentLog() {
  const i = S.log.findIndex(isGameStart);
  return i >= 0 ? S.log.slice(0, i + 1) : S.log;
}
function isGameStart(e) {
  return (e.says || []).some((m) => m && typeof m.id === "string" && m.id.startsWith("New game:"))
    || (e.lines || []).some((l) => l.startsWith("New game:"));
}
/** The log entry that started the game on the table, or null when the history does not reach it. */
function gameStart() { return S.log.find(isGameStart) || null; }

/** "table1" -> "Table 1", "kitchen" -> "Table kitchen": never "Table table1". */
function tableTitle(id) {
  const rest = String(id || "").replace(/^table[-_ ]?/i, "");
  return rest ? t("Table {name}", { name: rest }) : t("Game table");
}

/** Each team's score: "Team A 3". */
function scoresRow(st) {
  return st.scores ? `<div class="scores">${Object.entries(st.scores).map(([k, v]) => `<div class="score">${esc(t("Team {team}", { team: teamName(k) }))}<b>${esc(v)}</b></div>`).join("")}</div>` : "";
}

/** Rule numbers ("(CW-6.4)") are for the curious: the players' log hides them unless asked. */
const RULE_REF = /\s*\((?:CW|CP|BG|SG)-[0-9.]+[a-z]?(?:,\s*(?:CW|CP|BG|SG)-[0-9.]+[a-z]?)*\)/g;
/** A text of the games (a mode's summary, an option) without its rule numbers: those stay out of
 * the players' view. */
const DOC_REF = /\s*\((?:[a-z_-]+\.md|CW|CP|BG|SG)\)/g;  // a summary's pointer to its rules file, "(SG)": the referee's references
function noRules(text) { return String(text || "").replace(RULE_REF, "").replace(DOC_REF, ""); }
function logCard() {
  const lines = currentLog().flatMap((e) => entryLines(e).reverse()), rules = !!S.showRules;
  const shown = lines.slice(0, 40).map((l) => `<li>${esc(rules ? l : noRules(l))}</li>`).join("");
  return `<section class="card" id="log-card"><h2>${esc(t("What happened"))}</h2><ul class="log" id="log">${shown || `<li class='muted'>${esc(t("Nothing yet."))}</li>`}</ul>
    <label class="toggle small muted" style="margin-top:8px"><input type="checkbox" data-action="show-rules" id="show-rules" ${rules ? "checked" : ""}> ${esc(t("Details: show rule numbers"))}</label></section>`;
}

/** The end of a game: who won, how everyone ended, and (for the host) the same game again. */
function gameOverCard(st) {
  if (!st || st.phase !== "over") return "";
  const win = new Set(Array.isArray(st.winner) ? st.winner : []);
  const scores = scoresRow(st);
  const rows = players().map((p) => `<li>${playerBadge(p, !p.alive && !win.has(p.seat))}<span class="name">${esc(displayName(p.name))}</span>
      ${win.has(p.seat) ? `<span class="tag turn">${esc(t("winner"))}</span>` : p.alive === false ? `<span class="tag out">${esc(t("out"))}</span>` : ""}${p.team ? `<span class="tag">${esc(t("team {team}", { team: teamName(p.team) }))}</span>` : ""}${p.identity ? `<span class="tag">${esc(label(p.identity))}</span>` : ""}</li>`).join("");
  const rematch = S.me.host
    ? `<button class="btn primary wide" data-action="rematch" id="rematch">${esc(t("↻ Rematch: same players, same game"))}</button>`
    : `<p class="muted small">${esc(t("The host can start a rematch."))}</p>`;
  return `<section class="card game-over" id="game-over"><h2>🏁 ${esc(winnerText(st.winner))}</h2>${scores}<ul class="players">${rows}</ul>${rematch}</section>`;
}

/** The finished game again: same game, mode, players (names, teams, bots) and turn order. */
function rematchBody(st) {
  const g = lobbyGames()[st.game] || {}, mode = (g.modes || []).find((m) => m.mode === st.mode) || {};
  const roles = mode.seat_roles || null, teams = mode.teams && !(roles && roles.teams_from_roles);
  const bots = (S.lobby && S.lobby.bots) || {};
  const order = Array.isArray(st.order) && st.order.length === players().length ? st.order.slice() : players().map((p) => p.seat);
  return { type: "new_game", game: st.game, ...(st.mode ? { mode: st.mode } : {}), order, options: windowLengths(mode, (S.lobby && S.lobby.game === st.game && S.lobby.options) || {}),
    players: players().map((p) => Object.assign({ seat: p.seat, name: p.name }, teams && p.team ? { team: p.team } : {}, bots[p.seat] ? { bot: true } : {})) };
}

function tableView() {
  const st = S.state, view = gameView();
  if (view === LOADING) return loadingCard() + logCard();
  const own = st && view && view.tableView ? view.tableView(st) : null;
  if (own != null) return own + logCard();
  let html = turnBanner(true);
  if (st) {
    const q = (st.questions || [])[0];
    html += answerCard(st);
    if (q) html += `<section class="card"><p>❓ ${esc(I18N.show((q.seats || []).map(nameOf)))}: <b>${esc(q.text)}</b></p></section>`;
    html += playersCard(st);
  }
  return html + logCard() + joinQrCard();
}
/** The join QR code on the table's own screen (its link carries the join code). */
function joinQrCard() {
  const url = S.info ? S.info.join_url || "" : "";
  if (!url.includes("?code=")) return "";
  return `<section class="card qr"><img src="/qr.svg" alt="${esc(t("QR code to join this table"))}" id="qr"><div><h2>${esc(t("Scan to join"))}</h2>
    <p class="url" id="join-url">${esc(url)}</p></div></section>`;
}

/* ---------- host ---------- */
/* Host login: a PIN lockout the table's own screen lifts, and the host link's QR
 * code, shown on the table's own screen only (the panel sends host_link to loopback alone). */
function hostLoginCards() {
  const info = S.info || {}, lock = info.host_login;
  let html = "";
  if (lock && lock.locked) {
    html += `<section class="card" id="pin-lockout"><p><b>${esc(t("PIN login is locked after {n} wrong PINs from {m} addresses.", { n: lock.wrong_pins, m: lock.addresses }))}</b></p>
      <button class="btn danger wide" data-action="lift-lockout" id="lift-lockout">${esc(t("Unlock PIN login"))}</button></section>`;
  }
  if (info.host_link && !S.me.host) {
    html += `<section class="card qr"><img src="/qr.svg?of=host" alt="${esc(t("QR code to host this table"))}" id="host-qr"><div><h2>${esc(t("Scan to host"))}</h2>
      <p class="muted">${esc(t("Shown on the table's own screen only."))}</p></div></section>`;
  }
  return html;
}
/* The venue offers this table a tournament match (hardware_docs/multi_table.md "Tournaments"): one tap
   starts it under the offer's own id, so a second tap, or the table's auto-start, starts no second game. */
function offerCard() {
  const o = S.offer;
  if (!o || (S.state && S.state.phase === "playing")) return "";
  const players = listOf((o.players || []).map((p) => p.name));
  return `<section class="card" id="venue-offer"><h2>${esc(t("Match offered by the venue"))}</h2>
    <p>${esc(t("{tournament}, match {n}: {game} with {players}", { tournament: o.tournament || "", n: o.match ?? "", game: o.game, players }))}</p>
    <button class="btn primary wide" data-action="start-offer" id="start-offer">${esc(t("Start this match"))}</button></section>`;
}

function hostView() {
  const qr = `<section class="card qr"><img src="/qr.svg" alt="${esc(t("QR code to join this table"))}" id="qr"><div><h2>${esc(t("Scan to join"))}</h2>
    <p class="url" id="join-url">${esc(S.info ? S.info.join_url : location.origin + "/join")}</p></div></section>`;
  if (!S.me.host) {
    return qr + hostLoginCards() + `<section class="card"><h2>${esc(t("Host"))}</h2><p class="muted">${esc(t("Enter the table PIN (printed on the table) to start games, undo and answer questions."))}</p>
      <form data-form="unlock" class="stack"><input class="pin" type="password" inputmode="numeric" autocomplete="off" maxlength="8" id="pin" aria-label="${esc(t("Table PIN"))}" placeholder="${esc(t("PIN"))}">
      <button class="btn primary wide" id="unlock">${esc(t("Unlock"))}</button></form></section>`;
  }
  const st = S.state;
  let html = qr + hostLoginCards() + `<p class="small"><a href="/bringup" id="bringup-link" class="tap">${esc(t("Table bring-up: beams, strikers, pairing →"))}</a></p>`;
  if (S.info && S.info.pin_is_default) {
    html += `<section class="card" id="pin-warning"><p><b>${esc(t("The table PIN is 0000."))}</b> ${esc(t("Anyone on this Wi-Fi can unlock the host screen: set {key} in the table's config.", { key: "[panel] pin" }))}</p></section>`;
  }
  html += absentCard() + tableLangCard() + offerCard();
  if (st && st.phase === "playing") {
    const view = gameView();
    const own = view === LOADING ? loadingCard() : view && view.hostView ? view.hostView(st) : null;
    html += own ?? (turnBanner(false) + answerCard(st) + questionCard(st, null, true));
    html += `<section class="card" id="controls"><h2>${esc(t("Game"))}</h2><div class="moves">
      ${hook("hostControls", st) || ""}
      <button class="btn" data-action="undo" id="undo">${esc(t("↶ Undo last input"))}</button>
      <button class="btn danger" data-action="abort" id="abort">${esc(t("Abort game"))}</button></div></section>`;
  } else if (st) {
    html += turnBanner(false) + `<section class="card"><button class="btn" data-action="undo" id="undo">${esc(t("↶ Undo last input"))}</button></section>`;
  }
  html += (st && st.phase === "playing" && !S.lobbyOpen)
    ? `<section class="card"><button class="btn wide" data-action="lobby-open" id="lobby-open">${esc(t("Set up a new game…"))}</button></section>`
    : lobbyCard();
  html += `<section class="card"><h2>${esc(t("Phones"))}</h2>${S.taken.length ? S.taken.map((s) => `<div class="row" style="padding:4px 0">${coinBadge(s)}<span class="grow">${esc(nameOf(s))}</span><button class="btn ghost" data-action="release" data-seat="${s}">${esc(t("Free seat"))}</button></div>`).join("") : `<p class='muted'>${esc(t("No phone holds a seat yet."))}</p>`}
    <p class="muted" style="margin:10px 0 4px">${esc(t("One seat per phone. To let a phone that already has a seat take another (a shared phone):"))}</p>
    <div class="row" id="share-seats">${[1, 2, 3, 4, 5, 6].filter((s) => !S.taken.includes(s)).map((s) => `<button class="btn ghost" data-action="share" data-seat="${s}">${esc(t("Seat {n}", { n: s }))}</button>`).join("")}</div>
    <button class="btn ghost wide" data-action="lock" style="margin-top:10px">${esc(t("Lock host screen"))}</button></section>`;
  return html;
}

/** The language toggle in the bar: the other language, one tap (remembered on this phone). */
function langToggle() {
  const b = $("#lang-toggle"); if (!b) return;
  const other = I18N.lang === "zh" ? "en" : "zh";
  b.dataset.lang = other; b.textContent = I18N.langs[other];
  b.setAttribute("aria-label", t("Language: {lang}", { lang: I18N.langs[other] }));
}

/** The host's table default: what phones read before choosing on the toggle. */
function tableLangCard() {
  const cur = (S.info && S.info.lang) || "";
  const opt = (lang, text) => `<button type="button" data-action="table-lang" data-lang="${lang}" aria-pressed="${cur === lang}" id="table-lang-${lang || "auto"}">${esc(text)}</button>`;
  return `<section class="card" id="table-lang"><h2>${esc(t("Table language"))}</h2><div class="seg">${opt("zh", "中文")}${opt("en", "English")}${opt("", t("Each phone's own"))}</div>
    <p class="muted small">${esc(t("Phones read this language until they choose another with the button at the top."))}</p></section>`;
}

/** "some_word" -> "Some word": a game's own word, readable. */
function label(word) { const w = String(word).replace(/_/g, " "); return t(w.charAt(0).toUpperCase() + w.slice(1)); }

/** The games the table offers: the daemon's retained ``games`` topic, as the panel last saw it. */
function lobbyGames() { return Object.keys(S.games).length ? S.games : ((S.info && S.info.games) || {}); }

function lobbyState() {
  if (S.lobby) return S.lobby;
  const gameNames = Object.keys(lobbyGames());
  if (!gameNames.length) return null;
  const game = gameNames[0];
  const names = {}; players().forEach((p) => { names[p.seat] = p.name; });
  // the seats phones hold play (at least two seats ticked); otherwise seats 1-3
  const held = S.taken.length ? Object.fromEntries(S.taken.map((s) => [s, true])) : {};
  const include = Object.keys(held).length >= 2 ? held : Object.assign({ 1: true, 2: true }, Object.keys(held).length ? held : { 3: true });
  S.lobby = { game, mode: ((lobbyGames()[game].modes || [])[0] || {}).mode, include,
    names, teams: {}, teamMode: "random", orderMode: "random", order: [1, 2, 3, 4, 5, 6], options: {},
    bots: {}, roles: {}, rolesMode: "random", error: "", split: "0" };
  return S.lobby;
}

function lobbyCard() {
  const L = lobbyState();
  if (!L) return `<section class="card"><p>${esc(t("Waiting for the table to list its games…"))}</p></section>`;
  const games = lobbyGames(), g = games[L.game] || { modes: [] };
  const modes = g.modes || [];
  const mode = modes.find((m) => m.mode === L.mode) || modes[0] || { options: {}, players: [], teams: false };
  const seg = (key, value, text) => `<button type="button" data-action="lobby-set" data-key="${key}" data-value="${value}" aria-pressed="${L[key] === value}">${text}</button>`;
  const included = [1, 2, 3, 4, 5, 6].filter((s) => L.include[s]);
  const roles = mode.seat_roles || null, pickTeams = mode.teams && !(roles && roles.teams_from_roles);
  const splits = roleSplits(roles, included.length, L);
  const seatExtra = (s) => {
    if (roles && L.rolesMode === "manual") {
      return `<select data-lobby="role" data-seat="${s}" aria-label="${esc(t("Role of seat {n}", { n: s }))}">${roles.values.map((r) => `<option value="${esc(r)}" ${(L.roles[s] || roles.values[0]) === r ? "selected" : ""}>${esc(label(r))}</option>`).join("")}</select>`;
    }
    if (pickTeams && L.teamMode === "manual") {
      return `<select data-lobby="team" data-seat="${s}" aria-label="${esc(t("Team for seat {n}", { n: s }))}">${["A", "B"].map((team) => `<option ${L.teams[s] === team ? "selected" : ""}>${team}</option>`).join("")}</select>`;
    }
    return "<span></span>";
  };
  const seatRows = [1, 2, 3, 4, 5, 6].map((s) => `<div class="lobby-seat">
      <label class="toggle">${coinBadge(s)}<input type="checkbox" data-lobby="include" data-seat="${s}" ${L.include[s] ? "checked" : ""} aria-label="${esc(t("Seat {n} plays", { n: s }))}">${S.taken.includes(s) ? `<span class="joined" title="${esc(t("a phone holds this seat"))}" id="joined-${s}">📱</span>` : ""}</label>
      <input type="text" data-lobby="name" data-seat="${s}" value="${esc(L.names[s] || "")}" placeholder="${esc(L.bots[s] ? t("Bot {n}", { n: s }) : venueName(s) || t("Seat {n} name", { n: s }))}" list="venue-players" maxlength="40" aria-label="${esc(t("Name for seat {n}", { n: s }))}" id="name-${s}">
      ${seatExtra(s)}
      <button type="button" class="bot-toggle" data-action="lobby-bot" data-seat="${s}" id="bot-${s}" aria-pressed="${!!L.bots[s]}" title="${esc(t("A bot plays this seat (virtual table)"))}" aria-label="${esc(t("Bot plays seat {n}", { n: s }))}">🤖</button>
    </div>`).join("") + `<datalist id="venue-players">${(S.venuePlayers || []).map((p) => `<option value="${esc(p.name)}"></option>`).join("")}</datalist>`;
  const order = L.order.filter((s) => L.include[s]);
  const orderUi = L.orderMode === "manual" ? `<div class="order">${order.map((s, i) => `<button type="button" class="chip" data-action="order-up" data-seat="${s}" aria-label="${esc(t("Move seat {n} earlier", { n: s }))}">${i + 1}. ${coinBadge(s)}${i ? " ↑" : ""}</button>`).join("")}</div>` : "";
  const opts = Object.entries(mode.options || {}).filter(([k]) => !roles || k !== roles.option).map(([k, o]) => {
    const id = `opt-${esc(k)}`, value = L.options[k] ?? JSON.stringify(o.default), title = esc(t(k.replace(/_/g, " ")));
    const desc = `<span class="muted small">${esc(o.description ? noRules(t(o.description)) : "")}</span>`;
    if (typeof o.beginner === "number") return windowOption(k, o, L);
    if (typeof o.default === "boolean") {
      return `<label class="toggle field" for="${id}"><input type="checkbox" id="${id}" data-lobby="option-bool" data-key="${esc(k)}" ${value === "true" ? "checked" : ""}> ${title}</label>${desc}`;
    }
    const type = typeof o.default === "number" ? "number" : "text";
    // an option without a default (null) stays empty, and unsent, until the host types a value
    const shown = L.options[k] ?? (o.default === null ? "" : typeof o.default === "string" ? o.default : JSON.stringify(o.default));
    return `<label class="field" for="${id}">${title} ${desc}</label><input type="${type}" id="${id}" data-lobby="option" data-key="${esc(k)}" value="${esc(type === "number" && o.default !== null ? value : shown)}" ${o.default === null ? `placeholder="${esc(t("none"))}"` : ""}>`;
  }).join("");
  const optsBlock = opts ? `<label class="field">${esc(t("Options"))}</label>${opts}` : "";
  const counts = listOf(mode.players || []);
  const okCount = !mode.players || !mode.players.length || mode.players.includes(included.length);
  return `<section class="card" id="lobby"><h2>${esc(t("New game"))}</h2>
    <label class="field" for="game">${esc(t("Game"))}</label><select id="game" data-lobby="game">${Object.entries(games).map(([k, v]) => `<option value="${esc(k)}" ${k === L.game ? "selected" : ""}>${esc(t(v.title || k))}</option>`).join("")}</select>
    ${modes.length ? `<label class="field">${esc(t("Mode"))}</label><div class="seg modes" role="group" aria-label="${esc(t("Mode"))}">${modes.map((m) => seg("mode", m.mode, esc(t(m.title || m.mode)))).join("")}</div>
      <p class="muted small">${esc(mode.summary ? noRules(t(mode.summary)) : "")}${counts ? ` · ${esc(t("{counts} players", { counts }))}` : ""} · <a href="/rules/${esc(L.game)}/${esc(mode.mode || "")}" id="lobby-rules" class="tap">${esc(t("How to play"))}</a></p>` : ""}
    <button type="button" class="btn wide" data-action="learn-start" data-game="${esc(L.game)}" data-mode="${esc(mode.mode || "")}" id="lobby-learn">🎓 ${esc(t("First time? A guided game of this mode against bots"))}</button>
    <label class="field">${esc(t("Players"))} <span class="muted small">${esc(t("(🤖: a bot plays the seat)"))}</span></label>${seatRows}
    ${pickTeams ? `<label class="field">${esc(t("Team split"))}</label><div class="seg">${seg("teamMode", "random", esc(t("Random")))}${seg("teamMode", "manual", esc(t("Manual")))}</div>` : ""}
    ${roles ? `<label class="field">${esc(label(roles.option))}</label><div class="seg">${seg("rolesMode", "random", esc(t("Drawn at random")))}${seg("rolesMode", "manual", esc(t("Chosen per seat")))}</div>` : ""}
    ${splits.length > 1 ? `<label class="field">${esc(t("Roles"))}</label><div class="seg">${splits.map((sp, i) => seg("split", String(i), esc(t(sp.title)))).join("")}</div>` : ""}
    <label class="field">${esc(t("Turn order"))}</label><div class="seg">${seg("orderMode", "random", esc(t("Random")))}${seg("orderMode", "manual", esc(t("Manual")))}</div>${orderUi}
    ${optsBlock}
    <button class="btn primary wide" data-action="start" id="start" style="margin-top:14px" ${okCount ? "" : "disabled"}>${esc(tn("Start {game} · {n} player", "Start {game} · {n} players", included.length, { game: t(g.title || L.game) }))}</button>
    ${okCount ? "" : `<p class="small" style="color:var(--bad);font-weight:800">${esc(t("This mode is for {counts} players.", { counts }))}</p>`}
    ${L.error ? `<p class="small lobby-error" id="lobby-error" role="alert">${esc(t("The table did not start this game: {error}", { error: L.error }))}</p>` : ""}</section>`;
}

/** A window's length (docs/phones.md): the game's describe() gives its regular ``default`` and a
 * ``beginner`` length; the lobby starts at the beginners' one (the host picks either, or types). */
function windowOption(k, o, L) {
  const id = `opt-${esc(k)}`, value = L.options[k] ?? String(o.beginner);
  const pick = (v, text) => `<button type="button" data-action="lobby-window" data-key="${esc(k)}" data-value="${esc(v)}" aria-pressed="${String(v) === String(value)}">${esc(text)}</button>`;
  return `<label class="field" for="${id}">${esc(t("Answer window (seconds)"))} <span class="muted small">${esc(o.description ? noRules(t(o.description)) : "")}</span></label>
    <div class="seg window-length" role="group" aria-label="${esc(t("Answer window (seconds)"))}">${pick(o.beginner, t("Beginners · {n} s", { n: o.beginner }))}${pick(o.default, t("Regular · {n} s", { n: o.default }))}</div>
    <input type="number" id="${id}" data-lobby="option" data-key="${esc(k)}" value="${esc(value)}" min="1" max="3600" aria-label="${esc(t("Answer window (seconds)"))}">`;
}
/** The window lengths to send with a new game: what the host chose, else the beginners' length. */
function windowLengths(mode, chosen) {
  const out = {};
  for (const [k, o] of Object.entries((mode && mode.options) || {})) {
    if (typeof o.beginner !== "number") continue;
    const v = Number(chosen[k]);
    out[k] = chosen[k] != null && String(chosen[k]).trim() !== "" && Number.isFinite(v) ? v : o.beginner;
  }
  return out;
}

function newGameBody() {
  const L = S.lobby, g = lobbyGames()[L.game] || {}, mode = (g.modes || []).find((m) => m.mode === L.mode) || {};
  const seats = [1, 2, 3, 4, 5, 6].filter((s) => L.include[s]);
  const roles = mode.seat_roles || null, pickTeams = mode.teams && !(roles && roles.teams_from_roles);
  let teams = {};
  if (pickTeams) {
    if (L.teamMode === "random") shuffle(seats).forEach((s, i) => { teams[s] = i % 2 ? "B" : "A"; });
    else seats.forEach((s) => { teams[s] = L.teams[s] || "A"; });
  }
  // a game that plays around the physical ring (describe() free_seating: false) keeps the seats' order
  const order = g.free_seating === false ? seats : L.orderMode === "random" ? shuffle(seats) : L.order.filter((s) => L.include[s]);
  const options = windowLengths(mode, L.options);
  for (const [k, v] of Object.entries(L.options)) {
    if (String(v).trim() === "") continue;  // left empty: the game's default
    try { options[k] = JSON.parse(v); } catch { options[k] = v; }
  }
  const split = roleSplits(roles, seats.length, L)[Number(L.split)];
  if (split && Number(L.split) > 0 && options[roles.option] == null) {  // the first split is the engine's own draw
    const drawn = shuffle(seats), out = {};
    for (const [role, n] of Object.entries(split.roles)) for (const s of drawn.splice(0, n)) out[String(s)] = role;
    options[roles.option] = out;
  }
  if (roles && L.rolesMode === "manual") options[roles.option] = Object.fromEntries(seats.map((s) => [String(s), L.roles[s] || roles.values[0]]));
  // a game's view may add what its engine needs to honour the lobby (the chosen first player, say)
  const view = GameViews.of(L.game);
  if (view && view !== LOADING && typeof view.newGame === "function") view.newGame({ order, options }, { manualOrder: L.orderMode === "manual" });
  return { type: "new_game", game: L.game, mode: L.mode, order, options,
    players: seats.map((s) => Object.assign({ seat: s, name: (L.names[s] || "").trim() || (!L.bots[s] && venueName(s)) || (L.bots[s] ? t("Bot {n}", { n: s }) : t("Seat {n}", { n: s })) },
      pickTeams ? { team: teams[s] } : {}, L.bots[s] ? { bot: true } : {})) };
}

/** The ways a mode's roles may split for ``n`` players (describe()'s ``seat_roles.splits``, the
 * engine's own draw first), when the host has a choice and does not set each seat's role. */
function roleSplits(roles, n, L) {
  const splits = (roles && roles.splits && roles.splits[String(n)]) || [];
  return splits.length > 1 && L.rolesMode !== "manual" ? splits : [];
}

/* ---------- actions ---------- */
async function act(el) {
  const a = el.dataset.action;
  if (a === "claim") {
    const seat = +el.dataset.seat;
    if (S.me.seat === seat) { go("/seat"); return; }
    // the join code of the table's QR code; the table's own screen and the host need none
    // a phone sent from the venue board brings a seat ticket (hardware_docs/multi_table.md): it sits as its profile
    const ticket = sessionStorage.getItem("gt_venue_ticket");
    const d = await post("/api/seat/claim", Object.assign({ seat }, S.joinCode ? { code: S.joinCode } : {}, ticket ? { venue_ticket: ticket } : {}));
    if (d.ok) { S.me.seat = seat; connect(); go("/seat"); }
  } else if (a === "leave") {
    if (await ask(t("Leave your seat? Another phone may take it."), t("Leave"))) { const d = await post("/api/seat/leave"); if (d.ok) { S.me.seat = null; S.priv = null; connect(); go("/join"); } }
  } else if (a === "pick") {
    const q = el.dataset.q, c = el.dataset.coin, sel = new Set(S.sel[q] || []);
    const question = ((S.state && S.state.questions) || []).find((x) => x.id === q);
    if (sel.has(c)) sel.delete(c); else { if (question && question.multi === false) sel.clear(); sel.add(c); }
    S.sel[q] = [...sel]; render();
  } else if (a === "pick-card") {
    const key = el.dataset.key, i = +el.dataset.index, sel = new Set(S.sel[key] || []);
    if (sel.has(i)) sel.delete(i); else sel.add(i);
    S.sel[key] = [...sel].sort((x, y) => x - y); render();
  } else if (a === "answer") {
    const q = el.dataset.q, host = el.dataset.host === "1";
    const d = await post(host ? "/api/host/cmd" : "/api/cmd", { type: "answer", question: q, value: el.dataset.none ? [] : S.sel[q] || [] });
    if (d.ok) { toast(t("Answer sent"), true); delete S.sel[q]; }
  } else if (a === "move") {
    const d = await post("/api/cmd", { type: "move", move: el.dataset.move, args: JSON.parse(el.dataset.args || "{}") });
    if (d.ok) { toast(t("Done"), true); delete S.sel["move:" + el.dataset.move]; }
  } else if (a === "game-input") {
    const d = await post("/api/cmd", JSON.parse(el.dataset.body || "{}")); if (d.ok) toast(t("Done"), true);
  } else if (a === "host-window") {
    const d = await post("/api/host/cmd", { type: el.dataset.type }); if (d.ok) toast(el.dataset.type === "pause" ? t("Countdown paused") : t("Countdown resumed"), true);
  } else if (a === "start-offer") {
    const d = await post("/api/host/offer", { offer: S.offer && S.offer.offer }); if (d.ok) toast(t("Match started"), true);
  } else if (a === "undo") {
    const d = await post("/api/host/cmd", { type: "undo" }); if (d.ok) toast(t("Undone"), true);
  } else if (a === "abort") {
    if (await ask(t("Abort this game for everyone?"), t("Abort"))) await post("/api/host/cmd", { type: "abort" });
  } else if (a === "seat-to-bot") {
    const d = await post("/api/host/cmd", { type: "seat_to_bot", seat: +el.dataset.seat });
    if (d.ok) { S.absentOk = [...(S.absentOk || []), +el.dataset.seat]; toast(t("A bot plays the seat now"), true); }
  } else if (a === "skip-seat") {
    const d = await post("/api/host/cmd", { type: "skip_seat", seat: +el.dataset.seat });
    if (d.ok) toast(t("Skipped"), true);
  } else if (a === "waited-wait") {
    S.waitedSnooze = Date.now() / 1000 + (S.skew || 0); render();
  } else if (a === "absent-wait") {
    S.absentOk = [...(S.absentOk || []), +el.dataset.seat]; render();
  } else if (a === "release") {
    await post("/api/host/release", { seat: +el.dataset.seat });
  } else if (a === "share") {
    const d = await post("/api/host/share", { seat: +el.dataset.seat });
    if (d.ok) toast(t("Seat {n} may now be taken by a phone that already has a seat", { n: d.seat }), true);
  } else if (a === "lift-lockout") {
    const d = await post("/api/host/lift");
    if (d.ok) { toast(t("PIN login unlocked"), true); await loadInfo(); render(); }
  } else if (a === "lock") {
    await post("/api/host/lock"); S.me.host = false; connect(); render();
  } else if (a === "lobby-set") {
    S.lobby[el.dataset.key] = el.dataset.value; S.lobby.error = "";
    if (el.dataset.key === "mode") { S.lobby.options = {}; S.lobby.roles = {}; S.lobby.split = "0"; }
    render();
  } else if (a === "lobby-window") {
    S.lobby.options[el.dataset.key] = el.dataset.value; S.lobby.error = ""; render();
  } else if (a === "lobby-bot") {
    const s = +el.dataset.seat; S.lobby.bots[s] = !S.lobby.bots[s]; if (S.lobby.bots[s]) S.lobby.include[s] = true; render();
  } else if (a === "order-up") {
    const L = S.lobby, s = +el.dataset.seat, vis = L.order.filter((x) => L.include[x]), i = vis.indexOf(s);
    if (i > 0) { const prev = vis[i - 1], ai = L.order.indexOf(prev), bi = L.order.indexOf(s); [L.order[ai], L.order[bi]] = [L.order[bi], L.order[ai]]; }
    render();
  } else if (a === "start") {
    if (!(await fillSeats(S.lobby))) return;
    const d = await post("/api/host/cmd", newGameBody());
    S.lobby.error = d.ok ? "" : (d.error || t("refused"));
    if (d.ok) { toast(t("Game started"), true); S.sel = {}; S.lobbyOpen = false; render(); window.scrollTo(0, 0); } else render();
  } else if (a === "rematch") {
    const d = await post("/api/host/cmd", rematchBody(S.state)); if (d.ok) { toast(t("Rematch started"), true); S.sel = {}; }
  } else if (a === "show-rules") {
    S.showRules = !S.showRules; el.blur(); render();
  } else if (a === "card-info") {
    cardInfo(el.dataset.cardTitle, el.dataset.cardText, el.dataset.cardSub);
  } else if (a === "lang") {
    await I18N.choose(el.dataset.lang); render();
  } else if (a === "table-lang") {
    const d = await post("/api/host/lang", { lang: el.dataset.lang });
    if (d.ok) {
      I18N.tableDefault = d.lang; if (S.info) S.info.lang = d.lang;
      if (!I18N.chosen()) await I18N.load();  // this phone follows the table too, unless it chose
      toast(t("Table language set"), true); render();
    }
  } else if (a === "learn-start") {
    await Learn.start(el.dataset.game, el.dataset.mode || null);
  } else if (a.startsWith("coach-")) {
    await Learn.act(a);
  } else if (a === "lobby-open") {
    S.lobbyOpen = true; render(); const l = $("#lobby"); if (l) l.scrollIntoView();
  } else {
    const view = gameView(), own = view && view !== LOADING && view.actions && view.actions[a];
    if (own) await own(el);
  }
}

function lobbyInput(el) {
  const L = S.lobby, k = el.dataset.lobby, s = +el.dataset.seat;
  if (k === "include") { L.include[s] = el.checked; L.touched = true; }
  else if (k === "name") L.names[s] = el.value;
  else if (k === "team") L.teams[s] = el.value;
  else if (k === "role") L.roles[s] = el.value;
  else if (k === "option") L.options[el.dataset.key] = el.value;
  else if (k === "option-bool") L.options[el.dataset.key] = el.checked ? "true" : "false";
  else if (k === "game") { L.game = el.value; L.mode = ((((lobbyGames()[L.game] || {}).modes) || [])[0] || {}).mode; L.options = {}; L.split = "0"; }
  if (k !== "name" && k !== "option") { el.blur(); render(); }
}

function go(path) { if (location.pathname !== path) history.pushState(null, "", path); render(); window.scrollTo(0, 0); }

/* ---------- wiring ---------- */
document.addEventListener("click", (e) => {
  const el = e.target.closest("[data-action]");
  if (el && !el.disabled) { e.preventDefault(); act(el); return; }
  const a = e.target.closest("a[href^='/']");
  if (a && !e.metaKey && !e.ctrlKey) { e.preventDefault(); go(a.getAttribute("href")); }
});
document.addEventListener("submit", async (e) => {
  const f = e.target.closest("[data-form=unlock]"); if (!f) return;
  e.preventDefault();
  const pin = $("#pin").value; $("#pin").blur();
  const d = await post("/api/host/unlock", { pin });
  if (d.ok) { S.me.host = true; toast(t("Host unlocked"), true); await loadInfo(); connect(); render(); } else { $("#pin") && ($("#pin").value = ""); }
});
document.addEventListener("change", (e) => { const el = e.target.closest("[data-lobby]"); if (el) lobbyInput(el); });
document.addEventListener("input", (e) => { const el = e.target.closest("[data-lobby=name],[data-lobby=option]"); if (el) lobbyInput(el); });
document.addEventListener("focusout", () => { setTimeout(() => { if (S.pendingRender) render(); }, 0); });
window.addEventListener("popstate", render);
// Countdowns tick locally from the daemon's deadline, corrected by the panel's clock (S.skew).
setInterval(() => {
  const now = Date.now() / 1000 + (S.skew || 0);
  for (const el of document.querySelectorAll("[data-deadline]")) {
    const left = Math.max(0, Math.ceil(+el.dataset.deadline - now));
    el.textContent = el.dataset.total ? Math.min(+el.dataset.total, left) : left;  // never more than the window lasts
  }
  hook("tick", now);
}, 250);

/* The venue's players (hardware_docs/multi_table.md "Players known at every table"): the host's lobby
   offers their names, and a seat whose phone brought a venue seat ticket is named after its profile. */
async function loadVenue() {
  const v = S.info && S.info.venue;
  if (!v) return;
  S.venueSeats = v.seats || {};
  try { S.venuePlayers = await (await fetch(v.url + "/api/profiles", { credentials: "omit" })).json(); } catch { S.venuePlayers = []; }
}
function venueName(s) {
  const id = (S.venueSeats || {})[s], p = (S.venuePlayers || []).find((x) => x.id === id);
  return p ? p.name : "";
}

async function loadInfo() {
  // the panel's clock, read halfway through the request (the answer's own trip would otherwise add
  // its latency to every countdown: a 30 s window shown as 31 s on a slow network)
  const sent = Date.now();
  try { S.info = await (await fetch("/api/info", { credentials: "same-origin" })).json(); } catch { S.info = null; }
  if (S.info && typeof S.info.now === "number") S.skew = S.info.now - (sent + Date.now()) / 2000;
}

// The join code rotates (web_panel/security.py JoinCodes): the QR code shown here follows it.
setInterval(async () => {
  const qr = $("#qr");
  if (!qr) return;
  await loadInfo();
  if (S.info) { qr.src = `/qr.svg?t=${Date.now()}`; const u = $("#join-url"); if (u) u.textContent = S.info.join_url; }
}, 60_000);

(async function start() {
  await loadInfo();
  I18N.tableDefault = S.info && S.info.lang;
  await I18N.load();
  const code = new URLSearchParams(location.search).get("code");  // scanned from the table's QR code
  if (code) { sessionStorage.setItem("gt_join_code", code); history.replaceState(null, "", location.pathname); }
  S.joinCode = sessionStorage.getItem("gt_join_code") || "";
  // the host link (/host#key=…): the key is in the fragment, never in a request line; used once, then dropped
  const key = new URLSearchParams(location.hash.slice(1)).get("key");
  const ticket = new URLSearchParams(location.hash.slice(1)).get("venue_ticket");  // from the venue board's /profile/ticket
  if (ticket) { sessionStorage.setItem("gt_venue_ticket", ticket); history.replaceState(null, "", location.pathname + location.search); }
  if (key) {
    history.replaceState(null, "", location.pathname);
    if (!cookie("gt_csrf")) await loadInfo();  // (the first answer set the CSRF cookie)
    if ((await post("/api/host/unlock", { key })).ok) { toast(t("Host unlocked"), true); await loadInfo(); }
  }
  await loadVenue();
  if (S.info) { S.me = S.info.me; S.taken = S.info.taken; $("#table-name").textContent = tableTitle(S.info.table); }
  if (route() === "join" && S.me.seat) history.replaceState(null, "", "/seat");
  render(); connect();
})();
