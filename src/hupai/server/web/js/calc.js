// The score calculator (算分器) for people playing on a real table: enter the hand, melds, flowers
// and how it was won; get the itemised score and the payments under any rule set, preset and options.

import { api } from "./api.js";
import { pick, t } from "./i18n.js";
import { ruleCardEditor } from "./rulecard.js";
import { itemsHtml, transfersHtml } from "./settlement.js";
import { parseTiles, tilesHtml, tileSvg } from "./tiles.js";
import { byRuleSet, escapeHtml, html, signed, toast } from "./util.js";

const WORDS = {
  zh: {
    title: "算分器", hand: "手牌（不含胡的那张）", win: "胡的牌", how: "怎么胡的", from: "谁放的炮 / 被抢杠", dealer: "庄家",
    melds: "碰杠", addMeld: "加一组", flowers: "花（硬花）", firstTurn: "天胡/地胡（第一圈）", ready: "报听", haidi: "海底",
    multiplier: "比下胡倍数", score: "算分", notAllowed: "不能胡", share: "每家", total: "赢", palette: "点牌输入到选中的格子",
    me: "我", right: "下家", across: "对家", left: "上家", remove: "删除", clear: "清空", options: "规则选项",
    how_self_drawn: "自摸", how_discard: "点炮", how_robbed_kong: "抢杠", how_kong_replacement: "杠开",
    how_flower_replacement: "小杠开（补花）", how_flower_kong_replacement: "花杠开", how_claim: "快照/三清",
    pung: "碰", exposed_kong: "明杠", added_kong: "补杠", concealed_kong: "暗杠", chow: "吃（最小的牌）",
    enshi: "痞子与赖子", winnerShare: "赢家份额", payers: "各家付", cap: "封顶", gold_cap: "金顶", diamond_cap: "钻石顶", pizi: "痞子（翻开的牌）", laizi: "赖子", laid: "下的痞子/赖子", laysBefore: "胡牌前刚下了几张（杠开/杠上炮）",
  },
  en: {
    title: "Score calculator", hand: "Hand (without the winning tile)", win: "Winning tile", how: "How it was won", from: "Discarded / robbed by", dealer: "Dealer",
    melds: "Melds", addMeld: "Add a meld", flowers: "Flowers", firstTurn: "First go-round (heavenly/earthly)", ready: "Declared ready (报听)", haidi: "Last tiles (海底)",
    multiplier: "Doubled hand ×", score: "Score it", notAllowed: "Not a legal win", share: "each share", total: "wins", palette: "Tap tiles to fill the chosen field",
    me: "Me", right: "Right", across: "Across", left: "Left", remove: "Remove", clear: "Clear", options: "Rule options",
    how_self_drawn: "Self-drawn", how_discard: "On a discard", how_robbed_kong: "Robbing a kong", how_kong_replacement: "Kong replacement",
    how_flower_replacement: "Flower replacement", how_flower_kong_replacement: "Flower-kong replacement", how_claim: "Claim wins (快照/三清)",
    pung: "Pung", exposed_kong: "Exposed kong", added_kong: "Added kong", concealed_kong: "Concealed kong", chow: "Chow (lowest tile)",
    enshi: "痞子 and 赖子", winnerShare: "winner's share", payers: "Each loser pays", cap: "capped", gold_cap: "gold cap", diamond_cap: "diamond cap", pizi: "痞子 (tile turned up)", laizi: "赖子 (wild)", laid: "痞子/赖子 laid", laysBefore: "Lays just before the win (杠开 / 杠上炮)",
  },
};
const HOWS = ["self_drawn", "discard", "robbed_kong", "kong_replacement", "flower_replacement", "flower_kong_replacement", "claim"];
const MELDS = ["pung", "exposed_kong", "added_kong", "concealed_kong", "chow"];
const PALETTE = "123456789m123456789p123456789s1234567z12345678f";
// The 赖子 after an honour 痞子 (Enshi with honours), by the honour_successor option.
const HONOUR_NEXT = {
  winds_dragons: { "1z": "2z", "2z": "3z", "3z": "4z", "4z": "1z", "7z": "6z", "6z": "5z", "5z": "7z" },
  riichi: { "1z": "2z", "2z": "3z", "3z": "4z", "4z": "1z", "5z": "6z", "6z": "7z", "7z": "5z" },
  single_cycle: { "1z": "2z", "2z": "3z", "3z": "4z", "4z": "7z", "7z": "6z", "6z": "5z", "5z": "1z" },
};

