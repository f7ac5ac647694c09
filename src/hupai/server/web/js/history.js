// My games: my statistics over them, every room I sat in with its result, and the replays of its
// hands. Redrawn in the new language when the language changes.

import { api, currentUser } from "./api.js";
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
    page = historyPage(games);
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

function historyPage(games) {
  return html(`<section class="history" data-role="history">
    <h1 data-role="history-title">${t("history.title")}</h1>
    ${games.length ? `${statsHtml(games)}${gamesTable(games)}` : `<p class="muted">${t("history.none")}</p>`}
  </section>`);
}

// Totals over the games that have a result (finished or ended early).
function statsHtml(games) {
  const scored = games.filter((game) => game.total !== null);
  const sum = (field) => scored.reduce((total, game) => total + (game[field] || 0), 0);
  const biggest = scored.map((game) => game.biggest).filter((value) => value !== null && value !== undefined);
  const cells = [
    ["history.games", scored.length],
    ["history.total", signed(sum("total"))],
    ["summary.wins", sum("wins")],
    ["summary.selfDraws", sum("self_draws")],
    ["summary.dealIns", sum("deal_ins")],
    ["summary.kongs", sum("kongs")],
    ["summary.biggestHand", biggest.length ? signed(Math.max(...biggest)) : "—"],
  ];
  return `<div class="my-stats" data-role="my-stats" aria-label="${t("history.mine")}">${cells
    .map(([key, value]) => `<div class="stat" data-stat="${key}"><b>${escapeHtml(value)}</b><span>${t(key)}</span></div>`)
    .join("")}</div>`;
}

function resultCells(game) {
  if (game.total === null) {
    const status = { playing: "history.playing", waiting: "history.waiting", dissolved: "history.dissolved" }[game.status];
    return `<td colspan="2" class="muted">${status ? t(status) : escapeHtml(game.status)}</td>`;
  }
  const tone = game.total > 0 ? "plus" : game.total < 0 ? "minus" : "";
  return `<td class="${tone}">${signed(game.total)}</td><td data-role="rank">${game.rank === null ? "—" : game.rank}</td>`;
}

function gamesTable(games) {
  const rows = games
    .map((game) => {
      const replays = Array.from({ length: game.hands_played }, (_, index) =>
        `<a href="#/replay/${game.number}/${index}" data-role="replay">${index + 1}</a>`).join(" ");
      const rules = pick(game.rules_zh, game.rules_en) || game.preset;
      return `<tr data-room="${game.number}"><td><a href="#/room/${game.number}">${game.number}</a></td>` +
        `<td data-role="rules">${escapeHtml(rules)}</td><td class="when">${escapeHtml(game.created_at.replace("T", " ").slice(0, 16))}</td>` +
        `${resultCells(game)}<td class="replays">${replays}</td></tr>`;
    })
    .join("");
  return `<div class="scroll"><table><thead><tr><th>${t("history.room")}</th><th>${t("history.rules")}</th><th>${t("history.when")}</th>` +
    `<th>${t("history.total")}</th><th>${t("history.rank")}</th><th>${t("summary.replay")}</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}
