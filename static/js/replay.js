// The deal replay page (/matches/<id>/deals/<n>/): steps through the positions the server
// rebuilt with the engine (the page decides no rule). ←/→ one move, Home/End the ends; the
// step is in the address (?step=N, or #N) so that a link opens at that move.
import { cardFace, shortNames } from "./cards.js";
import { $, element, pageData } from "./dom.js";
import { _, fmt } from "./i18n.js";
import { replayReview } from "./replay_review.js";
import { summaryContent } from "./summary.js";
import { actionFragment, sentence } from "./texts.js";

const app = $("replay-app");
const data = pageData("replay-data");
const suits = app.dataset.suits;
const names = data.match.players.map((player) => (player ? player.name : "—"));
const last = data.steps.length - 1;
// A player sees their own hand at the bottom, as at the table; others see seat 0 there.
const bottom = app.dataset.seat === "1" ? 1 : 0;
const seats = { top: 1 - bottom, bottom };
let current = 0;

function stepFromAddress() {
  const raw = new URLSearchParams(window.location.search).get("step") ?? window.location.hash.slice(1);
  const number = Number.parseInt(raw, 10);
  return Number.isNaN(number) ? 0 : Math.min(Math.max(number, 0), last);
}

function moveText(step) {
  const move = step.move;
  if (!move) {
    return fmt(_("%(name)s dealt; the upcard is %(card)s."), {
      name: names[data.deal.dealer], card: shortNames(step.discard_pile.slice(-1)),
    });
  }
  return sentence(names[move.seat], [actionFragment(move)]);
}

function layoffLines() {
  const showdown = data.showdown;
  if (!showdown || !showdown.result.layoffs) return [];
  const defender = names[1 - showdown.knocker];
  return showdown.result.layoffs.map((layoff) => fmt(_("%(name)s laid off %(card)s onto %(meld)s."), {
    name: defender, card: shortNames([layoff.card]), meld: shortNames(layoff.meld),
  }));
}

function handRow(hand, moved) {
  const row = element("div", "mini-row");
  const groups = hand.melds.map((cards) => ({ kind: "meld", cards }));
  groups.push({ kind: "deadwood", cards: hand.deadwood_cards });
  for (const group of groups) {
    if (!group.cards.length) continue;
    const box = element("div", `mini-group ${group.kind}`);
    if (group.kind === "meld") box.setAttribute("aria-label", fmt(_("meld: %(cards)s"), { cards: shortNames(group.cards) }));
    for (const code of group.cards) {
      const card = cardFace(code, suits);
      if (code === moved) card.classList.add("moved");
      box.append(card);
    }
    row.append(box);
  }
  return row;
}

function drawSeat(place, step) {
  const seat = seats[place];
  const hand = step.hands[seat];
  const move = step.move;
  const moved = move && move.seat === seat && ["draw_stock", "take_discard", "take_upcard"].includes(move.kind) ? move.card : null;
  const heading = $(`replay-name-${place}`);
  const url = data.match.players[seat]?.player_url;
  if (url) {
    const link = element("a", "", names[seat]);
    link.href = url;
    heading.replaceChildren(link);
  } else {
    heading.textContent = names[seat];
  }
  if (step.to_play === seat) heading.append(element("span", "tag go", _("to play")));
  $(`replay-hand-${place}`).replaceChildren(handRow(hand, moved));
  $(`replay-deadwood-${place}`).textContent = fmt(_("Deadwood: %(points)s"), { points: hand.deadwood });
}

function drawPiles(step) {
  $("replay-stock").textContent = fmt(_("Stock: %(count)s"), { count: step.stock_count });
  const pile = $("replay-discards");
  pile.replaceChildren(...step.discard_pile.slice(-5).map((code) => cardFace(code, suits)));
  pile.setAttribute("aria-label", fmt(_("Discard pile, top last: %(cards)s"), { cards: shortNames(step.discard_pile.slice(-5)) }));
  $("replay-discard-count").textContent = fmt(_("Discard pile: %(count)s"), { count: step.discard_pile.length });
}

function drawShowdown(atEnd) {
  const box = $("replay-showdown");
  box.hidden = !(atEnd && data.showdown);
  if (box.hidden) return;
  const showdown = data.showdown;
  const state = {
    status: "between_deals",
    deal: {
      number: data.deal.number,
      view: { result: showdown.result, knocker: showdown.knocker, ruleset: { knock_face_down: showdown.knock_face_down } },
      dead_hands: showdown.dead_hands,
    },
    match: { number: data.match.number, score_sheet: showdown.score_sheet, dealer_next: null },
    seats: data.match.players,
  };
  const content = summaryContent(state, names, suits, true);
  $("replay-showdown-title").textContent = content.title;
  $("replay-showdown-body").replaceWith(Object.assign(content.body, { id: "replay-showdown-body" }));
}

function drawLog() {
  const list = $("replay-moves");
  data.steps.forEach((step, index) => {
    const item = element("li");
    const link = element("a", "", moveText(step));
    link.href = `?step=${index}`;
    link.dataset.step = String(index);
    item.append(link);
    list.append(item);
  });
  list.addEventListener("click", (event) => {
    const link = event.target.closest("a[data-step]");
    if (!link) return;
    event.preventDefault();
    go(Number(link.dataset.step));
  });
}

function draw() {
  const step = data.steps[current];
  const atEnd = current === last;
  $("replay-counter").textContent = fmt(_("Move %(step)s of %(total)s"), { step: current, total: last });
  const line = $("replay-move");
  line.replaceChildren(element("span", "", moveText(step)));
  if (atEnd) for (const text of layoffLines()) line.append(element("span", "layoff", ` ${text}`));
  if (showReview) showReview(current, line);
  drawSeat("top", step);
  drawSeat("bottom", step);
  drawPiles(step);
  drawShowdown(atEnd);
  $("replay-first").disabled = $("replay-prev").disabled = current === 0;
  $("replay-next").disabled = $("replay-last").disabled = atEnd;
  for (const link of $("replay-moves").querySelectorAll("a[data-step]:not(.review-mark)")) {
    if (Number(link.dataset.step) === current) link.setAttribute("aria-current", "step");
    else link.removeAttribute("aria-current");
  }
}

function go(step) {
  const next = Math.min(Math.max(step, 0), last);
  if (next === current) return;
  current = next;
  window.history.replaceState(null, "", `?step=${current}`);
  draw();
}

const KEYS = { ArrowLeft: () => current - 1, ArrowRight: () => current + 1, Home: () => 0, End: () => last };

document.addEventListener("keydown", (event) => {
  const target = event.target;
  if (event.altKey || event.ctrlKey || event.metaKey || target.closest("input, select, textarea")) return;
  const key = KEYS[event.key];
  if (!key) return;
  event.preventDefault();
  go(key());
});
$("replay-first").addEventListener("click", () => go(0));
$("replay-prev").addEventListener("click", () => go(current - 1));
$("replay-next").addEventListener("click", () => go(current + 1));
$("replay-last").addEventListener("click", () => go(last));

// LUNA's review, for a finished match (a running one is staff's only: its box is the table's).
function setupReview() {
  const box = $("replay-review");
  if (!box || data.match.status !== "over") return null;
  box.hidden = false;
  return replayReview({
    box, moves: $("replay-moves"), names, lastStep: last, anonymous: box.dataset.anonymous === "1", go,
    path: `/matches/${data.match.id}/deals/${data.deal.number}/review`,
  });
}

drawLog();
current = stepFromAddress();
const showReview = setupReview();
draw();
