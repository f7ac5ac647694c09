// The rule card: a preset's options with their Chinese (or English) names, editable before a room is
// created and read-only at the table.

import { escapeHtml } from "./util.js";
import { pick } from "./i18n.js";

function labelOf(card, key) {
  const label = (card.labels || {})[key];
  return label ? pick(label.zh, label.en) : key;
}

function helpOf(card, key) {
  const label = (card.labels || {})[key];
  return label ? label.help || "" : "";
}

function valueText(card, key, value) {
  const values = ((card.labels || {})[key] || {}).values || {};
  const one = (item) => (values[item] ? pick(values[item].zh, values[item].en) : String(item));
  if (Array.isArray(value)) return value.length ? value.map(one).join("、") : "—";
  if (typeof value === "boolean") return value ? "✔" : "✘";
  return one(value);
}

export function ruleCardHtml(card) {
  const rows = Object.entries(card.options)
    .map(([key, value]) => {
      const changed = key in (card.changed || {}) ? " changed" : "";
      return `<tr class="option${changed}" title="${escapeHtml(helpOf(card, key))}"><th>${escapeHtml(labelOf(card, key))}</th>` +
        `<td>${escapeHtml(valueText(card, key, value))}</td></tr>`;
    })
    .join("");
  return `<table class="rulecard"><caption>${escapeHtml(pick(card.zh, card.en))}</caption><tbody>${rows}</tbody></table>`;
}

// An editable card: returns {element, changes()} where changes() is the options that differ.
export function ruleCardEditor(card) {
  const element = document.createElement("table");
  element.className = "rulecard editable";
  const body = document.createElement("tbody");
  element.append(body);
  const inputs = {};
  for (const [key, value] of Object.entries(card.options)) {
    const row = document.createElement("tr");
    row.className = "option";
    row.title = helpOf(card, key);
    const head = document.createElement("th");
    head.textContent = labelOf(card, key);
    const cell = document.createElement("td");
    let input;
    const values = ((card.labels || {})[key] || {}).values || {};
    if (typeof value === "boolean") {
      input = document.createElement("input");
      input.type = "checkbox";
      input.checked = value;
    } else if (typeof value === "number") {
      input = document.createElement("input");
      input.type = "number";
      input.value = String(value);
      input.step = "1";
    } else if (typeof value === "string" && Object.keys(values).length) {
      input = document.createElement("select");
      for (const [option, names] of Object.entries(values)) {
        const item = document.createElement("option");
        item.value = option;
        item.textContent = pick(names.zh, names.en);
        input.append(item);
      }
      if (!(value in values)) {
        const item = document.createElement("option");
        item.value = value;
        item.textContent = value;
        input.append(item);
      }
      input.value = value;
    } else {
      input = document.createElement("input");
      input.type = "text";
      input.value = Array.isArray(value) ? value.join(",") : String(value);
    }
    input.name = key;
    input.setAttribute("aria-label", labelOf(card, key));
    inputs[key] = input;
    cell.append(input);
    row.append(head, cell);
    body.append(row);
  }
  function read(key) {
    const input = inputs[key];
    const original = card.options[key];
    if (typeof original === "boolean") return input.checked;
    if (typeof original === "number") return Number(input.value);
    if (Array.isArray(original)) {
      const parts = input.value.split(/[,，、\s]+/).filter(Boolean);
      return original.every((item) => typeof item === "number") ? parts.map(Number) : parts;
    }
    return input.value;
  }
  function changes() {
    const changed = {};
    for (const key of Object.keys(inputs)) {
      const value = read(key);
      if (JSON.stringify(value) !== JSON.stringify(card.options[key])) changed[key] = value;
    }
    return changed;
  }
  for (const input of Object.values(inputs)) {
    input.addEventListener("change", () => {
      input.closest("tr").classList.toggle("changed", JSON.stringify(read(input.name)) !== JSON.stringify(card.options[input.name]));
    });
  }
  return { element, changes };
}
