// LUNA's review of a finished deal, shown in the end-of-deal box (until the players' archive has
// a page of its own): a button, progress while a worker computes it (polled), then a one-line
// summary, the chance of winning the match as a small chart across the deal, and the verdict
// marks along the deal's move list. The server decides every number (bots/review.py).
import { api } from "./api.js";
import { shortName } from "./cards.js";
import { _, fmt, ngettext } from "./i18n.js";
import { actionFragment } from "./texts.js";

const POLL_MS = 1000;
const SVG = "http://www.w3.org/2000/svg";
const MARKS = { good: "✓", inaccuracy: "?!", mistake: "?", blunder: "??" };
const answers = new Map(); // deal key -> {answer, error, busy}: kept while the box is redrawn

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function svgNode(name, attributes, text) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

const percent = (chance) => `${Math.round(chance * 100)} %`;

function verdictName(verdict) {
  return { good: _("good move"), inaccuracy: _("inaccuracy"), mistake: _("mistake"), blunder: _("blunder") }[verdict];
}

// "discard 7H" as the move list says it: "discard 7♥", "knock with 7♥", "draw from the stock".
function moveName(action) {
  const [kind, card] = action.split(" ");
  const names = {
    take_upcard: _("take the upcard"),
    pass: _("pass the upcard"),
    draw_stock: _("draw from the stock"),
    take_discard: _("take the discard"),
    big_gin: _("declare big gin"),
  };
  if (kind === "discard") return fmt(_("discard %(card)s"), { card: shortName(card) });
  if (kind === "knock") return fmt(_("knock with %(card)s"), { card: shortName(card) });
  return names[kind] || action;
}

function worstMoveText(decision) {
  const loss = Math.round(decision.loss * 100);
  const move = decision.played.startsWith("knock") && decision.knock_deadwood !== null
    ? fmt(_("the knock at %(deadwood)s"), { deadwood: decision.knock_deadwood })
    : fmt(_("“%(move)s”"), { move: moveName(decision.played) });
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
  if (!parts.length) return _("No inaccuracy: every move kept the chance of winning the match within 5 % of LUNA's choice.");
  const worst = result.decisions.reduce((a, b) => (b.loss > a.loss ? b : a));
  return `${parts.join(", ")}: ${worstMoveText(worst)}.`;
}

// The seat's chance of winning the match: at the deal's start, after each of its moves, at the end.
function chanceChart(result, seat, name) {
  const width = 300;
  const height = 110;
  const pad = { left: 30, right: 8, top: 8, bottom: 16 };
  const decisions = result.decisions;
  const last = decisions.length ? decisions[decisions.length - 1].number + 1 : 1;
  const points = [[0, result.start_chances[seat], null], ...decisions.map((d) => [d.number, d.played_chance, d]), [last, result.end_chances[seat], null]];
  const x = (number) => pad.left + (number * (width - pad.left - pad.right)) / last;
  const y = (chance) => pad.top + (1 - chance) * (height - pad.top - pad.bottom);
  const svg = svgNode("svg", { class: "chart review-chart", viewBox: `0 0 ${width} ${height}`, role: "img" });
  svg.append(svgNode("title", {}, fmt(_("%(name)s's chance of winning the match across the deal"), { name })));
  for (const level of [0, 0.5, 1]) {
    svg.append(svgNode("line", { class: level === 0.5 ? "even" : "axis", x1: pad.left, y1: y(level), x2: width - pad.right, y2: y(level) }));
    svg.append(svgNode("text", { x: 2, y: y(level) + 3 }, `${level * 100}%`));
  }
  svg.append(svgNode("polyline", { class: "line0", points: points.map(([n, c]) => `${x(n)},${y(c)}`).join(" ") }));
  for (const [number, chance, decision] of points) {
    const verdict = decision ? decision.verdict : "end";
    const dot = svgNode("circle", { class: `dot verdict-${verdict}`, cx: x(number), cy: y(chance), r: decision && verdict !== "good" ? 4 : 2.5 });
    dot.append(svgNode("title", {}, decision ? fmt(_("move %(number)s: %(chance)s"), { number, chance: percent(chance) }) : percent(chance)));
    svg.append(dot);
  }
  svg.append(svgNode("text", { x: pad.left, y: height - 3 }, _("start")));
  svg.append(svgNode("text", { x: width - pad.right - 24, y: height - 3 }, _("end")));
  return svg;
}

