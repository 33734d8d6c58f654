// Home: one click to play a robot (open a table, seat the robot, start), "my tables" with
// those awaiting your move first, and the public lobby.
import { api } from "./api.js";
import { _, fmt } from "./i18n.js";
import { toast } from "./site.js";

function row(href, title, details, yourMove) {
  const item = document.createElement("li");
  if (yourMove) item.className = "your-move";
  const link = document.createElement("a");
  link.href = href;
  link.textContent = title;
  const info = document.createElement("span");
  info.className = "muted";
  info.textContent = details;
  item.append(link, info);
  if (yourMove) {
    const flag = document.createElement("span");
    flag.className = "tag go";
    flag.textContent = _("your move");
    item.append(flag);
  }
  return item;
}

function fill(list, items, emptyText) {
  list.replaceChildren(...items);
  if (!items.length) {
    const empty = document.createElement("li");
    empty.className = "muted";
    empty.textContent = emptyText;
    list.append(empty);
  }
}

async function showMine() {
  const list = document.getElementById("home-mine");
  if (!list || list.closest("[hidden]")) return;
  const answer = await api.get("/me/tables");
  if (!answer.ok) return;
  fill(list, answer.data.tables.map((table) => row(`/t/${table.table}/`,
    table.opponent ? fmt(_("against %(name)s"), { name: table.opponent.name }) : _("waiting for an opponent"),
    `${table.ruleset}${table.totals ? ` · ${table.totals[table.seat]}–${table.totals[1 - table.seat]}` : ""}`,
    table.your_move)), _("No tables yet."));
}

async function showLobby() {
  const answer = await api.get("/lobby");
  if (!answer.ok) return;
  fill(document.getElementById("home-lobby"), answer.data.tables.map((table) => row(`/t/${table.table}/`,
    fmt(_("%(owner)s's table"), { owner: table.owner }),
    `${table.ruleset}${table.target ? ` · ${table.target}` : ""}`, false)), _("No public table is waiting for a player."));
}

async function playRobot(event) {
  event.preventDefault();
  const level = event.submitter && event.submitter.value;
  const nameField = document.getElementById("bot-name");
  if (nameField && !nameField.reportValidity()) return;
  const opened = await api.post("/tables", { name: nameField ? nameField.value : null, turn_seconds: 600 });
  if (!opened.ok) return toast(opened.data.detail || _("That did not work."), "error");
  const table = opened.data.table;
  const seated = await api.post(`/tables/${table}/bot`, { level });
  if (!seated.ok) return toast(seated.data.detail || _("That did not work."), "error");
  await api.post(`/tables/${table}/start`, { expected_version: seated.data.version });
  location.href = `/t/${table}/`;
}

document.getElementById("bot-game").addEventListener("submit", playRobot);
showMine();
showLobby();
