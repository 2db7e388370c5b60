// The router: shows the screen of the address in the URL fragment (the table is routes.js), one
// at a time and in the order asked, and runs what the screen left behind (onLeave) first.
// A few pages have a real path as well, to be shared as they are: /@/NAME (a profile) and
// /leaderboard[/POOL]; the server serves this page there (web.py). A path without a fragment is
// read as that fragment (/@/bea as #/@/bea); a fragment, where there is one, wins.

import { t } from "/static/i18n.js";
import { el } from "/static/dom.js";
import { page } from "/static/state.js";
import { ROUTES } from "/static/routes.js";

const root = document.getElementById("app");
const connEl = document.getElementById("conn");

// the route of a hash and its parameters: {route, params}; a path's extra parts are ignored
export function match(hash, routes = ROUTES) {
  const parts = hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);
  for (const route of routes) {
    const params = {};
    const pattern = route.path.split("/").filter(Boolean);
    const fits = pattern.every((p, i) => {
      if (!p.startsWith(":")) return parts[i] === p;
      const optional = p.endsWith("?");
      const name = p.slice(1, optional ? -1 : undefined);
      if (parts[i] === undefined) return optional;
      params[name] = parts[i];
      return true;
    });
    if (fits) return { route, params };
  }
  return null;
}

export function address(loc = location) {
  const path = loc.pathname.replace(/\/+$/, "");
  return path && (!loc.hash || loc.hash === "#") ? `#${path}` : loc.hash;
}

let leaving = [];
function leave() {
  const jobs = leaving;
  leaving = [];
  for (const job of jobs) {
    try { job(); } catch (err) { console.error(err); }
  }
}
const screen = { root, onLeave(fn) { leaving.push(fn); } };

// One route at a time, in the order asked: a page still loading (the home page waiting for
// /api/meta, say) would otherwise draw itself over the page of a newer hash.
let routing = Promise.resolve();
export function route() {
  routing = routing.then(showRoute);
  return routing;
}
async function showRoute() {
  leave();
  page.game = null;
  connEl.className = "conn";
  try {
    const found = match(address());
    const module = await found.route.screen();
    await module.default(found.params, screen);
  } catch (err) {
    root.replaceChildren(el("div", { class: "card" }, el("h1", { class: "page-title", text: t("Something went wrong") }),
      el("p", { text: err.message }), el("a", { href: "#/" }, t("Back home"))));
  }
}

export function startRouter() {
  window.addEventListener("hashchange", route);
  return route();
}
