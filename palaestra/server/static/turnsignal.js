// The tab says "your turn" (issue 30): while a game page is open and it is this browser's turn, the
// tab's title starts with "Your turn · " and the favicon carries a green dot; both go back when it
// is not (another screen, the other player's turn, the game over). Only this module's own prefix
// is added and taken off, so other parts of the title (an unread count, say) stay as they are.

import { t } from "/static/i18n.js";

const ICON = "/static/favicon.svg";
const ICON_TURN = "/static/favicon-turn.svg";
let prefix = null;  // the prefix this module put on the title (in the language of that moment)

function icon() {
  let link = document.querySelector('link[rel="icon"]');
  if (!link) {
    link = document.createElement("link");
    link.rel = "icon";
    link.type = "image/svg+xml";
    document.head.append(link);
  }
  return link;
}

// turnSignal(true): the tab shows "your turn"; turnSignal(false): it does not
export function turnSignal(mine) {
  let title = document.title;
  if (prefix && title.includes(prefix)) title = title.replace(prefix, "");
  prefix = mine ? `${t("Your turn")} · ` : null;
  document.title = prefix ? prefix + title : title;
  const link = icon();
  const href = mine ? ICON_TURN : ICON;
  if (link.getAttribute("href") !== href) link.setAttribute("href", href);
  document.documentElement.dataset.turn = mine ? "mine" : "";
}
