// The score calculator (算分器) for people playing on a real table: enter the hand, melds and the few
// facts the chosen rule set scores (Nanjing: flowers, 报听, 比下胡; Nanning: code, horse and fish tiles
// where its options turn them; Enshi: 痞子 and 赖子), and how it was won; get the winning hand, the
// itemised score and the payments. Every word is a [data-i18n] element: a language switch
// re-translates the form in place and redraws the result or the error from what was kept.

import { api } from "./api.js";
import { meldTiles } from "./board.js";
import { onLanguageChange, pick, t, word } from "./i18n.js";
import { optionHtml, ruleCardEditor } from "./rulecard.js";
import { itemsHtml, readingHtml, transfersHtml } from "./settlement.js";
import { parseTiles, tileName, tileOrder, tilesHtml, tileSvg } from "./tiles.js";
import { byRuleSet, escapeHtml, html, signed } from "./util.js";

const HOWS = ["self_drawn", "discard", "robbed_kong", "kong_replacement", "flower_replacement", "flower_kong_replacement", "claim"];
const SELF_DRAWN = ["self_drawn", "kong_replacement", "flower_replacement", "flower_kong_replacement"];
const NANJING_HOWS = ["flower_replacement", "flower_kong_replacement", "claim"];
const MELDS = ["pung", "exposed_kong", "added_kong", "concealed_kong", "chow"];
const SEATS = ["calc.me", "calc.right", "calc.across", "calc.left"];
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

const seatOptions = (selected, withNone = false) =>
  (withNone ? `<option value="" data-i18n="calc.noOne">${t("calc.noOne")}</option>` : "") +
  SEATS.map((key, seat) => `<option value="${seat}" data-i18n="${key}" ${seat === selected ? "selected" : ""}>${t(key)}</option>`).join("");
const wordOption = (value, key) => `<option value="${value}" data-i18n="${key}">${t(key)}</option>`;
const seatNames = () => SEATS.map((key) => t(key));

function formHtml(cards, initial) {
  return `<section class="calc" data-role="calc">
    <header class="calc-head"><span class="calc-icon">${tileSvg("5z")}</span><div><h1>${word("calc.title")}</h1><p>${word("calc.lead")}</p></div></header>
    <form data-role="calc-form" autocomplete="off" novalidate>
      <label class="setting"><span class="setting-name">${word("lobby.preset")}</span><select name="preset">${cards.map((card) => optionHtml(card.preset, card, card.preset === initial)).join("")}</select></label>
      <section class="calc-section">
        <h2>${word("calc.tiles")}</h2>
        <label data-field="hand">${word("calc.hand")} <input name="hand" data-tiles placeholder="123m456p789s11z"></label>
        <div class="preview" data-preview="hand"></div>
        <label data-field="win_tile">${word("calc.win")} <input name="win_tile" data-tiles maxlength="2" placeholder="2z"></label>
        <p class="muted palette-help">${word("calc.palette")}</p>
        <div class="palette" data-role="palette"></div>
        <label data-field="flowers">${word("calc.flowers")} <input name="flowers" data-tiles placeholder="1f2f5z"></label>
      </section>
      <section class="calc-section">
        <h2>${word("calc.howWon")}</h2>
        <div class="row">
          <label data-field="how">${word("calc.how")} <select name="how">${HOWS.map((how) => wordOption(how, `calc.how.${how}`)).join("")}</select></label>
          <label data-field="from">${word("calc.from")} <select name="from">${seatOptions(1, true)}</select></label>
          <label data-field="dealer">${word("calc.dealer")} <select name="dealer">${seatOptions(0)}</select></label>
        </div>
        <div class="row checks">
          <label data-field="first_turn"><input type="checkbox" name="first_turn"> ${word("calc.firstTurn")}</label>
          <label data-field="ready"><input type="checkbox" name="ready"> ${word("calc.ready")}</label>
          <label data-field="haidi"><input type="checkbox" name="haidi"> ${word("calc.haidi")}</label>
          <label data-field="multiplier">${word("calc.multiplier")} <select name="multiplier"><option>1</option><option>2</option><option>4</option><option>8</option></select></label>
        </div>
      </section>
      <fieldset class="calc-section" data-field="melds"><legend>${word("calc.melds")}</legend><div data-role="melds"></div>
        <button type="button" data-role="add-meld">${word("calc.addMeld")}</button></fieldset>
      <fieldset class="calc-section" data-field="nanning"><legend>${word("calc.nanning")}</legend>
        <label data-field="code_tiles">${word("calc.codeTiles")} <input name="code_tiles" data-tiles placeholder="1m5p"></label>
        <label data-field="horse_tiles">${word("calc.horseTiles")} <input name="horse_tiles" data-tiles placeholder="3s"></label>
        <label data-field="fish_tiles">${word("calc.fishTiles")} <input name="fish_tiles" data-tiles placeholder="2m7p9s"></label>
        <label data-field="previous_winner">${word("calc.previousWinner")} <select name="previous_winner">${seatOptions(-1, true)}</select></label>
      </fieldset>
      <fieldset class="calc-section" data-field="enshi"><legend>${word("calc.enshi")}</legend>
        <div class="row">
          <label data-field="pizi">${word("calc.pizi")} <input name="pizi" data-tiles maxlength="2" placeholder="5m"></label>
          <span>${word("calc.laizi")} <span class="preview" data-role="laizi"></span></span>
        </div>
        <p class="muted">${word("calc.laid")}</p>
        <div class="row" data-field="laid">${SEATS.map((key, seat) => `<label>${word(key)} <input name="laid-${seat}" data-tiles placeholder="5m6m" size="8"></label>`).join("")}</div>
        <label data-field="lays_before">${word("calc.laysBefore")} <select name="lays_before">${[0, 1, 2, 3].map((count) => `<option>${count}</option>`).join("")}</select></label>
      </fieldset>
      <details class="rules"><summary>${word("calc.options")}</summary><div data-role="card"></div></details>
      <div class="calc-bar"><button type="submit" class="primary">${word("calc.score")}</button></div>
    </form>
    <div class="result" data-role="calc-result"></div>
  </section>`;
}

