// The order the hand is shown in: Groups (the server's best melds, then deadwood), Suit, Rank,
// or the player's own order from dragging. Only display: which cards meld comes from the server.
import { byRank, bySuit } from "./cards.js";

export const SORT_MODES = ["groups", "suit", "rank", "own"];

export function arrangeHand(hand, coach, mode, ownOrder) {
  if (mode === "groups" && coach) {
    const melds = coach.melds.map((cards) => ({ kind: "meld", cards }));
    const deadwood = byRank(coach.deadwood_cards);
    return deadwood.length ? [...melds, { kind: "deadwood", cards: deadwood }] : melds;
  }
  if (mode === "suit") return [{ kind: "plain", cards: bySuit(hand) }];
  if (mode === "rank") return [{ kind: "plain", cards: byRank(hand) }];
  return [{ kind: "plain", cards: ownArrangement(hand, ownOrder) }];
}

// The player's order, with cards that arrived since placed at the right end.
export function ownArrangement(hand, ownOrder) {
  const held = new Set(hand);
  const kept = (ownOrder || []).filter((code) => held.has(code));
  const known = new Set(kept);
  return [...kept, ...hand.filter((code) => !known.has(code))];
}

// Move `code` to just before `target` (or to the end when target is null).
export function moveCard(order, code, target) {
  const rest = order.filter((item) => item !== code);
  const at = target ? rest.indexOf(target) : rest.length;
  rest.splice(at < 0 ? rest.length : at, 0, code);
  return rest;
}
