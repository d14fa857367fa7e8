// One table: its lobby (seats, invite link, join, vote, start, leave) and, once it has
// started, the game, kept live over the WebSocket. Every change comes from the server:
// the page applies updates in version order, shows another player's moves one by one, and
// after a reconnection or a refused action draws the table as the server says it is.
// Another player's move (a person's or the computer's) stays on screen for the pace (800 ms
// unless set) before the next update is drawn; a click or a key shows the latest at once.
// The move log tells every event in plain words (the game module's describeEvent).
//
// Mount points for other parts of the page: <aside id="table-side"> (beside the game on a
// laptop, below it on a phone; a side panel such as chat appends itself there) and
// <div id="table-actions"> at its top (buttons such as resign or rematch).

import { get, post, refusalInWords } from "./api.js";
import { confirmBox, fill, h, keyHint, messageLine, pace, points, sleep, timeLeft } from "./dom.js";
import { mountChat } from "./chat.js";
import { live } from "./live.js";
import { go } from "./main.js";
import { gameInfo, loadRenderer } from "./renderers.js";
import { drawEndings } from "./endings.js";
import { coachBox } from "./coach.js";

export { timeLeft }; // (in dom.js: the lobby shows it too)

/** The tab's icon: the site's, or with a mark when it is your turn. */
function turnIcon(mine) {
  const link = document.querySelector('link[rel="icon"]');
  if (link) link.href = mine ? "favicon-turn.svg" : "favicon.svg";
}

/** An event in notation with who made it: for a game whose module tells no words. */
function plainEvent(e, info) {
  const name = e.by === info.you ? "You" : e.by === -1 ? "Chance" : e.by === -4 ? "The host" : info.names[e.by] || `seat ${e.by}`;
  return `${name}: ${e.move}`;
}

export async function mount(main, where, app) {
  const table = new TablePage(main, Number(where.id), where.query.get("invite"), app);
  await table.start(where.query.get("join") === "1");
  return () => table.stop();
}

/** Seat names as shown: "ann (you)", "cpu:hard", "open seat". */
export function seatNames(seats) {
  return seats.map((s) => {
    if (s.kind === "open") return "open seat";
    const name = s.name || `cpu:${s.level}`;
    return s.you ? `${name} (you)` : name;
  });
}

/** Who made an event: a seat's name, "dice/cards/tiles" for chance, "host". */
export function eventWho(event, names) {
  if (event.by === -1) return "chance";
  if (event.by === -4) return "host";
  if (event.by === -5) return "table";
  return names[event.by] || `seat ${event.by}`;
}

class TablePage {
  constructor(main, id, invite, app) {
    this.main = main;
    this.id = id;
    this.invite = invite;
    this.app = app;
    this.table = null;
    this.model = null;
    this.events = [];
    this.queue = [];
    this.draining = false;
    this.busy = false;
    this.waiters = [];
    this.game = null;
    this.gameName = null;
    this.message = messageLine();
    this.message.el.id = "table-message";
    this.header = h("header", { class: "table-head" });
    this.lobbyBox = h("section", { class: "card lobby-box", id: "lobby-box" });
    this.gameBox = h("section", { class: "game", id: "game" });
    this.resultBox = h("section", { class: "result", id: "result", "aria-live": "polite" });
    this.eventList = h("ol", { class: "events", id: "events", reversed: true });
    this.eventsBox = h(
      "details",
      { class: "card events-box" },
      h("summary", {}, "Every event, in the game's notation"),
      this.eventList,
    );
    this.module = null;
    this.holdUntil = 0; // until when the last move by someone else stays on screen
    this.skipping = false;
    this.release = null;
    this.logList = h("ol", { class: "move-log", id: "move-log" });
    this.logged = new Set(); // seqs in the log
    this.skipButton = h("button", { type: "button", id: "skip", class: "skip", hidden: true, onclick: () => this.skip() }, "Show the latest", keyHint("any key"));
    this.actions = h("div", { class: "table-actions", id: "table-actions" });
    this.logBox = h("section", { class: "card log-box", id: "log-box", "aria-labelledby": "log-h" },
      h("div", { class: "log-head" }, h("h2", { id: "log-h" }, "Moves"), this.skipButton),
      this.logList);
    this.coach = coachBox(this.id);
    this.side = h("aside", { class: "table-side", id: "table-side", "aria-label": "Moves and table" }, this.actions, this.coach.el, this.logBox, this.eventsBox);
    this.onAnyInput = (event) => {
      if (!this.release && !this.queue.length) return;
      if (event.type === "keydown" && (event.ctrlKey || event.metaKey || event.altKey || event.key === "Tab" || event.key === "Shift")) return;
      this.skip();
    };
  }

