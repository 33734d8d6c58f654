// The app offline, in the page (the service worker, static/sw.js, keeps the pages): the banner of
// a page opened offline, the moves kept to send when the network returns (one per table, in
// IndexedDB with the version each expects), the table states kept for the seated player, and
// forgetting all of it when no one is logged in any more. docs/live.md "The app offline".
import { api } from "./api.js";
import { _, fmt } from "./i18n.js";

const DATABASE = "ginmesa-offline";
const PAGES_CACHE = "ginmesa-pages"; // the worker's kept pages (static/sw.js)

// The time (ms) the page shown was kept, when the worker served it offline; else null.
export function offlineSince() {
  const raw = document.body.dataset.offlineSince;
  return raw ? Number(raw) : null;
}

let offline = offlineSince() !== null;
let since = offlineSince(); // what the banner says: when the page shown was last up to date
export const isOffline = () => offline;
export const lastUpdated = () => since;

// The table page shows a kept state newer than its kept page: the banner says that state's time.
export function noteUpdated(at) {
  since = Math.max(since ?? 0, at);
}

function openDatabase() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DATABASE, 1);
    request.onupgradeneeded = () => {
      request.result.createObjectStore("moves", { keyPath: "table" });
      request.result.createObjectStore("states", { keyPath: "table" });
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

// One request on one store, resolved with its result once its transaction is done.
async function inStore(name, mode, work) {
  const database = await openDatabase();
  try {
    return await new Promise((resolve, reject) => {
      const transaction = database.transaction(name, mode);
      const request = work(transaction.objectStore(name));
      transaction.oncomplete = () => resolve(request.result);
      transaction.onabort = () => reject(transaction.error);
    });
  } finally {
    database.close();
  }
}

// Keep a move {table, action, label, expected_version, client_move_id}: false when this table
// already has one (add() never replaces it: the page says so instead).
export async function keepMove(move) {
  try {
    await inStore("moves", "readwrite", (store) => store.add(move));
    return true;
  } catch (error) {
    if (error && error.name === "ConstraintError") return false;
    throw error;
  }
}

export const keptMove = (table) => inStore("moves", "readonly", (store) => store.get(table));
export const dropKeptMove = (table) => inStore("moves", "readwrite", (store) => store.delete(table));
export const keepState = (table, state) => inStore("states", "readwrite", (store) => store.put({ table, state, at: Date.now() }));
export const keptState = (table) => inStore("states", "readonly", (store) => store.get(table));

// Send every kept move through the move API, each once (its client_move_id: a second sender, in
// another tab, gets the first answer, never a second move). A move the server answered leaves
// the queue, played or refused; with no network it stays for the next try.
let sending = null;
export function sendKeptMoves() {
  sending ??= sendAll().finally(() => {
    sending = null;
  });
  return sending;
}

async function sendAll() {
  const answered = [];
  for (const move of await inStore("moves", "readonly", (store) => store.getAll())) {
    const body = { action: move.action, expected_version: move.expected_version, client_move_id: move.client_move_id };
    const answer = await api.post(`/tables/${move.table}/moves`, body);
    if (answer.status === 0) break;
    await dropKeptMove(move.table);
    answered.push(answerText(move, answer));
  }
  return answered;
}

function answerText(move, answer) {
  if (answer.ok) return fmt(_("Your move made offline was sent and played: %(move)s."), { move: move.label });
  if (answer.data.error === "stale_version") {
    return fmt(
      _("Your move made offline (%(move)s) was refused: the table moved on while you were offline (%(detail)s). Nothing was played: look at the table again."),
      { move: move.label, detail: answer.data.detail },
    );
  }
  return fmt(_("Your move made offline (%(move)s) was refused: %(detail)s"), { move: move.label, detail: answer.data.detail || answer.status });
}

// Logged out (or never logged in): no kept page, move or state stays in this browser.
export async function forgetOfflineData() {
  if ("caches" in window) await caches.delete(PAGES_CACHE);
  await new Promise((resolve) => {
    const request = indexedDB.deleteDatabase(DATABASE);
    request.onsuccess = request.onerror = request.onblocked = () => resolve();
  });
}

export function showBanner(text) {
  const banner = document.getElementById("offline-banner");
  if (!banner) return;
  banner.textContent = text;
  banner.hidden = false;
}

export function offlineText(since) {
  const time = new Date(since).toLocaleString(document.documentElement.lang || undefined);
  return fmt(_("Offline: last updated at %(time)s. Read-only until the network returns."), { time });
}

// Offline, a form would fail: none is sent, and the page says why.
function refuseForms(event) {
  if (!offline) return;
  event.preventDefault();
  event.stopImmediatePropagation();
  showBanner(_("You are offline: this waits for the network."));
}

// The network dropped under an open page: from now on it acts as a page opened offline (moves
// kept, forms held) until the browser says the network is back.
function wentOffline() {
  if (offline) return;
  offline = true;
  since = Date.now();
  showBanner(offlineText(since));
}

// A page opened online sends what an earlier page kept (the app reopened once the train is out of
// the tunnel) and says what became of it.
async function reportKeptMoves() {
  const answers = await sendKeptMoves();
  if (answers.length) showBanner(answers.join(" "));
}

// The network is back: kept moves go first, then the page hears "ginmesa:back-online" (the
// table page starts its live updates again and cancels the event: it shows the latest itself)
// and the banner tells what became of the moves.
async function backOnline() {
  const answers = await sendKeptMoves();
  const wasOffline = offline;
  offline = false;
  const back = new Event("ginmesa:back-online", { cancelable: true });
  window.dispatchEvent(back);
  const banner = document.getElementById("offline-banner");
  if (answers.length) showBanner(answers.join(" "));
  else if (wasOffline && !back.defaultPrevented) showBanner(_("Back online: reload the page to see the latest."));
  else if (banner) banner.hidden = true;
}

// My tables (online) asks the worker to keep the page of each table listed, so that every table
// where the player sits opens offline, not only those visited since.
function keepListedTables() {
  const list = document.querySelector("[data-keep-offline]");
  const worker = navigator.serviceWorker && navigator.serviceWorker.controller;
  if (!list || !worker) return;
  const urls = [...list.querySelectorAll("a[href^='/t/']")].map((link) => link.getAttribute("href"));
  worker.postMessage({ type: "keep-pages", urls });
}

export function startOffline() {
  if (offline) showBanner(offlineText(since));
  else keepListedTables();
  document.addEventListener("submit", refuseForms, true);
  window.addEventListener("offline", wentOffline);
  window.addEventListener("online", backOnline);
  if (!offline && navigator.onLine) reportKeptMoves();
}
