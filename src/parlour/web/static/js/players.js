// Ratings, players and watching (docs/server.md, "Ending games, ratings and spectators"):
// #/ratings/<game> a game's leaderboard, #/players/<name> a player's page, #/watch the
// games in progress anyone may watch; watchBox(el) fills the lobby's "Watch" list.

import { games, get } from "./api.js";
import { fill, h, messageLine, points } from "./dom.js";
import { playerLink } from "./endings.js";

export async function mount(main, where) {
  if (where.page === "ratings") return leaderboard(main, where.id);
  if (where.page === "players") return playerPage(main, decodeURIComponent(where.id || ""));
  return watchPage(main);
}

function table(columns, rows, id) {
  return h("table", { class: "scores", id },
    h("thead", {}, h("tr", {}, ...columns.map(([title]) => h("th", { scope: "col" }, title)))),
    h("tbody", {}, ...rows.map((r) => h("tr", {}, ...columns.map(([, cell]) => h("td", {}, cell(r)))))));
}

const rating = (r) => h("span", {}, String(r.rating), r.provisional ? h("abbr", { class: "provisional", title: "provisional: fewer than 5 rated games" }, " ?") : "");

async function leaderboard(main, game) {
  const message = messageLine();
  const list = await games().catch(() => []);
  const name = game || (list[0] && list[0].name);
  const pick = h("nav", { class: "game-pick", "aria-label": "Games" },
    ...list.flatMap((g, i) => [i ? " · " : "", h("a", { href: `#/ratings/${g.name}`, "aria-current": g.name === name ? "page" : null }, g.title)]));
  const body = h("div", { id: "leaderboard" });
  main.append(h("section", { class: "card" }, h("h1", {}, "Ratings"), pick, message.el, body));
  if (!name) return;
  try {
    const board = await get(`/ratings/${name}`);
    fill(body,
      h("h2", {}, board.title),
      h("p", { class: "muted" }, `Rating = mu − 3 × sigma (openskill, Plackett-Luce). “?” marks a provisional rating: fewer than ${board.provisional_games} rated games.`),
      board.players.length
        ? table([
          ["#", (r) => r.place],
          ["Player", (r) => playerLink(r.player)],
          ["Rating", rating],
          ["Games", (r) => r.games],
          ["Wins", (r) => r.wins],
        ], board.players, "leaderboard-table")
        : h("p", {}, "No rated games yet."));
  } catch (err) {
    message.show(err.message, "error");
  }
}

async function playerPage(main, name) {
  const message = messageLine();
  const body = h("div", { id: "player" });
  main.append(h("section", { class: "card" }, h("h1", { id: "player-name" }, name), message.el, body));
  try {
    const p = await get(`/players/${encodeURIComponent(name)}`);
    const parts = [
      h("p", { id: "games-played" }, `${p.games_played} game${p.games_played === 1 ? "" : "s"} played`),
      h("h2", {}, "Ratings"),
      p.ratings.length
        ? table([
          ["Game", (r) => h("a", { href: `#/ratings/${r.game}` }, r.game)],
          ["Rating", rating],
          ["Games", (r) => r.games],
          ["Wins", (r) => r.wins],
        ], p.ratings, "player-ratings")
        : h("p", {}, "No rated games yet."),
    ];
    if (p.kind === "person") {
      parts.push(h("h2", {}, "Recent games"), p.recent.length
        ? table([
          ["Table", (g) => h("a", { href: `#/table/${g.table}` }, `#${g.table}`)],
          ["Game", (g) => g.title],
          ["Players", (g) => g.players.join(", ")],
          ["Result", (g) => (g.resigned ? "resigned" : g.won ? "won" : "lost")],
          ["Rating", (g) => (g.rating_after === null ? (g.rated ? "–" : "casual") : `${g.rating_before} → ${g.rating_after}`)],
        ], p.recent, "recent-games")
        : h("p", {}, "No finished games yet."));
      if (p.standings) parts.push(h("h2", {}, "Greedy standings"), h("p", { id: "player-standings" }, `${p.standings.games} games, ${p.standings.wins} wins, ${p.standings.losses} losses, ${points(p.standings.points)} points`));
      if (p.statistics) parts.push(h("h2", {}, "Rummy statistics"), h("p", { id: "player-statistics" }, `${p.statistics.played} played, ${p.statistics.won} won, ${p.statistics.lost} lost`));
    }
    fill(body, parts);
  } catch (err) {
    message.show(err.message, "error");
  }
}

function watchRow(t) {
  const names = t.seats.map((s) => s.name || `cpu:${s.level}`).join(" vs ");
  return h("li", {}, h("a", { href: `#/table/${t.id}`, class: "watch-link" }, `${t.title} #${t.id}`), ` · ${names}`);
}

/** Fill *el* with the games anyone may watch (the lobby's "Watch" list). */
export async function watchBox(el) {
  try {
    const list = await get("/watch?limit=10");
    fill(el, list.length ? list.map(watchRow) : h("li", {}, "No games in progress."));
  } catch (err) {
    fill(el, h("li", {}, err.message));
  }
}

async function watchPage(main) {
  const list = h("ul", { class: "tables", id: "watch-list" });
  main.append(h("section", { class: "card" }, h("h1", {}, "Watch a game"), h("p", { class: "muted" }, "Games in progress at open tables: you see what every player sees, nothing hidden."), list));
  await watchBox(list);
}
