// The table page offline (offline.js): this table's kept state when newer than the kept page, and
// the player's one move kept to send when the network returns, with the version it expects.
import { newMoveId } from "./api.js";
import { element } from "./dom.js";
import { _, fmt } from "./i18n.js";
import { dropKeptMove, keepMove, keepState, keptMove, keptState, lastUpdated, noteUpdated, offlineText, showBanner } from "./offline.js";
import { toast } from "./site.js";
import { moveName } from "./texts.js";
import { legal, token, ui } from "./table-state.js";

const keptMoveText = (move) => fmt(_("Kept to send when the network returns: %(move)s."), { move: move.label });

// The banner: offline since when, and the move kept, with a button to take it back (the player
// changed their mind: then another move may be kept in its place, by their own hand).
function showKept(move) {
  if (!move) {
    showBanner(offlineText(lastUpdated()));
    return;
  }
  showBanner(`${offlineText(lastUpdated())} ${keptMoveText(move)} `);
  const drop = element("button", "btn small secondary", _("TAKE THE KEPT MOVE BACK"));
  drop.type = "button";
  drop.id = "offline-drop";
  drop.addEventListener("click", async () => {
    await dropKeptMove(token);
    showKept(null);
    toast(_("The kept move was taken back: nothing will be sent for this table."), "info", 8);
  });
  document.getElementById("offline-banner").append(drop);
}

// Every state the seated player sees is kept, so that offline the table shows the last one.
export function rememberState(state) {
  if (state.you.seat !== null) keepState(token, state).catch((error) => console.warn("offline state:", error));
}

// Opened offline: the newest state kept (``offer`` takes it in) and the move already kept, if any.
export async function openOffline(offer) {
  const kept = await keptState(token);
  if (kept && kept.state.version > ui.state.version) {
    offer(kept.state);
    noteUpdated(kept.at);
  }
  showKept(await keptMove(token));
}

// A move made offline: kept with the version the table shows, unless one is already kept for
// this table (never replaced: the player is told, and the first one stays).
export async function keepForLater(action) {
  if (!legal().includes(action)) return;
  const move = { table: token, action, label: moveName(action), expected_version: ui.state.version, client_move_id: newMoveId() };
  if (await keepMove(move)) {
    showKept(move);
    toast(keptMoveText(move), "info", 8);
  } else {
    toast(_("A move for this table is already kept to send: this one is not kept (one move per table while offline)."), "error", 8);
  }
}

export function refuseOffline() {
  toast(_("You are offline: this waits for the network."), "error");
  return Promise.resolve(null);
}
