// The game's panel (templates/variants/_board_game.html) on a board's table page and on the game
// page: the other deal of the round as a spectator sees it, the score sheet and the round's
// netting. Every few seconds while the page is visible it asks the API for the round's boards
// (GET /api/games/<token>/boards?round=), a small answer apart from the table's socket, and only
// when a watched board moved or the game's version changed does it fetch the panel as the server
// renders it now (/g/<token>/panel/) and swap it in. A settled panel (its round netted, or the
// game over) stops asking.
import { api } from "./api.js";

const POLL_MS = 5000;
let busy = false;

function markOf(answer, watched) {
  const boards = answer.boards.filter((board) => watched.includes(board.table));
  return [answer.version, ...boards.map((board) => `${board.table}:${board.table_version}`)].join("/");
}

async function swap(panel) {
  const query = panel.dataset.at ? `?board=${encodeURIComponent(panel.dataset.at)}` : "";
  const response = await fetch(`/g/${panel.dataset.token}/panel/${query}`, { credentials: "same-origin" });
  if (!response.ok) return;
  const page = new DOMParser().parseFromString(await response.text(), "text/html");
  const fresh = page.getElementById("board-game");
  if (fresh) panel.replaceWith(fresh);
  else panel.remove(); // the game page once nothing is left to watch
}

async function refresh() {
  const panel = document.getElementById("board-game");
  if (busy || !panel || panel.dataset.settled || document.visibilityState !== "visible") return;
  busy = true;
  try {
    const path = `/games/${panel.dataset.token}/boards?round=${panel.dataset.round}`;
    const answer = await api.get(path);
    if (!answer.ok) return;
    const watched = panel.dataset.tables ? panel.dataset.tables.split(" ") : [];
    if (markOf(answer.data, watched) !== panel.dataset.mark) await swap(panel);
  } finally {
    busy = false;
  }
}

setInterval(refresh, POLL_MS);
document.addEventListener("visibilitychange", refresh);
