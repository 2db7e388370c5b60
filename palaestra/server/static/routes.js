// The screens of the UI and their addresses in the URL fragment (#/PATH: tokens and invitation codes
// never reach server logs). Adding a screen is one line here: its path (":name" is a part of the
// address, ":name?" an optional one; the first path that matches wins) and its module, loaded when
// first shown, whose default export draws it into the page:
//
//   export default async function show(params, screen) { screen.root.replaceChildren(...); screen.onLeave(() => ...); }
//
// params: the path's parts by name (strings); screen.root: the <main> element; screen.onLeave(fn):
// fn runs when the page moves on to another screen (close a websocket, stop a timer).
export const ROUTES = [
  { path: "game/:id", screen: () => import("/static/screens/game.js") },           // play or watch a game, live
  { path: "join/:id/:code", screen: () => import("/static/screens/join.js") },     // take an invitation's seat
  { path: "replay/:id/:ply?", screen: () => import("/static/screens/replay.js") }, // step through a game
  { path: "signup", screen: () => import("/static/screens/signup.js") },            // a new account; claim this browser's games
  { path: "signin", screen: () => import("/static/screens/signin.js") },            // password or passkey
  { path: "account", screen: () => import("/static/screens/settings.js") },         // password, passkeys, data, deletion
  { path: "@/:name", screen: () => import("/static/screens/profile.js") },          // a profile (also at the path /@/NAME)
  { path: "leaderboard/:pool?", screen: () => import("/static/screens/leaderboard.js") }, // (also at /leaderboard/POOL)
  { path: "learn/:game?", screen: () => import("/static/screens/learn.js") },       // "Learn to play" (also at /learn/GAME)
  { path: "", screen: () => import("/static/screens/home.js") },                   // anything else: home
];