function meldRowHtml() {
  return `<div class="meld-row row">
    <select name="kind">${MELDS.map((kind) => wordOption(kind, `calc.meld.${kind}`)).join("")}</select>
    <input name="tile" data-tiles maxlength="2" placeholder="5p">
    <select name="meld-from">${seatOptions(2, true)}</select>
    <button type="button" class="link" data-role="remove-meld">${word("calc.remove")}</button>
  </div>`;
}

export async function show(root) {
  const cards = (await api.rulesets()).sort(byRuleSet);
  // Nanjing first, as before other rule sets came (the presets come alphabetically: enshi first).
  const initial = cards.some((card) => card.preset === "nanjing") ? "nanjing" : cards[0]?.preset;
  let editor = null;
  let focused = null;
  let shown = null; // what the result area shows: {spec, result} or {error}, redrawn on a language switch

  root.innerHTML = "";
  const page = html(formHtml(cards, initial));
  root.append(page);
  const form = page.querySelector("form");
  const out = page.querySelector('[data-role="calc-result"]');
  const meldList = page.querySelector('[data-role="melds"]');
  focused = form.hand;

  const chosen = () => cards.find((card) => card.preset === form.preset.value);
  const field = (name) => page.querySelector(`[data-field="${name}"]`);
  const visible = (name) => !field(name).hidden;

  // Only the facts this rule set (and its options) score are asked for.
  function showFields() {
    const ruleset = chosen()?.ruleset;
    const options = editor.options();
    const how = form.how.value;
    const selfDrawn = SELF_DRAWN.includes(how);
    const nanning = ruleset === "nanning";
    const fishing = nanning ? options.fishing || "off" : "off";
    const wanted = {
      flowers: ruleset === "nanjing",
      ready: ruleset === "nanjing",
      multiplier: ruleset === "nanjing",
      enshi: ruleset === "enshi",
      from: !selfDrawn,
      code_tiles: nanning && options.moma > 0 && selfDrawn,
      horse_tiles: nanning && options.maima > 0,
      fish_tiles: fishing === "s000_predraw" || (fishing === "s004_count" && selfDrawn),
      previous_winner: fishing === "s004_count",
    };
    wanted.nanning = wanted.code_tiles || wanted.horse_tiles || wanted.fish_tiles || wanted.previous_winner;
    for (const [name, on] of Object.entries(wanted)) field(name).hidden = !on;
    for (const option of form.how.options) {
      option.hidden = option.disabled = ruleset !== "nanjing" && NANJING_HOWS.includes(option.value);
    }
    if (form.how.selectedOptions[0]?.disabled) {
      form.how.value = "self_drawn";
      showFields();
    }
    const chow = chosen()?.ruleset === "enshi";
    for (const option of page.querySelectorAll('.meld-row option[value="chow"]')) option.hidden = option.disabled = !chow;
    field("melds").querySelector("legend").innerHTML = word(chow ? "calc.meldsChow" : "calc.melds");
    showLaizi();
  }
  function showCard() {
    editor = ruleCardEditor(chosen(), { onChange: showFields });
    const holder = page.querySelector('[data-role="card"]');
    holder.innerHTML = "";
    holder.append(editor.element);
    showFields();
  }
  function showLaizi() {
    const code = parseTiles(form.pizi.value)[0] || "";
    const laizi = code ? wildOf(code, editor.options().honour_successor) : "";
    page.querySelector('[data-role="laizi"]').innerHTML = laizi ? tileSvg(laizi, { extra: "small" }) : "—";
  }
  // Tiles carry their names (title, aria-label) in the language of the moment they were drawn.
  function showTiles() {
    page.querySelector('[data-preview="hand"]').innerHTML = tilesHtml(parseTiles(form.hand.value), { extra: "small" });
    page.querySelector('[data-role="palette"]').innerHTML =
      parseTiles(PALETTE).map((code) => `<button type="button" class="pick" data-pick="${code}">${tileSvg(code, { extra: "small" })}</button>`).join("") +
      `<button type="button" data-role="clear">${word("calc.clear")}</button>`;
    showLaizi();
  }
  function showResult() {
    for (const marked of page.querySelectorAll(".invalid")) marked.classList.remove("invalid");
    if (!shown) {
      out.innerHTML = "";
    } else if (shown.error) {
      out.innerHTML = errorHtml(shown.error);
      const at = shown.error.field && page.querySelector(`[data-field="${shown.error.field}"]`);
      if (at) at.classList.add("invalid");
    } else {
      out.innerHTML = resultHtml(shown.result, shown.spec);
    }
  }

  form.preset.addEventListener("change", showCard);
  form.how.addEventListener("change", showFields);
  form.hand.addEventListener("input", showTiles);
  form.pizi.addEventListener("input", showLaizi);
  form.addEventListener("focusin", (event) => {
    if (event.target.matches("[data-tiles]")) focused = event.target;
  });
  page.querySelector('[data-role="palette"]').addEventListener("click", (event) => {
    const input = focused || form.hand;
    const pick = event.target.closest("[data-pick]");
    if (pick) input.value = input.maxLength === 2 ? pick.dataset.pick : input.value + pick.dataset.pick;
    else if (event.target.closest('[data-role="clear"]')) input.value = "";
    else return;
    showTiles();
  });
  page.querySelector('[data-role="add-meld"]').addEventListener("click", () => {
    const row = html(meldRowHtml());
    row.querySelector('[data-role="remove-meld"]').addEventListener("click", () => row.remove());
    meldList.append(row);
    showFields();
    focused = row.querySelector("input");
    focused.focus();
  });
  showCard();
  showTiles();

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const spec = readSpec(form, meldList, editor, visible);
    try {
      shown = { spec, result: await api.score(spec) };
    } catch (error) {
      shown = { error };
    }
    showResult();
    out.scrollIntoView({ block: "nearest" }); // on a phone the result is below the fold
  });
  onLanguageChange(() => {
    showTiles();
    showResult();
  });
  return null;
}

