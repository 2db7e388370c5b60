// The colour theme (issue 30): light, dark, or the system's (prefers-color-scheme, the default),
// chosen in the header and kept in this browser (localStorage "palaestra.theme"). The page's
// <html data-theme> is "light" or "dark"; style.css holds the colours of both. The boards keep
// their light surface in the dark theme (their colours are the games' own).

const STORE = "palaestra.theme";
export const THEMES = ["system", "light", "dark"];
const query = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;

export function themeChoice() {
  const saved = localStorage.getItem(STORE);
  return THEMES.includes(saved) ? saved : "system";
}

export function applyTheme(choice = themeChoice()) {
  const dark = choice === "dark" || (choice === "system" && Boolean(query && query.matches));
  document.documentElement.dataset.theme = dark ? "dark" : "light";
  return dark ? "dark" : "light";
}

export function setTheme(choice) {
  localStorage.setItem(STORE, THEMES.includes(choice) ? choice : "system");
  return applyTheme();
}

if (query) query.addEventListener("change", () => applyTheme());
applyTheme();
