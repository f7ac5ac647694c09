// A club's page (#/club/NNNNNNNN): its live lobby (牌桌: the tables waiting and in play, who sits where,
// 坐下 in one tap, 开桌 from a 玩法 in one tap), its 玩法 (saved rule cards; the owner and admins save
// them with the lobby's own form), its members (clubmembers.js) and its standings (clubstandings.js).
// The tables come live over the club's socket (/api/clubs/{number}/ws, docs/protocol.md): the page
// replaces its list with every `club_tables`, reads the club again on `club_changed`, and says at once
// when the club is gone for this player (closed 4404: removed, or the club closed).

import { api, ApiError, currentUser } from "./api.js";
import { avatarHtml } from "./avatar.js";
import { confirmDialog } from "./dialog.js";
import { pick, t, word } from "./i18n.js";
import { showNickname } from "./lobby.js";
import { seatName } from "./names.js";
import { roomForm } from "./roomform.js";
import { ruleCardHtml, ruleSummary } from "./rulecard.js";
import { roleHtml } from "./clubs.js";
import { MembersPanel } from "./clubmembers.js";
import { StandingsPanel } from "./clubstandings.js";
import { byRuleSet, escapeHtml, html, toast } from "./util.js";

const TABS = ["tables", "rules", "members", "standings"];
const LEADERS = ["owner", "admin"];
const BACKOFF_MS = [1000, 2000, 4000, 8000, 15000]; // reconnecting, then every 15 s
// Closes after which reconnecting would be refused again: not a member (any more), not logged in, a
// foreign page, too many sockets.
const FINAL = new Set([4401, 4403, 4404, 4429]);

export async function show(root, [number]) {
  const user = await currentUser();
  if (!user) {
    showNickname(root, () => show(root, [number]));
    return null;
  }
  let club;
  try {
    club = await api.club(number);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return gone(root, "club.notFound");
    throw error;
  }
  const [cards, tables] = await Promise.all([api.rulesets(), api.clubTables(number)]);
  const page = new ClubPage(root, number, user, club, cards.sort(byRuleSet), tables);
  page.connect();
  return () => page.close();
}

// The club is not this player's (any more): said in place of the page, with the way back.
function gone(root, key) {
  root.innerHTML = `<section class="card club-gone" data-role="club-gone"><p class="error">${t(key)}</p>
    <a href="#/clubs" class="button primary">${t("club.backToClubs")}</a></section>`;
  return null;
}

class ClubPage {
  constructor(root, number, user, club, cards, tables) {
    this.root = root;
    this.number = number;
    this.user = user;
    this.club = club;
    this.cards = cards;
    this.labels = Object.fromEntries(cards.map((card) => [card.ruleset, card.labels]));
    this.tables = tables;
    this.closed = false;
    this.socket = null;
    this.retries = 0;
    this.tab = sessionStorage.getItem(`hupai.club.${number}.tab`) || "tables";
    this.members = new MembersPanel(this);
    this.standings = new StandingsPanel(this);
    this.relabel = () => this.redraw();
    window.addEventListener("languagechange-hupai", this.relabel);
    this.draw();
  }

  get leader() {
    return LEADERS.includes(this.club.role);
  }

  draw() {
    this.root.innerHTML = "";
    this.page = html(`<section class="club-page" data-role="club" data-club="${escapeHtml(this.number)}">
      <header class="club-head" data-role="club-head"></header>
      <p class="club-live" data-role="club-live" hidden></p>
      <nav class="club-tabs" role="tablist">${TABS.map((tab) => `<button type="button" role="tab" data-tab="${tab}" aria-selected="false">${word(`club.tab.${tab}`)}</button>`).join("")}</nav>
      <section class="club-panel" data-panel="tables">
        <div class="club-open" data-role="open-tables"></div>
        <ul class="club-tables" data-role="club-tables"></ul>
      </section>
      <section class="club-panel" data-panel="rules">
        <ul class="club-rules" data-role="club-rules"></ul>
        <div data-role="rules-form-holder"></div>
      </section>
      <section class="club-panel" data-panel="members" data-role="members-panel"></section>
      <section class="club-panel" data-panel="standings" data-role="standings-panel"></section>
    </section>`);
    this.root.append(this.page);
    this.page.querySelector(".club-tabs").addEventListener("click", (event) => {
      const button = event.target.closest("[data-tab]");
      if (button) this.showTab(button.dataset.tab);
    });
    this.page.addEventListener("click", (event) => this.clicked(event));
    this.redraw();
    this.showTab(TABS.includes(this.tab) ? this.tab : "tables");
  }

