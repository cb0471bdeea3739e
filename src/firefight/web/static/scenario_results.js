// firefight: the V&V scenario page's results in words and pictures (loaded after scenario.js,
// whose helpers it uses: el, tr, percent, valueOf, pageData): the units by their names, the
// chance of the first pin in each hex of the path as a bar, where each unit ends as a stacked
// bar of its end states.
"use strict";

// A unit's name as the scenario gives it, and a fire group's ("de-sq1+de-ldr") names.
function nameOf(id) {
  const unit = pageData.units.find((u) => u.id === id);
  return unit && unit.name ? unit.name : id;
}
const namesOf = (group) => group.split("+").map(nameOf).join(" + ");
const listed = (groups) => groups.map(namesOf).join(", ") || "—";
// A weapon as the answers name it, its owner's id first ("de-sq1 MG42"): by the owner's name.
const weaponOf = (mg) => mg.replace(/^\S+/, nameOf);

// The end states a unit can reach (casualties, 14.6), worded, in order of harm.
const STATES = {
  unhurt: tr("unhurt"),
  pinned: tr("pinned"),
  reduced: tr("reduced"),
  reduced_pinned: tr("reduced and pinned"),
  eliminated: tr("eliminated"),
};
const stateWord = (state) => STATES[state] || state.replace(/_/g, " ");
const stateClass = (state) => `state-${Object.prototype.hasOwnProperty.call(STATES, state) ? state : "other"}`;
const harm = (state) => {
  const rank = Object.keys(STATES).indexOf(state);
  return rank < 0 ? Object.keys(STATES).length : rank;
};

// The chance that the first pin or worse happens in a hex: its bar and its percentage.
function pinCell(firstHit) {
  const bar = el("span", { class: "pin-track", "aria-hidden": "true" }, el("span", { style: `width: ${(firstHit.probability * 100).toFixed(2)}%` }));
  return el("td", { class: "first-hit" }, el("span", { class: "pin-cell" }, bar, percent(firstHit.fraction)));
}

// Where each unit ends: a row a unit, by its name; a stacked bar of its end states (a segment
// an end state in a hex, in order of harm) and the same in words under it (what is read out).
function endStates(outcomes) {
  const rows = el("tbody");
  for (const [unit, found] of Object.entries(outcomes)) {
    const ordered = [...found].sort((a, b) => harm(a.state) - harm(b.state) || a.hex.localeCompare(b.hex));
    const words = ordered.map((o) => tr("{state} in {hex} {percent}", { state: stateWord(o.state), hex: o.hex, percent: percent(o.fraction) }));
    const bar = el("div", { class: "end-bar", "aria-hidden": "true" },
      ...ordered.map((o, k) => el("span", {
        class: stateClass(o.state), style: `width: ${(valueOf(o.fraction) * 100).toFixed(3)}%`,
        title: words[k], "data-state": o.state, "data-hex": o.hex,
      })));
    const list = el("ul", { class: "end-list" }, ...ordered.map((o, k) =>
      el("li", {}, el("span", { class: `end-swatch ${stateClass(o.state)}` }), words[k])));
    rows.append(el("tr", { "data-unit": unit }, el("th", { scope: "row" }, nameOf(unit)), el("td", {}, bar, list)));
  }
  return el("div", { class: "table-wrap" }, el("table", { id: "end-states" },
    el("thead", {}, el("tr", {}, el("th", {}, tr("unit")), el("th", {}, tr("end state, hex and chance")))), rows));
}
