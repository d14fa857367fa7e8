// The WebSocket (docs/server.md, "WebSocket /ws"): one per page. It follows tables, sends
// actions and hands every message to the listeners. When the connection drops it
// reconnects with a growing pause and follows the same tables again; the server then sends
// each table whole at its version, so the page resynchronises. A socket closed because its
// login no longer holds (code 4401: logged out in another tab, or the login expired) also
// tells the listeners ({type: "logged-out"}), so the page can drop the account. A server
// shutting down on purpose closes with 1012 (restarting, docs/server.md "Operations"): the
// page reconnects at once (within a second: not every page on the same instant).

const LOGGED_OUT = 4401;
const RESTARTING = 1012;

export class Live {
  constructor() {
    this.socket = null;
    this.listeners = new Set();
    this.followed = new Map(); // table id -> invite code or null
    this.pending = new Map(); // ref -> {resolve, reject}
    this.attempts = 0;
    this.serial = 0;
    this.state = "closed";
    this.timer = null;
    this.wanted = false;
  }

  /** Listen to every message ({type: ...}) and to {type: "status", state}. */
  listen(fn) {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  emit(message) {
    for (const fn of [...this.listeners]) {
      try {
        fn(message);
      } catch (err) {
        console.warn("listener failed", err); // a page bug must not stop the others
      }
    }
  }

  setState(state) {
    this.state = state;
    this.emit({ type: "status", state });
  }

  /** Connect (again, e.g. after logging in or out: the socket knows who you are). */
  connect() {
    this.wanted = true;
    clearTimeout(this.timer);
    if (this.socket) {
      const old = this.socket;
      this.socket = null;
      old.onclose = null;
      old.close();
    }
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    const socket = new WebSocket(`${scheme}${location.host}/ws`);
    this.socket = socket;
    this.setState(this.attempts ? "reconnecting" : "connecting");
    socket.onopen = () => {
      this.attempts = 0;
      this.setState("open");
      for (const [table, invite] of this.followed) this.send({ type: "follow", table, invite });
    };
    socket.onmessage = (event) => this.receive(event.data);
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      const loggedOut = event.code === LOGGED_OUT;
      for (const { reject } of this.pending.values()) {
        reject(loggedOut
          ? { detail: "you were logged out before the server took it", code: "logged_out" }
          : { detail: "the connection was lost before the server answered", code: "lost" });
      }
      this.pending.clear();
      this.setState("closed");
      if (loggedOut) this.emit({ type: "logged-out", reason: event.reason });
      if (event.code === RESTARTING) this.attempts = 0;
      if (this.wanted) {
        const delay = event.code === RESTARTING
          ? 100 + Math.random() * 900
          : Math.min(15000, 500 * 2 ** this.attempts);
        this.attempts += 1;
        this.timer = setTimeout(() => this.connect(), delay);
      }
    };
  }

  receive(text) {
    let message;
    try {
      message = JSON.parse(text);
    } catch (err) {
      return;
    }
    if ((message.type === "ack" || message.type === "error") && this.pending.has(message.ref)) {
      const { resolve, reject } = this.pending.get(message.ref);
      this.pending.delete(message.ref);
      if (message.type === "ack") resolve(message);
      else reject(message);
    }
    this.emit(message);
  }

  send(message) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  get open() {
    return Boolean(this.socket) && this.socket.readyState === WebSocket.OPEN;
  }

  follow(table, invite = null) {
    this.followed.set(table, invite);
    this.send({ type: "follow", table, invite });
  }

  unfollow(table) {
    this.followed.delete(table);
    this.send({ type: "unfollow", table });
  }

  /** Send an action; resolves with the ack, rejects with the server's error message. */
  action(table, action, version) {
    const ref = `a${++this.serial}`;
    return new Promise((resolve, reject) => {
      this.pending.set(ref, { resolve, reject });
      if (!this.send({ type: "action", table, action, version, ref })) {
        this.pending.delete(ref);
        reject({ detail: "not connected", code: "offline" });
      }
    });
  }
}

export const live = new Live();
