// Pieces of the account screens (issue 28): a labelled field, a form's message line, dates.

import { language } from "/static/i18n.js";
import { el } from "/static/dom.js";

// a date (an ISO date or time) in the page's language: "27 November 2026"
export function dateText(iso, month = "long") {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? String(iso || "") : d.toLocaleDateString(language, { year: "numeric", month, day: "numeric" });
}

// a labelled input in a .field row (an optional help line, tied to it by aria-describedby)
export function field(id, label, attrs, help = null) {
  const input = el("input", { id, name: id, ...attrs, "aria-describedby": help ? `${id}-help` : null });
  return {
    input,
    row: el("div", { class: "field stacked" }, el("label", { for: id, text: label }), input,
      help ? el("span", { class: "muted small", id: `${id}-help`, text: help }) : null),
  };
}

// the line under a form that says what happened (role=alert for a refusal)
export function messageLine(id) {
  const line = el("p", { id, class: "form-message", role: "status" });
  return {
    line,
    say(text, error = false) {
      line.textContent = text;
      line.className = "form-message" + (error ? " error" : " ok");
      line.setAttribute("role", error ? "alert" : "status");
    },
    clear() { line.textContent = ""; line.className = "form-message"; },
  };
}
