// The venue board: tables live over Server-Sent Events (each frame carries only changed tables),
// the league and a player's history over JSON (gametable/venue/board.py).
"use strict";
const WORDS = JSON.parse(document.getElementById("words").textContent);
const LANG = document.body.dataset.lang;
const FIGURES = ["score", "lives", "hp", "health", "influence", "coins", "cards"];
const w = (key) => WORDS[key] || key;
const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const c of children) node.append(c);
  return node;
};
document.querySelectorAll("[data-word]").forEach((n) => { n.textContent = w(n.dataset.word); });
document.querySelectorAll("[data-placeholder]").forEach((n) => { n.placeholder = w(n.dataset.placeholder); });
let isHost = false;
const other = LANG === "zh" ? "en" : "zh";
const langSwitch = document.getElementById("lang-switch");
langSwitch.textContent = w("language");
langSwitch.href = `${location.pathname}?lang=${other}`;

function winners(winner) {
  if (Array.isArray(winner)) return new Set(winner);
  if (winner && Array.isArray(winner.draw)) return new Set(winner.draw);
  return new Set();
}

function card(t) {
  const node = el("article", {class: `table ${t.online ? "online" : "offline"}`, id: `table-${t.table}`,
                              "data-table": t.table});
  const head = el("h3", {}, el("span", {class: "name"}, t.table),
                  el("span", {class: "status"}, w(t.online ? "online" : "offline")));
  node.append(head);
  const what = t.game ? `${t.game}${t.mode ? " · " + t.mode : ""}` : w("no_game");
  node.append(el("div", {class: "game"}, what));
  const won = winners(t.winner);
  const list = el("ul", {class: "players"});
  for (const p of t.players) {
    const figures = FIGURES.filter((k) => p[k] !== undefined).map((k) => `${w(k)} ${p[k]}`);
    const score = t.scores && (t.scores[p.seat] ?? t.scores[p.team]);
    if (score !== undefined && score !== null && typeof score !== "object") figures.unshift(`${w("score")} ${score}`);
    const cls = [t.turn === p.seat ? "turn" : "", p.alive === false ? "out" : "", won.has(p.seat) ? "won" : ""];
    const label = `${p.name}${p.team ? ` (${w("team")} ${p.team})` : ""}${t.turn === p.seat ? " · " + w("turn") : ""}` +
                  `${won.has(p.seat) ? " · " + w(t.winner && t.winner.draw ? "draw" : "winner") : ""}`;
    list.append(el("li", {class: cls.join(" ").trim(), "data-seat": String(p.seat)}, label,
                   el("span", {class: "figures"}, figures.join(" · "))));
  }
  node.append(list);
  if (t.watch) node.append(el("a", {class: "watch", href: t.watch, target: "_blank", rel: "noopener"}, w("watch")));
  return node;
}

const tables = document.getElementById("tables");
function show(rows) {
  for (const t of rows) {
    const fresh = card(t);
    const old = document.getElementById(`table-${t.table}`);
    if (old) old.replaceWith(fresh); else tables.append(fresh);
  }
  const sorted = [...tables.children].sort((a, b) => a.dataset.table.localeCompare(b.dataset.table, undefined, {numeric: true}));
  sorted.forEach((n, i) => { if (tables.children[i] !== n) tables.insertBefore(n, tables.children[i]); });
  if (rows.some((t) => t.winner)) loadLeague();
  // Brackets change when a game starts or ends somewhere, not on every move.
  const moved = rows.filter((t) => phases.get(t.table) !== `${t.game}/${t.phase}/${t.online}`);
  rows.forEach((t) => phases.set(t.table, `${t.game}/${t.phase}/${t.online}`));
  if (moved.length) soon(loadTournaments);
}
const phases = new Map();

let timer = null;
function soon(fn) { if (!timer) timer = setTimeout(() => { timer = null; fn(); }, 300); }

