// The lobby: my games ("your turn" first), open games to join, and the form to create a
// game (docs/server.md, "Lobby").

import { games, get, post } from "./api.js";
import { fill, h, messageLine, points, timeLeft } from "./dom.js";
import { live } from "./live.js";
import { go } from "./main.js";

// The games, their options (defaults, allowed values), computer levels and clocks all come
// from the server (GET /games): nothing about a game is written here. The seats give the
// number of players; an option naming a file on the server's machine keeps its default.

export async function mount(main, where, app) {
  const mine = h("ul", { class: "tables", id: "my-games", "aria-live": "polite" });
  const open = h("ul", { class: "tables", id: "open-games", "aria-live": "polite" });
  const watchList = h("ul", { class: "tables", id: "watch-games" });
  import("./players.js").then((m) => m.watchBox(watchList)); // endings: games to watch
  const message = messageLine();
  const list = await games().catch(() => []);
  const titles = list.map((g) => g.title);
  const intro = app.account
    ? null
    : h(
        "section",
        { class: "card" },
        h("h1", {}, "Welcome to parlour"),
        h(
          "p",
          { id: "game-titles" },
          titles.length
            ? `${titles.slice(0, -1).join(", ")}${titles.length > 1 ? " and " : ""}${titles.slice(-1)}, against friends or the computer. `
            : "Classic parlour games, against friends or the computer. ",
          h("a", { href: "#/signup" }, "Sign up"),
          " or ",
          h("a", { href: "#/login" }, "log in"),
          " to play.",
        ),
      );
  const form = app.account ? await createForm(message) : null;
  main.append(
    intro || "",
    h(
      "div",
      { class: "lobby" },
      list.length ? gameCards(list, form) : "",
      app.account
        ? h("section", { class: "card", "aria-labelledby": "mine-h" },
            h("h2", { id: "mine-h" }, "My games"), mine)
        : "",
      h("section", { class: "card", "aria-labelledby": "open-h" },
        h("h2", { id: "open-h" }, "Open games"), open),
      h("section", { class: "card", "aria-labelledby": "watch-h" }, h("h2", { id: "watch-h" }, "Watch"), watchList),
      form ? form.section : "",
    ),
  );

  async function refresh() {
    try {
      const [openTables, myTables] = await Promise.all([
        get("/tables"),
        app.account ? get("/tables?which=mine") : Promise.resolve([]),
      ]);
      fill(mine, myTables.length ? myTables.map((t) => row(t, true)) : h("li", {}, "No games yet."));
      const joinable = openTables.filter((t) => t.you === null);
      fill(open, joinable.length ? joinable.map((t) => row(t, false)) : h("li", {}, "None right now."));
    } catch (err) {
      message.show(err.message, "error");
    }
  }
  await refresh();
  const timer = setInterval(refresh, 5000); // open tables are not pushed: look again
  const stop = live.listen((m) => {
    if (m.type === "turn" || m.type === "table") refresh();
  });
  return () => {
    clearInterval(timer);
    stop();
  };
}

function seatText(seat) {
  if (seat.kind === "open") return "open seat";
  if (seat.kind === "cpu") return seat.name || `cpu:${seat.level}`;
  return seat.you ? `${seat.name} (you)` : seat.name;
}

function row(table, mineList) {
  const status = {
    lobby: "waiting for players",
    active: "in play",
    finished: "finished",
    cancelled: "cancelled",
  }[table.status];
  const badge = table.your_turn ? h("span", { class: "badge turn" }, "Your turn") : "";
  const names = table.seats.map((s) => (s.kind === "open" ? "open seat" : s.you ? "you" : s.name || `cpu:${s.level}`));
  let state = "";
  if (table.status === "active") {
    const movers = (table.to_move || []).map((s) => names[s]).filter(Boolean);
    const left = table.deadline ? ` · ${timeLeft(table.deadline)} left` : "";
    state = movers.length ? ` · ${movers.join(", ")} to move${left}` : left;
  } else if (table.status === "finished" && table.result) {
    const { winners, scores } = table.result;
    const won = winners.map((s) => names[s]).join(" and ");
    // a resigned seat lost, even when the computer that played it out won
    const resigned = (table.resigned || []).includes(table.you);
    const mine = winners.includes(table.you) && !resigned;
    state = ` · ${mine ? "you won" : resigned ? "you resigned" : `${won} won`} (${scores.map((p) => points(p)).join(" to ")})`;
  }
  return h(
    "li",
    { class: table.your_turn ? "your-turn" : "" },
    h(
      "a",
      { href: `#/table/${table.id}`, class: "table-link" },
      h("strong", {}, table.title),
      ` #${table.id}`,
    ),
    " ",
    badge,
    h("span", { class: "muted" }, ` ${status}`, h("span", { class: "table-state" }, state), " · ", table.seats.map(seatText).join(", ")),
    !mineList && table.status === "lobby"
      ? h("a", { class: "button", href: `#/table/${table.id}?join=1` }, "Join")
      : "",
  );
}

