// sw.js: the site's service worker (issue 32, "Browser notifications"),
// served from the root so that its scope is the whole site. It caches
// nothing (every page needs the live server); it is there so that the site
// can be installed on a phone's home screen (manifest.webmanifest) and so
// that "your turn" notifications work where a page may not make them itself
// (Chrome on Android allows only ServiceWorkerRegistration.showNotification):
// badge.js asks it to show them, and a click on one opens (or focuses) the
// game.
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (e) => e.waitUntil(self.clients.claim()));
self.addEventListener('notificationclick', (e) => {
  e.notification.close();
  const url = new URL((e.notification.data && e.notification.data.url) || '/', self.location.origin).href;
  e.waitUntil(self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((list) => {
    for (const c of list) {
      if (new URL(c.url).origin === self.location.origin && 'focus' in c) {
        return c.focus().then((w) => (w && 'navigate' in w ? w.navigate(url) : w));
      }
    }
    return self.clients.openWindow(url);
  }));
});
