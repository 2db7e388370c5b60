// The new-game form of the home screen: the game, its options (in words for players), an optional
// clock, and a choice per seat (me / a friend by link / an AI level).

import { t, gameT, playerName } from "/static/i18n.js";
import { el } from "/static/dom.js";
import { api, plainHelp } from "/static/api.js";
import { myName, setMyName, rememberGame } from "/static/state.js";
import { toast } from "/static/ui.js";
import { rendererFor } from "/static/boards.js";
import { clockFields } from "/static/clock.js";
import { ratedField } from "/static/rated.js";

// each game option in words for players (finding 9): the label and explanation the game declares
// (GameInfo.web.option_texts, in its own catalogue); else its name and the engine's help, without
// ruling IDs
function optionLabel(o, gt) {
  if (o.label) return gt(o.label);
  const name = o.name.replace(/_/g, " ");
  return name[0].toUpperCase() + name.slice(1);
}
function optionHelp(o, gt) {
  return o.explain ? gt(o.explain) : plainHelp(o.help);
}

export function buildNewGameForm(card, m) {
  const form = el("form", { id: "new-game-form" });
  const chooser = gameChooser(m, () => drawSeats());
  const { gameSelect, optionsBox, info } = chooser;
  const optionInputs = chooser.inputs;
  const nameInput = el("input", { name: "name", placeholder: t("your name"), id: "your-name", value: myName(), maxlength: 40 });
  const seatsBox = el("div", { id: "seats" });
  const clock = clockFields(m.time_controls);  // issue 21: an optional clock
  // hints in a game with a friend: off unless the creator allows them (finding 6); against the AI
  // and in hot seat they are always on, so the switch shows only when a friend is invited
  const hintsInput = el("input", { type: "checkbox", id: "allow-hints", name: "hints" });
  const hintsBox = el("div", { class: "field", id: "hints-field", hidden: true },
    el("label", { for: "allow-hints", text: t("Allow hints") }), hintsInput,
    el("span", { class: "muted small", text: t("every player may ask the AI for the best moves (against the AI they always may)") }));
  // issue 29: listed in the lobby for spectators; off by default, always on for a rated game
  const publicInput = el("input", { type: "checkbox", id: "public-game", name: "public" });
  const publicBox = el("div", { class: "field", id: "public-field" },
    el("label", { for: "public-game", text: t("List this game for spectators") }), publicInput,
    el("span", { class: "muted small", text: t("anyone may watch it from the lobby (rated games always are listed)") }));
  form.append(
    el("div", { class: "field" }, el("label", { for: "game-select", text: t("Game") }), gameSelect),
    el("div", { class: "field" }, el("label", { for: "your-name", text: t("Your name") }), nameInput),
    optionsBox,
    clock.box,
    el("h3", { text: t("Seats") }),
    seatsBox,
    hintsBox,
    publicBox,
    el("div", { class: "field" }, el("button", { type: "submit", id: "start" }, t("Start game"))));
  card.append(form);
  const rated = ratedField(form, clock.box, seatsBox);  // issue 28: members only, after the clock
  if (rated.box) clock.box.after(rated.box);
  const ratedInput = form.querySelector("#rated");
  if (ratedInput) ratedInput.addEventListener("change", () => {
    if (ratedInput.checked) publicInput.checked = true;
    publicInput.disabled = ratedInput.checked;
  });

  function seatCount() {
    const g = info();
    const p = g.players_option ? optionInputs[g.players_option] : null;
    const count = p ? Number(p.value) : g.seatings[0].players;
    return g.seatings.find((s) => s.players === count) || g.seatings[0];
  }

  function drawSeats() {
    const seating = seatCount();
    const { names, teams } = chooser.adapted(seating.names);
    const previous = [...seatsBox.querySelectorAll("select")].map((s) => s.value);
    seatsBox.replaceChildren();
    names.forEach((name, i) => {
      const select = el("select", { name: `seat${i}`, "data-seat": i },
        el("option", { value: "me", text: t("me") }),
        el("option", { value: "friend", text: t("a friend (link)") }),
        m.ai_levels.map((lv) => el("option", { value: `ai:${lv}`, text: t("AI: {level}", { level: t(lv) }) })));
      if (i > 0) {
        const preferred = ["casual", "beginner", "random"].find((lv) => m.ai_levels.includes(lv));
        select.value = preferred ? `ai:${preferred}` : "friend";
      }
      if (previous.length === names.length && previous[i]) select.value = previous[i];
      seatsBox.append(el("div", { class: "seat-row", "data-seat-name": name },
        el("label", { class: "who", for: `seat-select-${i}` }, playerName(name),
          teams ? el("span", { class: "tag team", "data-team": teams[i], text: chooser.texts()(teams[i]) }) : null), select));
      select.id = `seat-select-${i}`;
      select.addEventListener("change", showHints);
    });
    showHints();
  }
  function showHints() {
    hintsBox.hidden = ![...seatsBox.querySelectorAll("select")].some((s) => s.value === "friend");
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    await chooser.drawn();
    const g = info();
    setMyName(nameInput.value.trim());
    const options = chooser.options();
    const choices = [...seatsBox.querySelectorAll("select")].map((s) => s.value);
    const seats = choices.map((c) => {
      if (c === "me") return { kind: "human", joined: true, name: nameInput.value.trim() || null };
      if (c === "friend") return { kind: "human" };
      return { kind: "ai", level: c.slice(3) };
    });
    try {
      const body = { game: g.name, options, seats };
      if (!hintsBox.hidden && hintsInput.checked) body.hints = true;
      const timeControl = clock.value();
      if (timeControl) body.time_control = timeControl;
      if (rated.value()) body.rated = true;
      if (publicInput.checked || body.rated) body.public = true;
      const created = await api("/api/games", { method: "POST", body });
      const tokens = {};
      const invites = {};
      created.seats.forEach((s, i) => {
        if (s.token) tokens[i] = s.token;
        else if (s.invite) invites[i] = location.origin + location.pathname + s.invite.replace(/^\//, "");
      });
      rememberGame(created.id, { tokens, invites, creator: created.creator_token, game: g.name });
      location.hash = `#/game/${created.id}`;
    } catch (err) {
      toast(err.message, true, err.detail);
    }
  });
}

