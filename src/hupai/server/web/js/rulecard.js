// The rule card: a preset's options with their Chinese (or English) names, editable before a room is
// created and read-only at the table. Texts come from the rule set's labels (/api/rulesets) and carry
// data-zh/data-en, so i18n.translate() re-labels an editor in place without touching its inputs.

import { escapeHtml } from "./util.js";
import { pick, t } from "./i18n.js";

// The options a table agrees on before anything else, per rule set: shown first, the rest under
// 更多规则. Kept here in the client because only the card's layout and its one-line summary use it;
// the server's cards stay complete and in the rule set's own order.
const COMMON = {
  nanjing: [
    "base", "kong_money_zar2", "bixiahu_triggers", "bixiahu_mult", "small_hand_hard_flowers", "multi_ron",
    "pass_win_restriction", "exposed_kong_money", "concealed_kong_money", "escape_penalty",
  ],
  nanning: [
    "combine", "chicken_ron", "menqing_ron", "kong_points", "multi_ron", "pass_win_restriction", "fenghu",
    "min_points", "moma", "maima", "fishing",
  ],
  enshi: ["honours", "chow", "difen", "cap", "gold_cap", "discarder_double", "rob_kong", "multi_ron", "min_points"],
};

// What the summary line says of a rule set's options: [i18n key, values] parts, empty ones left out.
const SUMMARY = {
  nanjing: (options) => [
    ["card.base", { n: options.base }],
    options.kong_money_zar2 ? ["card.zar2"] : null,
    !(options.bixiahu_triggers || []).length ? ["card.noBixiahu"] : options.bixiahu_mult === "cumulative" ? ["card.bixiahuStacks"] : ["card.bixiahu"],
  ],
  nanning: (options) => [
    [options.combine === "add" ? "card.combineAdd" : "card.combineMultiply"],
    options.chicken_ron === "tsumo_only" ? ["card.chickenTsumo"] : null,
    options.min_points ? ["card.minPoints", { n: options.min_points }] : null,
    options.moma ? ["card.moma", { n: options.moma }] : null,
    options.maima ? ["card.maima", { n: options.maima }] : null,
    options.fishing && options.fishing !== "off" ? ["card.fishing"] : null,
  ],
  enshi: (options) => [
    ["card.difen", { n: options.difen }],
    options.cap ? ["card.cap", { n: options.cap }] : ["card.noCap"],
    options.honours ? ["card.honours"] : null,
  ],
};

const labelsOf = (card, key) => (card.labels || {})[key] || {};
const valuesOf = (card, key) => labelsOf(card, key).values || {};

// A label pair as an element translate() keeps current; unlabelled keys show as they are.
function pairHtml(names, fallback) {
  if (!names) return escapeHtml(fallback);
  return `<span data-zh="${escapeHtml(names.zh)}" data-en="${escapeHtml(names.en)}">${escapeHtml(pick(names.zh, names.en))}</span>`;
}

// An <option> holds text only, so the pair sits on the option itself.
export function optionHtml(value, names, selected = false) {
  const pair = names ? ` data-zh="${escapeHtml(names.zh)}" data-en="${escapeHtml(names.en)}"` : "";
  const text = names ? pick(names.zh, names.en) : value;
  return `<option value="${escapeHtml(value)}"${pair}${selected ? " selected" : ""}>${escapeHtml(text)}</option>`;
}

// The option's name, and below it one line saying what it does (in the reader's language).
function optionLabelHtml(card, key) {
  const label = labelsOf(card, key);
  const help = label.help ? `<small class="option-help">${pairHtml({ zh: label.help_zh || label.help, en: label.help })}</small>` : "";
  return pairHtml(label.zh ? label : null, key) + help;
}

function valueHtml(card, key, value) {
  const values = valuesOf(card, key);
  const one = (item) => pairHtml(values[item], String(item));
  if (Array.isArray(value)) return value.length ? value.map(one).join("、") : "—";
  if (typeof value === "boolean") return value ? "✔" : "✘";
  return one(value);
}

// The card's option keys, the rule set's common ones first (in that order), then the rest.
export function splitOptions(card) {
  const keys = Object.keys(card.options);
  const common = (COMMON[card.ruleset] || []).filter((key) => keys.includes(key));
  return { common, more: keys.filter((key) => !common.includes(key)) };
}

// The short words for the options that matter most, in the current language (e.g. 跑20 · 砸2 · 比下胡).
export function ruleSummary(card, options) {
  const parts = (SUMMARY[card.ruleset] || (() => []))(options);
  return parts.filter(Boolean).map(([key, values]) => t(key, values));
}

export function ruleCardHtml(card) {
  const { common, more } = splitOptions(card);
  const rows = [...common, ...more]
    .map((key) => {
      const changed = key in (card.changed || {}) ? " changed" : "";
      return `<tr class="option${changed}" data-option="${escapeHtml(key)}">` +
        `<th>${optionLabelHtml(card, key)}</th><td>${valueHtml(card, key, card.options[key])}</td></tr>`;
    })
    .join("");
  return `<table class="rulecard"><caption>${pairHtml(card, card.preset)}</caption><tbody>${rows}</tbody></table>`;
}

// --- the editor --------------------------------------------------------------------------------

// A list option whose every value has a name: a group of labelled checkboxes.
const isChoiceList = (card, key) => Array.isArray(card.options[key]) && Object.keys(valuesOf(card, key)).length > 0;

// The server's bounds for a whole-number option (labels' min/max), so the browser refuses the same.
function rangeAttributes(card, key) {
  const { min, max } = labelsOf(card, key);
  return (Number.isInteger(min) ? ` min="${min}"` : "") + (Number.isInteger(max) ? ` max="${max}"` : "");
}

