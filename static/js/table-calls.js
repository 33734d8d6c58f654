// The table's calls to the server: the player's moves and the other table verbs, over the table's
// socket when it is open, else over HTTP; and each new state the server sends, taken in.
import { api, newMoveId } from "./api.js";
import { _ } from "./i18n.js";
import { LiveTable } from "./live.js";
import { isOffline } from "./offline.js";
import { toast } from "./site.js";
import { chime } from "./sound.js";
import { receiveChat } from "./table-chat.js";
import { render, statusText } from "./table-draw.js";
import { keepForLater, refuseOffline, rememberState } from "./table-offline.js";
import { rememberSeen } from "./table-recap.js";
import { $, awaitsMe, legal, mySeat, pageData, token, ui, view } from "./table-state.js";

export const live = new LiveTable(token, {
  onState: applyState,
  onChat: receiveChat,
  onPresence: (seats, spectators) => {
    ui.presence = seats;
    ui.spectators = spectators;
    opponentSeen(seats);
    render();
  },
});

// The pill "Ben: last seen 2 days ago" (tables/social), rendered with the page, follows the table's
// presence messages: online while the opponent has this table open, seen just now once they leave.
function opponentSeen(seats) {
  const pill = document.getElementById("opponent-presence");
  if (!pill) return;
  const entry = seats.find((row) => row.seat === Number(pill.dataset.seat));
  if (entry && entry.online) {
    pill.textContent = pill.dataset.online;
    pill.dataset.wasHere = "1";
  } else if (pill.dataset.wasHere) {
    pill.textContent = pill.dataset.left;
  }
}

// The socket's action name for each table verb it takes, by the verb's HTTP path. The server lists
// the verbs in the page (json_script "table-verbs": name, path, socket) so that the page keeps no
// copy of its own; with no list (an older view), every verb goes over HTTP.
function socketActionsByPath() {
  const verbs = pageData("table-verbs");
  const socketVerbs = Array.isArray(verbs) ? verbs.filter((verb) => verb && verb.socket) : [];
  return new Map(socketVerbs.map((verb) => [verb.path, verb.name]));
}

const socketActions = socketActionsByPath();

// Against a robot the next deal starts without this player only when the wait between deals runs
// out: the open box of the deal that ended then stays (without NEXT DEAL) until it is closed.
function keptSummary(before, after) {
  const robot = after.seats.some((seat) => seat && seat.is_bot);
  const dealtOn = before.status === "between_deals" && after.status === "playing" && !ui.dealingOn;
  if (robot && dealtOn && mySeat() !== null && !$("summary").hidden) return before;
  const kept = ui.keptSummary;
  return kept && after.status === "playing" && after.match.number === kept.match.number ? kept : null;
}

function applyState(state) {
  ui.keptSummary = keptSummary(ui.state, state);
  ui.dealingOn = false;
  const dealChanged = !ui.state.deal || !state.deal || ui.state.deal.number !== state.deal.number;
  if (offerLapsed(ui.state, state)) toast(_("The rematch offer has expired."));
  ui.state = state;
  rememberState(state);
  live.version = Math.max(live.version, state.version);
  if (dealChanged || !legal().some((action) => action.endsWith(` ${ui.selected}`))) ui.selected = null;
  if (view() && view().phase !== "discard") ui.hint = false;
  render();
  announceTurn();
  rememberSeen();
  window.dispatchEvent(new Event("ginmesa:state")); // table-time.js: vacation, more time
  window.dispatchEvent(new Event("ginmesa:pending-changed"));
}

// Withdrawn with nobody's answer and the match still over: the sweeper let it lapse.
function offerLapsed(before, after) {
  const over = before.status === "match_over" && after.status === "match_over";
  return over && mySeat() !== null && before.rematch.offered_by !== null && after.rematch.offered_by === null && after.rematch.declined_by === null;
}

function announceTurn() {
  const awaiting = awaitsMe();
  if (ui.wasAwaiting === false && awaiting) {
    toast(ui.state.status === "playing" ? _("Your move!") : statusText(), "info", 4, "turn"); // one at a time
    chime();
  }
  ui.wasAwaiting = awaiting;
}

// One call at a time, in the order the player made them. A click made while an earlier call still
// waits for its answer is kept and sent once that answer is in, against the table as it is then
// (as the big card and chess sites keep a premove): a click is never dropped. Disabling the
// buttons instead would leave a tap that lands in the gap doing nothing either.
let lastCall = Promise.resolve();
function inTurn(send) {
  const call = lastCall.then(send);
  lastCall = call.catch(() => undefined);
  return call;
}

// A verb's body sent with the version the table has when the call's turn comes.
export const versioned = () => ({ expected_version: ui.state.version });

async function post(path, body, failure) {
  const answer = await api.post(path, body);
  if (answer.ok) return answer.data;
  if (answer.data && answer.data.state) applyState(answer.data.state);
  refused(answer.status, answer.data.detail, failure);
  return null;
}

function refused(status, detail, failure) {
  toast(status === 409 ? _("The table changed: look again.") : detail || failure || _("That did not work."), "error");
}

// Over the table's socket when it is open (the state follows as its event), else over HTTP; offline,
// kept to send when the network returns (table-offline.js). A move that the calls before it made
// illegal (a second tap on the stock) is not sent: the table shows why.
export function move(action) {
  if (isOffline()) return inTurn(() => keepForLater(action));
  return inTurn(async () => {
    if (!legal().includes(action)) return;
    const body = { action, expected_version: ui.state.version, client_move_id: newMoveId() };
    const answer = await live.move(body);
    if (answer === null) {
      const data = await post(`/tables/${token}/moves`, body);
      if (data) applyState(data.state);
    } else if (answer.type === "error") {
      refused(answer.status, answer.detail); // a stale version: the socket sends the table as it is
    } else {
      await live.caughtUp(answer.version); // the next call goes against the table this move made
    }
  });
}

// Over the table's socket when it is open and takes the verb (the state follows as its event),
// else over HTTP. ``fields``: the body, or a function that makes it when the call's turn comes.
export function tableCall(path, fields = {}) {
  if (isOffline()) return refuseOffline();
  return inTurn(async () => {
    const body = typeof fields === "function" ? fields() : fields;
    const socketAction = socketActions.get(path);
    if (socketAction) {
      const answer = await live.action({ action: socketAction, request_id: newMoveId(), ...body });
      if (answer === null) live.refresh(); // unanswered: show the table as it is now
      else if (answer !== undefined && answer.type === "error") refused(answer.status, answer.detail);
      else if (answer !== undefined) await live.caughtUp(answer.version);
      if (answer !== undefined) return answer;
    }
    const data = await post(`/tables/${token}/${path}`, body);
    if (data) applyState(data);
    return data;
  });
}
