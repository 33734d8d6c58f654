// Drawing the table page: render() redraws all of it from the state; the felt is in
// table-board.js, and this module draws what surrounds it (buttons, status lines, the lobby,
// the clock, the score sheet and the end-of-deal box).
import { cardName } from "./cards.js";
import { scoreChart } from "./chart.js";
import { _, fmt } from "./i18n.js";
import { soundOn } from "./sound.js";
import { matchSheet, seatUrls, summaryContent } from "./summary.js";
import { actionFragment, clockText, rematchExpiryText, sentence } from "./texts.js";
import { botMark, drawBoard } from "./table-board.js";
import { drawMoveLog, drawSpectators } from "./table-log.js";
import {
  $, app, clear, coach, isLegal, matchArchiveUrl, matchTarget, mySeat, names, plannedKnock, show, suitsUrl, ui, view,
} from "./table-state.js";

export function render() {
  drawBoard();
  drawActions();
  drawStatus();
  drawLastAction();
  drawLobby();
  drawClock();
  drawScores();
  drawMoveLog();
  drawSpectators();
  drawSummary();
  drawActions(); // the SUMMARY button depends on whether the box is open
  $("sort-modes").querySelectorAll("button").forEach((button) => button.setAttribute("aria-pressed", String(button.dataset.sort === ui.sort)));
  $("btn-points").setAttribute("aria-pressed", String(ui.showPoints));
  $("btn-sound").setAttribute("aria-pressed", String(soundOn()));
  $("btn-sound").textContent = soundOn() ? _("Sound on") : _("Sound off");
}

function drawActions() {
  const v = view();
  const status = ui.state.status;
  const seated = mySeat() !== null;
  const myTurn = Boolean(v && status === "playing" && v.to_play === mySeat());
  show("btn-take-upcard", myTurn && isLegal("take_upcard"));
  show("btn-pass", myTurn && isLegal("pass"));
  show("btn-draw", myTurn && isLegal("draw_stock"));
  show("btn-take-pile", myTurn && isLegal("take_discard"));
  show("btn-big-gin", myTurn && isLegal("big_gin"));
  const knock = myTurn ? plannedKnock() : null;
  const knockButton = $("btn-knock");
  knockButton.hidden = !knock;
  if (knock) {
    const gin = knock.deadwood === 0;
    knockButton.textContent = gin ? _("GIN") : `${_("KNOCK")} · ${knock.deadwood}`;
    knockButton.classList.toggle("gin", gin);
    knockButton.setAttribute("aria-label", fmt(gin ? _("Gin, discarding %(card)s") : _("Knock, discarding %(card)s and keeping %(points)s deadwood"), { card: cardName(knock.card), points: knock.deadwood }));
  }
  show("btn-hint", myTurn && v.phase === "discard" && Boolean(coach() && coach().best_discard));
  $("btn-hint").setAttribute("aria-pressed", String(ui.hint));
  show("btn-next-deal", seated && status === "between_deals");
  // A resignation or a forfeit ends the match mid-deal: its box reopens all the same.
  const ended = Boolean(v && v.phase === "over") || status === "match_over";
  show("btn-summary", ended && $("summary").hidden);
  show("menu-resign", seated && (status === "playing" || status === "between_deals"));
}

export function statusText() {
  const v = view();
  const status = ui.state.status;
  const n = names();
  if (status === "waiting") return _("Waiting for a second player.");
  if (status === "ready") return ui.state.you.is_owner ? _("Both seats are taken: start the match.") : fmt(_("Waiting for %(name)s to start the match."), { name: ui.state.owner });
  if (status === "between_deals") return _("The deal is over.");
  if (status === "match_over") return _("The match is over.");
  if (!v) return "";
  const mine = v.to_play === mySeat();
  const who = n[v.to_play];
  if (v.phase === "offer") return mine ? _("Your move: take the upcard or pass.") : fmt(_("%(name)s decides on the upcard."), { name: who });
  if (v.phase === "draw") return mine ? _("Your move: draw from the stock or take from the pile.") : fmt(_("%(name)s is drawing."), { name: who });
  if (v.phase === "discard") return mine ? _("Discard a card (tap it twice, or drag it to the pile).") : fmt(_("%(name)s is discarding."), { name: who });
  return "";
}

function drawStatus() {
  const line = $("status-line");
  line.textContent = statusText();
  const v = view();
  line.classList.toggle("mine", Boolean(v && ui.state.status === "playing" && v.to_play === mySeat()));
  const deal = ui.state.deal;
  const pill = $("deal-pill");
  pill.hidden = !deal;
  if (deal) {
    const target = matchTarget();
    pill.textContent = fmt(_("Deal %(number)s"), { number: deal.number }) + (target ? ` · ${fmt(_("to %(target)s"), { target })}` : "");
  }
  if (v && v.stock_count <= 4 && ui.state.status === "playing") {
    line.textContent += ` ${fmt(_("Stock: %(count)s. A plain discard with 2 left ends the deal with no score."), { count: v.stock_count })}`;
  }
}