async function createForm(message) {
  const list = await games();
  const byName = Object.fromEntries(list.map((g) => [g.name, g]));
  const game = h(
    "select",
    { id: "new-game", name: "game" },
    list.map((g) => h("option", { value: g.name }, g.title)),
  );
  const summary = h("p", { class: "muted", id: "game-summary" });
  const seats = h("ol", { class: "seats", id: "new-seats" });
  const options = h("div", { class: "options", id: "new-options" });
  const minPlayers = h("input", { id: "min-players", type: "number", min: 2, value: 2 });
  const minRow = h("p", { class: "min-row" }, h("label", { for: "min-players" },
    "Begin when at least this many have voted: "), minPlayers);
  const visibility = h(
    "select",
    { id: "visibility" },
    h("option", { value: "open" }, "Open: listed in the lobby"),
    h("option", { value: "invite" }, "Invite only: join by link"),
  );
  const clock = h("select", { id: "clock" });
  // the time zone whose midnight starts a daily game's days: the browser's unless chosen
  const here = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  const zones = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [here];
  const zone = h("select", { id: "time-zone" }, [...new Set([here, "UTC", ...zones])].map((z) => h("option", { value: z }, z)));
  zone.value = here;
  const addSeat = h("button", { type: "button", id: "add-seat" }, "Add a seat");
  const create = h("button", { type: "submit", class: "primary", id: "create" }, "Create game");
  const form = h(
    "form",
    { class: "stack", onsubmit: submit },
    h("label", { for: "new-game" }, "Game"),
    game,
    summary,
    h("fieldset", {}, h("legend", {}, "Seats"), seats, addSeat),
    minRow,
    h("fieldset", {}, h("legend", {}, "Options"), options),
    h("label", { for: "visibility" }, "Who may join"),
    visibility,
    h("label", { for: "clock" }, "Turn clock"),
    clock,
    h("label", { for: "time-zone" }, "Time zone (a daily game's day begins at its midnight)"),
    zone,
    h("label", { class: "check" }, h("input", { type: "checkbox", id: "rated", checked: true }), " Rated (the result changes ratings)"),
    create,
    message.el,
  );

  function seatChoice(spec, value) {
    const select = h(
      "select",
      { class: "seat-kind", "aria-label": "Who sits here" },
      h("option", { value: "open" }, "A person (open seat)"),
      spec.bot_levels.map((level) => h("option", { value: `cpu:${level}` }, `Computer: ${level}`)),
    );
    select.value = value;
    const remove = h("button", { type: "button", class: "link", onclick: () => {
      item.remove();
      redraw();
    } }, "Remove");
    const item = h("li", {}, select, remove);
    return item;
  }

  function redraw() {
    const spec = byName[game.value];
    const count = seats.children.length;
    addSeat.disabled = count >= spec.max_players;
    for (const button of seats.querySelectorAll("button")) button.disabled = count <= Math.max(1, spec.min_players);
    const votes = spec.start === "vote";
    minRow.hidden = !votes;
    minPlayers.max = count;
    if (Number(minPlayers.value) > count) minPlayers.value = count;
  }

  function chooseGame() {
    const spec = byName[game.value];
    summary.textContent = spec.summary;
    fill(seats, h("li", { dataset: { me: "1" } }, h("span", {}, "You")));
    const first = spec.bot_levels.length ? `cpu:${spec.bot_levels[spec.bot_levels.length - 1]}` : "open";
    const others = Math.max(1, spec.min_players - 1);
    for (let i = 0; i < others; i += 1) seats.append(seatChoice(spec, first));
    fill(
      options,
      Object.entries(spec.options)
        .filter(([name, o]) => name !== "players" && !o.file && (o.kind !== "str" || o.choices.length))
        .map(([name, o]) => optionInput(name, o)),
    );
    const chosenClock = clock.value;
    fill(
      clock,
      h("option", { value: "" }, "No clock"),
      spec.clock_days.map((d) => h("option", { value: d }, `${d} day${d > 1 ? "s" : ""} per move`)),
    );
    clock.value = spec.clock_days.map(String).includes(chosenClock) ? chosenClock : "";
    minPlayers.min = spec.min_players;
    minPlayers.value = spec.min_players;
    redraw();
  }

  addSeat.addEventListener("click", () => {
    const spec = byName[game.value];
    seats.append(seatChoice(spec, "open"));
    redraw();
  });
  game.addEventListener("change", () => {
    chooseGame();
    chosenCard(game.value);
  });
  seats.addEventListener("change", redraw);
  chooseGame();

  async function submit(event) {
    event.preventDefault();
    const spec = byName[game.value];
    const seatList = [...seats.children].map((li) =>
      li.dataset.me ? "me" : li.querySelector("select").value,
    );
    const chosen = {};
    for (const input of options.querySelectorAll("[data-option]")) {
      const o = spec.options[input.dataset.option];
      let value = o.kind === "bool" ? input.checked : input.value;
      if (o.kind === "int") value = Number(value);
      if (value !== o.default) chosen[input.dataset.option] = value;
    }
    const body = {
      game: spec.name,
      seats: seatList,
      options: chosen,
      visibility: visibility.value,
      clock_days: clock.value ? Number(clock.value) : null,
      time_zone: zone.value,
      start: !seatList.includes("open"),
      rated: form.querySelector("#rated").checked, // endings: rated or casual
    };
    if (spec.start === "vote") body.min_players = Number(minPlayers.value);
    create.disabled = true;
    message.show("Creating the table…");
    try {
      const table = await post("/tables", body);
      go(`#/table/${table.id}`);
    } catch (err) {
      message.show(err.message, "error");
      create.disabled = false;
    }
  }

  const section = h("section", { class: "card", "aria-labelledby": "new-h" }, h("h2", { id: "new-h" }, "New game"), form);
  return {
    section,
    current: () => game.value,
    /** A game card was chosen: that game in the form, the form in view, the focus on it. */
    choose(name) {
      game.value = name;
      chooseGame();
      chosenCard(name);
      section.scrollIntoView({ block: "start" });
      game.focus({ preventScroll: true });
    },
  };
}

