// A module's own few style rules, added to the page once: the modules that others wire into their
// views (ting.js, invite.js) bring their look with them instead of editing the shared style.css.

export function ensureStyle(id, css) {
  const key = `hupai-style-${id}`;
  if (document.getElementById(key)) return;
  const style = document.createElement("style");
  style.id = key;
  style.textContent = css;
  document.head.append(style);
}
