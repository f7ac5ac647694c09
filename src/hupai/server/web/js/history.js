// My games: every room I sat in, with its result, and the replays of its hands.

import { api, currentUser } from "./api.js";
import { t } from "./i18n.js";
import { showNickname } from "./lobby.js";
import { escapeHtml, html, signed } from "./util.js";

export async function show(root) {
  const user = await currentUser();
  if (!user) {
    showNickname(root, () => show(root));
    return null;
  }
  const games = await api.history();
  root.innerHTML = "";
  const rows = games
    .map((game) => {
      const replays = Array.from({ length: game.hands_played }, (_, index) =>
        `<a href="#/replay/${game.number}/${index}" data-role="replay">${index + 1}</a>`).join(" ");
      const result = game.total === null ? escapeHtml(game.status) : `${signed(game.total)} (#${game.rank})`;
      return `<tr data-room="${game.number}"><td><a href="#/room/${game.number}">${game.number}</a></td>` +
        `<td>${escapeHtml(game.preset)}</td><td>${escapeHtml(game.created_at.replace("T", " ").slice(0, 16))}</td>` +
        `<td>${result}</td><td class="replays">${replays}</td></tr>`;
    })
    .join("");
  root.append(html(`<section class="history">
    <h1>${t("history.title")}</h1>
    ${games.length ? `<table><thead><tr><th>${t("history.room")}</th><th>${t("history.rules")}</th><th>${t("history.when")}</th><th>${t("history.result")}</th><th>${t("summary.replay")}</th></tr></thead><tbody>${rows}</tbody></table>` : `<p class="muted">${t("history.none")}</p>`}
  </section>`));
  return null;
}
