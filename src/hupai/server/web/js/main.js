// The page: a small hash router over the lobby, a room (waiting room and table), an invitation link
// (#/join/NNNNNN/<token>), history, clubs (#/clubs, #/club/NNNNNNNN and its link
// #/club/NNNNNNNN/<token>), replays and the score calculator. Each view is a module with
// `show(root, params)` returning a cleanup function.

import { clearLanguageListeners, language, languageChanged, setLanguage, t, translate } from "./i18n.js";
import { isOffline, offlineHtml, registerServiceWorker, watchConnection } from "./install.js";
import { escapeHtml } from "./util.js";

const ROUTES = [
  [/^#\/room\/(\d{6})$/, () => import("./room.js")],
  [/^#\/join\/([^/]*)(?:\/([^/]*))?$/, () => import("./join.js")],
  [/^#\/replay\/(\d{6})\/(\d+)$/, () => import("./replay.js")],
  [/^#\/history$/, () => import("./history.js")],
  [/^#\/clubs$/, () => import("./clubs.js")],
  [/^#\/club\/(\d+)\/([^/]+)$/, () => import("./clubjoin.js")],
  [/^#\/club\/(\d+)$/, () => import("./club.js")],
  [/^#\/calc$/, () => import("./calc.js")],
  [/^.*$/, () => import("./lobby.js")],
];

let cleanup = null;
let visits = 0;
let shown = 0; // the last visit whose view finished showing

async function route() {
  const root = document.getElementById("app");
  const hash = location.hash || "#/";
  for (const [pattern, load] of ROUTES) {
    const match = hash.match(pattern);
    if (!match) continue;
    if (cleanup) cleanup();
    cleanup = null;
    clearLanguageListeners();
    const visit = ++visits;
    root.innerHTML = `<p class="muted">${t("common.loading")}</p>`;
    try {
      const view = await load();
      const done = (await view.show(root, match.slice(1))) || null;
      // A quicker later navigation won the race: this view is already gone. If that later view had
      // already shown, this one may have painted over it while loading: show the current one again.
      if (visit !== visits) {
        if (done) done();
        if (shown === visits) route();
        return;
      }
      cleanup = done;
      shown = visit;
    } catch (error) {
      if (visit !== visits) {
        if (shown === visits) route(); // as above: a view gone while loading says nothing over the next
        return;
      }
      // With the network gone the installed app still opens (sw.js): it says so, and opens the view
      // again once the network is back (watchConnection).
      root.innerHTML = isOffline(error) ? offlineHtml() : `<p class="error">${t("common.error")}: ${escapeHtml(error.message)}</p>`;
    }
    return;
  }
}

function showLanguage() {
  document.getElementById("lang").textContent = language() === "zh" ? "EN" : "中文";
  translate();
}

document.getElementById("lang").addEventListener("click", () => {
  setLanguage(language() === "zh" ? "en" : "zh");
  showLanguage();
  languageChanged();
  window.dispatchEvent(new Event("languagechange-hupai")); // room.js and replay.js listen for themselves

});

window.addEventListener("hashchange", route);
setLanguage(language());
showLanguage();
watchConnection(() => {
  if (document.querySelector('[data-role="offline"]')) route();
});
registerServiceWorker();
route();
