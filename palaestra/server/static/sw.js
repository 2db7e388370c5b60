// The service worker of Web Push (issue 29): shows each push the server sends (its title, text
// and page) and opens that page when the notification is clicked. It caches nothing.

self.addEventListener("push", (event) => {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch (err) { data = { title: "Palaestra", body: event.data ? event.data.text() : "" }; }
  event.waitUntil(self.registration.showNotification(data.title || "Palaestra", {
    body: data.body || "", tag: data.tag, data: { url: data.url || "/" }, icon: "/static/favicon.svg",
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin).href;
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
    for (const win of windows) if (win.url.startsWith(self.location.origin) && "focus" in win) return win.navigate(url).then((w) => (w || win).focus());
    return self.clients.openWindow(url);
  }));
});
