// The shared table (docs/pbem.md): the seed is drawn and kept here, in the browser; the server
// sees the anchor, then one element per resolution, then the seed at the end.
"use strict";

const hex = (bytes) => Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
const unhex = (text) => new Uint8Array(text.match(/../g).map((h) => parseInt(h, 16)));
const sha = async (bytes) => new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));

// c0 = SHA-256(seed), c(k) = SHA-256(c(k-1)); the element of resolution i is c(length - i).
async function element(seedHex, length, index) {
  let value = await sha(unhex(seedHex));
  for (let k = 0; k < length - index; k += 1) value = await sha(value);
  return hex(value);
}

function showError(text) {
  document.getElementById("error").textContent = text || "";
}

async function send(method, url, token, body) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(url, { method, headers, body: body ? JSON.stringify(body) : undefined });
  const data = await response.json();
  if (!response.ok) throw new Error(data.detail || response.statusText);
  return data;
}

function createPage() {
  document.getElementById("create").addEventListener("submit", async (event) => {
    event.preventDefault();
    showError("");
    try {
      const made = await send("POST", "/api/table", null, {
        scenario: document.getElementById("scenario").value,
        players: { A: document.getElementById("player-a").value, B: document.getElementById("player-b").value },
      });
      for (const side of ["A", "B"]) {
        const link = document.getElementById(`link-${side.toLowerCase()}`);
        link.href = made.links[side];
        link.textContent = new URL(made.links[side], location.href).href;
      }
      for (const button of document.querySelectorAll("button.copy")) {
        button.addEventListener("click", async () => {
          const link = document.getElementById(button.dataset.link);
          await navigator.clipboard.writeText(link.textContent);
          button.textContent = tr("Copied");
        });
      }
      document.getElementById("links").hidden = false;
    } catch (error) {
      showError(error.message);
    }
  });
}