// The wildcard a 痞子 names: the next tile of its suit, 9 → 1.
function wildOf(code, successor = "winds_dragons") {
  if (!/^[1-9][mps]$/.test(code)) return (HONOUR_NEXT[successor] || HONOUR_NEXT.winds_dragons)[code] || "";
  return `${(Number(code[0]) % 9) + 1}${code[1]}`;
}

function word(key) {
  const lang = document.documentElement.lang.startsWith("zh") ? "zh" : "en";
  return WORDS[lang][key] ?? key;
}

const seatNames = () => [word("me"), word("right"), word("across"), word("left")];
const seatOptions = (selected, withNone = false) =>
  (withNone ? `<option value="">—</option>` : "") +
  seatNames().map((name, seat) => `<option value="${seat}" ${seat === selected ? "selected" : ""}>${name}</option>`).join("");

export async function show(root) {
  const cards = (await api.rulesets()).sort(byRuleSet);
  // Nanjing first, as before other rule sets came (the presets come alphabetically: enshi first).
  const initial = cards.some((card) => card.preset === "nanjing") ? "nanjing" : cards[0]?.preset;
  let editor = null;
  let focused = null;

  root.innerHTML = "";
  const page = html(`<section class="calc" data-role="calc">
    <h1>${word("title")}</h1>
    <form data-role="calc-form" autocomplete="off">
      <label>${t("lobby.preset")} <select name="preset">${cards.map((card) => `<option value="${escapeHtml(card.preset)}" ${card.preset === initial ? "selected" : ""}>${escapeHtml(pick(card.zh, card.en))}</option>`).join("")}</select></label>
      <label>${word("hand")} <input name="hand" data-tiles placeholder="123m456p789s11z" required></label>
      <div class="preview" data-preview="hand"></div>
      <label>${word("win")} <input name="win_tile" data-tiles maxlength="2" placeholder="2z" required></label>
      <div class="row">
        <label>${word("how")} <select name="how">${HOWS.map((how) => `<option value="${how}">${word(`how_${how}`)}</option>`).join("")}</select></label>
        <label>${word("from")} <select name="from">${seatOptions(1, true)}</select></label>
        <label>${word("dealer")} <select name="dealer">${seatOptions(0)}</select></label>
      </div>
      <fieldset><legend>${word("melds")}</legend><div data-role="melds"></div>
        <button type="button" data-role="add-meld">${word("addMeld")}</button></fieldset>
      <label data-role="flowers">${word("flowers")} <input name="flowers" data-tiles placeholder="1f2f5z"></label>
      <fieldset data-role="enshi" style="display: none"><legend>${word("enshi")}</legend>
        <div class="row">
          <label>${word("pizi")} <input name="pizi" data-tiles maxlength="2" placeholder="5m"></label>
          <span>${word("laizi")} <span class="preview" data-role="laizi"></span></span>
        </div>
        <p class="muted">${word("laid")}</p>
        <div class="row">${seatNames().map((name, seat) => `<label>${name} <input name="laid-${seat}" data-tiles placeholder="5m6m" size="8"></label>`).join("")}</div>
        <label>${word("laysBefore")} <select name="lays_before">${[0, 1, 2, 3].map((count) => `<option>${count}</option>`).join("")}</select></label>
      </fieldset>
      <div class="row">
        <label><input type="checkbox" name="first_turn"> ${word("firstTurn")}</label>
        <label data-role="ready"><input type="checkbox" name="ready"> ${word("ready")}</label>
        <label><input type="checkbox" name="haidi"> ${word("haidi")}</label>
        <label data-role="multiplier">${word("multiplier")} <select name="multiplier"><option>1</option><option>2</option><option>4</option><option>8</option></select></label>
      </div>
      <details class="rules"><summary>${word("options")}</summary><div data-role="card"></div></details>
      <p class="muted">${word("palette")}</p>
      <div class="palette" data-role="palette">${parseTiles(PALETTE).map((code) => `<button type="button" class="pick" data-pick="${code}">${tileSvg(code, { extra: "small" })}</button>`).join("")}
        <button type="button" data-role="clear">${word("clear")}</button></div>
      <button type="submit" class="primary">${word("score")}</button>
    </form>
    <div class="result" data-role="calc-result"></div>
  </section>`);
  root.append(page);
  const form = page.querySelector("form");
  focused = form.hand;

  const chosen = () => cards.find((card) => card.preset === form.preset.value);
  const isEnshi = () => chosen()?.ruleset === "enshi";
  function showCard() {
    editor = ruleCardEditor(chosen());
    const holder = page.querySelector('[data-role="card"]');
    holder.innerHTML = "";
    holder.append(editor.element);
    // Enshi: the 痞子/赖子 fields; no flowers, 报听, 比下胡 or 快照 there.
    const enshi = isEnshi();
    page.querySelector('[data-role="enshi"]').style.display = enshi ? "" : "none";
    for (const role of ["flowers", "ready", "multiplier"]) {
      page.querySelector(`[data-role="${role}"]`).style.display = enshi ? "none" : "";
    }
    for (const option of form.how.options) {
      option.hidden = enshi && (option.value.startsWith("flower") || option.value === "claim");
    }
    if (enshi && form.how.selectedOptions[0]?.hidden) form.how.value = "self_drawn";
    showLaizi();
  }
  function showLaizi() {
    const code = parseTiles(form.pizi.value)[0] || "";
    const options = { ...(chosen()?.options || {}), ...(editor ? editor.changes() : {}) };
    const laizi = code ? wildOf(code, options.honour_successor) : "";
    page.querySelector('[data-role="laizi"]').innerHTML = laizi ? tileSvg(laizi, { extra: "small" }) : "—";
  }
  form.preset.addEventListener("change", showCard);
  showCard();

  function preview() {
    page.querySelector('[data-preview="hand"]').innerHTML = tilesHtml(parseTiles(form.hand.value), { extra: "small" });
  }
  form.addEventListener("focusin", (event) => {
    if (event.target.matches("[data-tiles]")) focused = event.target;
  });
  form.hand.addEventListener("input", preview);
  form.pizi.addEventListener("input", showLaizi);
  for (const button of page.querySelectorAll("[data-pick]")) {
    button.addEventListener("click", () => {
      const input = focused || form.hand;
      const code = button.dataset.pick;
      input.value = input.maxLength === 2 ? code : input.value + code;
      preview();
      showLaizi();
    });
  }
  page.querySelector('[data-role="clear"]').addEventListener("click", () => {
    (focused || form.hand).value = "";
    preview();
    showLaizi();
  });

  const meldList = page.querySelector('[data-role="melds"]');
  page.querySelector('[data-role="add-meld"]').addEventListener("click", () => {
    const row = html(`<div class="meld-row row">
      <select name="kind">${MELDS.map((kind) => `<option value="${kind}">${word(kind)}</option>`).join("")}</select>
      <input name="tile" data-tiles maxlength="2" placeholder="5p" required>
      <select name="meld-from">${seatOptions(2, true)}</select>
      <button type="button" class="link" data-role="remove-meld">${word("remove")}</button>
    </div>`);
    row.querySelector('[data-role="remove-meld"]').addEventListener("click", () => row.remove());
    meldList.append(row);
    focused = row.querySelector("input");
    focused.focus();
  });

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const seatOrNull = (value) => (value === "" ? null : Number(value));
    const melds = [...meldList.querySelectorAll(".meld-row")].map((row) => ({
      kind: row.querySelector('[name="kind"]').value,
      tile: row.querySelector('[name="tile"]').value.trim(),
      from: row.querySelector('[name="kind"]').value === "concealed_kong" ? null : seatOrNull(row.querySelector('[name="meld-from"]').value),
    }));
    const how = form.how.value;
    const spec = {
      preset: form.preset.value,
      options: editor.changes(),
      seat: 0,
      dealer: Number(form.dealer.value),
      hand: form.hand.value.trim(),
      win_tile: form.win_tile.value.trim(),
      how,
      from: ["discard", "robbed_kong", "claim"].includes(how) ? seatOrNull(form.from.value) : null,
      melds,
      flowers: form.flowers.value.trim(),
      first_turn: form.first_turn.checked,
      ready: form.ready.checked,
      haidi: form.haidi.checked,
      multiplier: Number(form.multiplier.value),
    };
    if (isEnshi()) {
      spec.ready = false;
      spec.multiplier = 1;
      // 痞子 (the 赖子 follows from it), each seat's lays, and the lays right before the win: a 杠开 on the
      // lay's replacement (kong_replacement), or a 杠上炮 / robbed kong after the discarder's lays.
      spec.flowers = "";
      spec.pizi = form.pizi.value.trim();
      spec.laid = Object.fromEntries(
        [0, 1, 2, 3].map((seat) => [String(seat), form[`laid-${seat}`].value.trim()]).filter(([, tiles]) => tiles),
      );
      spec.lays_before = ["kong_replacement", "discard", "robbed_kong"].includes(how) ? Number(form.lays_before.value) : 0;
    }
    const out = page.querySelector('[data-role="calc-result"]');
    try {
      out.innerHTML = resultHtml(await api.score(spec));
    } catch (error) {
      out.innerHTML = `<p class="error" data-role="calc-error">${escapeHtml(error.message)}</p>`;
      toast(error.message, "error");
    }
  });
  return null;
}

