// The game in progress kept across a reload of the page, in sessionStorage (this tab only).
// What is read back is untrusted: only its shape is checked here; its state goes to the
// server like any other state, which validates it (an edited one is refused: invalid_state).

const KEY = "wargym.play/1";
export const MAX_CHARS = 8_000_000; // an entry longer than this is discarded unread
const LOG_KINDS = new Set(["log-you", "log-opponent", "log-event", "log-note"]);
const SETUP_FIELDS = ["scenario", "mechs-per-side", "max-turns", "seed", "tier"];

function storage() {
  try {
    return window.sessionStorage;
  } catch {
    return null; // storage switched off: nothing is kept
  }
}

export function clearSaved() {
  const store = storage();
  if (store) store.removeItem(KEY);
}

// Keep the position: returns a sentence when it could not be kept, else "".
export function saveGame(game, logItems, setup) {
  const store = storage();
  if (!store) return "";
  if (game.over || !game.state) {
    store.removeItem(KEY);
    return "";
  }
  const entry = {
    state: game.state, human: game.human, seed: game.seed, step: game.step,
    log: logItems, setup,
  };
  try {
    const text = JSON.stringify(entry);
    if (text.length > MAX_CHARS) throw new Error("too large");
    store.setItem(KEY, text);
    return "";
  } catch {
    store.removeItem(KEY);
    return "This game could not be kept for a reload (the browser's storage is full).";
  }
}

const isSide = (side) => side === "blue" || side === "red";
const isStep = (n) => Number.isSafeInteger(n) && n >= 0;
const isSeed = (n) => n === null || (Number.isSafeInteger(n) && n >= 0 && n <= 1e15);

// The saved game, or { discarded: "why" }, or null when there is none.
export function loadSaved() {
  const store = storage();
  const text = store ? store.getItem(KEY) : null;
  if (text === null) return null;
  const discard = (why) => {
    store.removeItem(KEY);
    return { discarded: `The saved game was discarded: ${why}.` };
  };
  if (text.length > MAX_CHARS) return discard(`it is over ${MAX_CHARS} characters`);
  let entry;
  try {
    entry = JSON.parse(text);
  } catch {
    return discard("it is not valid JSON");
  }
  if (!entry || typeof entry !== "object" || Array.isArray(entry)) return discard("it is not an object");
  if (!entry.state || typeof entry.state !== "object" || Array.isArray(entry.state)) {
    return discard("it holds no state object");
  }
  if (!isSeed(entry.seed) || !isStep(entry.step)) return discard("its seed or step is not a whole number");
  const log = Array.isArray(entry.log) ? entry.log : [];
  const lines = log.filter((line) => Array.isArray(line) && line.length === 2
    && LOG_KINDS.has(line[0]) && typeof line[1] === "string");
  const setup = {};
  for (const field of SETUP_FIELDS) {
    const value = entry.setup && entry.setup[field];
    if (typeof value === "string" && value.length <= 100) setup[field] = value;
  }
  return {
    state: entry.state, human: isSide(entry.human) ? entry.human : null,
    seed: entry.seed, step: entry.step, log: lines, setup,
  };
}

export { SETUP_FIELDS };
