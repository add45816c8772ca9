// The wargym browser client: a person plays No Quarter against the server's opponent.
// It speaks wargym-protocol/1 over POST /v1 like any other front end (docs/protocol.md): the
// page holds the battle's state and sends it back with every request. Server data is shown
// with textContent only.

import { drawBoard } from "./board.js";
import {
  LOCATION_ORDER, compass, describeAction, describeDecision, describeEvent, location, namer, words,
} from "./describe.js";
import { SETUP_FIELDS, clearSaved, loadSaved, saveGame } from "./saved.js";

const PROTOCOL = "wargym-protocol/1";
const MAP_KINDS = new Set(["Move", "FreeMove"]);
const HEADING_KINDS = new Set(["Face", "Stay"]);
const BUILDING_KINDS = new Set(["FireAtBuilding", "AttackBuilding"]);
const turns = (action) => HEADING_KINDS.has(action.type) && typeof action.heading === "number";
const TARGET_KINDS = new Set(["AssignFire", "Charge", "FightMech"]);
const OPPONENT_PAUSE_MS = 120;

const $ = (id) => document.getElementById(id);
const game = {
  state: null, decision: null, legal: [], over: false, outcome: null,
  human: "blue", seed: null, step: 0, filter: null, busy: false, requestId: 0,
};

function setBusy(busy) {
  game.busy = busy;
  document.body.dataset.busy = busy ? "1" : "0";
  for (const button of document.querySelectorAll("#actions button, #start, #continue")) button.disabled = busy;
}

function showError(text) {
  const box = $("error");
  box.textContent = text;
  box.hidden = !text;
}

