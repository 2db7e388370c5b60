// "Learn to play" (issue 30; docs/web.md): /learn lists the games' courses, /learn/GAME is one course:
// its lessons, each a small position on the game's own board with a task. Every move goes to the
// server (POST /api/learn/GAME/LESSON with the moves so far), which plays them on the engine and
// answers the position reached and the outcome: playing on, done, a wrong try explained, or failed.
// The course ends with a game against the AI level it names. The lessons done are kept in this
// browser (localStorage) and, for a signed-in member, in the account (GET/PUT /api/account/lessons).

import { t, language } from "/static/i18n.js";
import { el } from "/static/dom.js";
import { api, meta, plainHelp, capitalise } from "/static/api.js";
import { makeBoard } from "/static/boards.js";
import { rememberGame, myName } from "/static/state.js";
import { me } from "/static/member.js";
import { toast } from "/static/ui.js";

// --- progress: {GAME: [LESSON, ...]} here and in the account ---------------------------------------
const STORE_KEY = "palaestra.lessons";
function localProgress() {
  try { return JSON.parse(localStorage.getItem(STORE_KEY) || "{}") || {}; } catch { return {}; }
}
function saveLocal(progress) { localStorage.setItem(STORE_KEY, JSON.stringify(progress)); }
function union(a, b) {
  const out = {};
  for (const game of new Set([...Object.keys(a), ...Object.keys(b)])) {
    out[game] = [...new Set([...(a[game] || []), ...(b[game] || [])])];
  }
  return out;
}
const same = (a, b) => JSON.stringify(Object.keys(a).sort().map((g) => [g, [...a[g]].sort()]))
  === JSON.stringify(Object.keys(b).sort().map((g) => [g, [...b[g]].sort()]));

// this browser's progress joined with the account's (both kept up to date)
async function loadProgress() {
  let progress = localProgress();
  if (!me()) return progress;
  try {
    const stored = (await api("/api/account/lessons")).progress;
    const joined = union(progress, stored);
    saveLocal(joined);
    if (!same(joined, stored)) await api("/api/account/lessons", { method: "PUT", body: { progress: joined } });
    progress = joined;
  } catch (err) { console.error("lessons", err); }
  return progress;
}
async function markDone(game, lesson) {
  const progress = union(localProgress(), { [game]: [lesson] });
  saveLocal(progress);
  if (!me()) return;
  try {
    const stored = (await api("/api/account/lessons")).progress;
    await api("/api/account/lessons", { method: "PUT", body: { progress: union(progress, stored) } });
  } catch (err) { console.error("lessons", err); }
}

export default async function learnPage({ game }, screen) {
  if (!game) return courseList(screen);
  return coursePage(game, screen);
}

// /learn: every game with a course, with the lessons done
async function courseList({ root }) {
  const m = await meta();
  const progress = await loadProgress();
  const items = m.games.filter((g) => g.learn).map((g) => el("li", { "data-game": g.name },
    el("a", { href: `/learn/${g.name}` }, g.title),
    el("span", { class: "muted small", text: ` ${t("{n} lessons done", { n: (progress[g.name] || []).length })}` })));
  root.replaceChildren(el("section", { class: "card learn-list" },
    el("h1", { class: "page-title", text: t("Learn to play") }),
    el("p", { text: t("Short lessons on the real board, one idea of the rules each, then a first game against the AI.") }),
    el("ul", { class: "list", id: "courses" }, ...items)));
}

