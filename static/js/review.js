// LUNA's review of a finished deal in the end-of-deal box: a button, progress while a worker
// computes it (polled), then per seat a one-line summary, the chance chart and the verdict marks
// along the deal's move list (static/js/review_parts.js draws the pieces).
import { element } from "./dom.js";
import { _, fmt } from "./i18n.js";
import {
  MARKS, accuracyNote, askReview, chanceChart, decisionNote, loginNote, progressNote, reviewEntry, summaryLine, thresholdsText,
  verdictName,
} from "./review_parts.js";
import { actionFragment, isMove } from "./texts.js";

export { summaryLine };

// The deal's moves as this page's viewer saw them, the reviewed ones marked.
function moveList(history, decisions, names) {
  const byNumber = new Map(decisions.map((d) => [d.number, d]));
  const list = element("ol", "review-moves");
  history.filter((event) => event.seat !== null && isMove(event)).forEach((event, index) => {
    const number = index + 1;
    const decision = byNumber.get(number);
    const item = element("li", decision ? `verdict-${decision.verdict}` : "");
    item.value = number;
    item.append(element("span", "", fmt(_("%(name)s %(action)s"), { name: names[event.seat], action: actionFragment(event) })));
    if (decision) {
      const mark = item.appendChild(element("strong", "mark", ` ${MARKS[decision.verdict]}`));
      mark.title = verdictName(decision.verdict);
    }
    if (decision && (decision.verdict !== "good" || decision.hindsight_verdict)) item.append(decisionNote(decision));
    list.append(item);
  });
  return list;
}

function seatReview(review, history, names) {
  const box = element("section", "review-seat");
  box.dataset.seat = review.seat;
  box.append(element("h4", "", fmt(_("%(name)s's decisions"), { name: names[review.seat] })));
  if (review.status !== "done") {
    box.append(...progressNote(review));
  } else {
    box.append(element("p", "review-summary", summaryLine(review.result)));
    const accuracy = accuracyNote(review.result);
    if (accuracy) box.append(accuracy);
    box.append(chanceChart(review.result, review.seat, names[review.seat]));
    box.append(moveList(history, review.result.decisions, names));
  }
  return box;
}

function render(key, context) {
  const { state, names } = context;
  const entry = reviewEntry(key);
  const panel = element("section", "review");
  panel.id = "review-panel";
  panel.dataset.key = key;
  panel.append(element("h3", "", _("LUNA's review")));
  if (!entry.answer && context.anonymous) {
    panel.append(loginNote(`/accounts/login/?next=${encodeURIComponent(window.location.pathname)}`));
  } else if (!entry.answer) {
    const button = element("button", "btn secondary", _("Review this deal"));
    button.type = "button";
    button.id = "btn-review";
    button.disabled = Boolean(entry.busy);
    button.addEventListener("click", () => askReview(key, () => redraw(key, context)));
    panel.append(button);
  }
  if (entry.error) panel.append(element("p", "error", entry.error));
  if (entry.answer) {
    for (const review of entry.answer.reviews) panel.append(seatReview(review, state.deal.view.history, names));
    panel.append(element("p", "review-thresholds", thresholdsText(entry.answer)));
  }
  return panel;
}

function redraw(key, context) {
  const shown = document.getElementById("review-panel");
  if (shown && shown.dataset.key === key) shown.replaceWith(render(key, context));
}

// The review panel for the finished deal of ``state`` (a table state), or null.
export function reviewPanel(token, state, names) {
  const deal = state.deal;
  if (!token || !deal || !deal.view || !deal.view.result || !state.match) return null;
  const seated = state.you && state.you.seat !== null;
  const open = state.status === "match_over" && state.options && state.options.visibility === "public";
  if (!seated && !open) return null; // the server would refuse: a spectator of a public table's finished match only
  const path = `/tables/${token}/matches/${state.match.number}/deals/${deal.number}/review`;
  const app = document.getElementById("table-app");
  const anonymous = !seated && Boolean(app) && !app.dataset.hasPlayer; // asking takes an identity
  return render(path, { state, names, path, anonymous });
}