function resultHtml(result) {
  const names = seatNames();
  if (!result.allowed) return `<p class="banner blocked" data-role="calc-refused">${word("notAllowed")}: ${escapeHtml(result.reason)}</p>`;
  // Enshi: each loser pays the share times their own multiplier (and ×2 as the discarder), capped.
  const payers = result.sheet.payers || [];
  const payerRows = payers.map((line) => {
    const factors = line.items.map((item) => `${escapeHtml(pick(item.zh, item.en))} ×${item.value}`).join(" ");
    const paid = line.cap ? `${line.raw} → <b>${line.paid}</b> (${word(line.cap)})` : `<b>${line.paid}</b>`;
    return `<tr class="payer" data-seat="${line.seat}"><th>${names[line.seat]}</th><td>${factors}</td><td>${paid}</td></tr>`;
  }).join("");
  const payerTable = payers.length ? `<h3>${word("payers")}</h3><table class="items payers" data-role="payers"><tbody>${payerRows}</tbody></table>` : "";
  const deltas = result.deltas.map((delta, seat) => `<tr><th>${names[seat]}</th><td class="${delta > 0 ? "plus" : delta < 0 ? "minus" : ""}">${signed(delta)}</td></tr>`).join("");
  return `<div class="sheet" data-role="calc-sheet">
    <p class="reading">${escapeHtml(result.sheet.reading)}</p>
    <table class="items"><tbody>${itemsHtml(result.sheet.items)}</tbody>
      <tfoot><tr><th>${word(payers.length ? "winnerShare" : "share")}</th><td><b data-role="share">${result.share}</b></td></tr></tfoot></table>
    ${payerTable}
    <h3>${t("end.payments")}</h3><ul class="transfers">${transfersHtml(result.transfers, names)}</ul>
    <table class="deltas"><tbody>${deltas}</tbody></table>
    <p><b>${word("total")} <span data-role="total">${signed(result.total)}</span></b></p>
  </div>`;
}
