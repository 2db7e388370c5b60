// A member's profile (/@/NAME, also #/@/NAME; issue 28): joined, games played, the rating of each
// pool with its history as a chart, and the member's games, paged, with a game filter; another
// member's has a "Challenge" button (issue 29).

import { t } from "/static/i18n.js";
import { el } from "/static/dom.js";
import { api, meta } from "/static/api.js";
import { me, profileLink } from "/static/member.js";
import { seatName } from "/static/ui.js";
import { dateText } from "/static/screens/forms.js";
import { ratingChart } from "/static/screens/chart.js";
import { challengeForm } from "/static/challenges.js";

// "1523 ± 87", and "?" after a provisional rating (fewer than 10 rated games), as Lichess does
export function ratingText(r) {
  return `${r.rating}${r.provisional ? "?" : ""} ± ${r.deviation}`;
}
export function ratingCell(r) {
  return el("span", { class: "rating", "data-rating": r.rating, title: r.provisional ? t("provisional: fewer than 10 rated games") : null }, ratingText(r));
}

export default async function profilePage({ name }, { root, onLeave }) {
  const [profile, m] = await Promise.all([api(`/api/users/${encodeURIComponent(name)}`), meta()]);
  const pools = Object.fromEntries((m.rating_pools || []).map((p) => [p.id, p]));
  const poolTitle = (id) => (pools[id] ? pools[id].title : id);
  const own = me() && me().toLowerCase() === profile.username.toLowerCase();

  const ratings = Object.entries(profile.ratings || {});
  const ratingsCard = el("section", { class: "card", id: "ratings", "aria-labelledby": "ratings-title" },
    el("h2", { class: "h3", id: "ratings-title", text: t("Ratings") }),
    ratings.length ? ratings.map(([pool, r], k) => {
      const history = [...((profile.history || {})[pool] || [])].sort((a, b) => String(a.at).localeCompare(String(b.at)));
      const first = history[0];
      const points = history.length ? [first.rating - (Number(first.change) || 0), ...history.map((h) => h.rating)] : [];
      return el("div", { class: "pool", "data-pool": pool },
        el("h3", { class: "h4" }, el("a", { href: `/leaderboard/${encodeURIComponent(pool)}` }, poolTitle(pool)), " ",
          ratingCell(r), " ", el("span", { class: "muted small", text: r.games === 1 ? t("1 rated game") : t("{n} rated games", { n: r.games }) })),
        points.length > 1 ? ratingChart(points, t("Rating history: {pool}", { pool: poolTitle(pool) }), `chart-${k}`) : null);
    }) : el("p", { class: "muted", text: t("No rated games yet.") }));

  const gamesCard = el("section", { class: "card", id: "profile-games", "aria-labelledby": "games-title" });
  // another member: challenge them (issue 29), with the game and options of the new-game form
  const challengeCard = me() && !own ? el("section", { class: "card", id: "challenge-card" }) : null;
  if (challengeCard) {
    const stop = challengeForm(challengeCard, m, profile.username);
    if (onLeave) onLeave(stop);
  }
  root.replaceChildren(el("div", { class: "profile" },
    el("h1", { class: "page-title", id: "profile-name" }, profile.username, own ? el("span", { class: "tag", text: t("you") }) : null),
    el("p", { class: "muted", id: "profile-facts" },
      t("Joined {date}", { date: dateText(profile.joined) }), " · ",
      profile.games === 1 ? t("1 game played") : t("{n} games played", { n: profile.games })),
    challengeCard,
    el("div", { class: "cards profile-cards" }, ratingsCard, gamesCard)));
  gamesList(gamesCard, profile.username, m, own);
}

// the result of a game for the member, in words
function resultWords(g) {
  if (g.status === "abandoned") return t("abandoned");
  if (!g.result) return g.status === "finished" ? t("finished") : t("in play");
  if (g.result.outcome === "win") return t("won");
  if (g.result.outcome === "draw") return t("draw");
  return g.opponents.length > 1 ? t("place {rank}", { rank: g.result.rank }) : t("lost");
}

function opponentNode(o) {
  if (o.member) return profileLink(o.member);
  return el("span", {}, seatName(o) || t("guest"));
}

async function gamesList(card, username, m, own) {
  const filter = el("select", { id: "games-filter" },
    el("option", { value: "", text: t("All games") }),
    m.games.map((g) => el("option", { value: g.name, text: g.title })));
  const list = el("ul", { class: "list", id: "games-list" });
  const pageLine = el("span", { class: "small muted", id: "games-page" });
  const prev = el("button", { type: "button", class: "secondary", id: "games-prev" }, t("Newer"));
  const next = el("button", { type: "button", class: "secondary", id: "games-next" }, t("Older"));
  const pager = el("div", { class: "field pager" }, prev, pageLine, next);
  card.append(...[el("h2", { class: "h3", id: "games-title", text: t("Games") }),
    el("div", { class: "field" }, el("label", { for: "games-filter", text: t("Game") }), filter),
    own ? el("p", { class: "small muted", text: t("You see all your games; others see your rated and public ones.") }) : null,
    list, pager].filter(Boolean));
  let page = 1;
  let asked = 0;
  async function show() {
    const mine = ++asked;
    const query = new URLSearchParams({ page: String(page) });
    if (filter.value) query.set("game", filter.value);
    const data = await api(`/api/users/${encodeURIComponent(username)}/games?${query}`);
    if (mine !== asked) return;
    list.replaceChildren(...(data.games.length ? data.games.map((g) => {
      const link = g.status === "active" ? `/#/game/${g.id}` : `/#/replay/${g.id}`;
      return el("li", { "data-game": g.id, "data-outcome": g.result ? g.result.outcome : "" },
        el("a", { href: link }, `${g.title} #${g.id}`),
        el("span", { class: "small" }, t("against"), " ", g.opponents.flatMap((o, i) => (i ? [", ", opponentNode(o)] : [opponentNode(o)]))),
        el("strong", { class: `outcome ${g.result ? g.result.outcome : ""}`, text: resultWords(g) }),
        el("span", { class: g.rated ? "tag rated" : "tag", text: g.rated ? t("rated") : t("casual") }),
        el("span", { class: "muted small", text: dateText(g.date, "short") }));
    }) : [el("li", { class: "muted", text: t("No games yet.") })]));
    pageLine.textContent = data.pages > 1 ? t("page {page} of {pages}", { page: data.page, pages: data.pages }) : "";
    pager.hidden = data.pages <= 1;
    prev.disabled = data.page <= 1;
    next.disabled = data.page >= data.pages;
    list.dataset.page = String(data.page);
  }
  filter.addEventListener("change", () => { page = 1; show(); });
  prev.addEventListener("click", () => { page = Math.max(1, page - 1); show(); });
  next.addEventListener("click", () => { page += 1; show(); });
  await show();
}
