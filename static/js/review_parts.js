// LUNA's review of a finished deal, the pieces every page draws it with (the end-of-deal box:
// review.js; the archive's replay: replay_review.js): the marks and their names, the one-line
// summary, the chance of winning the match as a small chart, a marked move's note, the
// thresholds, the progress while a worker computes it, and the requests (ask, read, poll).
// The server decides every number (bots/review.py).
import { api } from "./api.js";
import { element, svgNode } from "./dom.js";
import { _, fmt, ngettext } from "./i18n.js";
import { moveName } from "./texts.js";

const POLL_MS = 1000;
export const MARKS = { good: "✓", inaccuracy: "?!", mistake: "?", blunder: "??" };
const answers = new Map(); // review path -> {answer, error, busy}: kept while a page redraws

const percent = (chance) => `${Math.round(chance * 100)} %`;
const signed = (points) => `${points > 0 ? "+" : ""}${points.toFixed(1)}`;
// A review stored before the points scale judged in match-winning chance (bots/review_verdicts.py).
const inPoints = (result) => result.scale === "points";
const lossOf = (result, decision) => (inPoints(result) ? decision.points_loss : decision.loss);

export function verdictName(verdict) {
  return { good: _("good move"), inaccuracy: _("inaccuracy"), mistake: _("mistake"), blunder: _("blunder") }[verdict];
}

function worstMoveText(result, decision) {
  const move = decision.played.startsWith("knock") && decision.knock_deadwood !== null
    ? fmt(_("the knock at %(deadwood)s"), { deadwood: decision.knock_deadwood })
    : fmt(_("“%(move)s”"), { move: moveName(decision.played) });
  if (inPoints(result)) {
    return fmt(_("%(move)s on move %(number)s lost %(points)s points of the deal"), { move, number: decision.number, points: decision.points_loss.toFixed(1) });
  }
  const loss = Math.round(decision.loss * 100);
  return fmt(_("%(move)s on move %(number)s lost %(loss)s % of the match"), { move, number: decision.number, loss });
}

export function summaryLine(result) {
  const counts = { inaccuracy: 0, mistake: 0, blunder: 0 };
  for (const decision of result.decisions) if (decision.verdict in counts) counts[decision.verdict] += 1;
  const parts = [];
  if (counts.inaccuracy) parts.push(fmt(ngettext("%(count)s inaccuracy", "%(count)s inaccuracies", counts.inaccuracy), { count: counts.inaccuracy }));
  if (counts.mistake) parts.push(fmt(ngettext("%(count)s mistake", "%(count)s mistakes", counts.mistake), { count: counts.mistake }));
  if (counts.blunder) parts.push(fmt(ngettext("%(count)s blunder", "%(count)s blunders", counts.blunder), { count: counts.blunder }));
  if (!result.decisions.length) return _("No decision to review: every move of this seat was forced.");
  if (!parts.length && inPoints(result)) {
    const least = result.thresholds[result.thresholds.length - 1][1];
    return fmt(_("No inaccuracy: every move kept within %(points)s points of the deal of LUNA's choice."), { points: least });
  }
  if (!parts.length) return _("No inaccuracy: every move kept the chance of winning the match within 5 % of LUNA's choice.");
  const worst = result.decisions.reduce((a, b) => (lossOf(result, b) > lossOf(result, a) ? b : a));
  return `${parts.join(", ")}: ${worstMoveText(result, worst)}.`;
}

// The seat's accuracy in the deal (0-100, from the mean loss in points), or null (old scale, none).
export function accuracyNote(result) {
  if (result.accuracy === null || result.accuracy === undefined) {
    if (inPoints(result)) return null;
    return element("p", "review-accuracy muted", _("Reviewed on the old scale (match-winning chance), without an accuracy: ask again for a review in points."));
  }
  const note = element("p", "review-accuracy", fmt(_("Accuracy: %(accuracy)s"), { accuracy: Math.round(result.accuracy) }));
  note.dataset.accuracy = String(result.accuracy);
  return note;
}

