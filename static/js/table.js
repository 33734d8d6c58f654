// The live table page. The server decides everything (legal moves, melds, deadwood, the best
// discard: state.deal.view and state.deal.coach); this module draws it and sends the player's moves.
import { api, newMoveId } from "./api.js";
import { cardBack, cardFace, cardName, shortName } from "./cards.js";
import { scoreChart } from "./chart.js";
import { Controls } from "./controls.js";
import { Dragging } from "./drag.js";
import { arrangeHand, moveCard, ownArrangement, SORT_MODES } from "./hand.js";
import { _, fmt, ngettext } from "./i18n.js";
import { LiveTable } from "./live.js";
import { chime, setSound, soundOn } from "./sound.js";
import { scoreSheetTable, summaryContent } from "./summary.js";
import { actionFragment, clockText, dealLine, rematchExpiryText, sentence } from "./texts.js";
import { toast } from "./site.js";

const app = document.getElementById("table-app");
const $ = (id) => document.getElementById(id);
const token = app.dataset.token;
const suitsUrl = app.dataset.suits;
const store = {
  get: (key, fallback) => JSON.parse(localStorage.getItem(key) || "null") ?? fallback,
  set: (key, value) => localStorage.setItem(key, JSON.stringify(value)),
};

const ui = {
  state: JSON.parse($("table-state").textContent),
  chat: JSON.parse($("chat-history").textContent),
  selected: null,
  hint: false,
  sort: store.get("gm-sort", "groups"),
  own: store.get(`gm-order-${token}`, []),
  showPoints: store.get("gm-points", false),
  summaryClosedFor: null,
  showLastDeal: false,
  busy: false,
  clockEnd: null,
  chatChannel: "players",
  unread: 0,
  presence: null,
  wasAwaiting: null,
  lastHandKey: "",
};

// -- reading the state -------------------------------------------------------------------

const mySeat = () => ui.state.you.seat;
const view = () => ui.state.deal && ui.state.deal.view;
const coach = () => ui.state.deal && ui.state.deal.coach;
const legal = () => (view() ? view().legal_actions : []);
const isLegal = (action) => legal().includes(action);
const matchTarget = () => (view() ? view().ruleset.target : null);
const bottomSeat = () => (mySeat() === null ? 0 : mySeat());

function names() {
  return ui.state.seats.map((seat, index) => (seat ? seat.name : fmt(_("Seat %(n)s"), { n: index + 1 })));
}

function knockCards() {
  return legal().filter((action) => action.startsWith("knock ")).map((action) => action.slice(6));
}

// The knock the button would make: the selected card if it knocks, else the one keeping least deadwood.
function plannedKnock() {
  const cards = knockCards();
  const discards = coach() ? coach().discards : {};
  if (ui.selected) return cards.includes(ui.selected) ? { card: ui.selected, deadwood: discards[ui.selected] } : null;
  if (!cards.length) return null;
  const card = cards.reduce((best, code) => (discards[code] < discards[best] ? code : best));
  return { card, deadwood: discards[card] };
}

function awaitsMe() {
  const status = ui.state.status;
  if (mySeat() === null) return false;
  if (status === "playing") return view().to_play === mySeat();
  if (status === "between_deals") return true;
  if (status === "match_over") return ui.state.rematch.offered_by === 1 - mySeat();
  return status === "ready" && ui.state.you.is_owner;
}

// -- drawing -----------------------------------------------------------------------------

function clear(node) {
  node.replaceChildren();
  return node;
}

