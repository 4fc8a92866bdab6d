// The host's bring-up page: live beams and walk test, strikers (g, battery, RSSI, threshold), pairing.
// Polls GET /api/bringup (host only) twice a second; pairing goes to POST /api/host/bringup.
// Everything that came over the radio (striker ids, MACs) is shown with textContent only.
"use strict";

const $ = (sel) => document.querySelector(sel);
const POLL_MS = 500;
let pollTimer = null;

function cookie(name) {
  const hit = document.cookie.split("; ").find((c) => c.startsWith(name + "="));
  return hit ? decodeURIComponent(hit.slice(name.length + 1)) : "";
}

function requestId() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);  // never repeats across runs (the daemon answers a repeat, never reapplies)
  return "bu-" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function toast(text, ok = false) {
  const box = $("#toast");
  box.textContent = text;
  box.classList.toggle("ok", ok);
  box.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { box.hidden = true; }, 4000);
}

async function post(path, body) {
  const r = await fetch(path, { method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": cookie("gt_csrf") },
    body: JSON.stringify({ id: requestId(), ...body }) });
  let data = {};
  try { data = await r.json(); } catch (e) { data = { error: `HTTP ${r.status}` }; }
  if (!r.ok || data.ok === false) throw new Error(data.error || `HTTP ${r.status}`);
  return data;
}

function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (cls) node.className = cls;
  return node;
}

function button(text, attrs, cls = "btn") {
  const b = el("button", text, cls);
  for (const [k, v] of Object.entries(attrs)) b.dataset[k] = String(v);
  return b;
}

function fill(list, items) {
  list.replaceChildren(...items);
}

// --- drawing -------------------------------------------------------------------------------------

function drawBase(s) {
  const fw = s.base.fw ? t("firmware {fw}", { fw: s.base.fw }) : t("no hello yet");
  const ready = Boolean(s.pairing && s.pairing.base_ready);
  const port = s.base.port !== "unknown" ? s.base.port : ready ? "open" : "unknown";
  $("#base").textContent = t("USB port {port}; {fw}; {ready}", { port, fw, ready: ready ? t("ready") : t("not ready") });
  $("#waiting").hidden = !s.waiting;
  $("#waiting").textContent = s.waiting ? t("Game waits: {why}", { why: s.waiting }) : "";
}

let windowSeen = { key: null, at: 0 };  // the countdown runs here between two pairing reports

function drawPairing(p) {
  if (!p) return;
  const key = `${p.open}/${p.seconds_left}`;
  if (key !== windowSeen.key) windowSeen = { key, at: Date.now() };
  const left = Math.max(0, Math.round(p.seconds_left - (Date.now() - windowSeen.at) / 1000));
  $("#pair-window").textContent = p.open && left > 0 ? t("Pairing open: {left} s left — wave a striker", { left })
    : t("Pairing closed");
  const biggest = Math.max(0, ...p.seen.map((s) => s.g));
  fill($("#seen"), p.seen.map((s) => {
    const li = el("li");
    li.dataset.striker = s.striker;
    const head = el("div", `${s.striker}  ·  ${s.g.toFixed(1)} g${s.g === biggest ? "  " + t("← in your hand?") : ""}`,
      s.g === biggest ? "big" : "");
    const mac = el("div", `MAC ${s.mac}${s.paired ? t(" (paired)") : ""}`, "muted small");
    const seats = el("div", null, "seats");
    for (let seat = 1; seat <= 6; seat++) {
      seats.append(button(t("Seat {n}", { n: seat }), { action: "pair", striker: s.striker, mac: s.mac, seat }));
    }
    li.append(head, mac, seats);
    return li;
  }));
  fill($("#paired"), p.paired.map((s) => {
    const li = el("li");
    li.dataset.striker = s.striker;
    li.append(el("span", t("{striker} → seat {seat}", { striker: s.striker, seat: s.seat }), "big"), el("span",
      s.mac ? `  MAC ${s.mac}` : "  " + t("from the config (not yet seen by the base)"), "muted small"), el("span", " "),
      button(t("Unpair"), { action: "unpair", striker: s.striker }, "btn ghost"));
    return li;
  }));
  const warn = p.warning || (p.base_peers && !p.in_sync ? "the base station's list differs from the Pi's (it is sent again at its next hello)" : "");
  $("#pair-warning").hidden = !warn;
  $("#pair-warning").textContent = warn;
}

