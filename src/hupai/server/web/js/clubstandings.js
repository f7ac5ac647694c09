// A club's standings (战绩, club.js's last tab): over this week, this month or all time, per player
// (matches, total, average, 1st places, 大赢家), and the club's matches, newest first, each with its
// players' totals and its replays; 50 a page (更多 reads the next), and the same as a CSV file.

import { api } from "./api.js";
import { t } from "./i18n.js";
import { escapeHtml, signed } from "./util.js";

const PERIODS = ["week", "month", "all"];
const PAGE = 50; // the server's page of matches

export class StandingsPanel {
  constructor(page) {
    this.page = page; // club.js's ClubPage
    this.period = "week";
    this.data = null; // the first page's answer
    this.matches = []; // every page read so far
    this.more = false;
    this.wired = false;
  }

  get element() {
    return this.page.page.querySelector('[data-role="standings-panel"]');
  }

  // Read again each time the tab opens: a match may have ended since.
  async load() {
    await this.page.act(async () => {
      const answer = await api.standings(this.page.number, this.period);
      this.data = answer;
      this.matches = answer.matches;
      this.more = answer.matches.length >= PAGE;
      this.draw();
    });
  }

  async loadMore() {
    const last = this.matches[this.matches.length - 1];
    await this.page.act(async () => {
      const answer = await api.standings(this.page.number, this.period, last.room_id);
      this.matches = [...this.matches, ...answer.matches];
      this.more = answer.matches.length >= PAGE;
      this.draw();
    });
  }

  draw() {
    const periods = PERIODS.map((period) => `<button type="button" data-period="${period}" aria-pressed="${period === this.period}">${t(`club.period.${period}`)}</button>`).join("");
    const csv = `/api/clubs/${this.page.number}/standings.csv?period=${this.period}`;
    this.element.innerHTML = `<section class="card club-standings">
      <div class="standings-bar"><div class="period-switch" role="group">${periods}</div>
        <a class="button" href="${csv}" download data-role="standings-csv">${t("club.csv")}</a></div>
      ${this.data === null ? `<p class="muted">${t("common.loading")}</p>` : this.tableHtml()}
    </section>
    ${this.data === null ? "" : this.matchesHtml()}`;
    if (!this.wired) {
      this.element.addEventListener("click", (event) => {
        const button = event.target.closest("button");
        if (!button) return;
        if (button.dataset.period) {
          this.period = button.dataset.period;
          this.load();
        } else if (button.dataset.role === "more-matches") this.loadMore();
      });
      this.wired = true;
    }
  }

  tableHtml() {
    const rows = this.data.standings;
    if (!rows.length) return `<p class="muted empty-history" data-role="no-standings">${t("club.noMatches")}</p>`;
    const me = this.page.user.id;
    const body = rows.map((row) => {
      const rank = rows.findIndex((other) => other.total === row.total) + 1; // ties share a place
      const tone = row.total > 0 ? "plus" : row.total < 0 ? "minus" : "";
      return `<tr data-user="${row.user_id}"${row.user_id === me ? ' class="me"' : ""}>
        <td><span class="place rank-${Math.min(rank, 4)}">${rank}</span></td>
        <th scope="row">${escapeHtml(row.name)}</th>
        <td data-col="matches">${row.matches}</td>
        <td data-col="total" class="${tone}">${signed(row.total)}</td>
        <td data-col="average">${row.average}</td>
        <td data-col="firsts">${row.firsts}</td>
        <td data-col="big_wins">${row.big_wins}</td>
      </tr>`;
    }).join("");
    const head = ["summary.rank", "summary.player", "club.matches", "summary.total", "club.average", "club.firsts", "club.bigWins"]
      .map((key) => `<th scope="col">${t(key)}</th>`).join("");
    return `<div class="standings-scroll"><table class="standings" data-role="standings"><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table></div>`;
  }

  matchesHtml() {
    if (!this.matches.length) return "";
    const items = this.matches.map((match) => {
      const players = [...match.players].sort((a, b) => a.rank - b.rank || a.seat - b.seat).map((player) => {
        const tone = player.total > 0 ? "plus" : player.total < 0 ? "minus" : "";
        // A bot by its seat in the reader's words (the server names it in Chinese).
        const name = player.user_id === null ? t("club.bot", { n: player.seat + 1 }) : escapeHtml(player.name);
        const who = player.user_id === null ? " data-bot" : player.user_id === this.page.user.id ? ' class="me"' : "";
        return `<li${who}>${name} <b class="${tone}">${signed(player.total)}</b></li>`;
      }).join("");
      // A replay per hand played: a match dissolved by a vote may have stopped early (n/N局).
      const played = match.hands_played ?? match.hands;
      const replays = Array.from({ length: played }, (_, index) =>
        `<a href="#/replay/${match.number}/${index}" data-role="replay" class="chip">${index + 1}</a>`).join("");
      const when = match.ended_at ? localTime(match.ended_at) : "";
      return `<li class="game-row club-match" data-room="${match.number}">
        <div class="game-words">
          <span class="muted">${t("history.room")} ${match.number} · ${played < match.hands ? t("club.handsOf", { n: played, total: match.hands }) : t("card.hands", { n: match.hands })}${match.status === "dissolved" ? ` · ${t("history.dissolved")}` : ""} · <time>${when}</time></span>
          <ol class="match-players">${players}</ol>
          ${played ? `<span class="replays"><span class="muted">${t("summary.replay")}</span> ${replays}</span>` : ""}
        </div>
      </li>`;
    }).join("");
    return `<section class="card"><h2>${t("club.matchList")}</h2><ol class="game-list" data-role="club-matches">${items}</ol>
      ${this.more ? `<p><button type="button" data-role="more-matches">${t("club.more")}</button></p>` : ""}</section>`;
  }
}

// The server's time (UTC, written without a zone) as the reader's clock shows it: 2025-05-02 21:30.
function localTime(iso) {
  const when = new Date(/(Z|[+-]\d\d:\d\d)$/.test(iso) ? iso : `${iso}Z`);
  const two = (value) => String(value).padStart(2, "0");
  return `${when.getFullYear()}-${two(when.getMonth() + 1)}-${two(when.getDate())} ${two(when.getHours())}:${two(when.getMinutes())}`;
}
