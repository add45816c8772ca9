// Events and actions in plain words. Every function returns a string; the caller shows it as
// text (textContent), so nothing a server sends can become markup.

const LOCATIONS = {
  head: "head", arm_l: "left arm", arm_r: "right arm", chest: "chest", gut: "gut",
  leg_l: "left leg", leg_r: "right leg",
};
export const LOCATION_ORDER = ["head", "arm_l", "arm_r", "chest", "gut", "leg_l", "leg_r"];
const STATUS = {
  carry_on: "carrying on", duck_back: "ducking back", leave_battlefield: "leaving the battlefield",
};
// the reaction tests as wargym.describe and wargym play name them ("a damage test")
const TESTS = { fired_on: "fired on", takes_damage: "damage", mech_down: "mech down" };
const COMPASS = ["east", "east-north-east", "north-east", "north-north-east", "north",
  "north-north-west", "north-west", "west-north-west", "west", "west-south-west", "south-west",
  "south-south-west", "south", "south-south-east", "south-east", "east-south-east"];

export function words(value) {
  return String(value ?? "").replace(/_/g, " ");
}

export function location(loc) {
  return LOCATIONS[loc] ?? words(loc);
}

export function compass(heading) {
  const h = ((Number(heading) % 360) + 360) % 360;
  return COMPASS[Math.round(h / 22.5) % 16];
}

function dice(faces) {
  return Array.isArray(faces) && faces.length ? ` (rolled ${faces.flat().join(", ")})` : "";
}

function at(point) {
  return Array.isArray(point) ? `(${Number(point[0]).toFixed(1)}, ${Number(point[1]).toFixed(1)})` : "";
}

// A namer: mech id -> "blue-1 (Star Army class 5)" from the state the client holds.
export function namer(state) {
  const mechs = (state && state.mechs) || {};
  const name = (id) => {
    const m = mechs[String(id)];
    if (!m) return `mech ${id}`;
    const pilot = m.pilot && m.pilot.name ? m.pilot.name : `mech ${id}`;
    return pilot;
  };
  name.weapon = (id, index) => {
    const m = mechs[String(id)];
    const item = m && m.design && Array.isArray(m.design.items) ? m.design.items[index] : null;
    return item ? words(item.label || item.item) : `weapon ${index}`;
  };
  // a shot's target: a mech, or a building as -1 - its feature index (§19.4.2)
  name.target = (id) => (Number(id) < 0 ? name.feature(-1 - Number(id)) : name(id));
  name.feature = (index) => {
    const f = state && state.battlefield && state.battlefield.features
      ? state.battlefield.features[index] : null;
    return f ? `the ${words(f.kind)} ${index}` : `feature ${index}`;
  };
  return name;
}