  // Everything drawn from the club and its tables, again (a change, a language switch). The 玩法 form
  // is drawn once (it keeps what is typed; its words follow the language by themselves).
  redraw() {
    if (this.closed) return;
    this.drawHead();
    this.drawTables();
    this.drawRules();
    this.members.draw();
    this.standings.draw();
    this.drawLive();
  }

  showTab(tab) {
    this.tab = tab;
    sessionStorage.setItem(`hupai.club.${this.number}.tab`, tab);
    for (const button of this.page.querySelectorAll("[data-tab]")) button.setAttribute("aria-selected", String(button.dataset.tab === tab));
    for (const panel of this.page.querySelectorAll("[data-panel]")) panel.hidden = panel.dataset.panel !== tab;
    if (tab === "standings") this.standings.load();
    if (tab === "members") this.members.loadInvite();
  }

  drawHead() {
    const club = this.club;
    this.page.querySelector('[data-role="club-head"]').innerHTML = `
      <span class="club-icon" aria-hidden="true">${escapeHtml(Array.from(club.name)[0] || "圈")}</span>
      <div class="club-title"><h1 data-role="club-name">${escapeHtml(club.name)}</h1>
        <p class="club-meta"><span>${t("club.number")} <span class="club-number" data-role="club-number">${escapeHtml(club.number)}</span></span>
          <span>${t("club.members")} ${club.members.length}</span>${roleHtml(club.role)}</p></div>
      <a class="club-back" href="#/clubs">${t("club.allClubs")}</a>`;
  }

  // Connected, reconnecting, or nothing to say.
  drawLive() {
    const line = this.page.querySelector('[data-role="club-live"]');
    line.hidden = this.socket === null || this.connected !== false;
    line.textContent = t("club.reconnecting");
  }

  // --- 牌桌 ---------------------------------------------------------------------------------------

  drawTables() {
    const rules = this.club.rules;
    this.page.querySelector('[data-role="open-tables"]').innerHTML = rules.length
      ? `<h2>${t("club.openTable")}</h2><div class="open-buttons">${rules.map((item) => `<button type="button" class="open-table" data-open="${item.id}">
          <b>${escapeHtml(item.name)}</b><small>${this.summary(item.rules, item.card.hands)}</small></button>`).join("")}</div>`
      : `<p class="muted" data-role="no-rules">${t(this.leader ? "club.noRulesLeader" : "club.noRules")}</p>`;
    const list = this.page.querySelector('[data-role="club-tables"]');
    list.innerHTML = this.tables.length
      ? this.tables.map((room) => this.tableHtml(room)).join("")
      : `<li class="muted empty-tables" data-role="no-tables">${t("club.noTables")}</li>`;
  }

  // 南京麻将 · 4局 · 跑20 · 比下胡: a table's rules in a line, as HTML (a line breaks after a dot,
  // never before it nor inside a part: "base 20" stays whole). `more`: further parts.
  summary(card, hands, more = []) {
    const parts = [pick(card.zh, card.en), t("card.hands", { n: hands }), ...ruleSummary(card, card.options), ...more];
    return parts.map((part) => `<span class="nobr">${escapeHtml(part)}</span>`).join("&nbsp;· ");
  }

