// firefight web calculator: the procedure page (odds as the inputs change, a seeded or
// table roll with its trace) and the board page (what a hex sees, a line of sight).
// Plain JavaScript written for this project; it only talks to the JSON API under /api.
"use strict";

// Every sentence this script writes on a page, in one place (the rest is in the templates).
// Each goes through tr() (static/i18n.js): its English text is the catalogue's message.
const TEXT = {
  serverAnswered: (status) => tr("the server answered {status}", { status }),
  none: tr("none"),
  pageDefaults: tr("the page's defaults"),
  chooseFirer: tr("Choose a firer hex."),
  looking: (hex) => tr("{hex}: looking…", { hex }),
  sees: (hex, count) =>
    tr("{hex} sees {count} hexes (shaded: cannot see). Choose a target hex.", { hex, count }),
  verdict: (from, to) => `${from} → ${to}: `,
  rangeAndModifier: (range, modifier) => tr(", range {range}, modifier {modifier}", { range, modifier }),
  blockedBy: (what) => tr("blocked by {what}", { what }),
  again: tr("Choose another hex to judge from the same firer, or the firer again to start over."),
  noFirer: (hex) =>
    hex ? tr("no hex {hex} for the firer on this board", { hex }) : tr("no hex given for the firer on this board"),
  noTarget: (hex) => tr("no hex {hex} for the target on this board", { hex }),
  dice: (dice) => (dice.length > 1 ? tr("dice {dice}", { dice: dice.join(" + ") }) : tr("die {die}", { die: dice[0] })),
};

const pageDataNode = document.getElementById("page-data");
const pageData = pageDataNode ? JSON.parse(pageDataNode.textContent) : {};

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
    data = { detail: TEXT.serverAnswered(response.status), field: null };
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
  target.textContent = errorWords(error.detail);
  const box = document.querySelector(`.field[data-field="${field}"]`);
  if (box) box.classList.add("invalid");
}

// ---- exact fractions (the API's "p/q" texts), for the cumulative view and the comparison ----

function gcd(a, b) {
  let [x, y] = [a < 0n ? -a : a, b < 0n ? -b : b];
  while (y) [x, y] = [y, x % y];
  return x;
}

function fractionOf(text) {
  const [p, q] = text.includes("/") ? text.split("/") : [text, "1"];
  return [BigInt(p), BigInt(q)];
}

function sum(a, b) {
  const p = a[0] * b[1] + b[0] * a[1];
  const q = a[1] * b[1];
  const g = gcd(p, q) || 1n;
  return [p / g, q / g];
}

const ZERO = [0n, 1n];

function fractionText([p, q], signed) {
  const text = q === 1n ? `${p}` : `${p}/${q}`;
  return signed && p > 0n ? `+${text}` : text;
}

// A fraction as a percentage, to four decimals of a percent, with BigInt.
function percentOfPair([p, q]) {
  const sign = p < 0n ? -1 : 1;
  const magnitude = p < 0n ? -p : p;
  return sign * Number((magnitude * 1000000n + q / 2n) / q) / 10000;
}

// An outcome's short name and meaning: the answer's own where it names the outcome (a group's
// tally, "names": {code: [name, meaning]}, the CLI's result and meaning columns), else the
// page's label and meaning for the code.
function outcomeName(code, ...answers) {
  const named = answers.map((a) => a && a.names && a.names[code]).find(Boolean);
  return named ? named[0] : outcomeLabel(code, pageData.labels);
}
function outcomeMeaning(code, ...answers) {
  const named = answers.map((a) => a && a.names && a.names[code]).find(Boolean);
  return named ? named[1] : pageData.meanings[code] || "";
}

