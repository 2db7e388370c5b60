// The signed-in member (issue 28; docs/accounts.md): who it is, the header's account links, links
// to profiles. The session itself is an HttpOnly cookie the page never sees; its CSRF token is
// kept in memory (api.js sends it with every change), got again from /api/session at page load.

import { t } from "/static/i18n.js";
import { el } from "/static/dom.js";
import { api, setCsrfToken } from "/static/api.js";

const member = { username: null };

// the signed-in member's username, or null for a guest
export function me() { return member.username; }

// at page load: is this browser signed in? (/api/session answers guests too, without an error)
export async function loadMember() {
  try {
    const who = await api("/api/session");
    if (who.signed_in) signedIn(who);
    else signedOut();
  } catch (err) {
    console.error("session", err);
    signedOut();
  }
}

// after signing up or in ({username, csrf_token}), and at page load
export function signedIn(data) {
  member.username = data.username;
  setCsrfToken(data.csrf_token);
  drawAccountNav();
  document.dispatchEvent(new CustomEvent("palaestra:member", { detail: { username: data.username } }));  // notify.js
}
export function signedOut() {
  member.username = null;
  setCsrfToken(null);
  drawAccountNav();
  document.dispatchEvent(new CustomEvent("palaestra:member", { detail: { username: null } }));
}

// a profile's address is a real path, to be shared as it is (web.py serves the page there)
export function profileHref(name) { return `/@/${encodeURIComponent(name)}`; }
export function profileLink(name, attrs = {}) { return el("a", { href: profileHref(name), ...attrs }, name); }

// the seats of a game view that the signed-in member holds by account
export function memberSeats(view) {
  if (!member.username || !view || !view.seats) return [];
  const mine = member.username.toLowerCase();
  return view.seats.map((s, i) => (s.member && s.member.toLowerCase() === mine ? i : -1)).filter((i) => i >= 0);
}

async function signOut() {
  try {
    await api("/api/session", { method: "DELETE" });
  } catch (err) {
    if (err.status !== 401) console.error("sign out", err);
  }
  signedOut();
  location.assign("/");  // the page starts again as a guest's
}

// the header's links: the leaderboards; a guest's "Sign in" and "Sign up"; a member's name (their
// profile), settings and "Sign out"
export function drawAccountNav() {
  const nav = document.getElementById("account-nav");
  if (!nav) return;
  nav.setAttribute("aria-label", t("Account"));
  const items = [el("a", { href: "/leaderboard", id: "nav-leaderboard" }, t("Leaderboards"))];
  if (member.username) {
    items.push(
      profileLink(member.username, { id: "nav-me", title: t("Your profile") }),
      el("a", { href: "/#/account", id: "nav-account" }, t("Settings")),
      el("button", { type: "button", class: "link", id: "nav-signout", onclick: signOut }, t("Sign out")));
  } else {
    items.push(
      el("a", { href: "/#/signin", id: "nav-signin" }, t("Sign in")),
      el("a", { href: "/#/signup", id: "nav-signup" }, t("Sign up")));
  }
  nav.replaceChildren(...items);
}
