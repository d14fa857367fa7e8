// Ten-Thousand and Greedy: the dice drawn as dice, selected by click or by the number keys;
// roll on or bank (end the turn); hot dice and Greedy's bonus round; the turn total, the
// scoreboard, the last-turns banner, the computer's rolls one by one, and the scoring table.
// Actions are the dice notation (docs/records.md): "keep 1 5 roll", "keep 5 bank", "quit".

import { confirmBox, fill, h, keyHint, points } from "../dom.js";
import { debounce, scoreboard, who } from "./common.js";

const FACE_NAMES = ["", "one", "two", "three", "four", "five", "six"];
const PIPS = { 1: [4], 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8] };

/** A die as a picture: nine cells, the pips of *face* filled. */
export function dieFace(face) {
  const pips = new Set(PIPS[face] || []);
  return Array.from({ length: 9 }, (_, i) => h("span", { class: pips.has(i) ? "pip" : "cell", "aria-hidden": "true" }));
}

function smallDice(faces, label) {
  return h("span", { class: "dice small", role: "img", "aria-label": label }, faces.map((f) => h("span", { class: "die", dataset: { face: f } }, dieFace(f))));
}

const sameFaces = (a, b) => a.slice().sort().join(" ") === b.slice().sort().join(" ");

/** The move log asks the server what each old event did (GET /tables/{id}/steps) when a
 * page loads a game under way: an old event is then told in the same words as live. */
export const describeWithSteps = true;

/** One event in plain words for the move log (see table.js): "cpu:strong kept 1 5 5 for 200
 * and rolled 3 dice", "cpu:strong rolled 2 3 6", "ann banked 1,250". *info* has the views
 * before and after the update (before is null on a first load), the seat names and yours,
 * and on a first load *steps*: by seq, what each event did as the rules tell it ({seat,
 * points, score_changes, marks}), which the views of now cannot tell for an old turn. */
export function describeEvent(e, info) {
  const name = (seat) => (seat === info.you ? "You" : info.names[seat] || `seat ${seat}`);
  const before = (info.before && info.before.view) || null;
  const after = (info.after && info.after.view) || {};
  const step = (info.steps && info.steps.get(e.seq)) || null;
  const at = info.events.findIndex((x) => x.seq === e.seq);
  const prev = at > 0 ? info.events[at - 1] : null;
  if (e.by === -1) {
    const faces = e.move.replace(/^roll /, "");
    const next = info.next;
    let seat = null;
    let farkle;
    if (step) {
      seat = Number.isInteger(step.seat) ? step.seat : null;
      farkle = step.marks.includes("farkle");
    } else {
      if (prev && prev.by >= 0 && / roll$/.test(prev.move)) seat = prev.by;
      else if (!next && Number.isInteger(after.seat) && !after.over) seat = after.seat;
      farkle = (next && (next.by === -1 || next.by === -4)) || (!next && after.last && after.last.end === "farkle" && sameFaces(after.last.roll || [], faces.split(" ").map(Number)) && info.fresh.length > 0 && (after.roll || []).length === 0);
    }
    const roller = seat !== null ? name(seat) : "";
    return `${roller ? `${roller} rolled` : "Rolled"} ${faces}${farkle ? ": no score" : ""}`;
  }
  if (e.by === -4) return e.move === "skip" ? "The clock ran out: the turn was skipped" : `The host: ${e.move}`;
  if (e.move === "quit") return `${name(e.by)} quit and forfeited the game`;
  const m = e.move.match(/^keep (.*) (roll|bank)$/);
  if (!m) return `${name(e.by)}: ${e.move}`;
  const faces = m[1].split(" ").map(Number);
  const greedy = Boolean(after && "sum" in after);
  let scored = "";
  const group = (after.kept || []).find(([g]) => sameFaces(g, faces));
  if (m[2] === "roll" && step) scored = ` for ${points(step.points)}`;
  else if (m[2] === "roll" && group) scored = ` for ${points(group[1])}`;
  if (m[2] === "bank") {
    const last = after.last;
    let total = "";
    if (step) total = ` with ${points(step.score_changes[e.by] || 0)}`;
    else if (last && last.end === "bank" && last.seat === e.by) total = ` with ${points(last.points)}`;
    return `${name(e.by)} kept ${m[1]} and ${greedy ? "ended the turn" : "banked"}${total}`;
  }
  let count = "";
  let rolled = before && before.roll && before.roll.length ? before.roll.length : 0;
  if (step && prev && prev.by === -1) rolled = prev.move.replace(/^roll /, "").split(" ").length;
  if (rolled) {
    const n = rolled - faces.length || (greedy ? 9 : 6);
    count = ` ${n} ${n === 1 ? "die" : "dice"}`;
  }
  return `${name(e.by)} kept ${m[1]}${scored} and ${greedy ? "re-rolled" : "rolled"}${count}`;
}