const CHART = { width: 300, height: 110, pad: { left: 30, right: 8, top: 8, bottom: 16 } };
const chartX = (number, last) => CHART.pad.left + (number * (CHART.width - CHART.pad.left - CHART.pad.right)) / last;

// The seat's chance of winning the match: at the deal's start, after each of its moves, at the
// end. ``span``: the move number drawn at the right edge (the deal's last move on the replay;
// by default one past the seat's last decision).
export function chanceChart(result, seat, name, span) {
  const { width, height, pad } = CHART;
  const decisions = result.decisions;
  const last = span || (decisions.length ? decisions[decisions.length - 1].number + 1 : 1);
  const points = [[0, result.start_chances[seat], null], ...decisions.map((d) => [d.number, d.played_chance, d]), [last, result.end_chances[seat], null]];
  const x = (number) => chartX(number, last);
  const y = (chance) => pad.top + (1 - chance) * (height - pad.top - pad.bottom);
  const svg = svgNode("svg", { class: "chart review-chart", viewBox: `0 0 ${width} ${height}`, role: "img" });
  svg.dataset.span = String(last);
  svg.append(svgNode("title", {}, fmt(_("%(name)s's chance of winning the match across the deal"), { name })));
  for (const level of [0, 0.5, 1]) {
    svg.append(svgNode("line", { class: level === 0.5 ? "even" : "axis", x1: pad.left, y1: y(level), x2: width - pad.right, y2: y(level) }));
    svg.append(svgNode("text", { x: 2, y: y(level) + 3 }, `${level * 100}%`));
  }
  svg.append(svgNode("polyline", { class: "line0", points: points.map(([n, c]) => `${x(n)},${y(c)}`).join(" ") }));
  for (const [number, chance, decision] of points) {
    const verdict = decision ? decision.verdict : "end";
    const dot = svgNode("circle", { class: `dot verdict-${verdict}`, cx: x(number), cy: y(chance), r: decision && verdict !== "good" ? 4 : 2.5 });
    dot.dataset.step = String(number); // the move it stands for (a replay jumps there)
    dot.append(svgNode("title", {}, decision ? fmt(_("move %(number)s: %(chance)s"), { number, chance: percent(chance) }) : percent(chance)));
    svg.append(dot);
  }
  svg.append(svgNode("text", { x: pad.left, y: height - 3 }, _("start")));
  svg.append(svgNode("text", { x: width - pad.right - 24, y: height - 3 }, _("end")));
  return svg;
}

// A vertical line on ``svg`` (a chanceChart) at move ``number``: where a replay stands.
export function markChartStep(svg, number) {
  let line = svg.querySelector("line.now");
  if (!line) {
    line = svgNode("line", { class: "now", y1: CHART.pad.top, y2: CHART.height - CHART.pad.bottom });
    svg.append(line);
  }
  const x = chartX(Math.min(number, Number(svg.dataset.span)), Number(svg.dataset.span));
  line.setAttribute("x1", x);
  line.setAttribute("x2", x);
}

export function decisionNote(decision) {
  const note = element("div", "review-note");
  const points = decision.points_loss !== undefined && decision.points_loss !== null;
  if (decision.verdict !== "good" && points) {
    note.append(element("span", "", fmt(_("%(verdict)s: LUNA prefers “%(best)s” (%(best_points)s points of the deal against %(points)s)."), {
      verdict: verdictName(decision.verdict), best: moveName(decision.points_best),
      best_points: signed(decision.best_points), points: signed(decision.played_points),
    })));
  } else if (decision.verdict !== "good") {
    note.append(element("span", "", fmt(_("%(verdict)s: LUNA prefers “%(best)s” (%(best_chance)s against %(chance)s)."), {
      verdict: verdictName(decision.verdict), best: moveName(decision.best),
      best_chance: percent(decision.best_chance), chance: percent(decision.played_chance),
    })));
  }
  if (points && decision.match_differs) {
    note.append(element("span", "match-judgement", fmt(_("For the match: %(verdict)s, “%(best)s” was best (%(best_chance)s against %(chance)s)."), {
      verdict: verdictName(decision.match_verdict), best: moveName(decision.best),
      best_chance: percent(decision.best_chance), chance: percent(decision.played_chance),
    })));
  }
  if (decision.hindsight_verdict) {
    note.append(element("span", "hindsight", fmt(_("With hindsight (the real hidden cards): %(verdict)s, “%(best)s” was best."), {
      verdict: verdictName(decision.hindsight_verdict), best: moveName(decision.hindsight_best),
    })));
  }
  return note;
}

