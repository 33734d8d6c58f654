// Cards as the page draws them: names for screen readers, faces for the four deck designs
// (the design itself is CSS: .deck-<design> on the table), and orderings for display only.
import { _, fmt } from "./i18n.js";

const SUIT_GLYPH = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RANK_ORDER = "A23456789TJQK";
const DISPLAY_SUITS = "SHCD"; // alternating colours when sorting by suit

function rankText(code) {
  return code[0] === "T" ? "10" : code[0];
}

function rankName(code) {
  const names = { A: _("ace"), J: _("jack"), Q: _("queen"), K: _("king") };
  return names[code[0]] || rankText(code);
}

function suitName(code) {
  const names = { S: _("spades"), H: _("hearts"), D: _("diamonds"), C: _("clubs") };
  return names[code[1]];
}

export function cardName(code) {
  return fmt(_("%(rank)s of %(suit)s"), { rank: rankName(code), suit: suitName(code) });
}

export function shortName(code) {
  return `${rankText(code)}${SUIT_GLYPH[code[1]]}`;
}

export function shortNames(codes) {
  return codes.map(shortName).join(" ");
}

function suitIcon(suitsUrl, suit, className) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("class", className);
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const use = document.createElementNS("http://www.w3.org/2000/svg", "use");
  use.setAttribute("href", `${suitsUrl}#${suit}`);
  svg.append(use);
  return svg;
}

function corner(code, suitsUrl, extraClass) {
  const box = document.createElement("span");
  box.className = `corner ${extraClass}`;
  box.setAttribute("aria-hidden", "true");
  const rank = document.createElement("span");
  rank.textContent = rankText(code);
  box.append(rank, suitIcon(suitsUrl, code[1], "suit"));
  return box;
}

// A face-up card; tag "button" for the hand and piles, "span" for pictures.
export function cardFace(code, suitsUrl, tag = "span") {
  const card = document.createElement(tag);
  card.className = `card s-${code[1]}`;
  card.dataset.card = code;
  if (tag === "button") {
    card.type = "button";
    card.setAttribute("aria-label", cardName(code));
  } else {
    card.setAttribute("role", "img");
    card.setAttribute("aria-label", cardName(code));
  }
  const big = document.createElement("span");
  big.className = "face-rank";
  big.setAttribute("aria-hidden", "true");
  big.textContent = rankText(code);
  const points = document.createElement("span");
  points.className = "points";
  points.setAttribute("aria-hidden", "true");
  card.append(
    corner(code, suitsUrl, "top"),
    big,
    suitIcon(suitsUrl, code[1], "pip-small"),
    suitIcon(suitsUrl, code[1], "pip"),
    corner(code, suitsUrl, "bottom"),
    points,
  );
  return card;
}

export function cardBack() {
  const card = document.createElement("span");
  card.className = "card back";
  card.setAttribute("aria-hidden", "true");
  return card;
}

function rankIndex(code) {
  return RANK_ORDER.indexOf(code[0]);
}

export function bySuit(codes) {
  return [...codes].sort(
    (a, b) => DISPLAY_SUITS.indexOf(a[1]) - DISPLAY_SUITS.indexOf(b[1]) || rankIndex(a) - rankIndex(b),
  );
}

export function byRank(codes) {
  return [...codes].sort(
    (a, b) => rankIndex(a) - rankIndex(b) || DISPLAY_SUITS.indexOf(a[1]) - DISPLAY_SUITS.indexOf(b[1]),
  );
}