function tuneText(st) {
  const f = (v) => `${Number(v).toFixed(2)} g`;
  if (st.tune === "applied") return t("{g} applied", { g: f(st.threshold_g) });
  if (st.tune === "pending") {
    return t("{wanted} pending (uses {g}; a sleeping striker takes it when it wakes)", { wanted: f(st.wanted_g), g: st.threshold_g == null ? "?" : f(st.threshold_g) });
  }
  return st.threshold_g == null ? t("not reported yet (firmware 1.2.0 says it in every heartbeat)") : t("{g} in use", { g: f(st.threshold_g) });
}

// One <tbody> per striker (its data row and its threshold row), kept rather than rebuilt so a
// threshold being typed survives the twice-a-second refresh.
function strikerRows(sid, limits) {
  const table = $("#strikers");
  let body = [...table.tBodies].find((b) => b.dataset.striker === sid);
  if (body) return body;
  body = el("tbody");
  body.dataset.striker = sid;
  const data = el("tr");
  for (const name of ["sid", "seat", "bat", "rssi", "g", "state"]) data.append(el("td", "", name));
  const input = el("input", null, "threshold");
  Object.assign(input, { type: "number", min: limits.min_g, max: limits.max_g, step: "0.05", inputMode: "decimal" });
  input.setAttribute("aria-label", t("strike threshold of {striker} in g", { striker: sid }));
  input.dataset.striker = sid;
  input.addEventListener("input", () => { input.dataset.edited = "1"; });
  const cell = el("td", null, "thr");
  cell.colSpan = 6;
  cell.append(el("span", t("Threshold") + " "), input, el("span", " g "), button(t("Set"), { action: "tune", striker: sid }, "btn small"),
    el("span", "", "tune-state small"));
  const tune = el("tr", null, "tune-row");
  tune.append(cell);
  body.append(data, tune);
  table.append(body);
  return body;
}

function drawStrikers(s) {
  const seats = {};
  for (const p of (s.pairing && s.pairing.paired) || []) seats[p.striker] = p.seat;
  const limits = s.threshold;
  const ids = Object.keys(s.strikers);
  for (const body of [...$("#strikers").tBodies]) if (!ids.includes(body.dataset.striker)) body.remove();
  for (const [sid, st] of Object.entries(s.strikers)) {
    const body = strikerRows(sid, limits);
    const set = (cls, text) => { body.querySelector(`td.${cls}`).textContent = text; };
    set("sid", sid);
    set("seat", seats[sid] ?? "—");
    set("bat", st.bat == null ? "—" : `${st.bat.toFixed(2)} V`);
    set("rssi", st.rssi == null ? "n/a" : `${st.rssi} dBm (${st.signal || "?"})`);
    set("g", st.g.length ? st.g.map((v) => v.toFixed(1)).join(", ") : "—");
    set("state", st.state);
    const input = body.querySelector("input.threshold");
    if (!input.dataset.edited && document.activeElement !== input) {
      input.value = String(st.wanted_g ?? st.threshold_g ?? limits.default_g);
    }
    const state = body.querySelector(".tune-state");
    state.textContent = tuneText(st);
    state.dataset.tune = st.tune;
  }
  $("#threshold").textContent = t("A strike is a spike above the striker's threshold. Flick it and set it down while you watch \"Last g\", then set the threshold between the two ({min}–{max} g; the firmware's default is {default} g). The striker keeps it through sleep and power-off.",
    { min: limits.min_g, max: limits.max_g, default: limits.default_g });
}

function drawBeams(s) {
  const walk = s.walk;
  const missing = new Set((walk && walk.missing) || []);
  $("#walk").textContent = !walk ? t("Walk test: waiting for the table")
    : walk.complete ? t("Walk test: a coin held every beam") : t("Walk test: lay a real coin on each beam for a second, then lift it. Not passed yet: {beams}", { beams: walk.message.replace(/^not seen yet: /, "") });
  const ids = [...new Set([...((walk && walk.done) || []), ...missing, ...Object.keys(s.beams)])];
  fill($("#beams"), ids.map((id) => {
    const b = s.beams[id] || { blocked: false, edges: 0 };
    const li = el("li", `${id}: ${b.blocked ? t("BLOCKED") : t("clear")} (${tn("{n} edge", "{n} edges", b.edges)})`);
    li.dataset.beam = id;
    li.classList.toggle("blocked", b.blocked);
    li.classList.toggle("missing", missing.has(id));
    return li;
  }));
  fill($("#reports"), s.reports.slice().reverse().map((r) => el("li", r)));
}