function inputHtml(card, key) {
  const value = card.options[key];
  const values = valuesOf(card, key);
  const name = escapeHtml(key);
  if (typeof value === "boolean") return `<input type="checkbox" name="${name}" ${value ? "checked" : ""}>`;
  if (typeof value === "number") return `<input type="number" name="${name}" step="1"${rangeAttributes(card, key)} value="${value}">`;
  if (isChoiceList(card, key)) {
    const choices = [...Object.keys(values), ...value.filter((item) => !(item in values))];
    return `<div class="choices" data-choices="${name}">${choices
      .map((item) => `<label class="choice"><input type="checkbox" name="${name}" value="${escapeHtml(item)}" ${value.includes(item) ? "checked" : ""}> ${pairHtml(values[item], item)}</label>`)
      .join("")}</div>`;
  }
  if (typeof value === "string" && Object.keys(values).length) {
    const choices = [...Object.keys(values), ...(value in values ? [] : [value])];
    return `<select name="${name}">${choices
      .map((item) => optionHtml(item, values[item], item === value))
      .join("")}</select>`;
  }
  if (Array.isArray(value)) {
    // Numbers without names (e.g. 豪华七对 160, 240, 320): typed, with the default as the example.
    return `<input type="text" name="${name}" value="${escapeHtml(value.join(", "))}" inputmode="numeric">` +
      `<small class="muted help"><span data-i18n="card.listHelp">${t("card.listHelp")}</span> ${escapeHtml(value.join(", ") || "1, 2")}</small>`;
  }
  return `<input type="text" name="${name}" value="${escapeHtml(value)}">`;
}

function rowsHtml(card, keys) {
  return keys
    .map((key) => `<tr class="option" data-option="${escapeHtml(key)}">` +
      `<th>${optionLabelHtml(card, key)}</th><td>${inputHtml(card, key)}</td></tr>`)
    .join("");
}

// An editable card: {element, changes(), options()}. `onChange` hears every edit (the summary line,
// the calculator's fields follow the options).
export function ruleCardEditor(card, { onChange = () => {} } = {}) {
  const { common, more } = splitOptions(card);
  const element = document.createElement("div");
  element.className = "rulecard-editor";
  element.dataset.preset = card.preset;
  element.innerHTML = `<table class="rulecard editable"><tbody>${rowsHtml(card, common)}</tbody></table>
    <details class="more-rules" data-role="more-rules"><summary><span data-i18n="card.more">${t("card.more")}</span> (${more.length})</summary>
      <table class="rulecard editable"><tbody>${rowsHtml(card, more)}</tbody></table></details>`;
  const inputsOf = (key) => [...element.querySelectorAll(`[name="${CSS.escape(key)}"]`)];
  for (const key of Object.keys(card.options)) {
    for (const input of inputsOf(key)) input.setAttribute("aria-label", pick(labelsOf(card, key).zh, labelsOf(card, key).en) || key);
  }

  function read(key) {
    const original = card.options[key];
    const [input] = inputsOf(key);
    if (isChoiceList(card, key)) return inputsOf(key).filter((box) => box.checked).map((box) => box.value);
    if (typeof original === "boolean") return input.checked;
    if (typeof original === "number") return Number(input.value);
    if (Array.isArray(original)) {
      const parts = input.value.split(/[,，、\s]+/).filter(Boolean);
      return original.every((item) => typeof item === "number") ? parts.map(Number) : parts;
    }
    return input.value;
  }
  const differs = (key) => JSON.stringify(read(key)) !== JSON.stringify(card.options[key]);
  function changes() {
    return Object.fromEntries(Object.keys(card.options).filter(differs).map((key) => [key, read(key)]));
  }
  function options() {
    return { ...card.options, ...changes() };
  }
  const rowOf = (key) => element.querySelector(`tr.option[data-option="${CSS.escape(key)}"]`);
  // Options that contradict each other (card.conflicts, the server's): the card offers only valid
  // combinations. One that needs another is off and disabled while that one is off; one that must be
  // above another takes it as its floor (the form will not send a value below it).
  function enforceConflicts() {
    const conflicts = card.conflicts || [];
    const blocked = new Set();
    for (const { option, other, test, why, why_zh: whyZh } of conflicts) {
      if (test !== "needs") continue;
      const off = !isOn(read(other));
      if (off) blocked.add(option);
      for (const input of inputsOf(option)) {
        input.disabled = blocked.has(option);
        if (!off) continue;
        if (input.type === "checkbox") input.checked = false;
        else if (input.type === "number") input.value = "0";
      }
      const row = rowOf(option);
      if (row) {
        row.classList.toggle("unavailable", blocked.has(option));
        if (off) row.title = pick(whyZh, why);
        else if (!blocked.has(option)) row.removeAttribute("title");
        row.classList.toggle("changed", differs(option));
      }
    }
    for (const { option, other, test, why, why_zh: whyZh } of conflicts) {
      if (test !== "above" || blocked.has(option)) continue;
      const [input] = inputsOf(option);
      if (!input || input.type !== "number") continue;
      const floor = isOn(read(option)) && isOn(read(other)) ? Number(read(other)) + 1 : null;
      input.setCustomValidity(floor !== null && Number(input.value) < floor ? pick(whyZh, why) : "");
    }
  }
  const edited = (event) => {
    enforceConflicts();
    const row = event.target.closest("tr.option");
    if (row) row.classList.toggle("changed", differs(row.dataset.option));
    onChange();
  };
  element.addEventListener("input", edited);
  element.addEventListener("change", edited);
  enforceConflicts();
  return { element, changes, options };
}

// Whether an option is on: true, above 0, or a list with something in it (hupai.rules.options).
const isOn = (value) => (Array.isArray(value) ? value.length > 0 : Boolean(value));
