// Account settings (#/account, issue 28): change the password, who may challenge me (issue 29),
// passkeys (add with a name, list, remove), notifications (issue 29: screens/notify-settings.js),
// download my data, delete the account (confirmed with the password).

import { t } from "/static/i18n.js";
import { el } from "/static/dom.js";
import { api } from "/static/api.js";
import { me, signedOut, profileLink } from "/static/member.js";
import { passkeysSupported, creationOptions, requestOptions, credentialToJSON } from "/static/webauthn.js";
import { field, messageLine, dateText } from "/static/screens/forms.js";
import { notificationsCard } from "/static/screens/notify-settings.js";

export default async function settingsPage(params, { root }) {
  if (!me()) {
    root.replaceChildren(el("section", { class: "card narrow" }, el("h1", { class: "page-title", text: t("Account settings") }),
      el("p", {}, t("Sign in first."), " ", el("a", { href: "/#/signin" }, t("Sign in")))));
    return;
  }
  const account = await api("/api/account");
  const deletion = deleteCard();
  root.replaceChildren(el("div", { class: "account-page" },
    el("h1", { class: "page-title" }, t("Account settings"), " ", el("span", { class: "muted small" }, profileLink(account.username))),
    el("p", { class: "muted", text: t("Member since {date}", { date: dateText(account.joined) }) }),
    el("div", { class: "cards" }, passwordCard(), challengesCard(), passkeysCard(deletion.passkeys), notificationsCard(), dataCard(), deletion.card)));
}

function passwordCard() {
  const current = field("current-password", t("Current password"), { type: "password", autocomplete: "current-password", required: true, maxlength: 256 });
  const next = field("new-password", t("New password"), { type: "password", autocomplete: "new-password", required: true, minlength: 10, maxlength: 256 }, t("at least 10 characters"));
  const message = messageLine("password-message");
  const submit = el("button", { type: "submit", id: "password-submit" }, t("Change password"));
  const form = el("form", { id: "password-form" }, current.row, next.row, el("div", { class: "field" }, submit), message.line);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    submit.disabled = true;
    try {
      await api("/api/account/password", { method: "POST", body: { current_password: current.input.value, new_password: next.input.value } });
      form.reset();
      message.say(t("The password was changed. Your other devices were signed out."));
    } catch (err) {
      message.say(err.message, true);
    } finally {
      submit.disabled = false;
    }
  });
  return el("section", { class: "card", "aria-labelledby": "password-title" }, el("h2", { class: "h3", id: "password-title", text: t("Password") }), form);
}

// passkeys(n): how many passkeys the account holds (0 also where the server has none)
function passkeysCard(passkeys) {
  const list = el("ul", { class: "list", id: "passkey-list" });
  const message = messageLine("passkey-message");
  const name = field("passkey-name", t("Name of the new passkey"), { maxlength: 64, placeholder: t("e.g. my phone") });
  const add = el("button", { type: "submit", id: "passkey-add" }, t("Add a passkey"));
  const form = el("form", { id: "passkey-form" }, name.row, el("div", { class: "field" }, add));
  const card = el("section", { class: "card", "aria-labelledby": "passkeys-title" },
    el("h2", { class: "h3", id: "passkeys-title", text: t("Passkeys") }),
    el("p", { class: "small muted", text: t("A passkey signs you in with your device's screen lock or a security key, without a password.") }),
    list, passkeysSupported() ? form : el("p", { class: "small", text: t("This browser cannot use passkeys here.") }), message.line);

  async function refresh() {
    let keys;
    try {
      keys = await api("/api/account/passkeys");
    } catch (err) {
      list.replaceChildren(el("li", { class: "muted small", text: err.status === 404 ? t("Passkeys are not available on this server yet.") : err.message }));
      form.hidden = err.status === 404;
      passkeys(0);
      return;
    }
    keys = Array.isArray(keys) ? keys : keys.passkeys || [];
    passkeys(keys.length);
    list.replaceChildren(...(keys.length ? keys.map((k) => el("li", { "data-passkey": k.id },
      el("span", { text: k.name || t("passkey") }),
      k.created ? el("span", { class: "muted small", text: t("added {date}", { date: dateText(k.created) }) }) : null,
      el("span", { class: "muted small", text: k.used ? t("last used {date}", { date: dateText(k.used) }) : t("never used") }),
      el("button", { type: "button", class: "secondary small", "aria-label": t("Remove the passkey {name}", { name: k.name || "" }), onclick: async () => {
        if (!confirm(t("Remove the passkey {name}?", { name: k.name || "" }))) return;
        try {
          await api(`/api/account/passkeys/${encodeURIComponent(k.id)}`, { method: "DELETE" });
          message.say(t("The passkey was removed."));
        } catch (err) { message.say(err.message, true); }
        refresh();
      } }, t("Remove")))) : [el("li", { class: "muted small", text: t("No passkeys yet.") })]));
  }
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    add.disabled = true;
    try {
      const options = await api("/api/account/passkeys/options", { method: "POST", body: {} });
      const credential = await navigator.credentials.create(creationOptions(options.options));
      if (!credential) throw new Error(t("No passkey was made."));
      await api("/api/account/passkeys", { method: "POST", body: { challenge_id: options.challenge_id, credential: credentialToJSON(credential), name: name.input.value.trim() || t("passkey") } });
      form.reset();
      message.say(t("The passkey was added."));
    } catch (err) {
      message.say(err.name === "NotAllowedError" ? t("No passkey was made.") : err.message, true);
    } finally {
      add.disabled = false;
    }
    refresh();
  });
  refresh();
  return card;
}

