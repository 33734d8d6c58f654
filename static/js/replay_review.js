// LUNA's review on the archive's deal replay (/matches/<id>/deals/<n>/): the stored review is
// read at once (anyone who may see the match reads it, no identity needed); without one, a
// "Review this deal" button (or, for an anonymous visitor, a link to log in: asking takes an
// identity), progress while a worker computes it, then each seat's one-line summary and chance
// chart (the step shown marked on it), the thresholds, the marks (✓ ?! ? ??) beside the moves
// of the replay's own move list (a mark is a link to its step) and, at a marked step, LUNA's
// preferred move and the hindsight line. The pieces are review_parts.js's, as in the end-of-deal box.
import { api } from "./api.js";
import { element } from "./dom.js";
import { _, fmt } from "./i18n.js";
import {
  MARKS, accuracyNote, askReview, chanceChart, decisionNote, loadReview, loginNote, markChartStep, progressNote, reviewEntry,
  summaryLine, thresholdsText, verdictName,
} from "./review_parts.js";

// ``box``: the page's empty review section (data-login: the login link for anonymous visitors).
// ``moves``: the replay's move list, one item per step with its a[data-step]. Returns
// showStep(step, line), called by the replay after it draws a step (``line``: the move's line).
// ``go(step)``: the replay's own stepping, for a click on a chart's point.
export function replayReview({ box, moves, path, names, lastStep, anonymous, go }) {
  let byStep = new Map();
  let current = 0;
  let moveLine = null;

  function decisionsOf(answer) {
    const done = answer ? answer.reviews.filter((review) => review.status === "done") : [];
    return new Map(done.flatMap((review) => review.result.decisions).map((decision) => [decision.number, decision]));
  }

  function drawMarks() {
    for (const old of moves.querySelectorAll(".review-mark, .review-note")) old.remove();
    for (const [step, decision] of byStep) {
      const item = moves.querySelector(`a[data-step="${step}"]`)?.closest("li");
      if (!item) continue;
      const mark = element("a", `review-mark verdict-${decision.verdict}`, MARKS[decision.verdict]);
      mark.href = `?step=${step}`;
      mark.dataset.step = String(step);
      mark.title = verdictName(decision.verdict);
      mark.setAttribute("aria-label", fmt(_("move %(number)s: %(verdict)s"), { number: step, verdict: verdictName(decision.verdict) }));
      item.append(" ", mark);
      if (decision.verdict !== "good" || decision.hindsight_verdict) item.append(decisionNote(decision));
    }
  }

  function seatPart(review) {
    const part = element("section", "review-seat");
    part.dataset.seat = review.seat;
    part.append(element("h3", "", fmt(_("%(name)s's decisions"), { name: names[review.seat] })));
    if (review.status !== "done") {
      part.append(...progressNote(review));
    } else {
      part.append(element("p", "review-summary", summaryLine(review.result)));
      const accuracy = accuracyNote(review.result);
      if (accuracy) part.append(accuracy);
      part.append(chanceChart(review.result, review.seat, names[review.seat], lastStep));
      const practice = practiceButton(review);
      if (practice) part.append(practice);
    }
    return part;
  }

  // The viewer's own seat, reviewed in points with mistakes or blunders: practise them
  // (tables/practice), then go to the practice page.
  function practiceButton(review) {
    const marked = review.result.decisions.some((d) => d.verdict === "mistake" || d.verdict === "blunder");
    if (String(review.seat) !== box.dataset.seat || review.result.scale !== "points" || !marked) return null;
    const button = element("button", "btn", _("Practice these mistakes"));
    button.type = "button";
    button.id = "btn-practice";
    button.addEventListener("click", async () => {
      button.disabled = true;
      const reply = await api.post(path.replace(/review$/, "practice"));
      if (reply.ok) window.location.assign("/me/practice/");
      else button.after(element("p", "error", reply.data.detail || _("The practice is not available.")));
    });
    return button;
  }

  function askButton(busy) {
    const button = element("button", "btn secondary", _("Review this deal"));
    button.type = "button";
    button.id = "btn-review";
    button.disabled = busy;
    button.addEventListener("click", () => askReview(path, draw));
    return button;
  }

  function draw() {
    const entry = reviewEntry(path);
    const answer = entry.answer;
    const parts = [element("h2", "", _("LUNA's review"))];
    if (!answer || !answer.reviews.length) {
      if (anonymous) parts.push(loginNote(box.dataset.login));
      else if (!entry.error || entry.busy) parts.push(askButton(Boolean(entry.busy) || (!answer && !entry.error)));
    }
    if (entry.error) parts.push(element("p", "error", entry.error));
    if (answer && answer.reviews.length) {
      parts.push(...answer.reviews.map(seatPart));
      parts.push(element("p", "review-thresholds", thresholdsText(answer)));
    }
    box.replaceChildren(...parts);
    byStep = decisionsOf(answer);
    drawMarks();
    showStep(current, moveLine);
  }

  // Mark where the replay stands: on each chart, and the step's verdict under its move line.
  function showStep(step, line) {
    current = step;
    moveLine = line;
    for (const chart of box.querySelectorAll("svg.review-chart")) markChartStep(chart, step);
    if (!line) return;
    for (const old of line.querySelectorAll(".review-now")) old.remove();
    const decision = byStep.get(step);
    if (!decision) return;
    const now = element("span", `review-now verdict-${decision.verdict}`);
    now.append(element("strong", "mark", ` ${MARKS[decision.verdict]} `));
    if (decision.verdict !== "good" || decision.hindsight_verdict) now.append(decisionNote(decision));
    else now.append(element("span", "", verdictName(decision.verdict)));
    line.append(now);
  }

  box.addEventListener("click", (event) => {
    const dot = event.target.closest("svg.review-chart circle[data-step]");
    if (dot) go(Number(dot.dataset.step));
  });
  draw();
  loadReview(path, draw);
  return showStep;
}