// The opponent's moves since this seat's own last move: "Ana took 7♥ from the pile and discarded K♣".
function drawLastAction() {
  const v = view();
  const line = $("last-action");
  if (!v) {
    line.textContent = "";
    return;
  }
  const moves = v.history.filter((event) => event.seat !== null && actionFragment(event));
  const other = mySeat() === null ? moves[moves.length - 1]?.seat : 1 - mySeat();
  const recent = [];
  for (let index = moves.length - 1; index >= 0 && moves[index].seat === other; index -= 1) recent.unshift(moves[index]);
  line.textContent = recent.length ? sentence(names()[other], recent.map(actionFragment)) : "";
}

function drawLobby() {
  const status = ui.state.status;
  const panel = $("lobby-panel");
  const open = status === "waiting" || status === "ready";
  panel.hidden = !open;
  if (!open) return;
  const seats = clear($("seats-list"));
  ui.state.seats.forEach((seat, index) => {
    const item = document.createElement("li");
    if (seat && seat.player_url) {
      const link = document.createElement("a");
      link.href = seat.player_url;
      link.textContent = seat.name;
      item.append(`${index + 1}. `, link);
    } else {
      item.textContent = `${index + 1}. ${seat ? seat.name + (seat.is_bot ? ` (${_("robot")})` : "") : _("free seat")}`;
    }
    if (seat && seat.is_bot_account) item.append(" ", botMark());
    seats.append(item);
  });
  const owner = ui.state.you.is_owner;
  const seated = mySeat() !== null;
  // Robots are unrated: the server refuses them a seat at a rated table.
  $("bot-form").hidden = !(owner && status === "waiting" && !ui.state.options.rated);
  $("join-form").hidden = !(!seated && status === "waiting");
  $("start-form").hidden = !(owner && status === "ready");
  $("invite-box").hidden = status !== "waiting";
  $("lobby-note").textContent = !seated && status === "ready" ? _("Both seats are taken: you will watch this match.") : "";
}

function drawClock() {
  const deal = ui.state.deal;
  const clock = $("clock");
  const running = deal && deal.seconds_left !== null && (ui.state.status === "playing" || ui.state.status === "between_deals");
  ui.clockEnd = running ? Date.now() + deal.seconds_left * 1000 : null;
  ui.bank = heldBank(ui.state);
  clock.hidden = !running;
  $("clock-bank").hidden = ui.bank === null;
  if (ui.bank !== null && !running) drawBank(ui.bank, false); // stopped for a vacation: it waits too
  tickClock();
}

// The time bank of the player to play: inside the deal's deadline, behind the turn's own time.
function heldBank(state) {
  const deal = state.deal;
  const banks = state.match && state.match.banks;
  if (!banks || !deal || deal.status !== "playing" || state.status !== "playing") return null;
  return banks[deal.view.to_play] ?? null;
}

function drawBank(seconds, spending) {
  const pill = $("clock-bank");
  pill.textContent = fmt(_("Bank: %(time)s"), { time: clockText(seconds) });
  pill.classList.toggle("spending", spending);
  pill.setAttribute("aria-label", fmt(_("Time bank: %(time)s"), { time: clockText(seconds) }));
}

export function tickClock() {
  if (ui.clockEnd === null) return;
  const total = Math.max(0, Math.round((ui.clockEnd - Date.now()) / 1000));
  const bank = ui.bank ?? 0;
  const seconds = Math.max(0, total - bank);
  const clock = $("clock");
  clock.textContent = clockText(seconds);
  clock.classList.toggle("urgent", total <= 10);
  clock.setAttribute("aria-label", fmt(_("Turn clock: %(time)s"), { time: clockText(seconds) }));
  if (ui.bank !== null) drawBank(Math.min(bank, total), seconds === 0);
}

function drawScores() {
  const match = ui.state.match;
  const box = clear($("score-sheet"));
  if (!match || !match.score_sheet.length) {
    const empty = document.createElement("p");
    empty.className = "muted";
    empty.textContent = _("No deal finished yet.");
    box.append(empty);
    return;
  }
  const target = matchTarget();
  box.append(matchSheet(match, names(), seatUrls(ui.state)));
  if (!match.games) box.append(scoreChart(match.score_sheet, target, names(), _("Both totals over the deals")));
}

function drawSummary() {
  const box = $("summary");
  const key = `${ui.state.match?.number}-${ui.state.deal?.number}-${ui.state.status}`;
  const over = ui.state.status === "between_deals" || ui.state.status === "match_over";
  const shown = ui.keptSummary || (over ? ui.state : null);
  const content = shown ? summaryContent(shown, names(), suitsUrl, Boolean(ui.keptSummary), matchArchiveUrl) : null;
  if (!content || (ui.summaryClosedFor === key && !ui.keptSummary)) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  $("summary-title").textContent = content.title;
  $("summary-body").replaceWith(Object.assign(content.body, { id: "summary-body" }));
  const seated = mySeat() !== null;
  const rematch = ui.state.rematch;
  // A tournament's table plays its pairing once: no rematch there (Table.rematches).
  const mayRematch = seated && ui.state.status === "match_over" && Boolean(app.dataset.rematches);
  show("summary-next", seated && ui.state.status === "between_deals");
  show("btn-rematch", mayRematch && rematch.offered_by === null);
  show("btn-rematch-accept", mayRematch && rematch.offered_by === 1 - mySeat());
  show("btn-rematch-decline", mayRematch && rematch.offered_by === 1 - mySeat());
  show("rematch-note", mayRematch && rematch.expires_at !== null);
  $("rematch-note").textContent = rematch.expires_at ? rematchExpiryText(rematch.expires_at) : "";
}
