// Hollywood scoring on the page: the score sheet in three columns (games 1–3, each with both
// running totals and its closed state) and the three games' results at the end of the match.
// Everything comes from the server's match record (match.games, row.games): no rule here.
import { element } from "./dom.js";
import { _, fmt } from "./i18n.js";
import { dealLine, outcomeName } from "./texts.js";

export function isHollywood(match) {
  return Boolean(match && match.games && match.games.length);
}

function gameTitle(number) {
  return fmt(_("Game %(number)s"), { number });
}

function gameState(game, names) {
  return game.closed ? fmt(_("closed: %(name)s"), { name: names[game.winner] }) : _("open");
}

function pair(totals) {
  return `${totals[0]}–${totals[1]}`;
}

// The score sheet: one row per deal with each game's running totals, then each game's state.
export function hollywoodSheet(match, names) {
  const table = element("table", "score-sheet hollywood-sheet");
  table.setAttribute("aria-label", fmt(_("Hollywood score sheet: %(first)s–%(second)s in each game"), { first: names[0], second: names[1] }));
  const head = element("tr");
  head.append(element("th", "", "#"));
  for (const game of match.games) {
    const cell = element("th", game.closed ? "game closed" : "game", gameTitle(game.number));
    cell.dataset.game = String(game.number);
    head.append(cell);
  }
  head.append(element("th", "", _("Result")));
  table.appendChild(element("thead")).append(head);
  const body = table.appendChild(element("tbody"));
  match.score_sheet.forEach((row, index) => {
    const line = element("tr");
    line.append(element("td", "", String(index + 1)));
    const before = index ? match.score_sheet[index - 1].games : null;
    row.games.forEach((totals, game) => {
      const counted = row.winner !== null && totals[row.winner] !== (before ? before[game][row.winner] : 0);
      line.append(element("td", counted ? "counted" : "", pair(totals)));
    });
    line.append(element("td", "", row.outcome === "dead" ? outcomeName("dead") : `${outcomeName(row.outcome)} +${row.points}`));
    line.title = dealLine(row, names);
    body.append(line);
  });
  const foot = element("tr", "game-states");
  foot.append(element("th", "", fmt(_("%(first)s–%(second)s"), { first: names[0], second: names[1] })));
  for (const game of match.games) {
    const cell = element("td", game.closed ? "game-state closed" : "game-state", gameState(game, names));
    cell.dataset.game = String(game.number);
    foot.append(cell);
  }
  foot.append(element("td"));
  table.appendChild(element("tfoot")).append(foot);
  return table;
}

// The end of the match: each game's points, bonuses and total by seat, and who won it.
export function hollywoodResults(match, names) {
  const box = element("section", "hollywood-results");
  box.append(element("h3", "", _("The three games")));
  const table = element("table", "score-sheet final-scores");
  const head = element("tr");
  for (const text of ["", names[0], names[1]]) head.append(element("th", "", text));
  table.appendChild(element("thead")).append(head);
  const body = table.appendChild(element("tbody"));
  for (const game of match.games) {
    const line = element("tr", "game-result");
    line.dataset.game = String(game.number);
    const winner = game.winner === null ? "" : ` · ${fmt(_("won by %(name)s"), { name: names[game.winner] })}`;
    line.append(element("th", "", `${gameTitle(game.number)}${winner}`));
    for (const [seat, score] of (game.final_scores || [null, null]).entries()) {
      const text = score
        ? `${score.deal_points} + ${score.game_bonus} + ${score.deal_bonus} = ${score.total}`
        : String(game.totals[seat]);
      line.append(element("td", "", text));
    }
    body.append(line);
  }
  box.append(table, element("p", "muted", _("Each game: its points + game bonus + bonus for the deals it counted = total.")));
  return box;
}
