// The table's chat: the players' channel, and the spectators' own where the table allows it.
import { api } from "./api.js";
import { _ } from "./i18n.js";
import { toast } from "./site.js";
import { $, clear, mySeat, token, ui } from "./table-state.js";

// At a board of a table of three or four the chat is the game's: its players chat as players at
// every board, seated here or not (the note above the chat says so, templatetags/game_tags.py).
const gameNote = document.getElementById("game-chat-note");
const gamePlayer = gameNote?.dataset.gamePlayer === "1";

export function drawChat() {
  const log = clear($("chat-log"));
  const spectator = mySeat() === null && !gamePlayer;
  $("chat-tabs").hidden = !spectator || !ui.state.options.spectator_chat;
  // A visitor with no name reads the chat; where spectators may chat, the page says how to join in.
  const nameNote = document.getElementById("chat-name-note");
  if (nameNote) nameNote.hidden = !spectator || !ui.state.options.spectator_chat;
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
  const mine = gameNote?.dataset.me || (mySeat() === null ? null : ui.state.seats[mySeat()]?.player_url);
  for (const message of messages) {
    const item = document.createElement("li");
    // An account's name links to its page (in this tab, as every link of the site does).
    const author = document.createElement(message.author_url ? "a" : "span");
    author.className = "author";
    author.textContent = message.author;
    if (message.author_url) author.href = message.author_url;
    const time = document.createElement("time");
    time.dateTime = message.created_at;
    time.textContent = new Date(message.created_at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    item.append(author, document.createTextNode(message.text), time);
    // Another account's message may be reported to staff (tables/social: the report form).
    if (message.author_url && message.author_url !== mine) {
      const report = document.createElement("a");
      report.className = "report-link";
      report.href = `${message.author_url}report/?message=${message.id}`;
      report.textContent = _("report");
      item.append(" ", report);
    }
    log.append(item);
  }
  log.scrollTop = log.scrollHeight;
  const unread = $("chat-unread");
  unread.hidden = ui.unread === 0;
  unread.textContent = String(ui.unread);
}

// Messages from the socket or the poller (already new to the page), or the player's own once sent.
export function receiveChat(messages) {
  ui.chat = [...ui.chat, ...messages.filter((message) => !ui.chat.some((known) => known.id === message.id))];
  if (!$("side").classList.contains("open") && getComputedStyle($("btn-chat")).display !== "none") ui.unread += messages.length;
  drawChat();
}

// `live` takes a sent message as if it had come back, so the socket's echo of it is not new.
export function wireChat(live) {
  $("chat-form").addEventListener("submit", (event) => sendChat(event, live));
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
}

async function sendChat(event, live) {
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