const EVENTS = {
  TurnStarted: (e) => `Turn ${e.turn} begins.`,
  ActivationRolled: (e) => `Activation dice: blue ${e.blue}, red ${e.red}; ${e.first} goes first.`,
  GroupsFormed: (e, n) => e.groups.length ? `${words(e.side)} forms ${e.groups.length} group${e.groups.length === 1 ? "" : "s"}, led by ${e.leaders.map(n).join(", ")}.` : `${words(e.side)} has no group on the table.`,
  LeaderAppointed: (e, n) => `${n(e.mech)} becomes ${words(e.rank)}.`,
  GroupActivated: (e, n) => `${words(e.side)} activates the group of ${n(e.leader)} (rolled ${e.die} against Rep ${e.activation_rep}).`,
  GroupSkipped: (e, n) => `${words(e.side)} does not activate the group of ${n(e.leader)}.`,
  MechMoved: (e, n) => `${n(e.mech)} ${e.jumped ? "jumps" : "moves"} ${Number(e.inches).toFixed(1)}" to ${at(e.path[e.path.length - 1])}, facing ${compass(e.heading)}.`,
  MoveBlocked: (e, n) => `${n(e.mech)} is blocked by ${n(e.blocker)} and stops at ${at(e.at)}.`,
  MechFaced: (e, n) => `${n(e.mech)} faces ${compass(e.heading)}${e.twist ? `, torso twisted ${e.twist > 0 ? "left" : "right"}` : ""}.`,
  MechLeftTable: (e, n) => `${n(e.mech)} leaves the table across the ${e.edge} edge.`,
  StoodUp: (e, n) => `${n(e.mech)} stands up.`,
  InSightTaken: (e, n) => `In Sight: ${n(e.moving_leader)}'s side scores ${e.moving_successes}, ${n(e.nonmoving_leader)}'s side ${e.nonmoving_successes}; ${e.moving_wins ? "the moving side" : "the side in place"} acts first.`,
  InSightAction: (e, n) => `${n(e.mech)} reacts to the sighting: ${words(e.action)}.`,
  ShotFired: (e, n) => `${n(e.shooter)} fires the ${n.weapon(e.shooter, e.weapon)} at ${n.target(e.target)}: rolled ${e.face} + Rep ${e.rep} = ${e.total}, ${e.hit ? "a hit" : "a miss"}.`,
  HitLocated: (e, n) => `The shot strikes ${n(e.target)} in the ${location(e.location)}${e.protected ? " (protected by cover)" : ""}.`,
  DamageRolled: (e, n) => `${n(e.target)}'s ${location(e.location)} ${Number(e.armor_after) < Number(e.armor_before) ? `loses ${e.armor_before - e.armor_after} armour (${e.armor_after} left)` : `holds (armour ${e.armor_after})`}${e.critical ? ": a critical hit" : ""}.`,
  CriticalHit: (e, n) => `Critical hit on ${n(e.mech)}'s ${location(e.location)}: ${words(e.kind)}${e.removal ? `; the mech is ${words(e.removal)}` : ""}.`,
  PilotTested: (e, n) => `${n(e.mech)}'s pilot ${e.passed ? "passes" : "fails"} his test${e.knocked_down ? " and is knocked down" : ""}.`,
  MechRemoved: (e, n) => `${n(e.mech)} is out of the battle: ${words(e.reason)}.`,
  CheatedDeath: (e, n) => `${n(e.mech)}'s pilot cheats death (${words(e.via)}).`,
  ReactionTaken: (e, n) => `${n(e.mech)} takes a ${TESTS[e.test] ?? words(e.test)} test${dice(e.faces)}: ${STATUS[e.result] ?? words(e.result)}.`,
  StatusChanged: (e, n) => `${n(e.mech)} is now ${STATUS[e.status] ?? words(e.status)} (${words(e.reason)}).`,
  RepChanged: (e, n) => `${n(e.mech)}'s Rep is now ${e.rep} (${words(e.reason)}).`,
  ChargeDeclared: (e, n) => `${n(e.charger)} charges ${n(e.target)} from the ${words(e.aspect)}.`,
  ChargeTested: (e, n) => `Charge of ${n(e.charger)} on ${n(e.target)}: ${words(e.outcome)}.`,
  MeleeDeclared: (e, n) => `${n(e.mech)} will ${words(e.attack)} with the ${location(e.limb)}.`,
  MeleeRound: (e, n) => `Melee between ${n(e.attacker)} and ${n(e.defender)}: ${e.winner === null || e.winner === undefined ? "nobody wins" : `${n(e.winner)} wins by ${e.margin}`}.`,
  ItemDisabled: (e, n) => `${n(e.mech)} loses the use of ${e.items.map((i) => n.weapon(e.mech, i)).join(", ")} (${words(e.reason)}).`,
  FlameLaid: (e, n) => `${n(e.shooter)} lays a line of flame from ${at(e.start)} to ${at(e.end)}.`,
  BuildingDamaged: (e, n) => `${n(e.attacker)} damages ${n.feature(e.feature)}: armour ${e.armor_before} -> ${e.armor_after}.`,
  BuildingDestroyed: (e, n) => `${n.feature(e.feature)} is destroyed.`,
  FiringStarted: (e, n) => `${n(e.shooter)} opens fire (${words(e.mode)}).`,
  FiringEnded: (e, n) => `${n(e.shooter)} ceases fire after ${e.shots} shot${e.shots === 1 ? "" : "s"}.`,
  FlameCrossed: (e, n) => `${n(e.mech)} crosses the flames.`,
  LuckyReroll: (e, n) => `${n(e.mech)}'s pilot uses his luck to re-roll the ${words(e.what)}.`,
  DuckedBack: (e, n) => `${n(e.mech)} ducks back from ${n(e.cause)}${e.in_cover ? " into cover" : ""}.`,
  TeamJoined: (e, n) => `${n(e.leader)} takes ${e.joined.map(n).join(", ")} under command.`,
  MechSplitOff: (e, n) => `${n(e.mech)} splits off its group.`,
  BattleEnded: (e) => `The battle ends on turn ${e.turn}: ${e.winner ? `${e.winner} wins` : "no winner"} (${words(e.reason)}).`,
  PilotCreated: (e) => `${e.name} (${words(e.faction)}, Rep ${e.rep}${e.star ? ", a Star" : ""}) takes the controls.`,
  FreeCompanyRaces: (e) => `The Free Company's races are rolled: ${e.races.map(words).join(", ")}.`,
  CompanyRacesRolled: (e) => `The company's races are rolled: ${e.races.map(words).join(", ")}.`,
  CompanyPilotCreated: (e) => `${e.name} (${words(e.faction)}, Rep ${e.rep}) joins the company.`,
  PefPlaced: () => "A possible enemy force marker is placed.",
  PefMoved: () => "A possible enemy force marker moves.",
  PefResolved: (e) => `A possible enemy force is spotted: ${words(e.result)}${e.enemies ? ` (${e.enemies} enem${e.enemies === 1 ? "y" : "ies"})` : ""}.`,
  MechsArrived: (e) => `${e.mechs.length} ${words(e.side)} mech${e.mechs.length === 1 ? "" : "s"} arrive (${words(e.reason)}).`,
  NpTableRolled: (e) => `The enemy consults its ${words(e.table)} table: ${words(e.result)}.`,
  NpGroupSet: (e) => `An enemy group takes new orders (${words(e.reason)}).`,
  ReinforcementChecked: (e) => `${words(e.side)} checks for reinforcements: ${e.mechs ? `${e.mechs} arrive` : "none"}.`,
  WeatherChanged: (e) => `The weather changes${e.night ? "; it is night" : ""}${e.inclement ? "; inclement weather" : ""}.`,
  MechWithdrew: (e, n) => `${n(e.mech)} withdraws across the ${e.edge} edge.`,
  MissionEnded: (e) => `The mission ends on turn ${e.turn}: ${words(e.status)} (${words(e.reason)}).`,
};