export function create(ctx) {
  const greedy = ctx.game === "greedy";
  const dice = greedy ? 9 : 6;
  let model = null;
  let selected = new Set();
  let version = -1;
  let previewText = "";
  let previewSerial = 0;
  let gone = false; // destroyed: the page dropped this view; it acts on nothing
  let scoring = false; // the selection scores (the server's preview said so)

  const banner = h("div", { class: "banner", id: "banner", role: "status", hidden: true });
  const board = h("div", { class: "card scores-card" });
  const turnHead = h("h2", { id: "turn-head" });
  const turnTotal = h("p", { class: "turn-total", id: "turn-total" });
  const kept = h("div", { class: "kept", id: "kept" });
  const tray = h("div", { class: "dice tray", id: "dice", role: "group", "aria-label": "Dice rolled" });
  const selection = h("p", { class: "selection", id: "selection", "aria-live": "polite" });
  const bonus = h("div", { class: "banner bonus", id: "bonus", role: "status", hidden: true });
  const rollButton = h("button", { class: "primary", id: "roll", onclick: () => play("roll") }, greedy ? "Re-roll" : "Roll", keyHint("R"));
  const bankButton = h("button", { id: "bank", onclick: () => play("bank") }, greedy ? "End turn" : "Bank", keyHint(greedy ? "E" : "B"));
  const allButton = h("button", { id: "select-scoring", onclick: selectScoring }, "Select scoring dice", keyHint("A"));
  const quitButton = greedy ? h("button", { id: "quit", class: "danger", onclick: quit }, "Quit (forfeit)") : "";
  const controls = h("p", { class: "buttons" }, rollButton, bankButton, allButton, quitButton);
  const playByPlay = h("p", { class: "play-by-play", id: "play-by-play", "aria-live": "polite" });
  const lastTurn = h("p", { class: "last-turn muted", id: "last-turn" });
  const help = h(
    "details",
    { class: "card help", id: "help" },
    h("summary", {}, "Scoring table", keyHint("H")),
    greedy ? greedyHelp() : tenThousandHelp(),
  );
  fill(
    ctx.root,
    banner,
    h("div", { class: "dice-layout" },
      h("div", { class: "card turn-card" }, turnHead, turnTotal, kept, tray, selection, bonus, controls, playByPlay, lastTurn),
      board, help),
  );

  const refreshPreview = debounce(preview, 120);

  function mine() {
    return !gone && model && !model.readOnly && model.yourTurn && model.view && model.view.roll && model.view.roll.length > 0;
  }

  function faces() {
    const roll = model.view.roll || [];
    return [...selected].map((i) => roll[i]).sort((a, b) => a - b);
  }

  function toggle(index) {
    if (!mine() || ctx.busy()) return;
    if (selected.has(index)) selected.delete(index);
    else selected.add(index);
    scoring = false; // until the preview of the new selection says it scores
    setBusy(ctx.busy());
    drawDice();
    refreshPreview();
  }

  /** The largest keep the server lists (every scoring die). */
  function selectScoring() {
    if (!mine()) return;
    const keeps = (model.legal || []).filter((a) => a.startsWith("keep ") && a.endsWith(" roll"));
    if (!keeps.length) return;
    const best = keeps.map((a) => a.slice(5, -5).split(" ").map(Number)).sort((a, b) => b.length - a.length)[0];
    const roll = model.view.roll;
    const pool = roll.map((f, i) => [f, i]);
    selected = new Set();
    for (const f of best) {
      const found = pool.findIndex(([face, i]) => face === f && !selected.has(i));
      selected.add(pool[found][1]);
    }
    drawDice();
    refreshPreview();
  }

  async function preview() {
    const serial = ++previewSerial;
    bonus.hidden = true;
    scoring = false;
    if (model) {
      setBusy(ctx.busy());
      drawTotal();
    }
    if (!mine() || !selected.size) {
      selection.textContent = mine() ? "Select the dice to set aside." : "";
      return;
    }
    if (ctx.busy()) return; // a move is on its way: the position previewed is going
    const text = `keep ${faces().join(" ")} roll`;
    try {
      const answer = await ctx.preview({ action: text });
      if (serial !== previewSerial) return;
      if (!answer.ok) {
        selection.textContent = `Not a keep: ${answer.reason}`;
        selection.className = "selection warn";
        scoring = false;
        setBusy(ctx.busy());
        drawTotal();
        return;
      }
      const before = model.view.turn_total;
      const after = answer.view.turn_total;
      scoring = true;
      setBusy(ctx.busy());
      drawTotal(after);
      selection.className = "selection";
      selection.textContent = `Selected: ${points(after - before)} points · turn total ${points(after)}`;
      if (selected.size === model.view.roll.length) {
        bonus.hidden = false;
        if (greedy) {
          fill(bonus, "Bonus round! All nine dice score: re-roll all nine", keyHint("R"),
            ", everything at risk, or end the turn", keyHint("E"), ` with ${points(after)}.`);
        } else {
          fill(bonus, "Hot dice! All six dice score: roll all six again", keyHint("R"),
            `, keeping ${points(after)} at risk, or bank`, keyHint("B"), ".");
        }
      }
    } catch (err) {
      if (serial === previewSerial) selection.textContent = err.message;
    }
  }

  async function play(then) {
    if (!mine() || ctx.busy()) return;
    if (!selected.size) {
      ctx.say("Select at least one scoring die first (click a die or press its number).", "error");
      return;
    }
    setBusy(true);
    refreshPreview.cancel(); // a preview sent after the move would find the game moved on
    previewSerial += 1; // (or over: refused with a 409)
    const text = `keep ${faces().join(" ")} ${then}`;
    const ok = await ctx.act(text);
    if (ok) selected = new Set();
  }

  async function quit() {
    if (!model || model.readOnly) return;
    if (await confirmBox("Quit and forfeit this game? It counts as a loss.", { yes: "Quit and forfeit", no: "Keep playing" })) {
      await ctx.act("quit");
    }
  }

  /** Roll and Bank only for a selection the server says scores (a preview); Select
   * scoring dice whenever it is your turn. */
  function setBusy(busy) {
    allButton.disabled = busy || !mine();
    for (const b of [rollButton, bankButton]) b.disabled = busy || !mine() || !scoring;
  }

  /** The turn total, with the selection's points once previewed (*withSelection*). */
  function drawTotal(withSelection = null) {
    const view = model.view || {};
    const total = withSelection === null ? view.turn_total || 0 : withSelection;
    turnTotal.textContent = `Turn total: ${points(total)}${greedy ? ` · Sum ${points(view.sum || 0)}` : ""}`;
    turnTotal.classList.toggle("with-selection", withSelection !== null);
  }

  function drawDice() {
    const roll = (model.view && model.view.roll) || [];
    const active = mine();
    const focused = tray.contains(document.activeElement) ? document.activeElement.dataset.index : null;
    fill(
      tray,
      roll.map((face, i) =>
        h(
          "button",
          {
            class: `die${selected.has(i) ? " selected" : ""}`,
            dataset: { face, index: i },
            "aria-pressed": selected.has(i) ? "true" : "false",
            "aria-label": `Die ${i + 1}: ${FACE_NAMES[face]}${selected.has(i) ? ", selected" : ""}`,
            disabled: !active,
            onclick: () => toggle(i),
          },
          dieFace(face),
        ),
      ),
    );
    if (!roll.length && !(model.view && model.view.over)) tray.append(h("span", { class: "muted" }, "No dice on the table."));
    if (focused !== null) {
      const again = tray.querySelector(`[data-index="${focused}"]`);
      if (again && !again.disabled) again.focus(); // Space on a die keeps the focus there
    }
  }

  function narrate(fresh) {
    const parts = [];
    fresh.forEach((e, i) => {
      const next = fresh[i + 1];
      if (e.by === -1 && next && next.by === -1) parts.push(`rolled ${e.move.slice(5)}: no score · next turn`);
      else if (e.by === -1) parts.push(`rolled ${e.move.slice(5)}`);
      else if (e.by === -4) parts.push(`the host: ${e.move}`);
      else if (e.move === "quit") parts.push(`${who(model, e.by)} quit`);
      else {
        const m = e.move.match(/^keep (.*) (roll|bank)$/);
        if (m) parts.push(`${who(model, e.by)} kept ${m[1]} and ${m[2] === "roll" ? (greedy ? "re-rolled" : "rolled") : greedy ? "ended the turn" : "banked"}`);
        else parts.push(`${who(model, e.by)}: ${e.move}`);
      }
    });
    return parts.join(" · ");
  }

  function describeLast(view) {
    const last = view.last;
    if (!last) return "";
    // a Greedy player may quit while another has the dice: the quitter is not the seat to move
    const name = who(model, last.end === "quit" && Number.isInteger(view.quitter) ? view.quitter : last.seat);
    if (last.end === "bank") return `${name} ${greedy ? "ended the turn with" : "banked"} ${points(last.points)}.`;
    if (last.end === "farkle") return `${name} rolled ${(last.roll || []).join(" ")}: no score${greedy ? "" : " (farkle)"}, lost ${points(last.points)}.`;
    if (last.end === "quit") return `${name} quit and forfeited the game: the highest score among the other players wins.`;
    if (last.end === "skip") return `${name}'s turn was skipped (the clock ran out).`;
    return `${name}: ${last.end}`;
  }

  function render(next) {
    model = next;
    const view = model.view || {};
    if (model.version !== version) {
      version = model.version;
      selected = new Set();
    }
    fill(board, scoreboard(model), h("p", { class: "muted" }, `Target ${points(view.target)}`, greedy ? "" : view.entry ? ` · entry ${points(view.entry)}` : ""));
    banner.hidden = !view.last_turns || view.over;
    if (view.last_turns && !view.over) {
      const left = view.final_turns;
      banner.textContent = `Last turns: the target is reached. ${left} last turn${left === 1 ? "" : "s"} to play; then the highest score wins.`;
    }
    const seat = view.seat;
    if (view.over) turnHead.textContent = "Game over";
    else turnHead.textContent = seat === model.you && !model.readOnly ? "Your turn" : `${who(model, seat)} is playing`;
    turnTotal.hidden = Boolean(view.over); // no turn in progress at the end
    drawTotal();
    fill(kept, (view.kept || []).map(([group, pts]) => h("span", { class: "kept-group" }, smallDice(group, `Set aside: ${group.join(" ")}`), ` ${points(pts)}`)));
    drawDice();
    if ((model.fresh || []).some((e) => e.by === -1)) for (const d of tray.querySelectorAll(".die")) d.classList.add("rolling");
    setBusy(ctx.busy());
    allButton.hidden = !mine();
    controls.hidden = model.readOnly || view.over;
    if (quitButton) quitButton.hidden = model.readOnly || view.over;
    const story = narrate((model.fresh || []).filter((e) => e.by !== model.you || e.move === "quit"));
    if (story) playByPlay.textContent = story;
    lastTurn.textContent = describeLast(view);
    if (mine()) refreshPreview();
    else {
      selection.textContent = "";
      bonus.hidden = true;
    }
  }

  function onKey(event) {
    if (gone || !model || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.closest && event.target.closest("input, textarea, select, dialog")) return;
    const key = event.key.toLowerCase();
    if (/^[1-9]$/.test(key) && Number(key) <= dice) {
      const i = Number(key) - 1;
      if (model.view.roll && i < model.view.roll.length) {
        toggle(i);
        event.preventDefault();
      }
    } else if (key === "r" || key === "enter") {
      if (key === "enter" && event.target.closest && event.target.closest("button, a")) return;
      play("roll");
      event.preventDefault();
    } else if (key === "b" || key === "e") {
      play("bank");
      event.preventDefault();
    } else if (key === "a") {
      selectScoring();
    } else if (key === "escape") {
      selected = new Set();
      drawDice();
      refreshPreview();
    } else if (key === "h" || key === "?") {
      help.open = !help.open;
    }
  }
  document.addEventListener("keydown", onKey);

  function destroy() {
    gone = true;
    document.removeEventListener("keydown", onKey);
  }

  return { render, setBusy, destroy };
}

