// The join screen (#/join/ID/CODE): an invitation link. It says what the invitation offers before
// anything is typed (finding 5: the game, who invites, the guest's colour, the players, the clock),
// or at once that it was used or withdrawn; the guest gives a name (kept for the next time), the
// code is used up and the seat's own token comes back; then the game opens.

import { t, playerName } from "/static/i18n.js";
import { el } from "/static/dom.js";
import { api } from "/static/api.js";
import { myName, setMyName, mineOf, rememberGame } from "/static/state.js";
import { toast, seatName } from "/static/ui.js";
import { controlText } from "/static/clock.js";

export default async function joinPage({ id, code }, { root }) {
  const offer = await api(`/api/games/${id}/invitation`, { headers: { "X-Invitation-Code": code } });
  const game = offer.game;
  const entry = mineOf(id);
  if (entry.tokens && entry.tokens[offer.seat]) { location.replace(`#/game/${id}`); return; }  // this browser took it
  const watch = el("a", { href: `#/game/${id}`, id: "join-watch" }, t("Watch the game"));
  const closed = game.status !== "active" ? t("This game is over: nobody can join it any more.")
    : offer.status === "used" ? t("This invitation has been used already.")
      : offer.status === "revoked" ? t("This invitation was withdrawn.") : null;
  const about = el("div", { id: "join-about" },
    el("p", { id: "join-invite", text: inviteLine(offer) }),
    closed ? null : el("p", { id: "join-seat" }, t("You play {colour}.", { colour: playerName(offer.player_name) })),
    el("p", { class: "small", id: "join-players", text: t("Players: {list}", { list: game.seats.map((s, i) => who(s, i, offer)).join(" · ") }) }),
    el("p", { class: "small", id: "join-clock", text: game.clock ? t("Clock: {control}", { control: controlText(game.clock.control) }) : t("No clock") }));
  if (closed) {
    root.replaceChildren(el("div", { class: "card", id: "join-closed" }, el("h1", { class: "page-title", text: t("Join the game") }),
      el("p", { class: "note", role: "status", text: closed }), about, el("p", {}, watch, " · ", el("a", { href: "#/" }, t("Back home")))));
    return;
  }
  const input = el("input", { id: "join-name", name: "name", maxlength: 40, autocomplete: "nickname", required: true, value: myName() });
  const button = el("button", { type: "submit", id: "join-start" }, t("Join"));
  const form = el("form", { class: "card", id: "join-form" },
    el("h1", { class: "page-title", text: t("Join the game") }), about,
    el("div", { class: "field" }, el("label", { for: "join-name", text: t("Your name") }), input),
    el("div", { class: "field" }, button));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = input.value.trim();
    if (!name) return;
    setMyName(name);
    button.disabled = true;
    try {
      // the invitation code is used up: the seat's own token comes back
      const result = await api(`/api/games/${id}/join`, { method: "POST", body: { code, name } });
      const mine = mineOf(id);
      mine.tokens[result.seat] = result.token;
      rememberGame(id, { tokens: mine.tokens, game: result.game.game });
      location.replace(`#/game/${id}`);
    } catch (err) {
      button.disabled = false;
      toast(err.message, true, err.detail);
    }
  });
  root.replaceChildren(form);
  input.focus();
}

// "Ann invites you to a game of GAME."
function inviteLine(offer) {
  const game = offer.game;
  if (offer.inviter_seat === null || offer.inviter_seat === undefined) return t("You are invited to a game of {game}.", { game: game.title });
  const seat = game.seats[offer.inviter_seat];
  return t("{name} invites you to a game of {game}.", { name: offer.inviter || playerName(seat.player_name), game: game.title });
}

// a player of the list: colour, name or AI level; the guest's own seat is "you"
function who(seat, i, offer) {
  const colour = playerName(seat.player_name);
  if (i === offer.seat && offer.status === "open") return t("{colour}: you", { colour });
  const name = seatName(seat);
  return name ? `${colour}: ${name}` : colour;
}
