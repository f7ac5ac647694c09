// The installed app (issue 47): the service worker that keeps the app's shell for when the network
// is gone (sw.js, served by the server with its build's version), and the page's word for that:
// offline, it says so and opens again by itself once the network is back. The table is live only.

import { t } from "./i18n.js";

// Register the worker where the browser has one (a secure page: https, or this machine's http).
export function registerServiceWorker() {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
    // No worker (private mode, a browser setting): the page works as a page.
  });
}

// Whether an error is the network's (the server unreachable), not the server's answer.
export function isOffline(error) {
  return !navigator.onLine || (error instanceof TypeError && !("status" in error));
}

// The offline notice over the page, and what happens when the network comes back (`reopen`).
export function watchConnection(reopen) {
  const notice = document.getElementById("offline");
  const show = () => {
    notice.textContent = t("app.offline");
    notice.hidden = navigator.onLine;
  };
  window.addEventListener("offline", show);
  window.addEventListener("online", () => {
    show();
    reopen();
  });
  window.addEventListener("languagechange-hupai", show);
  show();
}

// What the page shows in place of a view it could not load because the network is gone.
export function offlineHtml() {
  return `<section class="card offline-card" data-role="offline"><h2>${t("app.offlineTitle")}</h2><p>${t("app.offlineBody")}</p></section>`;
}
