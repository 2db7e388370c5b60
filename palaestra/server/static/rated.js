// The new-game form's "Rated" choice (issue 28), shown to members only: a rated game needs a clock
// (a default one is chosen and "No clock" is disabled), has no hints, and the creator holds one
// seat at most (the other people join by invitation, signed in).

import { t } from "/static/i18n.js";
import { el } from "/static/dom.js";
import { me } from "/static/member.js";

export function ratedField(form, clockBox, seatsBox) {
  if (!me()) return { box: null, value: () => false };
  const box = el("input", { type: "checkbox", id: "rated", name: "rated", "aria-describedby": "rated-help" });
  const row = el("div", { class: "field", id: "rated-field" }, el("label", { for: "rated", text: t("Rated") }), box,
    el("span", { class: "muted small", id: "rated-help", text: t("Rated games count on the players' ratings: they need a clock, allow no hints, and every person in them is signed in.") }));
  box.addEventListener("change", () => {
    const kind = clockBox.querySelector("#clock-kind");
    const none = kind && kind.querySelector('option[value=""]');
    if (kind && none) {
      none.disabled = box.checked;
      if (box.checked && kind.value === "") {
        const first = kind.querySelector('option[value="fischer"]') || [...kind.options].find((o) => o.value);
        if (first) { kind.value = first.value; kind.dispatchEvent(new Event("change")); }
      }
    }
    const hints = form.querySelector('input[name="hints"]');
    if (hints) { if (box.checked) hints.checked = false; hints.disabled = box.checked; }
    if (box.checked) {  // one seat for the creator: the others are invited
      const seats = [...seatsBox.querySelectorAll("select")];
      const first = seats.findIndex((s) => s.value === "me");
      seats.forEach((s, i) => { if (s.value === "me" && i !== first) s.value = "friend"; });
    }
  });
  return { box: row, value: () => box.checked };
}
