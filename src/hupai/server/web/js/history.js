// My games: my statistics over them, every room I sat in with its result, and the replays of its
// hands. Redrawn in the new language when the language changes.

import { api, currentUser } from "./api.js";
import { avatarHtml } from "./avatar.js";
import { pick, t } from "./i18n.js";
import { showNickname } from "./lobby.js";
import { escapeHtml, html, signed } from "./util.js";

export async function show(root) {
  const user = await currentUser();
  if (!user) {
    showNickname(root, () => show(root));
    return null;
  }
  const games = await api.history();
  let page = null;
  const draw = () => {
    page = historyPage(games, user);
    root.innerHTML = "";
    root.append(page);
  };
  // Reached through the nickname form this view has no cleanup: a listener outliving it removes itself.
  const relabel = () => (root.contains(page) ? draw() : stop());
  const stop = () => window.removeEventListener("languagechange-hupai", relabel);
  draw();
  window.addEventListener("languagechange-hupai", relabel);
  return stop;
}

function historyPage(games, user) {
  return html(`<section class="history" data-role="history">
    <header class="history-head">${avatarHtml({ name: user.name, avatar: user.avatar, size: "large" })}
      <div><h1 data-role="history-title">${t("history.title")}</h1><p>${escapeHtml(user.name)}</p></div></header>
    ${games.length ? `${statsHtml(games)}${gamesList(games)}` : `<p class="muted empty-history">${t("history.none")}</p>`}
  </section>`);
}

// Totals over the games that have a result (finished or ended early).
function statsHtml(games) {
  const scored = games.filter((game) => game.total !== null);
  const sum = (field) => scored.reduce((total, game) => total + (game[field] || 0), 0);
  const biggest = scored.map((game) => game.biggest).filter((value) => value !== null && value !== undefined);
  const total = sum("total");
  const cells = [
    ["history.games", scored.length, ""],
    ["history.total", signed(total), total > 0 ? "plus" : total < 0 ? "minus" : ""],
    ["summary.wins", sum("wins"), ""],
    ["summary.selfDraws", sum("self_draws"), ""],
    ["summary.dealIns", sum("deal_ins"), ""],
    ["summary.kongs", sum("kongs"), ""],
    ["summary.biggestHand", biggest.length ? signed(Math.max(...biggest)) : "—", ""],
  ];
  return `<div class="my-stats" data-role="my-stats" aria-label="${t("history.mine")}">${cells
    .map(([key, value, tone]) => `<div class="stat" data-stat="${key}"><b class="${tone}">${escapeHtml(value)}</b><span>${t(key)}</span></div>`)
    .join("")}</div>`;
}

// A game's place: a medal for 1-3, a plain badge for 4th, or its state while it has no result.
function placeHtml(game) {
  if (game.total === null) {
    const status = { playing: "history.playing", waiting: "history.waiting", dissolved: "history.dissolved" }[game.status];
    return `<span class="place state" data-role="state">${status ? t(status) : escapeHtml(game.status)}</span>`;
  }
  const rank = game.rank === null ? "—" : String(game.rank);
  return `<span class="place rank-${rank}" aria-label="${t("history.rank")}" data-role="rank">${rank}</span>`;
}

function gamesList(games) {
  const rows = games
    .map((game) => {
      const replays = Array.from({ length: game.hands_played }, (_, index) =>
        `<a href="#/replay/${game.number}/${index}" data-role="replay" class="chip">${index + 1}</a>`).join("");
      const rules = pick(game.rules_zh, game.rules_en) || game.preset;
      const tone = game.total > 0 ? "plus" : game.total < 0 ? "minus" : "";
      return `<li class="game-row" data-room="${game.number}">
        ${placeHtml(game)}
        <div class="game-words">
          <b data-role="rules">${escapeHtml(rules)}</b>
          <span class="muted"><a href="#/room/${game.number}">${t("history.room")} ${game.number}</a> · <time class="when">${escapeHtml(game.created_at.replace("T", " ").slice(0, 16))}</time></span>
          ${replays ? `<span class="replays"><span class="muted">${t("summary.replay")}</span> ${replays}</span>` : ""}
        </div>
        <b class="game-total ${tone}" data-role="total">${game.total === null ? "" : signed(game.total)}</b>
      </li>`;
    })
    .join("");
  return `<ol class="game-list">${rows}</ol>`;
}