// who may challenge the member (issue 29): saved as soon as it is chosen
function challengesCard() {
  const select = el("select", { id: "challenges-from", "aria-describedby": "challenges-from-help" },
    el("option", { value: "everyone", text: t("Everyone") }),
    el("option", { value: "played", text: t("Only people I have played") }),
    el("option", { value: "nobody", text: t("Nobody") }));
  const message = messageLine("challenges-message");
  select.disabled = true;
  api("/api/account/preferences").then((prefs) => {
    select.value = prefs.challenges;
    select.disabled = false;
  }).catch((err) => message.say(err.message, true));
  select.addEventListener("change", async () => {
    select.disabled = true;
    try {
      const saved = await api("/api/account/preferences", { method: "PUT", body: { challenges: select.value } });
      select.value = saved.challenges;
      message.say(t("Saved."));
    } catch (err) {
      message.say(err.message, true);
    } finally {
      select.disabled = false;
    }
  });
  return el("section", { class: "card", "aria-labelledby": "challenges-title" },
    el("h3", { id: "challenges-title", text: t("Challenges") }),
    el("div", { class: "field stacked" }, el("label", { for: "challenges-from", text: t("Who may challenge you") }), select,
      el("span", { class: "muted small", id: "challenges-from-help", text: t("Members you do not allow are told that you do not accept their challenge.") })),
    message.line);
}

function dataCard() {
  return el("section", { class: "card", "aria-labelledby": "data-title" },
    el("h2", { class: "h3", id: "data-title", text: t("Your data") }),
    el("p", { class: "small", text: t("Everything kept about you: your profile, ratings and the records of your games, in one JSON file.") }),
    el("a", { class: "button secondary", id: "export", href: "/api/account/export", download: "" }, t("Download my data")));
}

function deleteCard() {
  const password = field("delete-password", t("Your password"), { type: "password", autocomplete: "current-password", required: true, maxlength: 256 });
  const message = messageLine("delete-message");
  const submit = el("button", { type: "submit", class: "danger", id: "delete-submit" }, t("Delete my account"));
  const byPasskey = el("button", { type: "button", class: "secondary", id: "delete-passkey", hidden: true }, t("Delete it, confirmed with a passkey"));
  const form = el("form", { id: "delete-form" }, password.row, el("div", { class: "field" }, submit),
    passkeysSupported() ? el("div", { class: "field" }, byPasskey) : null, message.line);
  // the password, or a passkey's answer to the proof options (docs/accounts.md)
  async function remove(proof) {
    submit.disabled = byPasskey.disabled = true;
    try {
      await api("/api/account", { method: "DELETE", body: await proof() });
      signedOut();
      location.assign("/");
    } catch (err) {
      message.say(err.name === "NotAllowedError" ? t("No passkey was chosen.") : err.message, true);
      submit.disabled = byPasskey.disabled = false;
    }
  }
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (!confirm(t("Delete your account for good? This cannot be undone."))) return;
    remove(async () => ({ password: password.input.value }));
  });
  byPasskey.addEventListener("click", () => {
    if (!confirm(t("Delete your account for good? This cannot be undone."))) return;
    remove(async () => {
      const options = await api("/api/account/passkey-proof/options", { method: "POST", body: {} });
      const credential = await navigator.credentials.get(requestOptions(options.options));
      return { passkey: { challenge_id: options.challenge_id, credential: credentialToJSON(credential) } };
    });
  });
  const card = el("section", { class: "card", "aria-labelledby": "delete-title" },
    el("h2", { class: "h3", id: "delete-title", text: t("Delete the account") }),
    el("p", { class: "small", text: t("Your games stay for your opponents, under the name 'deleted player'; your ratings and profile are gone.") }),
    el("p", { class: "small muted", id: "delete-how", text: t("Confirm with your password.") }),
    form);
  // the passkey proof is offered once the account has a passkey
  const passkeys = (n) => {
    byPasskey.hidden = !n;
    card.querySelector("#delete-how").textContent = n ? t("Confirm with your password, or with one of your passkeys.") : t("Confirm with your password.");
  };
  return { card, passkeys };
}
