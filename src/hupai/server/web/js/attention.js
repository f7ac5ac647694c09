// Your turn reaches you (issue 47): while the page is hidden and a decision waits for this player —
// a discard, a claim, a dissolve vote — the tab's title and icon say so, the phone vibrates once
// (where the browser lets it), and, if the player turned it on, a notification opens the table. In
// front, nothing: the table itself shows the turn. No push server: only while the page is open.

import { t } from "./i18n.js";

const TITLE = document.title;
const ICON = "/static/favicon.svg";
const ICON_TURN = "/static/favicon-turn.svg";
const NOTIFY_KEY = "hupai.notify";

let waiting = null; // what waits for this player now (a key: a new one alerts again), or null
let alerted = null;
let note = null;

function icon(href) {
  const link = document.querySelector('link[rel="icon"]');
  if (link && link.getAttribute("href") !== href) link.setAttribute("href", href);
}

function calm() {
  document.title = TITLE;
  icon(ICON);
  if (note) note.close();
  note = null;
}

function remind(what) {
  document.title = `${t(`attention.${what}`)} · ${TITLE}`;
  icon(ICON_TURN);
  if (alerted === waiting) return; // one vibration and notification per decision
  alerted = waiting;
  if ("vibrate" in navigator && navigator.userActivation?.hasBeenActive) navigator.vibrate(200);
  if (notificationsOn() && Notification.permission === "granted") {
    note = new Notification(t(`attention.${what}`), { body: t("attention.body"), tag: "hupai-turn", icon: "/static/icons/icon-192.png" });
    note.addEventListener("click", () => {
      window.focus();
      note.close();
    });
  }
}

document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") calm();
  else if (waiting) remind(waiting.split(":")[0]);
});

// What waits for this player now: "turn" (a discard), "claim", "vote", with a key that changes with
// each decision (the prompt's seq), or null. Called on every redraw of a table.
export function decisionWaiting(what, key) {
  const now = what ? `${what}:${key}` : null;
  if (now === waiting) return;
  waiting = now;
  if (!waiting) calm();
  else if (document.visibilityState === "hidden") remind(what);
}

export function notificationsOn() {
  return "Notification" in window && localStorage.getItem(NOTIFY_KEY) === "1";
}

// Turn notifications on (asking the browser's permission) or off; whether they are on afterwards.
export async function setNotifications(on) {
  if (!("Notification" in window)) return false;
  if (on && Notification.permission !== "granted") await Notification.requestPermission();
  const granted = on && Notification.permission === "granted";
  localStorage.setItem(NOTIFY_KEY, granted ? "1" : "0");
  return granted;
}
