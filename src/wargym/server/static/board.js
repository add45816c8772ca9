// The battlefield as SVG: terrain, mechs (base, leg heading, torso facing and its front arc),
// PEF markers (a position, never a content), and the clickable choices of the decision.
// Everything the server sends is set as attributes or text, never parsed as markup.

const NS = "http://www.w3.org/2000/svg";
export const SCALE = 20; // pixels per inch
const MARGIN = 1; // inches drawn around the table
const ARC_RADIUS = 4; // inches: the drawn front arc (the rules' arc is unbounded, ruling D3)
const KINDS = new Set(["road", "deep_water", "river", "rough", "woods", "building", "hill", "clear"]);

function el(tag, attrs, text) {
  const node = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = String(text);
  return node;
}

function num(value, fallback = 0) {
  const n = Number(value);
  return Number.isFinite(n) ? n : fallback;
}

function tip(text) {
  return el("title", {}, text);
}

export function boardSize(state) {
  const field = (state && state.battlefield) || {};
  return { w: Math.max(1, num(field.width, 36)), h: Math.max(1, num(field.height, 36)) };
}

// Inches (y up, heading 0 = east, counter-clockwise) to SVG pixels (y down).
function toScreen(size, point) {
  const p = Array.isArray(point) ? point : [0, 0];
  return [num(p[0]) * SCALE, (size.h - num(p[1])) * SCALE];
}

function arcPath(cx, cy, facing, radius) {
  const a0 = ((facing - 90) * Math.PI) / 180;
  const a1 = ((facing + 90) * Math.PI) / 180;
  const x0 = cx + Math.cos(a0) * radius, y0 = cy - Math.sin(a0) * radius;
  const x1 = cx + Math.cos(a1) * radius, y1 = cy - Math.sin(a1) * radius;
  return `M ${cx} ${cy} L ${x0} ${y0} A ${radius} ${radius} 0 0 0 ${x1} ${y1} Z`;
}

function drawTerrain(svg, state, size, buildings, onPick) {
  const features = (state.battlefield && state.battlefield.features) || [];
  features.forEach((f, index) => {
    if (!f || typeof f !== "object") return;
    const kind = KINDS.has(f.kind) ? f.kind : "other";
    const [x0, y0] = toScreen(size, [Math.min(num(f.x0), num(f.x1)), Math.max(num(f.y0), num(f.y1))]);
    const w = Math.abs(num(f.x1) - num(f.x0)) * SCALE, h = Math.abs(num(f.y1) - num(f.y0)) * SCALE;
    const picks = buildings.get(index);
    const g = el("g", { class: `terrain terrain-${kind}${picks ? " target" : ""}`, "data-feature": index });
    if (picks) g.addEventListener("click", () => onPick(picks));
    g.appendChild(el("rect", { x: x0, y: y0, width: w, height: h }));
    const armour = num(f.building_armor);
    const label = `${String(f.kind).replace(/_/g, " ")}${kind === "building" ? `, armour ${armour}` : ""}`;
    g.appendChild(tip(label));
    if (Array.isArray(f.crest) && f.crest.length === 2) {
      const [cx0, cy0] = toScreen(size, f.crest[0]);
      const [cx1, cy1] = toScreen(size, f.crest[1]);
      g.appendChild(el("line", { class: "crest", x1: cx0, y1: cy0, x2: cx1, y2: cy1 }));
    }
    svg.appendChild(g);
  });
  for (const flame of Array.isArray(state.flames) ? state.flames : []) {
    if (!Array.isArray(flame) || flame.length !== 2) continue;
    const [x1, y1] = toScreen(size, flame[0]);
    const [x2, y2] = toScreen(size, flame[1]);
    svg.appendChild(el("line", { class: "flame", x1, y1, x2, y2 }));
  }
  for (const wreck of Array.isArray(state.wrecks) ? state.wrecks : []) {
    const [x, y] = toScreen(size, wreck);
    svg.appendChild(el("circle", { class: "wreck", cx: x, cy: y, r: 8 }));
  }
}

function drawPefs(svg, state, size) {
  const pefs = state.np && Array.isArray(state.np.pefs) ? state.np.pefs : [];
  for (const pef of pefs) {
    if (!pef || typeof pef !== "object") continue;
    const [x, y] = toScreen(size, pef.pos);
    const g = el("g", { class: "pef" });
    g.appendChild(el("polygon", { points: `${x},${y - 11} ${x + 11},${y} ${x},${y + 11} ${x - 11},${y}` }));
    g.appendChild(el("text", { x, y: y + 4, "text-anchor": "middle" }, "?"));
    g.appendChild(tip("possible enemy force (unknown until spotted)"));
    svg.appendChild(g);
  }
}

