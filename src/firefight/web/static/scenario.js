// firefight: the V&V scenario page. The board with the scenario's counters; the threat map of
// the side that moves (which enemy units could fire on a unit entering each hex, the lanes that
// would attack it, the exact chance of being pinned or worse there); click a stack, click its
// path hex by hex, see the odds per hex, then roll. Plain JavaScript; it only talks to the JSON
// API under /api/RULESET (pageData.api; docs/vv.md), whose answers are the CLI's --json.
"use strict";

const pageData = JSON.parse(document.getElementById("page-data").textContent);
const SVG = "http://www.w3.org/2000/svg";
const board = document.getElementById("scenario-board");
const result = document.getElementById("scenario-result");
const layer = (name) => board.querySelector(`g.${name}`);
const hexOf = (label) => board.querySelector(`polygon[data-hex="${label}"]`);
const centre = (label) => {
  const polygon = hexOf(label);
  return [Number(polygon.dataset.x), Number(polygon.dataset.y)];
};

let stack = null;  // the selected stack's hex
let path = [];     // the hexes entered, in order
let threat = null; // the last threat map answer
let choices = {};  // policy "player": the hex where each firer fires (firer id -> hex)
const stackCounter = () => (stack ? layer("counters").querySelector(`[data-stack="${stack}"]`) : null);
const zoomer = boardZoom(document.getElementById("scenario-board-wrap"), board, document.querySelector(".zoom-tools"), stackCounter);


function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "class") node.className = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

