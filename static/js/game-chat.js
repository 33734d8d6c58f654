// The game's one chat on the game page (every board's table page shows it too): new messages every
// few seconds while the page is visible (GET /api/games/<token>/chat?after=), and the form posts
// through the API (POST /api/games/<token>/chat); without JavaScript the form posts to the page.
import { api } from "./api.js";
import { _ } from "./i18n.js";
import { toast } from "./site.js";

const POLL_MS = 4000;
const panel = document.getElementById("game-chat");
const log = document.getElementById("game-chat-log");
const known = new Set([...log.querySelectorAll("li[data-id]")].map((item) => Number(item.dataset.id)));
let lastId = Math.max(0, ...known);

function item(message) {
  const row = document.createElement("li");
  row.dataset.id = String(message.id);
  const author = document.createElement(message.author_url ? "a" : "span");
  author.className = "author";
  author.textContent = message.author;
  if (message.author_url) author.href = message.author_url;
  row.append(author);
  if (message.channel === "spectators") {
    const tag = document.createElement("span");
    tag.className = "tag";
    tag.textContent = panel.dataset.spectators;
    row.append(tag, " ");
  }
  row.append(document.createTextNode(message.text));
  if (message.author_url && message.author_url !== panel.dataset.me) {
    const report = document.createElement("a");
    report.className = "report-link";
    report.href = `${message.author_url}report/?message=${message.id}`;
    report.textContent = _("report");
    row.append(" ", report);
  }
  return row;
}

function receive(messages) {
  const fresh = messages.filter((message) => !known.has(message.id));
  if (!fresh.length) return;
  document.getElementById("game-chat-empty")?.remove();
  for (const message of fresh) {
    known.add(message.id);
    lastId = Math.max(lastId, message.id);
    log.append(item(message));
  }
  log.scrollTop = log.scrollHeight;
}

async function poll() {
  if (document.visibilityState !== "visible") return;
  const answer = await api.get(`/games/${panel.dataset.token}/chat?after=${lastId}`);
  if (answer.ok) receive(answer.data.messages);
}

async function send(event) {
  event.preventDefault();
  const input = document.getElementById("game-chat-text");
  const text = input.value.trim();
  if (!text) return;
  const answer = await api.post(`/games/${panel.dataset.token}/chat`, { text });
  if (!answer.ok) {
    toast(answer.data.detail || _("The message was not sent."), "error");
    return;
  }
  input.value = "";
  receive([answer.data]);
}

if (panel && log) {
  log.scrollTop = log.scrollHeight;
  document.getElementById("game-chat-form")?.addEventListener("submit", send);
  setInterval(poll, POLL_MS);
  document.addEventListener("visibilitychange", poll);
}
