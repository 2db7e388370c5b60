// Signing up (#/signup, issue 28): a username and password; then the games this browser holds
// seats in (their tokens, in localStorage) are offered to the new account, all ticked.

import { t } from "/static/i18n.js";
import { el } from "/static/dom.js";
import { api, meta, plainError } from "/static/api.js";
import { loadMine } from "/static/state.js";
import { me, signedIn, profileLink, profileHref } from "/static/member.js";
import { field, messageLine } from "/static/screens/forms.js";

export default async function signUpPage(params, { root }) {
  if (me()) {
    root.replaceChildren(el("section", { class: "card narrow" }, el("h1", { class: "page-title", text: t("Sign up") }),
      el("p", {}, t("You are signed in as"), " ", profileLink(me()), ".")));
    return;
  }
  const username = field("signup-username", t("Username"),
    { autocomplete: "username", required: true, minlength: 3, maxlength: 20 }, t("3 to 20 letters, digits, '_' or '-'"));
  const password = field("signup-password", t("Password"),
    { type: "password", autocomplete: "new-password", required: true, minlength: 10, maxlength: 256 }, t("at least 10 characters"));
  const message = messageLine("signup-message");
  const submit = el("button", { type: "submit", id: "signup-submit" }, t("Create account"));
  const form = el("form", { id: "signup-form" }, username.row, password.row, el("div", { class: "field" }, submit));
  root.replaceChildren(el("section", { class: "card narrow", "aria-labelledby": "signup-title" },
    el("h1", { class: "page-title", id: "signup-title", text: t("Sign up") }),
    el("p", { class: "small muted", text: t("With an account your games follow you to every device, rated games count on your profile, and you appear on the leaderboards.") }),
    form, message.line,
    el("p", { class: "small" }, t("Have an account?"), " ", el("a", { href: "/#/signin" }, t("Sign in")))));
  username.input.focus();

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    message.clear();
    submit.disabled = true;
    try {
      const data = await api("/api/account", { method: "POST", body: { username: username.input.value.trim(), password: password.input.value } });
      signedIn(data);
      await offerClaim(root, data.username);
    } catch (err) {
      message.say(err.message, true);
      submit.disabled = false;
    }
  });
}

// the games this browser holds seats in: {id, game, tokens}
function heldGames() {
  return Object.entries(loadMine())
    .map(([id, entry]) => ({ id, game: entry.game, at: entry.at || 0, tokens: Object.values(entry.tokens || {}) }))
    .filter((g) => g.tokens.length)
    .sort((a, b) => b.at - a.at);
}

async function offerClaim(root, username) {
  const games = heldGames().slice(0, 200);
  if (!games.length) { location.hash = "#/"; return; }
  const m = await meta();
  const title = (name) => (m.games.find((g) => g.name === name) || {}).title || name || t("game");
  const message = messageLine("claim-message");
  const boxes = games.map((g) => {
    const box = el("input", { type: "checkbox", id: `claim-${g.id}`, name: "claim", value: g.id, checked: true });
    return { g, box, row: el("li", {}, box, " ", el("label", { for: `claim-${g.id}` }, `${title(g.game)} #${g.id}`)) };
  });
  const submit = el("button", { type: "submit", id: "claim-submit" }, t("Add to my account"));
  const skip = el("a", { href: "/#/", class: "button secondary", id: "claim-skip" }, t("Not now"));
  const form = el("form", { id: "claim-form" },
    el("fieldset", {}, el("legend", { text: t("Games this browser holds a seat in") }),
      el("ul", { class: "list claim-list" }, boxes.map((b) => b.row))),
    el("div", { class: "field" }, submit, skip));
  root.replaceChildren(el("section", { class: "card narrow", id: "claim", "aria-labelledby": "claim-title" },
    el("h1", { class: "page-title", id: "claim-title", text: t("Welcome, {name}", { name: username }) }),
    el("p", { text: t("Add these games to your account? They then show on your profile, and you can play them from any device you sign in on.") }),
    form, message.line));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const seats = boxes.filter((b) => b.box.checked).flatMap((b) => b.g.tokens.map((token) => ({ game: b.g.id, token })));
    if (!seats.length) { location.hash = "#/"; return; }
    submit.disabled = true;
    try {
      const out = await api("/api/account/claim", { method: "POST", body: { seats } });
      const claimed = new Set(out.claimed.map((c) => c.game)).size;
      form.replaceWith(el("div", { id: "claim-done" },
        el("p", { text: claimed === 1 ? t("1 game was added to your account.") : t("{n} games were added to your account.", { n: claimed }) }),
        out.refused.length ? el("ul", { class: "small" }, out.refused.map((r) => el("li", {}, `#${r.game}: ${plainError(r.error, 409)}`))) : null,
        el("p", {}, el("a", { href: profileHref(username), id: "claim-profile" }, t("Your profile")), " · ", el("a", { href: "/#/" }, t("Home")))));
    } catch (err) {
      message.say(err.message, true);
      submit.disabled = false;
    }
  });
}
