// A question asked in the page (not window.confirm, which some browsers block and which cannot be
// styled or translated): resolves true for 确定, false for 取消, Escape or a click outside.

import { t } from "./i18n.js";
import { escapeHtml, html } from "./util.js";

export function confirmDialog(message) {
  return new Promise((resolve) => {
    const modal = html(`<div class="modal" data-role="confirm" role="dialog" aria-modal="true">
      <div class="modal-box">
        <p>${escapeHtml(message)}</p>
        <p class="modal-buttons">
          <button type="button" data-answer="no">${t("common.cancel")}</button>
          <button type="button" class="primary" data-answer="yes">${t("common.yes")}</button>
        </p>
      </div>
    </div>`);
    const finish = (answer) => {
      modal.remove();
      document.removeEventListener("keydown", onKey);
      resolve(answer);
    };
    const onKey = (event) => {
      if (event.key === "Escape") finish(false);
    };
    modal.addEventListener("click", (event) => {
      if (event.target === modal) finish(false);
    });
    modal.querySelector('[data-answer="yes"]').addEventListener("click", () => finish(true));
    modal.querySelector('[data-answer="no"]').addEventListener("click", () => finish(false));
    document.addEventListener("keydown", onKey);
    document.body.append(modal); // outside the view, which redraws on every message
    modal.querySelector('[data-answer="yes"]').focus();
  });
}

// A dialog that tells (the fair-deal details): `body` is its HTML; closed by its button, Escape or a
// click outside. Returns the dialog's element, for filling in what comes later.
export function infoDialog(body, { role = "info", label = "" } = {}) {
  const modal = html(`<div class="modal" data-role="${role}" role="dialog" aria-modal="true" aria-label="${escapeHtml(label)}">
    <div class="modal-box wide">
      ${body}
      <p class="modal-buttons"><button type="button" class="primary" data-role="close">${t("common.close")}</button></p>
    </div>
  </div>`);
  const close = () => {
    modal.remove();
    document.removeEventListener("keydown", onKey);
  };
  const onKey = (event) => {
    if (event.key === "Escape") close();
  };
  modal.addEventListener("click", (event) => {
    if (event.target === modal) close();
  });
  modal.querySelector('[data-role="close"]').addEventListener("click", close);
  document.addEventListener("keydown", onKey);
  document.body.append(modal);
  // Focused for the keyboard, but read from its top: focusing the button below would scroll there.
  modal.querySelector('[data-role="close"]').focus({ preventScroll: true });
  return modal;
}