  async start(joinNow) {
    this.main.classList.add("table-main");
    this.main.append(this.header, this.message.el, this.resultBox, this.lobbyBox,
      h("div", { class: "table-grid" }, this.gameBox, this.side));
    document.addEventListener("keydown", this.onAnyInput, true);
    document.addEventListener("pointerdown", this.onAnyInput, true);
    this.stopListening = live.listen((m) => this.onMessage(m));
    await this.reload();
    if (!this.table) return;
    this.stopChat = mountChat(this.side || this.main, this.id, this.invite, this.app); // the side column
    if (joinNow && this.table.status === "lobby" && this.table.you === null) await this.join();
    live.follow(this.id, this.invite);
  }

  stop() {
    this.stopped = true;
    this.main.classList.remove("table-main");
    document.removeEventListener("keydown", this.onAnyInput, true);
    document.removeEventListener("pointerdown", this.onAnyInput, true);
    this.skip();
    clearTimeout(this.headTimer);
    document.title = "parlour";
    turnIcon(false);
    this.stopListening && this.stopListening();
    this.stopChat && this.stopChat();
    this.dropGame();
    live.unfollow(this.id);
  }

  get names() {
    return this.table ? seatNames(this.table.seats) : [];
  }

  /** Fetch the whole table (seats, view, legal, events) and draw it. */
  async reload(fresh = []) {
    const query = this.invite ? `?invite=${encodeURIComponent(this.invite)}` : "";
    try {
      const table = await get(`/tables/${this.id}${query}`);
      const drawn = this.table && this.table.status === table.status;
      if (drawn && this.model && table.version < this.model.version) {
        return; // an update overtook this answer: the page is newer already
      }
      this.table = table;
      this.events = table.events.slice();
      this.model = this.modelFrom(table);
      await this.draw(fresh);
    } catch (err) {
      fill(this.header, h("h1", {}, `Table #${this.id}`));
      this.message.show(err.message, "error");
    }
  }

  modelFrom(source) {
    return {
      version: source.version,
      status: source.status,
      view: source.view,
      legal: source.legal,
      yourTurn: source.your_turn,
      toMove: source.to_move,
      result: source.result,
      deadline: source.deadline,
    };
  }

  onMessage(m) {
    if (this.stopped) return;
    if (m.type === "status" && m.state === "open" && this.table) {
      this.reload(); // reconnected: the server sends the table whole; fetch seats too
    } else if (m.type === "table" && m.table === this.id) {
      this.reload();
    } else if (m.type === "update" && m.table === this.id) {
      this.queue.push(m);
      this.drain();
    }
  }

  /** Apply queued updates in order. After a move by someone else is drawn, the next update
   * waits until it has been on screen for the pace, unless skipped (skip()). */
  async drain() {
    if (this.draining) return;
    this.draining = true;
    try {
      while (this.queue.length && !this.stopped) {
        const wait = this.holdUntil - performance.now();
        if (wait > 0 && !this.skipping) await this.hold(wait);
        if (!this.queue.length || this.stopped) break;
        const update = this.queue.shift();
        if (this.model && update.version < this.model.version) continue;
        const wasLobby = !this.table || this.table.status !== update.status;
        const seen = new Set(this.events.map((e) => e.seq));
        const fresh = update.events.filter((e) => !seen.has(e.seq));
        const before = this.model;
        this.events.push(...fresh);
        this.events.sort((a, b) => a.seq - b.seq);
        this.model = this.modelFrom(update);
        if (wasLobby) {
          if (this.table && this.table.status === "lobby") this.message.clear();
          await this.reload(fresh); // started or finished: seats and names may have changed
        } else {
          this.table.status = update.status;
          await this.draw(fresh, before);
        }
        this.wake();
        // a move by another seat, or chance or the host (the dice another player rolled)
        const others = fresh.some((e) => e.by !== this.table.you);
        if (others && pace() > 0) this.holdUntil = performance.now() + pace();
      }
    } finally {
      this.draining = false;
      if (!this.queue.length) this.skipping = false;
    }
  }

  /** Keep the screen as it is for *ms* (a move by someone else), or until skip(). */
  async hold(ms) {
    this.skipButton.hidden = false;
    this.gameBox.dataset.pacing = "holding";
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.release = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.release = null;
    this.skipButton.hidden = true;
    delete this.gameBox.dataset.pacing;
  }

  /** Show the latest at once: every queued update is drawn without waiting. */
  skip() {
    this.holdUntil = 0;
    if (!this.release && !this.queue.length) return;
    this.skipping = true;
    if (this.release) this.release();
  }

