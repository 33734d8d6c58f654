// The player's own gestures at the table: tapping and dragging cards, the stock and the pile,
// knocking, resigning, taking a seat. Each becomes a move or a table call (table-calls.js).
import { moveCard, ownArrangement } from "./hand.js";
import { _ } from "./i18n.js";
import { toast } from "./site.js";
import { move, tableCall, versioned } from "./table-calls.js";
import { render } from "./table-draw.js";
import { $, app, handGroups, isLegal, mySeat, plannedKnock, store, token, ui, view } from "./table-state.js";

export function discard(code) {
  const v = view();
  if (!v || v.phase !== "discard" || v.to_play !== mySeat()) return;
  if (code === v.just_taken) {
    toast(_("You just took this card from the pile: it cannot be discarded this turn."), "error");
    return;
  }
  if (isLegal(`discard ${code}`)) move(`discard ${code}`);
}

export function onCardClick(code) {
  const v = view();
  const discarding = v && v.phase === "discard" && v.to_play === mySeat();
  if (discarding && ui.selected === code) {
    discard(code);
    return;
  }
  ui.selected = ui.selected === code ? null : code;
  if (discarding && code === v.just_taken) toast(_("You just took this card from the pile: it cannot be discarded this turn."));
  render();
}

export function onStock() {
  if (isLegal("draw_stock")) move("draw_stock");
}

export function onPile() {
  const v = view();
  if (isLegal("take_discard")) move("take_discard");
  else if (isLegal("take_upcard")) move("take_upcard");
  else if (v && v.phase === "discard" && ui.selected) discard(ui.selected);
}

export function onKnock() {
  const knock = plannedKnock();
  if (knock) move(`knock ${knock.card}`);
}

// RESIGN lives in the table menu, away from the play buttons; the first tap arms it, the
// second (within four seconds) gives up the match. True when the resignation was sent.
let resignArmed = false;
export function onResign() {
  const button = $("menu-resign");
  if (!resignArmed) {
    resignArmed = true;
    button.textContent = _("CONFIRM: RESIGN");
    setTimeout(() => {
      resignArmed = false;
      button.textContent = _("RESIGN");
    }, 4000);
    return false;
  }
  resignArmed = false;
  button.textContent = _("RESIGN");
  tableCall("resign", versioned);
  return true;
}

export function reorder(code, target) {
  const current = handGroups().flatMap((group) => group.cards);
  ui.own = moveCard(ownArrangement(view().hand, current), code, target);
  ui.sort = "own";
  store.set(`gm-order-${token}`, ui.own);
  store.set("gm-sort", ui.sort);
  render();
}

export async function onJoin(event) {
  event.preventDefault();
  const name = $("join-name") ? $("join-name").value : undefined;
  const data = await tableCall("join", name ? { name } : {});
  if (data && !app.dataset.hasPlayer) location.reload(); // a new guest: the page now knows who it is
}
