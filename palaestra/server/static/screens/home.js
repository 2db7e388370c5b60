// The home screen (#/): the new-game form, this browser's games, games to watch.

import { t, playerName } from "/static/i18n.js";
import { el } from "/static/dom.js";
import { api, meta } from "/static/api.js";
import { loadMine } from "/static/state.js";
import { seatName, movesText } from "/static/ui.js";
import { buildNewGameForm } from "/static/newgame.js";
import { memberGames } from "/static/membergames.js";

export default async function homePage(params, { root }) {
  const m = await meta();
  const newCard = el("section", { class: "card", id: "new-game" }, el("h2", { text: t("New game") }));
  const mineCard = el("section", { class: "card", id: "my-games" }, el("h2", { text: t("My games") }));
  const watchCard = el("section", { class: "card", id: "watch-games" }, el("h2", { text: t("Watch") }));
  root.replaceChildren(el("div", { class: "cards" }, newCard, mineCard, watchCard));
  buildNewGameForm(newCard, m);

  const games = await api("/api/games?limit=100");
  const mine = loadMine();
  const mineList = el("ul", { class: "list" });
  const watchList = el("ul", { class: "list" });
  for (const g of games) {
    const entry = mine[g.id];
    const who = g.seats.map((s) => seatName(s) || playerName(s.player_name)).join(" · ");
    const item = el("li", { "data-game": g.id },
      el("a", { href: `#/game/${g.id}` }, `${g.title} #${g.id}`),
      el("span", { class: `tag ${g.status}`, text: g.status === "finished" ? t("finished") : g.status === "abandoned" ? t("abandoned") : movesText(g.moves_played ?? g.ply), "data-moves": g.moves_played ?? g.ply }),
      el("span", { class: "muted small", text: who }),
      g.status === "finished" ? el("a", { class: "small", href: `#/replay/${g.id}` }, t("replay")) : null);
    if (entry) mineList.append(item);
    else if (g.status === "active") watchList.append(item);
  }
  // games not listed in the lobby (private ones) are known from this browser's own list
  const listed = new Set(games.map((g) => g.id));
  for (const [gid, entry] of Object.entries(mine)) {
    if (listed.has(gid)) continue;
    mineList.append(el("li", { "data-game": gid }, el("a", { href: `#/game/${gid}` }, `${entry.game || t("game")} #${gid}`)));
  }
  await memberGames(mineCard);  // a member's games from every device (issue 28)
  mineCard.append(mineList.children.length ? mineList : el("p", { class: "muted", text: t("No games yet.") }));
  watchCard.append(watchList.children.length ? watchList : el("p", { class: "muted", text: t("Nobody is playing right now.") }));
}
