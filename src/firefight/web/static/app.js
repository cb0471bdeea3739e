// firefight web calculator: the procedure page (odds as the inputs change, a seeded or
// table roll with its trace) and the board page (what a hex sees, a line of sight).
// Plain JavaScript written for this project; it only talks to the JSON API under /api.
"use strict";

const pageData = JSON.parse(document.getElementById("page-data").textContent);

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "class") node.className = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
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
    data = { detail: `the server answered ${response.status}`, field: null };
  }
  return { ok: response.ok, status: response.status, data };
}

// An exact fraction "p/q" as a percentage with two decimals, computed with BigInt.
function percentOf(fraction) {
  const [p, q] = fraction.includes("/") ? fraction.split("/") : [fraction, "1"];
  const tenThousandths = (BigInt(p) * 1000000n + BigInt(q) / 2n) / BigInt(q);
  return Number(tenThousandths) / 10000;
}

// ---- the procedure page ----------------------------------------------------------------

// Up Front's data files: the text of the file the player picked, by field (deck, men). The
// server reads no path: the text goes in the body (deck_toml, men_toml), never in a link.
const uploadedTexts = {};

function readInputs(form) {
  const data = {};
  for (const [name, field] of Object.entries(pageData.fields)) {
    const control = form.elements.namedItem(name);
    if (!control) continue;
    if (field.kind === "upload") {
      if (uploadedTexts[name] !== undefined) data[name] = "uploaded";
      else if (control.dataset.given === "uploaded") data[name] = "uploaded";  // pick it again
    } else if (field.kind === "checkbox") {
      data[name] = control.checked;
    } else if (field.kind === "select") {
      if (control.value === "") continue;
      const type = field.choices[control.value];
      data[name] = type === "integer" ? Number(control.value) : control.value;
    } else if (field.kind === "number") {
      const text = control.value.trim();
      if (text === "") {
        // a browser empties a number input that holds no number: send what was typed, if any
        if (control.validity && control.validity.badInput) data[name] = "not a number";
        continue;
      }
      data[name] = /^-?\d+$/.test(text) ? Number(text) : text;
    } else if (control.value !== "") {
      data[name] = control.value;
    }
  }
  return data;
}

function queryOf(inputs) {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(inputs)) query.set(name, String(value));
  return query;
}

function clearErrors() {
  for (const node of document.querySelectorAll(".field-error")) node.textContent = "";
  for (const node of document.querySelectorAll(".field.invalid")) node.classList.remove("invalid");
}

// A 422 is shown next to its field; a rule across fields names one in its first words.
function showError(error) {
  let field = error.field;
  if (field && field.endsWith("_toml")) field = field.slice(0, -"_toml".length);  // an upload
  if (!field || !document.querySelector(`.field-error[data-field="${field}"]`)) {
    const named = /^'([a-z0-9_]+)'/.exec(error.detail || "");
    field = named && pageData.fields[named[1]] ? named[1] : "input";
  }
  if (field === "seed/roll") field = "seed";
  const target = document.querySelector(`.field-error[data-field="${field}"]`)
    || document.getElementById("form-error");
  target.textContent = error.detail;
  const box = document.querySelector(`.field[data-field="${field}"]`);
  if (box) box.classList.add("invalid");
}

function drawOdds(data) {
  const odds = document.getElementById("odds");
  const rows = [];
  for (const code of data.order || Object.keys(data.distribution)) {
    const fraction = data.distribution[code];
    const percent = percentOf(fraction);
    const bar = el("span", { class: "bar", style: `width: ${percent}%` });
    const meaning = pageData.meanings[code] || "";
    rows.push(
      el("div", { class: "outcome", "data-outcome": code },
        el("span", { class: "code" }, code),
        el("span", { class: "track" }, bar),
        el("span", { class: "fraction" }, fraction),
        el("span", { class: "percent" }, `${percent.toFixed(2)}%`),
        el("span", { class: "meaning" }, meaning)));
  }
  odds.replaceChildren(...rows);
  odds.classList.remove("stale");
  const body = document.querySelector("#modifiers tbody");
  body.replaceChildren(...data.modifiers.map((m) => el("tr", {},
    el("td", {}, m.label), el("td", { class: "value" }, m.value),
    el("td", {}, m.kind), el("td", { class: "rule" }, m.rule))));
  if (!data.modifiers.length) {
    body.replaceChildren(el("tr", {}, el("td", { colspan: "4" }, "none")));
  }
  const facts = document.getElementById("facts");
  facts.replaceChildren(...data.facts.flatMap(([label, value]) =>
    [el("dt", {}, label), el("dd", {}, value)]));
}

