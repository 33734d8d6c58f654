/* Ginmesa's service worker: shows web-push alerts (tables.alerts.push) and opens the table.
 * Served at /sw.js (tables/core/app_shell.py), so its scope is the whole site and the site installs
 * as an app; every page registers it (static/js/site.js).
 *
 * A push carries JSON: {kind, table, title, body, url, tag}. The tag is one per table, so a
 * newer alert of a table replaces the older one instead of piling up. Subscribing happens on
 * the profile page: GET /api/me/push/key, PushManager.subscribe, POST /api/me/push/subscriptions.
 */
"use strict";

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("push", (event) => {
  let alert = {};
  try {
    alert = event.data ? event.data.json() : {};
  } catch (error) {
    alert = { title: "Ginmesa", body: event.data ? event.data.text() : "" };
  }
  const title = alert.title || "Ginmesa";
  const options = {
    body: alert.body || "",
    tag: alert.tag || "ginmesa",
    renotify: true, // a replaced notification still tells the player something new happened
    data: { url: alert.url || "/" },
  };
  event.waitUntil(showUnlessLooking(alert, title, options));
});

/* No notification when the table is already open in a visible tab: the page shows the move. */
async function showUnlessLooking(alert, title, options) {
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const looking = windows.some(
    (client) => client.visibilityState === "visible" && alert.url && sameTable(client.url, alert.url),
  );
  if (!looking) {
    await self.registration.showNotification(title, options);
  }
}

function sameTable(clientUrl, alertUrl) {
  return new URL(clientUrl).pathname === new URL(alertUrl, self.location.origin).pathname;
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = (event.notification.data && event.notification.data.url) || "/";
  event.waitUntil(focusOrOpen(url));
});

async function focusOrOpen(url) {
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const open = windows.find((client) => sameTable(client.url, url));
  if (open) {
    return open.focus();
  }
  return self.clients.openWindow(url);
}

/* The browser rotated the subscription: subscribe again at once; the next page of the site
 * posts PushManager.getSubscription() to /api/me/push/subscriptions (it is idempotent), as a
 * service worker has no CSRF token to send it itself. */
self.addEventListener("pushsubscriptionchange", (event) => {
  event.waitUntil(resubscribe(event));
});

async function resubscribe(event) {
  if (event.newSubscription) {
    return;
  }
  const keyResponse = await fetch("/api/me/push/key", { credentials: "same-origin" });
  const { public_key: publicKey } = await keyResponse.json();
  if (publicKey) {
    await self.registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: urlBase64ToBytes(publicKey),
    });
  }
}

function urlBase64ToBytes(text) {
  const padded = (text + "=".repeat((4 - (text.length % 4)) % 4)).replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(padded), (char) => char.charCodeAt(0));
}