// The description the server scores, from the fields this rule set shows.
function readSpec(form, meldList, editor, visible) {
  const seatOrNull = (value) => (value === "" ? null : Number(value));
  const tiles = (name) => (visible(name) ? form[name].value.trim() : "");
  const melds = [...meldList.querySelectorAll(".meld-row")].map((row) => {
    const kind = row.querySelector('[name="kind"]').value;
    return {
      kind,
      tile: row.querySelector('[name="tile"]').value.trim(),
      from: kind === "concealed_kong" ? null : seatOrNull(row.querySelector('[name="meld-from"]').value),
    };
  });
  const how = form.how.value;
  const spec = {
    preset: form.preset.value,
    options: editor.changes(),
    seat: 0,
    dealer: Number(form.dealer.value),
    hand: form.hand.value.trim(),
    win_tile: form.win_tile.value.trim(),
    how,
    from: visible("from") ? seatOrNull(form.from.value) : null,
    melds,
    flowers: tiles("flowers"),
    first_turn: form.first_turn.checked,
    ready: visible("ready") && form.ready.checked,
    haidi: form.haidi.checked,
    multiplier: visible("multiplier") ? Number(form.multiplier.value) : 1,
    code_tiles: tiles("code_tiles"),
    horse_tiles: tiles("horse_tiles"),
    fish_tiles: tiles("fish_tiles"),
    previous_winner: visible("previous_winner") ? seatOrNull(form.previous_winner.value) : null,
  };
  if (visible("enshi")) {
    // 痞子 (the 赖子 follows from it), each seat's lays, and the lays right before the win: a 杠开 on the
    // lay's replacement (kong_replacement), or a 杠上炮 / robbed kong after the discarder's lays.
    spec.pizi = form.pizi.value.trim();
    spec.laid = Object.fromEntries(
      [0, 1, 2, 3].map((seat) => [String(seat), form[`laid-${seat}`].value.trim()]).filter(([, laid]) => laid),
    );
    spec.lays_before = ["kong_replacement", "discard", "robbed_kong"].includes(how) ? Number(form.lays_before.value) : 0;
  }
  return spec;
}