function playerInfo(box, seat) {
  const player = ui.state.seats[seat];
  clear(box);
  const v = view();
  box.classList.toggle("to-play", Boolean(v && v.to_play === seat && ui.state.status === "playing"));
  if (ui.presence) {
    const online = ui.presence.find((entry) => entry.seat === seat)?.online;
    const dot = document.createElement("span");
    dot.className = `presence${online ? " online" : ""}`;
    dot.title = online ? _("online") : _("away");
    dot.setAttribute("aria-label", dot.title);
    box.append(dot);
  }
  const name = document.createElement("span");
  name.className = "name";
  name.textContent = player ? player.name : _("free seat");
  box.append(name);
  if (player && player.is_bot) box.append(tag(_("robot")));
  if (seat === mySeat()) box.append(tag(_("you")));
  if (v && v.dealer === seat) {
    const chip = document.createElement("span");
    chip.className = "dealer-chip";
    chip.textContent = _("D");
    chip.title = _("deals this deal");
    chip.setAttribute("aria-label", chip.title);
    box.append(chip);
  }
  const match = ui.state.match;
  if (match) {
    const target = matchTarget();
    const score = tag(`${match.totals[seat]}${target ? ` / ${target}` : ""}`);
    score.classList.add("score");
    score.setAttribute("aria-label", fmt(_("%(points)s points"), { points: match.totals[seat] }));
    box.append(score);
  }
}

function tag(text) {
  const span = document.createElement("span");
  span.className = "pill";
  span.textContent = text;
  return span;
}

