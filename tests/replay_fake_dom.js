// A small recording DOM for the replay page's script (tests/test_replay.py and
// tests/test_bad_input_replay.py): `node replay_fake_dom.js PAGE.html` runs the page's
// script, shows every frame, and prints what the script built as JSON:
//   frames, body (the last step shown), svg (the map of the last frame, serialised),
//   log (length of the serialised log), sizes (serialised map length per frame),
//   tags / attributes (every element and attribute name created), texts (every text node),
//   html_sinks (every write to innerHTML / outerHTML, insertAdjacentHTML or document.write).
"use strict";
const fs = require("fs");
const html = fs.readFileSync(process.argv[2], "utf8");
const data = /<script type="application\/json" id="replay-data">([\s\S]*?)<\/script>/.exec(html)[1];
const code = /<script>\n([\s\S]*?)<\/script>/.exec(html)[1];
const SVG_NS = "svg-namespace";  // any string: the script reads it from the page's own <svg>
const seen = {tags: new Set(), attributes: new Set(), texts: [], html_sinks: []};

const escText = s => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const escAttr = s => escText(s).replace(/"/g, "&quot;");

class Text {
  constructor(s) { this.data = String(s); seen.texts.push(this.data); }
  serialise() { return escText(this.data); }
}

class Element {
  constructor(tag, ns) {
    this.tagName = tag; this.namespaceURI = ns; this.children = []; this.attrs = new Map();
    this.dataset = {}; this.value = 0; this.max = 0; this.scrollTop = 0; this.scrollHeight = 0;
    this.onclick = null;
  }
  setAttribute(k, v) { seen.attributes.add(k); this.attrs.set(String(k), String(v)); }
  set className(v) { this.setAttribute("class", v); }
  set id(v) { this.attrs.set("id", String(v)); }
  appendChild(c) { this.children.push(c); return c; }
  append(...cs) { for (const c of cs) this.appendChild(typeof c === "string" ? new Text(c) : c); }
  replaceChildren(...cs) { this.children = []; this.append(...cs); }
  set textContent(v) { this.children = [new Text(v)]; }
  get textContent() { return this.children.map(c => c instanceof Text ? c.data : c.textContent).join(""); }
  set innerHTML(v) { seen.html_sinks.push(String(v)); }
  set outerHTML(v) { seen.html_sinks.push(String(v)); }
  insertAdjacentHTML(_, v) { seen.html_sinks.push(String(v)); }
  addEventListener() {}
  serialise() {
    const a = [...this.attrs].map(([k, v]) => ` ${k}="${escAttr(v)}"`).join("");
    return `<${this.tagName}${a}>${this.children.map(c => c.serialise()).join("")}</${this.tagName}>`;
  }
}

const byId = {};
const el = id => {
  if (!byId[id]) {
    byId[id] = new Element(id === "svg-ns" ? "svg" : "div", id === "svg-ns" ? SVG_NS : "html");
    if (id === "replay-data") byId[id].children = [Object.assign(Object.create(Text.prototype), {data})];
  }
  return byId[id];
};
const make = (tag, ns) => { seen.tags.add(tag); return new Element(tag, ns); };
global.document = {
  getElementById: el,
  createElement: tag => make(tag, "html"),
  createElementNS: (ns, tag) => {
    if (ns !== SVG_NS) throw new Error(`createElementNS with ${ns}`);
    return make(tag, ns);
  },
  createTextNode: s => new Text(s),
  addEventListener() {},
  write: v => seen.html_sinks.push(String(v)),
  body: {dataset: {}},
};
global.location = {hash: ""};
global.window = {};
global.setInterval = () => 1; global.clearInterval = () => {};
eval(code);
const FR = window.replayFrames, show = window.replayStep;
const sizes = [];
for (let i = 0; i < FR.length; i++) { show(i); sizes.push(el("map").serialise().length); }
show(FR.length - 1);
console.log(JSON.stringify({
  frames: FR.length, body: document.body.dataset.step, svg: el("map").serialise(),
  log: el("log").serialise().length, sizes,
  tags: [...seen.tags], attributes: [...seen.attributes], texts: seen.texts,
  html_sinks: seen.html_sinks,
}));
