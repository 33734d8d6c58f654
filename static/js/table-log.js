// The side panel's move log (the match's finished deals, then the current deal's moves, from
// state.deal.log: the server names no card this reader may not see) and the count of spectators.
import { element } from "./dom.js";
import { _, fmt, ngettext } from "./i18n.js";
import { actionFragment, dealLine, sentence } from "./texts.js";
import { $, clear, names, ui } from "./table-state.js";

// One log row without its subject: a face-down knock names no card.
export function logFragment(row) {
  if (row.kind === "knock" && row.face_down) return _("knocked with a face-down discard");
  return actionFragment(row);
}

function line(list, text, className = "") {
  list.append(element("li", className, text));
}

export function drawMoveLog() {
  const deal = ui.state.deal;
  const log = deal ? deal.log : null;
  const list = clear($("move-log-list"));
  // A table without its move log sends none: the panel only says so.
  $("move-log").hidden = !deal;
  $("move-log-off").hidden = Array.isArray(log);
  if (!Array.isArray(log)) return;
  const n = names();
  const sheet = ui.state.match ? ui.state.match.score_sheet : [];
  sheet.slice(0, deal.number - 1).forEach((row, index) => {
    line(list, `${fmt(_("Deal %(number)s"), { number: index + 1 })}: ${dealLine(row, n)}`, "deal-line");
  });
  line(list, fmt(_("Deal %(number)s"), { number: deal.number }), "deal-line");
  for (const row of log) line(list, sentence(n[row.seat], [logFragment(row)]));
  const result = sheet[deal.number - 1];
  if (result && deal.view.phase === "over") line(list, dealLine(result, n), "deal-line");
  list.scrollTop = list.scrollHeight;
}

export function drawSpectators() {
  const pill = $("spectators");
  const count = ui.spectators;
  pill.hidden = !count;
  const text = fmt(ngettext("%(count)s watching", "%(count)s watching", count), { count });
  pill.textContent = text;
  pill.title = fmt(ngettext("%(count)s spectator has the table open", "%(count)s spectators have the table open", count), { count });
}
