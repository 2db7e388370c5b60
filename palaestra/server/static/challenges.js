// Challenges to a named member (issue 29): the form on a member's profile (the game and its options
// as in the new-game form, a clock, rated, listed for spectators), and the home page's list of
// incoming and outgoing challenges with Accept, Decline (with a reason) and Cancel. The list is
// kept live by the lobby's websocket (its "challenge" messages, static/lobby.js; read again every
// 30 s too); the challenger moves to the game as soon as the challenge is accepted.

import { t } from "/static/i18n.js";
import { el } from "/static/dom.js";
import { api } from "/static/api.js";
import { rememberGame } from "/static/state.js";
import { toast } from "/static/ui.js";
import { controlText, clockFields } from "/static/clock.js";
import { ratedField } from "/static/rated.js";
import { me, profileLink } from "/static/member.js";
import { gameChooser } from "/static/newgame.js";

// the reasons of a decline (their ids are the API's, /api/meta), in the page's language (asked
// when drawn: the page's catalogue is loaded by then)
export function reasons() {
  return {
    generic: t("I am not accepting challenges at the moment."),
    later: t("This is not the right time for me, please ask again later."),
    too_fast: t("This time control is too fast for me, please challenge again with a slower game."),
    too_slow: t("This time control is too slow for me, please challenge again with a faster game."),
    time_control: t("I am not accepting challenges with this time control."),
    rated: t("Please send me a rated challenge instead."),
    casual: t("Please send me a casual challenge instead."),
    game: t("I am not accepting challenges to this game right now."),
    options: t("I am not accepting challenges with these options, please try others."),
  };
}
function reasonText(id) { return reasons()[id] || reasons().generic; }

function statusText(status) {
  switch (status) {
    case "open": return t("waiting for an answer");
    case "starting": case "accepted": return t("accepted");
    case "declined": return t("declined");
    case "cancelled": return t("cancelled");
    case "expired": return t("expired");
    default: return t("could not start");
  }
}

// the game to move to once a challenge is accepted (the member holds the seat by account)
function enter(c, seat, token) {
  rememberGame(c.game_id, { tokens: token ? { [seat]: token } : {}, game: c.game });
  location.hash = `#/game/${c.game_id}`;
}

// --- the profile's "Challenge" form ------------------------------------------------------------
export function challengeForm(card, m, username) {
  const form = el("form", { id: "challenge-form", hidden: true });
  // a challenge is a game for two: the games with a seating of 2, without a players option
  const two = (g) => g.seatings.find((s) => s.players === 2);
  const chooser = gameChooser({ ...m, games: m.games.filter(two) }, () => chooser.adapted(two(chooser.info()).names), 2);
  const clock = clockFields(m.time_controls);
  const publicInput = el("input", { type: "checkbox", id: "challenge-public", name: "public", checked: true });
  const publicBox = el("div", { class: "field" },
    el("label", { for: "challenge-public", text: t("List this game for spectators") }), publicInput);
  const waiting = el("p", { id: "challenge-waiting", role: "status", hidden: true });
  const send = el("button", { type: "submit", id: "challenge-send" }, t("Send the challenge"));
  form.append(
    el("div", { class: "field" }, el("label", { for: "game-select", text: t("Game") }), chooser.gameSelect),
    chooser.optionsBox, clock.box, publicBox, el("div", { class: "field" }, send));
  const rated = ratedField(form, clock.box, el("div"));
  if (rated.box) clock.box.after(rated.box);
  const open = el("button", { type: "button", id: "challenge-open", "aria-expanded": "false" }, t("Challenge"));
  open.addEventListener("click", () => {
    form.hidden = !form.hidden;
    open.setAttribute("aria-expanded", String(!form.hidden));
  });
  card.append(open, form, waiting);

  let poller = null;
  let current = null;
  async function check() {
    if (!current) return;
    let c;
    try { c = await api(`/api/challenges/${current}`); } catch (err) { return; }
    if (c.status === "open" || c.status === "starting") return;
    clearInterval(poller);
    current = null;
    if (c.status === "accepted") { enter(c, c.challenger_seat, null); return; }
    waiting.replaceChildren(el("span", { text: c.status === "declined"
      ? t("{name} declined: {reason}", { name: username, reason: reasonText(c.decline_reason) })
      : t("The challenge was {status}.", { status: statusText(c.status) }) }));
    send.disabled = false;
  }
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    await chooser.drawn();
    const body = { to: username, game: chooser.info().name, options: chooser.options(), public: publicInput.checked };
    const timeControl = clock.value();
    if (timeControl) body.time_control = timeControl;
    if (rated.value()) body.rated = true;
    send.disabled = true;
    try {
      const made = await api("/api/challenges", { method: "POST", body });
      current = made.id;
      form.hidden = true;
      const cancel = el("button", { type: "button", class: "secondary", id: "challenge-cancel", onclick: async () => {
        try { await api(`/api/challenges/${made.id}`, { method: "DELETE" }); } catch (err) { toast(err.message, true, err.detail); }
        check();
      } }, t("Cancel"));
      waiting.replaceChildren(t("Challenge sent to {name}: waiting for an answer…", { name: username }), " ", cancel);
      waiting.hidden = false;
      clearInterval(poller);
      poller = setInterval(check, 2000);
    } catch (err) {
      send.disabled = false;
      toast(err.message, true, err.detail);
    }
  });
  return () => clearInterval(poller);
}

