// The page of a table of three or four follows its game: it asks the API for the version every
// few seconds while the page is visible and the game not over, and swaps in its live part as the
// server renders it now (a seat taken, a deal's result, the next deal, the end).
import { api } from "./api.js";

const POLL_MS = 8000;
const live = document.getElementById("game-live");
let rendering = false;

async function render() {
  const response = await fetch(window.location.href, { credentials: "same-origin" });
  if (!response.ok) return;
  const page = new DOMParser().parseFromString(await response.text(), "text/html");
  const fresh = page.getElementById("game-live");
  if (!fresh) return;
  live.replaceChildren(...fresh.childNodes);
  live.dataset.version = fresh.dataset.version;
  live.dataset.status = fresh.dataset.status;
}

async function poll() {
  if (rendering || document.visibilityState !== "visible" || live.dataset.status === "over") return;
  const answer = await api.get(`/games/${live.dataset.token}`);
  if (!answer.ok || Number(answer.data.version) <= Number(live.dataset.version)) return;
  rendering = true;
  try {
    await render();
  } finally {
    rendering = false;
  }
}

if (live) setInterval(poll, POLL_MS);
