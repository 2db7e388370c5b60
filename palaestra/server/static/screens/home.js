// The home screen (#/): a member's challenges and the lobby (issue 29: play now, open seeks), the
// new-game form, this browser's games, public games to watch (live).

import { t, playerName, language } from "/static/i18n.js";
import { el } from "/static/dom.js";
import { api, meta } from "/static/api.js";
import { loadMine } from "/static/state.js";
import { seatName, movesText, outcomeFor, invitedNames } from "/static/ui.js";
import { buildNewGameForm } from "/static/newgame.js";
import { memberGames } from "/static/membergames.js";
import { buildLobby } from "/static/lobby.js";
import { buildChallenges } from "/static/challenges.js";

export default async function homePage(params, { root, onLeave }) {
  const m = await meta();
  const lobbyCard = el("section", { class: "card", id: "lobby" }, el("h2", { text: t("Lobby") }));
  // a member's challenges, incoming and outgoing (issue 29; hidden for guests)
  const challengesCard = el("section", { class: "card", id: "challenges" }, el("h2", { text: t("Challenges") }));
  const newCard = el("section", { class: "card", id: "new-game" }, el("h2", { text: t("New game") }));
  const mineCard = el("section", { class: "card", id: "my-games" }, el("h2", { text: t("My games") }));
  const watchCard = el("section", { class: "card", id: "watch-games" }, el("h2", { text: t("Watch") }));
  // the screen's one level-one heading (issue 30: axe's "page-has-heading-one"), for screen readers:
  // the cards' titles say the rest
  const heading = el("h1", { class: "sr-only", id: "home-title", text: t("Palaestra: board games to play online") });
  // "Learn to play" (issue 30): a course for each game that has one
  const courses = m.games.filter((g) => g.learn);
  const learnLine = courses.length ? el("p", { class: "learn-links", id: "learn-links" }, el("strong", { text: t("Learn to play") }), ": ",
    ...courses.flatMap((g, i) => [i ? " · " : "", el("a", { href: `/learn/${g.name}`, "data-game": g.name }, g.title)])) : null;
  root.replaceChildren(heading, ...(learnLine ? [learnLine] : []), el("div", { class: "cards" }, challengesCard, lobbyCard, newCard, mineCard, watchCard));
  buildNewGameForm(newCard, m);

  // this browser's games (finding 13: each with its opponents, its state for me and its date),
  // newest first, asked for by id (private ones too); the lobby's other active games to watch
  const mine = loadMine();
  buildLobby(lobbyCard, watchCard, m, mine, onLeave, buildChallenges(challengesCard, onLeave));
  const myIds = Object.keys(mine).sort((a, b) => (mine[b].at || 0) - (mine[a].at || 0)).slice(0, 50);
  const myGames = myIds.length ? await api(`/api/games?ids=${myIds.map(encodeURIComponent).join(",")}`) : [];
  const mineList = el("ul", { class: "list", id: "my-games-list" });
  for (const g of myGames) mineList.append(myGameItem(g, mine[g.id]));
  await memberGames(mineCard);  // a member's games from every device (issue 28)
  mineCard.append(mineList.children.length ? mineList : el("p", { class: "muted", text: t("No games yet.") }));
}

// One of my games: "GAME against Bea · your turn · 27 Nov 2026, 18:05"
function myGameItem(g, entry) {
  const mySeats = Object.keys((entry && entry.tokens) || {}).map(Number);
  const others = g.seats.filter((s, i) => !mySeats.includes(i));
  const against = !others.length ? t("hot seat")
    : t("against {names}", { names: others.map((s) => seatName(s) || playerName(s.player_name)).join(t(" and ")) });
  return el("li", { "data-game": g.id },
    el("a", { href: `#/game/${g.id}` }, g.title),
    el("span", { class: "small", "data-against": "" }, ` ${against} `),
    el("span", { class: `tag ${g.status}`, "data-moves": g.moves_played ?? g.ply, text: stateFor(g, mySeats) }),
    el("span", { class: "muted small", "data-updated": g.updated, text: ` ${when(g.updated)}` }),
    g.status === "finished" ? el("a", { class: "small", href: `#/replay/${g.id}` }, t("replay")) : null);
}

// where a game of mine stands, for me
function stateFor(g, mySeats) {
  if (g.status === "abandoned") return t("abandoned");
  if (g.status === "finished") {
    const outcome = g.result ? outcomeFor(g.result, mySeats, g.seats.length) : null;
    return outcome === "won" ? t("you won") : outcome === "lost" ? t("you lost") : outcome === "drawn" ? t("draw") : t("finished");
  }
  const unjoined = g.seats.filter((s) => s.kind === "human" && !s.joined);
  if (unjoined.length) return t("waiting for {names} to join", { names: invitedNames(unjoined) });
  const toMove = g.seats.findIndex((s) => s.player_name === g.to_move);
  if (toMove >= 0 && mySeats.includes(toMove)) return t("your turn");
  if (toMove >= 0) return t("{name} to move", { name: seatName(g.seats[toMove]) || playerName(g.to_move) });
  return movesText(g.moves_played ?? g.ply);
}

// the date of the last change, in the page's language
function when(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  return new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "short" }).format(date);
}
