// Profile: alert preferences saved as you tick them (PATCH /api/me), web push for this device
// when the site has a key, and the browser's time zone as a suggestion.
import { api } from "./api.js";
import { $, pageData } from "./dom.js";
import { _ } from "./i18n.js";
import { WORKER_URL } from "./site.js";

// Each alert's default channels come from the server (tables/alerts/prefs.py, json_script).
const status = $("alerts-status");
const prefs = { ...pageData("alert-defaults"), ...(pageData("alert-prefs") || {}) };

async function save() {
  const answer = await api.patch("/me", { alert_prefs: prefs });
  status.textContent = answer.ok ? _("Saved.") : answer.data.detail || _("That did not work.");
}

for (const row of document.querySelectorAll("#alert-grid [data-kind]")) {
  const kind = row.dataset.kind;
  for (const box of row.querySelectorAll("[data-channel]")) {
    box.checked = prefs[kind].includes(box.dataset.channel);
    box.addEventListener("change", () => {
      const chosen = new Set(prefs[kind]);
      if (box.checked) chosen.add(box.dataset.channel);
      else chosen.delete(box.dataset.channel);
      prefs[kind] = [...chosen];
      save();
    });
  }
}
const digest = $("pref-digest");
digest.checked = Boolean(prefs.digest);
digest.addEventListener("change", () => {
  prefs.digest = digest.checked;
  save();
});
const everyChallenge = document.getElementById("pref-every-challenge-email");
if (everyChallenge) {
  everyChallenge.checked = Boolean(prefs.every_challenge_email);
  everyChallenge.addEventListener("change", () => {
    prefs.every_challenge_email = everyChallenge.checked;
    save();
  });
}

const zone = document.querySelector("[data-detect-zone]");
if (zone && (!zone.value || zone.value === "UTC")) {
  zone.placeholder = Intl.DateTimeFormat().resolvedOptions().timeZone;
}

function keyBytes(base64) {
  const padded = (base64 + "===".slice((base64.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(padded), (char) => char.charCodeAt(0));
}

async function subscribePush() {
  if (!("serviceWorker" in navigator) || !("PushManager" in window)) {
    status.textContent = _("This browser cannot show notifications.");
    return;
  }
  const key = await api.get("/me/push/key");
  if (!key.ok || !key.data.public_key) {
    status.textContent = _("Notifications are not set up on this site yet.");
    return;
  }
  if ((await Notification.requestPermission()) !== "granted") {
    status.textContent = _("Notifications were not allowed.");
    return;
  }
  const registration = await navigator.serviceWorker.register(WORKER_URL);
  const subscription = await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: keyBytes(key.data.public_key),
  });
  const saved = await api.post("/me/push/subscriptions", subscription.toJSON());
  status.textContent = saved.ok ? _("Notifications are on for this device.") : _("That did not work.");
}

$("push-subscribe").addEventListener("click", subscribePush);
