// Confirm a move before it is sent (issue 30): the move waits on the page as "pending", with
// Confirm and Cancel, until the player confirms it. On by default in correspondence games (a move
// there is slow to take back), off otherwise; the game page's switch changes it for games of that
// kind, kept in this browser (localStorage "palaestra.confirm.correspondence" / ".other").

import { t } from "/static/i18n.js";
import { el } from "/static/dom.js";

const key = (kind) => `palaestra.confirm.${kind}`;

// "correspondence" or "other": the kind of game the choice applies to
export function confirmKind(view) {
  return view.clock && view.clock.control && view.clock.control.type === "correspondence" ? "correspondence" : "other";
}
export function confirmOn(kind) {
  const saved = localStorage.getItem(key(kind));
  return saved === null ? kind === "correspondence" : saved === "on";
}
export function setConfirmOn(kind, on) { localStorage.setItem(key(kind), on ? "on" : "off"); }

// The switch and the pending move's bar. ask(text) shows the move and resolves true (Confirm) or
// false (Cancel, or a newer position: cancel()).
export function confirmParts(kind, onChange) {
  const box = el("input", { type: "checkbox", id: "confirm-moves" });
  box.checked = confirmOn(kind);
  box.addEventListener("change", () => { setConfirmOn(kind, box.checked); onChange(); });
  const toggle = el("label", { class: "small confirm-switch", for: "confirm-moves" }, box, " ",
    kind === "correspondence" ? t("Confirm moves in correspondence games") : t("Confirm moves before they are sent"));
  const text = el("span", { id: "pending-move-text" });
  const yes = el("button", { type: "button", id: "confirm-move" }, t("Confirm"));
  const no = el("button", { type: "button", class: "secondary", id: "cancel-move" }, t("Cancel"));
  const bar = el("div", { class: "pending-move", id: "pending-move", hidden: true, role: "group", "aria-label": t("Pending move") },
    el("span", { class: "small", text: t("Your move, not sent yet:") }), " ", text, " ", yes, no);
  let answer = null;
  const settle = (value) => {
    bar.hidden = true;
    const done = answer;
    answer = null;
    if (done) done(value);
  };
  yes.addEventListener("click", () => settle(true));
  no.addEventListener("click", () => settle(false));
  return {
    toggle,
    bar,
    on: () => box.checked,
    waiting: () => answer !== null,
    ask(words) {
      settle(false);
      text.textContent = words;
      bar.hidden = false;
      yes.focus();
      return new Promise((resolve) => { answer = resolve; });
    },
    cancel: () => settle(false),
  };
}
