// The server's REST API (docs/server.md). Every error carries the server's reason.

/** The wire's names of the fields a player sends without naming them, in words. */
const FIELD_WORDS = { action: "the move", version: "the table's version", text: "the message" };

/** A refused request's reasons in words: each problem's field as words ("min players",
 * "seats 2", "the move"), never the wire's names ("body.min_players", "seats.1"). *body* is
 * the server's answer, REST or WebSocket (docs/server.md, "Errors"). */
export function reasonInWords(body) {
  const problems = body && Array.isArray(body.problems) ? body.problems : [];
  if (!problems.length) return body && body.detail;
  return problems
    .map(({ where, problem }) => {
      const field = String(where || "")
        .replace(/^body\.?/, "")
        .split(".")
        .filter(Boolean)
        .map((part) => (/^\d+$/.test(part) ? String(Number(part) + 1) : part.replaceAll("_", " ")))
        .join(" ");
      if (FIELD_WORDS[field]) return `${FIELD_WORDS[field]}: ${problem}`;
      return field ? `${field}: ${problem}` : problem;
    })
    .join("; ");
}

/** What a player is told of a refused move, REST or WebSocket (*err*: an ApiError or the
 * socket's error message): in words, never a field name, JSON or a code. */
export function refusalInWords(err) {
  if (err && err.code === "stale_version") {
    return "The table moved on before your move arrived: here it is now; try again.";
  }
  const reason = (err && (reasonInWords(err) || err.message)) || "the server refused it";
  return `Refused: ${reason}`;
}

export class ApiError extends Error {
  constructor(status, body) {
    super(reasonInWords(body) || `the server answered ${status}`);
    this.status = status;
    this.code = body && body.code;
    this.current = body && body.current;
  }
}

const loggedOutListeners = new Set();

/** Call *listener* whenever the server refuses a request as not logged in (401): the login
 * ended in another tab or window, or expired, and this page has not heard yet. */
export function onLoggedOut(listener) {
  loggedOutListeners.add(listener);
}

/** Call the API: resolves to the JSON answer, rejects with an ApiError (after telling the
 * onLoggedOut listeners of a 401). */
export async function api(method, path, body) {
  const options = { method, credentials: "same-origin", headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (err) {
    throw new ApiError(0, { detail: "the server cannot be reached: check your connection" });
  }
  if (response.status === 204) return null;
  let data = null;
  try {
    data = await response.json();
  } catch (err) {
    data = null;
  }
  if (!response.ok) {
    if (response.status === 401) for (const listener of loggedOutListeners) listener();
    throw new ApiError(response.status, data);
  }
  return data;
}

export const get = (path) => api("GET", path);
export const post = (path, body) => api("POST", path, body === undefined ? {} : body);

/** The logged-in account ({id, name}) or null. */
export async function session() {
  const answer = await get("/auth/session");
  return answer.account;
}

let gamesCache = null;
/** Every game the server hosts (GET /games), fetched once. */
export async function games() {
  if (!gamesCache) gamesCache = await get("/games");
  return gamesCache;
}