// a tournament entry is a profile (by id, shown by its name now) or a guest, shown as entered (and marked)
const entryName = (t, p) => t.names[p] || p;
async function loadTournaments() {
  const list = await (await fetch("/api/tournaments")).json();
  const root = document.getElementById("tournaments");
  root.replaceChildren(...list.map((t) => {
    const nm = (p) => entryName(t, p);
    const guest = (p) => (t.names[p] ? {} : {class: "guest", title: w("guest")});
    // the format's first tie-break beside the wins (gametable/venue/tournament.py TIE_BREAKS)
    const tie = {swiss: "buchholz", round_robin: "sonneborn_berger"}[t.format];
    const standings = el("table", {class: "standings"}, el("thead", {}, el("tr", {},
      el("th", {}, "#"), el("th", {}, w("player")), el("th", {}, w("won")), el("th", {}, w("lost")),
      ...(tie ? [el("th", {title: w(`${tie}_long`)}, w(tie))] : []))),
      el("tbody", {}, ...t.standings.map((s, i) => el("tr", {class: s.out ? "out" : "", "data-player": s.player},
        el("td", {}, String(i + 1)), el("td", guest(s.player), nm(s.player)), el("td", {}, String(s.wins)),
        el("td", {}, String(s.losses)), ...(tie ? [el("td", {"data-tie": tie}, String(s[tie]))] : [])))));
    const rounds = [...new Set(t.matches.map((m) => m.round))];
    const hostButtons = (m) => (!isHost || m.winner || m.bye ? [] : [
      button(w("replay"), () => decide(t.id, m.number, "replay", {})),
      ...m.players.map((p) => button(`${w("award")} ${nm(p)}`, () => decide(t.id, m.number, "award", {winner: p})))]);
    const bracket = el("div", {class: "bracket"}, ...rounds.map((r) => el("div", {class: "round", "data-round": String(r)},
      el("h3", {}, `${w("round")} ${r}`), el("ol", {},
      ...t.matches.filter((m) => m.round === r).map((m) => el("li", {class: m.winner ? "decided" : "waiting",
          "data-match": String(m.number)},
        m.players.map((p) => (p === m.winner ? `★ ${nm(p)}` : nm(p))).join(" v ") +
        (m.bye ? ` (${w("bye")})` : "") + (m.table && !m.winner ? ` · ${w("table")} ${m.table}` : "") +
        (m.awarded ? ` (${w("awarded")})` : ""), ...hostButtons(m)))))));
    return el("article", {class: `tournament ${t.finished ? "finished" : ""}`, "data-tournament": String(t.id)},
      el("h2", {}, `${t.name} · ${w(t.format)} · ${t.game}`), standings, bracket);
  }));
  showMyMatch(list);
}
// On a player's phone (their venue profile): the match they play next, and where.
let myProfile = null;
function showMyMatch(list) {
  const box = document.getElementById("profile-match");
  const mine = myProfile && list.flatMap((t) => t.matches.filter((m) => !m.winner && !m.bye && m.players.includes(myProfile.id))
    .map((m) => ({t, m})))[0];
  box.hidden = !mine;
  if (!mine) return;
  const {t, m} = mine, others = m.players.filter((p) => p !== myProfile.id).map((p) => entryName(t, p)).join(", ");
  box.textContent = (m.table ? w("your_match") : w("your_next_match")).replace("{tournament}", t.name)
    .replace("{round}", String(m.round)).replace("{table}", m.table || "").replace("{others}", others);
  box.dataset.table = m.table || "";
}

const stream = new EventSource("/api/stream");
stream.onmessage = (e) => show(JSON.parse(e.data).tables);

