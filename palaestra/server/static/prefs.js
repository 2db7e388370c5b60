// The header's switches of this browser's preferences (issue 30): the colour theme (theme.js) and
// the move sounds (sounds.js). There is no account preference for them: both are kept in
// localStorage.

import { t } from "/static/i18n.js";
import { el } from "/static/dom.js";
import { THEMES, themeChoice, setTheme } from "/static/theme.js";
import { muted, setMuted } from "/static/sounds.js";

const THEME_NAMES = { system: () => t("Theme: system"), light: () => t("Theme: light"), dark: () => t("Theme: dark") };

// the switches, drawn (again, in the page's language) into the header
export function drawPrefs() {
  const header = document.querySelector("header.top");
  if (!header) return;
  let box = document.getElementById("prefs");
  if (!box) {
    box = el("span", { id: "prefs", class: "prefs" });
    const lang = document.getElementById("lang");
    if (lang) lang.before(box); else header.append(box);
  }
  const theme = el("select", { id: "theme", class: "lang", "aria-label": t("Colour theme") },
    ...THEMES.map((name) => el("option", { value: name, text: THEME_NAMES[name]() })));
  theme.value = themeChoice();
  theme.addEventListener("change", () => setTheme(theme.value));
  const sound = el("button", { type: "button", id: "sound", class: "link sound", "aria-pressed": String(!muted()) });
  const label = () => {
    sound.setAttribute("aria-pressed", String(!muted()));
    sound.textContent = muted() ? t("Sound off") : t("Sound on");
    sound.title = t("move sounds");
  };
  sound.addEventListener("click", () => { setMuted(!muted()); label(); });
  label();
  box.replaceChildren(theme, sound);
}
