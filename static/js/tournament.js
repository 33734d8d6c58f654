// The tournament page follows its event without a reload: the user socket tells it each new
// version (a join, a result, a new round, the end; site.js asks to follow it), and the page
// swaps in its live part as the server renders it now. Without the socket (a visitor with no
// name, or the socket closed) it asks the API for the version every few seconds instead.
import { api } from "./api.js";
import { userSocketOpen } from "./site.js";

const POLL_MS = 10000;
const live = document.getElementById("tournament-live");
let rendering = null;

async function render() {
  const response = await fetch(window.location.href, { credentials: "same-origin" });
  if (!response.ok) return;
  const page = new DOMParser().parseFromString(await response.text(), "text/html");
  const fresh = page.getElementById("tournament-live");
  if (!fresh) return;
  live.replaceChildren(...fresh.childNodes);
  live.dataset.version = fresh.dataset.version;
}

// One render at a time; a version announced meanwhile is checked again after it.
async function catchUp(version) {
  if (Number(version) <= Number(live.dataset.version)) return;
  if (rendering) {
    await rendering;
    return catchUp(version);
  }
  rendering = render().finally(() => {
    rendering = null;
  });
  await rendering;
}

async function poll() {
  if (document.visibilityState !== "visible" || userSocketOpen()) return;
  const answer = await api.get(`/tournaments/${live.dataset.token}`);
  if (answer.ok) catchUp(answer.data.version);
}

if (live) {
  window.addEventListener("ginmesa:tournament", (event) => {
    if (event.detail.tournament === live.dataset.token) catchUp(event.detail.version);
  });
  setInterval(poll, POLL_MS);
}
