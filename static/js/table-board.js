// The felt of the table page: both players, the opponent's fan, the piles, this player's hand
// and the deadwood meter, drawn from the state in table-state.js.
import { cardBack, cardFace, cardName, shortName } from "./cards.js";
import { element } from "./dom.js";
import { _, fmt, ngettext } from "./i18n.js";
import { knockedFaceDown } from "./summary.js";
import {
  $, app, bottomSeat, clear, coach, handGroups, isLegal, knockCards, matchTarget, mySeat, names, suitsUrl, ui, view,
} from "./table-state.js";

export function drawBoard() {
  playerInfo($("info-top"), 1 - bottomSeat());
  playerInfo($("info-bottom"), bottomSeat());
  drawFan($("fan-top"), 1 - bottomSeat());
  drawPiles();
  drawHand();
  drawMeter();
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
  const name = nameElement(player);
  box.append(name);
  if (player && player.is_bot) box.append(tag(_("robot")));
  if (player && player.is_bot_account) box.append(botMark());
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

// A seated account's name links to its page (guests and robots have none). A plain link: it
// opens in this tab, and the felt's own click handlers are on the cards and piles, not here.
function nameElement(player) {
  const name = element(player && player.player_url ? "a" : "span", "name", player ? player.name : _("free seat"));
  if (player && player.player_url) name.href = player.player_url;
  return name;
}

function tag(text) {
  return element("span", "pill", text);
}

// A bot account's mark (a program playing through the API, docs/accounts.md), as the pages'
// templates/tables/_bot_mark.html: "BOT" in both languages, its title translated.
export function botMark() {
  const mark = element("abbr", "pill bot-mark", "BOT");
  mark.title = _("bot account: a program playing through the API");
  return mark;
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
  const faceDown = knockedFaceDown(v);
  const slot = faceDown ? cardBack() : top ? cardFace(top, suitsUrl) : document.createElement("span");
  if (!top) slot.className = "slot";
  slot.id = "discard-top";
  $("discard-top").replaceWith(slot);
  $("discard-count").textContent = fmt(ngettext("%(count)s card", "%(count)s cards", v.discard_pile.length), { count: v.discard_pile.length });
  const takeable = playing && (isLegal("take_discard") || isLegal("take_upcard"));
  pile.classList.toggle("can-take", takeable || (playing && v.phase === "discard" && v.to_play === mySeat()));
  const label = top ? fmt(_("Discard pile, top card %(card)s"), { card: cardName(top) }) : _("Discard pile, empty");
  pile.setAttribute("aria-label", faceDown ? _("Discard pile: the knock's discard lies face down") : label);
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