const gamePick = document.getElementById("league-game");
async function loadGames() {
  const games = await (await fetch("/api/games")).json();
  const keep = gamePick.value;
  gamePick.replaceChildren(el("option", {value: ""}, w("all_games")), ...games.map((g) => el("option", {value: g}, g)));
  gamePick.value = keep;
}
async function loadLeague() {
  await loadGames();
  // a season: the board's own ?from=YYYY-MM-DD&to=YYYY-MM-DD, passed on
  const page = new URLSearchParams(location.search), season = ["from", "to"].filter((k) => page.get(k))
    .map((k) => `&${k}=${encodeURIComponent(page.get(k))}`).join("");
  const rows = await (await fetch(`/api/league?game=${encodeURIComponent(gamePick.value)}${season}`)).json();
  const body = document.querySelector("#league tbody");
  let rank = 0;
  body.replaceChildren(...rows.flatMap((r, i) => {
    const link = el("a", {"data-player": r.player}, r.name);
    link.onclick = () => showHistory(r.player);
    // the provisional players (a few games only) are ranked apart, under the established ones
    const head = r.provisional && (i === 0 || !rows[i - 1].provisional)
      ? [el("tr", {class: "provisional-head"}, el("td", {colspan: "5"}, w("provisional")))] : [];
    rank = r.provisional ? 0 : rank + 1;
    return [...head, el("tr", {class: r.provisional ? "provisional" : ""}, el("td", {}, r.provisional ? "–" : String(rank)),
      el("td", {}, link), el("td", {}, r.rating.toFixed(1)), el("td", {}, String(r.played)), el("td", {}, String(r.won)))];
  }));
}
let shown = null;  // the player whose history is open
async function showHistory(player) {
  const res = await fetch(`/api/players/${encodeURIComponent(player)}`);
  if (!res.ok) { document.getElementById("history").hidden = true; return; }
  const data = await res.json();
  shown = data.player;
  document.getElementById("history-name").textContent = data.name;
  // the venue host corrects the records from here (the operator's tools, gametable/venue/board_operator.py)
  const voidButton = (g) => (isHost ? [button(w("void"), async () => {
    const reason = prompt(w("void_reason"));
    if (reason) operate("void", {key: g.key, reason});
  })] : []);
  document.querySelector("#history tbody").replaceChildren(...data.games.map((g) => el("tr", {"data-game": g.key},
    el("td", {}, g.game + (g.mode ? " · " + g.mode : "")), el("td", {}, g.table),
    el("td", {}, w(g.rank === 1 ? "first" : "lost")), el("td", {}, ...voidButton(g)))));
  const profile = data.player.startsWith("p-");
  document.getElementById("history-tools").hidden = !isHost;
  for (const id of ["op-rename", "op-merge", "op-delete"]) document.getElementById(id).hidden = !profile;
  document.getElementById("op-players").replaceChildren(...[...document.querySelectorAll("#league a[data-player]")]
    .filter((a) => a.dataset.player !== data.player).map((a) => el("option", {value: a.dataset.player}, a.textContent)));
  document.getElementById("history").hidden = false;
}
async function operate(action, body) {
  const [ok, answer] = await post(`/api/operator/${action}`, body);
  document.getElementById("op-result").textContent = ok ? w("done") : answer.error;
  if (!ok) return;
  await loadLeague();
  if (action === "delete") { document.getElementById("history").hidden = true; shown = null; } else if (shown) await showHistory(shown);
  loadChanges();
}
document.getElementById("op-rename").onsubmit = (e) => {
  e.preventDefault();
  operate("rename", {profile: shown, name: document.getElementById("op-rename-name").value});
};
document.getElementById("op-merge").onsubmit = (e) => {
  e.preventDefault();
  operate("merge", {into: shown, other: document.getElementById("op-merge-other").value.trim()});
};
document.getElementById("op-delete").onclick = () => {
  if (confirm(w("delete_confirm"))) operate("delete", {profile: shown});
};
gamePick.onchange = loadLeague;
loadLeague();
loadTournaments();

