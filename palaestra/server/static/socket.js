// The websocket of a game: its pushes (every change of the game, with a higher version), reconnects
// with a growing pause, a ping every 25 s, and the header's dot that shows the connection.

const connEl = document.getElementById("conn");

// live(id, onState, hello): onState(view) for every state the server pushes; hello() gives the
// messages sent on every connection (the seats this page plays: {"type": "seat", "token"}, so the
// server knows the player is there, issue 29); returns close()
export function live(id, onState, hello = () => []) {
  let socket = null;
  let closed = false;
  let retry = 500;
  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}/api/games/${id}/ws`);
    socket.addEventListener("open", () => {
      if (!closed) connEl.className = "conn on";
      retry = 500;
      for (const message of hello()) socket.send(JSON.stringify(message));
    });
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "state") onState(message.game);
    });
    socket.addEventListener("close", () => {
      if (closed) return;  // this page was left: the dot belongs to the next one (finding 12)
      connEl.className = "conn off";
      retry = Math.min(retry * 2, 10000);
      setTimeout(() => { if (!closed) connect(); }, retry);
    });
  }
  connect();
  const ping = setInterval(() => { if (socket && socket.readyState === 1) socket.send('{"type":"ping"}'); }, 25000);
  return () => { closed = true; clearInterval(ping); if (socket) socket.close(); };
}
