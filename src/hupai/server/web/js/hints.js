// Hints (a toggle at the table): the waits with how many are left and what each would score, and the
// discards that keep the best shanten and the most accepting tiles. The server computes them for the
// seat (docs/protocol.md, `hints`).

import { knows, t } from "./i18n.js";
import { tileSvg } from "./tiles.js";
import { escapeHtml } from "./util.js";

function word(key, n) {
  return t(`hints.${key}`, { n });
}

export function hintsHtml(hints) {
  const waits = (hints.waits || [])
    .map((wait) => {
      const value = (amount, label) => (amount === null || amount === undefined ? "" : `${label} +${amount}`);
      const worth = [value(wait.self_drawn, word("selfDrawn")), value(wait.discard, word("discard"))].filter(Boolean).join(" · ");
      // The rule in the reader's language where its code has words (i18n.js refusal.*), else the server's.
      const why = wait.refusal_why && knows(`refusal.${wait.refusal_why.code}`) ? t(`refusal.${wait.refusal_why.code}`, wait.refusal_why.params) : wait.refusal;
      return `<li class="wait" data-tile="${wait.tile}">${tileSvg(wait.tile, { extra: "small" })} ${word("left", wait.left)}` +
        `${worth ? ` · ${escapeHtml(worth)}` : ""}${why ? ` <span class="muted" data-role="wait-refusal">${escapeHtml(why)}</span>` : ""}</li>`;
    })
    .join("");
  const discards = (hints.discards || [])
    .slice(0, 5)
    .map((option) => `<li class="discard-hint" data-tile="${option.tile}">${tileSvg(option.tile, { extra: "small" })} ` +
      `${option.shanten === 0 ? word("ready") : `${option.shanten} ${word("shanten")}`} · ${word("accepting", option.accepting)}</li>`)
    .join("");
  if (!waits && !discards) return ""; // nothing to suggest now: no empty box
  return `<aside class="hints" data-role="hints-panel"><h3>${t("table.hints")}</h3>
    ${waits ? `<h4>${word("waits")}</h4><ul>${waits}</ul>` : ""}
    ${discards ? `<h4>${word("discards")}</h4><ul>${discards}</ul>` : ""}
  </aside>`;
}
