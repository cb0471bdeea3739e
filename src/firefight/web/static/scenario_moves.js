// firefight: the V&V scenario page's move options and overruns (loaded after scenario.js,
// whose helpers it uses: el, tr, percent, result, pageData). The options are the controls
// generated from the move's input model under "More move options"; an overrun (19) answers
// with its own shape (the CLI's move --overrun --json).
"use strict";

// A generated control's text as its field's JSON (pageData.shapes: the input model's types):
// "0306,0406" a list, "0406=us-sq2/us-sq1,all=..." a list per key (a bare "ID/ID": all), the
// rest as typed. The server checks what it gets, in one line naming the field.
function written(shape, text) {
  const tokens = text.split(",").map((t) => t.trim()).filter((t) => t);
  if (shape === "list") return tokens;
  if (shape !== "orders" && shape !== "pairs") return text;
  const found = {};
  for (const token of tokens) {
    const cut = token.lastIndexOf("=");
    const key = cut < 0 ? "all" : token.slice(0, cut).trim();
    const rest = token.slice(cut + 1).trim();
    found[key] = shape === "orders" ? rest.split("/").map((u) => u.trim()) : rest;
  }
  return found;
}

// The move's other options (the generated controls under "More move options"): those set.
function moveOptions() {
  const options = {};
  for (const field of document.querySelectorAll("#move-options div.field")) {
    const name = field.dataset.field;
    const input = field.querySelector("input, select");
    if (input.type === "checkbox") {
      if (input.checked) options[name] = true;
      continue;
    }
    const text = input.value.trim();
    if (!text) continue;
    options[name] = input.type === "number" ? Number(text) : written(pageData.shapes.move[name], text);
  }
  return options;
}

// A choice's value as its control words it (the option's text, in the page's language), else
// its words ("least_rating_lost" -> "least rating lost").
function choiceWord(control, value) {
  const option = [...document.querySelectorAll(`${control} option`)].find((o) => o.value === value);
  return option ? option.textContent : wordsOf(value);
}

// What an overrun leaves (19): the AFV's fate and where it stopped ("immobilized_abandoned at
// approach 1", "unhurt at exit") and each defender's state ("not attacked", a 14.6 end state),
// worded; the units by their names (scenario_results.js: nameOf, stateWord).
const AFV_FATES = {
  unhurt: tr("unhurt"),
  abandoned: tr("abandoned"),
  immobilized: tr("immobilized"),
  immobilized_abandoned: tr("immobilized, then abandoned"),
  eliminated: tr("eliminated"),
};
const NOT_ATTACKED = "not attacked";

function fateWords(fate) {
  const [state, stopped] = fate.split(" at ");
  const word = AFV_FATES[state] || stateWord(state);
  if (stopped === "exit") return tr("{state}, at the exit hex", { state: word });
  const approach = /^approach (\d+)$/.exec(stopped || "");
  return approach ? tr("{state}, at approach hex {n}", { state: word, n: approach[1] }) : word;
}
const defenderWords = (state) => (state === NOT_ATTACKED ? tr("not attacked") : stateWord(state));

// A rolled overrun's outcome ("afv unhurt at exit; eliminated, pinned"): the AFV's fate, then
// each defender's state in the target hex's order, by the units' names.
function overrunOutcome(outcome, overrun) {
  const [afvPart, defendersPart] = outcome.split("; ");
  const parts = [`${nameOf(overrun.afv)}: ${fateWords(afvPart.replace(/^afv /, ""))}`];
  const states = defendersPart && defendersPart !== "no attack" ? defendersPart.split(", ") : [];
  overrun.defenders.forEach((unit, k) => {
    parts.push(`${nameOf(unit)}: ${defenderWords(states[k] || NOT_ATTACKED)}`);
  });
  return parts.join("; ");
}

// An overrun's odds (19, the CLI's move --overrun): its AT fire as the policy chose it, its
// attack on the hex, the AFV's and each defender's end, the whole outcomes.
function overrunHead(overrun) {
  const fire = overrun.at_fire.map((f) => tr("{firer} at {hex}", { firer: nameOf(f.firer), hex: f.hex })).join(", ");
  return [
    el("h2", {}, tr("Overrun of {hex} by {afv} (exit {exit}, {policy})", { hex: overrun.target, afv: nameOf(overrun.afv), exit: overrun.exit, policy: choiceWord("#policy", overrun.policy) })),
    el("p", { id: "overrun-attack" }, tr("attack: {apfp} APFP ({passengers} carried), row {row}; AT fire: {fire}; defenders' CPs: {allocation}", {
      apfp: overrun.attack.apfp, passengers: overrun.attack.passenger_apfp, row: overrun.attack.row,
      fire: fire || "—", allocation: choiceWord("#f-casualty_policy", overrun.allocation.policy) })),
  ];
}

function showOverrun(move) {
  const defenders = el("ul", { id: "overrun-defenders" });
  for (const [unit, outcomes] of Object.entries(move.defenders)) {
    defenders.append(el("li", { "data-unit": unit }, `${nameOf(unit)}: ` + outcomes.map((o) => `${defenderWords(o.state)} ${percent(o.fraction)}`).join("; ")));
  }
  const afv = el("ul", { id: "overrun-afv" }, ...move.afv.map((o) => el("li", {}, `${fateWords(o.state)} ${percent(o.fraction)}`)));
  result.replaceChildren(...overrunHead(move.overrun),
    el("h3", {}, tr("The AFV: {afv}", { afv: nameOf(move.overrun.afv) })), afv, el("h3", {}, tr("The defenders")), defenders);
}

function showOverrunRoll(run) {
  result.replaceChildren(...overrunHead(run.overrun),
    el("h2", {}, tr("Roll (seed {seed})", { seed: run.seed })),
    el("p", { id: "roll-outcome" }, overrunOutcome(run.outcome, run.overrun)),
    el("ol", { id: "trace" }, ...run.trace.map((event) => el("li", {}, `${tr(event.label)}: ${wordsOf(event.value)}`))),
    el("p", { class: "hint" }, tr("Dice to replay it: {dice}", { dice: run.replay.join(",") })));
}
