// The tournament page follows its event without a reload: while the page is shown it asks the
// API for the tournament's version every few seconds and, when it moved (a join, a result, a new
// round, the end), swaps in the page's live part as the server renders it now.
import { api } from "./api.js";

const POLL_MS = 5000;
const live = document.getElementById("tournament-live");

async function follow() {
  if (document.visibilityState !== "visible") return;
  const answer = await api.get(`/tournaments/${live.dataset.token}`);
  if (!answer.ok || String(answer.data.version) === live.dataset.version) return;
  const response = await fetch(window.location.href, { credentials: "same-origin" });
  if (!response.ok) return;
  const page = new DOMParser().parseFromString(await response.text(), "text/html");
  const fresh = page.getElementById("tournament-live");
  if (!fresh) return;
  live.replaceChildren(...fresh.childNodes);
  live.dataset.version = fresh.dataset.version;
}

if (live) setInterval(follow, POLL_MS);
