# ruff: noqa: E501
"""The replay viewer page: one HTML file with inline CSS, JavaScript and SVG (see ``replay``).

The page reads its data from an inline ``<script type="application/json">`` block and draws
every frame as SVG elements made with ``createElementNS`` (the namespace is read from an empty
``<svg>`` of the page, so the page holds no namespace URL or any other address). Data from
the replay only ever becomes text nodes and number attributes: the script has no
``innerHTML`` or any other HTML sink (tests/test_bad_input_replay.py). It loads nothing from
the network.
"""

from __future__ import annotations

import html
import json
from typing import Any

_PAGE = r"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>__TITLE__</title>
<style>
body{font:14px system-ui,sans-serif;margin:0;background:#f4f2ee;color:#222}
header{padding:8px 12px;background:#333;color:#eee}
#main{display:flex;gap:12px;padding:12px;align-items:flex-start}
#map{background:#e1ddd2;border:1px solid #999;width:fit-content}
#map svg{display:block}
#side{flex:1 1 320px;min-width:280px}
#log{height:520px;overflow:auto;background:#fff;border:1px solid #bbb;padding:6px;font:12px monospace}
#log .step{margin:2px 0;padding:2px;border-bottom:1px solid #eee}
#log .current{background:#fff3b0}
#controls button{min-width:36px;margin-right:4px}
#slider{width:100%}
.legend{max-width:720px;font-size:12px;margin-top:6px}
.legend span{display:inline-block;margin-right:12px;white-space:nowrap}
.legend svg{vertical-align:middle;margin-right:3px}
.warn{color:#a40}
.unit text{font-weight:bold}
</style></head>
<body>
<header><b id="title"></b></header>
<div id="main">
<div><div id="map"></div>
<div id="controls"><button id="first" title="first">|&lt;</button><button id="prev" title="previous (left arrow)">&lt;</button><button id="play" title="play/pause (space)">play</button><button id="next" title="next (right arrow)">&gt;</button><button id="last" title="last">&gt;|</button>
<span id="counter"></span><br><input id="slider" type="range" min="0" value="0"></div>
</div>
<svg id="svg-ns" width="0" height="0" aria-hidden="true"></svg>
<div id="side"><div class="legend" id="legend"></div><div id="frameinfo"></div><div id="log"></div><div id="warnings" class="warn"></div></div>
</div>
<script type="application/json" id="replay-data">__DATA__</script>
<script>
"use strict";
// Every value from the replay goes into the page as a text node or as a number attribute;
// nodes are made with createElement / createElementNS and attribute names spelt here.
const DATA = JSON.parse(document.getElementById("replay-data").textContent);
const FR = Array.isArray(DATA.frames) ? DATA.frames : [];
const NS = document.getElementById("svg-ns").namespaceURI;
const DIRS = new Map(Object.entries({"0": "A", "1": "B", "2": "C", "3": "D", "4": "E", "5": "F"}));
const COLOURS = new Map(Object.entries({building:"#5a5a5a",woods:"#226e28",hill:"#aa8c5a",river:"#4682c8",deep_water:"#1e3c96",road:"#c8bea0",rough:"#827850"}));
const SIDE = new Map(Object.entries({blue:"#1a3ce0",red:"#d82020","0":"#1a3ce0","1":"#d82020"}));
let index = 0, timer = null;
function pick(map, key, dflt){ const v = map.get(String(key)); return v === undefined ? dflt : v; }
function num(v){ const x = Number(v); return Number.isFinite(x) ? x : 0; }
function str(v){ return v == null ? "" : (typeof v === "object" ? JSON.stringify(v) : String(v)); }
function at(v, ...keys){ for (const k of keys){ if (v == null || typeof v !== "object") return undefined; v = v[k]; } return v; }
function list(v){ return Array.isArray(v) ? v : []; }
function fill(node, kids){ for (const k of kids) node.appendChild(typeof k === "string" ? document.createTextNode(k) : k); return node; }
function svg(tag, attrs, ...kids){
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, typeof v === "number" ? String(num(v)) : v);
  return fill(node, kids);
}
function tip(text){ return svg("title", {}, text); }
function h(tag, cls, ...kids){ const node = document.createElement(tag); if (cls) node.className = cls; return fill(node, kids); }
function tableSvg(f){
  const m = DATA.map, S = 16, W = num(m.width)*S, H = num(m.height)*S;
  const X = x => num(x)*S, Y = y => (num(m.height) - num(y))*S;
  const s = svg("svg", {width: W, height: H, viewBox: `0 0 ${W} ${H}`});
  s.appendChild(svg("rect", {x: 0, y: 0, width: W, height: H, fill: "#e1ddd2"}));
  for (const t of list(m.terrain)){
    s.appendChild(svg("rect", {x: X(t.x0), y: Y(t.y1), width: (num(t.x1)-num(t.x0))*S, height: (num(t.y1)-num(t.y0))*S,
      fill: pick(COLOURS, t.kind, "#999"), opacity: 0.75}, tip(str(t.kind))));
  }
  for (const fl of list(f.flames)) s.appendChild(svg("line", {x1: X(at(fl,0,0)), y1: Y(at(fl,0,1)), x2: X(at(fl,1,0)), y2: Y(at(fl,1,1)), stroke: "orange", "stroke-width": 4}));
  for (const shot of list(f.shots)){
    const line = svg("line", {class: "shot", x1: X(at(shot,"from",0)), y1: Y(at(shot,"from",1)), x2: X(at(shot,"to",0)), y2: Y(at(shot,"to",1)),
      stroke: shot.hit ? "#d00" : "#777", "stroke-width": 2}, tip(`${str(shot.shooter)} fires at ${str(shot.target)}: ${shot.hit ? "hit" : "miss"}`));
    if (!shot.hit) line.setAttribute("stroke-dasharray", "6 4");
    s.appendChild(line);
  }
  for (const p of list(f.pefs)){
    const x = X(at(p,"pos",0)), y = Y(at(p,"pos",1));
    s.appendChild(svg("g", {class: "pef"},
      svg("polygon", {points: `${x},${y-10} ${x+10},${y} ${x},${y+10} ${x-10},${y}`, fill: "#fff", stroke: "#000"}),
      svg("text", {x: x, y: y+4, "text-anchor": "middle", "font-size": 11}, "?"), tip(`PEF ${str(p.id)}`)));
  }
  for (const ev of list(f.events)){
    if (at(ev, "type") === "PefResolved") s.appendChild(svg("text", {x: 6, y: H-8, "font-size": 13, fill: "#000"}, `PEF ${str(ev.pef)}: ${str(ev.result)}`));
  }
  for (const u of list(f.mechs)){
    const x = X(at(u,"pos",0)), y = Y(at(u,"pos",1)), r = 9, col = pick(SIDE, u.side, "#444");
    const a = num(u.heading)*Math.PI/180, hx = x + Math.cos(a)*r*1.8, hy = y - Math.sin(a)*r*1.8;
    const frac = num(u.max_armor) ? num(u.armor)/num(u.max_armor) : 1;
    if (u.removed){
      s.appendChild(svg("g", {class: "mech removed", opacity: 0.45},
        svg("line", {x1: x-r, y1: y-r, x2: x+r, y2: y+r, stroke: col, "stroke-width": 3}),
        svg("line", {x1: x-r, y1: y+r, x2: x+r, y2: y-r, stroke: col, "stroke-width": 3}),
        tip(`${str(u.name)}: ${str(u.removed)}`)));
      continue;
    }
    const disc = svg("circle", {cx: x, cy: y, r: r, fill: col, "fill-opacity": 0.35+0.65*frac, stroke: "#000"});
    if (u.prone) disc.setAttribute("stroke-dasharray", "3 2");
    s.appendChild(svg("g", {class: "mech"}, disc,
      svg("line", {x1: x, y1: y, x2: hx, y2: hy, stroke: "#000", "stroke-width": 2}),
      svg("rect", {x: x-r, y: y+r+2, width: 2*r, height: 3, fill: "#ccc"}),
      svg("rect", {x: x-r, y: y+r+2, width: 2*r*frac, height: 3, fill: frac > 0.5 ? "#2a2" : "#c22"}),
      svg("text", {x: x, y: y+4, "text-anchor": "middle", "font-size": 10, fill: "#fff"}, str(u.id)),
      tip(`${str(u.name)} (${str(u.design)}) armour ${str(u.armor)}/${str(u.max_armor)}, ${str(u.status)}${u.prone ? ", prone" : ""} at (${num(at(u,"pos",0)).toFixed(2)}, ${num(at(u,"pos",1)).toFixed(2)}) facing ${str(u.heading)}`)));
  }
  return s;
}
function hexSvg(f){
  // flat-topped axial hexes as both space games use them (rules/hexgrid.py): direction A is
  // north, B..F follow clockwise; x = 1.5 q, y (south) = sqrt(3) (r + q/2), in hex sizes
  const S = 18, px = (q, r) => [S*1.5*q, S*Math.sqrt(3)*(r + q/2)];
  let minX = 0, minY = 0, maxX = 0, maxY = 0, minQ = Infinity, maxQ = -Infinity, minR = Infinity, maxR = -Infinity;
  for (const fr of FR) for (const u of list(fr.units)){
    const q = num(u.q), r = num(u.r), [x, y] = px(q, r);
    minX = Math.min(minX, x); maxX = Math.max(maxX, x); minY = Math.min(minY, y); maxY = Math.max(maxY, y);
    minQ = Math.min(minQ, q); maxQ = Math.max(maxQ, q); minR = Math.min(minR, r); maxR = Math.max(maxR, r);
  }
  minX -= 3*S; minY -= 3*S; maxX += 3*S; maxY += 3*S;
  const fit = Math.max(0.5, Math.min(1, 720/(maxX-minX), 720/(maxY-minY)));  // the whole map in view
  const s = svg("svg", {width: (maxX-minX)*fit, height: (maxY-minY)*fit, viewBox: `${minX} ${minY} ${maxX-minX} ${maxY-minY}`});
  const hex = (cx, cy, colour, stroke, k = 1) => {
    const p = [];
    for (let i = 0; i < 6; i++){ const a = Math.PI/180*60*i; p.push(`${(cx+k*S*Math.cos(a)).toFixed(1)},${(cy+k*S*Math.sin(a)).toFixed(1)}`); }
    return svg("polygon", {points: p.join(" "), fill: colour, stroke: stroke});
  };
  if (minQ <= maxQ){
    const q0 = Math.floor(minQ)-3, q1 = Math.ceil(maxQ)+3, r0 = Math.floor(minR)-3-Math.ceil((maxQ-minQ)/2), r1 = Math.ceil(maxR)+3+Math.ceil((maxQ-minQ)/2);
    if ((r1-r0+1)*(q1-q0+1) <= 40000)  // no background grid for a map too large to draw
      for (let r = r0; r <= r1; r++) for (let q = q0; q <= q1; q++){
        const [x, y] = px(q, r);
        if (x >= minX && x <= maxX && y >= minY && y <= maxY) s.appendChild(hex(x, y, "none", "#c8c2b4"));
      }
  }
  s.appendChild(svg("text", {x: minX+6, y: minY+14, "font-size": 12, fill: "#555"}, "\u2191 A (north); B-F clockwise"));
  for (const u of list(f.units)){
    const [x, y] = px(num(u.q), num(u.r)), col = pick(SIDE, u.side, "#444");
    const a = Math.PI/180*(60*num(u.facing) - 90), c = Math.cos(a), d = Math.sin(a);
    const tipX = x+c*S*1.25, tipY = y+d*S*1.25, bx = x+c*S*0.8, by = y+d*S*0.8;
    s.appendChild(svg("g", {class: "unit", opacity: u.destroyed ? 0.35 : 1}, hex(x, y, col, "#000", 0.9),
      svg("line", {x1: x+c*S*0.45, y1: y+d*S*0.45, x2: bx, y2: by, stroke: "#fff", "stroke-width": 3}),
      svg("polygon", {class: "bow", points: `${tipX.toFixed(1)},${tipY.toFixed(1)} ${(bx-d*5).toFixed(1)},${(by+c*5).toFixed(1)} ${(bx+d*5).toFixed(1)},${(by-c*5).toFixed(1)}`, fill: "#000"}),
      svg("text", {x: x, y: y+4, "text-anchor": "middle", "font-size": 11, fill: "#fff"}, str(u.id)),
      tip(`${str(u.label == null ? u.id : u.label)} at (${num(u.q)}, ${num(u.r)}) facing ${pick(DIRS, num(u.facing), str(u.facing))}${u.armor != null ? ", armour " + str(u.armor) : ""}${u.destroyed ? ", out" : ""}`)));
  }
  return s;
}
function words(v){ return str(v).replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/_/g, " ").toLowerCase(); }
function short(v){
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : String(Math.round(v*10)/10);
  if (typeof v === "boolean") return v ? "yes" : "no";
  if (Array.isArray(v)) return v.slice(0, 12).map(short).join(", ");
  return v != null && typeof v === "object" ? "\u2026" : str(v);
}
function eventText(e, text){
  if (typeof text === "string") return text;  // the event in words, written by wargym.describe
  if (e == null || typeof e !== "object") return str(e);
  const rest = Object.entries(e).filter(([k]) => k !== "type").map(([k, v]) => `${words(k)} ${short(v)}`).join(", ");
  return `${words(e.type)}: ${rest}`;
}
function swatch(shape, colour, extra){
  const s = svg("svg", {width: 16, height: 12});
  if (shape === "rect") s.appendChild(svg("rect", {x: 1, y: 1, width: 14, height: 10, fill: colour, stroke: "#555"}));
  else if (shape === "disc") s.appendChild(svg("circle", {cx: 8, cy: 6, r: 5, fill: colour, stroke: "#000"}));
  else if (shape === "hex") s.appendChild(svg("polygon", {points: "1,6 4.5,1 11.5,1 15,6 11.5,11 4.5,11", fill: colour, stroke: extra || "#000"}));
  else if (shape === "diamond") s.appendChild(svg("polygon", {points: "8,0 14,6 8,12 2,6", fill: "#fff", stroke: "#000"}));
  else { const l = svg("line", {x1: 1, y1: 6, x2: 15, y2: 6, stroke: colour, "stroke-width": shape === "facing" ? 3 : 2}); if (shape === "dashed") l.setAttribute("stroke-dasharray", "4 3"); s.appendChild(l); }
  return s;
}
function legend(){
  const items = [], add = (shape, colour, text, extra) => items.push(h("span", "", swatch(shape, colour, extra), text));
  if (at(DATA, "map", "kind") === "table"){
    add("disc", "#1a3ce0", "blue mech (number: its id)"); add("disc", "#d82020", "red mech");
    add("facing", "#000", "black line: facing"); add("rect", "#2a2", "bar: armour left");
    add("diamond", "", "PEF (unknown enemy)"); add("line", "#d00", "hit"); add("dashed", "#777", "miss"); add("line", "orange", "flame");
    const kinds = [];
    for (const t of list(at(DATA, "map", "terrain"))){ const k = str(at(t, "kind")); if (!kinds.includes(k)) kinds.push(k); }
    for (const k of kinds.slice(0, 20)) add("rect", pick(COLOURS, k, "#999"), words(k));
  } else {
    add("hex", "#1a3ce0", "side 0 ship (number: its id)"); add("hex", "#d82020", "side 1 ship");
    add("facing", "#000", "arrow: facing (A north, B-F clockwise)"); add("hex", "#ccc", "faded: destroyed or out");
    add("hex", "none", "one hex of the map", "#c8c2b4");
  }
  document.getElementById("legend").replaceChildren(...items);
}
function show(i){
  index = Math.max(0, Math.min(FR.length-1, num(i)));
  const f = FR[index] || {};
  document.getElementById("map").replaceChildren(at(DATA, "map", "kind") === "table" ? tableSvg(f) : hexSvg(f));
  document.getElementById("counter").textContent = `step ${index} / ${FR.length-1}`;
  document.getElementById("slider").value = index;
  document.getElementById("frameinfo").replaceChildren(h("b", "", str(f.label)), f.turn != null ? ` \u00b7 turn ${str(f.turn)}` : "");
  const log = document.getElementById("log"), steps = [];
  for (let k = Math.max(0, index-30); k <= index; k++){
    const fr = FR[k] || {}, step = h("div", k === index ? "step current" : "step", h("b", "", str(fr.label)));
    step.id = `step-${k}`;
    const texts = list(fr.log);
    list(fr.events).forEach((e, n) => step.appendChild(h("div", "", eventText(e, texts[n]))));
    steps.push(step);
  }
  log.replaceChildren(...steps);
  log.scrollTop = log.scrollHeight;
  document.body.dataset.step = String(index);
}
function play(){
  const b = document.getElementById("play");
  if (timer){ clearInterval(timer); timer = null; b.textContent = "play"; return; }
  b.textContent = "pause";
  timer = setInterval(() => { if (index >= FR.length-1){ play(); } else show(index+1); }, 600);
}
document.getElementById("title").textContent = str(DATA.title);  // the outcome is in the title
legend();
document.getElementById("warnings").textContent = list(DATA.warnings).map(str).join("\n");
document.getElementById("slider").max = FR.length-1;
document.getElementById("slider").addEventListener("input", e => show(Number(e.target.value)));
document.getElementById("first").onclick = () => show(0);
document.getElementById("prev").onclick = () => show(index-1);
document.getElementById("next").onclick = () => show(index+1);
document.getElementById("last").onclick = () => show(FR.length-1);
document.getElementById("play").onclick = play;
document.addEventListener("keydown", e => { if (e.key === "ArrowRight") show(index+1); else if (e.key === "ArrowLeft") show(index-1); else if (e.key === " "){ e.preventDefault(); play(); } });
window.replayStep = show;
window.replayFrames = FR;
const wanted = /#step=(\d+)/.exec(location.hash || "");
if (FR.length) show(wanted ? Number(wanted[1]) : 0);
</script>
</body></html>
"""


def render_page(view: dict[str, Any]) -> str:
    r"""The HTML page for a view object (``replay.frames_of`` output).

    The view goes in as JSON inside ``<script type="application/json">``: ``<``, ``>``, ``&``
    and U+2028/U+2029 are written as ``\uXXXX`` escapes (so no string in it can close the
    block or open a comment), and ``/`` after ``:`` as ``\/`` (no address in the page). The
    title is HTML-escaped. The script reads the block with ``JSON.parse`` and puts every
    value into the page as text (see the comment at its top).

    Raises:
        ValueError: a value that is not JSON (NaN, infinity, a non-string key, ...).
        RecursionError: data nested too deeply to encode.
    """
    data = json.dumps(view, separators=(",", ":"), allow_nan=False, ensure_ascii=True)
    data = data.translate(_JSON_IN_HTML).replace("://", ":\\/\\/")
    title = html.escape(str(view.get("title", "replay")), quote=True)
    head, rest = _PAGE.split("__TITLE__")
    middle, tail = rest.split("__DATA__")
    return head + title + middle + data + tail


_JSON_IN_HTML = {ord(c): f"\\u{ord(c):04x}" for c in "<>&\u2028\u2029"}
"""Characters of the embedded JSON written as escapes (they occur only inside strings)."""
