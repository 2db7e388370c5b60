// Clocks of online games (issue 21): the creation form's time control and each seat's clock.
//
// The server keeps the clocks (docs/web.md, "Clocks"). A view carries each seat's time `left` at
// the server's `now`; the page counts the running clock down from that with its own elapsed time
// (performance.now(), since the view arrived), never with its own wall clock, so a browser whose
// clock is wrong still shows the server's time. The server decides when a flag falls and says so
// on the websocket; until then a clock that reaches zero here shows 0:00.

import { t } from "/static/i18n.js";
import { personName } from "/static/ui.js";
import { el } from "/static/dom.js";

// --- the creation form ------------------------------------------------------------------------------
// fields for /api/meta's time_controls; value() is the request's time_control (or null)
export function clockFields(timeControls) {
  const kinds = Object.fromEntries(((timeControls && timeControls.kinds) || []).map((k) => [k.type, k]));
  const kind = el("select", { id: "clock-kind", name: "clock" },
    el("option", { value: "", text: t("No clock") }),
    kinds.per_move ? el("option", { value: "per_move", text: t("Time per move") }) : null,
    kinds.fischer ? el("option", { value: "fischer", text: t("Total time plus increment") }) : null,
    kinds.correspondence ? el("option", { value: "correspondence", text: t("Correspondence (days per move)") }) : null);
  const bounds = (k, f) => (kinds[k] && kinds[k][f]) || { min: 0, max: 0 };
  const seconds = el("input", { type: "number", id: "clock-seconds", min: bounds("per_move", "seconds").min, max: bounds("per_move", "seconds").max, value: 30 });
  const minutes = el("input", { type: "number", id: "clock-minutes", step: 0.5, min: bounds("fischer", "seconds").min / 60, max: bounds("fischer", "seconds").max / 60, value: 10 });
  const increment = el("input", { type: "number", id: "clock-increment", min: bounds("fischer", "increment").min, max: bounds("fischer", "increment").max, value: 5 });
  // issue 29: correspondence, 1 to 14 days a turn (the days /api/meta allows)
  const allowedDays = (kinds.correspondence && kinds.correspondence.days) || [];
  const days = el("select", { id: "clock-days" },
    allowedDays.map((d) => el("option", { value: String(d), text: daysText(d) })));
  if (allowedDays.includes(3)) days.value = "3";
  const timeout = el("select", { id: "clock-timeout" },
    el("option", { value: "lose", text: t("the player loses") }),
    el("option", { value: "ai", text: t("the AI plays the move") }));
  const field = (id, label, input, help) => el("div", { class: "field", "data-clock-field": id },
    el("label", { for: input.id, text: label }), input, help ? el("span", { class: "muted small", text: help }) : null);
  const perMoveBox = field("per_move", t("Seconds per move"), seconds, t("each turn has this time; what is left is not carried over"));
  const minutesBox = field("fischer", t("Minutes per player"), minutes, null);
  const incrementBox = field("fischer", t("Seconds added after each move"), increment, null);
  const daysBox = field("correspondence", t("Days per move"), days, t("for games over days: each turn has this time, whether anyone is online or not"));
  const timeoutBox = field("timeout", t("When time runs out"), timeout, null);
  const box = el("div", { id: "clock-options" },
    field("kind", t("Clock"), kind, t("the server keeps the time; only people's clocks run")),
    perMoveBox, minutesBox, incrementBox, daysBox, timeoutBox);
  function show() {
    perMoveBox.hidden = kind.value !== "per_move";
    minutesBox.hidden = incrementBox.hidden = kind.value !== "fischer";
    daysBox.hidden = kind.value !== "correspondence";
    timeoutBox.hidden = kind.value === "";
  }
  kind.addEventListener("change", show);
  show();
  return {
    box,
    value() {
      if (kind.value === "per_move") return { type: "per_move", seconds: Number(seconds.value), on_timeout: timeout.value };
      if (kind.value === "fischer") {
        return { type: "fischer", seconds: Math.round(Number(minutes.value) * 60), increment: Number(increment.value), on_timeout: timeout.value };
      }
      if (kind.value === "correspondence") return { type: "correspondence", days: Number(days.value), on_timeout: timeout.value };
      return null;
    },
  };
}