function drawFan(box, seat) {
  clear(box);
  const v = view();
  if (!v || ui.state.status === "waiting" || ui.state.status === "ready") {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const count = v.hand_counts[seat];
  const known = v.phase === "over" ? [] : v.known_cards[seat];
  for (let index = 0; index < count - known.length; index += 1) box.append(cardBack());
  for (const code of known) {
    const card = cardFace(code, suitsUrl);
    card.classList.add("known");
    box.append(card);
  }
  const names_ = names();
  box.setAttribute("aria-label", fmt(ngettext("%(name)s holds %(count)s card", "%(name)s holds %(count)s cards", count), { name: names_[seat], count })
    + (known.length ? `; ${fmt(_("known: %(cards)s"), { cards: known.map(shortName).join(" ") })}` : ""));
}

function drawPiles() {
  const v = view();
  const playing = ui.state.status === "playing";
  $("piles").hidden = !v;
  if (!v) return;
  const stock = $("stock");
  const count = $("stock-count");
  count.textContent = fmt(ngettext("%(count)s card", "%(count)s cards", v.stock_count), { count: v.stock_count });
  count.classList.toggle("low", v.stock_count <= 4);
  stock.classList.toggle("can-take", playing && isLegal("draw_stock"));
  stock.setAttribute("aria-label", fmt(_("Stock, %(count)s cards: draw"), { count: v.stock_count }));
  const pile = $("discard");
  const top = v.discard_pile[v.discard_pile.length - 1];
  const slot = top ? cardFace(top, suitsUrl) : document.createElement("span");
  if (!top) slot.className = "slot";
  slot.id = "discard-top";
  $("discard-top").replaceWith(slot);
  $("discard-count").textContent = fmt(ngettext("%(count)s card", "%(count)s cards", v.discard_pile.length), { count: v.discard_pile.length });
  const takeable = playing && (isLegal("take_discard") || isLegal("take_upcard"));
  pile.classList.toggle("can-take", takeable || (playing && v.phase === "discard" && v.to_play === mySeat()));
  pile.setAttribute("aria-label", top ? fmt(_("Discard pile, top card %(card)s"), { card: cardName(top) }) : _("Discard pile, empty"));
}

function handGroups() {
  const v = view();
  const mode = ui.sort;
  return arrangeHand(v.hand, coach(), mode, ui.own);
}

function drawHand() {
  const v = view();
  const strip = $("hand-strip");
  const hand = $("hand");
  const fanBottom = $("fan-bottom");
  if (!v || !v.hand || v.phase === "over") {
    strip.hidden = true;
    if (mySeat() === null) drawFan(fanBottom, 0);
    else fanBottom.hidden = true;
    return;
  }
  fanBottom.hidden = true;
  strip.hidden = false;
  const focused = hand.contains(document.activeElement) ? document.activeElement.dataset.card : null;
  const focusedIndex = focused ? [...hand.querySelectorAll(".card")].indexOf(document.activeElement) : -1;
  const previous = new Set(ui.lastHandKey.split(" "));
  clear(hand);
  const values = coach() ? coach().values : {};
  const best = coach() && coach().best_discard;
  for (const group of handGroups()) {
    const box = document.createElement("div");
    box.className = `group ${group.kind}`;
    if (group.kind === "meld") box.setAttribute("aria-label", fmt(_("meld: %(cards)s"), { cards: group.cards.map(shortName).join(" ") }));
    for (const code of group.cards) box.append(handCard(code, values, best, previous));
    hand.append(box);
  }
  ui.lastHandKey = v.hand.join(" ");
  app.classList.toggle("show-points", ui.showPoints);
  restoreFocus(hand, focused, focusedIndex);
}

function handCard(code, values, best, previous) {
  const v = view();
  const card = cardFace(code, suitsUrl, "button");
  let label = cardName(code);
  if (code === ui.selected) {
    card.classList.add("selected");
    card.setAttribute("aria-pressed", "true");
    label += `, ${_("selected")}`;
  } else {
    card.setAttribute("aria-pressed", "false");
  }
  if (code === v.just_taken) {
    card.classList.add("taken");
    card.dataset.badge = _("from the pile");
    label += `, ${_("just taken from the pile")}`;
  }
  if (ui.hint && best && best.card === code) {
    card.classList.add("hint");
    card.dataset.badge = _("discard");
    label += `, ${_("suggested discard")}`;
  }
  if (values[code] !== undefined) card.querySelector(".points").textContent = values[code];
  if (ui.lastHandKey && !previous.has(code)) card.classList.add("new");
  card.setAttribute("aria-label", label);
  card.addEventListener("click", () => onCardClick(code));
  return card;
}

function restoreFocus(hand, code, index) {
  if (index < 0) return;
  const cards = [...hand.querySelectorAll(".card")];
  const same = cards.find((card) => card.dataset.card === code);
  const target = same || cards[Math.min(index, cards.length - 1)];
  if (target) target.focus();
}

function drawMeter() {
  const meter = $("meter");
  const c = coach();
  const v = view();
  if (!c || !v || ui.state.status !== "playing") {
    meter.hidden = true;
    return;
  }
  meter.hidden = false;
  const discardStep = v.phase === "discard" && v.to_play === mySeat() && c.best_discard;
  let value = c.deadwood;
  let note = "";
  if (discardStep) {
    const card = ui.selected && c.discards[ui.selected] !== undefined ? ui.selected : c.best_discard.card;
    value = c.discards[card];
    note = fmt(_("after discarding %(card)s"), { card: shortName(card) });
  }
  const canKnock = discardStep ? knockCards().length > 0 && (ui.selected ? knockCards().includes(ui.selected) : true) : false;
  meter.classList.toggle("can-knock", canKnock);
  $("meter-value").textContent = String(value);
  $("meter-note").textContent = note;
  $("meter-verdict").hidden = !canKnock;
  const scale = 60;
  $("meter-fill").style.transform = `scaleX(${Math.min(value, scale) / scale})`;
  $("meter-limit").style.left = `${(v.knock_limit / scale) * 100}%`;
  meter.setAttribute("aria-label", fmt(_("Deadwood %(points)s, knock limit %(limit)s"), { points: value, limit: v.knock_limit }));
}

function show(id, visible) {
  $(id).hidden = !visible;
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
  show("btn-summary", Boolean(v && v.phase === "over") && $("summary").hidden);
  show("btn-resign", seated && (status === "playing" || status === "between_deals"));
  show("menu-resign", seated && (status === "playing" || status === "between_deals"));
}

function statusText() {
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
    item.textContent = `${index + 1}. ${seat ? seat.name + (seat.is_bot ? ` (${_("robot")})` : "") : _("free seat")}`;
    seats.append(item);
  });
  const owner = ui.state.you.is_owner;
  const seated = mySeat() !== null;
  $("bot-form").hidden = !(owner && status === "waiting");
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
  clock.hidden = !running;
  tickClock();
}

function tickClock() {
  if (ui.clockEnd === null) return;
  const seconds = Math.max(0, Math.round((ui.clockEnd - Date.now()) / 1000));
  const clock = $("clock");
  clock.textContent = clockText(seconds);
  clock.classList.toggle("urgent", seconds <= 10);
  clock.setAttribute("aria-label", fmt(_("Turn clock: %(time)s"), { time: clockText(seconds) }));
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
  box.append(scoreSheetTable(match.score_sheet, names()));
  box.append(scoreChart(match.score_sheet, target, names(), _("Both totals over the deals")));
}