function tenThousandHelp() {
  const rows = [
    ["Single 1", "100"],
    ["Single 5", "50"],
    ["Three of a kind", "100 × the face; three 1s 1,000"],
    ["Each die beyond three", "doubles the group: four 4s 800, five 4s 1,600"],
    ["Three pairs (first roll of a turn)", "1,000"],
    ["1-2-3-4-5-6 (first roll of a turn)", "1,500"],
  ];
  const groups = [1, 2, 3, 4, 5, 6].map((f) => [3, 4, 5, 6].map((n) => (f === 1 ? 1000 : 100 * f) * 2 ** (n - 3)));
  return [
    table(["Dice", "Points"], rows),
    h("table", { class: "help-table" },
      h("caption", {}, "Groups"),
      h("thead", {}, h("tr", {}, h("th", {}, "Of a kind"), [1, 2, 3, 4, 5, 6].map((f) => h("th", {}, `${f}s`)))),
      h("tbody", {}, [3, 4, 5, 6].map((n, r) => h("tr", {}, h("th", {}, n), groups.map((g) => h("td", {}, points(g[r]))))))),
    h("p", {}, "Set aside at least one scoring die after every roll, then roll the rest or bank. A roll with nothing that scores is a farkle: the turn total is lost. When all six dice score (hot dice) you may roll all six again. Reaching 10,000 gives everyone else one last turn."),
  ];
}

function greedyHelp() {
  return [
    table(["Dice", "Points"], [
      ["Single 5", "50"],
      ["Single 1", "100"],
      ["Set of three 2s, 3s, 4s, 5s, 6s", "100 × the face (200-600)"],
      ["Set of three 1s", "1,000"],
    ]),
    h("p", {}, "Sets count only when rolled together; one roll may hold several sets. Keep scoring dice after every roll, then re-roll the rest or end the turn. A roll with no points loses the round's points. When all nine dice have scored, the bonus round: re-roll all nine or end the turn. The first to end a turn with 10,000 wins."),
  ];
}

function table(head, rows) {
  return h("table", { class: "help-table" },
    h("thead", {}, h("tr", {}, head.map((x) => h("th", { scope: "col" }, x)))),
    h("tbody", {}, rows.map((r) => h("tr", {}, r.map((x) => h("td", {}, x))))));
}
