// The join screen (#/join/ID/CODE): an invitation link. The guest gives a name (once per browser),
// the invitation code is used up and the seat's own token comes back; then the game opens.

import { t } from "/static/i18n.js";
import { el } from "/static/dom.js";
import { api } from "/static/api.js";
import { myName, setMyName, mineOf, rememberGame } from "/static/state.js";

export default async function joinPage({ id, code: token }, { root }) {
  let name = myName();
  if (!name) name = await askName(root);  // the guest is asked for a name once (finding 11)
  // the invitation code is used up: the seat's own token comes back
  const result = await api(`/api/games/${id}/join`, { method: "POST", body: { code: token, name: name || null } });
  const entry = mineOf(id);
  entry.tokens[result.seat] = result.token;
  rememberGame(id, { tokens: entry.tokens, game: result.game.game });
  location.replace(`#/game/${id}`);
}

function askName(root) {
  return new Promise((resolve) => {
    const input = el("input", { id: "join-name", name: "name", maxlength: 40, autocomplete: "nickname", required: true });
    const form = el("form", { class: "card", id: "join-form" },
      el("h2", { text: t("Join the game") }),
      el("div", { class: "field" }, el("label", { for: "join-name", text: t("Your name") }), input),
      el("div", { class: "field" }, el("button", { type: "submit", id: "join-start" }, t("Join"))));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const name = input.value.trim();
      if (!name) return;
      setMyName(name);
      resolve(name);
    });
    root.replaceChildren(form);
    input.focus();
  });
}