  tableHtml(room) {
    const mine = room.seats.some((place) => place.user_id === this.user.id && !place.left);
    const waiting = room.status === "waiting";
    const seats = room.seats.map((place) => {
      let who;
      if (place.bot) who = `${avatarHtml({ bot: true })}<span class="seat-name">${escapeHtml(seatName(place.name, place.bot, place.seat))}</span><span class="tag">${t("room.bot")}</span>`;
      else if (place.user_id !== null) {
        who = `${avatarHtml({ name: place.name, avatar: place.avatar })}<span class="seat-name">${escapeHtml(place.name)}</span>` +
          (place.user_id === room.host_id ? `<span class="tag host">${t("room.host")}</span>` : "") +
          (place.user_id === this.user.id ? `<span class="tag you">${t("room.you")}</span>` : "") +
          (waiting && place.ready && place.user_id !== room.host_id ? `<span class="tag ready">${t("room.isReady")}</span>` : "");
      } else if (waiting && !mine) who = `<button type="button" class="primary sit" data-sit="${place.seat}" data-room="${room.number}">${t("room.sit")}</button>`;
      else who = `<span class="avatar empty-seat" aria-hidden="true"></span><span class="muted seat-name">${t("room.empty")}</span>`;
      return `<li class="club-seat${place.bot ? " bot" : ""}${place.user_id === null && !place.bot ? " free" : ""}" data-seat="${place.seat}"><span class="wind" title="${t(`seat.${place.seat}`)}">${t(`wind.${place.seat}`)}</span>${who}</li>`;
    }).join("");
    const enter = mine ? "club.enter" : waiting ? "club.look" : "club.watch";
    return `<li class="club-table card" data-room="${room.number}" data-status="${escapeHtml(room.status)}">
      <div class="club-table-head">
        <b data-role="table-rules">${escapeHtml(room.club_rules || pick(room.rules.zh, room.rules.en))}</b>
        <span class="tag state-${escapeHtml(room.status)}" data-role="table-state">${waiting ? t("club.waiting") : t("club.playingHand", { n: Math.min((room.hands_played ?? 0) + 1, room.hands), total: room.hands })}</span>
        <span class="muted">${t("history.room")} ${room.number}</span>
      </div>
      <p class="muted club-table-rules">${this.summary(room.rules, room.hands)}</p>
      <ol class="club-seats">${seats}</ol>
      <div class="club-table-actions"><a class="button${mine ? " primary" : ""}" href="#/room/${room.number}" data-role="enter-table">${t(enter)}</a></div>
    </li>`;
  }

  async clicked(event) {
    const button = event.target.closest("button");
    if (!button || this.closed) return;
    if (button.dataset.sit !== undefined) {
      await this.act(async () => {
        await api.sit(button.dataset.room, Number(button.dataset.sit));
        location.hash = `#/room/${button.dataset.room}`;
      });
    } else if (button.dataset.open !== undefined) {
      await this.act(async () => {
        const room = await api.openClubTable(this.number, Number(button.dataset.open));
        location.hash = `#/room/${room.number}`;
      });
    } else if (button.dataset.dropRules !== undefined) {
      const item = this.club.rules.find((rules) => rules.id === Number(button.dataset.dropRules));
      if (!item || !(await confirmDialog(t("club.dropRulesConfirm", { name: item.name })))) return;
      await this.act(async () => this.changed(await api.dropClubRules(this.number, item.id)));
    }
  }

  // A request of this page's; a 404 means the club is gone for this player.
  async act(work) {
    try {
      await work();
    } catch (error) {
      if (error instanceof ApiError && error.code === "no_club") this.lost();
      else toast(error.message, "error");
    }
  }

  // --- 玩法 ---------------------------------------------------------------------------------------

