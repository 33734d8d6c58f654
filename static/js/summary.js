// The end-of-deal box (both hands in melds, deadwood, layoffs, outcome, points) and the
// end-of-match scores; and the score sheet table the side panel shows too.
import { cardFace, shortNames } from "./cards.js";
import { element } from "./dom.js";
import { hollywoodResults, hollywoodSheet, isHollywood } from "./hollywood.js";
import { _, fmt } from "./i18n.js";
import { reviewPanel } from "./review.js";
import { dealLine, outcomeName } from "./texts.js";

function cardRow(groups, suitsUrl, laid = new Set()) {
  const row = element("div", "mini-row");
  for (const group of groups) {
    if (!group.cards.length) continue;
    const box = element("div", `mini-group ${group.kind}`);
    if (group.kind === "meld") box.setAttribute("aria-label", fmt(_("meld: %(cards)s"), { cards: shortNames(group.cards) }));
    for (const code of group.cards) {
      const card = cardFace(code, suitsUrl);
      if (laid.has(code)) card.classList.add("laid");
      box.append(card);
    }
    row.append(box);
  }
  return row;
}

function shownHand(heading, melds, deadwoodCards, deadwood, suitsUrl, layoffs = []) {
  const box = element("section", "shown");
  box.append(element("h3", "", heading));
  const groups = melds.map((cards) => ({ kind: "meld", cards }));
  groups.push({ kind: "deadwood", cards: deadwoodCards });
  box.append(cardRow(groups, suitsUrl));
  if (layoffs.length) {
    box.append(element("p", "", _("Laid off:")));
    const list = element("ul", "layoffs");
    for (const layoff of layoffs) {
      list.append(element("li", "", fmt(_("%(card)s onto %(meld)s"), {
        card: shortNames([layoff.card]), meld: shortNames(layoff.meld),
      })));
    }
    box.append(list);
  }
  box.append(element("p", "", fmt(_("Deadwood: %(points)s"), { points: deadwood })));
  return box;
}

function showdownHands(result, knocker, names, suitsUrl) {
  const defender = 1 - knocker;
  const hands = element("div", "hands");
  hands.append(
    shownHand(fmt(_("%(name)s (knocked)"), { name: names[knocker] }), result.knocker_melds,
      result.knocker_deadwood_cards, result.knocker_deadwood, suitsUrl),
    shownHand(names[defender], result.defender_melds, result.defender_deadwood_cards,
      result.defender_deadwood, suitsUrl, result.layoffs),
  );
  return hands;
}

function deadHands(groupings, names, suitsUrl) {
  const hands = element("div", "hands");
  groupings.forEach((grouping, seat) => {
    hands.append(shownHand(names[seat], grouping.melds, grouping.deadwood_cards, grouping.deadwood, suitsUrl));
  });
  return hands;
}

function outcomeSentence(result, knocker, names) {
  if (result.outcome === "dead") return _("Dead deal: the stock ran out. Nobody scores and the same dealer deals again.");
  const winner = result.winner === "knocker" ? knocker : 1 - knocker;
  const sentences = {
    knock: _("%(name)s knocked and scores %(points)s points."),
    gin: _("Gin! %(name)s scores %(points)s points."),
    big_gin: _("Big gin! %(name)s scores %(points)s points."),
    undercut: _("Undercut! %(name)s scores %(points)s points."),
  };
  return fmt(sentences[result.outcome], { name: names[winner], points: result.points });
}

// A player's name as a column heading: a long one (up to 40 characters) ends in an ellipsis,
// in full on hover, so the score columns keep their room. An account's name links to its page.
function nameHeader(name, url) {
  const cell = element("th", "who");
  cell.title = name;
  if (url) {
    const link = element("a", "", name);
    link.href = url;
    cell.append(link);
  } else {
    cell.textContent = name;
  }
  return cell;
}

// Each seat's player page, or null (a guest, a robot, a free seat), from a table state.
export function seatUrls(state) {
  return (state.seats || []).map((seat) => (seat && seat.player_url) || null);
}

export function scoreSheetTable(sheet, names, urls = []) {
  const table = element("table", "score-sheet");
  const head = element("tr");
  head.append(element("th", "", "#"), nameHeader(names[0], urls[0]), nameHeader(names[1], urls[1]), element("th", "", _("Result")));
  table.appendChild(element("thead")).append(head);
  const body = table.appendChild(element("tbody"));
  sheet.forEach((row, index) => {
    const line = element("tr");
    line.append(element("td", "", String(index + 1)), element("td", "", String(row.totals[0])),
      element("td", "", String(row.totals[1])),
      element("td", "", row.outcome === "dead" ? outcomeName("dead") : `${outcomeName(row.outcome)} +${row.points}`));
    line.title = dealLine(row, names);
    body.append(line);
  });
  return table;
}

// The match's score sheet: one column per seat, or Hollywood's three games; a line instead of
// an empty sheet when the match was resigned before any deal ended.
export function matchSheet(match, names, urls = []) {
  if (!match.score_sheet.length && match.outcome === "resigned") {
    return element("p", "muted no-deal-finished", _("No deal was finished: the match ended by resignation."));
  }
  return isHollywood(match) ? hollywoodSheet(match, names) : scoreSheetTable(match.score_sheet, names, urls);
}