// The player's venue profile on this phone: made once, moved to another phone by its QR code
// (the key travels in the URL's fragment, which no server sees).
async function showProfile() {
  const res = await fetch("/api/profiles/me");
  const mine = res.ok ? await res.json() : null;
  myProfile = mine;
  document.getElementById("profile-new").hidden = !!mine;
  document.getElementById("profile-mine").hidden = !mine;
  if (mine) {
    document.getElementById("profile-label").textContent = `${mine.name} (${mine.id})`;
    document.getElementById("profile-qr").src = `/api/profiles/me/qr.svg?${Date.now()}`;
  }
}
async function claimFromLink() {
  const m = /(?:^#|&)profile=([^&]+)/.exec(location.hash);
  if (!m) return;
  history.replaceState(null, "", location.pathname + location.search);
  await fetch("/api/profiles/claim", {method: "POST", headers: {"Content-Type": "application/json"},
                                      body: JSON.stringify({key: decodeURIComponent(m[1])})});
}
document.getElementById("profile-new").onsubmit = async (e) => {
  e.preventDefault();
  await fetch("/api/profiles", {method: "POST", headers: {"Content-Type": "application/json"},
                                body: JSON.stringify({name: document.getElementById("profile-name").value})});
  showProfile();
};
if (document.body.classList.contains("board")) claimFromLink().then(showProfile).then(loadTournaments);
// a phone with a profile looks for its match now and then: an offer changes no table's state
setInterval(() => { if (myProfile) loadTournaments(); }, 15000);

// The venue host (logged in with the venue host key): creates tournaments, replays or awards a match.
function button(label, onclick) {
  const b = el("button", {type: "button"}, label);
  b.onclick = onclick;
  return b;
}
async function post(path, body) {
  const res = await fetch(path, {method: "POST", headers: {"Content-Type": "application/json"},
                                 body: JSON.stringify(body)});
  return [res.ok, await res.json()];
}
async function decide(tid, number, action, body) {
  const [ok, answer] = await post(`/api/tournaments/${tid}/matches/${number}/${action}`, body);
  if (!ok) document.getElementById("tournament-error").textContent = answer.error;
  loadTournaments();
}
const $id = (id) => document.getElementById(id);
const when = (at) => new Date(at * 1000).toISOString().slice(0, 16).replace("T", " ");  // ISO 8601, UTC
async function showHost() {
  const me = await (await fetch("/api/host")).json();
  isHost = me.host;
  $id("host-login").hidden = isHost;
  $id("tournament-new").hidden = !isHost;
  $id("host-who").hidden = !isHost;
  $id("host-name").textContent = isHost ? `${w("logged_in_as")} ${me.owner ? w("owner") : me.who}` : "";
  $id("staff").hidden = !me.owner;
  $id("changes").hidden = !isHost;
  loadTournaments();
  if (me.owner) loadStaff();
  if (isHost) loadChanges();
}
// The owner's staff keys (gametable/venue/staff.py): one a person, revoked when they leave.
async function loadStaff() {
  const body = $id("staff-keys").querySelector("tbody");
  body.replaceChildren(...(await (await fetch("/api/staff")).json()).map((k) => el("tr", {"data-staff": k.id},
    el("td", {}, k.name), el("td", {}, when(k.made)),
    el("td", {}, k.revoked ? `${w("revoked")} ${when(k.revoked)}` : button(w("revoke"), async () => {
      const [ok, answer] = await post(`/api/staff/${k.id}/revoke`, {});
      $id("staff-error").textContent = ok ? "" : answer.error;
      $id("staff-made").hidden = true;
      loadStaff(); loadChanges();
    })))));
}
// What was changed by hand, and by whom (the operator log).
async function loadChanges() {
  const res = await fetch("/api/operator/log");
  if (!res.ok) return;
  const body = $id("changes-log").querySelector("tbody");
  body.replaceChildren(...(await res.json()).reverse().slice(0, 50).map((e) => el("tr", {},
    el("td", {}, when(e.at)), el("td", {}, e.by === "owner" ? w("owner") : e.by),
    el("td", {}, `${w("change_" + e.action)} ${e.detail.name || e.subject}`))));
}
$id("staff-new").onsubmit = async (e) => {
  e.preventDefault();
  const [ok, answer] = await post("/api/staff", {name: $id("staff-name").value});
  $id("staff-error").textContent = ok ? "" : answer.error;
  const made = $id("staff-made");
  made.hidden = !ok;
  if (ok) {
    made.replaceChildren(`${w("key_for").replace("{name}", answer.name)} `, el("code", {id: "staff-key"}, answer.key), ` ${w("key_once")}`);
    $id("staff-name").value = "";
  }
  loadStaff(); loadChanges();
};
$id("host-logout").onclick = async () => { await post("/api/host/logout", {}); showHost(); };
document.getElementById("host-login").onsubmit = async (e) => {
  e.preventDefault();
  const [ok, answer] = await post("/api/host", {key: document.getElementById("host-key").value});
  document.getElementById("host-error").textContent = ok ? "" : answer.error;
  showHost();
};
document.getElementById("tournament-new").onsubmit = async (e) => {
  e.preventDefault();
  const v = (id) => document.getElementById(id).value;
  const [ok, answer] = await post("/api/tournaments", {
    name: v("t-name"), game: v("t-game").trim(), format: v("t-format"),
    players: v("t-players").split("\n").map((p) => p.trim()).filter(Boolean),
    tables: v("t-tables").split(",").map((t) => t.trim()).filter(Boolean)});
  document.getElementById("tournament-error").textContent = ok ? "" : answer.error;
  loadTournaments();
};
if (document.body.classList.contains("board")) showHost();
