// Time at the table beyond the running clock: a player on vacation (until when, and the clock
// stopped with the time it will resume with), and more time given to the opponent, as Lichess's
// "+", with a toast to both players. Its elements are made here, beside the clock.
import { _, fmt, ngettext } from "./i18n.js";
import { toast } from "./site.js";
import { tableCall } from "./table-calls.js";
import { clockText } from "./texts.js";
import { $, mySeat, names, ui } from "./table-state.js";

function element(tag, id, className) {
  const made = document.createElement(tag);
  made.id = id;
  made.className = className;
  made.hidden = true;
  return made;
}

const paused = element("span", "clock-paused", "pill clock paused");
const moreTime = element("button", "btn-more-time", "icon-btn more-time");
moreTime.type = "button";
moreTime.textContent = "+";
const note = element("p", "vacation-note", "vacation-note");
note.setAttribute("role", "status");
$("clock-bank").after(paused, moreTime); // the turn clock, its bank, then these
$("status-line").before(note);

// The table's turn clock as a period: "1 day", "12 hours", "10 minutes", "30 seconds".
export function periodText(seconds) {
  const units = [
    [86400, "%(count)s day", "%(count)s days"],
    [3600, "%(count)s hour", "%(count)s hours"],
    [60, "%(count)s minute", "%(count)s minutes"],
    [1, "%(count)s second", "%(count)s seconds"],
  ];
  const [size, one, many] = units.find(([unit]) => seconds % unit === 0 && seconds >= unit) || units[3];
  const count = seconds / size;
  return fmt(ngettext(one, many, count), { count });
}

function whenText(iso) {
  const options = { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" };
  return new Date(iso).toLocaleString(document.documentElement.lang || [], options);
}

function vacationText(state) {
  const lines = [];
  state.seats.forEach((seat, index) => {
    if (!seat || !seat.vacation_until) return;
    const when = whenText(seat.vacation_until);
    lines.push(
      index === mySeat()
        ? fmt(_("You are on vacation until %(when)s: your slow clocks are stopped."), { when })
        : fmt(_("%(name)s is on vacation until %(when)s."), { name: names()[index], when }),
    );
  });
  return lines.join(" ");
}

function canGiveTime(state) {
  const deal = state.deal;
  const seat = mySeat();
  if (seat === null || state.status !== "playing" || !deal || deal.status !== "playing") return false;
  const opponent = state.seats[1 - seat];
  return deal.view.to_play === 1 - seat && Boolean(opponent) && !opponent.is_bot;
}

function announceGift(before, after) {
  const was = before && before.deal;
  const now = after.deal;
  if (!was || !now || !before.match || !after.match || before.match.number !== after.match.number) return;
  if (was.number !== now.number || now.more_time_given <= was.more_time_given) return;
  const receiver = now.view.to_play;
  const values = { name: names()[receiver === mySeat() ? 1 - receiver : receiver], time: periodText(after.options.turn_seconds) };
  let text = fmt(_("%(name)s got more time: +%(time)s."), values);
  if (mySeat() === receiver) text = fmt(_("%(name)s gave you more time: +%(time)s."), values);
  else if (mySeat() !== null) text = fmt(_("You gave %(name)s more time: +%(time)s."), values);
  toast(text, "info", 6, "more-time");
}

export function drawTime(before, after) {
  const deal = after.deal;
  const stopped = Boolean(deal && deal.paused_left !== null && after.status === "playing");
  paused.hidden = !stopped;
  const bank = (after.match && after.match.banks && after.match.banks[deal && deal.view.to_play]) || 0;
  if (stopped) paused.textContent = fmt(_("Stopped: %(time)s"), { time: clockText(Math.max(0, deal.paused_left - bank)) });
  const text = vacationText(after);
  note.hidden = !text;
  note.textContent = text;
  const giving = canGiveTime(after);
  moreTime.hidden = !giving;
  if (giving) {
    const label = fmt(_("Give your opponent more time: +%(time)s"), { time: periodText(after.options.turn_seconds) });
    moreTime.title = label;
    moreTime.setAttribute("aria-label", label);
  }
  announceGift(before, after);
}

moreTime.addEventListener("click", () => tableCall("more-time", { expected_version: ui.state.version }));

let last = null;
function onState() {
  drawTime(last, ui.state);
  last = ui.state;
}
window.addEventListener("ginmesa:state", onState);
onState();