let latest = 0;

// The body of a request: the inputs, and the text of every file uploaded.
function withUploads(inputs) {
  const body = { ...inputs };
  for (const [name, upload] of Object.entries(pageData.uploads || {})) {
    if (uploadedTexts[name] !== undefined) body[upload] = uploadedTexts[name];
  }
  return body;
}

async function updateOdds(form) {
  const ticket = ++latest;
  const inputs = readInputs(form);
  const answer = await api("POST", `${pageData.api}/odds`, withUploads(inputs));
  if (ticket !== latest) return;  // a newer change has been sent since
  clearErrors();
  if (answer.ok) {
    drawOdds(answer.data);
  } else {
    document.getElementById("odds").classList.add("stale");
    showError(answer.data);
  }
}

// The chart cell a resolution used, from its trace: a note such as
// "6 +0 = 6: row 6, column 6 -> N" under the chart's title.
function chartCell(trace) {
  let found = null;
  for (const event of trace) {
    if (typeof event.value !== "string") continue;
    const match = /\brow (.+?)(?:, column (.+?))? -> /.exec(event.value);
    if (!match) continue;
    const chart = pageData.charts[event.label] || pageData.chart;
    if (chart) found = { chart, row: match[1], column: match[2] || "" };
  }
  return found;
}

// One step: the value the rule read, and the dice that gave it.
function stepText(event) {
  if (!event.dice || !event.dice.length) return `${event.label}: ${event.value}`;
  const dice = event.dice.length > 1 ? `dice ${event.dice.join(" + ")}` : `die ${event.dice[0]}`;
  return `${event.label}: ${event.value} (${dice})`;
}

function drawResolution(data, inputs, how) {
  document.getElementById("result").hidden = false;
  document.getElementById("outcome").textContent = data.outcome;
  document.getElementById("outcome-meaning").textContent = pageData.meanings[data.outcome] || "";
  document.getElementById("trace").replaceChildren(...data.trace.map((event) => {
    const item = el("li", {}, stepText(event));
    if (event.dice) item.dataset.dice = event.dice.join(",");
    return item;
  }));
  const query = queryOf(inputs);
  query.set(how.key, String(how.value));
  document.getElementById("replay-link").href = `${pageData.page}?${query}`;
  const link = document.getElementById("chart-link");
  if (link) {
    const cell = chartCell(data.trace);
    const chart = cell ? cell.chart : pageData.chart;
    let href = `/rulesets/${pageData.ruleset}/tables/${chart}`;
    if (cell) {
      const where = new URLSearchParams({ row: cell.row });
      if (cell.column) where.set("column", cell.column);
      href += `?${where}`;
    }
    link.href = href;
  }
}

async function resolveWith(form, how) {
  const inputs = readInputs(form);
  const body = { input: withUploads(inputs) };
  body[how.key] = how.value;
  const answer = await api("POST", `${pageData.api}/resolve`, body);
  clearErrors();
  if (answer.ok) {
    drawResolution(answer.data, inputs, how);
  } else {
    showError(answer.data);
  }
}

function rollSeeded(form) {
  const seedInput = document.getElementById("seed");
  let text = seedInput.value.trim();
  if (text === "") {
    text = String(Math.floor(Math.random() * 2 ** 31));
    seedInput.value = text;
  }
  const seed = /^\d+$/.test(text) ? Number(text) : text;
  return resolveWith(form, { key: "seed", value: seed });
}

