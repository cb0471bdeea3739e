// The engagement page: POST the scenario to /api/engage and draw the answer as tables.
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
  const table = (head, rows) =>
    `<table><tr>${head.map((h) => `<th>${text(h)}</th>`).join("")}</tr>` +
    rows.map((r) => `<tr>${r.map((c) => `<td>${text(c)}</td>`).join("")}</tr>`).join("") + "</table>";

  function curve(data) {
    const w = 420, h = 160, n = data.fighting.a.length - 1 || 1;
    const line = (series) => series.map((e, t) => `${(t / n) * w},${h - value(e) * h}`).join(" ");
    return `<svg class="curve" viewBox="-10 -10 ${w + 20} ${h + 20}" width="${w + 20}" height="${h + 20}">` +
      `<rect x="0" y="0" width="${w}" height="${h}" fill="none" stroke="#999"></rect>` +
      `<polyline points="${line(data.fighting.a)}" fill="none" stroke="#1f77b4" stroke-width="2"></polyline>` +
      `<polyline points="${line(data.fighting.b)}" fill="none" stroke="#d62728" stroke-width="2"></polyline></svg>` +
      `<p>${tr("{a} and {b} still fighting, turn 0 to {n}", {a: `<span style="color:#1f77b4">${text(data.sides.a.name)}</span>`, b: `<span style="color:#d62728">${text(data.sides.b.name)}</span>`, n})}</p>`;
  }

  function showOdds(d) {
    const names = {a_wins: tr("{side} win", {side: d.sides.a.name}), b_wins: tr("{side} win", {side: d.sides.b.name}), draw: tr("both out at once"), undecided: tr("still fighting after the last turn")};
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
        d.end_states.slice(0, 8).map((s) => [pct(s.probability), s.result, s.a.join("; "), s.b.join("; ")]));
    out.innerHTML = html;
  }

  function showRun(d) {
    let html = `<h2>${d.seed === null ? tr("Your dice") : tr("Seed {seed}", {seed: d.seed})}: ${text(d.result)}</h2>`;
    for (const turn of d.turns) {
      html += `<h3>${tr("Turn {turn}", {turn: turn.turn})}</h3>` + table([tr("step"), tr("value")], turn.trace.map((e) => [e.label, e.dice ? `${e.dice.join(" + ")} = ${e.value}` : e.value]));
      html += `<p>${tr("after:")} ${text(turn.after.a.join("; "))} | ${text(turn.after.b.join("; "))}</p>`;
    }
    html += `<p class="replay">${tr("replay with:")} ${text(d.replay)}</p>`;
    out.innerHTML = html;
  }

  async function ask(extra, show) {
    out.innerHTML = "<p>Working…</p>";
    const body = Object.assign({scenario: document.getElementById("scenario").value}, extra);
    const turns = document.getElementById("turns").value;
    if (turns && (extra.seed !== undefined || extra.roll !== undefined)) body.turns = Number(turns);
    const response = await fetch("/api/engage", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
    const data = await response.json();
    if (!response.ok) {
      out.innerHTML = `<p class="error">${text(data.detail)}</p>`;
      return;
    }
    show(data);
  }

  document.getElementById("odds").addEventListener("click", () => ask({}, showOdds));
  document.getElementById("roll-seed").addEventListener("click", () => ask({seed: Number(document.getElementById("seed").value || 0)}, showRun));
  document.getElementById("roll-dice").addEventListener("click", () => ask({roll: document.getElementById("dice").value}, showRun));
  if (document.getElementById("scenario").value.trim()) ask({}, showOdds);
})();