// The game and its options (issue 29: shared by the new-game form and the challenge form of a
// profile, static/challenges.js): a select of the games, their options drawn for the game chosen
// (after its renderer and texts are loaded: ``drawn()`` waits for that), ``options()`` what
// differs from the defaults. ``onChange`` runs whenever an option changes or the game is drawn.
// ``players``: a fixed number of players (a challenge's 2): the players option is not offered.
export function gameChooser(m, onChange = () => {}, players = null) {
  const gameSelect = el("select", { name: "game", id: "game-select" },
    m.games.map((g) => el("option", { value: g.name, text: g.title })));  // in the games' menu order
  const optionsBox = el("div", { id: "options" });
  const optionInputs = {};
  const info = () => m.games.find((g) => g.name === gameSelect.value);
  let formModule = null;
  let formT = t; // the chosen game's texts

  async function drawOptions() {
    const g = info();
    delete optionsBox.dataset.game;  // set again once drawn: choosing the same game again redraws it
    const module = await rendererFor(g.name);
    const texts = await gameT(g);
    if (info() !== g) return;  // another game was chosen meanwhile: its draw sets the form's rules
    formModule = module;
    formT = texts;
    optionsBox.replaceChildren();
    for (const key of Object.keys(optionInputs)) delete optionInputs[key];
    // the expert settings (a rules edition, who begins, limits) under "More options" (finding 4),
    // as the game's module lists them; options whose values are seats or editions by name
    const expert = new Set((module && module.EXPERT_OPTIONS) || []);
    const more = el("details", { class: "more-options", id: "more-options" }, el("summary", { text: t("More options") }));
    const largest = g.seatings.reduce((a, b) => (b.players > a.players ? b : a), g.seatings[0]);
    const seatNames = largest.names.map((n) => playerName(n));
    for (const o of g.options) {
      if (o.kind === "dict") continue;  // a document option (a board document): through the API only
      if (players !== null && o.name === g.players_option) continue;  // fixed: the server sets it
      let input;
      const named = module && module.optionChoices ? module.optionChoices(o, seatNames, formT) : null;
      const id = `opt-${o.name}`;
      const smallRange = o.kind === "int" && o.minimum !== null && o.minimum !== undefined
        && o.maximum !== null && o.maximum !== undefined && o.maximum - o.minimum <= 8;
      if (named) {
        input = el("select", { id: `opt-${o.name}`, name: o.name },
          (o.default === null && !named.some(([v]) => v === "") ? [el("option", { value: "", text: t("(random)") })] : []),
          named.map(([value, text]) => el("option", { value, text })));
        input.value = o.default === null || o.default === undefined ? "" : String(o.default);
      } else if (o.kind === "bool") {
        input = el("input", { type: "checkbox", id, name: o.name });
        input.checked = Boolean(o.default);
      } else if (smallRange && o.name === g.players_option) {  // a list, as for games with fixed choices (finding 10)
        const counts = [];
        for (let n = o.minimum; n <= o.maximum; n++) counts.push(n);
        input = el("select", { id, name: o.name }, counts.map((n) => el("option", { value: String(n), text: String(n) })));
        input.value = String(o.default ?? g.seatings[0].players);
      } else if (o.choices) {
        input = el("select", { id, name: o.name },
          (o.default === null ? [el("option", { value: "", text: t("(random)") })] : []),
          o.choices.map((c) => el("option", { value: String(c), text: String(c) })));
        input.value = o.default === null ? "" : String(o.default);
      } else if (o.kind === "int") {
        input = el("input", { type: "number", id, name: o.name, min: o.minimum, max: o.maximum, value: o.default ?? "" });
      } else {
        input = el("input", { type: "text", id, name: o.name, value: o.default ?? "", placeholder: "(default)" });
      }
      optionInputs[o.name] = input;
      (expert.has(o.name) ? more : optionsBox).append(el("div", { class: "field" },
        el("label", { for: id, text: optionLabel(o, formT) }), input,
        el("span", { class: "muted small", id: `${id}-help`, text: optionHelp(o, formT) }),
        el("span", { class: "note small", "data-note": o.name, role: "status" })));
      input.addEventListener("change", onChange);
    }
    if (more.children.length > 1) optionsBox.append(more);
    onChange();
    optionsBox.dataset.game = g.name;  // drawn for this game (what a test waits for)
  }


  // the form is drawn for the chosen game after its renderer and texts are loaded: a submit waits
  // for that, so it never reads the options of the game chosen before
  let drawn = drawOptions();
  gameSelect.addEventListener("change", () => { drawn = drawOptions(); });

  // what the game's own module says about the form (formRules: an option that needs another one,
  // seats named or reordered by a variant) for these seat names: the options it rules out are
  // disabled, with why; asked again whenever an option changes (findings 1 and 10)
  function adapted(names) {
    const rules = formModule && formModule.formRules ? formModule.formRules(values(), names) : {};
    for (const [name, input] of Object.entries(optionInputs)) {
      const why = rules.disabled && rules.disabled[name];
      input.disabled = Boolean(why);
      if (why && input.type === "checkbox") input.checked = false;
      const note = optionsBox.querySelector(`[data-note="${name}"]`);
      if (note) note.textContent = why ? formT(why) : "";
    }
    return { names: rules.names || names, teams: rules.teams || null };
  }

  function values() {
    const found = {};
    for (const [name, input] of Object.entries(optionInputs)) found[name] = input.type === "checkbox" ? input.checked : input.value;
    return found;
  }
  function options() {
    const chosen = {};
    for (const o of info().options) {
      const input = optionInputs[o.name];
      if (input === undefined) continue;
      if (o.kind === "bool") { if (input.checked !== Boolean(o.default)) chosen[o.name] = input.checked; continue; }
      if (input.value === "") continue;
      const value = o.kind === "int" ? Number(input.value) : input.value;
      if (value !== o.default) chosen[o.name] = value;
    }
    return chosen;
  }
  return {
    gameSelect, optionsBox, info, inputs: optionInputs, values, options, adapted,
    drawn: () => drawn, module: () => formModule, texts: () => formT,
  };
}
