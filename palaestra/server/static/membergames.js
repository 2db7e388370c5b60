// "My games" of a signed-in member on the home screen (issue 28): the games the account holds a
// seat in, from any device (/api/users/ME/games), beside this browser's own list.

import { t } from "/static/i18n.js";
import { el } from "/static/dom.js";
import { api } from "/static/api.js";
import { me, profileLink, profileHref } from "/static/member.js";
import { seatName } from "/static/ui.js";
import { dateText } from "/static/screens/forms.js";

const SHOWN = 8;  // the newest; the profile lists them all

export async function memberGames(card) {
  const name = me();
  if (!name) return;
  const box = el("div", { id: "account-games" }, el("h3", { text: t("On your account") }));
  card.append(box, el("h3", { text: t("In this browser") }));
  let data;
  try {
    data = await api(`/api/users/${encodeURIComponent(name)}/games`);
  } catch (err) {
    box.append(el("p", { class: "small", text: err.message }));
    return;
  }
  if (!data.games.length) { box.append(el("p", { class: "muted", text: t("No games yet.") })); return; }
  const status = (g) => (g.status === "active" ? t("in play") : g.status === "abandoned" ? t("abandoned") : t("finished"));
  const shown = data.games.slice(0, SHOWN);
  box.append(el("ul", { class: "list" }, shown.map((g) => el("li", { "data-game": g.id },
    el("a", { href: g.status === "active" ? `#/game/${g.id}` : `#/replay/${g.id}` }, `${g.title} #${g.id}`),
    el("span", { class: `tag ${g.status}`, text: status(g) }),
    g.rated ? el("span", { class: "tag rated", text: t("rated") }) : null,
    el("span", { class: "small" }, g.opponents.flatMap((o, i) => [i ? ", " : "", o.member ? profileLink(o.member) : seatName(o) || t("guest")])),
    el("span", { class: "muted small", text: dateText(g.date, "short") })))),
  el("p", { class: "small" }, el("a", { href: profileHref(name), id: "all-my-games" }, t("All your games"))));
}