// The camera card's words, in one place (CAM-6: this page is the only one that shows a camera image).
const CAMERA_TEXT = {
  none: "No camera on this table ([camera] is not in the config).",
  seen: (c) => `${c.calibrated ? "Markers found: the table is calibrated" : "Markers NOT found: aim the camera at all four"}; ` +
    `${c.coins} coin${c.coins === 1 ? "" : "s"} seen at rest.`,
  loading: "Taking a still…",
  failed: "No still: ",
};

function drawCamera(s) {
  $("#camera-card").hidden = !s.camera;
  if (s.camera) $("#camera-status").textContent = CAMERA_TEXT.seen(s.camera);
}

function takeStill() {
  const img = $("#camera-still");
  $("#camera-status").textContent = CAMERA_TEXT.loading;
  img.onload = () => { img.hidden = false; };
  img.onerror = () => {
    img.hidden = true;
    fetch(img.src, { credentials: "same-origin", cache: "no-store" }).then((r) => r.json())
      .then((d) => toast(CAMERA_TEXT.failed + (d.error || "")), () => toast(CAMERA_TEXT.failed));
  };
  img.src = `/api/host/camera.jpg?n=${Date.now()}`;  // the host's cookie goes with it; never cached
}

// --- polling and actions -------------------------------------------------------------------------

async function poll() {
  clearTimeout(pollTimer);
  try {
    const r = await fetch("/api/bringup", { credentials: "same-origin", cache: "no-store" });
    if (r.status === 403) {
      $("#lock").hidden = false;
      $("#bringup").hidden = true;
      return;  // polling resumes after the PIN
    }
    const s = await r.json();
    $("#lock").hidden = true;
    $("#bringup").hidden = false;
    drawBase(s);
    drawPairing(s.pairing);
    drawStrikers(s);
    drawBeams(s);
    drawCamera(s);
  } catch (e) {
    $("#base").textContent = t("the panel does not answer; retrying");
  }
  pollTimer = setTimeout(poll, POLL_MS);
}

async function act(body, done) {
  try {
    await post("/api/host/bringup", body);
    if (done) toast(done, true);
  } catch (e) {
    toast(e.message);
  }
  poll();
}

document.addEventListener("click", (ev) => {
  const b = ev.target.closest("button");
  if (!b) return;
  if (b.id === "unlock") {
    post("/api/host/unlock", { pin: $("#pin").value }).then(() => poll(), (e) => toast(e.message));
  } else if (b.id === "camera-take") {
    takeStill();
  } else if (b.id === "pair-open") {
    act({ type: "pair_open", seconds: 60 }, t("Pairing open: wave a striker"));
  } else if (b.id === "pair-close") {
    act({ type: "pair_open", seconds: 0 });
  } else if (b.dataset.action === "pair") {
    act({ type: "pair_striker", striker: b.dataset.striker, mac: b.dataset.mac, seat: Number(b.dataset.seat) },
      t("{striker} plays for seat {seat}", { striker: b.dataset.striker, seat: b.dataset.seat }));
  } else if (b.dataset.action === "tune") {
    const input = b.closest("tbody").querySelector("input.threshold");
    const value = Number(input.value);
    delete input.dataset.edited;
    act({ type: "tune_striker", striker: b.dataset.striker, threshold_g: value },
      t("{striker}: {g} g sent", { striker: b.dataset.striker, g: value }));
  } else if (b.dataset.action === "unpair") {
    act({ type: "unpair_striker", striker: b.dataset.striker }, t("{striker} unpaired", { striker: b.dataset.striker }));
  }
});

// the page in the phone's language (static/i18n.js): its own choice, the table's, the browser's
(async function start() {
  try { I18N.tableDefault = (await (await fetch("/api/info", { credentials: "same-origin" })).json()).lang; } catch { /* offline: the phone's own */ }
  await I18N.load();
  poll();
})();
