// 快捷语 and emotes (docs/protocol.md, `say` and `said`): a panel of quick phrases and emotes; what a
// seat says shows as a bubble by its name plate for a few seconds, and a phrase is spoken when sound
// is on. Phrases travel as numbers, worded here in the reader's language. Each reader mutes whom they
// like (this page only).

import { both, t } from "./i18n.js";
import { speak } from "./sound.js";
import { escapeHtml, html } from "./util.js";

export const PHRASES = 12;
export const EMOTES = { smile: "😄", laugh: "😂", cry: "😭", angry: "😠", cool: "😎", shock: "😱" };
const SHOWN_MS = 3500;

export class Social {
  constructor(client) {
    this.client = client;
    this.muted = new Set(); // seats this reader does not want to hear
    this.panel = null;
    this.away = null; // the listener that puts the open panel away
  }

  buttonHtml() {
    return `<button type="button" data-role="chat" aria-expanded="${Boolean(this.panel)}">${t("social.chat")}</button>`;
  }

  toggle() {
    if (this.panel) this.close();
    else this.open();
  }

  open() {
    const client = this.client;
    const mySeat = client.seat ?? null;
    const seats = [0, 1, 2, 3].filter((seat) => seat !== mySeat && client.room.seats[seat] && !client.room.seats[seat].bot);
    const phrases = Array.from({ length: PHRASES }, (_, index) =>
      `<button type="button" class="phrase" data-phrase="${index}">${escapeHtml(t(`phrase.${index}`))}</button>`).join("");
    const emotes = Object.entries(EMOTES)
      .map(([name, face]) => `<button type="button" class="emote" data-emote="${name}" aria-label="${name}">${face}</button>`)
      .join("");
    const mutes = seats
      .map((seat) => {
        const muted = this.muted.has(seat);
        return `<button type="button" data-role="mute" data-seat="${seat}" aria-pressed="${muted}">${escapeHtml(client.seatName(seat))}${muted ? ` · ${t("social.muted")}` : ""}</button>`;
      })
      .join("");
    this.close();
    const panel = html(`<section class="chat-panel" data-role="chat-panel" aria-label="${escapeHtml(t("social.title"))}">
      <div class="emotes">${emotes}</div>
      <div class="phrases">${phrases}</div>
      ${mutes ? `<div class="mutes"><span class="muted">${t("social.mute")}</span> ${mutes}</div>` : ""}
    </section>`);
    panel.addEventListener("click", (event) => {
      const button = event.target.closest("button");
      if (!button) return;
      if (button.dataset.phrase !== undefined) this.say({ phrase: Number(button.dataset.phrase) });
      else if (button.dataset.emote) this.say({ emote: button.dataset.emote });
      else if (button.dataset.role === "mute") {
        const seat = Number(button.dataset.seat);
        if (this.muted.has(seat)) this.muted.delete(seat);
        else this.muted.add(seat);
        this.open(); // drawn again with the new state
      }
    });
    document.body.append(panel);
    this.panel = panel;
    // A tap beside the panel puts it away (the 快捷语 button toggles it itself). Not Escape: at the
    // table that key lets a claim go.
    this.away = (event) => {
      if (!event.target.closest('[data-role="chat-panel"], [data-role="chat"]')) this.close();
    };
    document.addEventListener("pointerdown", this.away);
  }

  say(what) {
    this.client.send({ type: "say", ...what });
    this.close();
  }

  // A `said` message: a bubble by the seat's plate, and the phrase spoken (unless the seat is muted).
  heard(message) {
    if (this.muted.has(message.seat)) return;
    const phrase = message.phrase !== undefined ? `phrase.${message.phrase}` : null;
    const text = phrase ? t(phrase) : EMOTES[message.emote];
    if (!text) return;
    this.bubble(message.seat, text, phrase === null);
    if (phrase) speak(...both(phrase));
  }

  bubble(seat, text, emote) {
    const plate = document.querySelector(`.corner[data-seat="${seat}"] [data-role="plate"]`);
    const bubble = html(`<div class="bubble${emote ? " emote" : ""}" data-role="bubble" data-seat="${seat}" role="status">${escapeHtml(text)}</div>`);
    const box = plate ? plate.getBoundingClientRect() : { left: window.innerWidth / 2, bottom: window.innerHeight / 2, width: 0 };
    for (const old of document.querySelectorAll(`[data-role="bubble"][data-seat="${seat}"]`)) old.remove();
    document.body.append(bubble);
    // Under the middle of its plate, kept on the screen by its own width (an emote is narrow, a phrase
    // wide): a bubble placed by a guessed width showed at the wrong player on a phone.
    const width = bubble.offsetWidth;
    const middle = box.left + box.width / 2;
    bubble.style.left = `${Math.max(4, Math.min(middle - width / 2, window.innerWidth - width - 4))}px`;
    bubble.style.top = `${Math.max(4, box.bottom + 4)}px`;
    setTimeout(() => bubble.remove(), SHOWN_MS);
  }

  close() {
    if (this.panel) this.panel.remove();
    this.panel = null;
    if (this.away) {
      document.removeEventListener("pointerdown", this.away);
      this.away = null;
    }
  }
}
