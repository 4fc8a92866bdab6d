/* The panel's languages: Simplified Chinese and English (docs/i18n.md).
 * Every string on the page is a msgid of the gettext catalogue (web_panel/locale/), written in
 * English in the code as t(msgid) / tn(singular, plural, n); the phone fetches its language's catalogue as
 * JSON (/i18n/zh.json, made from the same .po file) and looks each one up. Log lines arrive as
 * messages ({id, args} beside the English "words"), so one event serves phones of both languages.
 * The language: the phone's own choice (the toggle in the bar, remembered here), else the table's
 * default set by the host, else the browser's languages, else English. */
"use strict";

const I18N = {
  langs: { en: "English", zh: "中文" },
  lang: "en", messages: {}, tableDefault: null,
  /** "zh-CN" / "zh_Hans" / "zh" -> "zh"; unknown -> null */
  normalise(code) { const b = String(code || "").replace("_", "-").split("-")[0].toLowerCase(); return b in this.langs ? b : null; },
  chosen() { try { return this.normalise(localStorage.getItem("gt_lang")); } catch { return null; } },
  fromBrowser() {
    for (const code of navigator.languages || [navigator.language]) { const l = this.normalise(code); if (l) return l; }
    return null;
  },
  pick() { return this.chosen() || this.normalise(this.tableDefault) || this.fromBrowser() || "en"; },
  /** Load the catalogue of the language this phone should read (no fetch for English). */
  async load(lang = this.pick()) {
    let messages = {};
    if (lang !== "en") {
      try { messages = (await (await fetch(`/i18n/${lang}.json`, { credentials: "same-origin" })).json()).messages || {}; } catch { lang = "en"; }
    }
    this.lang = lang; this.messages = messages;
    document.documentElement.lang = lang === "zh" ? "zh-Hans" : "en";
    this.apply();
    return lang;
  },
  /** The toggle: remember the phone's choice (the server reads the cookie for its own answers). */
  async choose(lang) {
    try { localStorage.setItem("gt_lang", lang); } catch { /* private mode: this page only */ }
    document.cookie = `gt_lang=${lang}; path=/; max-age=31536000; samesite=strict`;
    return this.load(lang);
  },
  /** Static text of the page: elements with data-i18n (text) and data-i18n-aria (aria-label). */
  apply(root = document) {
    for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
    for (const el of root.querySelectorAll("[data-i18n-aria]")) el.setAttribute("aria-label", t(el.dataset.i18nAria));
    const title = document.querySelector("title[data-i18n]"); if (title) document.title = t(title.dataset.i18n);
  },
  fill(text, args) {
    return args ? text.replace(/\{(\w+)\}/g, (all, k) => (k in args ? this.show(args[k]) : all)) : text;
  },
  /** One argument of a message: a message itself (a card's name), a list, or a plain value. */
  show(v) {
    if (Array.isArray(v)) return v.map((x) => this.show(x)).join(this.lang === "zh" ? "、" : ", ");
    if (v && typeof v === "object") return say(v);
    return String(v ?? "");
  },
};

/** Marks a name kept in a table for the catalogue (``{ lord: N_("Lord") }``); t() it where shown. */
const N_ = (msgid) => msgid;

/** ``msgid`` in the phone's language, its {fields} filled from ``args``. */
function t(msgid, args) {
  const m = I18N.messages[msgid];
  return I18N.fill(typeof m === "string" && m ? m : msgid, args);
}

/** A counted message: English picks by n === 1, Chinese has one form. ``n`` is also {n}. */
function tn(singular, plural, n, args) {
  const m = I18N.messages[singular], all = Object.assign({ n }, args || {});
  if (Array.isArray(m) && m.length) return I18N.fill(m[I18N.lang === "zh" ? 0 : (n === 1 ? 0 : Math.min(1, m.length - 1))], all);
  return I18N.fill(n === 1 ? singular : plural, all);
}

/** A player's name as shown: the names the table gives by itself ("Seat 2", "Bot", "Bot 3": the
 * demo's and the bots' games) in the phone's language; a name a person typed as it is. */
function displayName(name) {
  const s = String(name ?? ""), m = /^(Seat|Bot) ([1-6])$/.exec(s);
  if (m) return m[1] === "Seat" ? t("Seat {n}", { n: m[2] }) : t("Bot {n}", { n: m[2] });
  return s === "Bot" ? t("Bot") : s;
}

/** A message from the daemon (events' "says", a result's error): {id, args[, plural, n]} or {text};
 * the names in it as :func:`displayName` shows them. */
function say(msg) {
  if (!msg || typeof msg !== "object") return String(msg ?? "");
  if (typeof msg.text === "string") return msg.text;
  if (typeof msg.id !== "string") return "";
  const args = msg.args && typeof msg.args === "object"
    ? Object.fromEntries(Object.entries(msg.args).map(([k, v]) => [k, typeof v === "string" ? displayName(v) : v])) : msg.args;
  return msg.plural ? tn(msg.id, msg.plural, msg.n, args) : t(msg.id, args);
}

/** A card or role by name for a Chinese group: the Chinese name, and the English one under it
 * (what the printed cards and the other players may say); English alone in English. */
function dualName(english, cls = "en-sub") {
  const main = t(english);
  return I18N.lang !== "en" && main !== english ? `${esc(main)}<span class="${cls}">${esc(english)}</span>` : esc(main);
}