function procedurePage(form) {
  let timer = null;
  const changed = () => {
    clearTimeout(timer);
    timer = setTimeout(() => updateOdds(form), 120);
  };
  form.addEventListener("input", changed);
  form.addEventListener("change", changed);
  form.addEventListener("submit", (event) => event.preventDefault());
  for (const name of Object.keys(pageData.uploads || {})) {
    const control = form.elements.namedItem(name);
    control.addEventListener("change", async () => {
      const file = control.files[0];
      if (file) uploadedTexts[name] = await file.text();
      else delete uploadedTexts[name];
      updateOdds(form);
    });
  }
  document.getElementById("roll").addEventListener("click", () => rollSeeded(form));
  document.getElementById("use-dice").addEventListener("click", () =>
    resolveWith(form, { key: "roll", value: document.getElementById("dice").value }));
  updateOdds(form);
  if (pageData.seed) rollSeeded(form);
  else if (pageData.roll) resolveWith(form, { key: "roll", value: pageData.roll });
}

// ---- the board page --------------------------------------------------------------------

function boardPage(svg) {
  const name = pageData.board;
  const los = document.getElementById("los");
  const line = document.getElementById("los-line");
  let origin = null;

  const hexOf = (label) => svg.querySelector(`[data-hex="${label}"]`);
  const centre = (polygon) => {
    const box = polygon.getBBox();
    return [box.x + box.width / 2, box.y + box.height / 2];
  };
  const reset = () => {
    for (const node of svg.querySelectorAll(".not-visible, .origin, .target")) {
      node.classList.remove("not-visible", "origin", "target");
    }
    line.setAttribute("visibility", "hidden");
  };

  async function look(label) {
    reset();
    origin = label;
    hexOf(label).classList.add("origin");
    los.replaceChildren(el("p", {}, `${label}: looking…`));
    const answer = await api("GET", `/api/boards/${name}/visible?from=${encodeURIComponent(label)}`);
    if (!answer.ok) {
      los.replaceChildren(el("p", { class: "error" }, answer.data.detail));
      return;
    }
    const seen = answer.data.visible;
    for (const polygon of svg.querySelectorAll("[data-hex]")) {
      const hex = polygon.dataset.hex;
      if (hex !== label && !(hex in seen)) polygon.classList.add("not-visible");
    }
    los.replaceChildren(el("p", {},
      `${label} sees ${answer.data.count} hexes (shaded: cannot see). Click a second hex.`));
  }

  async function judge(label) {
    for (const node of svg.querySelectorAll(".target")) node.classList.remove("target");
    hexOf(label).classList.add("target");
    const query = new URLSearchParams({ from: origin, to: label });
    const answer = await api("GET", `/api/boards/${name}/los?${query}`);
    if (!answer.ok) {
      los.replaceChildren(el("p", { class: "error" }, answer.data.detail));
      return;
    }
    const v = answer.data;
    const [x1, y1] = centre(hexOf(origin));
    const [x2, y2] = centre(hexOf(label));
    line.setAttribute("x1", x1); line.setAttribute("y1", y1);
    line.setAttribute("x2", x2); line.setAttribute("y2", y2);
    line.setAttribute("class", `los-${v.status}`);
    line.setAttribute("visibility", "visible");
    const reasons = el("ul", { class: "reasons" });
    for (const h of v.hindrances) reasons.append(el("li", {}, `${h.where}: ${h.what} ${h.modifier >= 0 ? "+" : ""}${h.modifier}`));
    if (v.blocked_by) reasons.append(el("li", {}, `blocked by ${v.blocked_by}`));
    for (const note of v.notes) reasons.append(el("li", {}, note));
    los.replaceChildren(
      el("p", { class: `verdict verdict-${v.status}` },
        `${v.from} → ${v.to}: `, el("strong", { class: "status" }, v.status),
        `, range ${v.range}, modifier ${v.modifier >= 0 ? "+" : ""}${v.modifier}`),
      reasons,
      el("p", { class: "hint" }, "Click another hex to judge from the same hex, or the same hex again to start over."));
  }

  svg.addEventListener("click", (event) => {
    const polygon = event.target.closest("[data-hex]");
    if (!polygon) return;
    const label = polygon.dataset.hex;
    if (origin === null || label === origin) {
      if (label === origin) { origin = null; reset(); los.replaceChildren(el("p", {}, "Click a hex.")); return; }
      look(label);
    } else {
      judge(label);
    }
  });
}

const inputsForm = document.getElementById("inputs");
if (inputsForm) procedurePage(inputsForm);
const boardSvg = document.getElementById("board");
if (boardSvg) boardPage(boardSvg);
