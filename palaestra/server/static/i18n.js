// Translations of the browser UI: JSON catalogues, one per language (static/i18n/LANG.json), in
// the gettext manner: the English text is the key, so English needs no catalogue and a missing
// translation shows the English text (tests/server/test_i18n.py fails on any missing one).
// Placeholders are written {name}. Move notation is never translated.
//
// The language: the one picked in the header (kept in localStorage), else the first of the
// browser's languages that we have, else English.

export const LANGUAGES = { en: "English", de: "Deutsch", fr: "Français" };
const STORE = "palaestra.lang";

function detect() {
  const saved = localStorage.getItem(STORE);
  if (saved && saved in LANGUAGES) return saved;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (base in LANGUAGES) return base;
  }
  return "en";
}

export let language = detect();
let catalogue = {};

export async function loadCatalogue(lang = language) {
  language = lang in LANGUAGES ? lang : "en";
  catalogue = {};
  if (language !== "en") {
    try {
      const response = await fetch(`/static/i18n/${language}.json`);
      if (response.ok) catalogue = await response.json();
    } catch (err) { console.error("no catalogue for", language, err); }
  }
  document.documentElement.lang = language;
  return language;
}

export function setLanguage(lang) {
  localStorage.setItem(STORE, lang);
  return loadCatalogue(lang);
}

// t("Waiting for {name}", {name}) -> the text in the current language
export function t(text, params = {}, own = null) {
  const template = (own && own[text]) || catalogue[text] || text;
  return template.replace(/\{(\w+)\}/g, (m, key) => (key in params ? String(params[key]) : m));
}

// A game's own texts (its renderer's, its options') are in its own catalogue, in its web/ folder
// (GameInfo.web.catalogue; /api/meta lists its URL per language): gameT(info) loads it once per
// language and gives a t() that looks there first, then in the app's catalogue.
const gameCatalogues = {};
export async function gameT(info) {
  const url = info && info.catalogues ? info.catalogues[language] : null;
  // the loading itself is kept, so that callers asking at the same time all wait for the one
  // fetch (a caller that found an empty placeholder kept the English texts for good)
  if (url && !(url in gameCatalogues)) gameCatalogues[url] = loadGameCatalogue(url, info.name);
  const own = url ? await gameCatalogues[url] : null;
  return (text, params = {}) => t(text, params, own);
}
async function loadGameCatalogue(url, name) {
  try {
    const response = await fetch(url);
    if (response.ok) return await response.json();
  } catch (err) { console.error("no catalogue for", name, err); }
  return {};
}

// player names from the engines ("red (A)", "player 1 (S)", "orange"): the colour or the word
// "player" translated, the seat letter kept
const COLOUR_WORDS = ["red", "blue", "green", "yellow", "orange", "black", "white", "player"];
export function playerName(name) {
  if (!name) return name;
  const m = /^(\w+)(.*)$/.exec(name);
  return m && COLOUR_WORDS.includes(m[1]) ? t(m[1]) + m[2] : name;
}

// texts translated through variables (t(name)), listed so that the catalogue test sees them (a
// game's renderer lists its own)
export const VARIABLE_TEXTS = [
  "red", "blue", "green", "yellow", "orange", "black", "white", "player",
  "random", "beginner", "casual", "strong", "expert",
  "Language", "live connection", "Rules",
];
