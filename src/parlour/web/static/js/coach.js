// The coach (docs/server.md, "The coach"): a toggle at an unrated table that shows, for your
// own decision only, each choice with its figures (win 53.4%), the best marked ★; and a
// finished game's review (each decision's loss, each player's biggest mistakes) for the
// replay. Generic: the figures come from the server, which asks the game's coach.
import { get } from "./api.js";
import { fill, h } from "./dom.js";

/** The browser remembers the coach turned on (for every unrated table) under this key. */
const COACH_ON = "parlour.coach";

/** The coach's box for a table page: `update(table, model)` after each draw. */
export function coachBox(tableId) {
  // shown only for a game with a coach (the games listing says so)
  const toggle = h("input", { type: "checkbox", id: "coach-toggle" });
  toggle.checked = localStorage.getItem(COACH_ON) === "on"; // as the player left it
  const list = h("ol", { class: "coach-list", id: "coach-list", "aria-live": "polite" });
  const note = h("p", { class: "muted", id: "coach-note" });
  const label = h("label", { class: "check" }, toggle, " Coach: each choice's chance of winning");
  const el = h("div", { class: "card coach", id: "coach", hidden: true }, label, note, list);
  let serial = 0;
  let last = null;

  async function refresh() {
    const mine = ++serial;
    fill(list);
    note.textContent = "";
    if (!toggle.checked || !last) return;
    const { table, model } = last;
    if (!model.yourTurn) {
      note.textContent = "The figures show when it is your decision.";
      return;
    }
    try {
      const answer = await get(`/tables/${tableId}/coach`);
      if (mine !== serial) return;
      const advice = answer.advice;
      if (!advice) {
        note.textContent = "The coach has nothing to say here.";
        return;
      }
      note.textContent = advice.note || "";
      fill(list, advice.choices.map((c) => h("li", { class: c.best ? "best" : "" },
        c.best ? "★ " : "", h("code", {}, c.action), " ", c.figures.map((f) => f.text).join(" · "))));
    } catch (err) {
      if (mine === serial && table === last.table) note.textContent = err.message;
    }
  }

  toggle.addEventListener("change", () => {
    if (toggle.checked) localStorage.setItem(COACH_ON, "on");
    else localStorage.removeItem(COACH_ON);
    refresh();
  });
  return {
    el,
    update(table, model, hasCoach) {
      const seated = hasCoach && table.you !== null && table.you !== undefined && table.status === "active";
      el.hidden = !seated;
      if (!seated) return;
      toggle.disabled = Boolean(table.rated);
      if (table.rated) {
        toggle.checked = false;
        note.textContent = "The coach is not offered at rated tables.";
        fill(list);
        return;
      }
      last = { table, model };
      refresh();
    },
  };
}

/** A finished game's review as a box for the replay: every player's biggest mistakes, and
 * `at(step)` the judgement of the decision the step applied. `null` for a game without a
 * coach. */
export async function reviewBox(tableId, invite) {
  let review;
  try {
    review = await get(`/tables/${tableId}/review${invite ? `?invite=${encodeURIComponent(invite)}` : ""}`);
  } catch {
    return null;
  }
  const pct = (v) => `${(100 * v).toFixed(1)}`;
  const current = h("p", { id: "review-step", "aria-live": "polite" });
  if (!review.decisions.length) { // nothing judged: not "0 decisions, No mistakes" for each
    const none = h("p", { class: "muted", id: "review-none" },
      "No decision could be judged: the coach has no solved table for this game's rules.");
    return { el: h("section", { class: "card review", id: "review" }, h("h2", {}, "The coach's review"), none), at() {} };
  }
  const players = review.players.map((p) => h("div", { class: "review-player" },
    h("h3", {}, `${p.player}: ${pct(p.total_loss)} points of win chance lost in ${p.decisions} decisions`),
    p.mistakes.length
      ? h("ol", { class: "mistakes" }, p.mistakes.map((m) => h("li", {},
        `event ${m.index + 1}: `, h("code", {}, m.made), ` (${m.text}) instead of `, h("code", {}, m.best),
        ` (${m.best_text}): ${pct(m.loss)} lost`)))
      : h("p", { class: "muted" }, "No mistakes.")));
  const el = h("section", { class: "card review", id: "review" }, h("h2", {}, "The coach's review"), current, ...players);
  const byIndex = new Map(review.decisions.map((d) => [d.index, d]));
  return {
    el,
    at(step) {
      const d = byIndex.get(step - 1);
      current.textContent = d
        ? `${d.player}: ${d.made} (${d.text}); best ${d.best} (${d.best_text}); lost ${pct(d.loss)}`
        : "";
    },
  };
}
