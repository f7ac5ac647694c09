// Seat names in the reader's language: the server names bots in Chinese (电脑2·高手); a client that
// knows the seat's bot level says it its own way ("Bot 2 · Strong").

import { t } from "./i18n.js";

export function seatName(name, botLevel, seat) {
  if (!botLevel) return name;
  return t("bot.name", { n: seat + 1, level: t(`bot.${botLevel}`) });
}

// Every seat's name from a list of names and a list of bot levels (either may be missing).
export function seatNames(names, botLevels) {
  return (names || []).map((name, seat) => seatName(name, (botLevels || [])[seat], seat));
}
