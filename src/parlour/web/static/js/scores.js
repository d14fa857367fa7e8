// The scorebook (docs/server.md, "The scorebook"): Greedy tournament standings and Rummy
// statistics, per person.

import { get } from "./api.js";
import { h, messageLine, points } from "./dom.js";

const PAGES = {
  standings: {
    title: "Greedy standings",
    path: "/standings/greedy",
    intro: "The manual's tournament: each finished game of one person against the computer (two seats, target 10,000). A win earns 5,000 + 10 × the points over 10,000; a loss costs 1,000 + 5 × the computer's points over 10,000.",
    columns: [
      ["Name", (r) => r.name],
      ["Games", (r) => r.games],
      ["Wins", (r) => r.wins],
      ["Losses", (r) => r.losses],
      ["Points", (r) => points(r.points)],
      ["Best margin", (r) => (r.best_margin === null ? "–" : points(r.best_margin))],
    ],
  },
  stats: {
    title: "Rummy statistics",
    path: "/stats/rummy",
    intro: "Finished games with a computer player count, for every person at the table.",
    columns: [
      ["Name", (r) => r.name],
      ["Played", (r) => r.played],
      ["Won", (r) => r.won],
      ["Lost", (r) => r.lost],
      ["Win rate", (r) => `${Math.round(r.win_rate * 100)}%`],
      ["Best game", (r) => (r.best_game_score === null ? "–" : points(r.best_game_score))],
      ["Best round", (r) => (r.best_round_score === null ? "–" : points(r.best_round_score))],
      ["Average round", (r) => (r.average_round_score === null ? "–" : r.average_round_score.toFixed(1))],
      ["Rounds", (r) => r.rounds],
      ["Streak", (r) => r.current_streak],
      ["Longest streak", (r) => r.longest_streak],
    ],
  },
};

export async function mount(main, where, app) {
  const page = PAGES[where.page];
  const message = messageLine();
  const body = h("tbody", {});
  main.append(
    h("section", { class: "card" },
      h("h1", {}, page.title),
      h("p", { class: "muted" }, page.intro),
      h("div", { style: { overflowX: "auto" } },
        h("table", { class: "scoreboard", id: "scorebook" },
          h("thead", {}, h("tr", {}, page.columns.map(([name]) => h("th", { scope: "col" }, name)))),
          body)),
      message.el),
  );
  try {
    const rows = await get(page.path);
    const me = app.account ? app.account.name.toLowerCase() : null;
    body.append(...rows.map((r) => h("tr", { class: r.name.toLowerCase() === me ? "you" : "" },
      page.columns.map(([, cell], i) => (i === 0 ? h("th", { scope: "row" }, cell(r)) : h("td", {}, cell(r)))))));
    if (!rows.length) message.show("No games counted yet.");
  } catch (err) {
    message.show(err.message, "error");
  }
}