/** Mark the card of the game the form holds (aria-pressed), and only that one. */
function chosenCard(name) {
  for (const card of document.querySelectorAll("#game-cards button.game-card")) {
    card.setAttribute("aria-pressed", String(card.dataset.game === name));
  }
}

/** "2–6 players", "4 players", "1 player". */
function playersText(spec) {
  const { min_players: lo, max_players: hi } = spec;
  if (lo === hi) return `${lo} player${lo === 1 ? "" : "s"}`;
  return `${lo}–${hi} players`;
}

// The games the server hosts, a card each: its picture (GET /games/<name>/picture, the
// game's own or a generic one), title, players and summary line. Choosing one puts it in
// the "New game" form; logged out, a card leads to signing up.
function gameCards(list, form) {
  const cards = list.map((spec) => {
    const players = playersText(spec);
    const summaryId = `game-summary-${spec.name}`;
    const inside = [
      h("img", {
        class: "game-picture",
        src: `/games/${encodeURIComponent(spec.name)}/picture`,
        alt: `Picture of ${spec.title}`,
        width: 64,
        height: 64,
      }),
      h("span", { class: "game-title" }, spec.title),
      h("span", { class: "game-players" }, players),
      h("span", { class: "game-line", id: summaryId }, spec.summary),
    ];
    const card = form
      ? h(
          "button",
          {
            type: "button",
            class: "game-card",
            dataset: { game: spec.name },
            "aria-label": `${spec.title}, ${players}: a new game`,
            "aria-describedby": summaryId,
            "aria-pressed": String(form.current() === spec.name),
            onclick: () => form.choose(spec.name),
          },
          inside,
        )
      : h(
          "a",
          {
            class: "game-card",
            href: "#/signup",
            dataset: { game: spec.name },
            "aria-label": `${spec.title}, ${players}: sign up to play`,
            "aria-describedby": summaryId,
          },
          inside,
        );
    return h("li", {}, card);
  });
  return h(
    "section",
    { class: "card games-card", "aria-labelledby": "games-h" },
    h("h2", { id: "games-h" }, "Games"),
    h("ul", { class: "game-cards", id: "game-cards" }, cards),
  );
}

function optionInput(name, option) {
  const id = `option-${name}`;
  const words = name.replaceAll("_", " ");
  const label = words.charAt(0).toUpperCase() + words.slice(1);
  let input;
  if (option.kind === "bool") {
    input = h("input", { id, type: "checkbox", dataset: { option: name } });
    input.checked = Boolean(option.default);
    return h("p", { class: "check" }, input, h("label", { for: id }, ` ${label}`), h("small", {}, ` ${option.help}`));
  }
  if (option.choices.length) {
    input = h("select", { id, dataset: { option: name } }, option.choices.map((c) => h("option", { value: c }, c)));
    input.value = option.default;
  } else {
    input = h("input", {
      id,
      type: "number",
      dataset: { option: name },
      min: option.minimum,
      max: option.maximum,
      step: option.step || 1,
      value: option.default,
    });
  }
  return h("p", {}, h("label", { for: id }, `${label} `), input, h("small", {}, ` ${option.help}${allowedInWords(option)}`));
}

/** The values a number option takes, in words: " (0 to 10)", " (1,000 to 100,000)",
 * " (2 or more)", "" (thousands grouped as the scores are). */
export function allowedInWords(option) {
  if (option.choices && option.choices.length) return "";
  const lo = typeof option.minimum === "number" ? points(option.minimum) : option.minimum;
  const hi = typeof option.maximum === "number" ? points(option.maximum) : option.maximum;
  if (lo !== null && lo !== undefined && hi !== null && hi !== undefined) return ` (${lo} to ${hi})`;
  if (lo !== null && lo !== undefined) return ` (${lo} or more)`;
  if (hi !== null && hi !== undefined) return ` (up to ${hi})`;
  return "";
}
