// Practice from your own mistakes (/me/practice/): the player's positions not yet answered, one
// at a time, as their table showed them (their hand, the pile, what the opponent was seen to
// take); they choose the move again, then LUNA's choice and its reason (tables/practice).
import { api } from "./api.js";
import { cardFace, shortNames } from "./cards.js";
import { $, element } from "./dom.js";
import { _, fmt } from "./i18n.js";
import { verdictName } from "./review_parts.js";
import { moveName } from "./texts.js";

const app = $("practice-app");
const suits = app.dataset.suits;
let positions = [];
let at = 0;

function cardsRow(label, codes, className) {
  const row = element("div", `practice-cards ${className}`);
  row.append(element("span", "muted", label));
  for (const code of codes) row.append(cardFace(code, suits));
  if (!codes.length) row.append(element("span", "muted", "—"));
  return row;
}

function board(view) {
  const top = view.discard_pile.length ? [view.discard_pile[view.discard_pile.length - 1]] : [];
  const opponent = view.known_cards[1 - view.seat];
  return [
    cardsRow(_("Your hand:"), view.hand, "practice-hand"),
    cardsRow(_("Top of the pile:"), top, "practice-pile"),
    cardsRow(_("Seen taken by the opponent:"), opponent, "practice-opponent"),
  ];
}

function reasonText(reason) {
  const melds = reason.melds.length ? reason.melds.map((meld) => shortNames(meld)).join(" · ") : _("none");
  const took = reason.opponent_took.length ? shortNames(reason.opponent_took) : _("nothing");
  return fmt(_("Melds: %(melds)s; deadwood %(deadwood)s; the opponent was seen to take %(took)s."), { melds, deadwood: reason.deadwood, took });
}

function answerBox(position) {
  const box = element("div", "practice-answer");
  box.append(element("p", "practice-luna", position.matches_luna
    ? fmt(_("LUNA plays “%(move)s” too."), { move: moveName(position.luna) })
    : fmt(_("LUNA plays “%(move)s”; you answered “%(answer)s”."), { move: moveName(position.luna), answer: moveName(position.answer) })));
  box.append(element("p", "practice-reason", reasonText(position.reason)));
  box.append(element("p", "muted", fmt(_("In the deal you played “%(move)s”: %(verdict)s, %(points)s points lost."), {
    move: moveName(position.played), verdict: verdictName(position.verdict), points: position.points_loss.toFixed(1),
  })));
  const next = element("button", "btn", at + 1 < positions.length ? _("Next position") : _("Done"));
  next.type = "button";
  next.id = "practice-next";
  next.addEventListener("click", () => { at += 1; render(); });
  box.append(next);
  return box;
}

function render(answered) {
  app.replaceChildren();
  if (at >= positions.length) {
    app.append(element("p", "practice-empty", _("No position left to practise: review a deal of yours, then choose “Practice” under your decisions.")));
    return;
  }
  const position = positions[at];
  app.dataset.position = String(position.id);
  app.append(element("h2", "", fmt(_("Position %(at)s of %(count)s: deal %(deal)s, move %(number)s"), {
    at: at + 1, count: positions.length, deal: position.deal, number: position.number,
  })));
  app.append(...board(position.view));
  if (answered) {
    app.append(answerBox(answered));
    return;
  }
  app.append(element("p", "", _("What do you play?")));
  const moves = element("div", "practice-moves");
  for (const action of position.view.legal_actions) {
    const button = element("button", "btn secondary", moveName(action));
    button.type = "button";
    button.dataset.action = action;
    button.addEventListener("click", () => answer(position, action));
    moves.append(button);
  }
  app.append(moves);
}

async function answer(position, action) {
  const reply = await api.post(`/me/practice/${position.id}/answer`, { action });
  if (!reply.ok) {
    app.append(element("p", "error", reply.data.detail || _("The answer was not taken.")));
    return;
  }
  render(reply.data);
}

async function load() {
  const reply = await api.get("/me/practice");
  if (!reply.ok) {
    app.replaceChildren(element("p", "error", reply.data.detail || _("The practice is not available.")));
    return;
  }
  positions = reply.data.positions.filter((position) => !position.answered);
  render();
  app.dataset.ready = "1";
}

load();
