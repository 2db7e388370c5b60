// The account settings' card of notifications (issue 29; docs/web.md, "Notifications"): a switch
// per kind and channel, the e-mail address, and Web Push turned on or off in this browser (the
// service worker /static/sw.js shows the pushes).

import { t } from "/static/i18n.js";
import { el } from "/static/dom.js";
import { api } from "/static/api.js";
import { field, messageLine } from "/static/screens/forms.js";

const KIND_LABELS = () => ({
  your_turn: t("Your turn (correspondence games)"),
  challenge: t("A challenge for you"),
  game_ended: t("Your game ended"),
  rematch_offered: t("A rematch is offered"),
});
const CHANNEL_LABELS = () => ({ page: t("In the page"), push: t("Push"), email: t("E-mail") });

function pushSupported() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

function keyBytes(base64url) {
  const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (base64url.length % 4)) % 4));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

async function browserSubscription() {
  if (!pushSupported()) return null;
  const registration = await navigator.serviceWorker.getRegistration("/static/");
  return registration ? registration.pushManager.getSubscription() : null;
}

export function notificationsCard() {
  const message = messageLine("notify-message");
  const table = el("table", { id: "notify-table" });
  const email = field("notify-email", t("E-mail address"), { type: "email", autocomplete: "email", maxlength: 254 },
    t("Not verified: messages go to the address as you type it."));
  const saveEmail = el("button", { type: "submit", id: "notify-email-save" }, t("Save the address"));
  const emailForm = el("form", { id: "notify-email-form" }, email.row, el("div", { class: "field" }, saveEmail));
  const pushButton = el("button", { type: "button", id: "push-toggle", class: "secondary" }, t("Turn on push in this browser"));
  const pushLine = el("p", { class: "small muted", id: "push-state" });
  const card = el("section", { class: "card notify-settings", "aria-labelledby": "notify-title" },
    el("h3", { id: "notify-title", text: t("Notifications") }),
    el("p", { class: "small muted", text: t("Choose what you are told, and how.") }),
    table, emailForm, el("div", { class: "field" }, pushButton), pushLine, message.line);

  async function save(body) {
    try {
      draw(await api("/api/account/notifications", { method: "PUT", body }));
      message.say(t("Saved."));
    } catch (err) { message.say(err.message, true); }
  }

  function draw(mine) {
    const kinds = KIND_LABELS();
    const channels = CHANNEL_LABELS();
    const names = Object.keys(channels);
    table.replaceChildren(
      el("thead", {}, el("tr", {}, el("th", { scope: "col", text: t("Kind") }), ...names.map((c) => el("th", { scope: "col", text: channels[c] })))),
      el("tbody", {}, ...mine.kinds.map((kind) => el("tr", {}, el("th", { scope: "row", text: kinds[kind] || kind }),
        ...names.map((channel) => {
          const off = !mine.available[channel];
          const box = el("input", { type: "checkbox", id: `notify-${kind}-${channel}`, "data-kind": kind, "data-channel": channel,
            "aria-label": `${kinds[kind] || kind}: ${channels[channel]}`, disabled: off });
          box.checked = Boolean(mine.channels[kind][channel]);
          box.addEventListener("change", () => save({ channels: { [kind]: { [channel]: box.checked } } }));
          return el("td", {}, box);
        })))));
    email.input.value = mine.email || "";
    if (!mine.available.email) pushLine.before(el("p", { class: "small muted", id: "email-off", text: t("This server sends no e-mail.") }));
  }

  emailForm.addEventListener("submit", (event) => { event.preventDefault(); save({ email: email.input.value.trim() }); });

  async function drawPush() {
    if (!pushSupported()) { pushButton.hidden = true; pushLine.textContent = t("This browser cannot get push notifications."); return; }
    const subscription = await browserSubscription();
    pushButton.textContent = subscription ? t("Turn off push in this browser") : t("Turn on push in this browser");
    pushLine.textContent = subscription ? t("Push is on in this browser.") : t("Push is off in this browser.");
  }

  pushButton.addEventListener("click", async () => {
    pushButton.disabled = true;
    try {
      const current = await browserSubscription();
      if (current) {
        await api("/api/account/push", { method: "DELETE", body: { endpoint: current.endpoint } });
        await current.unsubscribe();
      } else {
        if ((await Notification.requestPermission()) !== "granted") throw new Error(t("This browser does not allow notifications from this site."));
        const { public_key: key } = await api("/api/account/push");
        const registration = await navigator.serviceWorker.register("/static/sw.js", { scope: "/static/" });
        await navigator.serviceWorker.ready;
        const subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
        await api("/api/account/push", { method: "POST", body: subscription.toJSON() });
        message.say(t("Push is on in this browser. Choose below which kinds it brings."));
      }
    } catch (err) {
      message.say(err.message, true);
    } finally {
      pushButton.disabled = false;
      drawPush();
    }
  });

  api("/api/account/notifications").then(draw, (err) => message.say(err.message, true));
  drawPush().catch((err) => console.error("push", err));
  return card;
}
