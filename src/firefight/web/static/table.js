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
  const storageKey = () => `firefight-table:${game}:${state.side}`;

  const describe = (entry) => {
    const b = entry.body;
    if (entry.kind === "pbem-table") return tr("table: {a} (A) against {b} (B)", { a: b.players.A, b: b.players.B });
    if (entry.kind === "pbem-offer" || entry.kind === "pbem-join") {
      return tr("side {side} commits to {anchor}…", { side: b.side, anchor: b.anchor.slice(0, 12) });
    }
    if (entry.kind === "pbem-declare") {
      return tr("side {side} declares {index}: {ruleset} {procedure} {input}", {
        side: b.side, index: b.index, ruleset: b.ruleset, procedure: b.procedure, input: JSON.stringify(b.input) });
    }
    if (entry.kind === "resolution") {
      return tr("side {side} reveals; resolution {index}: dice {dice} -> {outcome}", {
        side: b.side, index: b.index, dice: b.dice.join(","), outcome: b.outcome });
    }
    if (entry.kind === "pbem-seed") return tr("side {side} reveals his seed", { side: b.side });
    return entry.kind;
  };

  const addEntries = (entries) => {
    const body = document.querySelector("#journal tbody");
    for (const entry of entries) {
      const row = body.insertRow();
      for (const text of [entry.seq, entry.kind, entry.who, describe(entry), `${entry.hash.slice(0, 12)}…`]) {
        row.insertCell().textContent = String(text);
      }
      if (entry.kind === "resolution") {
        const item = document.createElement("li");
        item.className = "roll";
        item.textContent = tr("Resolution {index}, {who}: {ruleset} {procedure}, dice {dice} → {outcome}", {
          index: entry.body.index, who: entry.who, ruleset: entry.body.ruleset, procedure: entry.body.procedure,
          dice: entry.body.dice.join(","), outcome: entry.body.outcome });
        document.getElementById("rolls").append(item);
      }
      seen = entry.seq;
    }
  };

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

  async function poll() {
    if (busy) return;
    try {
      state = await send("GET", `/api/table/${game}?after=${seen}`, token);
    } catch (error) {
      showError(error.message);
      return;
    }
    addEntries(state.entries);
    document.getElementById("my-side").textContent = state.side;
    document.getElementById("my-player").textContent = state.players[state.side];
    document.getElementById("scenario-text").textContent = state.scenario;
    document.getElementById("status").textContent = state.status;
    document.getElementById("declare-box").hidden = state.expects !== "declare";
    document.getElementById("answer-box").hidden = state.expects !== "answer";
    document.getElementById("seed-box").hidden = !["declare", "seed"].includes(state.expects);
    if (state.open) {
      document.getElementById("declared").textContent =
        `resolution ${state.open.index}: ${state.open.ruleset} ${state.open.procedure} ${JSON.stringify(state.open.input)}`;
    }
    if (state.expects === "commit" && !busy) await commit();
  }

  async function fillProcedures() {
    const rulesets = await send("GET", "/api/rulesets");
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
  fillProcedures().catch((error) => showError(error.message));
  poll();
  setInterval(poll, 1000);
}

const name = document.getElementById("game-name");
if (name) gamePage(name.textContent);
else createPage();