// --- the home page's list ----------------------------------------------------------------------
export function buildChallenges(card, onLeave) {
  const incoming = el("ul", { class: "list", id: "incoming-challenges" });
  const outgoing = el("ul", { class: "list", id: "outgoing-challenges" });
  const none = el("p", { class: "muted", id: "no-challenges", text: t("No challenges.") });
  card.append(el("h3", { text: t("Challenges for you") }), incoming, el("h3", { text: t("Your challenges") }), outgoing, none);
  card.hidden = !me();
  const known = new Map();  // id -> CHALLENGE

  function what(c) {
    return [
      el("strong", { text: c.title }),
      c.time_control ? el("span", { class: "muted small", text: ` ${controlText(c.time_control)} ` }) : null,
      el("span", { class: "tag", text: c.rated ? t("rated") : t("casual") }),
    ];
  }
  function incomingItem(c, chosen) {
    const reason = el("select", { class: "decline-reason", "aria-label": t("Reason") },
      Object.entries(reasons()).map(([id, text]) => el("option", { value: id, text })));
    if (chosen) reason.value = chosen;
    return el("li", { "data-challenge": c.id },
      el("span", {}, t("From"), " ", profileLink(c.from), " "), ...what(c),
      el("button", { type: "button", class: "accept-challenge", onclick: () => accept(c) }, t("Accept")),
      reason,
      el("button", { type: "button", class: "secondary decline-challenge", onclick: () => decline(c, reason.value) }, t("Decline")));
  }
  function outgoingItem(c) {
    return el("li", { "data-challenge": c.id, "data-status": c.status },
      el("span", {}, t("To"), " ", profileLink(c.to), " "), ...what(c),
      el("span", { class: "small", text: ` ${statusText(c.status)} ` }),
      c.status === "declined" ? el("span", { class: "muted small decline-text", text: reasonText(c.decline_reason) }) : null,
      c.status === "accepted" && c.game_id ? el("a", { href: `#/game/${c.game_id}` }, t("to the game")) : null,
      c.status === "open" ? el("button", { type: "button", class: "secondary cancel-challenge", onclick: () => cancel(c) }, t("Cancel")) : null);
  }
  function draw() {
    const mine = me();
    const all = [...known.values()].sort((a, b) => String(b.created).localeCompare(String(a.created)));
    // a reason being chosen stays chosen when the list is drawn again
    const chosen = Object.fromEntries([...incoming.querySelectorAll(".decline-reason")]
      .map((select) => [select.closest("li").dataset.challenge, select.value]));
    incoming.replaceChildren(...all.filter((c) => c.to === mine && c.status === "open").map((c) => incomingItem(c, chosen[c.id])));
    outgoing.replaceChildren(...all.filter((c) => c.from === mine).map(outgoingItem));
    none.hidden = incoming.children.length + outgoing.children.length > 0;
  }
  async function refresh() {
    if (!me()) return;
    try {
      const lists = await api("/api/challenges");
      known.clear();
      for (const c of [...lists.incoming, ...lists.outgoing]) known.set(c.id, c);
      draw();
    } catch (err) { /* the next message or reconnection tries again */ }
  }
  async function accept(c) {
    try {
      const answer = await api(`/api/challenges/${c.id}/accept`, { method: "POST" });
      enter({ ...answer.challenge, game_id: answer.game }, answer.seat, answer.token);
    } catch (err) { toast(err.message, true, err.detail); refresh(); }
  }
  async function decline(c, reason) {
    try {
      known.set(c.id, await api(`/api/challenges/${c.id}/decline`, { method: "POST", body: { reason } }));
      draw();
    } catch (err) { toast(err.message, true, err.detail); refresh(); }
  }
  async function cancel(c) {
    try {
      known.set(c.id, await api(`/api/challenges/${c.id}`, { method: "DELETE" }));
      draw();
    } catch (err) { toast(err.message, true, err.detail); refresh(); }
  }
  // a message of the lobby's websocket: its first ("lobby", also after a reconnection) reads the
  // list again; a challenge's change is drawn, and the challenger goes to the game once accepted
  function onMessage(message) {
    if (message.type === "lobby") refresh();
    if (message.type !== "challenge") return;
    const c = message.challenge;
    known.set(c.id, c);
    draw();
    if (c.status === "accepted" && c.from === me() && c.game_id) enter(c, c.challenger_seat, null);
  }
  refresh();
  // also read again now and then: a server without Redis cannot push another process's changes
  const poller = setInterval(refresh, 30000);
  onLeave(() => clearInterval(poller));
  return onMessage;
}
