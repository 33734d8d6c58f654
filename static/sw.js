/* Ginmesa's service worker: keeps the app for offline, shows web-push alerts
 * (tables.alerts.push) and opens the table.
 * Served at /sw.js (tables/core/app_shell.py), so its scope is the whole site and the site installs
 * as an app; every page registers it (static/js/site.js).
 *
 * A push carries JSON: {kind, table, title, body, url, tag}. The tag is one per table, so a
 * newer alert of a table replaces the older one instead of piling up. Subscribing happens on
 * the profile page: GET /api/me/push/key, PushManager.subscribe, POST /api/me/push/subscriptions.
 */
"use strict";

/* Offline (tables/offline, docs/live.md "The app offline"): the shell (the static files every
 * page loads, listed with their version by the server before this code) is kept at install; a
 * page the server marks "Ginmesa-Offline: keep" (My tables, and a table to its own seated
 * player) is kept on each visit and shown, marked with the time it was kept, when the network
 * is gone. Any other page the server sends drops a kept copy of that address. */
const SHELL = typeof SHELL_URLS === "undefined" ? [] : SHELL_URLS; // /static/sw.js: no prelude
const SHELL_CACHE = `ginmesa-shell-${typeof SHELL_VERSION === "undefined" ? "static" : SHELL_VERSION}`;
const PAGES_CACHE = "ginmesa-pages"; // static/js/offline.js deletes it at logout
const KEPT_AT = "Ginmesa-Kept-At";
const MY_TABLES = "/me/tables/";

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL_CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => event.waitUntil(dropOldShells().then(() => self.clients.claim())));

async function dropOldShells() {
  const names = await caches.keys();
  const old = names.filter((name) => name.startsWith("ginmesa-shell-") && name !== SHELL_CACHE);
  await Promise.all(old.map((name) => caches.delete(name)));
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (request.mode === "navigate") event.respondWith(page(request, url));
  else if (url.pathname.startsWith("/static/")) event.respondWith(shellFile(request));
  else if (url.pathname === "/jsi18n/") event.respondWith(networkElseKept(request));
});

/* A page from the network, kept or forgotten as the server says; offline, its kept copy, else
 * the kept My tables (the installed app opens at "/"), else the browser's own offline error. */
async function page(request, url) {
  const key = url.origin + url.pathname;
  let response;
  try {
    response = await fetch(request);
  } catch (error) {
    const kept = (await caches.match(key, { cacheName: PAGES_CACHE })) || (await caches.match(url.origin + MY_TABLES, { cacheName: PAGES_CACHE }));
    if (kept) return markedOffline(kept);
    throw error;
  }
  await keepOrForget(await caches.open(PAGES_CACHE), key, response);
  return response;
}

/* My tables asks for its tables' pages (static/js/offline.js), so that each table where the
 * player sits opens offline, visited or not: one at a time, each at most every KEEP_EVERY_MS. */
const KEEP_EVERY_MS = 10 * 60 * 1000;

self.addEventListener("message", (event) => {
  const message = event.data || {};
  if (message.type === "keep-pages" && Array.isArray(message.urls)) event.waitUntil(keepPages(message.urls));
});

async function keepPages(urls) {
  const pages = await caches.open(PAGES_CACHE);
  for (const address of urls.slice(0, 50)) {
    const url = new URL(address, self.location.origin);
    if (url.origin !== self.location.origin || !url.pathname.startsWith("/t/")) continue;
    const key = url.origin + url.pathname;
    const kept = await pages.match(key);
    if (kept && Date.now() - Number(kept.headers.get(KEPT_AT)) < KEEP_EVERY_MS) continue;
    try {
      await keepOrForget(pages, key, await fetch(key, { credentials: "same-origin" }));
    } catch {
      return; // the network is gone: the next visit of My tables tries again
    }
  }
}

async function keepOrForget(pages, key, response) {
  if (response.ok && response.headers.get("Ginmesa-Offline") === "keep") await pages.put(key, await stamped(response.clone()));
  else await pages.delete(key);
}

async function stamped(response) {
  const headers = new Headers(response.headers);
  headers.set(KEPT_AT, String(Date.now()));
  return new Response(await response.blob(), { status: response.status, headers });
}

/* The kept page with <body data-offline-since="…">: static/js/offline.js shows the banner,
 * makes the page read-only and keeps the player's move for later. */
async function markedOffline(kept) {
  const html = await kept.text();
  const since = kept.headers.get(KEPT_AT) || "";
  const marked = html.replace("<body ", `<body data-offline-since="${since}" `);
  const headers = new Headers(kept.headers); // its own CSP and type, not its former length
  headers.delete("Content-Length");
  return new Response(marked, { status: 200, headers });
}

async function shellFile(request) {
  const kept = await caches.match(request, { cacheName: SHELL_CACHE });
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) (await caches.open(SHELL_CACHE)).put(request, response.clone());
  return response;
}

async function networkElseKept(request) {
  try {
    const response = await fetch(request);
    if (response.ok) (await caches.open(SHELL_CACHE)).put(request, response.clone());
    return response;
  } catch (error) {
    const kept = await caches.match(request, { cacheName: SHELL_CACHE });
    if (kept) return kept;
    throw error;
  }
}

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