function drawSummary() {
  const v = view();
  const box = $("summary");
  const key = `${ui.state.match?.number}-${ui.state.deal?.number}-${ui.state.status}`;
  const over = ui.state.status === "between_deals" || ui.state.status === "match_over";
  const content = over ? summaryContent(ui.state, names(), suitsUrl, ui.showLastDeal) : null;
  if (!content || ui.summaryClosedFor === key) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  $("summary-title").textContent = content.title;
  $("summary-body").replaceWith(Object.assign(content.body, { id: "summary-body" }));
  const seated = mySeat() !== null;
  const rematch = ui.state.rematch;
  const matchOver = ui.state.status === "match_over";
  show("summary-next", seated && ui.state.status === "between_deals");
  show("btn-rematch", seated && matchOver && rematch.offered_by === null);
  show("btn-rematch-accept", seated && matchOver && rematch.offered_by === 1 - mySeat());
  show("btn-rematch-decline", seated && matchOver && rematch.offered_by === 1 - mySeat());
  show("rematch-note", seated && matchOver && rematch.expires_at !== null);
  $("rematch-note").textContent = rematch.expires_at ? rematchExpiryText(rematch.expires_at) : "";
  show("btn-last-deal", matchOver && Boolean(v && v.result));
  $("btn-last-deal").textContent = ui.showLastDeal ? _("FINAL SCORES") : _("LAST DEAL");
}