function finalScores(match, names, urls) {
  const table = element("table", "score-sheet final-scores");
  const head = element("tr");
  head.append(element("th"), nameHeader(names[0], urls[0]), nameHeader(names[1], urls[1]));
  table.appendChild(element("thead")).append(head);
  const body = table.appendChild(element("tbody"));
  const rows = [
    [_("Deal points"), "deal_points"], [_("Game bonus"), "game_bonus"],
    [_("Deals won"), "deals_won"], [_("Bonus for deals won"), "deal_bonus"], [_("Total"), "total"],
  ];
  for (const [label, key] of rows) {
    const line = element("tr");
    line.append(element("th", "", label));
    for (const score of match.final_scores) line.append(element("td", "", String(score[key])));
    body.append(line);
  }
  return table;
}

// ``urls``: each seat's player page (or null); ``archiveUrl``: the match's archive page by its id
// (null: none to link to).
function matchEnding(match, names, urls, archiveUrl) {
  const box = element("div", "match-end");
  const reasons = {
    resigned: _("%(name)s wins: the other player resigned."),
    forfeit: _("%(name)s wins: the other player ran out of time."),
    completed: _("%(name)s wins the match!"),
  };
  const text = reasons[match.outcome] || reasons.completed;
  box.append(element("p", "outcome", match.winner === null ? _("The match is over.") : fmt(text, { name: names[match.winner] })));
  if (isHollywood(match)) box.append(hollywoodResults(match, names));
  if (match.final_scores) box.append(finalScores(match, names, urls));
  const archive = match.status === "over" && match.id && archiveUrl ? archiveUrl(match.id) : null;
  if (archive) {
    const link = element("a", "btn small secondary replay-match", _("Replay this match"));
    link.href = archive;
    const line = element("p");
    line.append(link);
    box.append(line);
  }
  return box;
}

// The classic rules' knock: the knocker's discard lies face down on the pile (RULES.md).
// An archived deal's showdown (replay.js) carries no rule set: no face-down note there.
export function knockedFaceDown(v) {
  const outcome = v.result ? v.result.outcome : null;
  return Boolean(v.ruleset?.knock_face_down && v.knocker !== null && outcome && outcome !== "dead" && outcome !== "big_gin");
}

// How the deal ended: the outcome, the face-down knock (classic), both hands in melds with the
// layoffs and deadwood.
function dealEnding(deal, names, suitsUrl) {
  const view = deal.view;
  const result = view.result;
  const box = element("div", "deal-end");
  box.append(element("p", "outcome", outcomeSentence(result, view.knocker, names)));
  if (knockedFaceDown(view)) {
    box.append(element("p", "face-down", fmt(_("%(name)s knocked with a face-down discard."), { name: names[view.knocker] })));
  }
  box.append(result.outcome === "dead" ? deadHands(deal.dead_hands, names, suitsUrl) : showdownHands(result, view.knocker, names, suitsUrl));
  return box;
}

// {title, body} of the box for the table's current state, or null when there is nothing to sum up.
// At a match's end: the winner and the bonuses, then the last deal's showdown, with no further click.
// ``kept``: the box of a deal that ended, kept on screen after the server dealt the next one.
// ``archiveUrl``: the archive page of a match by its id, linked from the match's end (or null).
export function summaryContent(state, names, suitsUrl, kept = false, archiveUrl = null) {
  const deal = state.deal;
  const match = state.match;
  const view = deal && deal.view;
  const urls = seatUrls(state);
  const body = element("div");
  if (state.status === "match_over") {
    body.append(matchEnding(match, names, urls, archiveUrl));
    if (view && view.result) body.append(element("h3", "", fmt(_("Deal %(number)s"), { number: deal.number })), dealEnding(deal, names, suitsUrl));
    body.append(element("h3", "", _("Score sheet")), matchSheet(match, names, urls));
    const lastDeal = reviewPanel(state.table, state, names);
    if (lastDeal) body.append(lastDeal);
    return { title: fmt(_("Match %(number)s is over"), { number: match.number }), body };
  }
  if (!view || !view.result) return null;
  body.append(dealEnding(deal, names, suitsUrl));
  if (match.dealer_next !== null && match.dealer_next !== undefined) {
    body.append(element("p", "", fmt(_("%(name)s deals next."), { name: names[match.dealer_next] })));
  }
  if (kept) {
    body.append(element("p", "muted robot-waits", _("The clock ran out: the next deal has started.")));
  } else if (state.you.seat !== null && state.seats.some((seat) => seat && seat.is_bot)) {
    body.append(element("p", "muted robot-waits", _("The robot waits for you: the next deal starts when you press NEXT DEAL, or when the clock runs out.")));
  }
  body.append(element("h3", "", _("Score sheet")), matchSheet(match, names, urls));
  const review = reviewPanel(state.table, state, names);
  if (review) body.append(review);
  return { title: fmt(_("Deal %(number)s"), { number: deal.number }), body };
}