export function thresholdsText(answer) {
  const parts = [...answer.thresholds].reverse().map((row) => fmt(_("%(verdict)s %(mark)s from %(loss)s"), {
    verdict: verdictName(row.verdict), mark: MARKS[row.verdict], loss: fmt(_("%(points)s points"), { points: row.loss }),
  }));
  const match = [...answer.match_thresholds].reverse().map((row) => fmt(_("%(verdict)s from %(loss)s"), {
    verdict: verdictName(row.verdict), loss: percent(row.loss),
  }));
  return fmt(_("Marks by the expected points of the deal lost against LUNA's preferred move, judged from what the player could see, whatever the score: %(list)s. Where the score changes the best play, the match judgement (the chance of winning the match lost: %(match)s) is shown too. Accuracy is 100 × e^(−mean loss in points ÷ 4)."), { list: parts.join(", "), match: match.join(", ") });
}

// A seat's review still being computed, or failed: the line (and bar) that says so.
export function progressNote(review) {
  if (review.status === "failed") return [element("p", "", _("The review failed. Ask again to retry."))];
  const bar = element("progress");
  bar.max = Math.max(review.total, 1);
  bar.value = review.done;
  const text = review.total
    ? fmt(_("LUNA is reviewing: %(done)s of %(total)s decisions."), { done: review.done, total: review.total })
    : _("Waiting for LUNA…");
  return [element("p", "review-progress", text), bar];
}

// For an anonymous visitor: asking for a review takes an identity (the API answers 401).
export function loginNote(href) {
  const note = element("p", "review-login muted");
  const link = element("a", "", _("Log in to ask for a review"));
  link.href = href;
  note.append(link, element("span", "", ` ${_("(reading a review needs no account; asking for one does).")}`));
  return note;
}

export const reviewEntry = (path) => answers.get(path) || {};

export const finished = (answer) => answer.reviews.every((review) => review.status === "done" || review.status === "failed");

async function poll(path, onChange) {
  await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  const reply = await api.get(path);
  if (reply.ok) answers.set(path, { answer: reply.data });
  onChange();
  if (reply.ok && !finished(reply.data)) poll(path, onChange);
}

// Ask the server for the review at ``path`` (POST), then follow it until it is computed;
// ``onChange`` redraws from reviewEntry(path) after every answer.
export async function askReview(path, onChange) {
  answers.set(path, { busy: true });
  onChange();
  const reply = await api.post(path);
  if (!reply.ok) {
    answers.set(path, { error: reply.data.detail || _("The review is not available.") });
  } else {
    answers.set(path, { answer: reply.data });
  }
  onChange();
  if (reply.ok && !finished(reply.data)) poll(path, onChange);
}

// Read the review already stored at ``path`` (GET, nothing computed), following it if a worker
// is still at it.
export async function loadReview(path, onChange) {
  const reply = await api.get(path);
  if (reply.ok) answers.set(path, { answer: reply.data, loaded: true });
  else answers.set(path, { error: reply.data.detail || _("The review is not available.") });
  onChange();
  if (reply.ok && reply.data.reviews.length && !finished(reply.data)) poll(path, onChange);
}