// The rows of the odds view: each outcome's exact chance (or the chance of it and every later
// row, "at least", or of it and every earlier row, "at most"), and the pinned attack's beside it.
function oddsRows(data, view, pinned) {
  if (!data) return [];
  const codes = [...(data.order || Object.keys(data.distribution))];
  const before = pinned ? pinned.data : null;
  if (before) for (const code of Object.keys(before.distribution)) if (!codes.includes(code)) codes.push(code);
  const read = (dist) => codes.map((code) => (dist[code] ? fractionOf(dist[code]) : ZERO));
  const cumulate = (values) => values.map((_, i) => {
    const part = view === "at_least" ? values.slice(i) : view === "at_most" ? values.slice(0, i + 1) : [values[i]];
    return part.reduce(sum, ZERO);
  });
  const now = cumulate(read(data.distribution));
  const then = before ? cumulate(read(before.distribution)) : null;
  return codes.map((code, i) => {
    const percent = percentOfPair(now[i]);
    const grade = (data.severity && code in data.severity) ? data.severity[code]
      : (before && before.severity && code in before.severity) ? before.severity[code] : null;
    const row = {
      code,
      label: outcomeName(code, data, before),
      severity: grade === null || grade === undefined ? "severity-none" : `severity-${grade}`,
      fraction: fractionText(now[i]),
      percent,
      percentText: `${percent.toFixed(2)}%`,
      meaning: outcomeMeaning(code, data, before),
      pinned: null,
      pinnedPercent: 0,
      pinnedPercentText: "",
      difference: "",
      differencePoints: "",
    };
    if (then) {
      const change = sum(now[i], [-then[i][0], then[i][1]]);
      const points = percentOfPair(change);
      row.pinned = fractionText(then[i]);
      row.pinnedPercent = percentOfPair(then[i]);
      row.pinnedPercentText = `${row.pinnedPercent.toFixed(2)}%`;
      row.difference = fractionText(change, true);
      row.differencePoints = `${points > 0 ? "+" : ""}${points.toFixed(2)} points`;
    }
    return row;
  });
}

// An answer's English (a label, a kind) in the page's language: the scripts' messages, else
// the words the page was given, else its English.
function say(text) {
  if (Object.prototype.hasOwnProperty.call(I18N, text)) return tr(text);
  const words = (typeof pageData !== "undefined" && pageData && pageData.labels) || {};
  return Object.prototype.hasOwnProperty.call(words, text) ? words[text] : String(text);
}

// An error's line as a player reads it: a field it names in its words, Python's "(got None)"
// (a value not given) left out, every other identifier in words.
function errorWords(detail) {
  const fields = (typeof pageData !== "undefined" && pageData && pageData.fields) || {};
  const named = String(detail || "").replace(/'([A-Za-z0-9_]+)'/g, (whole, name) =>
    Object.prototype.hasOwnProperty.call(fields, name) ? `'${fields[name].label}'` : whole);
  return wordsOf(named.replace(/\s*\([^()]*\bNone\)/g, ""), (pageData && pageData.labels) || {});
}

// A modifier's value as the CLI prints it (Modifier.display): x2, x1/2 for a factor, +2, -1.
function modifierText(m) {
  if (m.kind === "factor") return `x${m.value}`;
  return /^\d+$/.test(m.value) ? `+${m.value}` : m.value;
}

function drawOdds(data) {
  Object.assign(oddsStore(), { data, stale: false, missing: false });
  const body = document.querySelector("#modifiers tbody");
  body.replaceChildren(...data.modifiers.map((m) => el("tr", {},
    el("td", {}, say(m.label)), el("td", { class: "value" }, modifierText(m)),
    el("td", {}, say(m.kind)), el("td", { class: "rule" }, m.rule))));
  if (!data.modifiers.length) {
    body.replaceChildren(el("tr", {}, el("td", { colspan: "4" }, TEXT.none)));
  }
  const facts = document.getElementById("facts");
  facts.replaceChildren(...data.facts.flatMap(([label, value]) =>
    [el("dt", {}, say(label)), el("dd", {}, wordsOf(say(value), pageData.labels))]));
}

// ---- the address follows the form (a situation to share) -------------------------------

// The query of every field whose value is not the one the page opens with, so that the
// address is short and opening it gives the same situation.
function shareQuery(form) {
  const query = new URLSearchParams();
  for (const [name, field] of Object.entries(pageData.fields)) {
    if (field.kind === "upload") continue;  // a file's text never goes in a link
    const control = form.elements.namedItem(name);
    if (!control) continue;
    const value = field.kind === "checkbox" ? String(control.checked) : control.value.trim();
    if (value !== field.initial) query.set(name, value);
  }
  return query;
}

