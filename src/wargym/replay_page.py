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
#map{background:#e1ddd2;border:1px solid #999;flex:0 0 auto}
#side{flex:1 1 320px;min-width:280px}
#log{height:520px;overflow:auto;background:#fff;border:1px solid #bbb;padding:6px;font:12px monospace}
#log .step{margin:2px 0;padding:2px;border-bottom:1px solid #eee}
#log .current{background:#fff3b0}
#controls button{min-width:36px;margin-right:4px}
#slider{width:100%}
.legend span{display:inline-block;margin-right:10px}
.warn{color:#a40}
</style></head>
<body>
<header><b id="title"></b> <span id="outcome"></span></header>
<div id="main">
<div><div id="map"></div>
<div id="controls"><button id="first" title="first">|&lt;</button><button id="prev" title="previous (left arrow)">&lt;</button><button id="play" title="play/pause (space)">play</button><button id="next" title="next (right arrow)">&gt;</button><button id="last" title="last">&gt;|</button>
<span id="counter"></span><br><input id="slider" type="range" min="0" value="0"></div>
<div class="legend"><span style="color:#1a3ce0">&#9679; blue</span><span style="color:#d82020">&#9679; red</span><span>&#9670; PEF</span><span style="color:#d00">&#8212; hit</span><span style="color:#777">- - miss</span></div>
</div>
<svg id="svg-ns" width="0" height="0" aria-hidden="true"></svg>
<div id="side"><div id="frameinfo"></div><div id="log"></div><div id="warnings" class="warn"></div></div>
</div>
<script type="application/json" id="replay-data">__DATA__</script>
<script>
"use strict";
// Every value from the replay goes into the page as a text node or as a number attribute;
// nodes are made with createElement / createElementNS and attribute names spelt here.
const DATA = JSON.parse(document.getElementById("replay-data").textContent);
const FR = Array.isArray(DATA.frames) ? DATA.frames : [];
const NS = document.getElementById("svg-ns").namespaceURI;
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
  const S = 18, px = (q, r) => [S*Math.sqrt(3)*(q + r/2), S*1.5*r];
  let minX = 0, minY = 0, maxX = 0, maxY = 0, minQ = Infinity, maxQ = -Infinity, minR = Infinity, maxR = -Infinity;
  for (const fr of FR) for (const u of list(fr.units)){
    const q = num(u.q), r = num(u.r), [x, y] = px(q, r);
    minX = Math.min(minX, x); maxX = Math.max(maxX, x); minY = Math.min(minY, y); maxY = Math.max(maxY, y);
    minQ = Math.min(minQ, q); maxQ = Math.max(maxQ, q); minR = Math.min(minR, r); maxR = Math.max(maxR, r);
  }
  minX -= 3*S; minY -= 3*S; maxX += 3*S; maxY += 3*S;
  const W = Math.min(1400, maxX-minX), H = Math.min(1000, maxY-minY);
  const s = svg("svg", {width: W, height: H, viewBox: `${minX} ${minY} ${maxX-minX} ${maxY-minY}`});
  const hex = (cx, cy, colour, stroke) => {
    const p = [];
    for (let i = 0; i < 6; i++){ const a = Math.PI/180*(60*i-30); p.push(`${cx+S*Math.cos(a)},${cy+S*Math.sin(a)}`); }
    return svg("polygon", {points: p.join(" "), fill: colour, stroke: stroke});
  };
  if (minQ <= maxQ){
    const r0 = Math.floor(minR)-2, r1 = Math.ceil(maxR)+2, q0 = Math.floor(minQ)-2-Math.ceil((maxR-minR)/2), q1 = Math.ceil(maxQ)+2;
    if ((r1-r0+1)*(q1-q0+1) <= 40000)  // no background grid for a map too large to draw
      for (let r = r0; r <= r1; r++) for (let q = q0; q <= q1; q++){
        const [x, y] = px(q, r);
        if (x >= minX && x <= maxX && y >= minY && y <= maxY) s.appendChild(hex(x, y, "none", "#c8c2b4"));
      }
  }
  for (const u of list(f.units)){
    const [x, y] = px(num(u.q), num(u.r)), col = pick(SIDE, u.side, "#444");
    const a = Math.PI/180*(60*num(u.facing) - 90);
    s.appendChild(svg("g", {class: "unit", opacity: u.destroyed ? 0.35 : 1}, hex(x, y, col, "#000"),
      svg("line", {x1: x, y1: y, x2: x+Math.cos(a)*S, y2: y+Math.sin(a)*S, stroke: "#fff", "stroke-width": 3}),
      svg("text", {x: x, y: y+4, "text-anchor": "middle", "font-size": 10, fill: "#fff"}, str(u.id)),
      tip(`${str(u.label == null ? u.id : u.label)} at (${num(u.q)}, ${num(u.r)}) facing ${num(u.facing)}${u.armor != null ? ", armour " + str(u.armor) : ""}${u.destroyed ? ", out" : ""}`)));
  }
  return s;
}
function eventText(e){
  if (e == null || typeof e !== "object") return str(e);
  const rest = Object.entries(e).filter(([k]) => k !== "type").map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(" ");
  return `${str(e.type)} ${rest}`;
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
    for (const e of list(fr.events)) step.appendChild(h("div", "", eventText(e)));
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
const outcome = DATA.outcome;
document.getElementById("title").textContent = str(DATA.title);
if (outcome && typeof outcome === "object") document.getElementById("outcome").textContent = " \u2014 " + (outcome.winner ? str(outcome.winner) + " wins" : "draw") + (outcome.reason ? " (" + str(outcome.reason) + ")" : "");
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
