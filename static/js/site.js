// Every page: language switch, copy buttons, toasts, the pending-moves badge and title, and the
// inbox bell's unread count.
import { api, socketsOffered, socketUrl } from "./api.js";
import { _, fmt } from "./i18n.js";
import { forgetOfflineData, isOffline, startOffline } from "./offline.js";

document.documentElement.classList.add("js");

const baseTitle = document.title.replace(/^\(\d+\)\s*/, "");
let pendingCount = 0;

const MAX_TOASTS = 3;

// A toast replaces the one showing under the same key (by default its kind and text, so the
// same message never stacks; the table's turn toasts share the key "turn"), and no more than
// MAX_TOASTS show at once: the oldest goes first.
export function toast(text, kind = "info", seconds = 4, key = `${kind}:${text}`) {
  const box = document.getElementById("toasts");
  if (!box) return;
  for (const shown of box.querySelectorAll(".toast")) if (shown.dataset.key === key) shown.remove();
  const item = document.createElement("div");
  item.className = `toast ${kind}`;
  item.dataset.key = key;
  item.textContent = text;
  box.append(item);
  const toasts = box.querySelectorAll(".toast");
  for (let index = 0; index < toasts.length - MAX_TOASTS; index += 1) toasts[index].remove();
  setTimeout(() => item.remove(), seconds * 1000);
}

export function setPendingCount(count) {
  pendingCount = count;
  const badge = document.getElementById("pending-badge");
  if (badge) {
    badge.hidden = count === 0;
    badge.textContent = String(count);
    badge.setAttribute("aria-label", fmt(_("%(count)s tables await your move"), { count }));
  }
  document.title = count > 0 ? `(${count}) ${baseTitle}` : baseTitle;
}

export function pending() {
  return pendingCount;
}

export function setInboxCount(count) {
  const badge = document.getElementById("inbox-badge");
  if (!badge) return;
  badge.hidden = count === 0;
  badge.textContent = String(count);
  badge.setAttribute("aria-label", fmt(_("%(count)s unread in the inbox"), { count }));
}

// The bell asks on load and on the user socket's "inbox" message: a line written (on every
// device, whatever alert channels are on) or lines read on some device.
async function refreshInbox() {
  if (!document.getElementById("inbox-badge")) return;
  const answer = await api.get("/me/inbox");
  if (answer.ok) setInboxCount(answer.data.unread);
}

async function refreshPending() {
  if (document.body.dataset.player !== "1") return; // a visitor with no name has no tables
  refreshInbox();
  const answer = await api.get("/me/tables");
  if (answer.ok) setPendingCount(answer.data.tables.filter((row) => row.your_move).length);
}

// While the user socket is open it pushes the count on connect and on every change: the page
// fetches GET /api/me/tables only without it (not offered, not yet open, or closed).
let pendingSocketOpen = false;
// The alerts shown as a toast on any page (a table's own turn alerts are the table page's).
const ANNOUNCED = new Set(["challenge", "tournament_match"]);
let leaving = false;
window.addEventListener("beforeunload", () => {
  leaving = true;
});
window.addEventListener("pageshow", () => {
  leaving = false; // shown again from the browser's back-forward cache
});

function refreshPendingUnlessPushed() {
  if (!pendingSocketOpen) refreshPending();
}

// Whether the user socket is open now: a page that follows something over it (a tournament's)
// asks the server itself only while it is not.
export function userSocketOpen() {
  return pendingSocketOpen;
}

// A tournament's page follows its event over the user socket: asked again at every (re)connect,
// since a new socket follows nothing; each new version is handed to the page as an event.
function followTournament(socket) {
  const live = document.getElementById("tournament-live");
  if (live) socket.send(JSON.stringify({ type: "watch_tournament", tournament: live.dataset.token }));
}

function watchPending() {
  if (document.body.dataset.player !== "1") return;
  if (socketsOffered("me")) {
    const socket = new WebSocket(socketUrl("/ws/me/"));
    socket.addEventListener("open", () => {
      pendingSocketOpen = true;
      followTournament(socket);
      // A line written after the page's first count and before this socket joined its group
      // announced itself to nobody: count again now that every later one will be heard.
      refreshInbox();
    });
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "pending") setPendingCount(message.count);
      else if (message.type === "inbox") refreshInbox(); // a line written, or lines read
      else if (message.type === "tournament") {
        window.dispatchEvent(new CustomEvent("ginmesa:tournament", { detail: message }));
      } else if (message.type === "alert") {
        if (ANNOUNCED.has(message.kind)) toast(`${message.title}. ${message.body}`, "info", 12, message.tag);
      }
    });
    socket.addEventListener("close", (event) => {
      const wasOpen = pendingSocketOpen;
      pendingSocketOpen = false;
      // 4401 on an open socket: this login session was ended (logged out from another device,
      // or the account suspended by staff): the page is shown again as the visitor it now is.
      // Not while the page is already leaving (a form sent, a link followed: this very page may
      // have ended the session, a logout or a deletion), whose navigation a reload would cancel.
      if (event.code === 4401 && wasOpen && !leaving) {
        window.location.reload();
        return;
      }
      setTimeout(refreshPending, 1000);
    });
  }
  refreshPending();
  setInterval(() => {
    if (document.visibilityState === "visible") refreshPendingUnlessPushed();
  }, 30000);
}

export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.className = "visually-hidden";
    document.body.append(area);
    area.select();
    const done = document.execCommand("copy");
    area.remove();
    return done;
  }
}

function wireCopyButtons(root = document) {
  for (const button of root.querySelectorAll("[data-copy]")) {
    button.addEventListener("click", async () => {
      const source = document.getElementById(button.dataset.copy);
      const copied = await copyText(source.value || source.textContent);
      if (source.select) source.select();
      toast(copied ? _("Link copied: paste it in a message.") : _("Select the link and copy it."));
    });
  }
}

function wireLanguageSwitch() {
  const select = document.querySelector("[data-autosubmit]");
  if (select) select.addEventListener("change", () => select.form.submit());
}

// The site's service worker, at the root so that it covers every page: it shows web-push
// alerts and lets the browser install the site as an app. Without one (an insecure origin
// such as http://192.168.1.10) the site works the same, minus those two.
export const WORKER_URL = "/sw.js";

function registerWorker() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register(WORKER_URL).catch((error) => console.warn("service worker:", error));
}

// A page with no player (logged out here or elsewhere) forgets what was kept for offline; a page
// the worker served offline waits for the network before it asks the server anything.
function watchOffline() {
  if (document.body.dataset.player !== "1") {
    forgetOfflineData();
    return;
  }
  startOffline();
  if (isOffline()) window.addEventListener("ginmesa:back-online", watchPending, { once: true });
  else watchPending();
}

wireLanguageSwitch();
wireCopyButtons();
watchOffline();
registerWorker();
window.addEventListener("ginmesa:pending-changed", refreshPendingUnlessPushed);