function followForm(form) {
  const query = shareQuery(form);
  const text = query.toString();
  history.replaceState(null, "", text ? `${pageData.page}?${text}` : pageData.page);
}

// An input a rule needs that is still empty: the page waits for it quietly ("fill in").
function emptyNeeded(form, error) {
  let name = error.field;
  if (!name || !pageData.fields[name]) {
    const named = /^'([a-z0-9_]+)'/.exec(error.detail || "");
    name = named && pageData.fields[named[1]] ? named[1] : null;
  }
  if (!name) return null;
  const field = pageData.fields[name];
  const control = form.elements.namedItem(name);
  if (!control || field.kind === "checkbox" || field.kind === "upload") return null;
  if (control.validity && control.validity.badInput) return null;
  return control.value.trim() === "" ? name : null;
}

// ---- the history of rolls, kept in this browser (localStorage) ---------------------------

const HISTORY_KEY = "firefight-history";
const HISTORY_LIMIT = 1000;

function loadHistory() {
  try {
    const list = JSON.parse(localStorage.getItem(HISTORY_KEY) || "[]");
    return Array.isArray(list) ? list : [];
  } catch (error) {
    return [];
  }
}

function remember(entry) {
  const list = loadHistory();
  list.push(entry);
  try {
    localStorage.setItem(HISTORY_KEY, JSON.stringify(list.slice(-HISTORY_LIMIT)));
  } catch (error) {
    // storage full or refused: the roll is shown, only not kept
  }
}

function diceOf(trace) {
  return trace.filter((event) => event.dice && event.dice.length).map((event) => event.dice.join("+")).join(", ");
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

function oddsStore() {
  return Alpine.store("odds");
}

async function updateOdds(form) {
  const ticket = ++latest;
  const inputs = readInputs(form);
  followForm(form);
  const answer = await api("POST", `${pageData.api}/odds`, withUploads(inputs));
  if (ticket !== latest) return;  // a newer change has been sent since
  clearErrors();
  for (const node of document.querySelectorAll(".field.wanted")) node.classList.remove("wanted");
  if (answer.ok) {
    drawOdds(answer.data);
    return;
  }
  const needed = emptyNeeded(form, answer.data);
  if (needed) {  // an empty field a rule needs: wait for it quietly, no error
    const store = oddsStore();
    store.data = null;
    store.missing = true;
    store.missingLabel = pageData.fields[needed].label;
    store.missingWhy = errorWords((answer.data.detail || "").replace(/ \(got [^)]*\)$/, ""));
    document.querySelector(`.field[data-field="${needed}"]`).classList.add("wanted");
    document.querySelector("#modifiers tbody").replaceChildren();
    document.getElementById("facts").replaceChildren();
    return;
  }
  oddsStore().stale = true;
  oddsStore().missing = false;
  showError(answer.data);
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
  const label = wordsOf(say(event.label), pageData.labels);
  const value = wordsOf(event.value, pageData.labels);
  if (!event.dice || !event.dice.length) return `${label}: ${value}`;
  const dice = TEXT.dice(event.dice);
  return `${label}: ${value} (${dice})`;
}

