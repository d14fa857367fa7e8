// Ending a game and starting the next one, on the table page (docs/server.md, "Ending
// games, ratings and spectators"): resign (after a confirm), abort before the first move,
// offer or accept a rematch, and what the others did (the socket's table_event). The
// table page calls drawEndings(page) after each draw; everything shown comes from the
// table the server sent (status, you, seats, ended, resigned, rematch).

import { post } from "./api.js";
import { confirmBox, fill, h } from "./dom.js";
import { live } from "./live.js";
import { go } from "./main.js";

/** A link to a player's page (people and computer levels: "cpu:hard"). */
export function playerLink(name) {
  return h("a", { href: `#/players/${encodeURIComponent(name)}`, class: "player-link" }, name);
}

function listenOnce(page) {
  if (page.endingsListening) return;
  page.endingsListening = true;
  const stop = live.listen((m) => {
    if (page.stopped) {
      stop();
      return;
    }
    if (m.type !== "table_event" || m.table !== page.id) return;
    const you = page.app.account && m.name === page.app.account.name;
    const text = {
      resigned: `${you ? "You" : m.name} resigned.`,
      aborted: `${you ? "You" : m.name} aborted the game: it counts for nobody.`,
      rematch_offer: `${you ? "You" : m.name} offered a rematch.`,
      rematch: `Rematch: table #${m.new_table}.`,
    }[m.event];
    if (text) page.message.show(text);
    page.reload();
  });
}

async function act(page, path, body) {
  try {
    const answer = await post(`/tables/${page.id}/${path}`, body);
    if (answer && answer.new_table) go(`#/table/${answer.new_table}`);
    else await page.reload();
  } catch (err) {
    page.message.show(err.message, "error");
  }
}

/** The box of ending buttons and notes under the table's result (made once per page). */
export function drawEndings(page) {
  const t = page.table;
  if (!t) return;
  listenOnce(page);
  if (!page.endingsBox || !page.endingsBox.isConnected) {
    page.endingsBox = h("section", { class: "card endings", id: "endings", "aria-live": "polite" });
    // in the table's side column (table.js's mount point), so the game keeps its room
    if (page.actions) page.actions.append(page.endingsBox);
    else page.resultBox.after(page.endingsBox);
  }
  const box = page.endingsBox;
  const mine = t.you !== null ? t.seats[t.you] : null;
  const playing = mine && !mine.removed && t.status === "active";
  const items = [];
  const people = t.seats.filter((s) => s.kind !== "open").map((s) => s.name || `cpu:${s.level}`);
  items.push(h("p", { class: "players" }, "Players: ", ...people.flatMap((n, i) => (i ? [" · ", playerLink(n)] : [playerLink(n)])),
    h("span", { class: "muted" }, t.rated ? " · rated" : " · casual")));
  if (t.you === null && t.status === "active") items.push(h("p", { class: "watching", id: "watching" }, "You are watching this game."));
  if (t.ended && t.ended.how === "resigned" && t.resigned.length) {
    items.push(h("p", { id: "resigned-note" }, `Resigned: ${t.resigned.map((s) => page.names[s]).join(", ")}.`));
  }
  if (t.ended && t.ended.how === "aborted") items.push(h("p", { id: "aborted-note" }, "This game was aborted before the first move: it counts for nobody."));
  const buttons = [];
  if (playing) {
    const moved = page.events.some((e) => e.by >= 0);
    if (!moved) buttons.push(h("button", { id: "abort", onclick: () => act(page, "abort") }, "Abort"));
    buttons.push(h("button", {
      id: "resign",
      class: "danger",
      onclick: async () => {
        if (await confirmBox("Resign this game? It counts as a loss.", { yes: "Resign", no: "Keep playing" })) {
          await act(page, "resign", { version: page.model ? page.model.version : t.version });
        }
      },
    }, "Resign"));
  }
  if (t.status === "finished" && t.you !== null) {
    const offer = t.rematch;
    const name = page.app.account ? page.app.account.name : null;
    if (offer && offer.table) {
      buttons.push(h("a", { href: `#/table/${offer.table}`, id: "rematch-link", class: "button" }, `Go to the rematch #${offer.table}`));
    } else if (offer && offer.accepted.includes(name)) {
      items.push(h("p", { id: "rematch-waiting" }, "Rematch offered: waiting for the others."));
    } else {
      const label = offer && offer.accepted.length ? `Accept the rematch (${offer.accepted.join(", ")})` : "Offer a rematch";
      buttons.push(h("button", { id: "rematch", class: "primary", onclick: () => act(page, "rematch") }, label));
    }
  }
  if (buttons.length) items.push(h("p", { class: "ending-buttons" }, ...buttons));
  fill(box, items);
}
