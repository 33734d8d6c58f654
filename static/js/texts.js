// The sentences the table shows: what a player did, how a deal ended, how long a clock has left.
import { shortName } from "./cards.js";
import { _, fmt, ngettext } from "./i18n.js";

// What one event did, without its subject: "took 7♥ from the pile".
export function actionFragment(event) {
  const card = event.card ? shortName(event.card) : "";
  switch (event.kind) {
    case "take_upcard":
      return fmt(_("took the upcard %(card)s"), { card });
    case "pass":
      return _("passed");
    case "draw_stock":
      return card ? fmt(_("drew %(card)s from the stock"), { card }) : _("drew from the stock");
    case "take_discard":
      return fmt(_("took %(card)s from the pile"), { card });
    case "discard":
      return fmt(_("discarded %(card)s"), { card });
    case "knock":
      return fmt(_("knocked, discarding %(card)s"), { card });
    case "big_gin":
      return _("declared big gin");
    default:
      return "";
  }
}

export function joinFragments(fragments) {
  if (fragments.length < 2) return fragments.join("");
  return `${fragments.slice(0, -1).join(", ")} ${_("and")} ${fragments[fragments.length - 1]}`;
}

export function sentence(name, fragments) {
  return fmt(_("%(name)s %(action)s"), { name, action: joinFragments(fragments) });
}

const OUTCOME_NAMES = () => ({
  knock: _("knock"),
  gin: _("gin"),
  big_gin: _("big gin"),
  undercut: _("undercut"),
  dead: _("dead deal"),
});

export function outcomeName(outcome) {
  return OUTCOME_NAMES()[outcome] || outcome;
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