function drawResolution(data, inputs, how) {
  document.getElementById("result").hidden = false;
  document.getElementById("outcome").textContent = outcomeName(data.outcome, data);
  document.getElementById("outcome-meaning").textContent = outcomeMeaning(data.outcome, data);
  document.getElementById("roll-how").textContent = how.key === "seed"
    ? tr("seed {seed}", { seed: how.value }) : tr("your dice");
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

// ``replay``: the roll an opened link asks for (?seed= or ?roll=), shown but not listed again.
async function resolveWith(form, how, replay = false) {
  const inputs = readInputs(form);
  const body = { input: withUploads(inputs) };
  body[how.key] = how.value;
  const [answer, odds] = await Promise.all([
    api("POST", `${pageData.api}/resolve`, body),
    api("POST", `${pageData.api}/odds`, withUploads(inputs)),
  ]);
  clearErrors();
  if (answer.ok) {
    drawResolution(answer.data, inputs, how);
    if (!replay) remember({
      when: new Date().toISOString(),
      ruleset: pageData.ruleset,
      procedure: pageData.procedure,
      title: pageData.title,
      outcome: answer.data.outcome,
      label: outcomeName(answer.data.outcome, answer.data),
      dice: diceOf(answer.data.trace),
      how: `${how.key} ${how.value}`,
      replay: document.getElementById("replay-link").getAttribute("href"),
      odds: odds.ok ? odds.data.distribution : null,
    });
  } else {
    showError(answer.data);
  }
}

function rollSeeded(form, replay = false) {
  return resolveWith(form, { key: "seed", value: seedOf(document.getElementById("seed")) }, replay);
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
  if (pageData.seed) rollSeeded(form, true);
  else if (pageData.roll) resolveWith(form, { key: "roll", value: pageData.roll }, true);
}

// ---- the history page (/history): the rolls kept in this browser ------------------------

const CSV_COLUMNS = ["when", "ruleset", "procedure", "outcome", "dice", "how", "replay"];

function csvCell(value) {
  const text = String(value ?? "");
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

// Luck, per procedure: how often each outcome came up against how often it was expected
// (the sum of its exact chance over the rolls; a roll whose odds were not known is left out).
function luckOf(rolls) {
  const groups = new Map();
  for (const roll of rolls) {
    if (!roll.odds) continue;
    const key = `${roll.ruleset} ${roll.procedure}`;
    if (!groups.has(key)) groups.set(key, { key, title: roll.title || key, rolls: 0, outcomes: new Map(), labels: {} });
    const group = groups.get(key);
    group.rolls += 1;
    if (roll.label) group.labels[roll.outcome] = roll.label;
    for (const code of new Set([...Object.keys(roll.odds), roll.outcome])) {
      if (!group.outcomes.has(code)) group.outcomes.set(code, { code, obtained: 0, expected: ZERO });
      const tally = group.outcomes.get(code);
      if (code === roll.outcome) tally.obtained += 1;
      if (roll.odds[code]) tally.expected = sum(tally.expected, fractionOf(roll.odds[code]));
    }
  }
  return [...groups.values()].map((group) => ({
    key: group.key,
    title: group.title,
    rolls: group.rolls,
    outcomes: [...group.outcomes.values()].map((tally) => ({
      code: tally.code,
      label: outcomeLabel(tally.code, group.labels),
      obtained: tally.obtained,
      expected: (percentOfPair(tally.expected) / 100).toFixed(2),
      expectedExact: fractionText(tally.expected),
    })),
  }));
}

function historyPage() {
  return {
    rolls: loadHistory(),
    get newestFirst() {
      return [...this.rolls].reverse();
    },
    get luck() {
      return luckOf(this.rolls);
    },
    when(roll) {
      return new Date(roll.when).toLocaleString();
    },
    download(name, type, text) {
      const link = el("a", { href: URL.createObjectURL(new Blob([text], { type })), download: name });
      document.body.append(link);
      link.click();
      link.remove();
    },
    exportCsv() {
      const lines = [CSV_COLUMNS.join(",")];
      for (const roll of this.rolls) {
        lines.push(CSV_COLUMNS.map((column) =>
          csvCell(column === "replay" ? new URL(roll.replay, location.href).href : roll[column])).join(","));
      }
      this.download("firefight-history.csv", "text/csv", `${lines.join("\n")}\n`);
    },
    exportJson() {
      this.download("firefight-history.json", "application/json", `${JSON.stringify(this.rolls, null, 2)}\n`);
    },
    clear() {
      localStorage.removeItem(HISTORY_KEY);
      this.rolls = [];
    },
  };
}

// ---- the board page --------------------------------------------------------------------

function boardPage(svg) {
  const name = pageData.board;
  const los = document.getElementById("los");
  const line = document.getElementById("los-line");
  const fireBox = document.getElementById("fire-box");
  const fireLink = document.getElementById("fire-link");
  const firerInput = document.getElementById("firer");
  const targetInput = document.getElementById("target");
  let origin = null;

  const hexOf = (label) => svg.querySelector(`[data-hex="${CSS.escape(label)}"]`);
  const centre = (polygon) => {
    const box = polygon.getBBox();
    return [box.x + box.width / 2, box.y + box.height / 2];
  };
  const reset = () => {
    for (const node of svg.querySelectorAll(".not-visible, .origin, .target")) {
      node.classList.remove("not-visible", "origin", "target");
    }
    line.setAttribute("visibility", "hidden");
    fireBox.hidden = true;
  };

  async function look(label) {
    reset();
    origin = label;
    firerInput.value = label;
    targetInput.value = "";
    hexOf(label).classList.add("origin");
    los.replaceChildren(el("p", {}, TEXT.looking(label)));
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
    los.replaceChildren(el("p", {}, TEXT.sees(label, answer.data.count)));
  }

  async function judge(label) {
    for (const node of svg.querySelectorAll(".target")) node.classList.remove("target");
    hexOf(label).classList.add("target");
    targetInput.value = label;
    fireBox.hidden = true;
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
    if (v.blocked_by) reasons.append(el("li", {}, TEXT.blockedBy(v.blocked_by)));
    for (const note of v.notes) reasons.append(el("li", {}, note));
    los.replaceChildren(
      el("p", { class: `verdict verdict-${v.status}` },
        TEXT.verdict(v.from, v.to), el("strong", { class: "status" }, v.status),
        TEXT.rangeAndModifier(v.range, `${v.modifier >= 0 ? "+" : ""}${v.modifier}`)),
      reasons,
      el("p", { class: "hint" }, TEXT.again));
    if (v.status !== "blocked") {
      fireLink.href = `/boards/${name}/fire?${query}`;
      fireBox.hidden = false;
    }
  }

  function choose(label) {
    if (origin === null || label === origin) {
      if (label === origin) {
        origin = null;
        reset();
        firerInput.value = "";
        targetInput.value = "";
        los.replaceChildren(el("p", {}, TEXT.chooseFirer));
        return;
      }
      look(label);
    } else {
      judge(label);
    }
  }

  svg.addEventListener("click", (event) => {
    const polygon = event.target.closest("[data-hex]");
    if (polygon) choose(polygon.dataset.hex);
  });

  // The keyboard: one hex is in the tab order at a time; the arrows move between the printed
  // columns (left, right) and rows (up, down), whatever the labels; Enter or Space chooses.
  const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  svg.addEventListener("keydown", (event) => {
    const polygon = event.target.closest("[data-hex]");
    if (!polygon) return;
    const label = polygon.dataset.hex;
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      choose(label);
      return;
    }
    const move = moves[event.key];
    if (!move || polygon.dataset.column === undefined) return;
    event.preventDefault();
    const column = Number(polygon.dataset.column) + move[0];
    const row = Number(polygon.dataset.row) + move[1];
    const next = svg.querySelector(`[data-column="${column}"][data-row="${row}"]`);
    if (!next) return;
    polygon.setAttribute("tabindex", "-1");
    next.setAttribute("tabindex", "0");
    next.focus();
  });

  document.getElementById("line-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const firer = firerInput.value.trim();
    const target = targetInput.value.trim();
    if (!hexOf(firer)) {
      los.replaceChildren(el("p", { class: "error" }, TEXT.noFirer(firer)));
      return;
    }
    if (origin !== firer) await look(firer);
    if (target && target !== firer) {
      if (!hexOf(target)) {
        los.replaceChildren(el("p", { class: "error" }, TEXT.noTarget(target)));
        return;
      }
      await judge(target);
    }
  });
}

const inputsForm = document.getElementById("inputs");
// The odds view is drawn by Alpine.js from this store (templates/procedure.html); the page
// starts once Alpine is loaded (both scripts are deferred, this one first).
document.addEventListener("alpine:init", () => {
  Alpine.store("odds", {
    data: null,
    view: "exact",
    pinned: null,
    stale: false,
    missing: false,
    missingLabel: "",
    missingWhy: "",
    get rows() {
      return oddsRows(this.data, this.view, this.pinned);
    },
    pin() {
      const query = new URLSearchParams(location.search);
      const label = [...query].map(([name, value]) => `${name.replace(/_/g, " ")} ${value}`).join(", ");
      this.pinned = { data: this.data, href: location.href, label: label || TEXT.pageDefaults };
    },
    unpin() {
      this.pinned = null;
    },
  });
  Alpine.data("rollHistory", historyPage);
  if (inputsForm) procedurePage(inputsForm);
});
const boardSvg = document.getElementById("board");
if (boardSvg) boardPage(boardSvg);
