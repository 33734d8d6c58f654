// What happened while the player was away: the deals and the opponent's moves since this
// browser last saw the table (remembered per table in localStorage), listed once on arrival.
import { _, fmt } from "./i18n.js";
import { actionFragment, dealLine, sentence } from "./texts.js";
import { $, clear, mySeat, names, store, token, ui, view } from "./table-state.js";

function recapLines(seen) {
  const state = ui.state;
  const n = names();
  const lines = [];
  if (!state.match || !seen) return lines;
  if (seen.match !== state.match.number) return [fmt(_("Match %(number)s started."), { number: state.match.number })];
  const sheet = state.match.score_sheet;
  for (const row of sheet.slice(seen.deals)) lines.push(dealLine(row, n));
  const history = view() ? view().history : [];
  // Without the table's move log the state holds only the latest moves, from history_from on.
  const offset = state.deal.history_from || 0;
  const from = seen.deal === state.deal.number ? Math.max(0, seen.events - offset) : 0;
  for (const event of history.slice(from)) {
    const fragment = actionFragment(event);
    if (fragment && event.seat !== mySeat()) lines.push(sentence(n[event.seat], [fragment]));
  }
  return lines;
}

function seenMarker() {
  const state = ui.state;
  if (!state.match) return null;
  return { match: state.match.number, deals: state.match.score_sheet.length, deal: state.deal.number, events: (state.deal.history_from || 0) + view().history.length };
}

export function showRecap() {
  const key = `gm-seen-${token}`;
  const lines = recapLines(store.get(key, null));
  if (lines.length) {
    const list = clear($("recap-list"));
    for (const line of lines) {
      const item = document.createElement("li");
      item.textContent = line;
      list.append(item);
    }
    $("recap").hidden = false;
  }
  rememberSeen();
}

export function rememberSeen() {
  if (document.visibilityState === "visible" && mySeat() !== null && seenMarker()) store.set(`gm-seen-${token}`, seenMarker());
}