function svgEl(tag, attrs, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

async function api(method, url, body) {
  const options = { method, headers: { Accept: "application/json" } };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(url, options);
  let data = null;
  try {
    data = await response.json();
  } catch (error) {
    data = { detail: tr("the server answered {status}", { status: response.status }), field: null };
  }
  return { ok: response.ok, status: response.status, data };
}

// An exact fraction "p/q" as a number (for colours) and a percentage (two decimals, BigInt).
function valueOf(fraction) {
  const [p, q] = fraction.includes("/") ? fraction.split("/") : [fraction, "1"];
  return Number((BigInt(p) * 1000000n) / BigInt(q)) / 1000000;
}
function percent(fraction) {
  const [p, q] = fraction.includes("/") ? fraction.split("/") : [fraction, "1"];
  const hundredths = (BigInt(p) * 10000n + BigInt(q) / 2n) / BigInt(q);
  return `${(Number(hundredths) / 100).toFixed(2)} %`;
}

// firefight.board.overlay.shade_colour: the same ramp as the pictures.
function shade(value) {
  const stops = pageData.colours.stops;
  const x = Math.min(1, Math.max(0, value));
  for (let k = 1; k < stops.length; k += 1) {
    const [low, a] = stops[k - 1];
    const [high, b] = stops[k];
    if (x <= high) {
      const share = (x - low) / (high - low);
      const mix = [1, 3, 5].map((i) => {
        const from = parseInt(a.slice(i, i + 2), 16);
        const to = parseInt(b.slice(i, i + 2), 16);
        return Math.round(from + (to - from) * share).toString(16).padStart(2, "0");
      });
      return `#${mix.join("")}`;
    }
  }
  return stops[stops.length - 1][1];
}

function error(answer) {
  result.replaceChildren(el("p", { class: "error" }, answer.data.detail));
}

// ---- counters ---------------------------------------------------------------------------

function drawCounters() {
  const stacks = new Map();
  for (const unit of pageData.units) {
    if (!stacks.has(unit.hex)) stacks.set(unit.hex, []);
    stacks.get(unit.hex).push(unit);
  }
  const group = layer("counters");
  group.replaceChildren();
  for (const [hex, units] of stacks) {
    const [x, y] = centre(hex);
    const shown = units.slice(-3);
    const counter = svgEl("g", { class: "counter", "data-stack": hex, "data-side": units[0].side });
    shown.forEach((unit, depth) => {
      const [fill, ink] = pageData.colours.sides[unit.side_index % pageData.colours.sides.length];
      counter.append(svgEl("rect", {
        x: x - 12 + 2.5 * depth, y: y - 10 - 2.5 * depth, width: 21, height: 17, rx: 2,
        fill, stroke: ink,
      }));
    });
    const top = shown[shown.length - 1];
    const [, ink] = pageData.colours.sides[top.side_index % pageData.colours.sides.length];
    const dx = 2.5 * (shown.length - 1);
    counter.append(svgEl("text", { x: x - 1.5 + dx, y: y - dx, fill: ink }, top.text));
    const below = `${top.state || ""}${units.length > 1 ? ` +${units.length - 1}` : ""}`.trim();
    if (below) counter.append(svgEl("text", { x: x - 1.5 + dx, y: y + 6 - dx, fill: ink, "font-size": 5 }, below));
    counter.append(svgEl("title", {}, units.map((u) => `${u.id} (${u.side}, ${u.kind}${u.state ? `, ${u.state}` : ""})`).join("\n")));
    if (hex === stack) counter.classList.add("selected");
    group.append(counter);
  }
}

// ---- threat map -------------------------------------------------------------------------

function clearShading() {
  layer("shading").replaceChildren();
  layer("notes").replaceChildren();
  layer("lanes").replaceChildren();
  document.getElementById("legend").hidden = true;
}

function drawShading(values, legend) {
  const shading = layer("shading");
  const notes = layer("notes");
  shading.replaceChildren();
  notes.replaceChildren();
  for (const [hex, fraction] of Object.entries(values)) {
    const polygon = hexOf(hex);
    if (!polygon) continue;
    const value = valueOf(fraction);
    shading.append(svgEl("polygon", {
      points: polygon.getAttribute("points"), fill: shade(value),
      "fill-opacity": pageData.colours.alpha, "data-shade": hex,
    }));
    if (value > 0) {
      const [x, y] = centre(hex);
      notes.append(svgEl("text", { x, y: y + 17, "data-note": hex }, `${Math.round(value * 100)}%`));
    }
  }
  const box = document.getElementById("legend");
  box.querySelector(".legend-title").textContent = legend;
  box.hidden = false;
}

// Each fire lane (13.9) from its MG's hex: a dashed line, one diamond per Fire Lane marker.
function drawLanes(lanes) {
  const group = layer("lanes");
  group.replaceChildren();
  for (const lane of lanes) {
    const markers = lane.hexes.map(centre);
    const points = lane.from ? [centre(lane.from), ...markers] : markers;
    group.append(svgEl("polyline", {
      points: points.map((p) => p.join(",")).join(" "), fill: "none",
      stroke: pageData.colours.lane, "stroke-width": 1.5, "stroke-dasharray": "4 3",
      class: "lane", "data-lane": lane.mg || "", "data-from": lane.from || "",
    }));
    for (const [x, y] of markers) {
      group.append(svgEl("rect", {
        x: x - 3.5, y: y - 3.5, width: 7, height: 7, transform: `rotate(45 ${x} ${y})`,
        fill: pageData.colours.lane, stroke: "white", class: "lane-marker",
      }));
    }
  }
}

// The fire lane options (the CLI's --lanes, --lane-*, --standing-lanes; the API's fields).
const value = (id) => document.getElementById(id).value;
function laneOptions(forMove) {
  const options = {
    lane_side: value("lane-side"),
    lane_naturals: value("lane-naturals"),
    lane_after_mg_pinned: value("lane-after-mg-pinned"),
  };
  const standing = value("standing-lanes").trim();
  if (standing) options.standing_lanes = standing;
  if (forMove) Object.assign(options, { lanes: value("lanes"), lane_length: value("lane-length") });
  return options;
}

async function showThreat(quiet) {
  const side = document.getElementById("side").value;
  const body = { scenario: pageData.scenario, side, ...laneOptions(false) };
  if (stack) body.stack = stack;
  if (quiet !== true) result.replaceChildren(el("p", {}, tr("threat map of {side}…", { side })));
  const answer = await api("POST", pageData.api + "/threat", body);
  if (!answer.ok) { error(answer); return; }
  threat = answer.data;
  const values = {};
  for (const [hex, found] of Object.entries(threat.hexes)) values[hex] = found.pinned_or_worse;
  drawShading(values, tr("P(pinned or worse) for {target}", { target: threat.target.description }));
  drawLanes(threat.lanes);
  if (quiet === true) return;
  const threatened = Object.keys(threat.hexes).length;
  result.replaceChildren(
    el("h2", {}, tr("Threat map: {side}", { side: threat.side })),
    el("p", { id: "threat-summary" },
      tr("{count} hexes under fire from {firers} enemy firers", { count: threatened, firers: threat.firers.length })
      + (threat.lanes.length ? tr(" and {lanes} standing fire lane(s)", { lanes: threat.lanes.length }) : "")
      + tr("; target: {target}. Click a hex for who fires there.", { target: threat.target.description })),
  );
}

function showHex(label) {
  const found = threat && threat.hexes[label];
  const rows = el("tbody");
  if (found) {
    for (const firer of found.firers) {
      rows.append(el("tr", {}, el("td", {}, firer.units.map(nameOf).join(" + ")), el("td", { class: "hex" }, firer.hex),
        el("td", { class: "num" }, firer.row), el("td", { class: "num" }, String(firer.dice_modifier)),
        el("td", { class: "num" }, percent(firer.pinned_or_worse))));
    }
    for (const lane of found.lanes) {
      rows.append(el("tr", { class: "lane-attack" }, el("td", {}, tr("fire lane: {mgs}", { mgs: lane.mgs.map(weaponOf).join(", ") })),
        el("td", { class: "hex" }, lane.from.join(" ")),
        el("td", { class: "num" }, lane.row), el("td", { class: "num" }, String(lane.dice_modifier)),
        el("td", { class: "num" }, percent(lane.pinned_or_worse))));
    }
  }
  result.replaceChildren(
    el("h2", {}, `Hex ${label}`),
    found
      ? el("p", { id: "hex-threat" }, tr("pinned or worse on entering: {percent}", { percent: percent(found.pinned_or_worse) }))
      : el("p", { id: "hex-threat" }, tr("no enemy unit can fire on a unit entering it")),
    el("div", { class: "table-wrap" }, el("table", { id: "hex-firers" }, el("thead", {}, el("tr", {},
      el("th", {}, tr("firer")), el("th", {}, tr("from hex")),
      el("th", {}, tr("row")), el("th", {}, tr("dice")), el("th", {}, tr("pinned or worse")))), rows)),
  );
}

// ---- a stack's path ---------------------------------------------------------------------

function drawPath() {
  const group = layer("path");
  group.replaceChildren();
  if (!stack) return;
  const hexes = [stack, ...path];
  const [sx, sy] = centre(stack);
  group.append(svgEl("circle", { cx: sx, cy: sy, r: 24, fill: "none", stroke: pageData.colours.path, "stroke-width": 3 }));
  if (hexes.length > 1) {
    group.append(svgEl("polyline", {
      points: hexes.map((h) => centre(h).join(",")).join(" "), fill: "none",
      stroke: pageData.colours.path, "stroke-width": 4, "stroke-linejoin": "round", opacity: 0.85,
      id: "path-line", "data-path": path.join(","),
    }));
  }
}

function moveBody(extra) {
  const policy = document.getElementById("policy").value;
  const body = { scenario: pageData.scenario, stack, path, policy, ...laneOptions(true), ...moveOptions(), ...extra };
  if (policy === "player") body.player = choices;
  return body;
}

// Policy "player": the defender picks, for each firer that may fire along the path, the hex
// where it fires (or holds its fire); each change asks for the odds again.
function playerChoices(move) {
  const firers = new Map();
  for (const step of move.hexes) {
    for (const firer of step.may_fire) {
      if (!firers.has(firer)) firers.set(firer, []);
      firers.get(firer).push(step.hex);
    }
  }
  const box = el("div", { id: "player-choices" }, el("h3", {}, tr("Defender's choices")));
  for (const [firer, hexes] of firers) {
    const select = el("select", { "data-firer": firer },
      el("option", { value: "" }, tr("holds its fire")),
      ...hexes.map((hex) => el("option", { value: hex }, tr("fires at {hex}", { hex }))));
    select.value = choices[firer] || "";
    select.addEventListener("change", () => {
      if (select.value) choices[firer] = select.value;
      else delete choices[firer];
      showMove();
    });
    box.append(el("p", {}, el("label", {}, `${namesOf(firer)} `, select)));
  }
  return box;
}

// The path's odds: each hex entered with who may fire, who fires (the policy), the chance that
// the first pin or worse happens there (printed on the board beside the path).
function drawPathNotes(move) {
  const group = layer("path");
  for (const step of move.hexes) {
    const [x, y] = centre(step.hex);
    group.append(svgEl("text", { x: x + 12, y: y - 8, class: "path-note", "data-first-hit": step.hex,
      fill: pageData.colours.path, "font-size": 8, "font-weight": 700 },
      `${Math.round(step.first_hit.probability * 100)}%`));
  }
}

async function showMove() {
  drawPath();
  drawCounters();
  if (!path.length) {
    result.replaceChildren(el("p", { id: "move-hint" }, tr("Stack {stack} selected: click the hexes of its path.", { stack })));
    return;
  }
  result.replaceChildren(el("p", {}, tr("odds along the path…")));
  const answer = await api("POST", pageData.api + "/move", moveBody({}));
  if (!answer.ok) {
    if (answer.data.field === "path") { path.pop(); drawPath(); }  // the hex just clicked
    error(answer);
    return;
  }
  const move = answer.data;
  if (move.overrun) { showOverrun(move); return; }
  drawPathNotes(move);
  drawLanes(move.lanes || []);
  const rows = el("tbody");
  for (const step of move.hexes) {
    rows.append(el("tr", { "data-step": step.hex }, el("td", { class: "hex" }, step.hex),
      pinCell(step.first_hit), el("td", {}, step.terrain.replace(/_/g, " ")),
      el("td", { class: "lane-markers num" }, String(step.lane_markers || 0)),
      // AP fire groups, then the AT firers at the stack's vehicles (13.8, 18)
      el("td", { class: "groups" }, listed([...step.may_fire, ...(step.may_fire_at || [])])),
      el("td", { class: "groups" }, listed([...step.attacks, ...(step.at_attacks || [])]))));
  }
  result.replaceChildren(
    el("h2", {}, tr("Stack {stack} → {hex} ({policy}, exact)", { stack, hex: path[path.length - 1], policy: choiceWord("#policy", move.policy) })),
    el("div", { class: "table-wrap" }, el("table", { id: "path-odds" }, el("thead", {}, el("tr", {}, el("th", {}, tr("hex")),
      el("th", {}, tr("first pin here")), el("th", {}, tr("terrain")), el("th", {}, tr("lane markers")),
      el("th", {}, tr("may fire")), el("th", {}, tr("fires")))), rows)),
    el("h3", {}, tr("Where each unit ends")), endStates(move.outcomes),
  );
  if (move.lanes && move.lanes.length) {
    result.append(el("h3", {}, tr("Fire lanes (13.9)")), el("ul", { id: "move-lanes" }, ...move.lanes.map((lane) =>
      el("li", {}, tr("{mg} from {from}: {hexes}", { mg: weaponOf(lane.mg), from: lane.from, hexes: lane.hexes.join(" ") }) + " "
        + (lane.laid_at ? tr("(laid at hex {hex})", { hex: lane.laid_at }) : tr("(standing)"))))));
  }
  if (move.policy === "player") result.append(playerChoices(move));
}

async function roll() {
  if (!stack || !path.length) {
    result.replaceChildren(el("p", { class: "error" }, tr("path: click a stack, then the hexes of its path (got none)")));
    return;
  }
  const seed = seedOf(document.getElementById("seed"));
  const answer = await api("POST", pageData.api + "/move", moveBody({ seed }));
  if (!answer.ok) { error(answer); return; }
  const run = answer.data;
  if (run.overrun) { showOverrunRoll(run); return; }
  const trace = el("ol", { id: "trace" });
  for (const step of run.steps) {
    const inner = el("ul", {});
    for (const event of step.trace) inner.append(el("li", {}, `${event.label}: ${event.value}`));
    trace.append(el("li", { "data-hex": step.hex }, `${step.hex}: ${step.after}`, inner));
  }
  const outcome = Object.entries(run.outcome).map(([unit, o]) => tr("{unit} {state} in {hex}", { unit: nameOf(unit), state: stateWord(o.state), hex: o.hex })).join(", ");
  result.replaceChildren(
    el("h2", {}, tr("Roll (seed {seed})", { seed: run.seed })),
    el("p", { id: "roll-outcome" }, outcome),
    trace,
    el("p", { class: "hint" }, tr("Dice to replay it: {dice}", { dice: run.replay.join(",") })),
  );
}

function clickHex(label) {
  const side = document.getElementById("side").value;
  const own = pageData.units.some((u) => u.hex === label && u.side === side);
  if (!stack) {
    if (own) { stack = label; path = []; showMove(); showThreat(true); zoomer.reveal(stackCounter()); return; }
    showHex(label);
    return;
  }
  const last = path.length ? path[path.length - 1] : stack;
  if (label === last && path.length) { path.pop(); showMove(); return; }
  if (label === stack && !path.length) { stack = null; drawPath(); drawCounters(); showHex(label); return; }
  path.push(label);
  showMove();
}

board.addEventListener("click", (event) => {
  const counter = event.target.closest("[data-stack]");
  const polygon = event.target.closest("[data-hex]");
  const label = counter ? counter.dataset.stack : polygon && polygon.dataset.hex;
  if (label) clickHex(label);
});
document.getElementById("threat").addEventListener("click", () => showThreat(false));
document.getElementById("roll").addEventListener("click", roll);
document.getElementById("clear-path").addEventListener("click", () => {
  stack = null; path = []; drawPath(); drawCounters(); clearShading();
  result.replaceChildren(el("p", {}, tr("Path cleared.")));
});
document.getElementById("policy").addEventListener("change", () => {
  choices = {};
  if (stack && path.length) showMove();
});
// A lane option or a move option changed: the odds of the path, and the threat map shown, again.
const laneInputs = ["lanes", "lane-side", "lane-length", "lane-naturals", "lane-after-mg-pinned", "standing-lanes"]
  .map((id) => document.getElementById(id));
const moveInputs = [...document.querySelectorAll("#move-options input, #move-options select")];
for (const input of [...laneInputs, ...moveInputs]) {
  input.addEventListener("change", () => {
    if (stack && path.length) showMove();
    else if (threat) showThreat(true);
  });
}
document.getElementById("side").addEventListener("change", () => {
  stack = null; path = []; drawPath(); drawCounters(); clearShading();
});
// A pasted scenario: the server checks it (one-line errors) and sends its counters and board.
async function loadScenario(event) {
  event.preventDefault();
  const text = document.getElementById("scenario-text").value;
  const answer = await api("POST", pageData.api + "/scenario", { scenario: text });
  if (!answer.ok) { error(answer); return; }
  const found = answer.data;
  if (found.board !== pageData.board) drawBoard(found.drawing);
  Object.assign(pageData, { scenario: found.scenario, board: found.board, units: found.units, sides: found.sides });
  const select = document.getElementById("side");
  select.replaceChildren(...Object.keys(found.sides).map((key) => el("option", { value: key }, key)));
  stack = null; path = []; threat = null;
  drawPath(); drawCounters(); clearShading();
  document.querySelector("h1").textContent = found.name;
  result.replaceChildren(el("p", { id: "loaded" }, `Loaded ${found.name}: ${found.units.length} units.`));
}

function drawBoard(drawing) {
  board.setAttribute("viewBox", drawing.view_box);
  board.setAttribute("width", drawing.width);
  board.setAttribute("height", drawing.height);
  layer("hexes").replaceChildren(...drawing.hexes.map((h) => {
    const polygon = svgEl("polygon", {
      class: "hex", "data-hex": h.label, "data-column": h.column, "data-row": h.row, "data-x": h.x, "data-y": h.y, points: h.points, fill: h.fill,
    });
    polygon.append(svgEl("title", {}, `${h.label}: ${h.terrain}${h.level ? `, level ${h.level}` : ""}`));
    return polygon;
  }));
  layer("sides").replaceChildren(...drawing.sides.map((s) => svgEl("line", {
    class: `side side-${s.feature}`, x1: s.x1, y1: s.y1, x2: s.x2, y2: s.y2,
  })));
  layer("labels").replaceChildren(...drawing.hexes.map((h) => svgEl("text", { x: h.x, y: h.y - 18 }, h.label)));
  zoomer.refit();
}

document.getElementById("upload").addEventListener("submit", loadScenario);
drawCounters();
