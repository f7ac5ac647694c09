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
