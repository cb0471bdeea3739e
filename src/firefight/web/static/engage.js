// The engagement page: POST the scenario to /engage/answer (the API's answer and its words in the
// page's language) and draw the answer as tables.
(function () {
  "use strict";
  const out = document.getElementById("engage-result");
  const text = (s) => String(s).replace(/[&<>"]/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c]));
  const value = (e) => {
    if (typeof e === "string") {
      const [n, d] = e.split("/");
      return d ? Number(n) / Number(d) : Number(n);
    }
    return e.estimate;
  };
  const pct = (e) => {
    let s = (100 * value(e)).toFixed(2) + " %";
    if (typeof e === "object" && e.interval) {
      s += ` [${(100 * e.interval[0]).toFixed(2)}, ${(100 * e.interval[1]).toFixed(2)}]`;
    }
    return s;
  };
  // A table of text cells; a cell's lines (one unit each) kept apart (app.css: pre-line).
  const table = (head, rows, id) =>
    `<div class="table-wrap" tabindex="0"><table${id ? ` id="${id}"` : ""}><tr>${head.map((h) => `<th>${text(h)}</th>`).join("")}</tr>` +
    rows.map((r) => `<tr>${r.map((c) => `<td>${text(c)}</td>`).join("")}</tr>`).join("") + "</table></div>";

  // The chance that each side still fights, turn by turn: axes in per cent and turns, the
  // sides' colours from the page's theme (app.css), as wide as the screen allows.
  function curve(data) {
    const w = 560, h = 240, left = 62, right = 12, top = 12, bottom = 40;
    const n = data.fighting.a.length - 1 || 1;
    const x = (t) => (left + (t / n) * (w - left - right)).toFixed(1);
    const y = (p) => (top + (1 - p) * (h - top - bottom)).toFixed(1);
    const line = (series) => series.map((e, t) => `${x(t)},${y(value(e))}`).join(" ");
    let svg = "";
    for (const p of [0, 0.25, 0.5, 0.75, 1]) {
      svg += `<line class="grid" x1="${left}" x2="${w - right}" y1="${y(p)}" y2="${y(p)}"></line>` +
        `<text class="tick" x="${left - 6}" y="${y(p)}" text-anchor="end" dominant-baseline="middle">${100 * p} %</text>`;
    }
    const step = Math.max(1, Math.ceil(n / 10));
    for (let t = 0; t <= n; t += step) {
      svg += `<text class="tick" x="${x(t)}" y="${h - bottom + 16}" text-anchor="middle">${t}</text>`;
    }
    svg += `<text class="axis" x="${(left + w - right) / 2}" y="${h - 4}" text-anchor="middle">${text(tr("turn"))}</text>` +
      `<text class="axis" transform="translate(14 ${(top + h - bottom) / 2}) rotate(-90)" text-anchor="middle">${text(tr("still fighting"))}</text>` +
      `<polyline class="side-a" points="${line(data.fighting.a)}"></polyline>` +
      `<polyline class="side-b" points="${line(data.fighting.b)}"></polyline>`;
    const caption = tr("{a} and {b} still fighting, turn 0 to {n}", {a: `<span class="side-a">${text(data.sides.a.name)}</span>`, b: `<span class="side-b">${text(data.sides.b.name)}</span>`, n});
    return `<figure class="curve-box"><svg class="curve" viewBox="0 0 ${w} ${h}" role="img" aria-label="${text(tr("still fighting"))}">${svg}</svg><figcaption>${caption}</figcaption></figure>`;
  }

  const resultNames = (d) => ({a_wins: tr("{side} win", {side: d.sides.a.name}), b_wins: tr("{side} win", {side: d.sides.b.name}), draw: tr("both out at once"), undecided: tr("still fighting after the last turn")});
  const given = document.getElementById("words");
  const labels = given ? JSON.parse(given.textContent) : {};
  const words = (s) => (Object.prototype.hasOwnProperty.call(labels, s) ? labels[s] : wordsOf(s, labels));
  // The answer's own words (POST /engage/answer): its units' states, its trace's notes, its
  // results and policies as the CLI words them, by the English text of the API's answer.
  let told = {};
  const said = (s) => (Object.prototype.hasOwnProperty.call(told, String(s)) ? told[String(s)] : words(s));
  const units = (lines, apart) => lines.map(said).join(apart);

  function showOdds(d) {
    const names = resultNames(d);
    let html = `<h2>${tr("How it ends")} — ${d.exact ? tr("exact") : tr("SAMPLED ({n} runs, 95 % intervals)", {n: d.n})}</h2>`;
    if (d.reason) html += `<p class="warning">${text(d.reason)}</p>`;
    html += table([tr("result"), tr("probability")], Object.entries(d.outcome).map(([k, e]) => [names[k], pct(e)]));
    const turns = typeof d.expected_turns === "string" ? value(d.expected_turns).toFixed(3) : pct(d.expected_turns).replace(" %", "");
    html += `<p>${tr("Expected turns fought:")} ${text(turns)}</p>`;
    html += curve(d);
    html += `<h2>${tr("By turn")}</h2>` + table([tr("turn"), tr("P(decided by)"), tr("P({side} fighting)", {side: d.sides.a.name}), tr("P({side} fighting)", {side: d.sides.b.name})],
      d.decided_by.map((e, t) => [t, pct(e), pct(d.fighting.a[t]), pct(d.fighting.b[t])]));
    const rows = [];
    for (const side of ["a", "b"]) {
      for (const [unit, e] of Object.entries(d.survivors[side])) rows.push([d.sides[side].name, unit, pct(e)]);
    }
    html += `<h2>${tr("Survivors")}</h2>` + table([tr("side"), tr("unit"), tr("P(not eliminated)")], rows);
    html += `<h2>${tr("Most likely end states (of {total})", {total: d.end_states_total})}</h2>` +
      table([tr("probability"), tr("result"), d.sides.a.name, d.sides.b.name],
        d.end_states.slice(0, 8).map((s) => [pct(s.probability), names[s.result] || said(s.result), units(s.a, "\n"), units(s.b, "\n")]), "end-states");
    out.innerHTML = html;
  }

  function showRun(d) {
    const names = d.sides ? resultNames(d) : {};
    const source = d.seed === null ? tr("Your dice") : tr("Seed {seed}", {seed: d.seed});
    let html = `<h2>${text(tr("{source}: {result}", {source, result: names[d.result] || said(d.result)}))}</h2>`;
    html += `<p>${tr("start:")} ${text(units(d.start.a, "; "))} | ${text(units(d.start.b, "; "))}</p>`;
    for (const turn of d.turns) {
      html += `<h3>${tr("Turn {turn}", {turn: turn.turn})}</h3>` + table([tr("step"), tr("value")], turn.trace.map((e) => [said(e.label), e.dice ? `${e.dice.join(" + ")} = ${e.value}` : said(e.value)]));
      html += `<p>${tr("after:")} ${text(units(turn.after.a, "; "))} | ${text(units(turn.after.b, "; "))}</p>`;
    }
    html += `<p class="replay">${tr("replay with:")} <code>${text(d.replay)}</code></p>`;
    out.innerHTML = html;
  }

  // The best fire plan: the optimal policy's value, each fire policy's and what it loses, then
  // the first turn's best allocations with the alternatives they beat.
  function showOptimal(d) {
    const win = d.objective === "win";
    const figure = (e) => (win ? pct(e) : value(e).toFixed(3));
    const loss = (e) => (win ? tr("{n} points", {n: (100 * value(e)).toFixed(2)}) : value(e).toFixed(3));
    const against = d.opponent === "optimal" ? tr("against an optimal opponent (minimax)") : tr("against the opponent's {policy} policy", {policy: said(d.opponent)});
    let html = `<h2>${tr("Best fire plan for {side}", {side: text(d.side_name)})} — ${tr("exact")}</h2>`;
    html += `<p>${text(win ? tr("P(win)") : tr("expected enemy losses"))}, ${text(against)}, ${tr("over {n} turns", {n: d.turns})}.</p>`;
    if (d.note) html += `<p class="warning">${text(tr("Simultaneous fire: the best response to the opponent's policy; mixed strategies are out of scope."))}</p>`;
    const rows = [[tr("optimal"), figure(d.optimal), "—"]].concat(d.heuristics.map((h) => [said(h.policy), figure(h.value), loss(h.loss)]));
    html += table([tr("fire policy"), win ? tr("P(win)") : tr("expected enemy losses"), tr("loss")], rows);
    if (d.both_scenario_policy !== null) html += `<p>${tr("Both sides playing the scenario's policy:")} ${text(figure(d.both_scenario_policy))}</p>`;
    for (const step of d.plan) {
      html += `<h3>${tr("Turn 1: {unit} fires at {target}", {unit: text(step.unit), target: text(step.best === null ? tr("nothing") : step.best)})}</h3>`;
      html += `<p>${tr("in the state it meets most often ({p}):", {p: pct(step.probability)})} ${text(units(step.state.a, "; "))} | ${text(units(step.state.b, "; "))}</p>`;
      html += table([tr("target"), win ? tr("P(win)") : tr("expected enemy losses"), tr("loss")],
        step.alternatives.map((a) => [a.target === null ? tr("no fire") : a.target, figure(a.value), loss(a.loss)]));
    }
    out.innerHTML = html;
  }

  async function ask(extra, show) {
    out.innerHTML = `<p>${text(tr("Working…"))}</p>`;
    const body = Object.assign({scenario: document.getElementById("scenario").value}, extra);
    const turns = document.getElementById("turns").value;
    if (turns && (extra.seed !== undefined || extra.roll !== undefined)) body.turns = Number(turns);
    const lang = encodeURIComponent(document.documentElement.lang || "en");
    const response = await fetch(`/engage/answer?lang=${lang}`, {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
    const data = await response.json();
    if (!response.ok) {
      out.innerHTML = `<p class="error">${text(data.detail)}</p>`;
      return;
    }
    told = data.words;
    show(data.answer);
  }

  document.getElementById("odds").addEventListener("click", () => ask({}, showOdds));
  document.getElementById("roll-seed").addEventListener("click", () => ask({seed: seedOf(document.getElementById("seed"))}, showRun));
  // The best fire plan's options; the opponent left out when the default is chosen.
  function optimalBody() {
    const body = {optimal: true, side: document.getElementById("optimal-side").value, objective: document.getElementById("optimal-objective").value};
    const against = document.getElementById("optimal-against").value;
    if (against) body.against = against;
    return body;
  }

  document.getElementById("optimal").addEventListener("click", () => ask(optimalBody(), showOptimal));
  document.getElementById("sample").addEventListener("change", (event) => { window.location.href = `/engage/${encodeURIComponent(event.target.value)}`; });
  document.getElementById("roll-dice").addEventListener("click", () => ask({roll: document.getElementById("dice").value}, showRun));
  if (document.getElementById("scenario").value.trim()) ask({}, showOdds);
})();