// --- a game's clocks ------------------------------------------------------------------------------------
const DAY = 24 * 3600;

// "1:05", "0:07.3" under ten seconds, "1:02:03" from an hour on, "2 d 5 h" from a day on
// (correspondence, issue 29: whole days and hours left, the minutes left out)
export function formatClock(seconds) {
  const s = Math.max(0, seconds);
  if (s < 10) return `0:0${s.toFixed(1)}`;
  if (s >= DAY) return t("{d} d {h} h", { d: Math.floor(s / DAY), h: Math.floor((s % DAY) / 3600) });
  const whole = Math.ceil(s - 1e-9);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const rest = String(whole % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${rest}` : `${m}:${rest}`;
}

// low time: the last quarter of a turn (or of the total), at most 30 seconds, at least 3;
// correspondence: the last quarter of the turn, at most 12 hours
function lowAt(control) {
  if (control.type === "correspondence") return Math.min(12 * 3600, control.seconds / 4);
  return Math.max(3, Math.min(30, control.seconds / 4));
}

// "1 day per move", "3 days per move"
function daysText(days) { return days === 1 ? t("1 day per move") : t("{n} days per move", { n: days }); }

// a seat's clock for the players panel (null: the game has no clock); ticks while it runs
export function clockBadge(view, seat) {
  const clock = view.clock;
  if (!clock) return null;
  const mine = clock.seats[seat];
  const badge = el("span", { class: "clock", "data-seat": seat, role: "timer", "aria-live": "off" });
  badge.dataset.left = String(mine.left);
  badge.dataset.at = String(performance.now());
  if (mine.running) badge.classList.add("running");
  if (clock.flagged === seat) badge.classList.add("flagged");
  if (clock.autoplay === seat) badge.classList.add("autoplay");
  paint(badge, clock.control);
  badge.title = clock.flagged === seat ? t("out of time")
    : clock.autoplay === seat ? t("out of time: the AI plays this turn") : t("time left");
  return badge;
}

function paint(badge, control) {
  let left = Number(badge.dataset.left);
  if (badge.classList.contains("running")) left -= (performance.now() - Number(badge.dataset.at)) / 1000;
  left = Math.max(0, left);
  const text = badge.classList.contains("flagged") ? `${formatClock(0)} · ${t("out of time")}` : formatClock(left);
  if (badge.textContent !== text) badge.textContent = text;
  badge.classList.toggle("low", left <= lowAt(control) && !badge.classList.contains("autoplay"));
}

// count the running clocks of a page down until stop() is called
export function tickClocks(root, controlOf) {
  const timer = setInterval(() => {
    const control = controlOf();
    if (!control) return;
    for (const badge of root.querySelectorAll(".clock.running")) paint(badge, control);
  }, 100);
  return () => clearInterval(timer);
}

// how often the AI played a turn for a seat whose time ran out (null: never, or no clock)
export function timeoutsTag(view, seat) {
  const n = view.clock ? view.clock.seats[seat].timeouts : 0;
  if (!n) return null;
  return el("span", { class: "tag timeouts", "data-seat": seat, title: t("the AI played a turn for this player whose time ran out"), text: t("AI played {n}×", { n }) });
}

// the status line while the AI plays a turn whose time ran out (null: it does not)
export function autoplayText(view) {
  const seat = view.clock && view.clock.autoplay;
  if (seat === null || seat === undefined || view.status !== "active") return null;
  return t("{name} ran out of time: the AI plays this turn", { name: personName(view.seats[seat]) });
}

// a control's time: "30 s", "10 min", "1:30 min"
function duration(seconds) {
  if (seconds < 60) return `${seconds} s`;
  return seconds % 60 ? `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")} min` : `${seconds / 60} min`;
}

// the time control in words, for the game's page
export function controlText(control) {
  const what = control.type === "correspondence" ? daysText(Number(control.days))
    : control.type === "per_move" ? t("{time} per move", { time: duration(control.seconds) })
      : t("{time} plus {increment} s a move", { time: duration(control.seconds), increment: control.increment });
  return control.on_timeout === "ai" ? `${what} · ${t("out of time, the AI plays the move")}` : what;
}
