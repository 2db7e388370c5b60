// The leaderboards (/leaderboard/POOL, also #/leaderboard/POOL; issue 28): a pool picker (the rating
// pools of /api/meta) and the pool's best: rank, name, rating ± deviation ("?": provisional), games.

import { t } from "/static/i18n.js";
import { el } from "/static/dom.js";
import { api, meta } from "/static/api.js";
import { profileLink } from "/static/member.js";
import { ratingCell } from "/static/screens/profile.js";

export default async function leaderboardPage({ pool }, { root }) {
  const m = await meta();
  const pools = m.rating_pools || [];
  if (!pools.length) {
    root.replaceChildren(el("section", { class: "card" }, el("h1", { class: "page-title", text: t("Leaderboards") }), el("p", { text: t("No game is rated on this server.") })));
    return;
  }
  const picker = el("select", { id: "pool-picker" }, pools.map((p) => el("option", { value: p.id, text: p.title })));
  picker.value = pools.some((p) => p.id === pool) ? pool : pools[0].id;
  const table = el("div", { id: "leaderboard" });
  root.replaceChildren(el("section", { class: "card", "aria-labelledby": "leaderboard-title" },
    el("h1", { class: "page-title", id: "leaderboard-title", text: t("Leaderboards") }),
    el("div", { class: "field" }, el("label", { for: "pool-picker", text: t("Rating list") }), picker),
    el("p", { class: "small muted", text: t("Members with 10 or more rated games in the list, who played in the last 90 days.") }),
    table));
  let asked = 0;
  async function show() {
    const mine = ++asked;
    const data = await api(`/api/leaderboard/${encodeURIComponent(picker.value)}`);
    if (mine !== asked) return;
    table.dataset.pool = data.pool.id;
    if (!data.players.length) { table.replaceChildren(el("p", { class: "muted", text: t("Nobody is on this list yet.") })); return; }
    table.replaceChildren(el("table", { class: "board-table" },
      el("caption", { text: data.pool.title }),
      el("thead", {}, el("tr", {}, [t("Rank"), t("Player"), t("Rating"), t("Games")].map((h) => el("th", { scope: "col", text: h })))),
      el("tbody", {}, data.players.map((p) => el("tr", { "data-player": p.username },
        el("td", { text: String(p.rank) }), el("td", {}, profileLink(p.username)), el("td", {}, ratingCell(p)), el("td", { text: String(p.games) }))))));
  }
  picker.addEventListener("change", () => {
    // the address follows the list shown, to be shared (no new history entry)
    history.replaceState(null, "", `/leaderboard/${encodeURIComponent(picker.value)}`);
    show();
  });
  await show();
}