function drawChat() {
  const log = clear($("chat-log"));
  const spectator = mySeat() === null;
  $("chat-tabs").hidden = !spectator || !ui.state.options.spectator_chat;
  for (const button of $("chat-tabs").querySelectorAll("button")) {
    button.setAttribute("aria-selected", String(button.dataset.channel === ui.chatChannel));
  }
  const channel = spectator ? ui.chatChannel : "players";
  const messages = ui.chat.filter((message) => message.channel === channel);
  if (!messages.length) {
    const empty = document.createElement("li");
    empty.className = "muted";
    empty.textContent = _("No messages yet.");
    log.append(empty);
  }
  for (const message of messages) {
    const item = document.createElement("li");
    const author = document.createElement("span");
    author.className = "author";
    author.textContent = message.author;
    const time = document.createElement("time");
    time.dateTime = message.created_at;
    time.textContent = new Date(message.created_at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    item.append(author, document.createTextNode(message.text), time);
    log.append(item);
  }
  log.scrollTop = log.scrollHeight;
  const unread = $("chat-unread");
  unread.hidden = ui.unread === 0;
  unread.textContent = String(ui.unread);
}

function render() {
  playerInfo($("info-top"), 1 - bottomSeat());
  playerInfo($("info-bottom"), bottomSeat());
  drawFan($("fan-top"), 1 - bottomSeat());
  drawPiles();
  drawHand();
  drawMeter();
  drawActions();
  drawStatus();
  drawLastAction();
  drawLobby();
  drawClock();
  drawScores();
  drawSummary();
  drawActions(); // the SUMMARY button depends on whether the box is open
  $("sort-modes").querySelectorAll("button").forEach((button) => button.setAttribute("aria-pressed", String(button.dataset.sort === ui.sort)));
  $("btn-points").setAttribute("aria-pressed", String(ui.showPoints));
  $("btn-sound").setAttribute("aria-pressed", String(soundOn()));
  $("btn-sound").textContent = soundOn() ? _("Sound on") : _("Sound off");
}

// -- what happened while away ----------------------------------------------------------------

function recapLines(seen) {
  const state = ui.state;
  const n = names();
  const lines = [];
  if (!state.match || !seen) return lines;
  if (seen.match !== state.match.number) return [fmt(_("Match %(number)s started."), { number: state.match.number })];
  const sheet = state.match.score_sheet;
  for (const row of sheet.slice(seen.deals)) lines.push(dealLine(row, n));
  const history = view() ? view().history : [];
  const from = seen.deal === state.deal.number ? seen.events : 0;
  for (const event of history.slice(from)) {
    const fragment = actionFragment(event);
    if (fragment && event.seat !== mySeat()) lines.push(sentence(n[event.seat], [fragment]));
  }
  return lines;
}

function seenMarker() {
  const state = ui.state;
  if (!state.match) return null;
  return { match: state.match.number, deals: state.match.score_sheet.length, deal: state.deal.number, events: view().history.length };
}

function showRecap() {
  const key = `gm-seen-${token}`;
  const lines = recapLines(store.get(key, null));
  if (lines.length) {
    const list = clear($("recap-list"));
    for (const line of lines) {
      const item = document.createElement("li");
      item.textContent = line;
      list.append(item);
    }
    $("recap").hidden = false;
  }
  rememberSeen();
}

function rememberSeen() {
  if (document.visibilityState === "visible" && mySeat() !== null && seenMarker()) store.set(`gm-seen-${token}`, seenMarker());
}

// -- acting --------------------------------------------------------------------------------

function applyState(state) {
  const dealChanged = !ui.state.deal || !state.deal || ui.state.deal.number !== state.deal.number;
  if (offerLapsed(ui.state, state)) toast(_("The rematch offer has expired."));
  ui.state = state;
  live.version = Math.max(live.version, state.version);
  if (dealChanged || !legal().some((action) => action.endsWith(` ${ui.selected}`))) ui.selected = null;
  if (view() && view().phase !== "discard") ui.hint = false;
  render();
  announceTurn();
  rememberSeen();
  window.dispatchEvent(new Event("ginmesa:pending-changed"));
}

// Withdrawn with nobody's answer and the match still over: the sweeper let it lapse.
function offerLapsed(before, after) {
  const over = before.status === "match_over" && after.status === "match_over";
  return over && mySeat() !== null && before.rematch.offered_by !== null && after.rematch.offered_by === null && after.rematch.declined_by === null;
}

function announceTurn() {
  const awaiting = awaitsMe();
  if (ui.wasAwaiting === false && awaiting) {
    toast(ui.state.status === "playing" ? _("Your move!") : statusText());
    chime();
  }
  ui.wasAwaiting = awaiting;
}

async function post(path, body, failure) {
  if (ui.busy) return null;
  ui.busy = true;
  const answer = await api.post(path, body);
  ui.busy = false;
  if (answer.ok) return answer.data;
  if (answer.data && answer.data.state) applyState(answer.data.state);
  refused(answer.status, answer.data.detail, failure);
  return null;
}

function refused(status, detail, failure) {
  toast(status === 409 ? _("The table changed: look again.") : detail || failure || _("That did not work."), "error");
}

// Over the table's socket when it is open (the state follows as its event), else over HTTP.
async function move(action) {
  if (ui.busy) return;
  const body = { action, expected_version: ui.state.version, client_move_id: newMoveId() };
  ui.busy = true;
  const answer = await live.move(body);
  ui.busy = false;
  if (answer === null) {
    const data = await post(`/tables/${token}/moves`, body);
    if (data) applyState(data.state);
  } else if (answer.type === "error") {
    refused(answer.status, answer.detail); // a stale version: the socket sends the table as it is
  }
}

// The table's deal-end actions that also go over its socket, by their HTTP path.
const SOCKET_ACTIONS = {
  "next-deal": "next_deal",
  resign: "resign",
  "rematch/offer": "rematch_offer",
  "rematch/accept": "rematch_accept",
  "rematch/decline": "rematch_decline",
};

// Over the table's socket when it is open and the action has a socket form (the state follows
// as its event), else over HTTP.
async function tableCall(path, body = {}) {
  if (SOCKET_ACTIONS[path] && !ui.busy) {
    ui.busy = true;
    const answer = await live.action({ action: SOCKET_ACTIONS[path], request_id: newMoveId(), ...body });
    ui.busy = false;
    if (answer === null) live.refresh(); // unanswered: show the table as it is now
    else if (answer !== undefined && answer.type === "error") refused(answer.status, answer.detail);
    if (answer !== undefined) return answer;
  }
  const data = await post(`/tables/${token}/${path}`, body);
  if (data) applyState(data);
  return data;
}

function discard(code) {
  const v = view();
  if (!v || v.phase !== "discard" || v.to_play !== mySeat()) return;
  if (code === v.just_taken) {
    toast(_("You just took this card from the pile: it cannot be discarded this turn."), "error");
    return;
  }
  if (isLegal(`discard ${code}`)) move(`discard ${code}`);
}

function onCardClick(code) {
  if (drag.consumeClick()) return;
  const v = view();
  const discarding = v && v.phase === "discard" && v.to_play === mySeat();
  if (discarding && ui.selected === code) {
    discard(code);
    return;
  }
  ui.selected = ui.selected === code ? null : code;
  if (discarding && code === v.just_taken) toast(_("You just took this card from the pile: it cannot be discarded this turn."));
  render();
}

function onStock() {
  if (isLegal("draw_stock")) move("draw_stock");
}

function onPile() {
  const v = view();
  if (isLegal("take_discard")) move("take_discard");
  else if (isLegal("take_upcard")) move("take_upcard");
  else if (v && v.phase === "discard" && ui.selected) discard(ui.selected);
}

function onKnock() {
  const knock = plannedKnock();
  if (knock) move(`knock ${knock.card}`);
}

let resignArmed = false;
function onResign() {
  if (!resignArmed) {
    resignArmed = true;
    $("btn-resign").textContent = _("CONFIRM: RESIGN");
    toast(_("Tap RESIGN again to give up the match."));
    setTimeout(() => {
      resignArmed = false;
      $("btn-resign").textContent = _("RESIGN");
    }, 4000);
    return;
  }
  resignArmed = false;
  $("btn-resign").textContent = _("RESIGN");
  tableCall("resign", { expected_version: ui.state.version });
}

function reorder(code, target) {
  const current = handGroups().flatMap((group) => group.cards);
  ui.own = moveCard(ownArrangement(view().hand, current), code, target);
  ui.sort = "own";
  store.set(`gm-order-${token}`, ui.own);
  store.set("gm-sort", ui.sort);
  render();
}

async function onJoin(event) {
  event.preventDefault();
  const name = $("join-name") ? $("join-name").value : undefined;
  const data = await tableCall("join", name ? { name } : {});
  if (data && !app.dataset.hasPlayer) location.reload(); // a new guest: the page now knows who it is
}

async function onChatSend(event) {
  event.preventDefault();
  const input = $("chat-text");
  const text = input.value.trim();
  if (!text) return;
  const answer = await api.post(`/tables/${token}/chat`, { text });
  if (!answer.ok) {
    toast(answer.data.detail || _("The message was not sent."), "error");
    return;
  }
  input.value = "";
  live.offerChat([answer.data]);
}

function onChat(messages) {
  ui.chat = [...ui.chat, ...messages.filter((message) => !ui.chat.some((known) => known.id === message.id))];
  if (!$("side").classList.contains("open") && getComputedStyle($("btn-chat")).display !== "none") ui.unread += messages.length;
  drawChat();
}

function setDeck(design) {
  app.className = app.className.replace(/deck-\S+/, `deck-${design}`);
  app.dataset.deck = design;
  $("menu-deck").value = design;
  if (app.dataset.hasPlayer) api.patch("/me", { deck_design: design });
}

function toggleSound() {
  setSound(!soundOn());
  toast(soundOn() ? _("Sound on") : _("Sound off"));
  render();
}

function toggleFullscreen() {
  if (document.fullscreenElement) document.exitFullscreen();
  else document.documentElement.requestFullscreen?.().catch(() => toast(_("Full screen is not available here.")));
}

function openMenu() {
  const menu = $("menu");
  if (!menu.open) menu.showModal();
}

function wire() {
  $("stock").addEventListener("click", onStock);
  $("discard").addEventListener("click", onPile);
  for (const button of $("actions").querySelectorAll("[data-act]")) {
    button.addEventListener("click", () => move(button.dataset.act));
  }
  $("btn-knock").addEventListener("click", onKnock);
  $("btn-hint").addEventListener("click", () => {
    ui.hint = !ui.hint;
    render();
  });
  const nextDeal = () => tableCall("next-deal", { expected_version: ui.state.version });
  $("btn-next-deal").addEventListener("click", nextDeal);
  $("summary-next").addEventListener("click", nextDeal);
  $("btn-resign").addEventListener("click", onResign);
  $("menu-resign").addEventListener("click", () => {
    $("menu").close();
    onResign();
  });
  $("btn-rematch").addEventListener("click", () => tableCall("rematch/offer"));
  $("btn-rematch-accept").addEventListener("click", () => tableCall("rematch/accept"));
  $("btn-rematch-decline").addEventListener("click", () => tableCall("rematch/decline"));
  $("btn-last-deal").addEventListener("click", () => {
    ui.showLastDeal = !ui.showLastDeal;
    render();
  });
  $("summary-close").addEventListener("click", () => {
    ui.summaryClosedFor = `${ui.state.match?.number}-${ui.state.deal?.number}-${ui.state.status}`;
    render();
    $("btn-summary").focus();
  });
  $("btn-summary").addEventListener("click", () => {
    ui.summaryClosedFor = null;
    render();
  });
  $("sort-modes").addEventListener("click", (event) => {
    const mode = event.target.closest("[data-sort]")?.dataset.sort;
    if (!SORT_MODES.includes(mode)) return;
    if (mode === "own" && !ui.own.length) ui.own = handGroups().flatMap((group) => group.cards);
    ui.sort = mode;
    store.set("gm-sort", mode);
    render();
  });
  $("btn-points").addEventListener("click", () => {
    ui.showPoints = !ui.showPoints;
    store.set("gm-points", ui.showPoints);
    render();
  });
  $("bot-form").addEventListener("submit", (event) => {
    event.preventDefault();
    tableCall("bot", { level: $("bot-level").value });
  });
  $("start-form").addEventListener("submit", (event) => {
    event.preventDefault();
    tableCall("start", { expected_version: ui.state.version });
  });
  $("join-form").addEventListener("submit", onJoin);
  $("chat-form").addEventListener("submit", onChatSend);
  $("chat-tabs").addEventListener("click", (event) => {
    const channel = event.target.closest("[data-channel]")?.dataset.channel;
    if (channel) {
      ui.chatChannel = channel;
      drawChat();
    }
  });
  $("btn-chat").addEventListener("click", () => {
    const open = $("side").classList.toggle("open");
    $("btn-chat").setAttribute("aria-expanded", String(open));
    if (open) {
      ui.unread = 0;
      drawChat();
      $("chat-text").focus();
    }
  });
  $("btn-sound").addEventListener("click", toggleSound);
  $("btn-menu").addEventListener("click", openMenu);
  $("menu-close").addEventListener("click", () => $("menu").close());
  $("menu-sound").addEventListener("click", toggleSound);
  $("menu-fullscreen").addEventListener("click", toggleFullscreen);
  $("menu-deck").addEventListener("change", (event) => setDeck(event.target.value));
  $("recap-dismiss").addEventListener("click", () => {
    $("recap").hidden = true;
  });
  setInterval(tickClock, 1000);
}

const live = new LiveTable(token, {
  onState: applyState,
  onChat,
  onPresence: (seats) => {
    ui.presence = seats;
    render();
  },
});

const drag = new Dragging({
  hand: $("hand"),
  stock: $("stock"),
  pile: $("discard"),
  handArea: $("hand-strip"),
  canDiscard: () => Boolean(view() && view().phase === "discard" && view().to_play === mySeat()),
  canDraw: (from) => (from === "stock" ? isLegal("draw_stock") : isLegal("take_discard") || isLegal("take_upcard")),
  onDiscard: discard,
  onDraw: (from) => (from === "stock" ? onStock() : onPile()),
  onReorder: reorder,
});

new Controls({ hand: $("hand"), actions: $("actions"), onMenu: openMenu, onSound: toggleSound, onFullscreen: toggleFullscreen });

$("menu-deck").value = app.dataset.deck;
wire();
render();
drawChat();
showRecap();
ui.wasAwaiting = awaitsMe();
live.start(ui.state, ui.chat, Boolean(app.dataset.canSocket));
app.dataset.ready = "1";
