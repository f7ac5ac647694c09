// Small helpers shared by the views.

export function escapeHtml(text) {
  return String(text ?? "").replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

let toastTimer = null;
export function toast(message, kind = "info") {
  const box = document.getElementById("toast");
  box.textContent = message;
  box.className = kind;
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (box.hidden = true), 4000);
}

// Build an element from HTML (one root).
export function html(markup) {
  const template = document.createElement("template");
  template.innerHTML = markup.trim();
  return template.content.firstElementChild;
}

export function signed(value) {
  return value > 0 ? `+${value}` : String(value);
}

// Rule cards in menu order: Nanjing, Nanning, Enshi, each rule set's own preset before its variants.
const RULE_SET_ORDER = ["nanjing", "nanning", "enshi"];
export function byRuleSet(a, b) {
  const rank = (card) => {
    const index = RULE_SET_ORDER.indexOf(card.ruleset);
    return (index < 0 ? RULE_SET_ORDER.length : index) * 2 + (card.preset === card.ruleset ? 0 : 1);
  };
  return rank(a) - rank(b) || a.preset.localeCompare(b.preset);
}

// Copy text for the player. The clipboard API needs a secure context (https or localhost); elsewhere
// (a LAN address over http, an old browser, no permission) the old copy command still works from a
// click. Resolves to whether it worked.
export async function copyToClipboard(text) {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // fall through to the copy command
  }
  const scratch = document.createElement("textarea");
  scratch.value = text;
  scratch.setAttribute("readonly", "");
  scratch.style.position = "fixed";
  scratch.style.opacity = "0";
  document.body.append(scratch);
  scratch.select();
  let done = false;
  try {
    done = document.execCommand("copy");
  } catch {
    done = false;
  }
  scratch.remove();
  return done;
}

// An update's view from the one before and its patch (docs/protocol.md, delta=1): the fields that
// changed, and under `seats` each seat's entry where it changed (null where it did not).
export function patchedView(before, patch) {
  const after = { ...before, ...patch };
  if (patch.seats) after.seats = patch.seats.map((entry, seat) => entry ?? before.seats[seat]);
  return after;
}
