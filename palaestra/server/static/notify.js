// Notifications in the page (issue 29; docs/web.md, "Notifications"): the header's bell with the
// count of unread notifications, the tab title's "(N)" (tabtitle.js), and the list they open; live
// over the member's websocket (/api/notifications/ws). Also tells the server the page's language,
// the language of the member's messages.

import { t, language } from "/static/i18n.js";
import { el } from "/static/dom.js";
import { api } from "/static/api.js";
import { setUnreadTitle } from "/static/tabtitle.js";

const state = { on: false, unread: 0, socket: null, retry: 500, ping: null };

function bell() { return document.getElementById("notify"); }

function show(count) {
  state.unread = count;
  setUnreadTitle(count);
  const button = document.getElementById("notify-button");
  const badge = document.getElementById("notify-count");
  if (!button || !badge) return;
  badge.textContent = count > 0 ? String(count) : "";
  badge.hidden = count === 0;
  button.setAttribute("aria-label", count ? t("Notifications: {n} unread", { n: count }) : t("Notifications"));
}

function connect() {
  if (!state.on) return;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/api/notifications/ws`);
  state.socket = socket;
  socket.addEventListener("open", () => { state.retry = 500; });
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "notifications") {
      show(message.unread);
      const list = document.getElementById("notify-list");
      if (list && !list.hidden) drawList();
    }
  });
  socket.addEventListener("close", () => {
    if (!state.on || state.socket !== socket) return;
    state.retry = Math.min(state.retry * 2, 15000);
    setTimeout(connect, state.retry);
  });
}

async function markRead(ids) {
  try {
    const answer = await api("/api/notifications/read", { method: "POST", body: ids ? { ids } : {} });
    show(answer.unread);
  } catch (err) { console.error("notifications", err); }
}

async function drawList() {
  const list = document.getElementById("notify-list");
  if (!list) return;
  let inbox;
  try { inbox = await api("/api/notifications"); } catch (err) { list.replaceChildren(el("p", { class: "small", text: err.message })); return; }
  show(inbox.unread);
  const items = inbox.items.map((item) => el("li", { class: item.read ? "read" : "unread", "data-kind": item.kind },
    el("a", { href: item.url, onclick: () => { closeList(); if (!item.read) markRead([item.id]); } },
      el("strong", { text: item.title }), el("span", { class: "small", text: item.text }))));
  list.replaceChildren(
    el("div", { class: "notify-head" }, el("strong", { text: t("Notifications") }),
      el("button", { type: "button", class: "link small", id: "notify-all-read", disabled: inbox.unread === 0, onclick: () => markRead(null).then(drawList) }, t("Mark all read"))),
    items.length ? el("ul", { class: "list" }, ...items) : el("p", { class: "muted small", text: t("No notifications yet.") }),
    el("a", { class: "small", href: "/#/account", onclick: closeList }, t("Choose what you are told, and how.")));
}

function closeList() {
  const list = document.getElementById("notify-list");
  if (list) list.hidden = true;
  document.getElementById("notify-button")?.setAttribute("aria-expanded", "false");
}

function drawBell() {
  const holder = bell();
  if (!holder) return;
  if (!state.on) { holder.replaceChildren(); return; }
  const list = el("div", { id: "notify-list", class: "notify-list card", hidden: true });
  const button = el("button", { type: "button", id: "notify-button", class: "notify-button", "aria-expanded": "false", "aria-controls": "notify-list",
    onclick: () => {
      const opening = list.hidden;
      list.hidden = !opening;
      button.setAttribute("aria-expanded", String(opening));
      if (opening) drawList();
    } }, el("span", { "aria-hidden": "true", text: "🔔" }), el("span", { id: "notify-count", class: "notify-count", hidden: true }));
  holder.replaceChildren(button, list);
  show(state.unread);
}

async function tellLanguage() {
  try {
    const mine = await api("/api/account/notifications");
    if (mine.language !== language) await api("/api/account/notifications", { method: "PUT", body: { language } });
  } catch (err) { console.error("notifications", err); }
}

// the member signed in (or the page loaded signed in): the bell, the live count, the language
export function startNotifications() {
  if (state.on) return;
  state.on = true;
  drawBell();
  connect();
  state.ping = setInterval(() => { if (state.socket && state.socket.readyState === 1) state.socket.send('{"type":"ping"}'); }, 25000);
  tellLanguage();
}

// signed out: no bell, no count
export function stopNotifications() {
  state.on = false;
  clearInterval(state.ping);
  if (state.socket) state.socket.close();
  state.socket = null;
  show(0);
  drawBell();
}

// the page's language changed: the bell's texts, and the member's messages from now on
export function languageChanged() {
  if (!state.on) return;
  drawBell();
  tellLanguage();
}

document.addEventListener("palaestra:member", (event) => {
  if (event.detail && event.detail.username) startNotifications();
  else stopNotifications();
});
document.addEventListener("keydown", (event) => { if (event.key === "Escape") closeList(); });
