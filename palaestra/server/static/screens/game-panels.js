// The parts of the game screen drawn from a game's view alone (no state, no requests): the players
// panel, whose turn, the result banner, and the game as text. screens/game.js puts them together.

import { t, playerName } from "/static/i18n.js";
import { el } from "/static/dom.js";
import { plainHelp } from "/static/api.js";
import { seatColour } from "/static/state.js";
import { resultText, endReason, moveLine, outcomeFor, seatName, isDefaultAiName, formatScore, personName, colourName, invitedNames } from "/static/ui.js";
import { clockBadge, controlText, timeoutsTag } from "/static/clock.js";
import { profileLink } from "/static/member.js";

// the human seats an invitation still waits for (nobody plays before they join: finding 14)
export function unjoinedSeats(view) {
  return view.status === "active" ? view.seats.filter((s) => s.kind === "human" && !s.joined) : [];
}

// one row per seat: colour, name, AI level, "you", "invited", team, clock, score
export function playerRows(view, { mySeats, teams, gt }) {
  return view.seats.map((s, i) => el("li", { class: i === view.current_player ? "to-move" : "", "data-seat": i },
    el("span", { class: "swatch", style: `background:${seatColour(i)}` }),
    el("span", {}, colourName(s), s.member ? el("span", { class: "small" }, " ", profileLink(s.member, { class: "member" }))
      : seatName(s) && !isDefaultAiName(s) ? el("span", { class: "muted small", text: ` ${seatName(s)}` }) : null,
      s.kind === "ai" ? el("span", { class: "tag", text: t("AI: {level}", { level: t(s.level) }) }) : null,
      mySeats.includes(i) ? el("span", { class: "tag", text: t("you") }) : null,
      s.kind === "human" && !s.joined ? el("span", { class: "tag", text: t("invited") }) : null,
      teams ? el("span", { class: "tag team", "data-team": teams[i], text: gt(teams[i]) }) : null),
    timeoutsTag(view, i),
    clockBadge(view, i),
    el("span", { class: "score", text: formatScore(view.scores[i]) })));
}

// whose turn it is, in words
export function statusText(view, { myTurn, unjoined, autoplay }) {
  if (view.status === "finished") return t("Game over");
  if (view.status === "abandoned") return t("Abandoned: nobody moved for a long time");
  if (unjoined.length) return t("Waiting for {names} to join", { names: invitedNames(unjoined) });
  if (view.current_player === -1) return t("Drawing…");
  if (autoplay) return autoplay;
  // the player's name (finding 8: "player 1 (S)"): the name chosen, else the colour
  const seat = view.seats[view.current_player];
  const name = seat ? personName(seat) : playerName(view.to_move);
  if (myTurn) return t("Your turn ({name})", { name });
  return seat && seat.kind === "ai" ? t("{name} (AI) is thinking…", { name: colourName(seat) }) : t("Waiting for {name}", { name });
}

// the banner over the board: who won and why (finding 2), or that nobody can win outright any more
export function resultBanner(view, { id, mySeats, teams, gameModule, gt }) {
  if (view.status === "finished" && view.result) {
    const outcome = outcomeFor(view.result, mySeats, view.seats.length);
    return el("div", { class: outcome ? `result ${outcome}` : "result", id: "result-banner", "data-outcome": outcome || "" },
      el("div", { id: "result-winner", text: resultText(view.result, view.seats, Boolean(teams)), title: plainHelp(view.result.text), "data-engine-text": view.result.text }),
      el("div", { id: "result-reason", text: endReason(view, gameModule, gt) || "" }),
      el("div", { class: "small", text: t("Scores: {list}", { list: view.seats.map((s, i) => `${personName(s)} ${formatScore(view.result.scores[i])}`).join(", ") }) }),
      el("div", { class: "small" }, el("a", { href: `#/replay/${id}` }, t("Replay this game")), " · ", el("a", { href: "#/" }, t("New game"))));
  }
  if (view.status === "active" && view.dead_position) {
    return el("div", { class: "result", id: "dead-notice" },
      el("div", { text: t("Nobody can win outright any more.") }),
      el("div", { class: "small", text: t("Play goes on to the move limit (move {ply} of {max}); then the scores decide. A player may resign to end it now.", { ply: view.ply, max: view.max_plies }) }));
  }
  return null;
}

// the game as text for people (finding 9): title, players, clock, every move in words with its
// notation, the result with its reason, the scores
export function gameAsText(view, { describe, gameModule, gt }) {
  const names = view.seats.map((seat) => colourName(seat) + (seatName(seat) ? ` (${seatName(seat)})` : ""));
  const lines = [`${view.title} #${view.id}`, t("Players: {list}", { list: names.join(", ") })];
  if (view.clock) lines.push(t("Clock: {control}", { control: controlText(view.clock.control) }));
  lines.push("");
  view.moves.forEach((mv, i) => {
    const line = moveLine(mv, view.seats, describe);
    lines.push(`${i + 1}. ${line}${line.includes(mv.move) ? "" : ` [${mv.move}]`}`);
  });
  if (view.result) {
    const reason = endReason(view, gameModule, gt);
    const together = Boolean(gameModule && gameModule.teamsOf && gameModule.teamsOf(view));
    lines.push("", `${resultText(view.result, view.seats, together)}${reason ? ` (${reason})` : ""}`);
    lines.push(t("Scores: {list}", { list: view.seats.map((seat, i) => `${personName(seat)} ${formatScore(view.result.scores[i])}`).join(", ") }));
  }
  return lines.join("\n") + "\n";
}

// a text offered as a download with a file name
export function download(text, fileName) {
  const link = el("a", { href: URL.createObjectURL(new Blob([text], { type: "text/plain;charset=utf-8" })), download: fileName });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
}
