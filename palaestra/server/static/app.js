// Palaestra browser UI: ES modules, no build step (docs/web.md, "The browser UI").
//
//   app.js       this entry: the catalogue, the header's language choice, the router
//   routes.js    the screens and their addresses (#/...): one line per screen
//   router.js    shows the screen of the address; a screen's onLeave runs when it is left
//   screens/     one module per screen: home.js, game.js, join.js, replay.js; the accounts' signup.js,
//                signin.js, settings.js, profile.js, leaderboard.js (issue 28)
//   api.js       the API client (plain-worded refusals, the CSRF token), /api/meta
//   member.js    the signed-in member and the header's account links; webauthn.js passkeys
//   notify.js    the header's notifications (bell, list, live count); tabtitle.js the title's "(N)"
//   socket.js    a game's websocket and the connection dot
//   state.js     what this browser knows (tokens, invitations, name) and the page on screen
//   boards.js    a game's renderer (/games/NAME/web/board.js) and the keyboard support of boards
//   newgame.js   the new-game form; clock.js the clocks; ui.js toast and texts about games
//   dom.js, i18n.js  DOM helpers and translations, shared with the rules pages (rules.js)
//   theme.js, sounds.js, prefs.js  the colour theme, move sounds, and their switches in the header
//   turnsignal.js  the tab's title and icon say "your turn"; orientation.js turns the board

import { t, language, LANGUAGES, loadCatalogue, setLanguage } from "/static/i18n.js";
import { el } from "/static/dom.js";
import { meta } from "/static/api.js";
import { route, startRouter } from "/static/router.js";
import { loadMember, drawAccountNav } from "/static/member.js";
import "/static/theme.js";  // the colour theme, set before anything is drawn (issue 30)
import { drawPrefs } from "/static/prefs.js";
import { languageChanged } from "/static/notify.js";

const connEl = document.getElementById("conn");

// the header's language choice; the page is drawn again in the new language
function languagePicker() {
  const select = document.getElementById("lang");
  if (!select) return;
  select.replaceChildren(...Object.entries(LANGUAGES).map(([code, name]) => el("option", { value: code, text: name })));
  select.value = language;
  select.setAttribute("aria-label", t("Language"));
  connEl.title = t("live connection");
  select.addEventListener("change", async () => {
    await setLanguage(select.value);
    select.setAttribute("aria-label", t("Language"));
    connEl.title = t("live connection");
    drawAccountNav();
    drawPrefs();
    languageChanged();
    route();
  });
}

await loadCatalogue();
languagePicker();
drawPrefs();  // the theme and sound switches (issue 30)
await loadMember();  // signed in? (the header's links, the CSRF token)
startRouter();
// the header names the games there are (in menu order)
meta().then((m) => { document.getElementById("tagline").textContent = m.games.map((g) => g.title).join(" · "); }, () => {});
