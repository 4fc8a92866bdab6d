/* How to play: one short page per game and mode, in the phone's language (docs/i18n.md). Each
 * game brings its own pages in its phone view (``rules()`` in controller/games/<game>/phone/view.js);
 * this file only lays them out.
 * Reached from the lobby ("How to play" under the mode) and from a seat ("How to play" under the
 * game), at /rules/<game>/<mode>; /rules lists them all. Written for players: the referee's rule
 * numbers (docs/rules/*.md) stay out of view. Each page: what you are after, how a turn goes, and
 * what the phone and the table do for you; a drawing where it helps (inline SVG, no assets). */
"use strict";

const RulesPages = {
  /** The pages of every game whose view has them: game -> mode -> {pic, lines}. */
  games() {
    const out = {};
    for (const name of Object.keys(lobbyGames())) {
      const view = GameViews.of(name);
      if (view && view !== LOADING && typeof view.rules === "function") out[name] = view.rules();
    }
    return out;
  },
  /** The how-to-play page of ``game``/``mode`` (its game's first mode when none); LOADING while its
   * view loads. */
  page(game, mode) {
    const view = GameViews.of(game);
    if (view === LOADING) return LOADING;
    const g = view && typeof view.rules === "function" ? view.rules() : null;
    if (!g) return null;
    const key = g[mode] ? mode : Object.keys(g)[0];
    return { key, ...g[key] };
  },
};

/** /rules, /rules/<game>, /rules/<game>/<mode>: the how-to-play pages, in the phone's language. */
function rulesView() {
  const [, game, mode] = location.pathname.replace(/^\/+/, "").split("/");
  const described = lobbyGames();
  const titleOf = (g, m) => {
    const d = described[g] || {}, md = (d.modes || []).find((x) => x.mode === m) || {};
    return { game: t(d.title || g), mode: md.title ? t(md.title) : "" };
  };
  const back = `<div class="row"><a class="btn ghost grow" href="${S.me.seat ? "/seat" : "/"}">${esc(t("Back"))}</a><a class="btn ghost grow" href="/rules">${esc(t("All games"))}</a></div>`;
  const page = game && RulesPages.page(game, mode);
  if (page === LOADING) return loadingCard();
  if (!page) {
    const links = Object.entries(RulesPages.games()).map(([g, modes]) => `<section class="card"><h2>${esc(titleOf(g).game)}</h2><div class="moves">${Object.keys(modes)
      .map((m) => `<a class="btn wide" href="/rules/${esc(g)}/${esc(m)}" id="rules-${esc(g)}-${esc(m)}">${esc(titleOf(g, m).mode || titleOf(g).game)}</a>`).join("")}</div></section>`).join("");
    return `<h1>${esc(t("How to play"))}</h1>${links}${back}`;
  }
  const names = titleOf(game, page.key);
  return `<section class="card rules" id="rules-page" data-game="${esc(game)}" data-mode="${esc(page.key)}"><h1>${esc(names.game)}${names.mode ? ` · ${esc(names.mode)}` : ""}</h1>
    ${page.pic || ""}<ol class="rules-lines">${page.lines.map((l) => `<li>${esc(l)}</li>`).join("")}</ol></section>${back}`;
}

/** The "How to play" link of the game being played (a seat's and the table's screens). */
function rulesLink(st) {
  return st && st.game ? `<a class="btn ghost grow" href="/rules/${esc(st.game)}/${esc(st.mode || "")}" id="seat-rules">${esc(t("How to play"))}</a>` : "";
}