  drawRules() {
    const list = this.page.querySelector('[data-role="club-rules"]');
    list.innerHTML = this.club.rules.length
      ? this.club.rules.map((item) => {
        const card = { ...item.rules, labels: this.labels[item.rules.ruleset] };
        return `<li class="club-rule card" data-rules="${item.id}">
          <div class="club-rule-head"><b data-role="rules-name">${escapeHtml(item.name)}</b>
            <span class="club-rule-buttons"><button type="button" class="primary" data-open="${item.id}">${t("club.open")}</button>
            ${this.leader ? `<button type="button" class="link" data-drop-rules="${item.id}">${t("club.dropRules")}</button>` : ""}</span></div>
          <p class="muted">${this.summary(item.rules, item.card.hands, [`${t("lobby.seconds")} ${item.card.decision_seconds}`, t(`pace.${item.card.bot_pace}`)])}</p>
          <details class="rules"><summary>${t("lobby.ruleCard")}</summary>${ruleCardHtml(card)}</details>
        </li>`;
      }).join("")
      : `<li class="muted" data-role="no-rules-yet">${t(this.leader ? "club.noRulesLeader" : "club.noRules")}</li>`;
    const holder = this.page.querySelector('[data-role="rules-form-holder"]');
    if (!this.leader) {
      holder.innerHTML = "";
      if (this.form) this.form.forget();
      this.form = null;
    } else if (!this.form) this.drawRulesForm(holder);
  }

  // The lobby's form, with a name: saving a 玩法 of the same name replaces it.
  drawRulesForm(holder) {
    const top = `<p class="muted card-lead">${word("club.rulesLead")}</p>
      <label class="setting rules-name"><span class="setting-name">${word("club.rulesName")}</span>
        <input name="rules_name" maxlength="64" required autocomplete="off"></label>`;
    this.form = roomForm(this.cards, { role: "rules-form", title: "club.newRules", submit: "club.saveRules", top });
    holder.append(this.form.element);
    this.form.element.addEventListener("submit", async (event) => {
      event.preventDefault();
      const name = this.form.element.rules_name.value.trim();
      await this.act(async () => {
        this.changed(await api.saveClubRules(this.number, name, this.form.spec()));
        this.form.element.rules_name.value = "";
        toast(t("club.rulesSaved", { name }));
      });
    });
  }

  // --- the club as it changes ----------------------------------------------------------------------

  // The club as an answer has it now (the socket's club_changed reads it again).
  changed(club) {
    this.club = club;
    this.redraw();
  }

  async reload() {
    try {
      this.changed(await api.club(this.number));
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) this.lost();
    }
  }

  lost() {
    this.close();
    gone(this.root, "club.removed");
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/api/clubs/${this.number}/ws`);
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.retries = 0;
      this.connected = true;
      this.drawLive();
    });
    socket.addEventListener("message", (event) => {
      if (socket !== this.socket || this.closed) return;
      const message = JSON.parse(event.data);
      if (message.type === "club_tables") {
        this.tables = message.tables;
        this.drawTables();
      } else if (message.type === "club_changed") this.reload();
    });
    socket.addEventListener("close", (event) => {
      if (socket !== this.socket || this.closed) return;
      this.connected = false;
      if (event.code === 4404) return this.lost();
      if (FINAL.has(event.code)) {
        this.socket = null;
        this.page.querySelector('[data-role="club-live"]').hidden = false;
        this.page.querySelector('[data-role="club-live"]').textContent = t("club.liveOff");
        return undefined;
      }
      this.drawLive();
      const wait = BACKOFF_MS[Math.min(this.retries, BACKOFF_MS.length - 1)];
      this.retries += 1;
      this.timer = setTimeout(() => {
        if (this.closed) return;
        this.connect();
        // The tables may have changed while nobody told us: read them again meanwhile.
        api.clubTables(this.number).then((tables) => {
          if (!this.closed) {
            this.tables = tables;
            this.drawTables();
          }
        }, () => {});
      }, wait);
      return undefined;
    });
  }

  close() {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.timer);
    window.removeEventListener("languagechange-hupai", this.relabel);
    if (this.form) this.form.forget();
    if (this.socket) this.socket.close();
    this.socket = null;
  }
}