async function request(type, fields) {
  game.requestId += 1;
  const body = { protocol: PROTOCOL, type, id: game.requestId, ...fields };
  if (game.seed !== null && type !== "info" && type !== "legal") {
    game.step += 1;
    body.seed = game.seed + game.step;
  }
  const response = await fetch("/v1", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  let data;
  try {
    data = await response.json();
  } catch {
    throw new Error(`the server answered HTTP ${response.status} without a protocol reply`);
  }
  if (data && data.error) {
    const field = data.error.field ? ` (${data.error.field})` : "";
    throw new Error(`${data.error.code}: ${data.error.message}${field}`);
  }
  return data;
}

function logLine(text, kind) {
  const item = document.createElement("li");
  item.className = kind;
  item.textContent = text;
  const log = $("log");
  log.appendChild(item);
  log.scrollTop = log.scrollHeight;
}

// The game is kept in sessionStorage after each answer, so that a reload can continue it.
let keptWarned = false;
function keep() {
  const lines = [...$("log").children].map((li) => [li.className, li.textContent]);
  const setup = Object.fromEntries(SETUP_FIELDS.map((field) => [field, $(field).value]));
  const why = saveGame(game, lines, setup);
  if (why && !keptWarned) logLine(why, "log-note");
  keptWarned = keptWarned || Boolean(why);
}

function logEvents(events, name) {
  for (const event of Array.isArray(events) ? events : []) logLine(describeEvent(event, name), "log-event");
}

function renderMechs(name) {
  const panel = $("mechs");
  panel.replaceChildren();
  const mechs = Object.values(game.state.mechs || {});
  for (const mech of mechs) {
    const card = document.createElement("section");
    card.className = `mech-card side-${mech.side === "red" ? "red" : "blue"}${mech.removed ? " removed" : ""}`;
    card.dataset.mech = String(mech.id);
    const title = document.createElement("h3");
    const who = mech.side === game.human ? "you" : "opponent";
    title.textContent = `${name(mech.id)} (${who}): ${mech.design && mech.design.name ? mech.design.name : "mech"}`;
    card.appendChild(title);
    const facts = document.createElement("p");
    const state = mech.removed ? `out: ${words(mech.removed)}` : words(mech.status);
    const twist = Number(mech.twist) ? `, torso twisted ${Number(mech.twist) > 0 ? "left" : "right"}` : "";
    facts.textContent = `Rep ${mech.rep}, speed ${mech.speed}", facing ${compass(mech.heading)}${twist}, ${state}${mech.prone ? ", prone" : ""}`;
    card.appendChild(facts);
    const table = document.createElement("table");
    table.className = "armour";
    const design = (mech.design && mech.design.armor) || [];
    LOCATION_ORDER.forEach((loc, i) => {
      const row = table.insertRow();
      row.insertCell().textContent = location(loc);
      const cell = row.insertCell();
      const now = Array.isArray(mech.armor) ? mech.armor[i] : "?";
      cell.textContent = `${now} / ${design[i] ?? "?"}`;
      if (Number(now) < Number(design[i])) cell.className = "damaged";
    });
    card.appendChild(table);
    panel.appendChild(card);
  }
}

function act(index) {
  if (game.busy || game.over) return;
  const action = game.legal[index];
  if (!action) return;
  const name = namer(game.state);
  logLine(`You: ${describeAction(action, name)}.`, "log-you");
  play(() => request("act", { state: game.state, action }));
}

// A click on the map stands for one or several options (a target with several weapons, a
// point reached forward or in reverse): one is played, several are listed alone.
function pickSome(indices) {
  if (indices.length === 1) {
    act(indices[0]);
    return;
  }
  game.filter = new Set(indices);
  render();
}

function pickTarget(mechId) {
  const matching = [];
  game.legal.forEach((a, i) => { if (TARGET_KINDS.has(a.type) && a.target === mechId) matching.push(i); });
  if (matching.length) pickSome(matching);
}

function actionButton(action, index, name) {
  const button = document.createElement("button");
  button.type = "button";
  button.dataset.action = String(index);
  button.dataset.kind = String(action.type);
  button.textContent = describeAction(action, name);
  button.addEventListener("click", () => act(index));
  return button;
}

function renderActions(name) {
  const list = $("actions");
  list.replaceChildren();
  $("decision").textContent = game.over ? "" : describeDecision(game.decision, name);
  if (game.over || !game.decision || game.decision.side !== game.human) return;
  const onMap = [], headings = [];
  game.legal.forEach((action, index) => {
    if (game.filter !== null) {
      if (game.filter.has(index)) list.appendChild(actionButton(action, index, name));
      return;
    }
    if (MAP_KINDS.has(action.type) && action.to) onMap.push([action, index]);
    else if (turns(action)) headings.push([action, index]);
    else list.appendChild(actionButton(action, index, name));
  });
  if (game.filter !== null) {
    const all = document.createElement("button");
    all.type = "button";
    all.className = "show-all";
    all.textContent = "Show every option";
    all.addEventListener("click", () => { game.filter = null; render(); });
    list.appendChild(all);
  }
  const group = (items, text) => {
    if (!items.length) return;
    const more = document.createElement("details");
    const summary = document.createElement("summary");
    summary.textContent = text;
    more.appendChild(summary);
    for (const [action, index] of items) more.appendChild(actionButton(action, index, name));
    list.appendChild(more);
  };
  group(onMap, `${onMap.length} destinations: click one on the map, or pick here`);
  group(headings, `${headings.length} new facings: click an arrow around the mech, or pick here`);
}

function render() {
  const name = namer(game.state);
  const mine = !game.over && game.decision && game.decision.side === game.human;
  const points = new Map(), targets = new Set(), headings = new Map(), buildings = new Map();
  if (mine) {
    game.legal.forEach((action, index) => {
      if (MAP_KINDS.has(action.type) && Array.isArray(action.to)) {
        const key = action.to.map((v) => Number(v).toFixed(3)).join(",");
        const point = points.get(key) || { to: action.to, indices: [], kinds: new Set(), labels: [] };
        point.indices.push(index);
        point.kinds.add(action.reverse ? "reverse" : action.jump ? "jump" : "forward");
        point.labels.push(describeAction(action, name));
        points.set(key, point);
      }
      if (TARGET_KINDS.has(action.type) && action.target !== undefined) targets.add(action.target);
      if (BUILDING_KINDS.has(action.type) && Number.isInteger(action.feature)) {
        buildings.set(action.feature, [...(buildings.get(action.feature) || []), index]);
      }
      if (turns(action)) {
        const key = action.heading.toFixed(1);
        const facing = headings.get(key) || { heading: action.heading, indices: [], labels: [] };
        facing.indices.push(index);
        facing.labels.push(describeAction(action, name));
        headings.set(key, facing);
      }
    });
  }
  drawBoard($("board"), game.state, name, {
    moves: game.filter === null ? [...points.values()] : [], targets, onPick: pickSome, onTarget: pickTarget,
    headings: game.filter === null ? [...headings.values()] : [],
    buildings: game.filter === null ? buildings : new Map(),
    deciding: game.decision ? game.decision.mech : null,
  });
  renderMechs(name);
  renderActions(name);
  const turn = game.state.turn;
  document.body.dataset.over = game.over ? "1" : "0";
  document.body.dataset.turn = String(turn);
  let status = `Turn ${turn}. `;
  if (game.over) {
    const o = game.outcome || {};
    const who = o.winner ? (o.winner === game.human ? "You win" : "The opponent wins") : "Nobody wins";
    status = `Game over: ${who} (${words(o.reason)}).`;
  } else if (game.decision && game.decision.side !== game.human) {
    status += "The opponent is deciding...";
  } else {
    status += "Your decision.";
  }
  $("status").textContent = status;
  setBusy(game.busy);
}

function accept(position) {
  game.state = position.state;
  game.decision = position.decision;
  game.legal = Array.isArray(position.legal_actions) ? position.legal_actions : [];
  game.over = Boolean(position.over);
  game.outcome = position.outcome;
  game.filter = null;
}

// Send one request, take its position, then let the opponent play until it is our turn.
async function play(send) {
  setBusy(true);
  showError("");
  try {
    let position = await send();
    accept(position);
    logEvents(position.events, namer(game.state));
    render();
    keep();
    while (!game.over && game.decision && game.decision.side !== game.human) {
      await new Promise((resolve) => setTimeout(resolve, OPPONENT_PAUSE_MS));
      const before = namer(game.state);
      const tier = $("tier").value;
      position = await request("opponent_move", { state: game.state, ...(tier ? { tier } : {}) });
      logLine(`Opponent (${position.chosen_by}): ${describeAction(position.action, before)}.`, "log-opponent");
      accept(position);
      logEvents(position.events, namer(game.state));
      render();
      keep();
    }
  } catch (error) {
    showError(String(error && error.message ? error.message : error));
  } finally {
    setBusy(false);
    if (game.state) render();
  }
}

function humanSide(state) {
  const np = state && state.np;
  if (np && (np.side === "blue" || np.side === "red")) return np.side === "blue" ? "red" : "blue";
  return "blue";
}

function startGame(event) {
  event.preventDefault();
  if (game.busy) return;
  const scenario = $("scenario").value;
  const seedText = $("seed").value.trim();
  game.seed = seedText === "" ? null : Number(seedText);
  if (game.seed !== null && !(Number.isSafeInteger(game.seed) && game.seed >= 0 && game.seed <= 1e15)) {
    showError("seed: a whole number from 0 to 1000000000000000, or empty for fresh dice");
    return;
  }
  game.step = 0;
  clearSaved();
  $("continue").hidden = true;
  $("log").replaceChildren();
  const fields = { system: "no_quarter" };
  if (scenario === "skirmish") {
    fields.skirmish = {
      mechs_per_side: Number($("mechs-per-side").value), max_turns: Number($("max-turns").value),
    };
  } else {
    fields.scenario = scenario;
  }
  document.body.dataset.started = "1";
  play(async () => {
    const position = await request("new_game", fields);
    game.human = humanSide(position.state);
    return position;
  });
}

// Continue the game kept before a reload. Its state is untrusted: the server checks it with a
// `legal` request (an edited state is refused as invalid_state, and the entry is dropped).
function continueGame() {
  if (game.busy) return;
  const saved = loadSaved();
  $("continue").hidden = true;
  if (!saved || saved.discarded) {
    if (saved) logLine(saved.discarded, "log-note");
    return;
  }
  for (const [field, value] of Object.entries(saved.setup)) {
    const box = $(field);
    if (box.tagName !== "SELECT" || [...box.options].some((o) => o.value === value)) box.value = value;
  }
  $("skirmish-options").hidden = $("scenario").value !== "skirmish";
  play(async () => {
    let position;
    try {
      position = await request("legal", { state: saved.state });
    } catch (error) {
      clearSaved();
      $("status").textContent = "The saved game was refused: start a new game.";
      throw error;
    }
    game.seed = saved.seed;
    game.step = saved.step;
    game.human = saved.human || humanSide(saved.state);
    $("log").replaceChildren();
    for (const [kind, text] of saved.log) logLine(text, kind);
    logLine("Restarted from the saved position.", "log-note");
    document.body.dataset.started = "1";
    return { ...position, state: saved.state, events: [] };
  });
}

function offerSaved() {
  const saved = loadSaved();
  if (saved && saved.discarded) logLine(saved.discarded, "log-note");
  $("continue").hidden = !saved || Boolean(saved.discarded);
}

async function init() {
  setBusy(false);
  $("setup").addEventListener("submit", startGame);
  $("continue").addEventListener("click", continueGame);
  $("scenario").addEventListener("change", () => {
    $("skirmish-options").hidden = $("scenario").value !== "skirmish";
  });
  try {
    const info = await request("info", {});
    const names = (info.scenarios && info.scenarios.no_quarter) || [];
    for (const scenario of names) {
      if (scenario === "skirmish") continue;
      const option = document.createElement("option");
      option.value = String(scenario);
      option.textContent = words(scenario);
      $("scenario").appendChild(option);
    }
    if (info.policy) {
      for (const tier of Array.isArray(info.tiers) ? info.tiers : []) {
        const option = document.createElement("option");
        option.value = String(tier);
        option.textContent = String(tier);
        $("tier").appendChild(option);
      }
      $("opponent").textContent = `Opponent: the learned policy (${String(info.policy.file || "ONNX")}).`;
    } else {
      $("tier").disabled = true;
      $("opponent").textContent = "Opponent: the rules' own AI (the server runs without a policy).";
    }
    offerSaved();
    document.body.dataset.ready = "1";
  } catch (error) {
    showError(String(error && error.message ? error.message : error));
  }
}

init();
