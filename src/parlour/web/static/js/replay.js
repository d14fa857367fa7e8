// A finished game, step by step: every event in order with every seat's view at that
// point (the server replays the record; see docs/server.md). Keys: ←/→ step, Home/End.

import { get } from "./api.js";
import { fill, h, messageLine } from "./dom.js";
import { mountChat } from "./chat.js";
import { gameInfo, loadRenderer } from "./renderers.js";
import { eventWho } from "./table.js";
import { reviewBox } from "./coach.js";

export async function mount(main, where) {
  const id = Number(where.id);
  const invite = where.query.get("invite");
  const suffix = invite ? `&invite=${encodeURIComponent(invite)}` : "";
  const message = messageLine();
  let table;
  try {
    table = await get(`/tables/${id}${invite ? `?invite=${encodeURIComponent(invite)}` : ""}`);
  } catch (err) {
    main.append(h("h1", {}, `Replay of table #${id}`), message.el);
    message.show(err.message, "error");
    return null;
  }
  let step = 0;
  let steps = table.version;
  let answer = null;
  let before = null; // the answer at the step before, when stepping forward (for the words)
  let timer = null;
  let seat = table.you !== null ? table.you : 0;
  const counter = h("span", { id: "replay-step", "aria-live": "polite" });
  const eventText = h("p", { id: "replay-event", class: "play-by-play" });
  const slider = h("input", { type: "range", min: 0, max: steps, value: 0, id: "replay-slider", "aria-label": "Step" });
  const seatChoice = h("select", { id: "replay-seat", "aria-label": "Whose view" });
  const playButton = h("button", { id: "replay-play", onclick: togglePlay }, "▶ Play");
  const board = h("section", { class: "game", id: "game" });
  const button = (label, text, to) => h("button", { "aria-label": label, onclick: () => show(to()) }, text);
  main.append(
    h("header", { class: "table-head" },
      h("h1", {}, `Replay: ${table.title} `, h("span", { class: "muted" }, `#${id}`)),
      h("a", { href: `#/table/${id}${invite ? `?invite=${invite}` : ""}` }, "Back to the table")),
    h("div", { class: "card replay-controls" },
      button("First step", "« First", () => 0),
      button("Previous step", "◀", () => step - 1),
      slider,
      button("Next step", "▶", () => step + 1),
      button("Last step", "Last »", () => steps),
      playButton,
      counter,
      h("label", {}, " View of ", seatChoice)),
    eventText,
    message.el,
    board,
  );
  const info = await gameInfo(table.game);
  const review = info && info.coach ? await reviewBox(id, invite) : null; // the coach's look back
  if (review) main.append(review.el);
  mountChat(main, id, invite, null, { readOnly: true }); // the table's chat, as it stands
  const module = await loadRenderer(table.game);
  const game = module.create({
    root: board,
    game: table.game,
    act: async () => false,
    preview: async () => ({ ok: false, reason: "replay" }),
    say: (text, kind) => message.show(text, kind),
    busy: () => true,
  });
  slider.addEventListener("input", () => show(Number(slider.value)));
  seatChoice.addEventListener("change", () => {
    seat = Number(seatChoice.value);
    draw();
  });

  async function show(to) {
    step = Math.max(0, Math.min(steps, to));
    before = answer && answer.step === step - 1 ? answer : null; // the step just before
    try {
      answer = await get(`/tables/${id}/replay?step=${step}${suffix}`);
    } catch (err) {
      message.show(err.message, "error");
      stopPlay();
      return;
    }
    steps = answer.steps;
    slider.max = steps;
    slider.value = answer.step;
    if (!seatChoice.options.length) {
      fill(seatChoice, answer.names.map((name, i) => h("option", { value: i }, name)));
      seatChoice.value = String(seat);
    }
    draw();
  }

  function draw() {
    const view = answer.views[seat];
    const e = answer.event;
    counter.textContent = `Step ${answer.step} of ${answer.steps}`;
    if (review) review.at(answer.step);
    // in words where the game's module tells them ("ann kept 1 5 for 150 and rolled 4
    // dice"), the notation beside them for those who read it
    const words = e && module.describeEvent
      ? module.describeEvent(e, { before: before ? { view: before.views[seat] } : null, after: { view }, names: answer.names, you: null, events: [e], fresh: [e], next: null })
      : "";
    eventText.textContent = e ? words || `${eventWho(e, answer.names)}: ${e.move}` : "The start, before anything happened.";
    eventText.title = e ? `${eventWho(e, answer.names)}: ${e.move}` : "";
    const toMove = view.actors ? view.actors : view.to_move >= 0 ? [view.to_move] : [];
    game.render({
      version: answer.step,
      status: "finished",
      view,
      legal: [],
      yourTurn: false,
      toMove,
      result: null,
      you: seat,
      names: answer.names,
      seats: table.seats,
      options: table.options,
      events: [],
      fresh: e ? [e] : [],
      table,
      readOnly: true,
    });
    if (answer.step >= answer.steps) stopPlay();
  }

  function togglePlay() {
    if (timer) {
      stopPlay();
      return;
    }
    if (step >= steps) show(0);
    playButton.textContent = "⏸ Pause";
    timer = setInterval(() => show(step + 1), 900);
  }

  function stopPlay() {
    clearInterval(timer);
    timer = null;
    playButton.textContent = "▶ Play";
  }

  function onKey(event) {
    if (event.target.closest && event.target.closest("input, select, textarea")) return;
    const moves = { ArrowLeft: -1, ArrowRight: 1 };
    if (moves[event.key]) show(step + moves[event.key]);
    else if (event.key === "Home") show(0);
    else if (event.key === "End") show(steps);
    else return;
    event.preventDefault();
  }
  document.addEventListener("keydown", onKey);
  await show(Number(where.query.get("step") || 0));
  return () => {
    stopPlay();
    document.removeEventListener("keydown", onKey);
    if (game.destroy) game.destroy();
  };
}