  wake() {
    const version = this.model ? this.model.version : 0;
    this.waiters = this.waiters.filter((w) => {
      if (version >= w.version) {
        w.resolve();
        return false;
      }
      return true;
    });
  }

  waitFor(version, ms) {
    if (this.model && this.model.version >= version) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter = { version, resolve: () => resolve(true) };
      this.waiters.push(waiter);
      setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(false);
      }, ms);
    });
  }

  /** Send an action in the game's notation; resolves true when accepted and drawn. A
   * refusal is shown with the server's reason and the table drawn as it is now. With
   * *retryStale*, an action that does not depend on the position (rearranging one's own
   * rack) made against an old version is sent once more against the current one. */
  async act(text, { retryStale = false } = {}) {
    if (this.busy) return false;
    this.skip(); // acting: the latest position, not one still being shown
    this.busy = true;
    this.message.show("…");
    try {
      if (live.open) {
        const ack = await live.action(this.id, text, this.model.version);
        if (!(await this.waitFor(ack.version, 3000))) await this.reload();
      } else {
        const answer = await post(`/tables/${this.id}/actions`, { action: text, version: this.model.version });
        const seen = new Set(this.events.map((e) => e.seq));
        this.events.push(...answer.events.filter((e) => !seen.has(e.seq)));
        const before = this.model;
        this.model = { ...this.modelFrom(answer), deadline: this.model.deadline };
        this.table.status = answer.status;
        await this.draw(answer.events, before);
      }
      this.message.clear();
      return true;
    } catch (err) {
      if (err.code === "stale_version" && retryStale) {
        await this.reload();
        this.busy = false;
        return await this.act(text); // (awaited: the finally below runs after it)
      }
      if (err.code === "stale_version") {
        await this.reload(); // the server's table now (the error carries it too)
      } else {
        await this.draw(); // nothing changed: the same table, drawn again
      }
      this.message.show(refusalInWords(err), "error");
      return false;
    } finally {
      this.busy = false;
      if (this.game && this.game.setBusy) this.game.setBusy(false);
    }
  }

  /** Ask the server what an action (or tiles on squares) would do; see docs/server.md. */
  preview(body) {
    return post(`/tables/${this.id}/preview`, body);
  }

  async draw(fresh = [], before = null) {
    const t = this.table;
    if (!t) return;
    const names = this.names;
    this.drawHead();
    this.drawEvents(names);
    if (t.status === "lobby" || t.status === "cancelled") {
      this.lobbyBox.hidden = false;
      this.gameBox.hidden = true;
      const info = await gameInfo(t.game);
      this.votes = Boolean(info && info.start === "vote");
      if (this.table !== t) return; // a newer draw took over while the listing loaded
      this.drawLobby(names);
      fill(this.resultBox);
      drawEndings(this);
      return;
    }
    if (!this.model || !this.model.view) {
      // a table in play with no view: a lobby answer overtook the start; fetch it whole
      if (!this.refetching) {
        this.refetching = true;
        try {
          await this.reload(fresh);
        } finally {
          this.refetching = false;
        }
      }
      return;
    }
    this.lobbyBox.hidden = true;
    this.gameBox.hidden = false;
    await this.ensureGame(t.game);
    if (!this.game) return; // the page was left meanwhile
    this.gameBox.dataset.version = this.model.version; // the version on screen (tests read it)
    this.game.render(
      {
        ...this.model,
        you: t.you,
        names,
        seats: t.seats,
        options: t.options,
        events: this.events,
        fresh,
        table: t,
        readOnly: t.you === null || t.status !== "active",
      },
    );
    this.drawResult(names);
    drawEndings(this);
    await this.drawLog(fresh, before);
    const info = await gameInfo(t.game);
    if (this.table === t) this.coach.update(t, this.model, Boolean(info && info.coach));
  }

  /** The title line: the game, whose turn it is and the time left on the turn clock; the
   * tab's title and icon say when it is your turn. */
  drawHead() {
    const t = this.table;
    const m = this.model;
    const names = this.names;
    let status = { lobby: "waiting for players", finished: "finished", cancelled: "cancelled" }[t.status] || "in play";
    if (t.status === "active") {
      const movers = (m.toMove || []).filter((s) => s !== t.you || !m.yourTurn);
      const others = movers.map((s) => names[s]).filter(Boolean);
      status = m.yourTurn ? (others.length ? `your turn (and ${others.join(", ")})` : "your turn") : others.length ? `${others.join(", ")} to move` : "in play";
    }
    const left = t.status === "active" && m.deadline ? timeLeft(m.deadline) : "";
    fill(
      this.header,
      h("h1", {}, `${t.title} `, h("span", { class: "muted" }, `#${t.id}`)),
      h("p", { class: `status${m.yourTurn && t.status === "active" ? " yours" : ""}`, id: "table-status" }, status,
        left ? h("span", { id: "time-left", title: `move by ${new Date(m.deadline).toLocaleString()}` }, ` · ${left} left`) : t.clock_days ? ` · ${t.clock_days} day clock` : ""),
    );
    const mine = t.status === "active" && m.yourTurn;
    document.title = `${mine ? "▶ Your turn · " : ""}${t.title} #${t.id} · parlour`;
    turnIcon(mine);
    clearTimeout(this.headTimer);
    if (left && !this.stopped) this.headTimer = setTimeout(() => this.table && this.drawHead(), 30000);
  }

  /** Every event in plain words, the newest last; the game module tells them (describeEvent,
   * from what the seat may see: "drew from the stock" never names the card). On a first
   * load, a module that says describeWithSteps is also given what each old event did
   * (GET /tables/{id}/steps), so the log reads as it did live. */
  async drawLog(fresh, before) {
    if (this.logLoading) return; // the first load's log, still asking: it takes these too
    let steps = null;
    if (this.logged.size === 0 && this.module && this.module.describeWithSteps && this.events.length) {
      this.logLoading = true;
      try {
        const query = this.invite ? `?invite=${encodeURIComponent(this.invite)}` : "";
        const answer = await get(`/tables/${this.id}/steps${query}`);
        steps = new Map(answer.steps.map((s) => [s.seq, s]));
      } catch (err) {
        steps = null; // told from the views of now, as best they can
      } finally {
        this.logLoading = false;
      }
      if (this.stopped || this.logged.size) return;
    }
    const describe = (this.module && this.module.describeEvent) || plainEvent;
    const first = this.logged.size === 0;
    const list = first ? this.events.slice(-200) : fresh.filter((e) => !this.logged.has(e.seq));
    const info = { before: first ? null : before, after: this.model, names: this.table.seats.map((s) => s.name || `cpu:${s.level}`), you: this.table.you, events: this.events, fresh: list, steps };
    const items = [];
    list.forEach((e, i) => {
      this.logged.add(e.seq);
      const text = describe(e, { ...info, next: list[i + 1] || null });
      if (text) items.push(h("li", { dataset: { seq: e.seq, by: e.by }, class: e.by >= 0 && e.by !== this.table.you ? "theirs" : "" }, text));
    });
    if (!items.length) return;
    this.logList.append(...items);
    while (this.logList.children.length > 200) this.logList.firstChild.remove();
    this.logList.scrollTop = this.logList.scrollHeight;
  }

  /** The page's one game view, made once: draws that race to make it (the start's answer
   * and the socket's update of it) wait for the same one, and a view replaced or left with
   * the page is destroyed, so no hidden copy keeps answering the keyboard. */
  ensureGame(name) {
    if (!this.gameMade || this.gameName !== name) {
      this.gameName = name;
      this.gameMade = this.makeGame(name).catch((err) => {
        this.gameMade = null;
        throw err;
      });
    }
    return this.gameMade;
  }

  dropGame() {
    const old = this.game;
    this.game = null;
    if (old && old.destroy) old.destroy();
  }

  async makeGame(name) {
    const module = await loadRenderer(name);
    this.dropGame();
    this.module = module;
    if (this.stopped || this.gameName !== name) return;
    fill(this.gameBox);
    this.game = module.create({
      root: this.gameBox,
      game: name,
      act: (text, options) => this.act(text, options),
      preview: (body) => this.preview(body),
      say: (text, kind) => this.message.show(text, kind),
      busy: () => this.busy,
    });
  }

  drawResult(names) {
    const t = this.table;
    if (t.status !== "finished" || !this.model.result) {
      fill(this.resultBox);
      return;
    }
    const { scores, winners } = this.model.result;
    const who = winners.map((s) => names[s]).join(" and ");
    // a resigned seat lost, even when the computer that played it out won
    const youWon = winners.includes(t.you) && !(t.resigned || []).includes(t.you);
    fill(
      this.resultBox,
      h("div", { class: "card banner final", role: "status" },
        h("h2", {}, youWon ? "You win!" : `${who} win${winners.length > 1 ? "" : "s"}`),
        h("p", {}, scores.map((s, i) => `${names[i]}: ${points(s)}`).join(" · ")),
        h("p", {},
          h("a", { href: `#/replay/${t.id}${this.invite ? `?invite=${this.invite}` : ""}`, id: "replay-link" }, "Replay step by step"),
          " · ",
          h("a", { href: `/tables/${t.id}/record${this.invite ? `?invite=${this.invite}` : ""}`, download: `parlour-${t.id}.json` }, "Download the record"),
          " · ",
          h("a", { href: "#/" }, "Back to the lobby"))),
    );
  }

  drawEvents(names) {
    const items = this.events
      .slice()
      .reverse()
      .slice(0, 300)
      .map((e) => h("li", { value: e.seq + 1 }, h("span", { class: "who" }, eventWho(e, names)), " ", h("code", {}, e.move)));
    fill(this.eventList, items);
  }

  drawLobby(names) {
    const t = this.table;
    const member = t.you !== null;
    const votes = new Set(t.votes);
    const seats = h(
      "ol",
      { class: "seats", id: "lobby-seats" },
      t.seats.map((s, i) =>
        h("li", {}, names[i], s.kind === "cpu" ? " (computer)" : "", votes.has(s.seat) ? " · voted to begin" : ""),
      ),
    );
    const buttons = [];
    if (t.status === "lobby" && !member && t.seats.some((s) => s.kind === "open")) {
      buttons.push(h("button", { class: "primary", id: "join", onclick: () => this.join() }, "Join this game"));
    }
    if (t.status === "lobby" && member) {
      if (this.votes && !votes.has(t.you)) {
        // only a game that begins on votes (GET /games: start "vote") shows the vote
        buttons.push(h("button", { id: "vote", class: "primary", onclick: () => this.lobbyCall("vote") }, "Vote to begin now"));
      }
      if (t.can_start) {
        buttons.push(h("button", { class: "primary", id: "start", onclick: () => this.lobbyCall("start") }, "Start the game"));
      }
      buttons.push(h("button", { id: "leave", onclick: () => this.leave() }, this.isCreator() ? "Cancel the table" : "Leave"));
    }
    let invite = "";
    if (member && t.status === "lobby") {
      const link = `${location.origin}/#/table/${t.id}?invite=${t.invite_code}&join=1`;
      const field = h("input", { id: "invite-link", readonly: true, value: link, "aria-label": "Invite link", onfocus: (e) => e.target.select() });
      invite = h(
        "p",
        { class: "invite" },
        h("label", { for: "invite-link" }, "Invite link: "),
        field,
        h("button", { type: "button", onclick: async () => {
          field.select();
          try {
            await navigator.clipboard.writeText(link);
            this.message.show("Invite link copied.", "ok");
          } catch (err) {
            this.message.show("Select the link and copy it.", "info");
          }
        } }, "Copy"),
      );
    }
    let rule = "";
    if (this.votes && t.status === "lobby") {
      rule = h("p", {}, `The game begins by itself when all ${t.seats.length} seats are taken, or when at least ${t.min_players || 2} players have voted to begin.`);
    } else if (t.status === "lobby" && t.start_refusal && member) {
      rule = h("p", { class: "muted" }, t.start_refusal);
    }
    fill(
      this.lobbyBox,
      h("h2", {}, t.status === "cancelled" ? "This table was cancelled" : "Waiting for players"),
      h("p", { class: "muted" }, `Created by ${t.creator}`, t.visibility === "invite" ? " · invite only" : " · open to all"),
      seats,
      rule,
      invite,
      h("p", { class: "buttons" }, buttons),
    );
  }

  async lobbyCall(what) {
    try {
      this.table = await post(`/tables/${this.id}/${what}`);
      this.model = this.modelFrom(this.table);
      this.events = this.table.events.slice();
      await this.draw();
      this.message.clear();
    } catch (err) {
      this.message.show(err.message, "error");
    }
  }

  async join() {
    if (!this.app.account) {
      go(`#/login?next=${encodeURIComponent(location.hash)}`);
      return;
    }
    try {
      this.table = await post(`/tables/${this.id}/join`, { invite: this.invite });
      this.model = this.modelFrom(this.table);
      this.events = this.table.events.slice();
      live.follow(this.id, this.invite); // follow again: now as a seat
      await this.draw();
      this.message.show("You joined the table.", "ok");
    } catch (err) {
      this.message.show(err.message, "error");
    }
  }

  isCreator() {
    return Boolean(this.app.account) && this.table.creator === this.app.account.name;
  }

  async leave() {
    const creator = this.isCreator();
    if (!(await confirmBox(creator ? "Cancel this table for everyone?" : "Leave this table?"))) return;
    await this.lobbyCall("leave");
    if (!creator) go("#/");
  }
}