function gamePage(game) {
  const token = location.hash.slice(1);
  let seen = 0;
  let state = null;
  let busy = false;
  const rulesetTitles = {};
  const storageKey = () => `firefight-table:${game}:${state.side}`;

  // Each side's chain, as far as it is revealed: the anchor it committed to (index 0), then
  // each element it revealed. An element of index i follows the last one revealed (index j)
  // when hashing it i - j times gives that one: checked here, in the browser, independently
  // of the server.
  const chains = {};
  const verdicts = {};
  async function follows(side, index, value) {
    const last = chains[side];
    if (!last || index <= last.index) return false;
    let hashed = unhex(value);
    for (let k = 0; k < index - last.index; k += 1) hashed = await sha(hashed);
    const ok = hex(hashed) === last.element;
    if (ok) chains[side] = { index, element: value };
    return ok;
  }

  const who = (side) => tr("{player} (side {side})", { player: state.players[side] || side, side });
  const procedureWords = (b) => {
    const ruleset = rulesetTitles[b.ruleset] || b.ruleset;
    return `${ruleset} — ${String(b.procedure).replaceAll("_", " ")}`;
  };
  const inputWords = (input) => Object.entries(input || {})
    .filter(([, v]) => v !== null && v !== false)
    .map(([k, v]) => {
      const name = k.replaceAll("_", " ");
      if (v === true) return name;
      return `${name} ${(Array.isArray(v) ? v.join(" ") : String(v)).replaceAll("_", " ")}`;
    })
    .join(", ");
  const KINDS = {
    "pbem-table": () => tr("table opened"),
    "pbem-offer": () => tr("commitment"),
    "pbem-join": () => tr("commitment"),
    "pbem-declare": () => tr("declaration"),
    resolution: () => tr("roll"),
    "pbem-seed": () => tr("seed revealed"),
  };

  const describe = (entry) => {
    const b = entry.body;
    if (entry.kind === "pbem-table") return tr("{a} (side A) against {b} (side B)", { a: b.players.A, b: b.players.B });
    if (entry.kind === "pbem-offer" || entry.kind === "pbem-join") {
      return tr("{who} commits to a secret chain of dice elements", { who: who(b.side) });
    }
    if (entry.kind === "pbem-declare") {
      return tr("{who} declares resolution {index}: {procedure}; {input}", {
        who: who(b.side), index: b.index, procedure: procedureWords(b), input: inputWords(b.input) });
    }
    if (entry.kind === "resolution") {
      return tr("{who} reveals an element: dice {dice}, result {outcome}", {
        who: who(b.side), dice: b.dice.join(", "), outcome: b.outcome });
    }
    if (entry.kind === "pbem-seed") return tr("{who} reveals the seed: every roll can now be recomputed", { who: who(b.side) });
    return entry.kind;
  };

  async function verify(entry) {
    const b = entry.body;
    if (entry.kind === "pbem-offer" || entry.kind === "pbem-join") chains[b.side] = { index: 0, element: b.anchor };
    if (entry.kind === "pbem-declare") verdicts[b.index] = await follows(b.side, b.index, b.element);
    if (entry.kind === "resolution") verdicts[b.index] = verdicts[b.index] && await follows(b.side, b.index, b.element);
  }

  const addEntries = async (entries) => {
    const body = document.querySelector("#journal tbody");
    for (const entry of entries) {
      await verify(entry);
      const row = body.insertRow();
      const kind = KINDS[entry.kind] ? KINDS[entry.kind]() : entry.kind;
      for (const text of [entry.seq, kind, describe(entry)]) row.insertCell().textContent = String(text);
      const fingerprint = row.insertCell();
      fingerprint.append(Object.assign(document.createElement("code"), { textContent: `${entry.hash.slice(0, 12)}…`, title: entry.hash }));
      if (entry.kind === "resolution") {
        const b = entry.body;
        const item = document.createElement("li");
        item.className = "roll";
        item.append(Object.assign(document.createElement("span"), {
          textContent: tr("Resolution {index}, declared by {who}: {procedure}; dice {dice} → {outcome}", {
            index: b.index, who: who(b.actor), procedure: procedureWords(b), dice: b.dice.join(", "), outcome: b.outcome }),
        }));
        const ok = verdicts[b.index];
        item.append(" ", Object.assign(document.createElement("strong"), {
          className: ok ? "verified" : "not-verified",
          textContent: ok ? tr("✓ both elements follow their players' commitments") : tr("✗ an element does not follow its player's commitment"),
        }));
        document.getElementById("rolls").append(item);
      }
      seen = entry.seq;
    }
  };

  // Whose turn it is and what is awaited from whom, in words.
  function turnText() {
    const other = state.side === "A" ? "B" : "A";
    switch (state.expects) {
      case "commit": return tr("Your browser is committing to its secret chain…");
      case "declare": return tr("Your turn: declare a resolution, or end the game.");
      case "answer": return tr("{who} declared resolution {index}: reveal your element to roll the dice.", { who: who(other), index: state.open.index });
      case "seed": return tr("{who} ended the game: reveal your seed.", { who: who(other) });
      case "over": return tr("The game is over: both seeds are revealed, and every roll can be recomputed (firefight pbem verify).");
      default:
        if (!state.id) return tr("Waiting for {who} to open their link.", { who: who(other) });
        if (state.open) return tr("Waiting for {who} to reveal their element for resolution {index}.", { who: who(other), index: state.open.index });
        return tr("Waiting for {who} to reveal their seed.", { who: who(other) });
    }
  }

  async function step(path, body) {
    showError("");
    busy = true;
    try {
      await send("POST", `/api/table/${game}/${path}`, token, body);
    } catch (error) {
      showError(error.message);
    } finally {
      busy = false;
    }
    await poll();
  }

  async function commit() {
    let seed = localStorage.getItem(storageKey());
    if (!seed) {
      seed = hex(crypto.getRandomValues(new Uint8Array(32)));
      localStorage.setItem(storageKey(), seed);
    }
    await step("commit", { anchor: await element(seed, state.length, 0) });
  }

  const mySeed = () => localStorage.getItem(storageKey());

  // One poll at a time: the entries are checked in order, each chain hashed in the browser.
  let polling = false;
  async function poll() {
    if (busy || polling) return;
    polling = true;
    try {
      await pollOnce();
    } finally {
      polling = false;
    }
  }

  async function pollOnce() {
    try {
      state = await send("GET", `/api/table/${game}?after=${seen}`, token);
    } catch (error) {
      showError(error.message);
      return;
    }
    await addEntries(state.entries);
    document.getElementById("my-side").textContent = state.side;
    document.getElementById("my-player").textContent = state.players[state.side];
    const scenario = document.getElementById("table-scenario");
    scenario.textContent = state.scenario ? tr("scenario: {scenario}", { scenario: state.scenario }) : "";
    scenario.hidden = !state.scenario;
    document.getElementById("status").textContent = turnText();
    document.getElementById("declare-box").hidden = state.expects !== "declare";
    document.getElementById("answer-box").hidden = state.expects !== "answer";
    document.getElementById("seed-box").hidden = !["declare", "seed"].includes(state.expects);
    if (state.open) {
      document.getElementById("declared").textContent = tr("resolution {index}: {procedure}; {input}", {
        index: state.open.index, procedure: procedureWords(state.open), input: inputWords(state.open.input) });
    }
    if (state.expects === "commit" && !busy) await commit();
  }

  async function fillProcedures() {
    const rulesets = (await send("GET", "/api/rulesets")).filter((r) => !r.left_out);
    for (const r of rulesets) rulesetTitles[r.id] = r.title;
    const rulesetSelect = document.getElementById("ruleset");
    const procedureSelect = document.getElementById("procedure");
    const fill = () => {
      const found = rulesets.find((r) => r.id === rulesetSelect.value);
      procedureSelect.replaceChildren(...found.procedures.map((p) => new Option(p.name || p, p.name || p)));
    };
    rulesetSelect.replaceChildren(...rulesets.map((r) => new Option(r.title || r.id, r.id)));
    rulesetSelect.value = rulesets.some((r) => r.id === "ept") ? "ept" : rulesets[0].id;
    rulesetSelect.addEventListener("change", fill);
    fill();
  }

  document.getElementById("declare").addEventListener("click", async () => {
    let input;
    try {
      input = JSON.parse(document.getElementById("input").value);
    } catch {
      showError("'input' must be a JSON object of the procedure's inputs");
      return;
    }
    const index = state.resolved + 1;
    await step("declare", {
      ruleset: document.getElementById("ruleset").value,
      procedure: document.getElementById("procedure").value,
      input,
      element: await element(mySeed(), state.length, index),
    });
  });
  document.getElementById("answer").addEventListener("click", async () => {
    await step("answer", { element: await element(mySeed(), state.length, state.open.index) });
  });
  document.getElementById("end").addEventListener("click", async () => {
    await step("seed", { seed: mySeed() });
  });

  if (!token) {
    showError(tr("this link has no player token (#…): use the link the game's creator gave you"));
    return;
  }
  fillProcedures().catch((error) => showError(error.message)).finally(poll);
  setInterval(poll, 1000);
}

const name = document.getElementById("game-name");
if (name) gamePage(name.textContent);
else createPage();
