// The tab title's "(N) " prefix: the member's unread notifications (issue 29). Whatever else sets
// document.title (a screen, a "your turn" mark) sets the rest; the prefix is put back in front.

let unread = 0;
let watching = false;
// anywhere in the title: turnsignal.js puts its "Your turn · " in front of whatever it finds
const PREFIX = /\(\d+\) /g;

function apply() {
  const base = document.title.replace(PREFIX, "");
  const wanted = unread > 0 ? `(${unread}) ${base}` : base;
  if (document.title !== wanted) document.title = wanted;
}

export function setUnreadTitle(count) {
  unread = Math.max(0, Number(count) || 0);
  apply();
  if (!watching) {
    watching = true;
    const title = document.querySelector("title");
    if (title) new MutationObserver(apply).observe(title, { childList: true, characterData: true, subtree: true });
  }
}
