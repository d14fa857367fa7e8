// Which module draws a game: the one its spec names (GET /games, "web_renderer": a module of
// games/, "dice" for games/dice.js), or games/generic.js for a game that names none, so a
// new game is playable in the browser on its first day. table.js and replay.js load it here.

import { games } from "./api.js";

const MODULE_NAME = /^[a-z0-9][a-z0-9_-]*$/;

/** The renderer module of the game *name* (see games/generic.js for the interface). */
export async function loadRenderer(name) {
  const spec = (await games()).find((g) => g.name === name);
  const module = spec && MODULE_NAME.test(spec.web_renderer || "") ? spec.web_renderer : "generic";
  return import(`./games/${module}.js`);
}

/** The listing of the game *name* from GET /games (its options, levels, start rule...), or
 * null for a game the server does not host. */
export async function gameInfo(name) {
  return (await games()).find((g) => g.name === name) || null;
}
