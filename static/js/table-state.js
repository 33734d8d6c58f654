// The table page's state: the table as the server last sent it, this browser's own choices, and
// what follows from them. The server decides everything (legal moves, melds, deadwood, the best
// discard: state.deal.view and state.deal.coach); the page only reads it.
import { $, clear, pageData } from "./dom.js";
import { arrangeHand } from "./hand.js";
import { _, fmt } from "./i18n.js";

export { $, clear, pageData };
export const app = $("table-app");
export const token = app.dataset.token;
export const suitsUrl = app.dataset.suits;
// The archive page of a match of this table, or null when this visitor may not see them: the
// page was served to one who may, or the visitor has since taken a seat here (no reload).
export const matchArchiveUrl = (id) =>
  app.dataset.matchArchiveOpen || mySeat() !== null ? app.dataset.matchArchive.replace(/0\/$/, `${id}/`) : null;
export const store = {
  get: (key, fallback) => JSON.parse(localStorage.getItem(key) || "null") ?? fallback,
  set: (key, value) => localStorage.setItem(key, JSON.stringify(value)),
};

// The table as last sent, the chat so far, and this browser's view of them.
export const ui = {
  state: pageData("table-state"),
  chat: pageData("chat-history"),
  selected: null,
  hint: false,
  sort: store.get("gm-sort", "groups"),
  own: store.get(`gm-order-${token}`, []),
  showPoints: store.get("gm-points", false),
  summaryClosedFor: null,
  keptSummary: null, // the state of a deal's end kept on screen after the server dealt on
  dealingOn: false, // this player pressed NEXT DEAL: the box of the deal that ended goes
  clockEnd: null,
  bank: null, // the time bank of the player to play, in seconds (null: none shown)
  chatChannel: "players",
  unread: 0,
  presence: null,
  spectators: 0,
  wasAwaiting: null,
  lastHandKey: "",
};

// -- reading the state -------------------------------------------------------------------

export const mySeat = () => ui.state.you.seat;
export const view = () => ui.state.deal && ui.state.deal.view;
export const coach = () => ui.state.deal && ui.state.deal.coach;
export const legal = () => (view() ? view().legal_actions : []);
export const isLegal = (action) => legal().includes(action);
export const matchTarget = () => (view() ? view().ruleset.target : null);
export const bottomSeat = () => (mySeat() === null ? 0 : mySeat());

export function names() {
  return ui.state.seats.map((seat, index) => (seat ? seat.name : fmt(_("Seat %(n)s"), { n: index + 1 })));
}

export function knockCards() {
  return legal().filter((action) => action.startsWith("knock ")).map((action) => action.slice(6));
}

// The knock the button would make: the selected card if it knocks, else the one keeping least deadwood.
export function plannedKnock() {
  const cards = knockCards();
  const discards = coach() ? coach().discards : {};
  if (ui.selected) return cards.includes(ui.selected) ? { card: ui.selected, deadwood: discards[ui.selected] } : null;
  if (!cards.length) return null;
  const card = cards.reduce((best, code) => (discards[code] < discards[best] ? code : best));
  return { card, deadwood: discards[card] };
}

export function awaitsMe() {
  const status = ui.state.status;
  if (mySeat() === null) return false;
  if (status === "playing") return view().to_play === mySeat();
  if (status === "between_deals") return true;
  if (status === "match_over") return ui.state.rematch.offered_by === 1 - mySeat();
  return status === "ready" && ui.state.you.is_owner;
}

export function handGroups() {
  const v = view();
  const mode = ui.sort;
  return arrangeHand(v.hand, coach(), mode, ui.own);
}

// -- page helpers ------------------------------------------------------------------------

export function show(id, visible) {
  $(id).hidden = !visible;
}
