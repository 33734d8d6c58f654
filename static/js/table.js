// The live table page: wires the page's controls to the modules that draw it (table-draw.js,
// table-board.js), send the player's moves and the table's verbs (table-play.js, table-calls.js),
// keep the chat (table-chat.js) and sum up what happened while away (table-recap.js).
import { api } from "./api.js";
import { Controls } from "./controls.js";
import { Dragging } from "./drag.js";
import { SORT_MODES } from "./hand.js";
import { _ } from "./i18n.js";
import { toast } from "./site.js";
import { setSound, soundOn } from "./sound.js";
import { isOffline } from "./offline.js";
import { live, move, tableCall, versioned } from "./table-calls.js";
import { drawChat, wireChat } from "./table-chat.js";
import { render, tickClock } from "./table-draw.js";
import { openOffline, rememberState } from "./table-offline.js";
import { discard, onCardClick, onJoin, onKnock, onPile, onResign, onStock, reorder } from "./table-play.js";
import { showRecap } from "./table-recap.js";
import "./table-notes.js";
import "./table-time.js";
import { $, app, awaitsMe, handGroups, isLegal, mySeat, store, ui, view } from "./table-state.js";

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
  // One listener for the hand, whose cards are redrawn on every render; the click that ends a drag is not a tap.
  $("hand").addEventListener("click", (event) => {
    const card = event.target.closest(".card");
    if (card && !drag.consumeClick()) onCardClick(card.dataset.card);
  });
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
  const nextDeal = () => {
    ui.dealingOn = true;
    tableCall("next-deal", versioned);
  };
  $("btn-next-deal").addEventListener("click", nextDeal);
  $("summary-next").addEventListener("click", nextDeal);
  $("menu-resign").addEventListener("click", () => {
    if (onResign()) $("menu").close();
  });
  $("btn-rematch").addEventListener("click", () => tableCall("rematch/offer"));
  $("btn-rematch-accept").addEventListener("click", () => tableCall("rematch/accept"));
  $("btn-rematch-decline").addEventListener("click", () => tableCall("rematch/decline"));
  $("summary-close").addEventListener("click", () => {
    ui.keptSummary = null;
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
    tableCall("start", versioned);
  });
  $("join-form").addEventListener("submit", onJoin);
  wireChat(live);
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
// Opened offline (the worker's kept page): the last state kept, read-only; live again once the
// network is back, after the kept moves went (offline.js).
let liveStarted = !isOffline();
if (liveStarted) {
  rememberState(ui.state);
  live.start(ui.state, ui.chat);
} else {
  await openOffline((state) => live.offer(state));
}
window.addEventListener("ginmesa:back-online", (event) => {
  event.preventDefault(); // this page shows the latest itself
  if (!liveStarted) live.start(ui.state, ui.chat);
  liveStarted = true;
  live.refresh();
});
app.dataset.ready = "1";
