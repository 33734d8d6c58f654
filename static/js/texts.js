// The sentences the table shows: what a player did, how a deal ended, how long a clock has left.
// The names of the moves and outcomes come from the server, in the page's language (json_script
// "rule-names", tables/play/texts.py): the engine's list of them is the only one.
import { shortName } from "./cards.js";
import { pageData } from "./dom.js";
import { _, fmt, ngettext } from "./i18n.js";

const RULE_NAMES = pageData("rule-names") || { moves: {}, outcomes: {} };

// What one event did, without its subject: "took 7♥ from the pile"; "" for the deal's end.
export function actionFragment(event) {
  const names = RULE_NAMES.moves[event.kind];
  if (!names) return "";
  return event.card ? fmt(names.done, { card: shortName(event.card) }) : fmt(names.unseen, { card: "" });
}

// A player's move (not the deal's end).
export const isMove = (event) => event.kind in RULE_NAMES.moves;

// "discard 7H" as a choice: "discard 7♥", "knock with 7♥", "draw from the stock".
export function moveName(action) {
  const [kind, card] = action.split(" ");
  const names = RULE_NAMES.moves[kind];
  return names ? fmt(names.verb, { card: card ? shortName(card) : "" }) : action;
}

export function joinFragments(fragments) {
  if (fragments.length < 2) return fragments.join("");
  return `${fragments.slice(0, -1).join(", ")} ${_("and")} ${fragments[fragments.length - 1]}`;
}

export function sentence(name, fragments) {
  return fmt(_("%(name)s %(action)s"), { name, action: joinFragments(fragments) });
}

export function outcomeName(outcome) {
  return RULE_NAMES.outcomes[outcome] || outcome;
}

// One line for a score-sheet row or a finished deal.
export function dealLine(row, names) {
  if (row.outcome === "dead") return _("Dead deal: the stock ran out, nobody scores.");
  return fmt(_("%(name)s won the deal by %(outcome)s: %(points)s points."), {
    name: names[row.winner],
    outcome: outcomeName(row.outcome),
    points: row.points,
  });
}

export function clockText(seconds) {
  if (seconds >= 2 * 86400) {
    const days = Math.floor(seconds / 86400);
    return fmt(ngettext("%(count)s day left", "%(count)s days left", days), { count: days });
  }
  if (seconds >= 3600) {
    const hours = Math.floor(seconds / 3600);
    return fmt(ngettext("%(count)s hour left", "%(count)s hours left", hours), { count: hours });
  }
  const minutes = Math.floor(seconds / 60);
  const rest = String(seconds % 60).padStart(2, "0");
  return `${minutes}:${rest}`;
}

// When a rematch offer lapses, in the reader's clock: the time, with the day when not today
// (at a slow table an offer stands for days).
export function rematchExpiryText(iso) {
  const when = new Date(iso);
  const time = { hour: "2-digit", minute: "2-digit" };
  const today = when.toDateString() === new Date().toDateString();
  const text = when.toLocaleString([], today ? time : { weekday: "short", day: "numeric", month: "short", ...time });
  return fmt(_("The rematch offer stands until %(time)s."), { time: text });
}
