// The table lays out best held sideways: four rivers side by side and a hand of big tiles (issue 47).
// On a phone held upright the table says so above the board, and where the browser allows it
// (fullscreen and a screen orientation lock: Android's browsers) turns the screen at a tap. Nothing is
// locked unasked: the hint can be put away for good, the table plays upright as well, and a turn the
// player asked for is undone when they leave the table. Whether the hint shows is the stylesheet's
// (a media query), so turning the phone hides it without a redraw.
import { t } from "./i18n.js";
import { icon } from "./icons.js";
import { toast } from "./util.js";

const PUT_AWAY = "hupai.orientationHint";
let turned = false; // this page locked the screen sideways (and went fullscreen for it)

function canTurn() {
  return Boolean(screen.orientation && typeof screen.orientation.lock === "function" && document.fullscreenEnabled);
}

export function orientationHintHtml() {
  if (localStorage.getItem(PUT_AWAY) === "away") return "";
  return `<div class="orientation-hint" data-role="orientation-hint" role="note">
    <span class="turn-icon">${icon("turnSideways")}</span>
    <span class="words">${t("table.sideways")}</span>
    ${canTurn() ? `<button type="button" class="primary" data-role="turn-sideways">${t("table.turnSideways")}</button>` : ""}
    <button type="button" data-role="hint-away">${t("table.hintAway")}</button>
  </div>`;
}

export function wireOrientationHint(page) {
  const hint = page.querySelector('[data-role="orientation-hint"]');
  if (!hint) return;
  hint.querySelector('[data-role="hint-away"]').addEventListener("click", () => {
    localStorage.setItem(PUT_AWAY, "away");
    hint.remove();
  });
  const turn = hint.querySelector('[data-role="turn-sideways"]');
  if (turn) turn.addEventListener("click", turnSideways);
}

async function turnSideways() {
  const entered = !document.fullscreenElement;
  try {
    // A screen may be locked sideways only in fullscreen (or an installed app): enter it first.
    if (entered) await document.documentElement.requestFullscreen({ navigationUI: "hide" });
    await screen.orientation.lock("landscape");
    turned = true;
  } catch {
    if (entered && document.fullscreenElement) await document.exitFullscreen().catch(() => {});
    toast(t("table.turnByHand"));
  }
}

// Leaving the table gives the screen back as it was before the player turned it.
export function untilLeaving() {
  if (!turned) return;
  turned = false;
  try {
    screen.orientation.unlock();
  } catch {
    // Nothing was locked after all.
  }
  if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
}