async function coursePage(game, { root, onLeave }) {
  const course = await api(`/api/learn/${encodeURIComponent(game)}?lang=${language}`);
  let progress = await loadProgress();
  const done = () => new Set(progress[game] || []);
  const firstOpen = course.lessons.findIndex((l) => !done().has(l.id));

  const nav = el("ol", { class: "lessons", id: "lesson-list" });
  const title = el("h2", { class: "h3", id: "lesson-title" });
  const intro = el("p", { id: "lesson-intro" });
  const task = el("p", { class: "task", id: "lesson-task" });
  const feedback = el("div", { class: "feedback", id: "lesson-feedback", role: "status", "aria-live": "polite" });
  const retry = el("button", { type: "button", class: "secondary", id: "lesson-retry" }, t("Start again"));
  const next = el("button", { type: "button", id: "lesson-next", hidden: true }, t("Next lesson"));
  const boardBox = el("div", { class: "board-wrap", id: "board" });
  const lessonCard = el("section", { class: "card lesson", id: "lesson" }, title, intro, task, feedback, el("div", { class: "field" }, retry, next));
  const finalCard = el("section", { class: "card lesson", id: "lesson-final", hidden: true },
    el("h2", { class: "h3", text: course.final.title }), el("p", { text: course.final.text }),
    el("button", { type: "button", id: "learn-play" }, t("Play against the AI ({level})", { level: t(course.level) })));
  root.replaceChildren(el("h1", { class: "screen-title" }, t("Learn to play {game}", { game: course.title }), " ",
    el("a", { class: "small rules-link", id: "learn-rules", href: `/rules/${game}?lang=${language}` }, t("Rules"))),
  el("div", { class: "game learn", "data-game": game }, el("div", {}, boardBox),
    el("aside", { class: "side" }, lessonCard, finalCard, el("div", { class: "card" }, el("h2", { class: "h3", text: t("Lessons") }), nav))));

  const board = await makeBoard(game, boardBox);
  let index = firstOpen >= 0 ? firstOpen : 0;
  let moves = [];
  let answer = null;
  let pending = false;
  let answers = 0;  // answers drawn (boardBox.dataset.answers: tests wait for the next one)

  function drawNav() {
    nav.replaceChildren(...course.lessons.map((l, i) => el("li", { "data-lesson": l.id, class: (i === index ? "current " : "") + (done().has(l.id) ? "done" : "") },
      el("a", { href: "#", "aria-current": i === index ? "step" : null, onclick: (event) => { event.preventDefault(); open(i); } },
        (done().has(l.id) ? "✓ " : "") + l.title))),
    el("li", { "data-lesson": "final" }, el("a", { href: "#", onclick: (event) => { event.preventDefault(); showFinal(); } }, course.final.title)));
  }

  function drawBoard() {
    const playing = answer && (answer.outcome === "playing" || answer.outcome === "refused");
    const view = answer.view;
    boardBox.dataset.outcome = answer.outcome;
    board.update(view, { interactive: Boolean(playing) && !pending, legal: playing ? view.legal : [], play, refuse, mySeats: [view.current_player], replay: false });
  }

  function say(kind, text, reason) {
    feedback.className = `feedback ${kind}`;
    feedback.dataset.kind = kind;
    const parts = [el("p", { text })];
    // the engine's own words (English only, without ruling IDs), under the lesson's
    if (reason && language === "en") parts.push(el("p", { class: "small muted", id: "lesson-reason", text: capitalise(plainHelp(reason)) }));
    feedback.replaceChildren(...parts);
  }

  async function send(tried) {
    const lesson = course.lessons[index];
    pending = true;
    let got;
    try {
      got = await api(`/api/learn/${game}/${lesson.id}?lang=${language}`, { method: "POST", body: { moves: tried } });
    } catch (err) {
      toast(err.message, true, err.detail);
      pending = false;
      boardBox.dataset.answers = String(++answers);
      return;
    }
    pending = false;
    if (course.lessons[index] !== lesson) return;  // another lesson was opened meanwhile
    answer = got;
    moves = answer.moves;
    boardBox.dataset.lesson = lesson.id;
    next.hidden = answer.outcome !== "done";
    if (answer.outcome === "done") {
      say("done", answer.explanation);
      await markDone(game, lesson.id);
      progress = localProgress();
      drawNav();
      next.focus();
    } else if (answer.outcome === "refused") {
      say("wrong", answer.explanation, answer.reason);
    } else if (answer.outcome === "failed") {
      say("wrong", `${t("Not quite.")} ${answer.explanation} ${t("Press “Start again” to try once more.")}`);
    } else if (tried.length) {
      say("ok", t("Good. Go on."));
    } else {
      feedback.replaceChildren();
      feedback.className = "feedback";
      feedback.dataset.kind = "";
    }
    drawBoard();
    boardBox.dataset.answers = String(++answers);
  }

  // a move of the board: its notation from the legal list, with the moves before it
  function play(action) {
    if (pending) return;
    const legal = answer.view.legal.find((l) => l.action === action);
    if (legal) send([...moves, legal.move]);
  }
  function refuse(move) { if (!pending) send([...moves, move]); }

  async function open(i) {
    index = i;
    moves = [];
    lessonCard.hidden = false;
    finalCard.hidden = true;
    boardBox.hidden = false;
    const lesson = course.lessons[i];
    lessonCard.dataset.lesson = lesson.id;
    title.textContent = `${i + 1}. ${lesson.title}`;
    intro.textContent = lesson.intro;
    task.textContent = lesson.task;
    next.hidden = true;
    drawNav();
    await send([]);
  }

  function showFinal() {
    index = course.lessons.length;
    lessonCard.hidden = true;
    finalCard.hidden = false;
    boardBox.hidden = true;
    drawNav();
  }

  retry.addEventListener("click", () => open(index));
  next.addEventListener("click", () => (index + 1 < course.lessons.length ? open(index + 1) : showFinal()));
  finalCard.querySelector("#learn-play").addEventListener("click", async () => {
    try {
      const seats = [{ kind: "human", joined: true, name: myName() || null }, { kind: "ai", level: course.level }];
      const created = await api("/api/games", { method: "POST", body: { game, options: course.final_options, seats } });
      const tokens = {};
      created.seats.forEach((s, i) => { if (s.token) tokens[i] = s.token; });
      rememberGame(created.id, { tokens, game });
      location.assign(`/#/game/${created.id}`);
    } catch (err) { toast(err.message, true, err.detail); }
  });
  onLeave(() => { if (board.destroy) board.destroy(); });
  await open(index);
}
