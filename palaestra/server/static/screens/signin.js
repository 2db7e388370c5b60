// Signing in (#/signin, issue 28): a username and password, or a passkey.

import { t } from "/static/i18n.js";
import { el } from "/static/dom.js";
import { api } from "/static/api.js";
import { me, signedIn, profileLink } from "/static/member.js";
import { passkeysSupported, requestOptions, credentialToJSON } from "/static/webauthn.js";
import { field, messageLine } from "/static/screens/forms.js";

export default async function signInPage(params, { root }) {
  if (me()) {
    root.replaceChildren(el("section", { class: "card narrow" }, el("h1", { class: "page-title", text: t("Sign in") }),
      el("p", {}, t("You are signed in as"), " ", profileLink(me()), ".")));
    return;
  }
  const username = field("signin-username", t("Username"), { autocomplete: "username", required: true, maxlength: 40 });
  const password = field("signin-password", t("Password"), { type: "password", autocomplete: "current-password", required: true, maxlength: 256 });
  const message = messageLine("signin-message");
  const submit = el("button", { type: "submit", id: "signin-submit" }, t("Sign in"));
  const form = el("form", { id: "signin-form" }, username.row, password.row, el("div", { class: "field" }, submit));
  const passkeyButton = el("button", { type: "button", class: "secondary", id: "signin-passkey" }, t("Sign in with a passkey"));
  root.replaceChildren(el("section", { class: "card narrow", "aria-labelledby": "signin-title" },
    el("h1", { class: "page-title", id: "signin-title", text: t("Sign in") }),
    form,
    passkeysSupported() ? el("div", { class: "field" }, passkeyButton) : null,
    message.line,
    el("p", { class: "small" }, t("No account yet?"), " ", el("a", { href: "/#/signup" }, t("Sign up")))));
  username.input.focus();

  const done = (data) => { signedIn(data); location.hash = "#/"; };
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    message.clear();
    submit.disabled = true;
    try {
      done(await api("/api/session", { method: "POST", body: { username: username.input.value.trim(), password: password.input.value } }));
    } catch (err) {
      message.say(err.message, true);
      password.input.value = "";
      password.input.focus();
    } finally {
      submit.disabled = false;
    }
  });
  passkeyButton.addEventListener("click", async () => {
    message.clear();
    try {
      // with a username, only that member's passkeys are offered; without, any passkey of this site
      const name = username.input.value.trim();
      const options = await api("/api/session/passkey/options", { method: "POST", body: name ? { username: name } : {} });
      const credential = await navigator.credentials.get(requestOptions(options.options));
      if (!credential) throw new Error(t("No passkey was chosen."));
      done(await api("/api/session/passkey", { method: "POST", body: { challenge_id: options.challenge_id, credential: credentialToJSON(credential) } }));
    } catch (err) {
      message.say(err.name === "NotAllowedError" ? t("No passkey was chosen.") : err.message, true);
    }
  });
}
