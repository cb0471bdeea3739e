// firefight: the V&V scenario page's safest paths (loaded after scenario.js and
// scenario_results.js, whose helpers it uses: el, svgEl, tr, api, percent, layer, centre,
// result, pageData, stack, laneOptions, moveOptions, nameOf, namesOf, choiceWord). Click a stack, press
// "Safest paths", click the destination: the move's own API with "to" (the CLI's move --to
// --json, docs/advisor-paths.md) ranks the legal paths by their exact odds; the best are drawn
// on the board, the first solid, the others dashed, and listed with what makes each worse.
"use strict";

let seeking = false; // the next hex clicked is the destination
// move --objective, as the page words it
const OBJECTIVE_WORDS = {
  unpinned: tr("every unit unpinned"), not_eliminated: tr("no unit eliminated"), cps: tr("the fewest expected CPs"),
};

const safestButton = el("button", { type: "button", id: "safest-paths", class: "secondary" }, tr("Safest paths"));
document.getElementById("clear-path").after(" ", safestButton);

function pathsBody(to) {
  const policy = document.getElementById("policy").value;
  return { scenario: pageData.scenario, stack, to, policy, ...laneOptions(true), ...moveOptions() };
}

function drawBestPaths(found) {
  const group = layer("path");
  group.replaceChildren();
  const [sx, sy] = centre(found.stack);
  group.append(svgEl("circle", { cx: sx, cy: sy, r: 24, fill: "none", stroke: pageData.colours.path, "stroke-width": 3 }));
  // the worst first, so that the best is drawn on top
  for (const entry of [...found.paths].reverse()) {
    const hexes = [found.stack, ...entry.path];
    const best = entry.rank === 1;
    group.append(svgEl("polyline", {
      points: hexes.map((h) => centre(h).join(",")).join(" "), fill: "none",
      stroke: pageData.colours.path, "stroke-width": best ? 5 : 3, "stroke-linejoin": "round",
      "stroke-dasharray": best ? "none" : "7 5", opacity: best ? 0.9 : 0.6,
      class: "best-path", "data-rank": entry.rank, "data-path": entry.path.join(","),
    }));
    const [x, y] = centre(entry.path[entry.path.length - 1]);
    group.append(svgEl("text", { x: x + 12, y: y + 14 + 9 * (entry.rank - 1), class: "path-note",
      "data-rank-note": entry.rank, fill: pageData.colours.path, "font-size": 8, "font-weight": 700 },
      `#${entry.rank} ${Math.round(entry.unpinned.probability * 100)}%`));
  }
}

// What makes a path worse than a sure arrival: each hex where the first pin or worse may
// happen, its chance, and who fires there (AP groups, AT firers, lane markers).
function whereHit(entry) {
  if (!entry.where_hit.length) return tr("no fire reaches it");
  return entry.where_hit.map((hit) => {
    const who = [
      ...hit.fire.map((f) => tr("{firer} from {hex}", { firer: namesOf(f.firer), hex: f.firer_hex })),
      ...hit.at_fire.map((f) => tr("{firer} (AT) from {hex}", { firer: nameOf(f.firer), hex: f.firer_hex })),
    ];
    if (hit.lane_markers) who.push(tr("{count} lane marker(s)", { count: hit.lane_markers }));
    return tr("{hex}: {percent}", { hex: hit.hex, percent: percent(hit.first_hit.fraction) })
      + (who.length ? ` (${who.join(", ")})` : "");
  }).join("; ");
}

function usePath(entry) {
  path.splice(0, path.length, ...entry.path);
  const assault = document.querySelector('#move-options div.field[data-field="assault"] input');
  if (assault) assault.checked = entry.assault;
  showMove();
}

async function showSafest(to) {
  result.replaceChildren(el("p", {}, tr("searching the safest paths…")));
  const answer = await api("POST", pageData.api + "/move", pathsBody(to));
  if (!answer.ok) { error(answer); return; }
  const found = answer.data;
  if (!found.paths.length) {
    result.replaceChildren(el("p", { id: "paths-none" }, tr("No legal path takes stack {stack} to {hex}.", { stack: found.stack, hex: found.to })));
    return;
  }
  drawBestPaths(found);
  const rows = el("tbody");
  for (const entry of found.paths) {
    const button = el("button", { type: "button", class: "secondary", "data-use": entry.rank }, tr("odds hex by hex"));
    button.addEventListener("click", () => usePath(entry));
    rows.append(el("tr", { "data-rank": entry.rank },
      el("td", { class: "num" }, `#${entry.rank}`),
      el("td", { class: "hex" }, entry.path.join(" ")),
      el("td", {}, entry.assault ? tr("Assault Movement") : tr("normal")),
      // each number labelled with its column's words: the rows are blocks in a narrow panel
      el("td", { class: "num", "data-label": tr("all unpinned") }, percent(entry.unpinned.fraction)),
      el("td", { class: "num", "data-label": tr("none eliminated") }, percent(entry.not_eliminated.fraction)),
      el("td", { class: "num", "data-label": tr("expected CPs") }, entry.cps.expected.toFixed(2)),
      el("td", { class: "where-hit", "data-label": tr("first pin or worse") }, whereHit(entry)),
      el("td", {}, button)));
  }
  result.replaceChildren(
    el("h2", {}, tr("Safest paths: stack {stack} → {hex} ({policy}, exact)", { stack: found.stack, hex: found.to, policy: choiceWord("#policy", found.policy) })),
    el("p", { class: "hint" }, tr("Ranked by {objective}; {count} paths evaluated.", { objective: OBJECTIVE_WORDS[found.objective] || found.objective, count: found.evaluated })),
    el("div", { class: "table-wrap" }, el("table", { id: "best-paths" }, el("thead", {}, el("tr", {},
      el("th", {}, "#"), el("th", {}, tr("path")), el("th", {}, tr("move")), el("th", {}, tr("all unpinned")),
      el("th", {}, tr("none eliminated")), el("th", {}, tr("expected CPs")), el("th", {}, tr("first pin or worse")),
      el("th", {}, ""))), rows)),
  );
}

safestButton.addEventListener("click", () => {
  if (!stack) {
    result.replaceChildren(el("p", { class: "error" }, tr("Click a stack first, then its destination.")));
    return;
  }
  seeking = true;
  path.splice(0, path.length);
  drawPath();
  result.replaceChildren(el("p", { id: "paths-hint" }, tr("Click the destination of stack {stack}.", { stack })));
});

// In the capture phase: while a destination is awaited, the click is this script's.
board.addEventListener("click", (event) => {
  if (!seeking) return;
  const counter = event.target.closest("[data-stack]");
  const polygon = event.target.closest("[data-hex]");
  const label = counter ? counter.dataset.stack : polygon && polygon.dataset.hex;
  if (!label) return;
  event.stopPropagation();
  seeking = false;
  showSafest(label);
}, true);
