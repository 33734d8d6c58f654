// The seated player's private notes on the match (the table page's "My notes"): saved as typed
// (PUT /api/tables/<token>/note, a second after the last key), and read again when the page comes
// back into view, so that notes typed on another device show here. Only their author gets them.
import { api } from "./api.js";
import { _ } from "./i18n.js";
import { isOffline } from "./offline.js";

const SAVE_AFTER_MS = 1000;

const form = document.getElementById("note-form");
const area = document.getElementById("note-text");
const status = document.getElementById("note-status");
let timer = null;
let dirty = false;

async function save() {
  clearTimeout(timer);
  timer = null;
  if (isOffline()) {
    status.textContent = _("You are offline: this waits for the network.");
    return;
  }
  const answer = await api.put(area.dataset.api, { text: area.value });
  if (answer.ok) {
    dirty = false;
    status.textContent = _("Saved");
  } else {
    status.textContent = answer.data.detail || _("Not saved: try again.");
  }
}

async function reload() {
  if (dirty || document.activeElement === area || isOffline()) return; // never over what is being typed
  const answer = await api.get(area.dataset.api);
  if (answer.ok && !dirty) area.value = answer.data.text;
}

if (form && area) {
  area.addEventListener("input", () => {
    dirty = true;
    status.textContent = "";
    clearTimeout(timer);
    timer = setTimeout(save, SAVE_AFTER_MS);
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    save();
  });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") reload();
  });
  window.addEventListener("focus", reload);
}
