// The 逃跑 (leave for good) confirmation: what leaving costs under this room's own rules, from the
// rule card's `escape` (docs/protocol.md), instead of one rule set's penalty for all.

import { pick, t } from "./i18n.js";

// The localized question asked (dialog.js) before POST /api/rooms/{number}/leave during play.
export function escapeWarning(room) {
  const escape = (room && room.rules && room.rules.escape) || null;
  const terms = escape ? pick(escape.zh, escape.en) : t("escape.unknown");
  return t("escape.confirm", { terms });
}
