/* How to play: one short page per game and mode, in the phone's language (docs/i18n.md).
 * Reached from the lobby ("How to play" under the mode) and from a seat ("How to play" under the
 * game), at /rules/<game>/<mode>; /rules lists them all. Written for players: the referee's rule
 * numbers (docs/rules/*.md) stay out of view. Each page: what you are after, how a turn goes, and
 * what the phone and the table do for you; a drawing where it helps (inline SVG, no assets). */
"use strict";

const RulesPages = (() => {
  const P = (...lines) => lines;  // a page's paragraphs (each a t() msgid)
  const pics = () => ({
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
    coup: `<svg viewBox="0 0 220 120" class="rules-pic" role="img" aria-label="${esc(t("Your two face-down cards and your coins"))}">
      <rect x="20" y="10" width="62" height="96" rx="8" fill="#2a2f3a" stroke="#f5b400" stroke-width="3"/><text x="51" y="66" font-size="30" text-anchor="middle" fill="#f5b400">K</text>
      <rect x="92" y="10" width="62" height="96" rx="8" fill="#2a2f3a" stroke="#f5b400" stroke-width="3"/><text x="123" y="66" font-size="30" text-anchor="middle" fill="#f5b400">9</text>
      <circle cx="185" cy="40" r="14" fill="#f5b400"/><circle cx="185" cy="75" r="14" fill="#f5b400"/></svg>`,
    bang: `<svg viewBox="0 0 220 200" class="rules-pic" role="img" aria-label="${esc(t("The ring of seats: the distance is the fewest seats between you, either way round"))}">
      <circle cx="110" cy="100" r="70" fill="none" stroke="#888" stroke-dasharray="4 4"/>
      ${[0, 1, 2, 3, 4].map((i) => { const a = (2 * Math.PI * i) / 5 - Math.PI / 2; return `<circle cx="${110 + 70 * Math.cos(a)}" cy="${100 + 70 * Math.sin(a)}" r="15" fill="${i ? "#555" : "#b26a00"}"/><text x="${110 + 70 * Math.cos(a)}" y="${106 + 70 * Math.sin(a)}" font-size="15" text-anchor="middle" fill="#fff">${i === 0 ? "★" : Math.min(i, 5 - i)}</text>`; }).join("")}</svg>`,
    map: `<svg viewBox="0 0 220 140" class="rules-pic" role="img" aria-label="${esc(t("The battlefield: each side's castle at one end, zones and roads between"))}">
      ${Array.from({ length: 7 }, (_, c) => Array.from({ length: 4 }, (_, r) => `<rect x="${10 + c * 29}" y="${10 + r * 30}" width="27" height="28" fill="${c === 0 ? "#c62828" : c === 6 ? "#1565c0" : c === 3 ? "#5d4037" : "#37474f"}"/>`).join("")).join("")}
      <text x="24" y="75" font-size="14" fill="#fff" text-anchor="middle">A</text><text x="198" y="75" font-size="14" fill="#fff" text-anchor="middle">B</text></svg>`,
  });
  // game -> mode -> {title, pic, lines}; "" is the game's page when it has one mode only
  const pages = () => { const pic = pics(); return {
    coinwar: {
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
    },
    coup: {
      classic: { pic: pic.coup, lines: P(
        t("Everyone starts with 2 coins and 2 face-down role cards (only your phone shows yours). Lose both cards and you are out; the last player with a card wins."),
        t("On your turn take one action: Income (+1), Foreign aid (+2), Coup (pay 7, the target loses a card), or a role's action — Tax (Duke, +3), Assassinate (Assassin, pay 3), Steal (Captain, 2 coins), Exchange (Ambassador)."),
        t("You may claim any role, true or not. Anyone may challenge a claim: whoever is wrong loses a card. Some actions can be blocked by claiming a role (the Duke blocks foreign aid, the Contessa blocks the Assassin, the Captain or Ambassador block stealing)."),
        t("With 10 coins or more you must launch a coup. Your phone shows a countdown when you may challenge or block; tap Pass to let it stand. Tap a card to read what it does.")) },
    },
    bang: {
      classic: { pic: pic.bang, lines: P(
        t("Roles are secret except the Sheriff's: the Sheriff and Deputies against the Outlaws, and a Renegade who wants to be the last one standing. Tap your role on the phone to see it."),
        t("On your turn draw 2 cards, play as many as you like (only one BANG! a turn), then keep no more cards than your life."),
        t("BANG! shoots a player within your weapon's range: the distance is the fewest seats between you, either way round. The target answers with Missed! or loses a life."),
        t("Blue cards stay in front of you (weapons, Barrel, Mustang, Scope, Jail, Dynamite). Your character has an ability; tap any card for what it does.")) },
    },
    sanguosha_map: {
      battle: { pic: pic.map, lines: P(
        t("Two sides move their generals on a map between the two castles, fighting minions, castles and bosses; a side wins when the other castle falls."),
        t("On your turn roll the die and move up to that many steps (your phone shows each cell you can reach and its cost), then attack a target in range with 杀 (Strike)."),
        t("Attacked with 杀? Answer with 闪 (Dodge) before the countdown ends, or take the damage."),
        t("Duels and boss fights are played with the real Sanguosha deck at the table; the player named on the phone enters the result. Gold buys cards and equipment in your castle. Tap a general, a card or a piece of equipment for its text.")) },
    },
  }; };
  return {
    /** The how-to-play page of ``game``/``mode`` (its game's first mode when none). */
    page(game, mode) {
      const all = pages(), g = all[game];
      if (!g) return null;
      const key = g[mode] ? mode : Object.keys(g)[0];
      return { key, ...g[key] };
    },
    games() { return pages(); },
  };
})();

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