function decisionNote(decision) {
  const note = element("div", "review-note");
  if (decision.verdict !== "good") {
    note.append(element("span", "", fmt(_("%(verdict)s: LUNA prefers “%(best)s” (%(best_chance)s against %(chance)s)."), {
      verdict: verdictName(decision.verdict), best: moveName(decision.best),
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

// The deal's moves as this page's viewer saw them, the reviewed ones marked.
function moveList(history, decisions, names) {
  const byNumber = new Map(decisions.map((d) => [d.number, d]));
  const list = element("ol", "review-moves");
  history.filter((event) => event.seat !== null && !["deal_over", "dead_deal"].includes(event.kind)).forEach((event, index) => {
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

function thresholdsText(thresholds) {
  const parts = [...thresholds].reverse().map((row) => fmt(_("%(verdict)s %(mark)s from %(loss)s"), {
    verdict: verdictName(row.verdict), mark: MARKS[row.verdict], loss: percent(row.loss),
  }));
  return fmt(_("Marks by the chance of winning the match lost against LUNA's preferred move, judged from what the player could see: %(list)s."), { list: parts.join(", ") });
}

function seatReview(review, history, names) {
  const box = element("section", "review-seat");
  box.dataset.seat = review.seat;
  box.append(element("h4", "", fmt(_("%(name)s's decisions"), { name: names[review.seat] })));
  if (review.status === "failed") {
    box.append(element("p", "", _("The review failed. Ask again to retry.")));
  } else if (review.status !== "done") {
    const bar = element("progress");
    bar.max = Math.max(review.total, 1);
    bar.value = review.done;
    box.append(element("p", "review-progress", review.total
      ? fmt(_("LUNA is reviewing: %(done)s of %(total)s decisions."), { done: review.done, total: review.total })
      : _("Waiting for LUNA…")), bar);
  } else {
    box.append(element("p", "review-summary", summaryLine(review.result)));
    box.append(chanceChart(review.result, review.seat, names[review.seat]));
    box.append(moveList(history, review.result.decisions, names));
  }
  return box;
}

function render(key, context) {
  const { state, names } = context;
  const entry = answers.get(key) || {};
  const panel = element("section", "review");
  panel.id = "review-panel";
  panel.dataset.key = key;
  panel.append(element("h3", "", _("LUNA's review")));
  if (!entry.answer) {
    const button = element("button", "btn secondary", _("Review this deal"));
    button.type = "button";
    button.id = "btn-review";
    button.disabled = Boolean(entry.busy);
    button.addEventListener("click", () => ask(key, context));
    panel.append(button);
  }
  if (entry.error) panel.append(element("p", "error", entry.error));
  if (entry.answer) {
    for (const review of entry.answer.reviews) panel.append(seatReview(review, state.deal.view.history, names));
    panel.append(element("p", "review-thresholds", thresholdsText(entry.answer.thresholds)));
  }
  return panel;
}

function redraw(key, context) {
  const shown = document.getElementById("review-panel");
  if (shown && shown.dataset.key === key) shown.replaceWith(render(key, context));
}

const finished = (answer) => answer.reviews.every((review) => review.status === "done" || review.status === "failed");

async function ask(key, context) {
  answers.set(key, { busy: true });
  redraw(key, context);
  const reply = await api.post(context.path);
  if (!reply.ok) {
    answers.set(key, { error: reply.data.detail || _("The review is not available.") });
  } else {
    answers.set(key, { answer: reply.data });
  }
  redraw(key, context);
  if (reply.ok && !finished(reply.data)) poll(key, context);
}

async function poll(key, context) {
  await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  const reply = await api.get(context.path);
  if (reply.ok) answers.set(key, { answer: reply.data });
  redraw(key, context);
  if (reply.ok && !finished(reply.data)) poll(key, context);
}

// The review panel for the finished deal of ``state`` (a table state), or null.
export function reviewPanel(token, state, names) {
  const deal = state.deal;
  if (!token || !deal || !deal.view || !deal.view.result || !state.match) return null;
  const seated = state.you && state.you.seat !== null;
  const open = state.status === "match_over" && state.options && state.options.visibility === "public";
  if (!seated && !open) return null; // the server would refuse: a spectator of a public table's finished match only
  const path = `/tables/${token}/matches/${state.match.number}/deals/${deal.number}/review`;
  return render(path, { state, names, path });
}