// A refusal in the player's language: the field's name and what is wrong with it.
function errorHtml(error) {
  const known = (key) => t(key) !== key;
  const params = { ...(error.params || {}) };
  if (params.tile) params.tile = /^[1-9][mpszf]$/.test(params.tile) ? tileName(params.tile) : params.tile;
  const problem = error.code && known(`error.${error.code}`) ? t(`error.${error.code}`, params) : error.code ? t("error.invalid") : error.message;
  const fieldKey = `field.${error.field}`;
  const text = error.field && known(fieldKey) ? t("error.line", { field: t(fieldKey), problem }) : problem;
  return `<p class="error" data-role="calc-error" data-field="${escapeHtml(error.field || "")}" data-code="${escapeHtml(error.code || "")}" title="${escapeHtml(error.message)}">${escapeHtml(text)}</p>`;
}

function meldHtml(meld) {
  if (meld.kind === "concealed_kong") {
    const back = tileSvg(null, { back: true });
    return `<span class="meld concealed">${back}${tileSvg(meld.tile)}${tileSvg(meld.tile)}${back}</span>`;
  }
  return `<span class="meld ${meld.kind}">${tilesHtml(meldTiles(meld))}</span>`;
}

// The winning hand as the table would see it laid down: the concealed tiles, the winning tile apart,
// the melds, then flowers or the tiles laid.
function wonHandHtml(spec) {
  const hand = parseTiles(spec.hand).sort((a, b) => tileOrder(a) - tileOrder(b));
  const extras = parseTiles(`${spec.flowers || ""}${(spec.laid || {})["0"] || ""}`);
  return `<div class="won-hand" data-role="won-hand">
    <span class="concealed">${tilesHtml(hand)}</span>
    <span class="win-tile" title="${escapeHtml(t("calc.win"))}">${tileSvg(spec.win_tile, { extra: "winning" })}</span>
    ${spec.melds.map(meldHtml).join("")}
    ${extras.length ? `<span class="flowers">${tilesHtml(extras, { extra: "small" })}</span>` : ""}
  </div>`;
}

function resultHtml(result, spec) {
  const names = seatNames();
  if (!result.allowed) return `<p class="banner blocked" data-role="calc-refused">${t("calc.notAllowed")}: ${escapeHtml(result.reason)}</p>`;
  // Enshi: each loser pays the share times their own multiplier (and ×2 as the discarder), capped.
  const payers = result.sheet.payers || [];
  const caps = { cap: t("end.cap"), gold_cap: t("end.goldCap"), diamond_cap: t("end.diamondCap") };
  const payerRows = payers.map((line) => {
    const factors = line.items.map((item) => `${escapeHtml(pick(item.zh, item.en))} ×${item.value}`).join(" ");
    const paid = line.cap ? `${line.raw} → <b>${line.paid}</b> (${caps[line.cap] || line.cap})` : `<b>${line.paid}</b>`;
    return `<tr class="payer" data-seat="${line.seat}"><th>${names[line.seat]}</th><td>${factors}</td><td>${paid}</td></tr>`;
  }).join("");
  const payerTable = payers.length ? `<h3>${t("calc.payers")}</h3><table class="items payers" data-role="payers"><tbody>${payerRows}</tbody></table>` : "";
  const deltas = result.deltas.map((delta, seat) => `<tr><th>${names[seat]}</th><td class="${delta > 0 ? "plus" : delta < 0 ? "minus" : ""}">${signed(delta)}</td></tr>`).join("");
  return `<div class="sheet" data-role="calc-sheet">
    <div class="calc-headline"><span>${t(payers.length ? "calc.winnerShare" : "calc.share")} <b>${result.share}</b></span><span>${t("calc.total")} <b>${signed(result.total)}</b></span></div>
    <h3>${t("calc.wonHand")}</h3>
    ${wonHandHtml(spec)}
    <p class="reading" data-role="reading" aria-label="${escapeHtml(result.sheet.reading)}">${readingHtml(result.sheet.reading)}</p>
    <table class="items"><tbody>${itemsHtml(result.sheet.items)}</tbody>
      <tfoot><tr><th>${t(payers.length ? "calc.winnerShare" : "calc.share")}</th><td><b data-role="share">${result.share}</b></td></tr></tfoot></table>
    ${payerTable}
    <h3>${t("end.payments")}</h3><ul class="transfers">${transfersHtml(result.transfers, names)}</ul>
    <table class="deltas"><tbody>${deltas}</tbody></table>
    <p><b>${t("calc.total")} <span data-role="total">${signed(result.total)}</span></b></p>
  </div>`;
}