// "PefResolved" -> "Pef resolved." for an event this page has no sentence for.
function fallback(type) {
  const spaced = String(type).replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  return `${spaced.charAt(0).toUpperCase()}${spaced.slice(1)}.`;
}

export function sentence(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function describeEvent(event, name) {
  if (event && typeof event.text === "string") return event.text; // words from the server
  const render = event ? EVENTS[event.type] : undefined;
  if (render) {
    try {
      return sentence(render(event, name));
    } catch {
      // a field of an unexpected shape: say what happened without its details
    }
  }
  return fallback(event ? event.type : "event");
}

const ACTIONS = {
  ActivateGroup: (a, n) => `Activate the group of ${n(a.leader)}`,
  SkipGroup: (a, n) => `Do not activate the group of ${n(a.leader)}`,
  ChooseMech: (a, n) => `${n(a.mech)} acts next`,
  Move: (a, n) => `${n(a.mech)} ${a.reverse ? "reverses" : a.jump ? "jumps" : "moves"} to ${at(a.to)}`,
  Stay: (a, n) => `${n(a.mech)} stays in place${a.heading === null || a.heading === undefined ? "" : `, turning ${compass(a.heading)}`}`,
  FireFirst: (a, n) => `${n(a.mech)} fires before acting`,
  Charge: (a, n) => `${n(a.mech)} charges ${n(a.target)}`,
  AssignFire: (a, n) => `Fire the ${n.weapon(a.mech, a.weapon)} at ${n(a.target)}`,
  EndFire: () => "Hold the remaining weapons (resolve the fire)",
  FreeMove: (a, n) => a.to ? `${n(a.mech)} takes its free move to ${at(a.to)}` : `${n(a.mech)} holds position`,
  FreeWill: (a) => `The Star chooses to pass ${a.passed} d6`,
  DeclareMelee: (a) => `${words(a.attack)} with the ${location(a.limb)}`,
  FightMech: (a, n) => `${n(a.mech)} fights ${n(a.target)}`,
  FireAtBuilding: (a, n) => `Fire the ${n.weapon(a.mech, a.weapon)} at ${n.feature(a.feature)}`,
  AttackBuilding: (a, n) => `${words(a.attack)} ${n.feature(a.feature)} with the ${location(a.limb)}`,
  ExitTable: (a, n) => `${n(a.mech)} leaves the table across the ${a.edge} edge`,
  ChooseObjective: (a) => `Take the objective: ${words(a.objective)}`,
  Face: (a) => `${a.heading === null || a.heading === undefined ? "Keep the heading" : `Face ${compass(a.heading)}`}${a.twist ? `, torso twisted ${a.twist > 0 ? "left" : "right"}` : ""}`,
  LuckyChoice: (a) => a.reroll ? "Use the pilot's luck: re-roll" : "Keep the roll",
  ChooseLocation: (a) => `Hit the ${location(a.location)}`,
  LeadTeam: (a, n) => `${n(a.mech)} takes the group of ${n(a.group)} under command`,
  LeadDone: (a, n) => `${n(a.mech)} takes no more groups`,
  SplitOff: (a, n) => `${n(a.mech)} splits off its group`,
  KeepGroups: () => "Keep the groups as they are",
};

export function describeAction(action, name) {
  const render = action ? ACTIONS[action.type] : undefined;
  if (render) {
    try {
      return render(action, name);
    } catch {
      // fall through
    }
  }
  return fallback(action ? action.type : "action").replace(/\.$/, "");
}

const DECISIONS = {
  activate_group: "Choose a group to activate",
  choose_mech: "Choose which mech acts next",
  mech_action: "Choose the mech's action: click a destination on the map or an option",
  continue_move: "Finish the interrupted move",
  assign_fire: "Assign a weapon: click a target on the map or an option",
  free_move: "Take the free In Sight move",
  charge_target: "Choose whom to charge",
  free_will: "The Star's free will",
  melee_declare: "Declare the melee attack",
  melee_target: "Choose whom to fight",
  choose_objective: "Choose the objective",
  face: "Choose the final facing and torso twist",
  lucky_reroll: "Keep the roll or use the pilot's luck",
  marksman_location: "Choose the hit location",
  lead_teams: "Take groups under command",
  split_group: "Split a mech off its group, or keep the groups",
};

export function describeDecision(decision, name) {
  if (!decision) return "";
  const what = DECISIONS[decision.kind] ?? words(decision.kind);
  const mech = decision.mech === null || decision.mech === undefined ? "" : ` (${name(decision.mech)})`;
  return `${what}${mech}.`;
}

// The sentence tables, for tests: every engine event, action and decision kind has one.
export { ACTIONS, DECISIONS, EVENTS };