function drawMech(svg, mech, size, name, choice) {
  const [x, y] = toScreen(size, mech.pos);
  const base = Math.max(num(choice.baseRadius, 0.5) * SCALE, 9);
  const heading = num(mech.heading), facing = heading + num(mech.twist);
  const side = mech.side === "red" ? "red" : "blue";
  const out = mech.removed !== null && mech.removed !== undefined;
  const classes = ["mech", `side-${side}`];
  if (out) classes.push("removed");
  if (choice.deciding) classes.push("deciding");
  if (choice.target) classes.push("target");
  const g = el("g", { class: classes.join(" "), "data-mech": mech.id });
  if (!out) g.appendChild(el("path", { class: "arc", d: arcPath(x, y, facing, ARC_RADIUS * SCALE) }));
  g.appendChild(el("circle", { class: "base", cx: x, cy: y, r: base }));
  const a = (heading * Math.PI) / 180, t = (facing * Math.PI) / 180;
  g.appendChild(el("line", { class: "legs", x1: x, y1: y, x2: x + Math.cos(a) * base * 1.9, y2: y - Math.sin(a) * base * 1.9 }));
  g.appendChild(el("line", { class: "torso", x1: x, y1: y, x2: x + Math.cos(t) * base * 1.3, y2: y - Math.sin(t) * base * 1.3 }));
  g.appendChild(el("text", { class: "label", x, y: y + base + 13, "text-anchor": "middle" }, name(mech.id)));
  const armour = Array.isArray(mech.armor) ? mech.armor.map((v) => num(v)).reduce((s, v) => s + v, 0) : 0;
  g.appendChild(tip(`${name(mech.id)}: ${mech.design && mech.design.name ? mech.design.name : "mech"}, armour ${armour} in all${out ? ", out of the battle" : ""}`));
  if (choice.target && choice.onTarget) {
    g.addEventListener("click", () => choice.onTarget(mech.id));
  }
  svg.appendChild(g);
}

function drawMoves(svg, size, moves, onPick) {
  for (const move of moves) {
    const [x, y] = toScreen(size, move.to);
    const kinds = [...move.kinds].sort().join(" ");
    const dot = el("circle", { class: `move-target ${kinds}`, cx: x, cy: y, r: 6, "data-actions": move.indices.join(" ") });
    dot.appendChild(tip(move.labels.join("; ")));
    dot.addEventListener("click", () => onPick(move.indices));
    svg.appendChild(dot);
  }
}

function drawHeadings(svg, size, mech, headings, onPick) {
  if (!mech || !headings.length) return;
  const [x, y] = toScreen(size, mech.pos);
  const r = 2.2 * SCALE;
  for (const facing of headings) {
    const a = (num(facing.heading) * Math.PI) / 180;
    const tx = x + Math.cos(a) * r, ty = y - Math.sin(a) * r;
    const back = a + Math.PI, side = 5;
    const bx = tx + Math.cos(back) * 11, by = ty - Math.sin(back) * 11;
    const px = Math.cos(a + Math.PI / 2) * side, py = -Math.sin(a + Math.PI / 2) * side;
    const arrow = el("polygon", {
      class: "face-target", points: `${tx},${ty} ${bx + px},${by + py} ${bx - px},${by - py}`,
      "data-actions": facing.indices.join(" "),
    });
    arrow.appendChild(tip(facing.labels.join("; ")));
    arrow.addEventListener("click", () => onPick(facing.indices));
    svg.appendChild(arrow);
  }
}

// choices: {moves: [{indices, to, kinds (a Set), labels}], targets: Set(mech id), deciding: mech id or
// null, headings: [{heading, indices, labels}], buildings: Map(feature -> indices),
// onPick(indices), onTarget(mech id)}
export function drawBoard(svg, state, name, choices) {
  svg.replaceChildren();
  const size = boardSize(state);
  const pad = MARGIN * SCALE; // room for the labels of mechs on an edge
  svg.setAttribute("viewBox", `${-pad} ${-pad} ${size.w * SCALE + 2 * pad} ${size.h * SCALE + 2 * pad}`);
  svg.appendChild(el("rect", { class: "ground", x: 0, y: 0, width: size.w * SCALE, height: size.h * SCALE }));
  drawTerrain(svg, state, size, choices.buildings || new Map(), choices.onPick);
  drawPefs(svg, state, size);
  const mechs = Object.values((state && state.mechs) || {}).filter((m) => m && typeof m === "object");
  mechs.sort((a, b) => (a.removed ? 0 : 1) - (b.removed ? 0 : 1));
  for (const mech of mechs) {
    if (mech.removed === "left_table") continue;
    const deciding = choices.deciding === mech.id;
    drawMech(svg, mech, size, name, {
      deciding, target: choices.targets.has(mech.id), onTarget: choices.onTarget,
      baseRadius: state.options && state.options.base_radius,
    });
  }
  drawMoves(svg, size, choices.moves, choices.onPick);
  const deciding = mechs.find((m) => m.id === choices.deciding);
  drawHeadings(svg, size, deciding, choices.headings || [], choices.onPick);
}
