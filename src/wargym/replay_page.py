# ruff: noqa: E501
"""The replay viewer page: one HTML file with inline CSS, JavaScript and SVG (see ``replay``).

The page reads its data from an inline ``<script type="application/json">`` block and draws
every frame as SVG markup (built as text, so the page holds no namespace URL or any other
address). It loads nothing from the network.
"""

from __future__ import annotations

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
<div id="side"><div id="frameinfo"></div><div id="log"></div><div id="warnings" class="warn"></div></div>
</div>
<script type="application/json" id="replay-data">__DATA__</script>
<script>
"use strict";
const DATA = JSON.parse(document.getElementById("replay-data").textContent);
const FR = DATA.frames;
const COLOURS = {building:"#5a5a5a",woods:"#226e28",hill:"#aa8c5a",river:"#4682c8",deep_water:"#1e3c96",road:"#c8bea0",rough:"#827850"};
const SIDE = {blue:"#1a3ce0",red:"#d82020","0":"#1a3ce0","1":"#d82020"};
let index = 0, timer = null;
function esc(s){return String(s).replace(/[&<>"]/g,c=>({"&":"&amp;","<":"&lt;",">":"&gt;","\"":"&quot;"}[c]));}
function num(v){return Number(v).toFixed(2);}
function tableSvg(f){
  const m = DATA.map, S = 16, W = m.width*S, H = m.height*S;
  const X = x => x*S, Y = y => (m.height - y)*S;
  let s = `<svg width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">`;
  s += `<rect x="0" y="0" width="${W}" height="${H}" fill="#e1ddd2"/>`;
  for (const t of m.terrain){
    s += `<rect x="${X(t.x0)}" y="${Y(t.y1)}" width="${(t.x1-t.x0)*S}" height="${(t.y1-t.y0)*S}" fill="${COLOURS[t.kind]||"#999"}" opacity="0.75"><title>${esc(t.kind)}</title></rect>`;
  }
  for (const fl of f.flames||[]) s += `<line x1="${X(fl[0][0])}" y1="${Y(fl[0][1])}" x2="${X(fl[1][0])}" y2="${Y(fl[1][1])}" stroke="orange" stroke-width="4"/>`;
  for (const shot of f.shots||[]){
    s += `<line class="shot" x1="${X(shot.from[0])}" y1="${Y(shot.from[1])}" x2="${X(shot.to[0])}" y2="${Y(shot.to[1])}" stroke="${shot.hit?"#d00":"#777"}" stroke-width="2" ${shot.hit?"":"stroke-dasharray=\"6 4\""}><title>${shot.shooter} fires at ${shot.target}: ${shot.hit?"hit":"miss"}</title></line>`;
  }
  for (const p of f.pefs||[]){
    const x = X(p.pos[0]), y = Y(p.pos[1]);
    s += `<g class="pef"><polygon points="${x},${y-10} ${x+10},${y} ${x},${y+10} ${x-10},${y}" fill="#fff" stroke="#000"/><text x="${x}" y="${y+4}" text-anchor="middle" font-size="11">?</text><title>PEF ${p.id}</title></g>`;
  }
  for (const ev of f.events||[]){
    if (ev.type === "PefResolved"){
      s += `<text x="6" y="${H-8}" font-size="13" fill="#000">PEF ${ev.pef}: ${esc(ev.result)}</text>`;
    }
  }
  for (const u of f.mechs){
    const x = X(u.pos[0]), y = Y(u.pos[1]), r = 9, col = SIDE[u.side]||"#444";
    const a = u.heading*Math.PI/180, hx = x + Math.cos(a)*r*1.8, hy = y - Math.sin(a)*r*1.8;
    const frac = u.max_armor ? u.armor/u.max_armor : 1;
    if (u.removed){
      s += `<g class="mech removed" opacity="0.45"><line x1="${x-r}" y1="${y-r}" x2="${x+r}" y2="${y+r}" stroke="${col}" stroke-width="3"/><line x1="${x-r}" y1="${y+r}" x2="${x+r}" y2="${y-r}" stroke="${col}" stroke-width="3"/><title>${esc(u.name)}: ${esc(u.removed)}</title></g>`;
      continue;
    }
    s += `<g class="mech"><circle cx="${x}" cy="${y}" r="${r}" fill="${col}" fill-opacity="${0.35+0.65*frac}" stroke="#000" ${u.prone?"stroke-dasharray=\"3 2\"":""}/>`;
    s += `<line x1="${x}" y1="${y}" x2="${hx}" y2="${hy}" stroke="#000" stroke-width="2"/>`;
    s += `<rect x="${x-r}" y="${y+r+2}" width="${2*r}" height="3" fill="#ccc"/><rect x="${x-r}" y="${y+r+2}" width="${2*r*frac}" height="3" fill="${frac>0.5?"#2a2":"#c22"}"/>`;
    s += `<text x="${x}" y="${y+4}" text-anchor="middle" font-size="10" fill="#fff">${u.id}</text>`;
    s += `<title>${esc(u.name)} (${esc(u.design)}) armour ${u.armor}/${u.max_armor}, ${esc(u.status)}${u.prone?", prone":""} at (${num(u.pos[0])}, ${num(u.pos[1])}) facing ${u.heading}</title></g>`;
  }
  return s + "</svg>";
}
function hexSvg(f){
  const S = 18, all = FR.flatMap(fr => fr.units);
  const px = u => [S*Math.sqrt(3)*(u.q + u.r/2), S*1.5*u.r];
  const pts = all.map(px);
  const minX = Math.min(...pts.map(p=>p[0]), 0) - 3*S, minY = Math.min(...pts.map(p=>p[1]), 0) - 3*S;
  const maxX = Math.max(...pts.map(p=>p[0]), 0) + 3*S, maxY = Math.max(...pts.map(p=>p[1]), 0) + 3*S;
  const W = Math.min(1400, maxX-minX), H = Math.min(1000, maxY-minY);
  let s = `<svg width="${W}" height="${H}" viewBox="${minX} ${minY} ${maxX-minX} ${maxY-minY}">`;
  const hex = (cx, cy, fill, stroke) => {
    let p = [];
    for (let i = 0; i < 6; i++){ const a = Math.PI/180*(60*i-30); p.push(`${cx+S*Math.cos(a)},${cy+S*Math.sin(a)}`); }
    return `<polygon points="${p.join(" ")}" fill="${fill}" stroke="${stroke}"/>`;
  };
  const qs = all.map(u=>u.q), rs = all.map(u=>u.r);
  for (let r = Math.min(...rs)-2; r <= Math.max(...rs)+2; r++)
    for (let q = Math.min(...qs)-2-Math.ceil((Math.max(...rs)-Math.min(...rs))/2); q <= Math.max(...qs)+2; q++){
      const [x, y] = px({q, r});
      if (x < minX || x > maxX || y < minY || y > maxY) continue;
      s += hex(x, y, "none", "#c8c2b4");
    }
  for (const u of f.units){
    const [x, y] = px(u), col = SIDE[String(u.side)]||"#444";
    const a = Math.PI/180*(60*Number(u.facing||0) - 90);
    s += `<g class="unit" opacity="${u.destroyed?0.35:1}">` + hex(x, y, col, "#000");
    s += `<line x1="${x}" y1="${y}" x2="${x+Math.cos(a)*S}" y2="${y+Math.sin(a)*S}" stroke="#fff" stroke-width="3"/>`;
    s += `<text x="${x}" y="${y+4}" text-anchor="middle" font-size="10" fill="#fff">${esc(u.id)}</text>`;
    s += `<title>${esc(u.label||u.id)} at (${u.q}, ${u.r}) facing ${u.facing}${u.armor!=null?", armour "+esc(u.armor):""}${u.destroyed?", out":""}</title></g>`;
  }
  return s + "</svg>";
}
function eventText(e){
  const rest = Object.entries(e).filter(([k]) => k !== "type").map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(" ");
  return `${esc(e.type)} ${esc(rest)}`;
}
function show(i){
  index = Math.max(0, Math.min(FR.length-1, i));
  const f = FR[index];
  document.getElementById("map").innerHTML = DATA.map.kind === "table" ? tableSvg(f) : hexSvg(f);
  document.getElementById("counter").textContent = `step ${index} / ${FR.length-1}`;
  document.getElementById("slider").value = index;
  document.getElementById("frameinfo").innerHTML = `<b>${esc(f.label)}</b>` + (f.turn!=null?` &middot; turn ${f.turn}`:"");
  const log = document.getElementById("log");
  let html = "";
  const lo = Math.max(0, index-30);
  for (let k = lo; k <= index; k++){
    const fr = FR[k];
    html += `<div class="step${k===index?" current":""}" id="step-${k}"><b>${esc(fr.label)}</b>` + (fr.events||[]).map(e => `<div>${eventText(e)}</div>`).join("") + "</div>";
  }
  log.innerHTML = html;
  log.scrollTop = log.scrollHeight;
  document.body.dataset.step = String(index);
}
function play(){
  const b = document.getElementById("play");
  if (timer){ clearInterval(timer); timer = null; b.textContent = "play"; return; }
  b.textContent = "pause";
  timer = setInterval(() => { if (index >= FR.length-1){ play(); } else show(index+1); }, 600);
}
document.getElementById("title").textContent = DATA.title;
if (DATA.outcome) document.getElementById("outcome").textContent = " \u2014 " + (DATA.outcome.winner ? DATA.outcome.winner + " wins" : "draw") + (DATA.outcome.reason ? " (" + DATA.outcome.reason + ")" : "");
document.getElementById("warnings").textContent = (DATA.warnings||[]).join("\n");
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
show(wanted ? Number(wanted[1]) : 0);
</script>
</body></html>
"""


def render_page(view: dict[str, Any]) -> str:
    """The HTML page for a view object (``replay.frames_of`` output)."""
    data = json.dumps(view, separators=(",", ":"), allow_nan=False)
    data = data.replace("</", "<\\/").replace("<!--", "\\u003c!--")
    data = data.replace("://", ":\\/\\/")  # never an address in the page, even inside data
    title = str(view.get("title", "replay"))
    title = title.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _PAGE.replace("__TITLE__", title).replace("__DATA__", data)
